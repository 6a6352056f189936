//! Finds DocLite and generates the crate's declarations from its header.
//!
//! The library is looked for, in order: `DOCLITE_LIB_DIR` (with the header in
//! `DOCLITE_INCLUDE_DIR`, or `include/` beside the library directory), then
//! pkg-config's `doclite.pc`, then built from DocLite's source tree with its
//! CMake build (the self-contained variant, which needs no Swift toolchain at
//! run time; building needs Swift, CMake and Ninja): the tree this crate sits in, or
//! `DOCLITE_SOURCE_DIR`. That build is made once per source tree, in the tree's
//! `build-rust` (or `DOCLITE_BUILD_DIR`), and shared by every cargo target folder and
//! profile that builds this crate from it (see `shared_build.rs`); `CMAKE` names
//! the cmake program.
//!
//! bindgen turns `doclite.h` into a struct of function pointers that the crate
//! loads at run time (`libloading`) from the path found here, so that any binary
//! depending on this crate, directly or not, finds the library without an rpath
//! or `LD_LIBRARY_PATH` of its own.

use std::env;
use std::path::{Path, PathBuf};

mod shared_build;

use shared_build::LIBRARY_FILE;

/// Where the library and its header are.
struct Found {
    library: PathBuf,
    include_dir: PathBuf,
}

fn main() {
    for variable in ["DOCLITE_LIB_DIR", "DOCLITE_INCLUDE_DIR", "DOCLITE_SOURCE_DIR", "DOCLITE_BUILD_DIR", "CMAKE", "PKG_CONFIG_PATH"] {
        println!("cargo:rerun-if-env-changed={variable}");
    }
    let found = from_environment().or_else(from_pkg_config).unwrap_or_else(build_with_cmake);
    let header = found.include_dir.join("doclite.h");
    if !header.is_file() {
        panic!("DocLite's header is not at {}: set DOCLITE_INCLUDE_DIR", header.display());
    }
    println!("cargo:rerun-if-changed={}", header.display());
    println!("cargo:rerun-if-changed={}", found.library.display());

    let out = PathBuf::from(env::var("OUT_DIR").unwrap());
    let bindings = bindgen::Builder::default()
        .header(header.to_str().expect("a UTF-8 header path"))
        // The header's foreign-function form: no static inline helpers.
        .clang_arg("-DDOCLITE_CDEF")
        .allowlist_function("CBL.*")
        .allowlist_type("CBL.*")
        .allowlist_var("kCBL.*|DOCLITE_.*")
        .dynamic_library_name("DocLite")
        .dynamic_link_require_all(true)
        .size_t_is_usize(true)
        .generate()
        .unwrap_or_else(|error| panic!("bindgen could not read {}: {error}", header.display()))
        .to_string();
    // bindgen 0.60 with a libclang newer than it knows silently drops anonymous enums.
    if !bindings.contains("kCBLErrorNotFound") {
        panic!("bindgen generated no kCBL… constants from {}: point LIBCLANG_PATH at libclang 14 (Debian's libclang-dev)",
               header.display());
    }
    std::fs::write(out.join("bindings.rs"), bindings).expect("writing the bindings");

    let library = found.library.canonicalize().unwrap_or(found.library);
    println!("cargo:rustc-env=DOCLITE_LIBRARY_PATH={}", library.display());
    println!("cargo:rustc-env=DOCLITE_HEADER_PATH={}", header.display());
    // For crates that depend on this one directly: DEP_DOCLITE_LIB_DIR, DEP_DOCLITE_INCLUDE.
    println!("cargo:lib_dir={}", library.parent().unwrap().display());
    println!("cargo:include={}", found.include_dir.display());
}

/// `DOCLITE_LIB_DIR`, and `DOCLITE_INCLUDE_DIR` or the `include` folder beside it.
fn from_environment() -> Option<Found> {
    let lib_dir = PathBuf::from(env::var_os("DOCLITE_LIB_DIR")?);
    let library = lib_dir.join(LIBRARY_FILE);
    if !library.exists() {
        panic!("DOCLITE_LIB_DIR is {}, which holds no {LIBRARY_FILE}", lib_dir.display());
    }
    let include_dir = env::var_os("DOCLITE_INCLUDE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| lib_dir.join("..").join("include"));
    Some(Found { library, include_dir })
}

/// An installed DocLite that `pkg-config doclite` knows.
fn from_pkg_config() -> Option<Found> {
    let installed = pkg_config::Config::new()
        .atleast_version("0.1")
        .cargo_metadata(false)
        .probe("doclite")
        .ok()?;
    let library = installed.link_paths.iter().map(|dir| dir.join(LIBRARY_FILE)).find(|path| path.exists())?;
    let include_dir = installed.include_paths.first()?.clone();
    Some(Found { library, include_dir })
}

/// Builds DocLite from its source tree with its own CMake build, once per source tree
/// (`build-rust` in it, or `DOCLITE_BUILD_DIR`): other target folders and profiles find it
/// built, and wait while one builds it.
fn build_with_cmake() -> Found {
    let source = env::var_os("DOCLITE_SOURCE_DIR").map(PathBuf::from).unwrap_or_else(|| {
        Path::new(&env::var("CARGO_MANIFEST_DIR").unwrap()).join("../../..")
    });
    if !source.join("CMakeLists.txt").is_file() || !source.join("include/doclite.h").is_file() {
        panic!(
            "DocLite was not found: install it (pkg-config doclite), or set DOCLITE_LIB_DIR to the folder \
             holding {LIBRARY_FILE} (and DOCLITE_INCLUDE_DIR to doclite.h's), or DOCLITE_SOURCE_DIR to a \
             DocLite source tree to build"
        );
    }
    let source = source.canonicalize().unwrap_or(source);
    for input in ["Sources", "include", "cmake", "CMakeLists.txt"] {
        println!("cargo:rerun-if-changed={}", source.join(input).display());
    }
    let dir = env::var_os("DOCLITE_BUILD_DIR").map(PathBuf::from).unwrap_or_else(|| shared_build::build_dir(&source));
    println!(
        "cargo:warning=building DocLite from {} with CMake into {} (once for every target folder and profile; \
         set DOCLITE_LIB_DIR to use a built one)",
        source.display(),
        dir.display()
    );
    let cmake = env::var_os("CMAKE").unwrap_or_else(|| "cmake".into());
    let jobs = env::var("NUM_JOBS").unwrap_or_else(|_| "2".into());
    let waiting = || println!("cargo:warning=waiting for another build of DocLite in {}", dir.display());
    let built = shared_build::build(&source, &dir, &cmake, &jobs, waiting).unwrap_or_else(|error| panic!("{error}"));
    Found { library: built.library, include_dir: built.include_dir }
}
