//! Finds DocLite, and with the `bindgen` feature checks the crate's declarations against its header.
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
//! The crate's declarations are `src/bindings.rs`, checked in: what bindgen makes of
//! `doclite.h`, a struct of function pointers that the crate loads at run time
//! (`libloading`) from the path found here, so that any binary depending on this crate,
//! directly or not, finds the library without an rpath or `LD_LIBRARY_PATH` of its own.
//! With the `bindgen` feature, this script generates them again from the header it found
//! and fails if they differ from `src/bindings.rs` (`DOCLITE_SYS_UPDATE_BINDINGS=1`
//! rewrites it instead); without it, it needs no bindgen and no libclang.

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
    // src/bindings.rs is bindgen's output for 64-bit Unix (LP64: `long` is 64 bits).
    let width = env::var("CARGO_CFG_TARGET_POINTER_WIDTH").unwrap_or_default();
    if width != "64" {
        panic!("doclite-sys's declarations (src/bindings.rs) are for 64-bit targets; this one is {width}-bit");
    }
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

    #[cfg(feature = "bindgen")]
    check_bindings(&header);

    let library = found.library.canonicalize().unwrap_or(found.library);
    println!("cargo:rustc-env=DOCLITE_LIBRARY_PATH={}", library.display());
    println!("cargo:rustc-env=DOCLITE_HEADER_PATH={}", header.display());
    // For crates that depend on this one directly: DEP_DOCLITE_LIB_DIR, DEP_DOCLITE_INCLUDE.
    println!("cargo:lib_dir={}", library.parent().unwrap().display());
    println!("cargo:include={}", found.include_dir.display());
}

/// The comment `src/bindings.rs` starts with, before bindgen's output.
#[cfg(feature = "bindgen")]
const BINDINGS_PREAMBLE: &str = "\
// DocLite's C API: bindgen 0.60's output for include/doclite.h, with the options in
// doclite-sys/build.rs (`generate`), for 64-bit Unix. Do not edit: in bindings/rust,
//   DOCLITE_SYS_UPDATE_BINDINGS=1 cargo build --features doclite-sys/bindgen
// regenerates it from the header the build finds (see build.rs), and
// `cargo test --features doclite-sys/bindgen` fails while it differs from that header.

";

/// Generates the declarations from `header` and compares them with `src/bindings.rs`:
/// a difference fails the build, or, with `DOCLITE_SYS_UPDATE_BINDINGS=1`, rewrites the file.
#[cfg(feature = "bindgen")]
fn check_bindings(header: &Path) {
    println!("cargo:rerun-if-env-changed=DOCLITE_SYS_UPDATE_BINDINGS");
    let checked_in = Path::new(&env::var("CARGO_MANIFEST_DIR").unwrap()).join("src").join("bindings.rs");
    println!("cargo:rerun-if-changed={}", checked_in.display());
    let generated = format!("{BINDINGS_PREAMBLE}{}", generate(header));
    let current = std::fs::read_to_string(&checked_in).unwrap_or_default();
    if env::var_os("DOCLITE_SYS_UPDATE_BINDINGS").is_some_and(|value| value == "1") {
        if current != generated {
            std::fs::write(&checked_in, &generated)
                .unwrap_or_else(|error| panic!("cannot write {}: {error}", checked_in.display()));
            println!("cargo:warning=rewrote {} from {}", checked_in.display(), header.display());
        }
        return;
    }
    // Tokens, not text: bindgen formats its output with whichever rustfmt is on PATH, if any.
    if current != generated && tokens(&current) != tokens(&generated) {
        let fresh = PathBuf::from(env::var("OUT_DIR").unwrap()).join("bindings.rs");
        std::fs::write(&fresh, &generated).expect("writing the generated bindings");
        panic!(
            "\n{} is not what bindgen generates from {}.\n\
             Compare: diff {} {}\n\
             If the header changed on purpose, rebuild with DOCLITE_SYS_UPDATE_BINDINGS=1 to rewrite it.\n",
            checked_in.display(),
            header.display(),
            checked_in.display(),
            fresh.display()
        );
    }
}

/// bindgen's reading of `header`, with the options the checked-in file was made with.
#[cfg(feature = "bindgen")]
fn generate(header: &Path) -> String {
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
    bindings
}

/// The Rust tokens of `source`, with no comments, layout or trailing commas (`>>` is two `>`).
#[cfg(feature = "bindgen")]
fn tokens(source: &str) -> Option<Vec<String>> {
    use proc_macro2::{Delimiter, TokenStream, TokenTree};
    fn flatten(stream: TokenStream, into: &mut Vec<String>) {
        for tree in stream {
            match tree {
                TokenTree::Group(group) => {
                    let (open, close) = match group.delimiter() {
                        Delimiter::Parenthesis => ("(", ")"),
                        Delimiter::Brace => ("{", "}"),
                        Delimiter::Bracket => ("[", "]"),
                        Delimiter::None => ("", ""),
                    };
                    into.push(open.into());
                    flatten(group.stream(), into);
                    into.push(close.into());
                }
                TokenTree::Punct(punct) => into.push(punct.as_char().to_string()),
                other => into.push(other.to_string()),
            }
        }
    }
    let stream: TokenStream = source.parse().ok()?;
    let mut flat = Vec::new();
    flatten(stream, &mut flat);
    // rustfmt adds trailing commas (before a closing bracket, and ending a `where` clause):
    // a comma before one of those is left out.
    let closes = |next: Option<&String>| next.is_some_and(|token| matches!(token.as_str(), ")" | "]" | "}" | ">" | "{"));
    Some((0..flat.len()).filter(|&i| !(flat[i] == "," && closes(flat.get(i + 1)))).map(|i| flat[i].clone()).collect())
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
