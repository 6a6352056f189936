//! Predictive models: Rust closures that queries call with `PREDICTION(model, input[, path])`.

use std::ffi::{c_char, c_void, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};

use serde_json::{Map, Value};

use doclite_sys as sys;

use crate::boundary;
use crate::error::Result;
use crate::ffi::{c_string, lib};

/// Registers `model` as the predictive model `name` for the whole process (replacing one
/// of that name): queries call it with the input object, and read its object, or MISSING
/// when it returns `None`. A panic in it fails the query with an
/// [`ErrorKind::InvalidQuery`](crate::ErrorKind::InvalidQuery) error naming the model and
/// giving the panic's message; a save whose predictive or value index needs the prediction
/// then fails and changes nothing. It runs on any
/// thread, several at once, while a query holds its database: it may read that database's
/// blobs (a [`Database::get_blob`](crate::Database::get_blob) of a blob's metadata from the
/// input, then [`Blob::content`](crate::Blob::content) or a stream), as Couchbase Lite's
/// image classifiers do, but must not change a database or use another one.
///
/// ```
/// # let dir = std::env::temp_dir().join(format!("doclite-doc-model-{}", std::process::id()));
/// # let db = doclite::Database::open("model", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
/// use serde_json::{json, Map, Value};
/// doclite::register_model("length", |input: &Map<String, Value>| {
///     let text = input.get("text")?.as_str()?;
///     Some(json!({"length": text.len()}).as_object()?.clone())
/// })?;
/// db.default_collection()?.put("a", &json!({"text": "hello"}))?;
/// let query = db.create_query("SELECT PREDICTION(length, {'text': text}, length) FROM _")?;
/// assert_eq!(query.execute()?.next().unwrap()?.get::<i64>(0)?, 5);
/// doclite::unregister_model("length")?;
/// # db.delete()?;
/// # Ok::<(), doclite::Error>(())
/// ```
pub fn register_model<F>(name: &str, model: F) -> Result<()>
where
    F: Fn(&Map<String, Value>) -> Option<Map<String, Value>> + Send + Sync + 'static,
{
    let lib = lib()?;
    let name = c_string(name, "the model name")?;
    let context = Box::into_raw(Box::new(model)) as *mut c_void;
    let descriptor = sys::CBLPredictiveModel { context, prediction: Some(predict::<F>), unregistered: Some(unregistered::<F>) };
    // Safety: the name outlives the call; the context lives until `unregistered` frees it.
    unsafe { lib.CBL_RegisterPredictiveModel(name.as_ptr(), descriptor) };
    Ok(())
}

/// Unregisters the model `name`: queries calling it then fail, naming it. Its closure is
/// dropped once no query calls it any more (on the thread of the last call: a panic in
/// dropping it is reported on stderr, not unwound).
pub fn unregister_model(name: &str) -> Result<()> {
    let lib = lib()?;
    let name = c_string(name, "the model name")?;
    // Safety: the name outlives the call.
    unsafe { lib.CBL_UnregisterPredictiveModel(name.as_ptr()) };
    Ok(())
}

/// The model's answer as JSON text in memory from `malloc` (DocLite frees it): the
/// prediction, a JSON string (the failure's message) after a panic, or NULL for none.
unsafe extern "C" fn predict<F>(context: *mut c_void, input: *const c_char) -> *mut c_char
where
    F: Fn(&Map<String, Value>) -> Option<Map<String, Value>> + Send + Sync + 'static,
{
    boundary::guard("a predictive model", std::ptr::null_mut(), || {
        let answer = catch_unwind(AssertUnwindSafe(|| {
            // Safety: the context is the registered closure, alive until `unregistered`; the input is valid for the call.
            let model = unsafe { &*(context as *const F) };
            let input: Map<String, Value> = serde_json::from_slice(unsafe { CStr::from_ptr(input) }.to_bytes()).ok()?;
            serde_json::to_vec(&model(&input)?).ok()
        }));
        let text = match answer {
            Ok(text) => text,
            Err(panic) => serde_json::to_vec(&format!("panicked: {}", boundary::into_message(panic))).ok(),
        };
        let Some(text) = text else { return std::ptr::null_mut() };
        // Safety: a fresh allocation of the text's length plus its NUL, filled before it is returned.
        unsafe {
            let buffer = libc::malloc(text.len() + 1) as *mut u8;
            if !buffer.is_null() {
                std::ptr::copy_nonoverlapping(text.as_ptr(), buffer, text.len());
                *buffer.add(text.len()) = 0;
            }
            buffer as *mut c_char
        }
    })
}

/// Drops the closure: DocLite calls this once no query calls the model any more.
unsafe extern "C" fn unregistered<F>(context: *mut c_void) {
    // Safety: the context is the Box made by register_model, given back once.
    let model = unsafe { Box::from_raw(context as *mut F) };
    boundary::drop_quietly("dropping a predictive model", model);
}
