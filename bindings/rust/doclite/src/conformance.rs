//! The query conformance corpus through this crate (the library's `CBLConformance_Run`):
//! the library loads each case's database, the crate runs the case's query as it runs any
//! query, and the library compares the rows, with its one list of known differences.

use std::ffi::{c_char, c_void, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use doclite_sys as sys;
use serde_json::{json, Value};

use crate::database::{path_string, Database};
use crate::ffi::{lib, owned_string};
use crate::{Result, Row};

/// Runs the conformance corpus `cases_file` (JSON lines, its data beside it), each query
/// through this crate; the library's report: `passed`, `failed` and `skipped` (objects of
/// `id` and `message` or `reason`), `unexpected` (each failure that is not a known
/// difference, each known difference that passes) and `summary`. For the crate's tests.
pub fn run_conformance(cases_file: &Path) -> Result<Value> {
    let lib = lib()?;
    let path = path_string(cases_file)?;
    let mut reply: Option<CString> = None;
    let context = &mut reply as *mut Option<CString> as *mut c_void;
    // Safety: the path and the reply slot outlive the call, which calls `run_query` on this thread.
    let report = owned_string(|error| unsafe { lib.CBLConformance_Run(path.as_ptr(), Some(run_query), context, error) })?;
    Ok(serde_json::from_str(&report)?)
}

/// `CBLConformance_Run`'s runner: the reply stays in the slot `context` until the next call.
unsafe extern "C" fn run_query(context: *mut c_void, db: *mut sys::CBLDatabase, query: *const c_char,
                               parameters: *const c_char) -> *const c_char {
    let slot = &mut *(context as *mut Option<CString>);
    let query = CStr::from_ptr(query).to_string_lossy().into_owned();
    let parameters = (!parameters.is_null()).then(|| CStr::from_ptr(parameters).to_string_lossy().into_owned());
    let reply = catch_unwind(AssertUnwindSafe(|| reply(&Database::borrowing(db), &query, parameters.as_deref())))
        .unwrap_or_else(|_| json!({"error": {"domain": 1, "code": 0, "message": "the query runner panicked"}}).to_string());
    slot.insert(CString::new(reply).unwrap_or_default()).as_ptr()
}

/// The rows of `query` (JSON: a JSON query, or a string of SQL++), or the error it raised, in
/// `CBLConformance_Run`'s form.
fn reply(database: &Database, query: &str, parameters: Option<&str>) -> String {
    let rows = || -> Result<Value> {
        let mut compiled = match serde_json::from_str::<Value>(query)? {
            Value::String(sqlpp) => database.create_query(&sqlpp)?,
            json => database.create_json_query(&json.to_string())?,
        };
        if let Some(parameters) = parameters {
            compiled.set_parameters(&serde_json::from_str::<Value>(parameters)?)?;
        }
        let rows = compiled.execute()?.collect::<Result<Vec<Row>>>()?;
        Ok(json!({
            "columns": compiled.column_names(),
            "rows": rows.iter().map(Row::values).collect::<Vec<_>>(),
            "missing": rows.iter().map(Row::missing_mask).collect::<Vec<_>>(),
        }))
    };
    match rows() {
        Ok(reply) => reply.to_string(),
        Err(error) => json!({"error": {"domain": error.domain(), "code": error.code(), "message": error.message()}}).to_string(),
    }
}
