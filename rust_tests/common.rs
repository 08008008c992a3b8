//! Shared helpers: paths to the repository's assets (assets/) and small synthetic rigs.
#![allow(dead_code)]

use std::path::PathBuf;

use caudal::gltf_io::{self, GltfModel};

pub fn asset(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets").join(rel)
}

/// A path in the repository (for files the tests keep beside themselves).
pub fn repo(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

pub fn load(rel: &str) -> GltfModel {
    gltf_io::load(&asset(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Every model in assets/ with (path, joints, vertices, clips).
pub const MODELS: &[(&str, usize, usize, usize)] = &[
    ("fox/Fox.glb", 24, 1728, 3),
    ("fox/Fox_notail.glb", 21, 1728, 3),
    ("quaternius_wolf/Wolf.gltf", 51, 3994, 12),
    ("quaternius_wolf/Wolf_notail.glb", 43, 3994, 12),
    ("quaternius_shiba_inu/ShibaInu.gltf", 46, 3966, 12),
    ("quaternius_shiba_inu/ShibaInu_notail.glb", 43, 3966, 12),
    ("quaternius_alpaca/Alpaca.gltf", 46, 4156, 13),
    ("quaternius_alpaca/Alpaca_notail.glb", 43, 4156, 13),
    ("quaternius_monkroose/Monkroose.glb", 43, 3355, 14),
    ("robot_expressive/RobotExpressive.glb", 43, 7214, 14),
    ("cesium_man/CesiumMan.glb", 19, 3273, 19),
];

/// Issue 18's control-run bars: a solve of a rig's own skinning reproduces
/// it (mean error <= 0.008% and worst <= 0.08% of the diagonal, quality >=
/// 99.8%); prints the figures under `label`.
pub fn assert_control_run(label: &str, q: &caudal::solve::quality::Quality) {
    let (mean, worst) = (q.mean_error * 100.0, q.worst_error * 100.0);
    eprintln!("{label}: quality {:.6} mean {mean:.2e}% worst {worst:.2e}%", q.quality);
    assert!(q.mean_error <= 0.008e-2, "{label}: mean {}", q.mean_error);
    assert!(q.worst_error <= 0.08e-2, "{label}: worst {}", q.worst_error);
    assert!(q.quality >= 0.998, "{label}: quality {}", q.quality);
}

/// The first vertex a detection report lists in two parts, named with both
/// (a report lists each vertex in one part at most).
pub fn vertex_listed_twice(
    report: &caudal::appendage::Report,
    vertex_count: usize,
) -> Option<String> {
    let mut owner = vec![usize::MAX; vertex_count];
    report.parts.iter().find_map(|p| {
        p.vertices.iter().find_map(|&v| {
            let o = std::mem::replace(&mut owner[v as usize], p.index);
            (o != usize::MAX).then(|| format!("vertex {v} in parts #{o} and #{}", p.index))
        })
    })
}
