//! The binary of a crate that depends only on `doclite` runs as built: no
//! `LD_LIBRARY_PATH`, no `DOCLITE_LIBRARY`, no rpath of its own.

use std::process::Command;

#[test]
fn the_binary_runs_with_no_library_path() {
    let directory = std::env::temp_dir().join(format!("hello-doclite-{}", std::process::id()));
    let output = Command::new(env!("CARGO_BIN_EXE_hello-doclite"))
        .arg(&directory)
        .env_remove("LD_LIBRARY_PATH")
        .env_remove("DOCLITE_LIBRARY")
        .output()
        .expect("the binary starts");
    let _ = std::fs::remove_dir_all(&directory);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "exit {:?}\nstdout: {stdout}\nstderr: {}", output.status, String::from_utf8_lossy(&output.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[..2], ["Grand 120", "Inn 8"]);
    assert!(lines[2].starts_with("DocLite 0."), "{stdout}");
}

#[test]
fn a_library_that_cannot_be_loaded_is_an_error_not_a_crash() {
    let output = Command::new(env!("CARGO_BIN_EXE_hello-doclite"))
        .arg(std::env::temp_dir())
        .env("DOCLITE_LIBRARY", "/nonexistent/libdoclite.so.0")
        .output()
        .expect("the binary starts");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "stderr: {stderr}");
    assert!(stderr.contains("cannot load DocLite") && stderr.contains("/nonexistent/libdoclite.so.0"), "{stderr}");
}
