//! How much memory one request may ask for.
//!
//! Sizes that come from a file or a caller (a key at 10^7 s, a sample rate
//! of 10^9, a million frames to skin) multiply into allocations that abort
//! the process long before they fail politely. Every such size is checked
//! against a byte budget **before** anything is allocated, and a request
//! past it is an error naming the field, the size and the budget:
//!
//! - reading a file counts every buffer it reads or decodes and every
//!   accessor it reads ([`crate::gltf_io::LoadOptions::max_bytes`]; over the
//!   budget is a `GltfError`);
//! - sampling a clip counts `frames x joints` transforms (a model's clips use
//!   its load's budget; a `ParameterError` naming the rate);
//! - skinning frames, a crouch clip and the other generated arrays count
//!   their output ([`check_bytes`]).
//!
//! The default, [`DEFAULT_MAX_BYTES`], is far above any real character (the
//! repository's largest asset needs 60 MB to load) and far below what the
//! machine holds; every function that takes a budget takes a parameter to
//! raise it.

use crate::error::{CaudalError, Result};

/// Default budget of one request, bytes (1 GiB). A 1M-vertex character
/// with four influences per vertex and a 30-frame clip of 400 joints needs
/// under 200 MB; a reader or a caller past 1 GiB is almost certainly a
/// hostile or mistyped size. Raise it with `max_bytes` where you need more.
pub const DEFAULT_MAX_BYTES: usize = 1 << 30;

/// Checks that `max_bytes` is a usable budget (at least one byte).
pub fn check_budget(max_bytes: usize) -> Result<()> {
    if max_bytes == 0 {
        return Err(CaudalError::param("max_bytes", "must be at least 1 byte"));
    }
    Ok(())
}

/// An error naming `field` unless the count `value` is at least 1 and at
/// most `bound`, the bound past which more `unit` (sweeps, passes) only
/// hang the call.
pub fn check_count<T>(field: &str, value: T, bound: T, unit: &str) -> Result<()>
where
    T: PartialOrd + std::fmt::Display + From<u8>,
{
    if value < T::from(1) {
        return Err(CaudalError::param(field, "must be at least 1"));
    }
    if value > bound {
        return Err(CaudalError::param(
            field,
            format!("{value} is above the bound {bound} (at most that many {unit})"),
        ));
    }
    Ok(())
}

/// `count` items of `item_bytes` each, as a byte count (saturating: a
/// product past `u128` is past any budget anyway).
pub fn bytes_of(count: f64, item_bytes: usize) -> f64 {
    count * item_bytes as f64
}

/// An error unless `bytes` (what the request `what` would allocate) fits in
/// `max_bytes`. `field` names the argument that made it so large.
pub fn check_bytes(field: &str, what: &str, bytes: f64, max_bytes: usize) -> Result<()> {
    if bytes.is_nan() || bytes > max_bytes as f64 {
        return Err(CaudalError::param(
            field,
            format!("{what} needs {} bytes, more than max_bytes = {max_bytes} (lower {field} or raise max_bytes)", human(bytes)),
        ));
    }
    Ok(())
}

/// A byte count for a message: exact below 10^6, else three figures.
pub fn human(x: f64) -> String {
    if x < 1e6 {
        format!("{x:.0}")
    } else {
        format!("{x:.3e}")
    }
}
