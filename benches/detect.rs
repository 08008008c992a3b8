//! Detection and chain growth throughput: `cargo bench --bench detect`.
//! Prints a markdown table (its figures are in docs/benchmarks.md, Detection): the degraded Fox
//! and Wolf, and a generated creature of about 200k vertices (box body,
//! dense tube tail), on one thread and on all threads. Target: at least 2
//! million vertices per second on one core for detection plus growth.
//!
//! `detect once [name]` (the binary, e.g. under `valgrind --tool=callgrind
//! --toggle-collect='*grow_chains*'`) runs detection and growth once on one
//! thread for each model whose name contains `name`, and prints no table:
//! instruction counts repeat exactly where the shared machine's timings do not.

mod common;
use common::{asset, best_of, thread_cpu};

#[path = "../rust_tests/appendage/synth.rs"]
mod synth;

use caudal::appendage::{find_appendages, DetectParams};
use caudal::chain::{grow_chains, ChainParams};
use caudal::{gltf_io, Rig};

/// Mean on-CPU time per run (the counter advances in scheduler ticks, so
/// single short runs cannot be timed; a sum over many can).
fn mean_cpu_of<T>(reps: usize, mut f: impl FnMut() -> T) -> f64 {
    let t = thread_cpu();
    for _ in 0..reps {
        std::hint::black_box(f());
    }
    (thread_cpu() - t) / reps as f64
}

/// The synthetic humanoid made dense: every box `n` cells a side, a tube
/// tail of `rings` x `around`.
fn generated(n: usize, rings: usize, around: usize) -> Rig {
    let mut b = synth::Builder::humanoid_dense(n);
    let tail = b.add_tube(&synth::tail_path(1.0), 0.05, 0.02, rings, around, 8);
    b.weight_like_template_rigger(tail);
    b.build()
}

fn main() {
    let models: Vec<(String, Rig)> = vec![
        (
            "Fox_notail.glb".into(),
            gltf_io::load(&asset("fox/Fox_notail.glb")).unwrap().rig().unwrap().clone(),
        ),
        (
            "Wolf_notail.glb".into(),
            gltf_io::load(&asset("quaternius_wolf/Wolf_notail.glb"))
                .unwrap()
                .rig()
                .unwrap()
                .clone(),
        ),
        ("generated creature".into(), generated(68, 600, 48)),
    ];
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "once") {
        let only = args.get(at + 1).map_or("", String::as_str);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        for (name, rig) in models.iter().filter(|(name, _)| name.contains(only)) {
            let (_, report) = pool.install(|| grow_chains(rig, &ChainParams::default()).unwrap());
            println!("{name}: {} vertices, {} chains", rig.vertex_count(), report.chains().count());
        }
        return;
    }
    let all = rayon::current_num_threads();
    println!("| model | vertices | chains | threads | detect (ms) | detect + grow (ms) | detect + grow, CPU (ms) | Mvert/s (CPU, detect + grow) |");
    println!("|---|---|---|---|---|---|---|---|");
    for (name, rig) in &models {
        let (_, report) = grow_chains(rig, &ChainParams::default()).unwrap();
        let chains = report.chains().count();
        let reps = if rig.vertex_count() > 50_000 { 7 } else { 30 };
        for threads in [1, all] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let (detect, grow, cpu) = pool.install(|| {
                (
                    best_of(reps, || find_appendages(rig, &DetectParams::default()).unwrap()),
                    best_of(reps, || grow_chains(rig, &ChainParams::default()).unwrap()),
                    // On one thread all the work runs on this worker, so its
                    // CPU time is the whole cost.
                    if threads == 1 {
                        mean_cpu_of(reps * 10, || {
                            grow_chains(rig, &ChainParams::default()).unwrap()
                        })
                    } else {
                        f64::NAN
                    },
                )
            });
            let cpu_cols = if cpu.is_finite() {
                format!("{:.2} | {:.2}", cpu * 1e3, rig.vertex_count() as f64 / cpu / 1e6)
            } else {
                "- | -".to_string()
            };
            println!(
                "| {name} | {} | {chains} | {threads} | {:.2} | {:.2} | {cpu_cols} |",
                rig.vertex_count(),
                detect * 1e3,
                grow * 1e3
            );
            if threads == all {
                break;
            }
        }
    }
}
