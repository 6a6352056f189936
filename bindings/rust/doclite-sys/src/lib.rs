//! DocLite's C API (`doclite.h`) for Rust, as bindgen generates it.
//!
//! The declarations are `src/bindings.rs`, generated from the header and checked in, so
//! a build needs neither bindgen nor libclang. The `bindgen` feature generates them again
//! from the header the build finds and fails the build if they differ (see `build.rs`).
//!
//! The types and constants are the header's (`CBLError`, `kCBLErrorNotFound`, …);
//! the functions are members of [`DocLite`], the loaded library, which
//! [`library()`] returns:
//!
//! ```
//! let doclite = doclite_sys::library().expect("libdoclite");
//! let version = unsafe { std::ffi::CStr::from_ptr(doclite.CBL_Version()) };
//! assert_eq!(version.to_bytes_with_nul(), doclite_sys::DOCLITE_VERSION);
//! ```
//!
//! The library is loaded on first use from `DOCLITE_LIBRARY` when that is set (and
//! only from there), else from the first of these that loads:
//!
//! 1. the file the build found or built (see `build.rs`; [`BUILD_LIBRARY_PATH`]);
//! 2. `libdoclite.so.0` next to the executable, then in `../lib` from it (an application
//!    shipped with its library, where the build's path does not exist);
//! 3. `libdoclite.so.0` by the system's search (`LD_LIBRARY_PATH`, `ldconfig`'s folders).
//!
//! Every rule of the header (ownership, strings, errors, threads) applies unchanged; the
//! `doclite` crate wraps them safely.

// The generated items keep the header's C names, and its comments, whose brackets are not Rust links.
#![allow(non_upper_case_globals, non_camel_case_types, non_snake_case, clippy::all, rustdoc::broken_intra_doc_links)]

use std::ffi::OsString;
use std::path::Path;
use std::sync::OnceLock;

include!("bindings.rs");

/// The library file the build found (or built).
pub const BUILD_LIBRARY_PATH: &str = env!("DOCLITE_LIBRARY_PATH");

/// The header the build found beside the library (the `bindgen` feature checks the
/// declarations against it).
pub const HEADER_PATH: &str = env!("DOCLITE_HEADER_PATH");

/// The loaded library, or why it could not be loaded (the same answer on every call).
pub fn library() -> Result<&'static DocLite, &'static str> {
    static LIBRARY: OnceLock<Result<DocLite, String>> = OnceLock::new();
    LIBRARY.get_or_init(load).as_ref().map_err(String::as_str)
}

/// The library's file name (its soname).
const LIBRARY_FILE: &str = "libdoclite.so.0";

/// Where the library is looked for, in order (see the crate's documentation).
fn candidates() -> Vec<OsString> {
    if let Some(path) = std::env::var_os("DOCLITE_LIBRARY") {
        return vec![path];
    }
    let mut candidates = vec![OsString::from(BUILD_LIBRARY_PATH)];
    if let Some(folder) = std::env::current_exe().ok().and_then(|exe| exe.parent().map(Path::to_path_buf)) {
        for beside in [folder.join(LIBRARY_FILE), folder.join("../lib").join(LIBRARY_FILE)] {
            // (A file that is not there is not tried: the error lists what was.)
            if beside.exists() {
                candidates.push(beside.into_os_string());
            }
        }
    }
    candidates.push(LIBRARY_FILE.into());
    candidates
}

fn load() -> Result<DocLite, String> {
    let mut failures = Vec::new();
    for path in candidates() {
        let candidate = path.to_string_lossy();
        // Safety: loading runs the library's initializers, which have no preconditions.
        match unsafe { DocLite::new(&path) } {
            Ok(library) => {
                // The declarations are the header's: a library of another major (or, before 1.0,
                // minor) version may lay its structs out differently.
                // Safety: no arguments.
                let loaded = unsafe { library.CBL_VersionNumber() } as u32;
                let compatible = |version: u32| if version < 1_000_000 { version / 1000 } else { version / 1_000_000 * 1000 };
                if compatible(loaded) == compatible(DOCLITE_VERSION_NUMBER) {
                    return Ok(library);
                }
                failures.push(format!("{candidate}: version {loaded}, but the header is version {DOCLITE_VERSION_NUMBER}"));
            }
            Err(error) => failures.push(format!("{candidate}: {error}")),
        }
    }
    Err(format!("cannot load DocLite ({}); set DOCLITE_LIBRARY to libdoclite.so.0's path", failures.join("; ")))
}
