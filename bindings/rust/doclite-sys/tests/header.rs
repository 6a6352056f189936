//! The Rust declarations are bindgen's reading of the header, with nothing written
//! by hand beside them: every function `doclite.h` declares is a member of the
//! generated `DocLite` (in the checked-in `src/bindings.rs`), and no source file of
//! the workspace declares a foreign function of its own.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

/// The names of the functions a C header declares at the top level (`type CBLName(`,
/// or `_cbl_warn_unused type CBLName(`).
fn declared_functions(header: &str) -> BTreeSet<String> {
    header
        .lines()
        .filter(|line| line.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') && !line.starts_with("typedef"))
        .filter_map(|line| {
            let name_end = line.find('(')?;
            let name_start = line[..name_end].rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))? + 1;
            let name = &line[name_start..name_end];
            name.starts_with("CBL").then(|| name.to_owned())
        })
        .collect()
}

/// The members bindgen generated on the library struct (`pub unsafe fn CBLName(&self`).
fn generated_functions(bindings: &str) -> BTreeSet<String> {
    bindings
        .split("pub unsafe fn ")
        .skip(1)
        .filter_map(|rest| {
            let (name, arguments) = rest.split_once('(')?;
            arguments.trim_start().starts_with("&self").then(|| name.trim().to_owned())
        })
        .collect()
}

#[test]
fn every_function_of_the_header_is_generated_and_nothing_else() {
    let header = fs::read_to_string(doclite_sys::HEADER_PATH).expect("the header the bindings came from");
    let declared = declared_functions(&header);
    let generated = generated_functions(include_str!("../src/bindings.rs"));
    assert!(declared.len() > 200, "the header scan found only {} functions", declared.len());
    assert_eq!(declared, generated);
}

#[test]
fn no_source_declares_foreign_functions_by_hand() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut stack = vec![workspace.to_path_buf()];
    let mut checked = 0;
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap().map(Result::unwrap) {
            let path = entry.path();
            if path.is_dir() && entry.file_name() != "target" {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = fs::read_to_string(&path).unwrap();
                let compact: String = text.split_whitespace().collect();
                let this_file = compact.contains("fnno_source_declares_foreign_functions_by_hand");
                assert!(
                    this_file || !(compact.contains("extern\"C\"{") || compact.contains("extern{") || compact.contains("#[link(")),
                    "{} declares foreign functions by hand",
                    path.display()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 10, "only {checked} Rust files found under {}", workspace.display());
}

#[test]
fn the_loaded_library_is_the_headers_version() {
    let doclite = doclite_sys::library().expect("libdoclite loads");
    // Safety: no arguments; the version string is static.
    let (number, text) = unsafe { (doclite.CBL_VersionNumber(), std::ffi::CStr::from_ptr(doclite.CBL_Version())) };
    assert_eq!(number as u32, doclite_sys::DOCLITE_VERSION_NUMBER);
    assert_eq!(text.to_bytes_with_nul(), doclite_sys::DOCLITE_VERSION);
}
