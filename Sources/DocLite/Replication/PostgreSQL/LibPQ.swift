import Foundation

/// PostgreSQL's client library, libpq, loaded when the first PostgreSQL
/// replicator connects: DocLite links nothing of it, so an app, a Python
/// wheel or a Rust crate that never syncs needs no libpq on the machine.
/// The functions are those of libpq's stable ABI (`libpq.so.5`), declared
/// here as C function types; connections and results are opaque pointers.
struct LibPQ: @unchecked Sendable {   // function pointers, set once
    typealias Connection = OpaquePointer
    typealias Result = OpaquePointer

    let connectdbParams: @convention(c) (UnsafePointer<UnsafePointer<CChar>?>, UnsafePointer<UnsafePointer<CChar>?>, Int32) -> Connection?
    let conninfoParse: @convention(c) (UnsafePointer<CChar>, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> OpaquePointer?
    let conninfoFree: @convention(c) (OpaquePointer?) -> Void
    let status: @convention(c) (Connection?) -> Int32
    let errorMessage: @convention(c) (Connection?) -> UnsafePointer<CChar>?
    let finish: @convention(c) (Connection?) -> Void
    let execParams: @convention(c) (Connection?, UnsafePointer<CChar>, Int32, UnsafePointer<UInt32>?,
                                    UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?,
                                    Int32) -> Result?
    let resultStatus: @convention(c) (Result?) -> Int32
    let resultErrorMessage: @convention(c) (Result?) -> UnsafePointer<CChar>?
    let resultErrorField: @convention(c) (Result?, Int32) -> UnsafePointer<CChar>?
    let clear: @convention(c) (Result?) -> Void
    let ntuples: @convention(c) (Result?) -> Int32
    let nfields: @convention(c) (Result?) -> Int32
    let getvalue: @convention(c) (Result?, Int32, Int32) -> UnsafePointer<CChar>?
    let getlength: @convention(c) (Result?, Int32, Int32) -> Int32
    let getisnull: @convention(c) (Result?, Int32, Int32) -> Int32
    let consumeInput: @convention(c) (Connection?) -> Int32
    let notifies: @convention(c) (Connection?) -> UnsafeMutableRawPointer?
    let freemem: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let socket: @convention(c) (Connection?) -> Int32
    let getCancel: @convention(c) (Connection?) -> OpaquePointer?
    let cancel: @convention(c) (OpaquePointer?, UnsafeMutablePointer<CChar>, Int32) -> Int32
    let freeCancel: @convention(c) (OpaquePointer?) -> Void
    let setNoticeProcessor: @convention(c) (Connection?, (@convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void)?,
                                            UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?

    // libpq's enumerations (libpq-fe.h), which its ABI fixes.
    static let connectionOK: Int32 = 0
    static let commandOK: Int32 = 1
    static let tuplesOK: Int32 = 2
    static let diagnosticSQLState = Int32(UInt8(ascii: "C"))

    /// The library, loaded once; throws when it is not installed.
    static func load() throws -> LibPQ {
        try loaded.get()
    }

    private static let loaded: Swift.Result<LibPQ, any Error> = {
        let names = ["libpq.so.5", "libpq.so", "libpq.5.dylib", "libpq.dylib"]
        guard let handle = names.lazy.compactMap({ dlopen($0, RTLD_NOW | RTLD_LOCAL) }).first else {
            return .failure(DocLiteError(.unsupported, "PostgreSQL replication needs libpq, PostgreSQL's client library, "
                                         + "which is not installed: install it (Debian and Ubuntu: apt-get install libpq5)"))
        }
        func symbol<F>(_ name: String) throws -> F {
            guard let address = dlsym(handle, name) else {
                throw DocLiteError(.unsupported, "the installed libpq lacks \(name): install libpq 10 or later")
            }
            return unsafeBitCast(address, to: F.self)
        }
        return Swift.Result {
            try LibPQ(
                connectdbParams: symbol("PQconnectdbParams"), conninfoParse: symbol("PQconninfoParse"), conninfoFree: symbol("PQconninfoFree"),
                status: symbol("PQstatus"), errorMessage: symbol("PQerrorMessage"), finish: symbol("PQfinish"),
                execParams: symbol("PQexecParams"), resultStatus: symbol("PQresultStatus"),
                resultErrorMessage: symbol("PQresultErrorMessage"), resultErrorField: symbol("PQresultErrorField"),
                clear: symbol("PQclear"), ntuples: symbol("PQntuples"), nfields: symbol("PQnfields"), getvalue: symbol("PQgetvalue"),
                getlength: symbol("PQgetlength"), getisnull: symbol("PQgetisnull"), consumeInput: symbol("PQconsumeInput"),
                notifies: symbol("PQnotifies"), freemem: symbol("PQfreemem"), socket: symbol("PQsocket"),
                getCancel: symbol("PQgetCancel"), cancel: symbol("PQcancel"), freeCancel: symbol("PQfreeCancel"),
                setNoticeProcessor: symbol("PQsetNoticeProcessor"))
        }
    }()
}
