//! Transfers scored against the exact answer at 24 evenly spaced times:
//! the re-meshed targets (or, with `--control`, every clip onto its own
//! mesh), keyed at the source's own keys, through the surface
//! correspondence. Prints the tables of docs/solve.md.
//!
//! The "before" columns there (the clip re-keyed at 30 frames/s,
//! nearest-vertex correspondence after matching bounding boxes; commit
//! 6668249) are recorded figures: at commit d1a443e, `cargo run --release
//! --example solve_before_after` prints them beside these.
//!
//! `cargo run --release --example solve_scores [rigid|rotation_only] [--control]`

use std::collections::HashMap;
use std::path::Path;

use caudal::gltf_io::{load, GltfModel, DEFAULT_MAX_KEY_RATE};
use caudal::solve::score::{exact, joint_map, played, score, truth_renames};
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

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = if args.iter().any(|a| a == "rotation_only") {
        SolveMode::RotationOnly
    } else {
        SolveMode::Rigid
    };
    let control = args.iter().any(|a| a == "--control");
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
    println!("| animal | target | clip | quality / worst | reported (keys / halfway) | gap mean / max (% diag) | bone-length change (% diag) |");
    println!("|---|---|---|---|---|---|---|");
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
                        truth_renames(&root.join(folder).join(format!("{short}_{k}.truth.json")))
                            .unwrap(),
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
                let keyed = src.sample_clip_at_keys(0, name, DEFAULT_MAX_KEY_RATE).unwrap();
                let after = transfer_clip(src.rig().unwrap(), &keyed, tgt, &new).unwrap();
                let a = score(tgt, &played(tgt, &after.solved.clip, &times), &want);
                let q = after.solved.report.quality();
                let (gm, gx) = after.correspondence.gap_summary();
                println!(
                    "| {short} | {kind} | {name} | {:.3}% / {:.4} | {:.3} / {:.3}% | {:.3} / {:.3} | {:.2} |",
                    a.quality * 100.0,
                    a.worst * 100.0,
                    q.quality_keys * 100.0,
                    q.quality_halfway.unwrap_or(f64::NAN) * 100.0,
                    gm * 100.0,
                    gx * 100.0,
                    after.solved.report.bone_length_change * 100.0
                );
            }
        }
    }
}
