//! Which joint a grown chain hangs from when the pelvis found from the
//! skeleton's shape moves no skin (issues 12 and 13, the field mouse): a
//! synthetic rig with a known answer, and the two fixtures whose pelvis
//! carries no skin.

use caudal::appendage::Kind;
use caudal::chain::{grow_chains, ChainParams, TailFix};
use caudal::measure::ground::{crouch_clip, crouch_joint};
use caudal::rig::RoleOverrides;
use caudal::rig::{skin_matrices, skin_vertices, world_matrices, RigParts};
use caudal::{JointRoles, Rig};
use glam::{Mat4, Vec3};

use super::checks::chains;
use super::synth::{tail_path, Builder};
use crate::common::load;

/// The legs hang from `Torso_Ctrl`, an unweighted control joint (Rigify's
/// `ORG-spine.005`), while the rump, the spine and the arms move with
/// `DEF_Hips`, a weighted joint on another branch under the unweighted
/// `Root`; the skin round the tail's root moves with `DEF_Hips`. The control's inverse bind misses the armature's 100x scale, as
/// a Rigify export writes it for bones that move no skin.
fn control_pelvis() -> (Rig, std::ops::Range<usize>) {
    let mut b = Builder::humanoid();
    let rename = |b: &mut Builder, from: &str, to: &str| {
        let j = b.joint(from);
        b.names[j] = to.into();
    };
    rename(&mut b, "Hips", "DEF_Hips");
    // Root (unweighted, at the floor) -> Torso_Ctrl (unweighted, at the
    // hips), and the legs re-hung from the control.
    let (root, ctrl) = (b.names.len(), b.names.len() + 1);
    b.names.extend(["Root".to_string(), "Torso_Ctrl".to_string()]);
    b.parents.extend([None, Some(root)]);
    b.heads.extend([Vec3::ZERO, Vec3::new(0.0, 1.0, 0.0)]);
    b.rotations.extend([glam::Quat::IDENTITY; 2]);
    let def_hips = b.joint("DEF_Hips");
    b.parents[def_hips] = Some(root);
    for leg in ["LeftUpLeg", "RightUpLeg"] {
        let j = b.joint(leg);
        b.parents[j] = Some(ctrl);
    }
    // The body skin round the tail's root (within a root thickness and a
    // half of where it leaves the box) moves with `DEF_Hips`.
    let hips = b.joint("DEF_Hips") as u32;
    let at = tail_path(1.0)[0];
    for v in 0..b.vertices.len() {
        if b.vertices[v].distance(at) < 0.15 {
            b.weights[v] = Some(vec![(hips, 1.0)]);
        }
    }
    let tail = b.add_tube(&tail_path(1.0), 0.05, 0.02, 40, 12, 1);
    b.weight_like_template_rigger(tail.clone());
    let rig = b.build();
    // No skin on the controls: what the nearest-bone weighting put on them
    // goes to the weighted hips.
    let mut parts = rig.to_parts();
    for j in parts.influences.joints.iter_mut() {
        if *j == root as u32 || *j == ctrl as u32 {
            *j = hips;
        }
    }
    let rest_local = rig.rest_local().to_vec();
    let mut bind = rig.bind_world().to_vec();
    bind[ctrl] *= Mat4::from_scale(Vec3::splat(0.01));
    let rig = Rig::new(RigParts {
        bind_world: Some(bind),
        inverse_bind: None,
        rest_local: Some(rest_local),
        normalize: true,
        ..parts
    })
    .unwrap();
    (rig, tail)
}

/// The tail's skin at the file's rest pose, against where the input rig
/// puts it there (the rigger's legs are at their bind): the largest gap,
/// in shares of the height.
fn rest_pose_gap(input: &Rig, out: &Rig, tail: &[u32]) -> f32 {
    let at_rest = |r: &Rig| {
        let worlds = world_matrices(r.parents(), r.topological_order(), r.rest_local());
        skin_vertices(r, &skin_matrices(r, &worlds))
    };
    let (a, b) = (at_rest(input), at_rest(out));
    tail.iter().map(|&v| a[v as usize].distance(b[v as usize])).fold(0.0, f32::max) / input.height()
}

#[test]
fn an_unweighted_pelvis_hands_the_chain_to_the_weighted_rump_joint() {
    let (rig, tail) = control_pelvis();
    let roles = JointRoles::find(&rig, &RoleOverrides::default()).unwrap();
    let name = |j: Option<usize>| j.map(|j| rig.joint_names()[j].as_str());
    // The roles still say where the legs meet the trunk.
    assert_eq!(name(roles.pelvis), Some("Torso_Ctrl"));
    let (out, report) = grow_chains(&rig, &ChainParams::default()).unwrap();
    let found = chains(&report);
    assert_eq!(found.len(), 1, "{}", report.to_json());
    let part = found[0];
    assert_eq!(part.kind, Kind::Tail);
    assert_eq!(part.attachment.as_deref(), Some("DEF_Hips"), "{}", part.reason);
    assert!(part.reason.contains("Torso_Ctrl moves no skin"), "{}", part.reason);
    let first = out.joint_index(&part.bones[0]).unwrap();
    assert_eq!(out.parents()[first], rig.joint_index("DEF_Hips"));
    // Hung from the control, the chain inherits its 100x inverse bind and
    // the tail's skin flies off at the rest pose (the rest pose is the
    // bind pose here); hung from the rump joint it stays put.
    let truth: Vec<u32> = tail.map(|v| v as u32).collect();
    let gap = rest_pose_gap(&rig, &out, &truth);
    assert!(gap < 1e-3, "the tail's rest skin moved {gap} H");
    // The rigid fix binds the tail to the same joint.
    let params = ChainParams { tail_fix: TailFix::Rigid, ..Default::default() };
    let (_, rigid) = grow_chains(&rig, &params).unwrap();
    let part = rigid.parts.iter().find(|p| p.kind == Kind::Tail).unwrap();
    assert_eq!(part.rigid_joint.as_deref(), Some("DEF_Hips"));
}

#[test]
fn the_rigify_mouse_hangs_its_chain_from_its_hips_and_the_cat_from_its_pelvis() {
    // The field mouse: its legs hang from the unweighted `ORG-spine.005`
    // (its inverse bind scales the skin 100x), the rump round the tail
    // moves with the weighted `DEF-spine.004`. The cat: its legs hang from
    // the unweighted `Wolf_ROOTSHJnt` (the truth's tail parent), the rump
    // round the tail is 95% on the hind legs, and the chain stays put.
    for (glb, pelvis, anchor) in [
        ("fieldmouse_rigify/fieldmouse_rigify_notail.glb", "ORG-spine.005_057", "DEF-spine.004_05"),
        ("cat_kenchoo/cat_kenchoo_notail.glb", "Wolf_ROOTSHJnt_38", "Wolf_ROOTSHJnt_38"),
    ] {
        let model = load(glb);
        let rig = model.rig().unwrap();
        let (out, report) = grow_chains(rig, &ChainParams::default()).unwrap();
        assert_eq!(report.pelvis.as_deref(), Some(pelvis), "{glb}");
        let found = chains(&report);
        assert_eq!(found.len(), 1, "{glb}");
        let first = out.joint_index(&found[0].bones[0]).unwrap();
        let parent = out.parents()[first].map(|p| out.joint_names()[p].as_str());
        assert_eq!(parent, Some(anchor), "{glb}: {}", found[0].reason);
    }
}

/// World heads of every joint at the crouch's first and last frames.
fn crouch_ends(rig: &Rig, depth: f32) -> (Vec<Vec3>, Vec<Vec3>) {
    let clip = crouch_clip(rig, depth, 1.5, 30.0, Vec3::Y, Vec3::Z).unwrap();
    let heads = |f: usize| {
        world_matrices(rig.parents(), rig.topological_order(), clip.frame(f))
            .iter()
            .map(|m| m.w_axis.truncate())
            .collect::<Vec<_>>()
    };
    (heads(0), heads(clip.frame_count() - 1))
}

#[test]
fn the_crouch_sinks_the_body_an_unweighted_pelvis_does_not_carry() {
    // Known answer: lowered by `depth`, the joint carrying the rump, the
    // spine and the tail's anchor (`DEF_Hips`, beside the legs' unweighted
    // control) sinks by exactly `depth`, and the ankles stay planted. Before
    // the crouch lowered the control alone: the thighs sank, `DEF_Hips` by 0.
    let (rig, _) = control_pelvis();
    let roles = JointRoles::find(&rig, &RoleOverrides::default()).unwrap();
    let pelvis = roles.pelvis.unwrap();
    assert_eq!(rig.joint_names()[crouch_joint(&rig, &roles, pelvis)], "Root");
    let depth = 0.25 * rig.height();
    let (first, last) = crouch_ends(&rig, depth);
    for name in ["DEF_Hips", "Spine", "Torso_Ctrl"] {
        let j = rig.joint_index(name).unwrap();
        let sank = first[j].y - last[j].y;
        assert!((sank - depth).abs() < 1e-4 * rig.height(), "{name} sank {sank}, not {depth}");
    }
    for s in roles.shins.iter().flatten() {
        let ankle = rig.children(*s).next().unwrap();
        assert!(first[ankle].distance(last[ankle]) < 1e-4, "ankle moved");
    }
    // An ordinary skeleton (the spine hangs from the pelvis) sinks its pelvis.
    let plain = Builder::humanoid().build();
    let roles = JointRoles::find(&plain, &RoleOverrides::default()).unwrap();
    let pelvis = roles.pelvis.unwrap();
    assert_eq!(crouch_joint(&plain, &roles, pelvis), pelvis);
    // The field mouse: its tail's anchor, `DEF-spine.004`, hangs from the
    // root beside the unweighted `ORG-spine.005` and now goes down with it.
    let model = load("fieldmouse_rigify/fieldmouse_rigify_notail.glb");
    let mouse = model.rig().unwrap();
    let depth = 0.25 * mouse.height();
    let (first, last) = crouch_ends(mouse, depth);
    let j = mouse.joint_index("DEF-spine.004_05").unwrap();
    let sank = first[j].y - last[j].y;
    assert!((sank - depth).abs() < 1e-4 * mouse.height(), "DEF-spine.004 sank {sank}, not {depth}");
}
