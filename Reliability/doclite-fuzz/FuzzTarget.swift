import Foundation

/// One fuzz target: a name, what it exercises, and how to build its runner.
///
/// `makeRunner` sets up what every input shares (a database, prepared queries)
/// once, and returns the function called with each input. A runner returns
/// normally for any input: bad input must come back as an error. A broken
/// invariant calls ``FuzzCheck/fail(_:)``, which ends the process, so that
/// libFuzzer saves the input (or a replay run fails).
struct FuzzTarget: Sendable {
    let name: String
    let summary: String
    let makeRunner: @Sendable () throws -> (UnsafeRawBufferPointer) -> Void

    static let all: [FuzzTarget] = [
        DocumentTargets.json, DocumentTargets.body,
        QueryTargets.jsonQuery, QueryTargets.sqlpp, QueryTargets.predicate,
        FunctionTargets.like, FunctionTargets.date, FunctionTargets.regex,
        CAPITarget.target, FileTarget.target, VectorTarget.target,
    ]

    static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}

/// Invariant checks inside the runners.
enum FuzzCheck {
    /// Reports a broken invariant on standard error and stops the process.
    static func fail(_ message: @autoclosure () -> String) -> Never {
        FileHandle.standardError.write(Data("doclite-fuzz: invariant broken: \(message())\n".utf8))
        abort()
    }

    /// Fails unless `condition` holds.
    static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fail(message()) }
    }
}

extension UnsafeRawBufferPointer {
    /// The input as text: invalid UTF-8 becomes U+FFFD, as when a Swift
    /// program builds a `String` from untrusted bytes.
    var text: String { String(decoding: self, as: UTF8.self) }

    /// The input cut in two at its first NUL byte (all of it and an empty
    /// second part when there is none): a pattern and a subject, say.
    var textPair: (String, String) {
        guard let nul = firstIndex(of: 0) else { return (text, "") }
        return (UnsafeRawBufferPointer(rebasing: self[..<nul]).text,
                UnsafeRawBufferPointer(rebasing: self[(nul + 1)...]).text)
    }
}
