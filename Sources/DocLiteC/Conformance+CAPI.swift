import CDocLite
import DocLite
import DocLiteConformance

// The query conformance corpus, each query run through a binding's runner.

@c @implementation
public func CBLConformance_Run(_ casesFile: UnsafePointer<CChar>?, _ runner: CBLConformanceQueryRunner?,
                               _ context: UnsafeMutableRawPointer?, _ outError: UnsafeMutablePointer<CBLError>?) -> UnsafeMutablePointer<CChar>? {
    bridge(outError, failure: nil) {
        let path = try string(casesFile, "cases file")
        guard let runner else { throw DocLiteError(.invalidParameter, "the query runner of CBLConformance_Run is NULL") }
        let report = try ConformanceRunner(casesFile: path) { database, query, parameters in
            let handle = HandleRegistry.shared.register(database)
            defer { HandleRegistry.shared.release(UnsafeRawPointer(handle)) }
            let reply = query.json.withCString { query in
                guard let parameters = parameters?.json else { return runner(context, handle, query, nil) }
                return parameters.withCString { runner(context, handle, query, $0) }
            }
            guard let reply else { throw DocLiteError(.invalidParameter, "the query runner returned NULL") }
            return try ConformanceRunner.QueryRows(reply: String(cString: reply))
        }.run()
        return ownedString(report.json)
    }
}
