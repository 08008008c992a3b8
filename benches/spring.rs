//! Tail spring throughput: bone steps per second (one bone advanced by one
//! internal substep), one character at a time and batched over many
//! characters (`step_many`: chains side by side in SIMD lanes, on one
//! thread and on the rayon pool), side by side in one run, with each
//! row's per-core rate as a multiple of stepping one by one. Target: at
//! least 10 million bone steps per second per core. Run: `cargo bench
//! --bench spring`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use caudal::spring::{output_offsets, step_many, SpringParams, TailSpring, Units};
use glam::{EulerRot, Mat4, Quat, Vec3};

#[path = "../rust_tests/tail_creature.rs"]
mod tail_creature;
use tail_creature::creature;

fn gait(t: f32, phase: f32) -> Mat4 {
    let t = t + phase;
    Mat4::from_rotation_translation(
        Quat::from_euler(
            EulerRot::YXZ,
            0.6 * (2.5 * t).sin(),
            0.15 * (5.0 * t).sin(),
            0.1 * (7.0 * t).cos(),
        ),
        Vec3::new(0.15 * (5.0 * t).sin(), 0.6 + 0.4 * (3.0 * t).sin().abs(), 1.2 * t),
    )
}

struct Row {
    case: String,
    bones: usize,
    threads: usize,
    wall: f64,
    cpu: f64,
}

/// CPU seconds this process has used (user + system, from /proc), so the
/// per-core figure is not diluted when other jobs share the cores.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn springs(count: usize, bones: usize) -> Vec<TailSpring> {
    let (rig, chain) = creature(bones);
    let params = SpringParams { units: Units::PerMetre(1.0), ..Default::default() };
    let proto = TailSpring::new(&rig, chain, params).unwrap();
    vec![proto; count]
}

/// Steps `count` characters of `bones` bones at 60 fps (2 substeps a call)
/// for at least `budget`; returns substep bone steps per wall second and
/// per CPU second.
fn run(count: usize, bones: usize, batched: bool, budget: Duration) -> (f64, f64) {
    let mut ss = springs(count, bones);
    let phases: Vec<f32> = (0..count).map(|i| i as f32 * 0.173).collect();
    let offsets = output_offsets(&ss);
    let mut out = vec![Quat::IDENTITY; *offsets.last().unwrap()];
    let dt = 1.0 / 60.0;
    let substeps_per_call = 2.0;
    let mut worlds: Vec<Mat4> = phases.iter().map(|p| gait(0.0, *p)).collect();
    step_many(&mut ss, &worlds, 0.0, &mut out).unwrap();
    let mut frames = 0u64;
    let cpu0 = cpu_seconds();
    let start = Instant::now();
    while start.elapsed() < budget {
        for _ in 0..30 {
            frames += 1;
            let t = frames as f32 * dt;
            for (w, p) in worlds.iter_mut().zip(&phases) {
                *w = gait(t, *p);
            }
            if batched {
                step_many(&mut ss, &worlds, dt, &mut out).unwrap();
            } else {
                for (s, w) in ss.iter_mut().zip(&worlds) {
                    black_box(s.step(*w, dt).unwrap());
                }
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let cpu = match (cpu0, cpu_seconds()) {
        (Some(a), Some(b)) if b > a => b - a,
        _ => secs,
    };
    black_box(&out);
    let steps = frames as f64 * count as f64 * bones as f64 * substeps_per_call;
    (steps / secs, steps / cpu)
}

fn main() {
    let threads = rayon::current_num_threads();
    let budget = Duration::from_millis(
        std::env::var("CAUDAL_BENCH_MS").ok().and_then(|s| s.parse().ok()).unwrap_or(1500),
    );
    let mut rows = Vec::new();
    let one_thread = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    for bones in [4usize, 8] {
        for (case, count, batched, t) in [
            (format!("1 character, {bones} bones, step()"), 1, false, 1),
            (format!("1000 characters, {bones} bones, step() one by one"), 1000, false, 1),
            (format!("1000 characters, {bones} bones, step_many (lanes)"), 1000, true, 1),
            (
                format!("1000 characters, {bones} bones, step_many (lanes, rayon)"),
                1000,
                true,
                threads,
            ),
        ] {
            // CAUDAL_BENCH_ONLY=<substring> runs matching cases only (for
            // perf stat on one case).
            if let Ok(only) = std::env::var("CAUDAL_BENCH_ONLY") {
                if !case.contains(&only) {
                    continue;
                }
            }
            let (wall, cpu) = if t == 1 {
                one_thread.install(|| run(count, bones, batched, budget))
            } else {
                run(count, bones, batched, budget)
            };
            rows.push(Row { case, bones, threads: t, wall, cpu });
        }
    }
    println!();
    println!("Tail spring: bone steps per second (a bone step = one bone, one 1/120 s substep; 60 fps caller)");
    println!();
    println!("| case | threads | bone steps/s (wall) | per core (per CPU second) | ns per bone step (CPU) | per core vs one by one |");
    println!("|---|---|---|---|---|---|");
    for r in &rows {
        let base = rows
            .iter()
            .find(|b| b.bones == r.bones && b.case.contains("one by one"))
            .map(|b| b.cpu);
        let ratio = base.map_or("".to_string(), |b| format!("{:.2}x", r.cpu / b));
        println!(
            "| {} | {} | {:.1} M | {:.1} M | {:.0} | {} |",
            r.case,
            r.threads,
            r.wall / 1e6,
            r.cpu / 1e6,
            1e9 / r.cpu,
            ratio
        );
    }
    println!();
    println!(
        "load average while running: {}",
        std::fs::read_to_string("/proc/loadavg").unwrap_or_default().trim()
    );
    println!();
    println!("target: >= 10 M bone steps/s per core");
}
