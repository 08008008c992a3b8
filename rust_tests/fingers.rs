//! Finger merging on the rig table: which joints are fingers (by name and
//! hierarchy) and where their skin weight goes.

use caudal::rig::{FingerMerge, Influences, Rig, RigParts};
use glam::{Mat4, Vec3};

use crate::common::load;

/// One vertex per joint, each bound wholly to its joint.
fn rig_of(names: &[&str], parents: &[Option<usize>]) -> Rig {
    let n = names.len();
    Rig::new(RigParts {
        vertices: (0..n).map(|i| Vec3::new(i as f32, 0.1 * (i * i) as f32, 0.0)).collect(),
        triangles: vec![[0, 1, 2]],
        influences: Influences::rigid(&(0..n as u32).collect::<Vec<_>>()),
        joint_names: names.iter().map(|s| s.to_string()).collect(),
        parents: parents.to_vec(),
        bind_world: Some((0..n).map(|i| Mat4::from_translation(Vec3::Y * i as f32)).collect()),
        ..Default::default()
    })
    .unwrap()
}

/// Sum of each joint's weight over all vertices.
fn joint_totals(rig: &Rig) -> Vec<f64> {
    let mut t = vec![0.0; rig.joint_count()];
    for v in 0..rig.vertex_count() {
        let (js, ws) = rig.influences().of(v);
        for (&j, &w) in js.iter().zip(ws) {
            t[j as usize] += w as f64;
        }
    }
    t
}

#[test]
fn a_synthetic_hand_merges_digits_and_palms_but_not_a_belt_ring_or_a_handle() {
    let names = [
        "Hips",
        "Spine",
        "hand.L",
        "f_index.01.L",
        "f_index.02.L",
        "thumb.01.L",
        "palm.01.L",
        "f_middle.01.L",
        "Ring_belt",
        "Tail_1",
        "handle",
        "grip_finger",
    ];
    let parents = [-1, 0, 1, 2, 3, 2, 2, 6, 1, 0, 1, 10].map(|p: i32| usize::try_from(p).ok());
    let rig = rig_of(&names, &parents);
    let want: Vec<FingerMerge> =
        [3, 4, 5, 6, 7].iter().map(|&finger| FingerMerge { finger, hand: 2 }).collect();
    assert_eq!(rig.finger_merges(), want);
    let (merged, merges) = rig.merge_fingers().unwrap();
    assert_eq!(merges, want);
    let totals = joint_totals(&merged);
    assert_eq!(totals[2], 6.0, "the hand takes its own vertex and the five fingers'");
    assert!(want.iter().all(|m| totals[m.finger] == 0.0));
    assert_eq!(totals[8], 1.0, "the belt ring keeps its weight");
    assert_eq!(totals[11], 1.0, "a finger under a handle is not under a hand");
    assert_eq!(merged.joint_names(), rig.joint_names(), "the joints stay");
    assert_eq!(merged.vertices(), rig.vertices());
}

#[test]
fn a_rig_without_hands_is_returned_as_it_is() {
    let model = load("fox/Fox_notail.glb");
    let rig = model.rig().unwrap();
    let (merged, merges) = rig.merge_fingers().unwrap();
    assert!(merges.is_empty());
    assert_eq!(&merged, rig);
}

#[test]
fn the_robots_fingers_go_to_its_palms_and_every_vertex_keeps_its_weight() {
    let model = load("robot_expressive/RobotExpressive.glb");
    let rig = &model.characters[0].rig;
    let (merged, merges) = rig.merge_fingers().unwrap();
    let names = rig.joint_names();
    assert_eq!(merges.len(), 12, "{merges:?}");
    for m in &merges {
        assert!(names[m.hand].starts_with("Palm"), "{} -> {}", names[m.finger], names[m.hand]);
        assert!(!names[m.finger].starts_with("Palm"));
    }
    let (before, after) = (joint_totals(rig), joint_totals(&merged));
    let mut moved = vec![0.0; rig.joint_count()];
    for m in &merges {
        assert!(before[m.finger] > 0.0, "{} has skin", names[m.finger]);
        assert_eq!(after[m.finger], 0.0);
        moved[m.hand] += before[m.finger];
    }
    for j in 0..rig.joint_count() {
        let fingered = merges.iter().any(|m| m.finger == j);
        if !fingered {
            assert!((after[j] - before[j] - moved[j]).abs() < 1e-3, "{}", names[j]);
        }
    }
    for v in 0..rig.vertex_count() {
        let sum = |r: &Rig| r.influences().of(v).1.iter().map(|&w| w as f64).sum::<f64>();
        assert!((sum(&merged) - sum(rig)).abs() < 1e-6, "vertex {v}");
    }
}
