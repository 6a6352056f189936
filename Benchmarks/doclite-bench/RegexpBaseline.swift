import CPCRE2
import CSQLite

/// R's `regexp_like(text, pattern)` for Q4: a plain SQLite scalar function on
/// PCRE2, as a careful application would write it, so that the baseline is
/// optimised as far as DocLite's own: the pattern is compiled once per
/// statement (kept as SQLite auxiliary data on the pattern argument), with
/// the same compile options as DocLite (UTF mode, invalid UTF-8 never
/// matches), JIT-compiled, and its match data reused for every row.
/// A NULL argument gives NULL; an invalid pattern is an SQL error.
enum RegexpBaseline {
    /// A compiled pattern with its reused match data (one per statement, so one thread at a time).
    final class Pattern {
        let code: OpaquePointer
        let matchData: OpaquePointer

        init?(_ pattern: UnsafePointer<UInt8>, length: Int) {
            var errorCode: Int32 = 0
            var errorOffset = 0
            let options = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | PCRE2_ALT_BSUX | PCRE2_DOLLAR_ENDONLY
            guard let code = pcre2_compile_8(pattern, length, options, &errorCode, &errorOffset, nil) else { return nil }
            guard let matchData = pcre2_match_data_create_from_pattern_8(code, nil) else {
                pcre2_code_free_8(code)
                return nil
            }
            _ = pcre2_jit_compile_8(code, PCRE2_JIT_COMPLETE)   // when JIT is unavailable PCRE2 interprets
            (self.code, self.matchData) = (code, matchData)
        }

        deinit {
            pcre2_match_data_free_8(matchData)
            pcre2_code_free_8(code)
        }
    }

    /// Registers `regexp_like` on a baseline connection.
    static func register(on db: OpaquePointer) {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        let rc = sqlite3_create_function_v2(db, "regexp_like", 2, flags, nil, { context, _, argv in
            guard let subject = sqlite3_value_text(argv![0]), let patternText = sqlite3_value_text(argv![1]) else {
                sqlite3_result_null(context)
                return
            }
            let subjectLength = Int(sqlite3_value_bytes(argv![0]))
            let pattern: Pattern
            if let cached = sqlite3_get_auxdata(context, 1) {
                pattern = Unmanaged<Pattern>.fromOpaque(cached).takeUnretainedValue()
            } else {
                guard let compiled = Pattern(patternText, length: Int(sqlite3_value_bytes(argv![1]))) else {
                    sqlite3_result_error(context, "invalid regular expression", -1)
                    return
                }
                pattern = compiled
                // SQLite may free it at once (a non-constant pattern): `pattern` keeps it alive for this row.
                sqlite3_set_auxdata(context, 1, Unmanaged.passRetained(compiled).toOpaque()) {
                    Unmanaged<Pattern>.fromOpaque($0!).release()
                }
            }
            let result = pcre2_match_8(pattern.code, subject, subjectLength, 0, 0, pattern.matchData, nil)
            if result >= 0 {
                sqlite3_result_int(context, 1)
            } else if result == PCRE2_ERROR_NOMATCH {
                sqlite3_result_int(context, 0)
            } else {
                sqlite3_result_error(context, "regular expression match failed (\(result))", -1)
            }
        }, nil, nil, nil)
        guard rc == SQLITE_OK else { fatalError("cannot register regexp_like: \(rc)") }
    }
}
