/// What a save or delete does when the document changed since it was read.
public enum ConcurrencyControl: UInt8, Sendable {
    /// The change wins over the other one.
    case lastWriteWins = 0
    /// The save or delete fails (returns `false`).
    case failOnConflict = 1
}
