import CSQLite

/// N1QL regular-expression functions on PCRE2 (the syntax's differences from Couchbase Lite's ECMAScript are in docs/differences.md).
/// The pattern is compiled once per statement (``RegexPattern``, cached as
/// auxiliary data on the pattern argument); an invalid one is an SQL error.
/// A non-string subject, pattern or replacement gives null.
///
/// - `doc_regexp_like(s, p)`, `doc_regexp_contains(s, p)`: boolean, whether `p`
///   matches anywhere in `s` (both search, unanchored, as in Couchbase Lite).
/// - `doc_regexp_like_at(body, path, p)`: fused `doc_regexp_like(doc_value(body, path), p)`.
/// - `doc_regexp_position(s, p)`: the byte offset of the first match, or -1.
/// - `doc_regexp_replace(s, p, r[, n])`: `s` with the first `n` matches (all when
///   `n` is absent or negative) replaced by `r` (``RegexReplacement``).
enum RegexFunctions {
    static func register(with registrar: FunctionRegistrar) {
        for name in ["doc_regexp_like", "doc_regexp_contains"] {
            registrar.add(name, 2) { context, argc, argv in
                RegexFunctions.withPattern(context, argc, argv) { pattern, subject in
                    FunctionResult.setBoolean(context, try pattern.firstMatch(in: subject) != nil)
                }
            }
        }
        // Fused with the property read, as doc_like is: the subject is matched in
        // place in the stored body (the pattern is a literal).
        registrar.add("doc_regexp_like_at", 3) { context, _, argv in
            BodyFunctions.withProperty(context, argv, operand: 2, {
                try RegexPattern(BodyFunctions.rawText(argv![2]))
            }) { body, offset, pattern in
                guard let subject = body.string(at: offset) else { FunctionResult.setNull(context); return }
                do {
                    FunctionResult.setBoolean(context, try pattern.firstMatch(in: subject) != nil)
                } catch {
                    SQLFunctionError.set(context, error)
                }
            }
        }
        registrar.add("doc_regexp_position", 2) { context, argc, argv in
            RegexFunctions.withPattern(context, argc, argv) { pattern, subject in
                sqlite3_result_int64(context, Int64(try pattern.firstMatch(in: subject) ?? -1))
            }
        }
        for arity: Int32 in [3, 4] {
            registrar.add("doc_regexp_replace", arity) { context, argc, argv in
                RegexFunctions.withPattern(context, argc, argv) { pattern, subject in
                    var limit: Int?
                    if argc == 4 {
                        guard let count = RuntimeValue(argv![3]).number else { FunctionResult.setNull(context); return }
                        limit = count >= 0 ? Int(min(count, Double(Int32.max))) : nil
                    }
                    guard let text = RuntimeValue(argv![2]).string else { FunctionResult.setNull(context); return }
                    let replacement = BodyFunctions.withAuxiliary(context, argument: 2, argv, {
                        RegexReplacement(text)
                    }) { $0.pcre2 }!
                    try pattern.replace(in: subject, with: replacement, limit: limit) { FunctionResult.setText(context, $0) }
                }
            }
        }
    }

    /// Applies N1QL's MISSING/null rule, checks that the subject (argument 0)
    /// and pattern (argument 1) are strings (else null), and calls `use` with the
    /// statement's compiled pattern; an invalid pattern or a failed match sets
    /// the SQL error.
    private static func withPattern(_ context: OpaquePointer?, _ argc: Int32, _ argv: UnsafeMutablePointer<OpaquePointer?>?,
                                    _ use: (RegexPattern, UnsafeRawBufferPointer) throws -> Void) {
        guard !RuntimeValue.propagateMissingOrNull(context, argc, argv) else { return }
        guard let subject = RuntimeValue(argv![0]).string, let patternText = RuntimeValue(argv![1]).string else {
            FunctionResult.setNull(context)
            return
        }
        _ = BodyFunctions.withAuxiliary(context, argument: 1, argv, { try RegexPattern(patternText) }) { pattern in
            do {
                try use(pattern, subject)
            } catch {
                SQLFunctionError.set(context, error)
            }
        }
    }
}
