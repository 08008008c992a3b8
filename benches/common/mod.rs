//! Helpers every benchmark shares: where the shared assets are, and
//! best-of-N wall timing.
#![allow(dead_code)]

use std::path::PathBuf;
use std::time::Instant;

pub fn asset(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets").join(rel)
}

/// The fastest of `reps` runs, in seconds (the least disturbed by other load).
pub fn best_of<T>(reps: usize, mut f: impl FnMut() -> T) -> f64 {
    (0..reps)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(f());
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}
