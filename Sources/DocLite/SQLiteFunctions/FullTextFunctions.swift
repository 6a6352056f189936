import CSQLite

/// The SQL functions of full-text indexes (``FullTextIndexSQL``):
///
/// - `doc_fts_text(value)`: the text indexed for a value: a string as is, a
///   number as SQLite prints it, a boolean `T`/`F`, the strings, numbers and
///   booleans of an array or dict (at any depth) separated by spaces; NULL otherwise.
/// - `doc_fts_rank(matchinfo)`: `RANK()` from FTS4's `matchinfo(t, 'pcx')`:
///   for every phrase and column, this row's hits over all rows' hits, summed
///   (Couchbase Lite's rank; higher is better).
enum FullTextFunctions {
    static func register(with registrar: FunctionRegistrar) {
        registrar.add("doc_fts_text", 1) { context, _, argv in
            var text: [UInt8] = []
            switch RuntimeValue(argv![0]) {
            case .string(let string): FunctionResult.setText(context, string); return
            case .integer, .real: sqlite3_result_value(context, argv![0]); return
            case .boolean(let flag):
                let letter: StaticString = flag ? "T" : "F"
                FunctionResult.setText(context, UnsafeRawBufferPointer(start: letter.utf8Start, count: 1))
                return
            case .array(let body, let offset), .dictionary(let body, let offset):
                FullTextFunctions.appendWords(body, offset, keys: BodyFunctions.keys(context).takeUnretainedValue(), to: &text)
            case .missing, .null, .binary:
                break
            }
            guard !text.isEmpty else { sqlite3_result_null(context); return }
            text.withUnsafeBytes { FunctionResult.setText(context, $0) }
        }
        registrar.add("doc_fts_rank", 1) { context, _, argv in
            let count = Int(sqlite3_value_bytes(argv![0])) / 4
            guard count >= 2, let blob = sqlite3_value_blob(argv![0]) else { sqlite3_result_null(context); return }
            let info = UnsafeRawBufferPointer(start: blob, count: count * 4)
            func value(_ i: Int) -> UInt32 { info.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self) }
            let phrases = Int(value(0)), columns = Int(value(1))
            guard phrases <= count, columns <= count, 2 + 3 * phrases * columns <= count else { sqlite3_result_null(context); return }
            var rank = 0.0
            for cell in 0..<(phrases * columns) {
                let hits = value(2 + 3 * cell), allHits = value(3 + 3 * cell)
                if allHits > 0 { rank += Double(hits) / Double(allHits) }
            }
            sqlite3_result_double(context, rank)
        }
    }

    /// Appends the strings and numbers inside the container at `offset`, each after a space.
    private static func appendWords(_ body: Body, _ offset: Int, keys: SharedKeys, to text: inout [UInt8]) {
        func append(_ offset: Int) {
            switch body.type(at: offset) {
            case .string:
                guard let string = body.string(at: offset) else { return }
                if !text.isEmpty { text.append(0x20) }
                text.append(contentsOf: string)
            case .integer, .unsigned, .double:
                let number = body.int64(at: offset).map(String.init) ?? body.uint64(at: offset).map(String.init)
                    ?? body.double(at: offset).map { String($0) }
                guard let number else { return }
                if !text.isEmpty { text.append(0x20) }
                text.append(contentsOf: number.utf8)
            case .boolean:
                if !text.isEmpty { text.append(0x20) }
                text.append(body.tag(at: offset) == BodyTag.true ? UInt8(ascii: "T") : UInt8(ascii: "F"))
            case .array: body.forEachElement(ofArrayAt: offset, append)
            case .dictionary: body.forEachMember(ofDictAt: offset, keys: keys) { _, value in append(value) }
            default: break
            }
        }
        append(offset)
    }
}
