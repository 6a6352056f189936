import Foundation

/// One connection to a PostgreSQL server through libpq: statements with
/// parameters (never SQL text built from values), their rows, and the
/// notifications of `LISTEN`. Not thread-safe, but for ``cancel()``: a
/// replicator's worker owns it.
final class PostgreSQLConnection: @unchecked Sendable {   // `canceller` is behind `lock`; the rest is the owner's
    /// A statement parameter: text (or SQL NULL), or bytes sent in binary form (`bytea`).
    enum Parameter {
        case text(String?)
        case bytes([UInt8])
    }

    /// The rows of a statement's result, read by row and column.
    struct Rows {
        fileprivate let library: LibPQ
        fileprivate let result: LibPQ.Result

        var count: Int { Int(library.ntuples(result)) }

        func isNull(_ row: Int, _ column: Int) -> Bool { library.getisnull(result, Int32(row), Int32(column)) != 0 }

        /// The column's text (nil for NULL).
        func string(_ row: Int, _ column: Int) -> String? {
            guard !isNull(row, column), let value = library.getvalue(result, Int32(row), Int32(column)) else { return nil }
            return String(cString: value)
        }

        /// The column's bytes, as sent (binary results).
        func bytes(_ row: Int, _ column: Int) -> [UInt8]? {
            guard !isNull(row, column), let value = library.getvalue(result, Int32(row), Int32(column)) else { return nil }
            let length = Int(library.getlength(result, Int32(row), Int32(column)))
            return value.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
        }

        func int64(_ row: Int, _ column: Int) -> Int64? { string(row, column).flatMap { Int64($0) } }
    }

    private let library: LibPQ
    private var connection: LibPQ.Connection?
    private let lock = Lock()
    /// libpq's handle for cancelling the running statement from another thread.
    private var canceller: OpaquePointer?

    /// Checks `connectionString` (a libpq key/value string or a
    /// `postgresql://` URI) without connecting.
    static func validate(_ connectionString: String) throws {
        _ = try address(of: connectionString)
    }

    /// The server a connection string names, as `postgresql://user@host:port/database`
    /// (what it leaves out stays empty: libpq's defaults apply): the peer's
    /// identity for checkpoints and remote revisions, without the password.
    static func address(of connectionString: String) throws -> String {
        let library = try LibPQ.load()
        var message: UnsafeMutablePointer<CChar>?
        guard let options = library.conninfoParse(connectionString, &message) else {
            let reason = message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "out of memory"
            library.freemem(message)
            throw DocLiteError(.invalidURL, "invalid PostgreSQL connection string: \(reason)")
        }
        defer { library.conninfoFree(options) }
        // libpq's PQconninfoOption: keyword, envvar, compiled, val, label, dispchar, then an int.
        let pointer = MemoryLayout<UnsafePointer<CChar>?>.stride
        let stride = 7 * pointer
        var values: [String: String] = [:]
        var option = UnsafeRawPointer(options)
        while let keyword = option.load(as: UnsafePointer<CChar>?.self) {
            if let value = option.load(fromByteOffset: 3 * pointer, as: UnsafePointer<CChar>?.self) {
                values[String(cString: keyword)] = String(cString: value)
            }
            option += stride
        }
        return "postgresql://\(values["user"] ?? "")@\(values["host"] ?? values["hostaddr"] ?? ""):\(values["port"] ?? "")"
            + "/\(values["dbname"] ?? "")"
    }

    /// Connects to the server; throws a network error (``DocLiteError/Domain/network``)
    /// when it cannot be reached, WebSocket-domain 401 when it refuses the credentials.
    /// `defaults` are connection settings the connection string may override.
    init(_ connectionString: String, defaults: KeyValuePairs<String, String> = [:]) throws {
        try Self.validate(connectionString)
        library = try LibPQ.load()
        // (The connection string comes last, as `dbname`, which libpq expands: its settings win.)
        let keywords = defaults.map(\.key) + ["dbname"], values = defaults.map(\.value) + [connectionString]
        let connection = try withCStrings(keywords) { keywords in
            try withCStrings(values) { values in library.connectdbParams(keywords, values, 1) }
        }
        guard library.status(connection) == LibPQ.connectionOK else {
            let message = library.errorMessage(connection).map { String(cString: $0) } ?? "out of memory"
            library.finish(connection)
            throw Self.connectionError(message)
        }
        _ = library.setNoticeProcessor(connection, { _, _ in }, nil)   // (a NOTICE is not the user's concern)
        self.connection = connection
        canceller = library.getCancel(connection)
    }

    deinit { close() }

    func close() {
        lock.withLock {
            library.freeCancel(canceller)
            canceller = nil
        }
        library.finish(connection)
        connection = nil
    }

    /// Asks the server to cancel the statement running now, if any; from any thread.
    func cancel() {
        lock.withLock {
            guard let canceller else { return }
            var message = [CChar](repeating: 0, count: 256)
            _ = library.cancel(canceller, &message, Int32(message.count))
        }
    }

    /// Runs `sql` with `parameters` ($1, $2, …); the rows, given to `body`
    /// (`binary`: columns in binary form). Throws the server's error.
    @discardableResult
    func query<R>(_ sql: String, _ parameters: [Parameter] = [], binary: Bool = false, _ body: (Rows) throws -> R) throws -> R {
        guard let connection else { throw DocLiteError(.connectionReset, "the connection to the PostgreSQL server is closed") }
        var storage: [[UInt8]] = []
        var lengths: [Int32] = [], formats: [Int32] = []
        var isNull: [Bool] = []
        for parameter in parameters {
            switch parameter {
            case .text(let value):
                storage.append(value.map { Array($0.utf8) + [0] } ?? [])
                lengths.append(0); formats.append(0); isNull.append(value == nil)
            case .bytes(let bytes):
                storage.append(bytes)
                lengths.append(Int32(bytes.count)); formats.append(1); isNull.append(false)
            }
        }
        let result: LibPQ.Result? = withPointers(to: storage) { pointers in
            let values = zip(pointers, isNull).map { $1 ? nil : $0 }
            return values.withUnsafeBufferPointer { values in
                library.execParams(connection, sql, Int32(parameters.count), nil, values.baseAddress, lengths, formats, binary ? 1 : 0)
            }
        }
        defer { library.clear(result) }
        let status = library.resultStatus(result)
        guard result != nil, status == LibPQ.commandOK || status == LibPQ.tuplesOK else {
            throw serverError(result)
        }
        return try body(Rows(library: library, result: result!))
    }

    /// Runs `sql` for its effect.
    func execute(_ sql: String, _ parameters: [Parameter] = []) throws {
        try query(sql, parameters) { _ in }
    }

    /// Waits until the server sends a notification of a channel this
    /// connection listens to, `wakeUp` becomes readable, or `timeout` passes;
    /// returns whether a notification came (all pending ones are consumed).
    func waitForNotification(timeout: TimeInterval, wakeUp: Int32) throws -> Bool {
        guard let connection else { throw DocLiteError(.connectionReset, "the connection to the PostgreSQL server is closed") }
        if try consumeNotifications() { return true }
        var descriptors = [pollfd(fd: library.socket(connection), events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wakeUp, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&descriptors, 2, Int32(max(0, min(timeout, 86_400)) * 1000))
        guard ready > 0, descriptors[0].revents != 0 else { return false }
        guard library.consumeInput(connection) != 0 else {
            throw Self.connectionError(library.errorMessage(connection).map { String(cString: $0) } ?? "the connection was lost")
        }
        return try consumeNotifications()
    }

    private func consumeNotifications() throws -> Bool {
        var any = false
        while let notification = library.notifies(connection) {
            library.freemem(notification)
            any = true
        }
        return any
    }

    /// `strings` as a NULL-terminated array of C strings, for the call.
    private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) throws -> R) throws -> R {
        try withPointers(to: strings.map { Array($0.utf8) + [0] }) { pointers in
            try (pointers + [nil]).withUnsafeBufferPointer { try body($0.baseAddress!) }
        }
    }

    private func withPointers<R>(to buffers: [[UInt8]], _ body: ([UnsafePointer<CChar>?]) throws -> R) rethrows -> R {
        var pointers: [UnsafePointer<CChar>?] = []
        func next(_ index: Int) throws -> R {
            guard index < buffers.count else { return try body(pointers) }
            return try buffers[index].withUnsafeBufferPointer { buffer in
                pointers.append(buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) })
                return try next(index + 1)
            }
        }
        return try next(0)
    }

    /// The error of a failed statement: 401/403 for the server's refusals
    /// (SQLSTATE class 28, 42501), network errors when the connection broke,
    /// the DocLite domain's `remoteError` otherwise, with the server's message.
    private func serverError(_ result: LibPQ.Result?) -> DocLiteError {
        let message = (result.flatMap { library.resultErrorMessage($0) } ?? library.errorMessage(connection))
            .map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "out of memory"
        let state = result.flatMap { library.resultErrorField($0, LibPQ.diagnosticSQLState) }.map { String(cString: $0) }
        switch state {
        case nil, "57P01", "57P02", "57P03", "08000", "08003", "08006": return Self.connectionError(message)
        case "42501": return DocLiteError(domain: .webSocket, code: 403, message: "the PostgreSQL server refused: \(message)")
        case let state? where state.hasPrefix("28"): return DocLiteError(domain: .webSocket, code: 401, message: message)
        default: return DocLiteError(.remoteError, "the PostgreSQL server failed (SQLSTATE \(state ?? "")): \(message)")
        }
    }

    /// A failure to connect, or a lost connection, by what libpq says of it.
    private static func connectionError(_ message: String) -> DocLiteError {
        let message = message.trimmingCharacters(in: .whitespacesAndNewlines)
        let text = "cannot reach the PostgreSQL server: \(message)"
        if message.contains("authentication failed") || message.contains("no password supplied")
            || message.contains("no pg_hba.conf entry") || message.contains("role") && message.contains("does not exist") {
            return DocLiteError(domain: .webSocket, code: 401, message: "the PostgreSQL server refused the credentials: \(message)")
        }
        if message.contains("database") && message.contains("does not exist") {
            return DocLiteError(domain: .webSocket, code: 404, message: message)
        }
        if message.contains("could not translate host name") { return DocLiteError(.unknownHost, text) }
        if message.contains("timeout expired") { return DocLiteError(.timeout, text) }
        if message.contains("SSL") { return DocLiteError(.tlsHandshakeFailed, text) }
        if message.contains("Connection refused") || message.contains("No such file or directory") {
            return DocLiteError(.connectionRefused, text)
        }
        return DocLiteError(.connectionReset, text)
    }
}
