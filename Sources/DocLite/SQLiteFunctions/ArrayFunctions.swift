import CSQLite

/// N1QL array functions; `array_contains` is `doc_array_contains`
/// and `array_of` is `doc_array` (``QueryFunctions``). A non-array argument gives null.
///
/// - `doc_array_avg(a)`: the mean of the elements as a double, non-numbers counting as 0; `[]` → 0.
/// - `doc_array_count(a)`: the number of elements that are not null.
/// - `doc_array_ifnull(a)`: the first element that is not null, else null.
/// - `doc_array_length(a)`: the number of elements.
/// - `doc_array_max(a)`, `doc_array_min(a)`: the largest/smallest number, as a
///   double; null when there is none.
/// - `doc_array_sum(a)`: the sum of the numbers, as a double.
enum ArrayFunctions {
    static func register(with registrar: FunctionRegistrar) {
        registrar.add("doc_array_avg", 1) { context, argc, argv in
            ArrayFunctions.withArray(context, argc, argv) { body, offset in
                var sum = 0.0, count = 0
                body.forEachElement(ofArrayAt: offset) { sum += RuntimeValue(body, at: $0).number ?? 0; count += 1 }
                FunctionResult.setDouble(context, count == 0 ? 0 : sum / Double(count))
            }
        }
        registrar.add("doc_array_count", 1) { context, argc, argv in
            ArrayFunctions.withArray(context, argc, argv) { body, offset in
                var count: Int64 = 0
                body.forEachElement(ofArrayAt: offset) { if body.type(at: $0) != .null { count += 1 } }
                sqlite3_result_int64(context, count)
            }
        }
        registrar.add("doc_array_ifnull", 1) { context, argc, argv in
            ArrayFunctions.withArray(context, argc, argv) { body, offset in
                var found: Int?
                body.forEachElement(ofArrayAt: offset) { if found == nil, body.type(at: $0) != .null { found = $0 } }
                if let found { RuntimeSubtype.setResult(context, body, at: found) } else { FunctionResult.setNull(context) }
            }
        }
        registrar.add("doc_array_length", 1) { context, argc, argv in
            ArrayFunctions.withArray(context, argc, argv) { body, offset in
                sqlite3_result_int64(context, Int64(body.count(at: offset) ?? 0))
            }
        }
        for (name, isMax) in [("doc_array_max", true), ("doc_array_min", false)] {
            registrar.add(name, 1, userData: Extreme(isMax: isMax)) { context, argc, argv in
                ArrayFunctions.withArray(context, argc, argv) { body, offset in
                    let isMax = FunctionRegistrar.userData(context, as: Extreme.self).takeUnretainedValue().isMax
                    var best: Double?
                    body.forEachElement(ofArrayAt: offset) {
                        guard let number = RuntimeValue(body, at: $0).number else { return }
                        if let current = best, isMax ? number <= current : number >= current { return }
                        best = number
                    }
                    if let best { FunctionResult.setDouble(context, best) } else { FunctionResult.setNull(context) }
                }
            }
        }
        registrar.add("doc_array_sum", 1) { context, argc, argv in
            ArrayFunctions.withArray(context, argc, argv) { body, offset in
                var sum = 0.0
                body.forEachElement(ofArrayAt: offset) { sum += RuntimeValue(body, at: $0).number ?? 0 }
                FunctionResult.setDouble(context, sum)
            }
        }
    }

    /// Which end `array_max`/`array_min` looks for, as user data.
    private final class Extreme {
        let isMax: Bool
        init(isMax: Bool) { self.isMax = isMax }
    }

    /// Applies N1QL's MISSING/null rule and calls `use` with the array argument;
    /// a non-array gives null.
    private static func withArray(_ context: OpaquePointer?, _ argc: Int32, _ argv: UnsafeMutablePointer<OpaquePointer?>?,
                                  _ use: (Body, Int) -> Void) {
        guard !RuntimeValue.propagateMissingOrNull(context, argc, argv) else { return }
        guard case .array(let body, let offset) = RuntimeValue(argv![0]) else { FunctionResult.setNull(context); return }
        use(body, offset)
    }
}
