//! The crate's one door to the C API: the loaded library, reference-counted
//! handles, strings in and out, and errors, following the header's rules.

use std::ffi::{c_char, CStr, CString};
use std::ptr::NonNull;

use doclite_sys as sys;

use crate::error::{Error, ErrorKind, Result};

/// The loaded library (the same answer every time; an error names why it cannot load).
pub(crate) fn lib() -> Result<&'static sys::DocLite> {
    sys::library().map_err(|message| Error::new(ErrorKind::Library, message))
}

/// The loaded library, where a live handle proves it loaded.
pub(crate) fn loaded() -> &'static sys::DocLite {
    sys::library().expect("a DocLite handle exists, so the library is loaded")
}

/// One reference to a DocLite handle of type `T`: released on drop, retained on clone.
pub(crate) struct Handle<T> {
    pointer: NonNull<T>,
}

impl<T> Handle<T> {
    /// Takes a +1 reference; NULL gives `None`.
    pub(crate) fn from_owned(pointer: *mut T) -> Option<Handle<T>> {
        NonNull::new(pointer).map(|pointer| Handle { pointer })
    }

    pub(crate) fn as_ptr(&self) -> *mut T {
        self.pointer.as_ptr()
    }

    /// Gives up the reference without releasing it, to whoever takes the pointer.
    pub(crate) fn into_raw(self) -> *mut T {
        let pointer = self.as_ptr();
        std::mem::forget(self);
        pointer
    }
}

impl<T> Clone for Handle<T> {
    fn clone(&self) -> Self {
        // Safety: the handle is live while `self` holds its reference.
        unsafe { loaded().CBL_Retain(self.as_ptr() as *const _) };
        Handle { pointer: self.pointer }
    }
}

impl<T> Drop for Handle<T> {
    fn drop(&mut self) {
        // Safety: `self` owns one reference, given back here once.
        unsafe { loaded().CBL_Release(self.as_ptr() as *const _) }
    }
}

/// Runs a C call that reports failure through `CBLError`, and returns its result and the error.
pub(crate) fn with_error<T>(call: impl FnOnce(*mut sys::CBLError) -> T) -> (T, sys::CBLError) {
    let mut error = sys::CBLError { domain: 0, code: 0, internal_info: 0 };
    let result = call(&mut error);
    (result, error)
}

/// A call returning `bool`: `Ok` when it succeeded.
pub(crate) fn check(call: impl FnOnce(*mut sys::CBLError) -> bool) -> Result<()> {
    match with_error(call) {
        (true, _) => Ok(()),
        (false, error) => Err(Error::from_c(&error)),
    }
}

/// A call returning a +1 handle: `Ok(None)` for NULL with error code 0 (nothing there).
pub(crate) fn optional_handle<T>(call: impl FnOnce(*mut sys::CBLError) -> *mut T) -> Result<Option<Handle<T>>> {
    let (pointer, error) = with_error(call);
    match Handle::from_owned(pointer) {
        Some(handle) => Ok(Some(handle)),
        None if error.code == 0 => Ok(None),
        None => Err(Error::from_c(&error)),
    }
}

/// A call returning a +1 handle that must be there.
pub(crate) fn handle<T>(call: impl FnOnce(*mut sys::CBLError) -> *mut T) -> Result<Handle<T>> {
    let (pointer, error) = with_error(call);
    Handle::from_owned(pointer).ok_or_else(|| failure(&error))
}

/// A call returning an owned string that must be there.
pub(crate) fn owned_string(call: impl FnOnce(*mut sys::CBLError) -> *mut c_char) -> Result<String> {
    let (pointer, error) = with_error(call);
    // Safety: the call returned an owned string or NULL.
    unsafe { take_string(pointer) }.ok_or_else(|| failure(&error))
}

/// The error of a call that returned nothing: its CBLError, or — for the calls that
/// report none (a path, a query's JSON) — the only cause a live handle leaves.
pub(crate) fn failure(error: &sys::CBLError) -> Error {
    if error.code == 0 {
        Error::new(ErrorKind::NotOpen, "the database is closed")
    } else {
        Error::from_c(error)
    }
}

/// A Rust string as a C string; one holding NUL (where C would end it) is an error naming `what`.
pub(crate) fn c_string(text: &str, what: &str) -> Result<CString> {
    CString::new(text).map_err(|_| nul_error(text, what))
}

/// The error for `text`, which holds NUL, given as `what`: an [`ErrorKind::InvalidParameter`].
pub(crate) fn nul_error(text: &str, what: &str) -> Error {
    Error::new(ErrorKind::InvalidParameter, format!("{what} holds a NUL byte: {text:?}"))
}

/// An optional Rust string as an optional C string.
pub(crate) fn optional_c_string(text: Option<&str>, what: &str) -> Result<Option<CString>> {
    text.map(|text| c_string(text, what)).transpose()
}

/// The pointer of an optional C string: NULL for none.
pub(crate) fn optional_ptr(text: &Option<CString>) -> *const c_char {
    text.as_ref().map_or(std::ptr::null(), |text| text.as_ptr())
}

/// An owned `char*` from DocLite as a `String`, freed. NULL gives `None`.
///
/// # Safety
/// `pointer` is NULL or a string DocLite returned as owned, not yet freed.
pub(crate) unsafe fn take_string(pointer: *mut c_char) -> Option<String> {
    if pointer.is_null() {
        return None;
    }
    let text = CStr::from_ptr(pointer).to_string_lossy().into_owned();
    loaded().CBL_FreeString(pointer);
    Some(text)
}

/// A borrowed `const char*` from DocLite, copied. NULL gives `None`.
///
/// # Safety
/// `pointer` is NULL or a NUL-terminated string valid for this call.
pub(crate) unsafe fn copy_string(pointer: *const c_char) -> Option<String> {
    (!pointer.is_null()).then(|| CStr::from_ptr(pointer).to_string_lossy().into_owned())
}

/// A borrowed `const char*` from DocLite as `&str`, for as long as the caller says it is valid.
///
/// # Safety
/// `pointer` is NULL or a NUL-terminated UTF-8 string valid for `'a`.
pub(crate) unsafe fn borrow_str<'a>(pointer: *const c_char) -> Option<&'a str> {
    (!pointer.is_null()).then(|| std::str::from_utf8(CStr::from_ptr(pointer).to_bytes()).unwrap_or(""))
}
