import Foundation

/// What a call that does not throw could not do, written to standard error as
/// Couchbase Lite's console log writes its warnings.
package enum Log {
    package static func warning(_ message: String) {
        FileHandle.standardError.write(Data("DocLite warning: \(message)\n".utf8))
    }
}
