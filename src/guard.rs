//! The last line against panics: no panic crosses the FFI.
//!
//! Bad input is refused with an error naming the field, before use; a panic
//! is a caudal bug. Should one happen anyway, the boundary ([`catch`])
//! turns it into [`CaudalError::Internal`] carrying the panic's message and
//! place, so that Python sees a `CaudalError` (never pyo3's
//! `PanicException`, a `BaseException` that `except Exception` lets
//! through) and the command line exits 2 with one line.
//!
//! [`install_quiet_hook`] replaces the default panic hook (which prints a
//! message and a backtrace to stderr) with one that records the place for
//! [`catch`] to report; only this library's panics reach it (a cdylib has
//! its own copy of the standard library).

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

use crate::error::{CaudalError, Result};

/// Where the last panic happened (global: a panic on a rayon worker
/// resumes on the thread that called into the pool).
static LAST_PLACE: Mutex<Option<String>> = Mutex::new(None);

/// The text of a panic payload (`panic!("...")` or a formatted message).
pub fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

/// Runs `f`; a panic inside becomes [`CaudalError::Internal`].
pub fn catch<T>(f: impl FnOnce() -> Result<T>) -> Result<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => {
            let place = LAST_PLACE.lock().map(|mut p| p.take()).unwrap_or_default();
            Err(CaudalError::Internal {
                message: panic_message(&*payload),
                place: place.unwrap_or_default(),
            })
        }
    }
}

/// Makes panics silent (their place kept for [`catch`]). Idempotent.
pub fn install_quiet_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            let place =
                info.location().map(|l| format!("{}:{}", l.file(), l.line())).unwrap_or_default();
            if let Ok(mut p) = LAST_PLACE.lock() {
                *p = Some(place);
            }
        }));
    });
}
