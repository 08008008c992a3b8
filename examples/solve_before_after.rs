//! Transfers before and after issue 18, side by side in one run, scored the
//! same way (24 evenly spaced times, against the exact answer): the solve
//! as it was (benches/solve_baseline: the clip re-keyed at 30 frames/s,
//! nearest-vertex correspondence after matching bounding boxes) and as it
//! is (the source's own keys, the surface correspondence). Prints the
//! README tables:
//!
//! `cargo run --release --example solve_before_after [rigid|rotation_only] [--control]`
#[path = "../benches/solve_baseline/mod.rs"]
mod baseline;

use std::collections::HashMap;
use std::path::Path;

use caudal::gltf_io::{load, GltfModel, DEFAULT_MAX_KEY_RATE, DEFAULT_SAMPLE_RATE};
use caudal::solve::score::{exact, joint_map, played, score};
use caudal::solve::{transfer_clip, ReportLevel, SolveMode, SolveParams};
use caudal::{Clip, Rig};

const ANIMALS: &[(&str, &str, [&str; 2])] = &[
    ("fox/Fox.glb", "Fox", ["Walk", "Run"]),
    ("quaternius_wolf/Wolf.gltf", "Wolf", ["Walk", "Gallop"]),
    ("quaternius_shiba_inu/ShibaInu.gltf", "ShibaInu", ["Walk", "Gallop"]),
    ("quaternius_alpaca/Alpaca.gltf", "Alpaca", ["Walk", "Gallop"]),
];

fn even(model: &GltfModel, name: &str) -> Clip {
    let d = model.animations[model.animation_index(name).unwrap()].duration;
    model.sample_clip(0, name, 23.0 / d).unwrap()
}

fn names_of(path: &Path) -> HashMap<String, String> {
    let t: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    t["joint_names"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = if args.iter().any(|a| a == "rotation_only") {
        SolveMode::RotationOnly
    } else {
        SolveMode::Rigid
    };
    let control = args.iter().any(|a| a == "--control");
    let old_mode = match mode {
        SolveMode::Rigid => baseline::SolveMode::Rigid,
        SolveMode::RotationOnly => baseline::SolveMode::RotationOnly,
    };
    let old = baseline::SolveParams { mode: old_mode, ..Default::default() };
    let progress = std::env::var("CAUDAL_PROGRESS_TOLERANCE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(caudal::solve::params::DEFAULT_PROGRESS_TOLERANCE);
    let new = SolveParams {
        mode,
        report: ReportLevel::Summary,
        progress_tolerance: progress,
        ..Default::default()
    };
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/assets"));
    println!("{mode:?}: quality / worst vertex (% of the diagonal) at 24 even times against the exact answer");
    println!("| animal | target | clip | before | after | after, reported (keys / halfway) | gap mean / max (% diag) | bone-length change before / after (% diag) |");
    println!("|---|---|---|---|---|---|---|---|");
    for (file, short, clips) in ANIMALS {
        let src = load(&root.join(file)).unwrap();
        let folder = Path::new(file).parent().unwrap();
        let targets: Vec<(String, Rig, HashMap<String, String>)> = if control {
            vec![("same mesh".into(), src.rig().unwrap().clone(), HashMap::new())]
        } else {
            ["subdivided", "decimated", "voxel"]
                .iter()
                .map(|k| {
                    let t = load(&root.join(folder).join(format!("{short}_{k}.glb"))).unwrap();
                    (
                        k.to_string(),
                        t.rig().unwrap().clone(),
                        names_of(&root.join(folder).join(format!("{short}_{k}.truth.json"))),
                    )
                })
                .collect()
        };
        let names: Vec<String> = if control {
            src.animations.iter().map(|a| a.name.clone()).collect()
        } else {
            clips.iter().map(|s| s.to_string()).collect()
        };
        for (kind, tgt, rename) in &targets {
            let map = joint_map(src.rig().unwrap(), tgt, |n| rename.get(n).cloned()).unwrap();
            for name in &names {
                let ev = even(&src, name);
                let times: Vec<f32> = (0..ev.frame_count()).map(|f| ev.time(f)).collect();
                let want = exact(src.rig().unwrap(), &ev, tgt, &map);
                let before_clip = src.sample_clip(0, name, DEFAULT_SAMPLE_RATE).unwrap();
                let before =
                    baseline::transfer::transfer_clip(src.rig().unwrap(), &before_clip, tgt, &old)
                        .unwrap();
                let b = score(tgt, &played(tgt, &before.solved.clip, &times), &want);
                let keyed = src.sample_clip_at_keys(0, name, DEFAULT_MAX_KEY_RATE).unwrap();
                let after = transfer_clip(src.rig().unwrap(), &keyed, tgt, &new).unwrap();
                let a = score(tgt, &played(tgt, &after.solved.clip, &times), &want);
                let q = after.solved.report.quality();
                let (gm, gx) = after.correspondence.gap_summary();
                println!(
                    "| {short} | {kind} | {name} | {:.2}% / {:.3} | {:.3}% / {:.4} | {:.3} / {:.3}% | {:.3} / {:.3} | {:.2} / {:.2} |",
                    b.quality * 100.0,
                    b.worst * 100.0,
                    a.quality * 100.0,
                    a.worst * 100.0,
                    q.quality_keys * 100.0,
                    q.quality_halfway.unwrap_or(f64::NAN) * 100.0,
                    gm * 100.0,
                    gx * 100.0,
                    before.solved.report.bone_length_change * 100.0,
                    after.solved.report.bone_length_change * 100.0
                );
            }
        }
    }
}
