//! SPEC G on the demo creature (a long tail hanging from the pelvis) in a
//! generated crouch: tail counted vs excluded.

use caudal::measure::ground::{
    body_floor, crouch_clip, pelvis_lift, placement_offset, support_points, GroundParams,
};
use caudal::rig::{world_matrices, JointRoles, RoleOverrides};
use caudal::CaudalError;
use glam::Vec3;

use crate::bake::fixtures::demo;

const DEPTH: f32 = 0.4;

#[test]
fn a_hanging_tail_never_lifts_the_pelvis() {
    let g = demo();
    let clip = crouch_clip(&g.rig, DEPTH, 1.5, 30.0, Vec3::Y, Vec3::Z).unwrap();
    let pelvis = g.chains[0].anchor;
    let excluded = pelvis_lift(&g.rig, &clip, pelvis, &GroundParams::default()).unwrap();
    let counted = pelvis_lift(
        &g.rig,
        &clip,
        pelvis,
        &GroundParams { exclude_tail: false, ..GroundParams::default() },
    )
    .unwrap();
    assert!(excluded.tail_points > 0 && counted.support_points == excluded.support_points);
    let n = clip.frame_count();
    eprintln!("| t (s) | pelvis, tail counted | pelvis, tail excluded | extra lift |");
    for f in [n / 3, n / 2, 2 * n / 3, n - 1] {
        let d = counted.pelvis_height_lifted[f] - excluded.pelvis_height_lifted[f];
        eprintln!(
            "| {:.2} | {:.1} cm | {:.1} cm | {:.1} cm |",
            clip.time(f),
            100.0 * counted.pelvis_height_lifted[f],
            100.0 * excluded.pelvis_height_lifted[f],
            100.0 * d
        );
    }
    eprintln!(
        "f_body counted {:.4} excluded {:.4}; body check at end {:.4} mm",
        counted.body_floor,
        excluded.body_floor,
        1000.0 * excluded.body_check[n - 1]
    );
    // The tail goes through the floor in the crouch: counted, it lifts.
    let extra_end = counted.pelvis_height_lifted[n - 1] - excluded.pelvis_height_lifted[n - 1];
    assert!(
        extra_end > 0.05,
        "tail counted should lift the pelvis by centimetres, got {extra_end}"
    );
    // Excluded: only the tail touches the floor, so no lift at all.
    assert!(excluded.lift.iter().all(|&l| l == 0.0), "{:?}", excluded.lift);
    assert_eq!(excluded.pelvis_height_lifted, excluded.pelvis_height);
    // The body check ends within 1 mm of the reference floor (the feet stay planted).
    assert!(excluded.body_check[n - 1].abs() <= 1e-3, "{}", excluded.body_check[n - 1]);
    // Counted, the lift puts the tail on the floor, so the feet float by the extra lift.
    assert!(counted.body_check[n - 1].abs() < 1e-3, "{}", counted.body_check[n - 1]);
    assert!(excluded.lift.iter().zip(&counted.lift).all(|(e, c)| c >= e));
}

#[test]
fn the_exclusion_applies_to_both_minima_and_contacts_only_to_the_current_one() {
    let g = demo();
    let clip = crouch_clip(&g.rig, DEPTH, 1.5, 30.0, Vec3::Y, Vec3::Z).unwrap();
    let pelvis = g.chains[0].anchor;
    // Drop the tail below the soles at calibration (its root moved down):
    // counted, it would set the floor.
    let mut calib = g.rig.bind_locals();
    let tail_root = g.chains[0].bones[0];
    calib[tail_root].translation.y -= 0.35;
    let p = GroundParams { calibration: Some(calib.clone()), ..GroundParams::default() };
    let counted =
        GroundParams { exclude_tail: false, calibration: Some(calib), ..GroundParams::default() };
    let f_ex = body_floor(&g.rig, &p).unwrap();
    let f_co = body_floor(&g.rig, &counted).unwrap();
    eprintln!("f_body: tail excluded {f_ex:.4}, counted {f_co:.4}");
    assert!(f_co < f_ex - 0.05, "the tail hangs below the soles at this calibration");
    assert!(
        (f_ex - body_floor(&g.rig, &GroundParams::default()).unwrap()).abs() < 1e-6,
        "tail pose does not move the body floor"
    );
    // Feet owned by contact solvers: out of c(t), not out of f_body.
    let roles = JointRoles::find(&g.rig, &RoleOverrides::default()).unwrap();
    let feet: Vec<usize> =
        roles.shins.iter().flatten().flat_map(|&s| g.rig.children(s).collect::<Vec<_>>()).collect();
    let mut with_feet: Vec<usize> = feet.clone();
    for &f in &feet {
        with_feet.extend(g.rig.children(f));
    }
    let e = GroundParams { contact_joints: with_feet, ..GroundParams::default() };
    let ge = pelvis_lift(&g.rig, &clip, pelvis, &e).unwrap();
    assert!(ge.contact_points > 0);
    assert!((ge.body_floor - f_ex).abs() < 1e-6);
    assert!(
        ge.clearance[0] > 0.02,
        "without the feet the body is above its floor: {}",
        ge.clearance[0]
    );
}

#[test]
fn placement_ignores_tail_skin() {
    let g = demo();
    let clip = crouch_clip(&g.rig, DEPTH, 1.5, 30.0, Vec3::Y, Vec3::Z).unwrap();
    let last = clip.frame(clip.frame_count() - 1);
    let body = placement_offset(&g.rig, last, 0.0, &GroundParams::default()).unwrap();
    let whole = placement_offset(
        &g.rig,
        last,
        0.0,
        &GroundParams { exclude_tail: false, ..GroundParams::default() },
    )
    .unwrap();
    let f = body_floor(&g.rig, &GroundParams::default()).unwrap();
    eprintln!("placement: body {body:.4}, whole mesh {whole:.4}");
    assert!((body + f).abs() < 1e-3, "the crouched body stands where the bind body stood");
    assert!(whole > body + 0.05, "the whole mesh would float the feet");
}

#[test]
fn the_crouch_keeps_feet_planted_and_sampling_is_sparse() {
    let g = demo();
    let clip = crouch_clip(&g.rig, DEPTH, 1.5, 30.0, Vec3::Y, Vec3::Z).unwrap();
    let roles = JointRoles::find(&g.rig, &RoleOverrides::default()).unwrap();
    let pelvis = roles.pelvis.unwrap();
    let first = world_matrices(g.rig.parents(), g.rig.topological_order(), clip.frame(0));
    let last = world_matrices(
        g.rig.parents(),
        g.rig.topological_order(),
        clip.frame(clip.frame_count() - 1),
    );
    assert!(((first[pelvis].w_axis.y - last[pelvis].w_axis.y) - DEPTH).abs() < 1e-4);
    for s in roles.shins.iter().flatten() {
        let ankle = g.rig.children(*s).next().unwrap();
        assert!((first[ankle].w_axis - last[ankle].w_axis).length() < 1e-4, "ankle moved");
    }
    let sp = support_points(&g.rig, &GroundParams::default()).unwrap();
    assert!(
        sp.vertices.len() < g.rig.vertex_count() / 2,
        "{} of {}",
        sp.vertices.len(),
        g.rig.vertex_count()
    );
}

/// An IK rig parents its feet to the root, not to its shins (the rat's
/// `BackFoot.L` hangs from `root`): the shin has no child to plant. The
/// crouch still sinks the pelvis, and each such shin reaches the lowest
/// skin it moves, which stays where it stands. Before, the rat's crouch
/// was an error ("has no child (ankle)") and the whole-mesh table had no
/// crouch row for it.
#[test]
fn a_crouch_plants_shins_whose_feet_hang_from_the_root() {
    let model = crate::common::load("rat/rat_notail.glb");
    let rig = model.rig().unwrap();
    let depth = 0.25 * rig.height();
    let clip = crouch_clip(rig, depth, 1.5, 30.0, Vec3::Y, Vec3::Z).unwrap();
    let roles = JointRoles::find(rig, &RoleOverrides::default()).unwrap();
    let order = rig.topological_order();
    let first = world_matrices(rig.parents(), order, clip.frame(0));
    let last = world_matrices(rig.parents(), order, clip.frame(clip.frame_count() - 1));
    let pelvis = roles.pelvis.unwrap();
    assert!(first[pelvis].w_axis.y - last[pelvis].w_axis.y > 0.9 * depth, "the pelvis sank");
    let bind = rig.bind_world();
    let inf = rig.influences();
    let mut planted = 0;
    for &s in roles.shins.iter().flatten() {
        assert!(rig.children(s).next().is_none(), "the rat's shins end the chain");
        // The shin's lowest dominant skin point, carried by the shin alone.
        let end = (0..rig.vertex_count())
            .filter(|&v| inf.dominant_joint(v) as usize == s)
            .map(|v| rig.vertices()[v])
            .min_by(|a, b| a.y.total_cmp(&b.y))
            .unwrap();
        let carried = |w: &glam::Mat4| (*w * bind[s].inverse()).transform_point3(end);
        assert!(
            carried(&first[s]).distance(end) < 1e-4 * rig.height()
                && carried(&last[s]).distance(end) < 1e-3 * rig.height(),
            "shin {} end moved {}",
            rig.joint_names()[s],
            carried(&last[s]).distance(end)
        );
        planted += 1;
    }
    assert_eq!(planted, 2);
}

#[test]
fn ground_bad_input_names_the_field() {
    let g = demo();
    let clip = crouch_clip(&g.rig, 0.1, 0.5, 30.0, Vec3::Y, Vec3::Z).unwrap();
    let pelvis = g.chains[0].anchor;
    let bad = |p: GroundParams| pelvis_lift(&g.rig, &clip, pelvis, &p).unwrap_err();
    assert!(
        matches!(bad(GroundParams { allowed_sink: Some(vec![0.1; clip.frame_count()]), ..GroundParams::default() }), CaudalError::Parameter { field, .. } if field == "allowed_sink")
    );
    assert!(
        matches!(bad(GroundParams { allowed_sink: Some(vec![0.0; 2]), ..GroundParams::default() }), CaudalError::Shape { field, .. } if field == "allowed_sink")
    );
    assert!(
        matches!(bad(GroundParams { tail_joints: Some(vec![999]), ..GroundParams::default() }), CaudalError::IndexOutOfRange { field, .. } if field == "tail_joints")
    );
    assert!(
        matches!(bad(GroundParams { contact_vertices: vec![u32::MAX], ..GroundParams::default() }), CaudalError::IndexOutOfRange { field, .. } if field == "contact_vertices")
    );
    assert!(
        matches!(pelvis_lift(&g.rig, &clip, 999, &GroundParams::default()), Err(CaudalError::IndexOutOfRange { field, .. }) if field == "pelvis")
    );
    assert!(
        matches!(crouch_clip(&g.rig, -1.0, 1.0, 30.0, Vec3::Y, Vec3::Z), Err(CaudalError::Parameter { field, .. }) if field == "depth")
    );
}
