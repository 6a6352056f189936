import CDocLite
import DocLiteC
import Foundation

/// The C API driven by a byte stream: each input is a program of calls that
/// create handles, pass them (to the right functions and to the wrong ones),
/// retain, release and over-release them in any order, with text that may be
/// bad JSON, bad UTF-8 or empty. Every call must return (an error where it
/// should), and once every handle the input made is released, the number of
/// live handles (`CBL_InstanceCount`) is back where it started (within 5 s: a
/// listener's call running on another thread keeps its token a moment longer).
enum CAPITarget {
    static let target = FuzzTarget(name: "capi", summary: "the C API driven by a byte stream: handles made, misused and released in any order") {
        try FuzzDatabase.openWithDataset(name: "capi").close()
        var error = CBLError()
        var configuration = CBLDatabaseConfiguration_Default()
        let handle: OpaquePointer? = FuzzDatabase.folder.withCString { directory in
            configuration.directory = directory
            return CBLDatabase_Open("capi", &configuration, &error)
        }
        guard let handle else { throw FuzzSetupError("the C API cannot open the fuzz database (error \(error.code))") }
        let baseline = CBL_InstanceCount()
        return { input in
            var program = CallProgram(input, database: handle)
            program.run()
            program.releaseEverything()
            // A listener's call in flight on another thread holds its token, and the token
            // its query, until the call returns: the count may take a moment to settle.
            var count = CBL_InstanceCount()
            let deadline = Date() + 5
            while count != baseline && Date() < deadline {
                usleep(1_000)
                count = CBL_InstanceCount()
            }
            FuzzCheck.require(count == baseline, "\(count) live handles 5 s after the input released all of its own; \(baseline) before")
        }
    }
}

/// A setup step that failed.
struct FuzzSetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Reads an input as a sequence of C API calls (see ``CAPITarget``).
private struct CallProgram {
    private let bytes: UnsafeRawBufferPointer
    private var position = 0
    private let database: OpaquePointer
    /// Every handle the program made, to pick from.
    private var handles: [OpaquePointer] = []
    /// The references the program holds on each of its handles: one per handle
    /// made, one more per retain. `releaseEverything` releases them all, as a
    /// program that releases what it owns would; releasing a handle already
    /// released by the program is an error the API ignores.
    private var references: [OpaquePointer: Int] = [:]
    private var inTransaction = false

    init(_ bytes: UnsafeRawBufferPointer, database: OpaquePointer) {
        self.bytes = bytes
        self.database = database
    }

    mutating func run() {
        var steps = 0
        while position < bytes.count && steps < 200 {
            step(byte() % 34)
            steps += 1
        }
    }

    mutating func releaseEverything() {
        if inTransaction { _ = CBLDatabase_EndTransaction(database, false, nil) }
        for (handle, count) in references {
            for _ in 0..<count { CBL_Release(UnsafeRawPointer(handle)) }
        }
        handles.removeAll()
        references.removeAll()
    }

    // MARK: Reading the stream

    private mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// Bytes up to the next NUL (or the end), as C text: they may be any bytes.
    private mutating func text() -> [CChar] {
        var text: [CChar] = []
        while position < bytes.count, bytes[position] != 0 {
            text.append(CChar(bitPattern: bytes[position]))
            position += 1
        }
        position += 1
        return text + [0]
    }

    /// A handle the program made, or now and then NULL, the database or a number that was never a handle.
    private mutating func handle() -> OpaquePointer? {
        let pick = Int(byte())
        switch pick {
        case 0: return nil
        case 1: return database
        case 2: return OpaquePointer(bitPattern: 0xDEAD_BEE0)
        default: return handles.isEmpty ? nil : handles[pick % handles.count]
        }
    }

    private mutating func keep(_ handle: OpaquePointer?) {
        guard let handle else { return }
        handles.append(handle)
        references[handle, default: 0] += 1
    }

    private func free(_ string: UnsafeMutablePointer<CChar>?) { CBL_FreeString(string) }

    // MARK: The calls

    private mutating func step(_ operation: UInt8) {
        var error = CBLError()
        switch operation {
        case 0: keep(CBLDocument_CreateWithID(text(), &error))
        case 1: let document = handle(); _ = CBLDocument_SetJSON(document, text(), &error)
        case 2: let collection = handle(), document = handle(); _ = CBLCollection_SaveDocument(collection, document, &error)
        case 3: keep(CBLDatabase_DefaultCollection(database, &error))
        case 4: let collection = handle(); keep(CBLCollection_GetDocument(collection, text(), &error))
        case 5: let collection = handle(); keep(CBLCollection_GetMutableDocument(collection, text(), &error))
        case 6: let collection = handle(), document = handle(); _ = CBLCollection_DeleteDocument(collection, document, &error)
        case 7: let collection = handle(); _ = CBLCollection_PurgeDocumentByID(collection, text(), &error)
        case 8: free(CBLDocument_CreateJSON(handle()))
        case 9: keep(CBLDocument_MutableCopy(handle()))
        case 10:
            let language = CBLQueryLanguage(byte() % 2)
            var errorPosition: Int32 = 0
            keep(CBLDatabase_CreateQuery(database, language, text(), &errorPosition, &error))
        case 11: keep(CBLQuery_Execute(handle(), &error))
        case 12:
            let results = handle()
            for _ in 0..<Int(byte() % 4) where CBLResultSet_Next(results, &error) {
                _ = CBLResultSet_JSONAtIndex(results, UInt32(byte() % 4))
                _ = CBLResultSet_StringForKey(results, text())
                free(CBLResultSet_CreateRowDictJSON(results))
            }
        case 13: free(CBLResultSet_NextRowsJSON(handle(), UInt32(byte() % 8), &error))
        case 14: let query = handle(); _ = CBLQuery_SetParameters(query, text(), &error)
        case 15:
            let query = handle()
            free(CBLQuery_Explain(query, &error))
            free(CBLQuery_CopySQLPP(query, &error))
            free(CBLQuery_CopyJSON(query))
        case 16:
            let handle = handle()
            _ = CBL_Retain(UnsafeRawPointer(handle))
            if let handle { references[handle]? += 1 }   // (only a handle the program made)
        case 17:   // (never the database: the next inputs need it)
            if let handle = handle(), handle != database { CBL_Release(UnsafeRawPointer(handle)) }
        case 18: keep(CBLQueryExpression_Property(text()))
        case 19: keep(CBLQueryExpression_String(text()))
        case 20: keep(CBLQueryExpression_Int(Int64(Int8(bitPattern: byte()))))
        case 21:
            let a = handle(), b = handle()
            switch byte() % 4 {
            case 0: keep(CBLQueryExpression_EqualTo(a, b))
            case 1: keep(CBLQueryExpression_And(a, b))
            case 2: keep(CBLQueryExpression_Like(a, b))
            default: keep(CBLQueryExpression_Regex(a, b))
            }
        case 22: keep(byte() % 2 == 0 ? CBLQuerySelectResult_Expression(handle()) : CBLQuerySelectResult_All(text()))
        case 23: keep(CBLQueryDataSource_Collection(handle()))
        case 24: keep(CBLQueryBuilder_New())
        case 25:
            let builder = handle(), part = handle()
            switch byte() % 4 {
            case 0: CBLQueryBuilder_Select(builder, part)
            case 1: CBLQueryBuilder_From(builder, part)
            case 2: CBLQueryBuilder_Where(builder, part)
            default: CBLQueryBuilder_OrderBy(builder, CBLQueryOrdering_Expression(part))
            }
        case 26: keep(CBLQueryBuilder_Build(handle(), &error))
        case 27:
            let parameters = CBLQueryParameters_New()
            keep(parameters)
            let name = text(), value = text()
            CBLQueryParameters_SetString(parameters, name, value)
            CBLQueryParameters_SetJSON(parameters, name, value)
            free(CBLQueryParameters_CopyJSON(parameters))
            _ = CBLQuery_SetQueryParameters(handle(), parameters, &error)
        case 28: keep(CBLCollection_AddChangeListener(handle(), { _, _ in }, nil, &error))
        case 29: keep(CBLQuery_AddChangeListener(handle(), { _, _, _ in }, nil, &error))
        case 30: CBLListener_Remove(handle())
        case 31:
            let collection = handle()
            let name = text(), expressions = text()
            if byte() % 2 == 0 {
                _ = expressions.withUnsafeBufferPointer {
                    CBLCollection_CreateValueIndex(collection, name, CBLValueIndexConfiguration(
                        expressionLanguage: CBLQueryLanguage(kCBLN1QLLanguage), expressions: $0.baseAddress, where: nil), &error)
                }
            } else {
                _ = CBLCollection_DeleteIndex(collection, name, &error)
            }
        case 32:
            if inTransaction {
                _ = CBLDatabase_EndTransaction(database, byte() % 2 == 0, &error)
                inTransaction = false   // ended even when the commit fails: the transaction rolls back
            } else {
                inTransaction = CBLDatabase_BeginTransaction(database, &error)
            }
        default:
            let collection = handle()
            let select = text(), predicate = text()
            let builder = select.withUnsafeBufferPointer { select in
                var items: [UnsafePointer<CChar>?] = [select.baseAddress]
                return CBLPredicateQueryBuilder_Create(collection, &items, 1, predicate, nil, 0, nil, &error)
            }
            keep(builder)
            keep(CBLPredicateQueryBuilder_CreateQuery(builder, text(), &error))
        }
        if error.code != 0 { free(CBLError_Message(&error)) }
    }
}
