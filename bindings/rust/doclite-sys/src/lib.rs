//! DocLite's C API (`doclite.h`) for Rust, as bindgen generates it at build time.
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
//! The library is loaded on first use from `DOCLITE_LIBRARY` when that is set,
//! else from the file the build found (see `build.rs`), else by the system's
//! search for `libdoclite.so.0`. Every rule of the header (ownership, strings,
//! errors, threads) applies unchanged; the `doclite` crate wraps them safely.

// The generated items keep the header's C names, and its comments, whose brackets are not Rust links.
#![allow(non_upper_case_globals, non_camel_case_types, non_snake_case, clippy::all, rustdoc::broken_intra_doc_links)]

use std::sync::OnceLock;

include!(concat!(env!("OUT_DIR"), "/bindings.rs"));

/// The library file the build found (or built).
pub const BUILD_LIBRARY_PATH: &str = env!("DOCLITE_LIBRARY_PATH");

/// The header the declarations were generated from.
pub const HEADER_PATH: &str = env!("DOCLITE_HEADER_PATH");

/// The loaded library, or why it could not be loaded (the same answer on every call).
pub fn library() -> Result<&'static DocLite, &'static str> {
    static LIBRARY: OnceLock<Result<DocLite, String>> = OnceLock::new();
    LIBRARY.get_or_init(load).as_ref().map_err(String::as_str)
}

fn load() -> Result<DocLite, String> {
    let candidates: Vec<String> = match std::env::var("DOCLITE_LIBRARY") {
        Ok(path) => vec![path],
        Err(_) => vec![BUILD_LIBRARY_PATH.to_owned(), "libdoclite.so.0".to_owned()],
    };
    let mut failures = Vec::new();
    for candidate in &candidates {
        // Safety: loading runs the library's initializers, which have no preconditions.
        match unsafe { DocLite::new(candidate) } {
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
