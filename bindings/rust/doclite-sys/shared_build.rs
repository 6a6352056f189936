//! DocLite built from its source tree with CMake once per source tree, not once per
//! cargo target folder and profile: `build.rs` uses it (as a module) when it finds no built library,
//! and `tests/shared_build.rs` tests it with a stand-in for CMake.
//!
//! The build goes to one folder per source tree ([`build_dir`]): `cmake-build/` (CMake's
//! and Ninja's, brought up to date incrementally) and `prefix/` (the installed library,
//! header and `doclite.pc`, whose path the crate keeps). A lock file (`flock`) lets one
//! build at a time work there; the others wait, then find it up to date. An install goes
//! to a staging folder first, and each file that changed is renamed over its old copy, so
//! a program that has the old library loaded keeps its file, a build reading the prefix
//! never sees half a file, and a file that did not change keeps its time (cargo's
//! `rerun-if-changed` sees no change).

use std::ffi::OsStr;
use std::fs::{self, File, OpenOptions};
use std::io;
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The library file a build installs.
pub const LIBRARY_FILE: &str = "libdoclite.so.0";

/// The library and header a shared build installed.
pub struct Built {
    pub library: PathBuf,
    pub include_dir: PathBuf,
}

/// The folder of the shared build of the source tree `source`: `build-rust` in the tree
/// (beside the project's own CMake folder `build/`; Git ignores both) when it can be made
/// there, else a folder of the user's cache (`$XDG_CACHE_HOME`, or `~/.cache`) named
/// after the tree.
pub fn build_dir(source: &Path) -> PathBuf {
    let in_tree = source.join("build-rust");
    if fs::create_dir_all(&in_tree).is_ok() && writable(&in_tree) {
        return in_tree;
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    let source = source.canonicalize().unwrap_or_else(|_| source.to_owned());
    cache.join("doclite").join(format!("build-{:016x}", fnv1a(source.as_os_str().as_encoded_bytes_compat())))
}

/// Whether a file can be made in `dir`.
fn writable(dir: &Path) -> bool {
    let probe = dir.join(format!(".probe-{}", std::process::id()));
    let made = File::create(&probe).is_ok();
    let _ = fs::remove_file(&probe);
    made
}

/// FNV-1a, a hash that stays the same across Rust versions (for a folder's name).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| (hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3))
}

/// `OsStr::as_encoded_bytes` for Rust 1.70 (on Unix, the bytes).
trait EncodedBytes {
    fn as_encoded_bytes_compat(&self) -> &[u8];
}

impl EncodedBytes for OsStr {
    fn as_encoded_bytes_compat(&self) -> &[u8] {
        std::os::unix::ffi::OsStrExt::as_bytes(self)
    }
}

/// An exclusive lock on a folder, held until dropped (or the process ends).
pub struct Lock {
    _file: File,
}

/// Locks `dir` (made if needed) for this process, waiting for another holder to finish;
/// `waiting` is called once if it has to wait.
pub fn lock(dir: &Path, waiting: impl FnOnce()) -> io::Result<Lock> {
    fs::create_dir_all(dir)?;
    let file = OpenOptions::new().create(true).truncate(false).read(true).write(true).open(dir.join("lock"))?;
    // Safety: flock on a descriptor `file` owns; the lock goes with the descriptor.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        let error = io::Error::last_os_error();
        if error.raw_os_error() != Some(libc::EWOULDBLOCK) {
            return Err(error);
        }
        waiting();
        loop {
            // Safety: as above.
            if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } == 0 {
                break;
            }
            let error = io::Error::last_os_error();
            if error.kind() != io::ErrorKind::Interrupted {
                return Err(error);
            }
        }
    }
    Ok(Lock { _file: file })
}

/// Builds DocLite from `source` in `dir` with `cmake` (configure, build, install), under
/// the folder's lock, and returns what it installed. `waiting` is called if another
/// build holds the lock. The library is the self-contained variant the Python package
/// uses (the Swift runtime linked in), built for release whatever cargo's profile.
pub fn build(source: &Path, dir: &Path, cmake: &OsStr, jobs: &str, waiting: impl FnOnce()) -> Result<Built, String> {
    let _lock = lock(dir, waiting).map_err(|error| format!("cannot lock {}: {error}", dir.join("lock").display()))?;
    let (build, prefix) = (dir.join("cmake-build"), dir.join("prefix"));
    run(Command::new(cmake).arg("-S").arg(source).arg("-B").arg(&build).args([
        "-G",
        "Ninja",
        "-DCMAKE_BUILD_TYPE=Release",
        "-DDOCLITE_STATIC_SWIFT_RUNTIME=ON",
        "-DDOCLITE_BUILD_TOOL=OFF",
        "-DBUILD_TESTING=OFF",
        "-DCMAKE_INSTALL_LIBDIR=lib",
    ]))?;
    run(Command::new(cmake).arg("--build").arg(&build).arg("--parallel").arg(jobs))?;
    let staging = dir.join(format!("staging-{}", std::process::id()));
    let _ = fs::remove_dir_all(&staging);
    run(Command::new(cmake).arg("--install").arg(&build).arg("--prefix").arg(&staging))?;
    let published = publish(&staging, &prefix).map_err(|error| format!("cannot install into {}: {error}", prefix.display()));
    let _ = fs::remove_dir_all(&staging);
    published?;
    let library = prefix.join("lib").join(LIBRARY_FILE);
    if !library.exists() {
        return Err(format!("the CMake install left no {}", library.display()));
    }
    Ok(Built { library, include_dir: prefix.join("include") })
}

/// Moves what `staging` holds into `target`, file by file: a file (or symbolic link)
/// that differs from the one there is renamed over it; one that is the same is left.
pub fn publish(staging: &Path, target: &Path) -> io::Result<()> {
    fs::create_dir_all(target)?;
    for entry in fs::read_dir(staging)? {
        let entry = entry?;
        let (from, to) = (entry.path(), target.join(entry.file_name()));
        let kind = entry.file_type()?;
        if kind.is_dir() {
            publish(&from, &to)?;
        } else if !same(&from, &to, kind.is_symlink())? {
            if to.is_dir() && !to.is_symlink() {
                fs::remove_dir_all(&to)?;
            }
            fs::rename(&from, &to)?;
        }
    }
    Ok(())
}

/// Whether `to` is already what `from` is: the same link target, or the same bytes.
fn same(from: &Path, to: &Path, link: bool) -> io::Result<bool> {
    let Ok(existing) = fs::symlink_metadata(to) else { return Ok(false) };
    if link {
        return Ok(existing.file_type().is_symlink() && fs::read_link(from)? == fs::read_link(to)?);
    }
    if !existing.file_type().is_file() || existing.len() != fs::metadata(from)?.len() {
        return Ok(false);
    }
    let (mut a, mut b) = (File::open(from)?, File::open(to)?);
    let (mut left, mut right) = (vec![0u8; 1 << 16], vec![0u8; 1 << 16]);
    loop {
        let read = io::Read::read(&mut a, &mut left)?;
        if read == 0 {
            return Ok(true);
        }
        io::Read::read_exact(&mut b, &mut right[..read])?;
        if left[..read] != right[..read] {
            return Ok(false);
        }
    }
}

fn run(command: &mut Command) -> Result<(), String> {
    let status = command.status().map_err(|error| format!("cannot run {command:?}: {error}"))?;
    if !status.success() {
        return Err(format!("{command:?} failed ({status})"));
    }
    Ok(())
}
