//! A generated crouch for the grounding checks (SPEC C: "Ground: crouch"):
//! the body sinks straight down from its pelvis while two-bone IK keeps both
//! feet planted where they stand at the bind pose; everything else (a tail
//! included) keeps its bind local, so a long hanging tail is carried down
//! through the floor as a grounding pass would see it before the tail solver
//! runs.

use glam::{Mat4, Quat, Vec3};

use crate::error::{CaudalError, Result};
use crate::geometry::weighted_joints;
use crate::rig::{Clip, JointRoles, Rig, RoleOverrides, Trs};

/// Share of the clip spent going down (smoothstep); the rest holds the crouch.
pub const CROUCH_HOLD_SHARE: f32 = 1.0 / 3.0;

fn rot(m: &Mat4) -> Quat {
    Trs::from_matrix(m).rotation
}

/// The joint the crouch lowers: the pelvis, or, when some trunk joint that
/// moves skin does not hang below it, the nearest ancestor of the pelvis
/// that carries every such joint. On an ordinary skeleton the spine hangs
/// from the pelvis and this is the pelvis. A Rigify export splits them: its
/// pelvis role (`ORG-spine.005` on the field mouse, where the legs meet the
/// trunk) moves no skin, and the deform spine that carries the rump, the
/// back and the tail's anchor (`DEF-spine.004`...) hangs from the root
/// beside it; lowering the pelvis alone sank the thighs 25% of H while the
/// rump and the tail stayed where they were, and the crouch measured skin
/// torn between them instead of a crouch.
pub fn crouch_joint(rig: &Rig, roles: &JointRoles, pelvis: usize) -> usize {
    let parents = rig.parents();
    let mut above = vec![pelvis];
    while let Some(p) = parents[*above.last().unwrap_or(&pelvis)] {
        above.push(p);
    }
    let weighted = weighted_joints(rig);
    let mut highest = 0;
    for &t in roles.trunk.iter().filter(|&&t| weighted.get(t).copied().unwrap_or(false)) {
        let mut j = Some(t);
        // Up from the trunk joint to where it meets the pelvis's line.
        while let Some(k) = j {
            if let Some(at) = above.iter().position(|&a| a == k) {
                highest = highest.max(at);
                break;
            }
            j = parents[k];
        }
    }
    above[highest]
}

/// Where a shin ends when no joint hangs from it: the lowest point, along
/// `up`, of the skin it moves most. An IK rig parents its feet to the root,
/// not to the shins (the rat's `BackFoot.L` hangs from `root`); the foot
/// stays planted by itself there, and the shin must still reach it.
fn shin_end(rig: &Rig, shin: usize, up: Vec3) -> Option<Vec3> {
    let inf = rig.influences();
    (0..rig.vertex_count())
        .filter(|&v| inf.dominant_joint(v) as usize == shin)
        .map(|v| rig.vertices()[v])
        .min_by(|a, b| a.dot(up).total_cmp(&b.dot(up)))
}

/// Knee position of a two-bone leg from hip `h` to ankle `a` with bone
/// lengths `l1`, `l2`, bending towards `pole`.
fn knee(h: Vec3, a: Vec3, l1: f32, l2: f32, pole: Vec3) -> Vec3 {
    let d = (a - h).length().clamp((l1 - l2).abs() + 1e-5, l1 + l2 - 1e-5);
    let u = (a - h).normalize();
    let w = (pole - pole.dot(u) * u).normalize_or(u.any_orthonormal_vector());
    let cos = ((l1 * l1 + d * d - l2 * l2) / (2.0 * l1 * d)).clamp(-1.0, 1.0);
    h + l1 * (cos * u + (1.0 - cos * cos).sqrt() * w)
}

/// One leg of the crouch: the shin reaches to `end`, which stays planted.
struct PlantedLeg {
    thigh: usize,
    shin: usize,
    /// The shin's child, re-posed to keep its bind world; none on a rig
    /// whose feet hang from elsewhere.
    ankle: Option<usize>,
    end: Vec3,
}

/// Both legs of the pelvis, each with the point its shin reaches to.
fn planted_legs(rig: &Rig, roles: &JointRoles, up: Vec3) -> Result<Vec<PlantedLeg>> {
    let need = |j: Option<usize>, what: &str| {
        j.ok_or_else(|| CaudalError::not_found("roles", format!("the rig has no {what}")))
    };
    let mut legs = Vec::new();
    for side in 0..2 {
        let thigh = need(roles.thighs[side], "thigh")?;
        let shin = need(roles.shins[side], "shin")?;
        let ankle = rig.children(shin).next();
        let end = match ankle {
            Some(a) => rig.bind_world()[a].w_axis.truncate(),
            None => shin_end(rig, shin, up).ok_or_else(|| {
                CaudalError::not_found(
                    "roles",
                    format!(
                        "shin {:?} has no child (ankle) and moves no skin to end at",
                        rig.joint_names()[shin]
                    ),
                )
            })?,
        };
        if rig.parents()[shin] != Some(thigh) {
            return Err(CaudalError::param(
                "roles",
                format!(
                    "shin {:?} is not a child of thigh {:?}",
                    rig.joint_names()[shin],
                    rig.joint_names()[thigh]
                ),
            ));
        }
        legs.push(PlantedLeg { thigh, shin, ankle, end });
    }
    Ok(legs)
}

/// A crouch of `depth` (world units, along `up`) over `duration` seconds at
/// `rate` frames per second: [`crouch_joint`] (the pelvis on an ordinary
/// skeleton) sinks. Needs the pelvis, both thighs and both shins (joint
/// roles); each shin reaches to its child (the ankle), or, with none, to
/// the lowest skin it moves (see `shin_end`); `forward` is the way the
/// knees bend when a leg is straight at the bind pose.
pub fn crouch_clip(
    rig: &Rig,
    depth: f32,
    duration: f32,
    rate: f32,
    up: Vec3,
    forward: Vec3,
) -> Result<Clip> {
    if !(depth.is_finite() && depth >= 0.0) {
        return Err(CaudalError::param("depth", format!("must be finite and >= 0, got {depth}")));
    }
    if !(duration.is_finite() && duration > 0.0) {
        return Err(CaudalError::param(
            "duration",
            format!("must be finite and > 0, got {duration}"),
        ));
    }
    if !(rate.is_finite() && rate > 0.0) {
        return Err(CaudalError::param("rate", format!("must be finite and > 0, got {rate}")));
    }
    let up = up.normalize_or_zero();
    if up == Vec3::ZERO {
        return Err(CaudalError::param("up", "must be non-zero"));
    }
    let roles = JointRoles::find(rig, &RoleOverrides::default())?;
    let need = |j: Option<usize>, what: &str| {
        j.ok_or_else(|| CaudalError::not_found("roles", format!("the rig has no {what}")))
    };
    let pelvis = crouch_joint(rig, &roles, need(roles.pelvis, "pelvis")?);
    let legs = planted_legs(rig, &roles, up)?;
    let bind = rig.bind_world();
    let base = rig.bind_locals();
    let order = rig.topological_order();
    // Checked against the default budget before the frames are allocated.
    let frames = crate::rig::clip_frames(
        duration,
        rate,
        rig.joint_count(),
        crate::limits::DEFAULT_MAX_BYTES,
    )?;
    let mut locals = Vec::with_capacity(frames * rig.joint_count());
    for f in 0..frames {
        let t = f as f32 / (frames - 1) as f32;
        let s = (t / (1.0 - CROUCH_HOLD_SHARE)).min(1.0);
        let s = s * s * (3.0 - 2.0 * s);
        let mut pose = base.clone();
        let parent_world = |j: usize, pose: &[Trs]| match rig.parents()[j] {
            Some(p) => crate::rig::world_matrices(rig.parents(), order, pose)[p],
            None => Mat4::IDENTITY,
        };
        let pelvis_world = Mat4::from_translation(-up * depth * s) * bind[pelvis];
        pose[pelvis] = Trs::from_matrix(&(parent_world(pelvis, &pose).inverse() * pelvis_world));
        for &PlantedLeg { thigh, shin, ankle, end: a0 } in &legs {
            let worlds = crate::rig::world_matrices(rig.parents(), order, &pose);
            let hip_world = worlds[thigh];
            let (h0, k0) = (bind[thigh].w_axis.truncate(), bind[shin].w_axis.truncate());
            let h = hip_world.w_axis.truncate();
            let (l1, l2) = ((k0 - h0).length(), (a0 - k0).length());
            let bend = (k0 - h0) + (k0 - a0);
            let pole = if bend.length() > 1e-4 * (l1 + l2) { bend } else { forward };
            let k = knee(h, a0, l1, l2, pole);
            let scale_of = |m: &Mat4| Trs::from_matrix(m).scale;
            let thigh_world = Mat4::from_scale_rotation_translation(
                scale_of(&bind[thigh]),
                Quat::from_rotation_arc((k0 - h0).normalize(), (k - h).normalize())
                    * rot(&bind[thigh]),
                h,
            );
            let shin_world = Mat4::from_scale_rotation_translation(
                scale_of(&bind[shin]),
                Quat::from_rotation_arc((a0 - k0).normalize(), (a0 - k).normalize())
                    * rot(&bind[shin]),
                k,
            );
            let thigh_parent = parent_world(thigh, &pose);
            pose[thigh] = Trs::from_matrix(&(thigh_parent.inverse() * thigh_world));
            pose[shin] = Trs::from_matrix(&(thigh_world.inverse() * shin_world));
            if let Some(ankle) = ankle {
                pose[ankle] = Trs::from_matrix(&(shin_world.inverse() * bind[ankle]));
            }
        }
        locals.extend(pose);
    }
    Clip::new("Crouch", (frames - 1) as f32 / duration, duration, rig.joint_count(), locals)
}
