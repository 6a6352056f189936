//! An application shipped to a machine where the library's build path does not exist
//! finds `libdoclite.so.0` next to its executable, or in `../lib` from it. The binary is
//! copied with the build's library path in it changed to one that does not exist (as on
//! another machine), and run with no `LD_LIBRARY_PATH` or `DOCLITE_LIBRARY`.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A copy of hello-doclite at `path` whose build library path names no file.
fn shipped_binary(path: &Path) -> String {
    let built = doclite_sys::BUILD_LIBRARY_PATH;
    let (folder, file) = built.rsplit_once('/').expect("an absolute path");
    let elsewhere = format!("{folder}/_{}", &file[1..]);
    assert!(!Path::new(&elsewhere).exists());
    let mut binary = std::fs::read(env!("CARGO_BIN_EXE_hello-doclite")).unwrap();
    let mut replaced = 0;
    let mut at = 0;
    while let Some(offset) = binary[at..].windows(built.len()).position(|window| window == built.as_bytes()) {
        let start = at + offset;
        binary[start..start + built.len()].copy_from_slice(elsewhere.as_bytes());
        replaced += 1;
        at = start + built.len();
    }
    assert!(replaced >= 1, "the binary holds the build's library path {built}");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, binary).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    elsewhere
}

fn run(binary: &Path, database: &Path) -> Output {
    Command::new(binary)
        .arg(database)
        .env_remove("LD_LIBRARY_PATH")
        .env_remove("DOCLITE_LIBRARY")
        .output()
        .expect("the binary starts")
}

fn assert_ran(output: &Output) {
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "exit {:?}\nstdout: {stdout}\nstderr: {}", output.status, String::from_utf8_lossy(&output.stderr));
    assert_eq!(stdout.lines().take(2).collect::<Vec<_>>(), ["Grand 120", "Inn 8"]);
}

/// Whether the system's loader finds a libdoclite.so.0 of its own (then a binary finds one anyway).
fn installed_in_the_system() -> bool {
    Command::new("/sbin/ldconfig")
        .arg("-p")
        .output()
        .map(|output| String::from_utf8_lossy(&output.stdout).contains("libdoclite.so.0"))
        .unwrap_or(false)
}

#[test]
fn a_shipped_binary_finds_the_library_beside_it_or_in_lib() {
    let root = std::env::temp_dir().join(format!("hello-doclite-shipped-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let library = PathBuf::from(doclite_sys::BUILD_LIBRARY_PATH);

    // Alone, it cannot load the library, and says where it looked.
    let alone = root.join("alone/hello-doclite");
    let elsewhere = shipped_binary(&alone);
    if !installed_in_the_system() {
        let output = run(&alone, &root.join("db-alone"));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "stderr: {stderr}");
        assert!(stderr.contains("cannot load DocLite") && stderr.contains(&elsewhere), "{stderr}");
    }

    // Beside it.
    let beside = root.join("app/hello-doclite");
    shipped_binary(&beside);
    std::fs::copy(&library, root.join("app/libdoclite.so.0")).unwrap();
    assert_ran(&run(&beside, &root.join("db-beside")));

    // In ../lib, as an installed prefix lays it out (bin/ and lib/).
    let in_bin = root.join("prefix/bin/hello-doclite");
    shipped_binary(&in_bin);
    std::fs::create_dir_all(root.join("prefix/lib")).unwrap();
    std::fs::copy(&library, root.join("prefix/lib/libdoclite.so.0")).unwrap();
    assert_ran(&run(&in_bin, &root.join("db-lib")));

    std::fs::remove_dir_all(&root).unwrap();
}
