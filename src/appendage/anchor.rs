//! The joint a tail's chain hangs from (issues 12 and 13): the pelvis,
//! unless the pelvis moves no skin and a trunk joint moves the rump skin
//! where the tail meets the body.
//!
//! Why: the chain follows its parent, and its root ring shares its weight
//! with that parent (SPEC T9 and the hand-over band), so the parent has to
//! move the way the skin round the tail's root moves. The pelvis found from
//! the skeleton's shape (where the hind legs meet the trunk) usually does.
//! A joint that moves no skin need not: nothing checks its inverse bind
//! against the skin, and a Rigify export's unweighted `ORG-`/`MCH-` bones
//! carry inverse binds that miss the armature's scale (the field mouse's
//! `ORG-spine.005`, where the legs hang, scales its skin 100x at every
//! frame while its weighted `DEF-spine.004` carries the rump). A chain
//! hung there tears its whole tail, and so does the rigid tail it is
//! measured against. So a pelvis without skin hands the chain to the joint
//! that carries most of the body's skin round the tail's root (within one
//! root thickness of where the tail leaves the body), when that joint is on
//! the trunk (the pelvis or spine region, no limb). Where a limb carries
//! most of it (a template rigger's rump follows the thighs: a tail hung
//! from a thigh would swing with the leg) the pelvis stays: the cat's
//! `ROOTSHJnt` is unweighted, its rump 95% on the hind legs, and the 2%
//! its weighted root control `MAINSHJnt` carries there does not make that
//! control, which stands still under the walking body, the tail's parent.
//! An unweighted joint is not wrong by itself, only
//! when a weighted one moves the skin the chain meets. Names play no part;
//! joint order breaks exact ties.

use glam::Vec3;

use crate::geometry::{weighted_joints, Weld};
use crate::rig::roles::Region;
use crate::rig::{JointRoles, Rig};

/// The joint a tail's chain hangs from, and why.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChainAnchor {
    /// The chain's parent joint.
    pub joint: usize,
    /// The pelvis it replaces, when the pelvis moves no skin and `joint`
    /// carries the rump skin at the tail's root instead.
    pub instead_of_pelvis: Option<usize>,
}

/// How far round a tail's root the body's skin is read, in root radii:
/// one root thickness. The disc takes in the ring where the tail meets the
/// body (at one radius from its centre) and the rump skin just beyond it,
/// and for a tail modelled as its own shell the body skin its root end
/// sits on; relative to the tail's own thickness, so it is the same band
/// on a mouse and a dragon.
pub const ANCHOR_SKIN_RADII: f32 = 2.0;

/// Where the chain of a tail hangs: see the module doc. `part` is the
/// tail's welded vertices (sorted), `collar` the ring where it meets the
/// body (sorted; its own root end for a separate shell), `root` where it
/// leaves the body. `None` without a pelvis.
pub fn chain_anchor(
    rig: &Rig,
    roles: &JointRoles,
    weld: &Weld,
    part: &[u32],
    collar: &[u32],
    root: Vec3,
) -> Option<ChainAnchor> {
    let pelvis = roles.pelvis?;
    let weighted = weighted_joints(rig);
    let keep = ChainAnchor { joint: pelvis, instead_of_pelvis: None };
    if weighted[pelvis] {
        return Some(keep);
    }
    let mut carried = vec![0f64; rig.joint_count()];
    for w in body_skin_round(weld, part, collar, root) {
        for &v in weld.members_of(w as usize) {
            let (js, ws) = rig.influences().of(v as usize);
            for (&j, &x) in js.iter().zip(ws) {
                carried[j as usize] += f64::from(x);
            }
        }
    }
    let heaviest = (0..carried.len())
        .filter(|&j| carried[j] > 0.0)
        .max_by(|&a, &b| carried[a].total_cmp(&carried[b]).then(b.cmp(&a)));
    let on_trunk = trunk_joints(rig, roles, &weighted);
    Some(match heaviest {
        Some(j) if on_trunk[j] => ChainAnchor { joint: j, instead_of_pelvis: Some(pelvis) },
        _ => keep,
    })
}

/// Welded vertices outside `part` within [`ANCHOR_SKIN_RADII`] root radii
/// of `root`, the radius being the collar's median distance from `root`.
fn body_skin_round(weld: &Weld, part: &[u32], collar: &[u32], root: Vec3) -> Vec<u32> {
    let positions = &weld.positions;
    let Some(radius) = super::midline::root_radius(positions, collar, root) else {
        return Vec::new();
    };
    let reach = ANCHOR_SKIN_RADII * radius;
    (0..positions.len() as u32)
        .filter(|&v| positions[v as usize].distance(root) <= reach)
        .filter(|v| part.binary_search(v).is_err())
        .collect()
}

/// Per joint: weighted, in the pelvis or spine region, and on no limb (a
/// limb pair's branches and everything below them, thighs included).
fn trunk_joints(rig: &Rig, roles: &JointRoles, weighted: &[bool]) -> Vec<bool> {
    let n = rig.joint_count();
    let mut limb_root = vec![false; n];
    for pair in &roles.limbs {
        for limb in &pair.limbs {
            limb_root[limb.root] = true;
        }
    }
    let parents = rig.parents();
    let mut on_limb = vec![false; n];
    for &j in rig.topological_order() {
        on_limb[j] = limb_root[j] || parents[j].is_some_and(|p| on_limb[p]);
    }
    (0..n)
        .map(|j| {
            weighted[j]
                && !on_limb[j]
                && matches!(roles.regions.get(j), Some(Region::Pelvis | Region::Spine))
        })
        .collect()
}
