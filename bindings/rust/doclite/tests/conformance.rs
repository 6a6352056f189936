//! The public query conformance corpus (`shared/conformance/cases.jsonl`, beside the
//! repository) run through the Rust crate: the library's runner (`CBLConformance_Run`)
//! loads each case, the crate runs its query, and the rows must be the library's own
//! results, with its one list of known differences.

use std::path::{Component, Path, PathBuf};

use serde_json::Value;

#[test]
fn the_corpus_gives_the_librarys_results() {
    let cases = normalized(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../../shared/conformance/cases.jsonl"));
    if !cases.exists() {
        println!("skipped: {} is not there (the shared folder is not beside the repository)", cases.display());
        return;
    }
    let report = doclite::run_conformance(&cases).expect("the corpus runs");
    println!("conformance through Rust: {}", report["summary"]);
    assert_eq!(report["unexpected"], Value::Array(vec![]), "{report:#}");
    let skipped = report["skipped"].as_array().expect("skipped cases");
    // The TZ cases need UTC; nothing else is skipped.
    assert!(skipped.iter().all(|case| case["reason"].as_str().unwrap_or("").contains("TZ")), "skipped: {skipped:#?}");
    assert!(report["passed"].as_u64().unwrap_or(0) >= 215, "{}", report["summary"]);
}

#[test]
fn a_missing_corpus_is_an_error() {
    let error = doclite::run_conformance(Path::new("/nonexistent/cases.jsonl")).expect_err("no corpus there");
    assert!(error.message().contains("cases"), "{error}");
}

/// `path` without `.` and `..` components (the corpus path is printed when it is missing).
fn normalized(path: &Path) -> PathBuf {
    let mut result = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                result.pop();
            }
            Component::CurDir => {}
            other => result.push(other),
        }
    }
    result
}
