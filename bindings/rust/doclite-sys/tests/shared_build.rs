//! The CMake build shared by every target folder and profile (`shared_build.rs`),
//! with a stand-in for CMake: builds of one source tree run one at a time, an install
//! that changed nothing leaves the installed files as they were, and one that changed
//! the library replaces the file whole (a program holding the old one keeps it).

#[path = "../shared_build.rs"]
#[allow(dead_code)]
mod shared_build;

use std::ffi::OsStr;
use std::io::Read;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A folder of its own for a test, emptied.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("doclite-sys-shared-build-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A stand-in for cmake in `dir`: configuring makes the build folder, building logs its
/// start and end around a pause, installing writes `library` (the bytes of the file
/// `content`), its soname link and a header into the prefix.
fn fake_cmake(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let (script, log, content) = (dir.join("cmake"), dir.join("log"), dir.join("content"));
    std::fs::write(&content, "library 1").unwrap();
    std::fs::write(
        &script,
        format!(
            r#"#!/bin/sh
case "$1" in
  -S) mkdir -p "$4" ;;
  --build) echo "start $$" >> '{log}'; sleep 0.2; echo "end $$" >> '{log}' ;;
  --install)
    mkdir -p "$4/lib/pkgconfig" "$4/include"
    cp '{content}' "$4/lib/libdoclite.so.0.1.0"
    ln -s libdoclite.so.0.1.0 "$4/lib/libdoclite.so.0"
    echo 'header' > "$4/include/doclite.h"
    echo 'pc' > "$4/lib/pkgconfig/doclite.pc" ;;
  *) exit 2 ;;
esac
"#,
            log = log.display(),
            content = content.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    (script, log, content)
}

#[test]
fn builds_of_one_source_tree_run_one_at_a_time_and_share_the_library() {
    let dir = folder("parallel");
    let (cmake, log, _) = fake_cmake(&dir);
    let (source, shared) = (dir.join("source"), dir.join("shared"));
    std::fs::create_dir_all(&source).unwrap();
    let waited = AtomicUsize::new(0);
    let libraries: Vec<PathBuf> = std::thread::scope(|scope| {
        let builds: Vec<_> = (0..3)
            .map(|_| {
                scope.spawn(|| {
                    shared_build::build(&source, &shared, cmake.as_os_str(), "2", || {
                        waited.fetch_add(1, Ordering::SeqCst);
                    })
                })
            })
            .collect();
        builds.into_iter().map(|build| build.join().unwrap().unwrap().library).collect()
    });
    assert!(libraries.iter().all(|library| *library == shared.join("prefix/lib/libdoclite.so.0")), "{libraries:?}");
    assert_eq!(std::fs::read_to_string(&libraries[0]).unwrap(), "library 1");
    assert_eq!(std::fs::read_to_string(shared.join("prefix/include/doclite.h")).unwrap(), "header\n");
    assert!(waited.load(Ordering::SeqCst) >= 1, "at least one build waited for another");
    // Each build's start is followed by its own end: no two overlapped.
    let lines: Vec<String> = std::fs::read_to_string(&log).unwrap().lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 6, "{lines:?}");
    for pair in lines.chunks(2) {
        assert_eq!(pair[0].replace("start", "end"), pair[1], "{lines:?}");
    }
    // Nothing is left of the staging folders.
    let left: Vec<_> = std::fs::read_dir(&shared).unwrap().map(|entry| entry.unwrap().file_name()).collect();
    assert!(left.iter().all(|name| !name.to_string_lossy().starts_with("staging")), "{left:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_install_replaces_only_what_changed_and_whole() {
    let dir = folder("publish");
    let (cmake, _, content) = fake_cmake(&dir);
    let shared = dir.join("shared");
    let build = || shared_build::build(&dir, &shared, cmake.as_os_str(), "1", || {}).unwrap();
    let file = build().library.with_file_name("libdoclite.so.0.1.0");
    let before = std::fs::metadata(&file).unwrap();

    // Built again with nothing changed: the same file, untouched (cargo sees no change).
    build();
    let again = std::fs::metadata(&file).unwrap();
    assert_eq!((again.ino(), again.mtime(), again.mtime_nsec()), (before.ino(), before.mtime(), before.mtime_nsec()));

    // A changed library replaces the file whole: whoever opened (or loaded) the old one keeps it.
    let mut old = std::fs::File::open(&file).unwrap();
    std::fs::write(&content, "library 2, longer").unwrap();
    build();
    assert_ne!(std::fs::metadata(&file).unwrap().ino(), before.ino());
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "library 2, longer");
    let mut kept = String::new();
    old.read_to_string(&mut kept).unwrap();
    assert_eq!(kept, "library 1");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_failed_build_is_an_error_naming_the_command() {
    let dir = folder("failing");
    let error = shared_build::build(&dir, &dir.join("shared"), OsStr::new("false"), "1", || {}).err().unwrap();
    assert!(error.contains("\"false\"") && error.contains("failed"), "{error}");
    let missing = shared_build::build(&dir, &dir.join("shared"), OsStr::new("/nonexistent/cmake"), "1", || {}).err().unwrap();
    assert!(missing.starts_with("cannot run"), "{missing}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_shared_build_goes_in_the_source_tree() {
    let source = folder("tree");
    assert_eq!(shared_build::build_dir(&source), source.join("build-rust"));
    assert!(source.join("build-rust").is_dir());
    std::fs::remove_dir_all(&source).unwrap();
}
