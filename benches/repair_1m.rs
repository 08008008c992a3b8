//! The 1M-vertex repair on one thread: `cargo bench --bench repair_1m`.
//!
//! A generated creature of about a million vertices (the synthetic humanoid
//! made dense, with a dense tube tail weighted like a template rigger's)
//! is repaired (`grow_chains`: detection, decisions, chain growth, weights)
//! on a one-thread pool. Prints the best wall time of three runs, the
//! thread's CPU time, and the process's peak resident memory during the
//! repair (Linux: VmHWM, reset before the repair through
//! /proc/self/clear_refs, so it counts the rig already in memory plus
//! everything the repair allocates). Target (issue 14): within 1.5 s and
//! 400 MB.

mod common;
use common::{best_of, thread_cpu};

#[path = "../rust_tests/appendage/synth.rs"]
mod synth;

use caudal::chain::{grow_chains, ChainParams};
use caudal::Rig;

fn status_kb(key: &str) -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with(key))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let t = std::time::Instant::now();
    let mut b = synth::Builder::humanoid_dense(160);
    let tail = b.add_tube(&synth::tail_path(1.0), 0.05, 0.02, 1200, 64, 8);
    b.weight_like_template_rigger(tail);
    let rig: Rig = b.build();
    let built = t.elapsed().as_secs_f64();
    let resident_mb = status_kb("VmRSS:").unwrap_or(f64::NAN) / 1024.0;

    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let params = ChainParams::default();
    // Peak memory of one repair, with the rig already resident.
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    let (chains, cpu) = one.install(|| {
        let c0 = thread_cpu();
        let (_, report) = grow_chains(&rig, &params).unwrap();
        (report.chains().count(), thread_cpu() - c0)
    });
    let peak_mb = status_kb("VmHWM:").unwrap_or(f64::NAN) / 1024.0;
    let wall = one.install(|| best_of(3, || grow_chains(&rig, &params).unwrap()));

    println!("| rig | vertices | triangles | chains | threads | repair, best of 3 (s) | repair, CPU (s) | resident before (MB) | peak during repair (MB) |");
    println!("|---|---|---|---|---|---|---|---|---|");
    println!(
        "| generated creature (built in {built:.1} s) | {} | {} | {chains} | 1 | {wall:.2} | {cpu:.2} | {resident_mb:.0} | {peak_mb:.0} |",
        rig.vertex_count(),
        rig.triangles().len()
    );
}
