//! Helpers every benchmark shares: where the shared assets are, best-of-N
//! wall timing, and the thread's CPU time.
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

/// On-CPU time of the calling thread in seconds (Linux schedstat). The
/// machine this runs on is shared, so wall time on one thread is reported
/// next to the CPU time the work actually took.
pub fn thread_cpu() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|x| x.parse::<f64>().ok()))
        .map(|ns| ns * 1e-9)
        .unwrap_or(f64::NAN)
}
