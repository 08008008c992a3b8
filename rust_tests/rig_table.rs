use caudal::rig::{normalize_weights, Influences, Rig, RigParts};
use caudal::CaudalError;
use glam::{Mat4, Vec3};

fn parts() -> RigParts {
    RigParts {
        vertices: vec![Vec3::ZERO, Vec3::X, Vec3::Y],
        triangles: vec![[0, 1, 2]],
        influences: Influences::from_padded(
            &[0, 1, 0, 1, 0, 1],
            &[0.5, 0.5, 1.0, 0.0, 0.25, 0.75],
            2,
        ),
        joint_names: vec!["root".into(), "child".into()],
        parents: vec![None, Some(0)],
        bind_world: Some(vec![Mat4::IDENTITY, Mat4::from_translation(Vec3::Y)]),
        ..Default::default()
    }
}

#[test]
fn a_valid_rig_derives_inverse_binds_and_rest_locals() {
    let rig = Rig::new(parts()).unwrap();
    assert!(rig.inverse_bind()[1].abs_diff_eq(Mat4::from_translation(-Vec3::Y), 1e-6));
    assert_eq!(rig.rest_local()[1].translation, Vec3::Y);
    assert_eq!(rig.topological_order(), &[0, 1]);
    assert_eq!(rig.influences().of(1), (&[0u32][..], &[1.0f32][..]));
}

#[test]
fn cyclic_parents_name_a_joint_on_the_cycle() {
    let mut p = parts();
    p.parents = vec![Some(1), Some(0)];
    match Rig::new(p) {
        Err(CaudalError::CyclicParents { joint }) => assert!(joint == "root" || joint == "child"),
        other => panic!("expected a cycle error, got {other:?}"),
    }
}

#[test]
fn weights_off_by_more_than_the_tolerance_are_refused_unless_normalized() {
    let mut p = parts();
    p.influences.weights[0] = 0.4; // vertex 0 sums to 0.9
    let err = Rig::new(p.clone()).unwrap_err().to_string();
    assert!(err.contains("skin_weights") && err.contains("vertex 0"), "{err}");
    p.normalize = true;
    let rig = Rig::new(p).unwrap();
    let (_, w) = rig.influences().of(0);
    assert!((w.iter().sum::<f32>() - 1.0).abs() < 1e-6);
}

#[test]
fn normalisation_is_idempotent() {
    let mut w = vec![0.3f32, 0.2, 0.15];
    normalize_weights(&mut w);
    let once = w.clone();
    normalize_weights(&mut w);
    assert_eq!(w, once);
    assert!((w.iter().map(|&x| x as f64).sum::<f64>() - 1.0).abs() <= 2e-7);
}

#[test]
fn unknown_joint_errors_name_the_field() {
    let rig = Rig::new(parts()).unwrap();
    let err = rig.require_joint("chain.root", "Tail_9").unwrap_err();
    assert_eq!(err.to_string(), "chain.root: unknown joint name \"Tail_9\"");
}

#[test]
fn a_new_rig_from_parts_leaves_the_old_one_alone() {
    let rig = Rig::new(parts()).unwrap();
    let mut p = rig.to_parts();
    p.vertices[0] = Vec3::splat(5.0);
    let other = Rig::new(p).unwrap();
    assert_eq!(rig.vertices()[0], Vec3::ZERO);
    assert_eq!(other.vertices()[0], Vec3::splat(5.0));
}

#[test]
fn a_vertex_is_dominated_by_the_owner_its_weights_sum_to_most_with_one_tie_rule() {
    // Known answers on hand-made rows. Joints 2 and 3 are read as owner 0
    // (a tail chain read as the joint it hangs from), joint 1 as itself.
    let owner = |j: u32| if j >= 2 { 0 } else { j };
    let inf = Influences {
        offsets: vec![0, 3, 5, 7, 9],
        joints: vec![1, 2, 3, 2, 1, 1, 0, 3, 1],
        weights: vec![0.4, 0.3, 0.3, 0.5, 0.5, 0.5, 0.5, 0.25, 0.75],
    };
    // Row 0: joint 1 is the heaviest single joint (0.4), but owner 0
    // carries 0.3 + 0.3.
    assert_eq!(inf.dominant_joint(0), 1);
    assert_eq!(inf.dominant_by(0, owner), 0);
    // Rows 1 and 2: a tie, on joints and on owners, goes to the lower
    // index whichever the row lists first.
    assert_eq!((inf.dominant_joint(1), inf.dominant_by(1, owner)), (1, 0));
    assert_eq!((inf.dominant_joint(2), inf.dominant_by(2, owner)), (0, 0));
    // Row 3: read as themselves, both rules agree.
    assert_eq!((inf.dominant_joint(3), inf.dominant_by(3, |j| j)), (1, 1));
    for v in 0..inf.vertex_count() {
        assert_eq!(inf.dominant_by(v, |j| j), inf.dominant_joint(v), "vertex {v}");
    }
}

#[test]
fn a_vertex_of_one_influence_is_its_joints_owners_whatever_the_weight() {
    // The one-influence rows take a shortcut past the sum per owner; the
    // answers are the sum's: the owner of the row's joint, for a full, a
    // partial and a zero weight, and the empty row's joint 0. A weight of
    // minus infinity (no rig holds one) does not beat the sum's start, so
    // the row falls back to joint 0 as the sum does.
    let owner = |j: u32| if j >= 2 { 1 } else { j };
    let inf = Influences {
        offsets: vec![0, 1, 2, 3, 3, 4],
        joints: vec![3, 0, 2, 5],
        weights: vec![1.0, 0.5, 0.0, f32::NEG_INFINITY],
    };
    let answers: Vec<u32> = (0..5).map(|v| inf.dominant_by(v, owner)).collect();
    assert_eq!(answers, vec![1, 0, 1, 0, 0]);
    let own: Vec<u32> = (0..5).map(|v| inf.dominant_joint(v)).collect();
    assert_eq!(own, vec![3, 0, 2, 0, 0]);
}

#[test]
fn a_joint_listed_twice_in_a_row_carries_the_sum_of_its_slots() {
    // glTF allows one joint in two slots: joint 3 holds 0.3 + 0.3 against
    // joint 1's 0.4, so it carries the vertex.
    let inf =
        Influences { offsets: vec![0, 3], joints: vec![1, 3, 3], weights: vec![0.4, 0.3, 0.3] };
    assert_eq!(inf.dominant_joint(0), 3);
}
