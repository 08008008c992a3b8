//! Synthetic cases with known answers.

use caudal::measure::stretch::{
    mesh_edges, sample_frames, stretch_report, tail_ends, StretchStats,
};
use caudal::rig::{Influences, RigParts};
use caudal::{CaudalError, Clip, Rig, Trs};
use glam::{Mat4, Vec3};

#[test]
fn percentiles_and_torn_share_of_known_ratios() {
    let s = StretchStats::from_ratios((1..=100).map(|i| i as f32 / 100.0 + 0.5).collect());
    assert_eq!(s.samples, 100);
    assert!(
        (s.p95 - 1.45).abs() < 1e-6 && (s.p99 - 1.49).abs() < 1e-6 && (s.max - 1.5).abs() < 1e-6
    );
    // 0.51..0.66 are torn (16 values), 1.5 is not.
    assert!((s.torn_share - 0.16).abs() < 1e-6, "{}", s.torn_share);
}

#[test]
fn edges_are_unique_and_filtered() {
    let tris = [[0u32, 1, 2], [2, 1, 3]];
    assert_eq!(mesh_edges(&tris, |_| true), vec![(0, 1), (0, 2), (1, 2), (1, 3), (2, 3)]);
    assert_eq!(mesh_edges(&tris, |v| v != 0), vec![(1, 2), (1, 3), (2, 3)]);
    assert_eq!(sample_frames(25, 24), (0..24).collect::<Vec<_>>());
    assert_eq!(sample_frames(49, 24), (0..24).map(|i| 2 * i).collect::<Vec<_>>());
}

/// The strip's triangles: two per gap between its 11 columns of 2.
fn strip_triangles() -> Vec<[u32; 3]> {
    (0..10u32)
        .flat_map(|c| {
            let (a, b, d, e) = (2 * c, 2 * c + 1, 2 * c + 2, 2 * c + 3);
            [[a, d, b], [b, d, e]]
        })
        .collect()
}

/// A strip along +X, 11 columns of 2 (vertex `2c + r`); `joint_of(v)` picks
/// each vertex's joint (0 the pelvis at the origin, 1 the tail at x = 6).
pub(crate) fn strip_with(joint_of: impl Fn(u32) -> u32) -> Rig {
    let vertices: Vec<Vec3> =
        (0..22).map(|v| Vec3::new((v / 2) as f32, (v % 2) as f32, 0.0)).collect();
    let joint: Vec<u32> = (0..22).map(joint_of).collect();
    let triangles = strip_triangles();
    Rig::new(RigParts {
        vertices,
        triangles,
        influences: Influences::rigid(&joint),
        joint_names: vec!["Hips".into(), "Tail".into()],
        parents: vec![None, Some(0)],
        bind_world: Some(vec![Mat4::IDENTITY, Mat4::from_translation(Vec3::new(6.0, 0.0, 0.0))]),
        inverse_bind: None,
        rest_local: None,
        normalize: false,
    })
    .unwrap()
}

/// Vertices of column c >= 6 ride joint 1, the rest joint 0 (the pelvis).
/// Joint 1 moving by d stretches the one column of edges between 5 and 6
/// from 1 to (1 + d).
fn strip() -> Rig {
    strip_with(|v| u32::from(v >= 12))
}

#[test]
fn a_known_stretch_and_a_known_swing() {
    let rig = strip();
    let tail: Vec<u32> = (0..22).filter(|&v| v >= 8).collect(); // columns 4..10
    let d = 0.8f32;
    let mut locals = Vec::new();
    for f in 0..25 {
        let moved = if f % 2 == 0 { 0.0 } else { d };
        locals.push(Trs::IDENTITY);
        locals.push(Trs::new(Vec3::new(6.0 + moved, 0.0, 0.0), glam::Quat::IDENTITY, Vec3::ONE));
    }
    let clip = Clip::new("t", 24.0, 1.0, 2, locals).unwrap();
    let r = stretch_report(&rig, &clip, &tail, 0, None, 24).unwrap();
    // Tail edges: columns 4..10. Horizontal and diagonal edges between
    // columns 5 and 6 stretch on odd frames; everything else stays 1.
    assert!((r.tail.max - 1.8).abs() < 1e-5, "{:?}", r.tail);
    assert!((r.tail.min - 1.0).abs() < 1e-6);
    assert!(r.tail.torn_share > 0.0);
    assert!((r.body.max - 1.0).abs() < 1e-6 && (r.body.min - 1.0).abs() < 1e-6);
    // The tip (column 10) moved along the tail's own direction: no swing.
    assert!(r.motion.amplitude_deg < 1e-3, "{:?}", r.motion);

    // The collar: with the tail starting at column 6 every tail edge rides
    // joint 1 and stays 1; the seam (two horizontal edges and one diagonal
    // between columns 5 and 6) is counted apart: 1.8 and
    // sqrt(1.8² + 1) / sqrt(2) = 1.456 on the 12 odd of 24 frames, so the
    // two horizontal edges tear in 24 of 72 samples.
    let tail6: Vec<u32> = (12..22).collect();
    let r = stretch_report(&rig, &clip, &tail6, 0, None, 24).unwrap();
    assert_eq!(r.collar_edges, 3);
    assert!(
        (r.tail.max - 1.0).abs() < 1e-6 && (r.body.max - 1.0).abs() < 1e-6,
        "{:?} {:?}",
        r.tail,
        r.body
    );
    assert!((r.collar.max - 1.8).abs() < 1e-5, "{:?}", r.collar);
    assert!((r.collar.torn_share - 1.0 / 3.0).abs() < 1e-6, "{:?}", r.collar);
    let diagonal = (1.8f32 * 1.8 + 1.0).sqrt() / 2f32.sqrt();
    assert!(r.collar_ratios.iter().any(|&x| (x - diagonal).abs() < 1e-5));

    // Swing: joint 1 rotated 30° about Z on every frame.
    let q = glam::Quat::from_rotation_z(30f32.to_radians());
    let mut locals = Vec::new();
    for _ in 0..25 {
        locals.push(Trs::IDENTITY);
        locals.push(Trs::new(Vec3::new(6.0, 0.0, 0.0), q, Vec3::ONE));
    }
    let clip = Clip::new("t", 24.0, 1.0, 2, locals).unwrap();
    let r = stretch_report(&rig, &clip, &tail, 0, None, 24).unwrap();
    assert!(r.motion.amplitude_deg > 5.0 && r.motion.amplitude_deg < 30.0, "{:?}", r.motion);
    // Measured against that very pose as the reference, the swing is zero.
    let reference = vec![Trs::IDENTITY, Trs::new(Vec3::new(6.0, 0.0, 0.0), q, Vec3::ONE)];
    let r = stretch_report(&rig, &clip, &tail, 0, Some(&reference), 24).unwrap();
    assert!(r.motion.amplitude_deg < 1e-2, "{:?}", r.motion);
}

#[test]
fn bad_input_names_the_field() {
    let rig = strip();
    let clip = Clip::new("t", 24.0, 1.0, 2, vec![Trs::IDENTITY; 2]).unwrap();
    assert!(
        matches!(stretch_report(&rig, &clip, &[99], 0, None, 24), Err(CaudalError::IndexOutOfRange { field, .. }) if field == "tail_vertices")
    );
    assert!(
        matches!(stretch_report(&rig, &clip, &[], 0, None, 24), Err(CaudalError::Shape { field, .. }) if field == "tail_vertices")
    );
    assert!(
        matches!(stretch_report(&rig, &clip, &[8], 5, None, 24), Err(CaudalError::IndexOutOfRange { field, .. }) if field == "anchor")
    );
    assert!(
        matches!(stretch_report(&rig, &clip, &[8], 0, None, 0), Err(CaudalError::Parameter { field, .. }) if field == "samples")
    );
    let three = Clip::new("t", 24.0, 1.0, 1, vec![Trs::IDENTITY]).unwrap();
    assert!(
        matches!(stretch_report(&rig, &three, &[8], 0, None, 24), Err(CaudalError::Shape { field, .. }) if field == "clip")
    );
}

/// The zebra's shape: a body strip along +X and a tail hanging straight down
/// from its end, the anchor joint's head level with the tail's lower half.
/// Vertex `2c + r`: columns 0..=5 the body at (c, 0, r), columns 6..=10 the
/// tail at (5, 5 - c, r).
fn hanging_tail_beside_its_anchor() -> Rig {
    let at = |v: u32| {
        let (c, r) = ((v / 2) as f32, (v % 2) as f32);
        if c <= 5.0 {
            Vec3::new(c, 0.0, r)
        } else {
            Vec3::new(5.0, 5.0 - c, r)
        }
    };
    let triangles = strip_triangles();
    Rig::new(RigParts {
        vertices: (0..22).map(at).collect(),
        triangles,
        influences: Influences::rigid(&(0..22).map(|v| u32::from(v >= 12)).collect::<Vec<_>>()),
        joint_names: vec!["Body".into(), "Tail".into()],
        parents: vec![None, Some(0)],
        bind_world: Some(vec![
            Mat4::from_translation(Vec3::new(0.0, -4.0, 0.0)),
            Mat4::from_translation(Vec3::new(5.0, -1.0, 0.0)),
        ]),
        inverse_bind: None,
        rest_local: None,
        normalize: false,
    })
    .unwrap()
}

#[test]
fn a_hanging_tail_is_ordered_from_its_root_seam_not_from_the_anchor() {
    // Straight-line distance from the anchor's head (0, -4, 0) puts the
    // tail's lowest rung (column 9, 5.0 away) nearest and its root rung
    // (column 6, 5.8 away) farthest: root and tip swapped, as on the zebra.
    // Along the tail from its seam with the body, column 6 is the root and
    // column 10 the tip.
    let rig = hanging_tail_beside_its_anchor();
    let tail: Vec<u32> = (12..22).collect();
    let ends = tail_ends(&rig, &tail, 0).unwrap();
    assert_eq!(ends.tip, vec![20, 21]);
    assert!((ends.root - Vec3::new(5.0, -1.0, 0.5)).length() < 1e-6, "{:?}", ends.root);

    // The tail joint swung 20° about Z at its head on odd frames: the tip
    // swings about the root by 10° RMS about its mean; the old order
    // measured between two points of the lower tail.
    let q = glam::Quat::from_rotation_z(20f32.to_radians());
    let mut locals = Vec::new();
    for f in 0..25 {
        locals.push(Trs::new(Vec3::new(0.0, -4.0, 0.0), glam::Quat::IDENTITY, Vec3::ONE));
        let turn = if f % 2 == 0 { glam::Quat::IDENTITY } else { q };
        locals.push(Trs::new(Vec3::new(5.0, 3.0, 0.0), turn, Vec3::ONE));
    }
    let clip = Clip::new("t", 24.0, 1.0, 2, locals).unwrap();
    let r = stretch_report(&rig, &clip, &tail, 0, None, 24).unwrap();
    assert!((r.motion.swing_deg - 10.0).abs() < 0.5, "{:?}", r.motion);
}
