import DocLite

/// The JSON forms of the C API's `CBLConformance_Run` (include/doclite.h): a binding's
/// reply to a query, and the report.
extension ConformanceRunner.QueryRows {
    /// Reads a binding's reply: `{"columns": […], "rows": [[…]], "missing": [mask, …]}`, or
    /// `{"error": {"domain": d, "code": c, "message": text}}`, thrown as that error.
    package init(reply: String) throws {
        guard case .dictionary(let reply) = try JSONValue(json: reply) else {
            throw DocLiteError(.invalidParameter, "the query runner's reply is not a JSON object")
        }
        if let error = reply["error"]?.dictionary {
            let domain = error["domain"]?.number.flatMap { DocLiteError.Domain(rawValue: Int32($0)) } ?? .docLite
            throw DocLiteError(domain: domain, code: Int32(error["code"]?.number ?? 0), message: error["message"]?.string ?? "")
        }
        guard let columns = reply["columns"]?.array, let rows = reply["rows"]?.array, let masks = reply["missing"]?.array,
              masks.count == rows.count else {
            throw DocLiteError(.invalidParameter, "the query runner's reply needs \"columns\", \"rows\" and \"missing\" (a mask a row)")
        }
        self.init(columns: columns.compactMap(\.string), rows: zip(rows, masks).map { row, mask in
            let mask = UInt64(mask.number ?? 0)
            return (row.array ?? []).enumerated().map { i, value in i < 64 && (mask >> UInt64(i)) & 1 == 1 ? nil : value }
        })
    }
}

extension ConformanceRunner.Report {
    /// `{"passed": n, "failed": [{"id", "message"}], "skipped": [{"id", "reason"}],
    /// "unexpected": […], "summary": "…"}`.
    package var json: String {
        JSONValue.dictionary([
            "passed": .int(Int64(passed)),
            "failed": .array(failed.map { .dictionary(["id": .string($0.id), "message": .string($0.message)]) }),
            "skipped": .array(skipped.map { .dictionary(["id": .string($0.id), "reason": .string($0.reason)]) }),
            "unexpected": .array(unexpected.map { .string($0) }),
            "summary": .string(summary),
        ]).json
    }
}
