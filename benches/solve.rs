//! Surface-solve benchmark (SPEC X7, X8): time per 24-frame clip at 5,000
//! constraint vertices, on the Wolf (all 3,994 vertices: it has fewer than
//! the budget) and on a generated 60-bone rig (5,280 vertices subsampled to
//! the budget), one thread and all threads (parallel over clips), side by
//! side with benches/solve_numpy.py (the same algorithm in plain numpy) run
//! on the very same constraint sets and surfaces. Prints a table.
//!
//! `cargo bench --bench solve` (set CAUDAL_BENCH_REPEATS to change the
//! repeat count; CAUDAL_BENCH_PYTHON to choose the interpreter).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use caudal::gltf_io::load;
use caudal::solve::constraints::subsample;
use caudal::solve::synthetic::{clip, creature};
use caudal::solve::{skin_clip, solve_surface, solve_surfaces, SolveParams};
use caudal::{Clip, Rig};
use glam::Vec3;

struct Case {
    name: String,
    rig: Rig,
    clips: Vec<Clip>,
}

fn wolf() -> Case {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/quaternius_wolf/Wolf.gltf");
    let model = load(&root).expect("Wolf.gltf");
    let clips = ["Walk", "Gallop", "Idle", "Attack", "Eating", "Death", "Jump_ToIdle", "Gallop_Jump"]
        .iter()
        .map(|n| {
            let d = model.animations[model.animation_index(n).unwrap()].duration;
            model.sample_clip(0, n, 23.0 / d).unwrap()
        })
        .collect();
    Case { name: "Wolf (3,994 v, 51 bones)".into(), rig: model.rig().unwrap().clone(), clips }
}

fn generated() -> Case {
    let rig = creature(60, 5400, 17).unwrap();
    let clips = (0..8).map(|s| clip(&rig, 24, 0.6, true, 100 + s).unwrap()).collect();
    Case { name: format!("generated ({} v, 60 bones)", rig.vertex_count()), rig, clips }
}

/// CPU time of every thread of this process (ns), from /proc: on a shared
/// machine wall time also counts other people's work, CPU time does not.
fn process_cpu_seconds() -> f64 {
    let mut total = 0u64;
    if let Ok(dir) = std::fs::read_dir("/proc/self/task") {
        for t in dir.flatten() {
            if let Ok(s) = std::fs::read_to_string(t.path().join("schedstat")) {
                total += s.split_whitespace().next().and_then(|x| x.parse::<u64>().ok()).unwrap_or(0);
            }
        }
    }
    total as f64 * 1e-9
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn write_bin<T: Copy>(path: &Path, data: &[T]) {
    let bytes = unsafe { std::slice::from_raw_parts(data.as_ptr() as *const u8, std::mem::size_of_val(data)) };
    std::fs::write(path, bytes).unwrap();
}

/// Exports a case for the numpy twin: rest, influences, bind-space
/// constraint indices, surfaces of every clip.
fn export(case: &Case, dir: &Path, surfaces: &[Vec<Vec3>]) {
    std::fs::create_dir_all(dir).unwrap();
    let rig = &case.rig;
    let inf = rig.influences();
    write_bin(&dir.join("rest.f32"), rig.vertices());
    write_bin(&dir.join("offsets.u32"), &inf.offsets);
    write_bin(&dir.join("joints.u32"), &inf.joints);
    write_bin(&dir.join("weights.f32"), &inf.weights);
    let cons: Vec<u32> = subsample(rig, SolveParams::default().constraint_budget).iter().map(|&v| v as u32).collect();
    write_bin(&dir.join("constraints.u32"), &cons);
    let order: Vec<u32> = rig.topological_order().iter().map(|&j| j as u32).collect();
    write_bin(&dir.join("order.u32"), &order);
    let all: Vec<Vec3> = surfaces.iter().flatten().copied().collect();
    write_bin(&dir.join("surfaces.f32"), &all);
    let meta = serde_json::json!({
        "name": case.name, "vertices": rig.vertex_count(), "bones": rig.joint_count(),
        "frames": 24, "clips": surfaces.len(), "diagonal": rig.diagonal(),
        "constraints": cons.len(),
    });
    std::fs::write(dir.join("meta.json"), meta.to_string()).unwrap();
}

fn main() {
    let repeats: usize = std::env::var("CAUDAL_BENCH_REPEATS").ok().and_then(|s| s.parse().ok()).unwrap_or(5);
    let python = std::env::var("CAUDAL_BENCH_PYTHON").unwrap_or_else(|_| "python3".into());
    let threads = rayon::current_num_threads();
    let out_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/solve_bench");
    let params = SolveParams::default();
    let mut rows = Vec::new();
    for case in [wolf(), generated()] {
        let surfaces: Vec<Vec<Vec3>> = case.clips.iter().map(|c| skin_clip(&case.rig, c)).collect();
        let jobs: Vec<(String, f32, Vec<Vec3>)> =
            case.clips.iter().zip(&surfaces).map(|(c, s)| (c.name.clone(), c.rate, s.clone())).collect();
        // One thread: clips one after another.
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let mut t1 = Vec::new();
        let mut c1 = Vec::new();
        let mut quality = 1.0f64;
        let mut worst_mean = 0.0f64;
        let mut constraints = 0;
        for _ in 0..repeats {
            let t = Instant::now();
            let c = process_cpu_seconds();
            let solved = one.install(|| jobs.iter().map(|(n, r, s)| solve_surface(&case.rig, s, n, *r, &params).unwrap()).collect::<Vec<_>>());
            t1.push(t.elapsed().as_secs_f64() / jobs.len() as f64);
            c1.push((process_cpu_seconds() - c) / jobs.len() as f64);
            for s in &solved {
                quality = quality.min(s.report.quality.quality);
                worst_mean = worst_mean.max(s.report.quality.mean_error);
                constraints = s.report.constraint_vertices;
            }
        }
        // All threads: parallel over clips.
        let mut tn = Vec::new();
        let mut cn = Vec::new();
        for _ in 0..repeats {
            let t = Instant::now();
            let c = process_cpu_seconds();
            let solved = solve_surfaces(&case.rig, &jobs, &params).unwrap();
            tn.push(t.elapsed().as_secs_f64() / jobs.len() as f64);
            cn.push((process_cpu_seconds() - c) / jobs.len() as f64);
            assert_eq!(solved.len(), jobs.len());
        }
        let dir = out_dir.join(case.name.split_whitespace().next().unwrap().to_lowercase());
        export(&case, &dir, &surfaces);
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/solve_numpy.py");
        // The numpy twin takes seconds a clip: two clips, once.
        let np = Command::new(&python).arg(&script).arg(&dir).arg("1").arg("2").output();
        let np_result: Option<serde_json::Value> = match np {
            Ok(o) if o.status.success() => serde_json::from_slice(&o.stdout).ok(),
            Ok(o) => {
                eprintln!("numpy twin failed: {}", String::from_utf8_lossy(&o.stderr));
                None
            }
            Err(e) => {
                eprintln!("numpy twin not run ({python}): {e}");
                None
            }
        };
        rows.push((case.name.clone(), constraints, median(t1), median(c1), median(tn), median(cn), quality, worst_mean, np_result));
    }
    let mut s = std::io::stdout().lock();
    writeln!(
        s,
        "\nSurface solve, rigid mode, 24-frame clips, 8 clips a case, median of {repeats} runs; \
         wall = elapsed / clips, cpu = CPU time of all threads / clips (a shared machine inflates wall); {threads} threads"
    )
    .unwrap();
    writeln!(s, "| rig | constraint v | caudal 1 thread wall ms/clip | cpu ms/clip | caudal {threads} threads wall ms/clip | cpu ms/clip | numpy wall ms/clip | numpy / caudal (1 thread wall) | worst mean error caudal | min quality caudal | min quality numpy |").unwrap();
    writeln!(s, "|---|---|---|---|---|---|---|---|---|---|---|").unwrap();
    for (name, cons, t1, c1, tn, cn, q, m, np) in rows {
        let (npt, npq) = match &np {
            Some(v) => (v["ms_per_clip"].as_f64().unwrap_or(f64::NAN), v["min_quality"].as_f64().unwrap_or(f64::NAN)),
            None => (f64::NAN, f64::NAN),
        };
        writeln!(
            s,
            "| {name} | {cons} | {:.2} | {:.2} | {:.2} | {:.2} | {:.0} | {:.0}x | {:.1e}% | {:.6} | {:.6} |",
            t1 * 1e3,
            c1 * 1e3,
            tn * 1e3,
            cn * 1e3,
            npt,
            npt / (t1 * 1e3),
            m * 100.0,
            q,
            npq
        )
        .unwrap();
    }
}
