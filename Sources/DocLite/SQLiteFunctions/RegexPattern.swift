import CPCRE2

/// A regular expression compiled by PCRE2 (UTF-8 mode; invalid UTF-8 in a
/// subject simply never matches; docs/differences.md compares the syntax with
/// Couchbase Lite's ECMAScript), JIT-compiled where the platform allows, with
/// the match data and JIT stack it reuses for every match. One is made per
/// statement and pattern (cached as SQLite auxiliary data), so it is used by
/// one thread at a time.
final class RegexPattern {
    private let code: OpaquePointer
    private let matchData: OpaquePointer
    private let matchContext: OpaquePointer
    private let jitStack: OpaquePointer?
    /// The output buffer of ``replace(in:with:limit:_:)``, grown as needed.
    private var output: [UInt8] = []

    init(_ pattern: UnsafeRawBufferPointer) throws {
        code = try Self.compile(pattern)
        guard let matchData = pcre2_match_data_create_from_pattern_8(code, nil),
              let matchContext = pcre2_match_context_create_8(nil) else {
            pcre2_code_free_8(code)
            throw DocLiteError(.memoryError, "out of memory compiling a regular expression")
        }
        (self.matchData, self.matchContext) = (matchData, matchContext)
        if pcre2_jit_compile_8(code, PCRE2_JIT_COMPLETE) == 0 {
            // The default 32 KB machine-stack JIT stack is too small for some patterns.
            jitStack = pcre2_jit_stack_create_8(32 * 1024, 1024 * 1024, nil)
            if let jitStack { pcre2_jit_stack_assign_8(matchContext, nil, UnsafeMutableRawPointer(jitStack)) }
        } else {
            jitStack = nil   // no JIT here: PCRE2 interprets
        }
    }

    deinit {
        if let jitStack { pcre2_jit_stack_free_8(jitStack) }
        pcre2_match_context_free_8(matchContext)
        pcre2_match_data_free_8(matchData)
        pcre2_code_free_8(code)
    }

    /// Throws the error an invalid pattern gives, as ``init(_:)`` would.
    static func validate(_ pattern: String) throws {
        var pattern = pattern
        try pattern.withUTF8 { pcre2_code_free_8(try compile(UnsafeRawBufferPointer($0))) }
    }

    /// Compiles `pattern` with ECMAScript's meaning where PCRE2 can give it:
    /// `\uXXXX`, `\u{X…}` and `\xHH` escapes, and `$` only at the very end.
    private static func compile(_ pattern: UnsafeRawBufferPointer) throws -> OpaquePointer {
        var errorCode: Int32 = 0
        var errorOffset = 0
        let context = pcre2_compile_context_create_8(nil)
        defer { pcre2_compile_context_free_8(context) }
        pcre2_set_compile_extra_options_8(context, PCRE2_EXTRA_ALT_BSUX)
        let options = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | PCRE2_ALT_BSUX | PCRE2_DOLLAR_ENDONLY
        let start = pattern.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let code = withUnsafePointer(to: UInt8(0)) { empty in
            pcre2_compile_8(start ?? empty, pattern.count, options, &errorCode, &errorOffset, context)
        }
        guard let code else {
            throw DocLiteError(.invalidQuery, "invalid regular expression '\(String(decoding: pattern, as: UTF8.self))' "
                        + "at offset \(errorOffset): \(message(errorCode))")
        }
        return code
    }

    /// PCRE2's text for an error code.
    private static func message(_ errorCode: Int32) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { buffer in
            let length = pcre2_get_error_message_8(errorCode, buffer.baseAddress, buffer.count)
            return length < 0 ? "error \(errorCode)" : String(decoding: buffer.prefix(Int(length)), as: UTF8.self)
        }
    }

    /// The byte offset of the first match in `subject` (an unanchored search); nil for none.
    func firstMatch(in subject: UnsafeRawBufferPointer) throws -> Int? {
        let result = withSubject(subject) { pcre2_match_8(code, $0, subject.count, 0, 0, matchData, matchContext) }
        if result == PCRE2_ERROR_NOMATCH { return nil }
        guard result >= 0 else { throw Self.matchError(result) }
        return pcre2_get_ovector_pointer_8(matchData)[0]
    }

    /// Replaces the first `limit` matches in `subject` (all when nil) with
    /// `replacement`, in PCRE2's syntax (``RegexReplacement``), and calls `use`
    /// with the result.
    func replace<R>(in subject: UnsafeRawBufferPointer, with replacement: [UInt8], limit: Int?,
                    _ use: (UnsafeRawBufferPointer) -> R) throws -> R {
        var remaining = limit ?? 0
        return try withUnsafeMutablePointer(to: &remaining) { remaining in
            if limit != nil {
                // Called after each substitution: reject the one past the limit, and stop.
                pcre2_set_substitute_callout_8(matchContext, { block, limit in
                    Int(block!.pointee.subscount) <= limit!.load(as: Int.self) ? 0 : -1
                }, remaining)
            } else {
                pcre2_set_substitute_callout_8(matchContext, nil, nil)
            }
            let options = PCRE2_SUBSTITUTE_GLOBAL | PCRE2_SUBSTITUTE_UNKNOWN_UNSET | PCRE2_SUBSTITUTE_UNSET_EMPTY
                | PCRE2_SUBSTITUTE_OVERFLOW_LENGTH
            if output.isEmpty { output = Array(repeating: 0, count: max(64, subject.count * 2)) }
            while true {
                var length = output.count
                let result = withSubject(subject) { start in
                    replacement.withUnsafeBufferPointer { replacement in
                        output.withUnsafeMutableBufferPointer { output in
                            pcre2_substitute_8(code, start, subject.count, 0, options, matchData, matchContext,
                                               replacement.baseAddress, replacement.count, output.baseAddress, &length)
                        }
                    }
                }
                if result == PCRE2_ERROR_NOMEMORY {
                    output = Array(repeating: 0, count: length)   // the length needed, with the terminating zero
                    continue
                }
                guard result >= 0 else { throw Self.matchError(result) }
                return output.withUnsafeBytes { use(UnsafeRawBufferPointer(rebasing: $0.prefix(length))) }
            }
        }
    }

    /// Calls `body` with a pointer to the subject's bytes (valid even when it is empty).
    private func withSubject<R>(_ subject: UnsafeRawBufferPointer, _ body: (UnsafePointer<UInt8>) -> R) -> R {
        if let start = subject.baseAddress { return body(start.assumingMemoryBound(to: UInt8.self)) }
        return withUnsafePointer(to: UInt8(0), body)
    }

    /// A match PCRE2 could not complete: a limit it reached has a message of its own.
    private static func matchError(_ code: Int32) -> DocLiteError {
        switch code {
        case PCRE2_ERROR_MATCHLIMIT, PCRE2_ERROR_DEPTHLIMIT, PCRE2_ERROR_HEAPLIMIT:
            DocLiteError(.invalidQuery, "regular expression match stopped at PCRE2's limit (\(message(code))): "
                         + "the pattern backtracks too much on this value; avoid nested quantifiers such as (a+)+")
        default:
            DocLiteError(.invalidQuery, "regular expression match failed: \(message(code))")
        }
    }
}

/// A replacement string of `regexp_replace`, which uses ECMAScript's syntax as
/// Couchbase Lite does (`$&` the match, `$1`–`$99` a group, `$$` a dollar; any
/// other `$` is literal; backslashes are literal), translated once per
/// statement to PCRE2's (`${0}`, `${n}`, `$$`). ECMAScript's `` $` `` and `$'`
/// (the text before and after the match) have no PCRE2 equivalent and stay literal.
final class RegexReplacement {
    let pcre2: [UInt8]

    init(_ text: UnsafeRawBufferPointer) {
        var out: [UInt8] = []
        out.reserveCapacity(text.count + 8)
        var i = 0
        func isDigit(_ index: Int) -> Bool { index < text.count && (0x30...0x39).contains(text[index]) }
        while i < text.count {
            let byte = text[i]
            i += 1
            guard byte == UInt8(ascii: "$") else { out.append(byte); continue }
            if i < text.count, text[i] == UInt8(ascii: "&") {
                out += "${0}".utf8
                i += 1
            } else if isDigit(i) {
                let digits = isDigit(i + 1) ? 2 : 1
                out += "${".utf8
                out += text[i..<i + digits]
                out += "}".utf8
                i += digits
            } else {
                out += "$$".utf8   // `$$`, or a `$` that starts no reference: a literal dollar
                if i < text.count, text[i] == UInt8(ascii: "$") { i += 1 }
            }
        }
        pcre2 = out
    }
}
