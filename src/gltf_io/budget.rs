//! The byte budget of one load ([`crate::limits`]): every buffer read or
//! decoded and every accessor read is charged **before** its memory is
//! allocated. A file of 170 kB whose five thousand nodes instance one
//! skinned mesh asks for its accessors five thousand times; the budget
//! stops it by name instead of the allocator aborting the process.

use std::cell::Cell;

use crate::error::{CaudalError, Result};

/// Options of one load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoadOptions {
    /// Most bytes the reader allocates for the file's data: buffers read
    /// or decoded, accessors read, and later each clip sampled from the
    /// model (`frames x joints` transforms). Default
    /// [`crate::limits::DEFAULT_MAX_BYTES`].
    pub max_bytes: usize,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions { max_bytes: crate::limits::DEFAULT_MAX_BYTES }
    }
}

/// Bytes charged so far against a limit (one load, one clip).
pub struct Budget {
    limit: usize,
    used: Cell<usize>,
}

impl Budget {
    pub fn new(limit: usize) -> Self {
        Budget { limit, used: Cell::new(0) }
    }

    /// Charges `bytes` for `what`, or a `GltfError` naming it and the budget.
    pub fn charge(&self, label: &str, what: &str, bytes: usize) -> Result<()> {
        let total = self.used.get().saturating_add(bytes);
        if total > self.limit {
            return Err(CaudalError::gltf(
                label,
                format!(
                    "{what}: reading it needs {bytes} bytes, which brings this load to {total}, more than max_bytes = {} (the file asks for more memory than it holds; raise max_bytes if it is real)",
                    self.limit
                ),
            ));
        }
        self.used.set(total);
        Ok(())
    }

    /// `count` items of `size` bytes, charged as one request.
    pub fn charge_items(&self, label: &str, what: &str, count: usize, size: usize) -> Result<()> {
        self.charge(label, what, count.saturating_mul(size))
    }

    pub fn used(&self) -> usize {
        self.used.get()
    }
}
