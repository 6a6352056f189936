//! The crate's boundary with C: no panic crosses it. Below Rust 1.81 (the crate
//! supports 1.70) unwinding out of an `extern "C"` function is undefined behaviour, and
//! since then it aborts the process; so every callback DocLite makes into the crate
//! runs inside [`guard`], and user values dropped where DocLite called from go through
//! [`drop_quietly`]. A panic stopped here is reported on stderr.

use std::any::Any;
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A panic's payload.
type Payload = Box<dyn Any + Send>;

/// Runs `body` (a callback from DocLite, named `what` in the report); a panic in it is
/// reported and gives `fallback`.
pub(crate) fn guard<T>(what: &str, fallback: T, body: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|panic| {
        report(what, panic);
        fallback
    })
}

/// Drops `value` (user data: a closure and what it captured), reporting a panic in its
/// `Drop` instead of unwinding.
pub(crate) fn drop_quietly<T>(what: &str, value: T) {
    guard(what, (), move || drop(value));
}

/// Reports on stderr a panic stopped at the boundary (write errors ignored: nothing may unwind).
pub(crate) fn report(what: &str, panic: Payload) {
    let message = into_message(panic);
    let _ = writeln!(std::io::stderr(), "doclite: {what} panicked ({message}); stopped at its boundary with DocLite");
}

/// The message a panic was raised with (its `&str` or `String` payload). The payload is
/// dropped here: a payload whose `Drop` panics too is forgotten, never unwound.
pub(crate) fn into_message(panic: Payload) -> String {
    let message = panic
        .downcast_ref::<&str>()
        .map(|text| text.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into());
    if let Err(second) = catch_unwind(AssertUnwindSafe(move || drop(panic))) {
        std::mem::forget(second);
    }
    message
}
