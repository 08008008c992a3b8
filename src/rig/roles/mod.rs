//! Joint roles (pelvis, spine, neck, head, thighs, shins) from the shape of
//! the skeleton and its skin, whatever the rigger named the joints.
//!
//! | file | job |
//! |---|---|
//! | `structure.rs` | the structural skeleton: joints that deform or connect deforming joints; skin floor and mass per joint |
//! | `limbs.rs` | mirrored pairs of branches; legs are the pairs that reach the floor |
//! | `trunk.rs` | which leg junction is the pelvis; the path from it to the head |
//! | `names.rs` | name parsing, for sides and ties only |
//!
//! The pelvis is where the hind legs (the leg pair farthest along the
//! trunk from the head) hang from the trunk. A joint called `Hips` that only
//! carries the torso and neck, while the legs hang from `Body`, is not the
//! pelvis; an unweighted control or IK joint is never a limb. Names break
//! ties structure leaves open (two trunk ends of the same weight and height;
//! two head candidates; sides), and each role says which rule found it and
//! what it overruled. Work is linear in the joints (apart from a sort), so a
//! file of 100k joints is read in well under a second.

mod limbs;
mod names;
mod regions;
mod structure;
mod trunk;

use glam::Vec3;

use super::Rig;
use crate::error::Result;
pub use limbs::{
    Limb, LimbPair, LEG_MIN_DROP, LEG_REACH, MAX_BRANCHES, MAX_CHAIN_JOINTS, MIRROR_TOLERANCE,
};
pub use names::{base_name, name_side, names_head, names_pelvis, names_the_head};
pub use regions::{Region, PELVIS_TRUNK_SHARE};
pub use structure::{credible_heads, structural_joints, Structure, MAX_NEAREST_TOPS};
use trunk::{Axial, Settled};
pub use trunk::{FREE_SIDE_REACH, HEAD_MASS_SHARE, SAME_HEIGHT, SAME_MASS};

/// How a role was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoleRule {
    /// Named by the user.
    Override,
    /// Structure left a tie and a name settled it; the string says which.
    Name(String),
    /// Found from the shape of the skeleton and its skin; the string says how.
    Topology(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct RoleSource {
    pub role: String,
    pub joint: usize,
    pub rule: RoleRule,
    /// What the rule overruled, in the user's words (a joint named like the
    /// role that structure did not pick), if anything.
    pub overruled: Option<String>,
}

/// User overrides by joint name; unknown names are errors.
#[derive(Clone, Debug, Default)]
pub struct RoleOverrides {
    pub pelvis: Option<String>,
    pub spine: Option<Vec<String>>,
    pub neck: Option<String>,
    pub head: Option<String>,
    /// Left, right.
    pub thighs: [Option<String>; 2],
    pub shins: [Option<String>; 2],
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct JointRoles {
    pub pelvis: Option<usize>,
    /// From the pelvis upwards (pelvis excluded), up to the neck.
    pub spine: Vec<usize>,
    pub neck: Option<usize>,
    pub head: Option<usize>,
    /// Left, right (left is +X for a character facing +Z, as in glTF).
    pub thighs: [Option<usize>; 2],
    pub shins: [Option<usize>; 2],
    /// Every mirrored limb pair of the skeleton, legs first.
    pub limbs: Vec<LimbPair>,
    /// The trunk from the pelvis to its far end on the head's side.
    pub trunk: Vec<usize>,
    /// Bind-pose heads of the trunk's joints.
    pub trunk_heads: Vec<Vec3>,
    /// Per joint: deforms skin or connects joints that do.
    pub structural: Vec<bool>,
    /// Per joint: the body region a part hanging from it belongs to.
    pub regions: Vec<Region>,
    /// One entry per role found, with the rule that found it.
    pub sources: Vec<RoleSource>,
}

fn side_label(role: &str, side: usize) -> String {
    format!("{role}.{}", if side == 0 { "L" } else { "R" })
}

impl JointRoles {
    pub fn find(rig: &Rig, overrides: &RoleOverrides) -> Result<JointRoles> {
        let names = rig.joint_names();
        let s = Structure::new(rig);
        let pairs = limbs::find_pairs(&s);
        let axial = Axial::new(&s, &pairs, names);
        let mut roles = JointRoles { structural: s.structural.clone(), ..Default::default() };

        // Pelvis: where the hind legs meet the trunk.
        let mut junctions: Vec<usize> = Vec::new();
        for p in pairs.iter().filter(|p| p.legs) {
            if !junctions.contains(&p.junction) {
                junctions.push(p.junction);
            }
        }
        let found_pelvis = (!junctions.is_empty()).then(|| axial.pelvis_of(&junctions));
        if let Some(name) = &overrides.pelvis {
            let j = rig.require_joint("roles.pelvis", name)?;
            let overruled = found_pelvis
                .filter(|&(p, _)| p != j)
                .map(|(p, _)| format!("{} (where the hind legs meet the trunk)", names[p]));
            roles.pelvis = Some(j);
            roles.push("pelvis", j, RoleRule::Override, overruled);
        } else if let Some((p, settled)) = found_pelvis {
            let rule = match (junctions.len(), settled) {
                (1, _) => RoleRule::Topology("the joint the legs hang from".into()),
                (_, Settled::Name) => RoleRule::Name(
                    "of two leg junctions, the one away from the joints named like a head".into(),
                ),
                (_, Settled::Height) => RoleRule::Topology(
                    "of the leg junctions, the one away from the higher trunk end (the head)"
                        .into(),
                ),
                _ => RoleRule::Topology(
                    "of the leg junctions, the one away from the heavier trunk end (the head)"
                        .into(),
                ),
            };
            let named =
                (0..names.len()).find(|&j| j != p && s.structural[j] && names_pelvis(&names[j]));
            let overruled = named.map(|j| {
                format!("{} (named like a pelvis, but the hind legs do not hang from it)", names[j])
            });
            roles.pelvis = Some(p);
            roles.push("pelvis", p, rule, overruled);
        }

        // Legs of the pelvis: thighs and shins (chosen below, once the head
        // says which of several pairs at one junction is the hind one).
        for side in 0..2 {
            if let Some(n) = &overrides.thighs[side] {
                let j = rig.require_joint(
                    if side == 0 { "roles.thighs[0]" } else { "roles.thighs[1]" },
                    n,
                )?;
                roles.thighs[side] = Some(j);
                roles.push(&side_label("thigh", side), j, RoleRule::Override, None);
            }
            if let Some(n) = &overrides.shins[side] {
                let j = rig.require_joint(
                    if side == 0 { "roles.shins[0]" } else { "roles.shins[1]" },
                    n,
                )?;
                roles.shins[side] = Some(j);
                roles.push(&side_label("shin", side), j, RoleRule::Override, None);
            }
        }

        // Trunk, head and neck.
        if let Some(p) = roles.pelvis {
            let (path, _) = axial.head_path(p);
            // Past the shoulders: after the last joint on the path where a
            // pair of front legs hangs, or, for a biped, where its heaviest
            // pair of limbs (arms, wings) does; ears and hair on the head
            // do not count.
            let front_legs = (1..path.len())
                .rev()
                .find(|&i| pairs.iter().any(|x| x.legs && x.junction == path[i]));
            let arms = || {
                let on_path = |x: &&LimbPair| !x.legs && path[1..].contains(&x.junction);
                let heaviest = pairs.iter().filter(on_path).max_by(|a, b| {
                    let m = |x: &LimbPair| x.limbs.iter().map(|l| s.sub_mass[l.root]).sum::<f32>();
                    m(a).total_cmp(&m(b))
                })?;
                path.iter().position(|&j| j == heaviest.junction)
            };
            // Front legs that hang off the path (a Rigify rig's controls)
            // mark the shoulders at the path joint nearest their junction.
            let front_off_path = || {
                let front = junctions.iter().copied().filter(|&j| j != p).min_by(|&a, &b| {
                    s.heads[a]
                        .distance(s.heads[p])
                        .total_cmp(&s.heads[b].distance(s.heads[p]))
                        .then(a.cmp(&b))
                })?;
                (1..path.len()).min_by(|&a, &b| {
                    s.heads[path[a]]
                        .distance(s.heads[front])
                        .total_cmp(&s.heads[path[b]].distance(s.heads[front]))
                        .then(a.cmp(&b))
                })
            };
            let shoulders = front_legs.or_else(front_off_path).or_else(arms);
            let from = shoulders.map_or(1, |i| i + 1);
            let head = match &overrides.head {
                Some(n) => {
                    let j = rig.require_joint("roles.head", n)?;
                    roles.push("head", j, RoleRule::Override, None);
                    Some(j)
                }
                None => axial.head_on(&path, from, names).map(|(i, by_name)| {
                    let rule = if by_name {
                        RoleRule::Name(
                            "of the heavy joints at the trunk's far end, the one named like a head"
                                .into(),
                        )
                    } else {
                        RoleRule::Topology("the heaviest joint at the trunk's far end".into())
                    };
                    roles.push("head", path[i], rule, None);
                    path[i]
                }),
            };
            roles.head = head;
            let head_at = head.and_then(|h| path.iter().position(|&j| j == h));
            let neck = match &overrides.neck {
                Some(n) => {
                    let j = rig.require_joint("roles.neck", n)?;
                    roles.push("neck", j, RoleRule::Override, None);
                    Some(j)
                }
                None => head_at.and_then(|h| axial.neck_on(&path, from, h, names)).map(
                    |(i, by_name)| {
                        let rule = if by_name {
                            RoleRule::Name(
                                "the joint named like a neck between the shoulders and the head"
                                    .into(),
                            )
                        } else {
                            RoleRule::Topology("the first trunk joint past the shoulders".into())
                        };
                        roles.push("neck", path[i], rule, None);
                        path[i]
                    },
                ),
            };
            roles.neck = neck;
            let spine_end =
                neck.or(head).and_then(|j| path.iter().position(|&k| k == j)).unwrap_or(path.len());
            roles.spine = match &overrides.spine {
                Some(ov) => {
                    let mut out = Vec::new();
                    for n in ov {
                        out.push(rig.require_joint("roles.spine", n)?);
                    }
                    for &j in &out {
                        roles.push("spine", j, RoleRule::Override, None);
                    }
                    out
                }
                None => {
                    let sp: Vec<usize> = path[1..spine_end.max(1)].to_vec();
                    for &j in &sp {
                        roles.push(
                            "spine",
                            j,
                            RoleRule::Topology("between the pelvis and the neck".into()),
                            None,
                        );
                    }
                    sp
                }
            };
            roles.trunk_heads = path.iter().map(|&j| s.heads[j]).collect();
            roles.trunk = path;
        }

        // Of the leg pairs at the pelvis, the hind legs are the farthest from
        // the head (a rat's four legs all hang from `Body`).
        let pelvis_legs: Option<&LimbPair> = roles.pelvis.and_then(|p| {
            let centre = |x: &LimbPair| {
                x.limbs.iter().flat_map(|l| l.chain.iter().map(|&j| s.heads[j])).sum::<Vec3>()
            };
            let away = |x: &LimbPair| {
                let n = x.limbs.iter().map(|l| l.chain.len()).sum::<usize>().max(1) as f32;
                roles.head.map_or(0.0, |h| (centre(x) / n).distance(s.heads[h]))
            };
            pairs
                .iter()
                .filter(|x| x.legs && x.junction == p)
                .max_by(|a, b| away(a).total_cmp(&away(b)))
        });
        if let (Some(p), Some(legs)) = (roles.pelvis, pelvis_legs) {
            let sides = leg_sides(&s, rig, legs, roles.head, p);
            for (k, limb) in legs.limbs.iter().enumerate() {
                let side = sides.0[k];
                let (thigh, shin) = thigh_and_shin(&s, &limb.chain, legs.across);
                if roles.thighs[side].is_none() {
                    roles.thighs[side] = Some(thigh);
                    roles.push(&side_label("thigh", side), thigh, sides.1.clone(), None);
                }
                if roles.shins[side].is_none() {
                    if let Some(sh) = shin {
                        roles.shins[side] = Some(sh);
                        roles.push(
                            &side_label("shin", side),
                            sh,
                            RoleRule::Topology("the joint below the thigh".into()),
                            None,
                        );
                    }
                }
            }
        }
        roles.regions = regions::regions(
            &s,
            &pairs,
            roles.pelvis,
            &roles.trunk,
            roles.neck.or(roles.head),
            &roles.thighs,
        );
        roles.limbs = pairs;
        Ok(roles)
    }

    fn push(&mut self, role: &str, joint: usize, rule: RoleRule, overruled: Option<String>) {
        self.sources.push(RoleSource { role: role.into(), joint, rule, overruled });
    }

    /// The region of a point beside the trunk, by where along the trunk it
    /// lies: projected on the straight line from the pelvis to the neck,
    /// within [`PELVIS_TRUNK_SHARE`] of the way (or behind the pelvis) is
    /// the pelvis, further on the spine. Which bone owns the nearest
    /// segment says less (a long pelvis bone reaches forward under a quiver
    /// on a dinosaur's back), and the trunk's joint path can wander through
    /// a rig's controls (Rigify).
    pub fn trunk_region(&self, p: Vec3) -> Region {
        let h = &self.trunk_heads;
        if h.len() < 2 {
            return Region::Pelvis;
        }
        let neck_at = self
            .neck
            .or(self.head)
            .and_then(|n| self.trunk.iter().position(|&j| j == n))
            .unwrap_or(h.len() - 1)
            .max(1);
        let axis = h[neck_at] - h[0];
        let l2 = axis.length_squared();
        if l2 <= 0.0 {
            return Region::Pelvis;
        }
        if (p - h[0]).dot(axis) / l2 <= PELVIS_TRUNK_SHARE {
            Region::Pelvis
        } else {
            Region::Spine
        }
    }

    /// Pelvis, spine and thighs: the joints whose skin is "the body" for
    /// the attachment bias of SPEC T3.
    pub fn trunk_or_thigh(&self, j: usize) -> bool {
        Some(j) == self.pelvis || self.spine.contains(&j) || self.thighs.contains(&Some(j))
    }
}

/// The first joint of a leg chain whose bone goes more down than out to the
/// side (`across`, the pair's mirror normal: an animal's hip connector,
/// Rigify's `pelvis.L`, goes out; a bird's thigh goes back), and the joint
/// below it.
fn thigh_and_shin(s: &Structure, chain: &[usize], across: Vec3) -> (usize, Option<usize>) {
    let mut k = 0;
    while k + 2 < chain.len() {
        let d = s.heads[chain[k + 1]] - s.heads[chain[k]];
        if d.dot(across).abs() > -d.y {
            k += 1;
        } else {
            break;
        }
    }
    (chain[k], chain.get(k + 1).copied())
}

/// The feet give the facing only when, seen from above, they point at least
/// this share of the model height away from the ankles (a foot modelled
/// straight down points nowhere).
pub const FOOT_FACING: f32 = 0.01;

/// Which limb of the pair is left: the names where both sides are named
/// oppositely, else the geometry (left = up x facing, facing from the pelvis
/// to the head, or along the feet, or glTF's +Z).
fn leg_sides(
    s: &Structure,
    rig: &Rig,
    legs: &LimbPair,
    head: Option<usize>,
    pelvis: usize,
) -> ([usize; 2], RoleRule) {
    let names = rig.joint_names();
    let named = |l: &Limb| {
        let (mut left, mut right) = (0, 0);
        for &j in &l.chain {
            match name_side(&names[j]) {
                Some(0) => left += 1,
                Some(_) => right += 1,
                None => {}
            }
        }
        match left.cmp(&right) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        }
    };
    if let (Some(a), Some(b)) = (named(&legs.limbs[0]), named(&legs.limbs[1])) {
        if a != b {
            return ([a, b], RoleRule::Name("side from the joint names".into()));
        }
    }
    let horizontal = |v: Vec3| Vec3::new(v.x, 0.0, v.z);
    let mut facing = head.map(|h| horizontal(s.heads[h] - s.heads[pelvis])).unwrap_or(Vec3::ZERO);
    if facing.length() < LEG_MIN_DROP * s.height {
        // Feet point forward: the last bone of each leg and the foot's skin
        // beyond it, seen from above.
        facing = Vec3::ZERO;
        for l in &legs.limbs {
            if let [.., a, b] = l.chain[..] {
                facing +=
                    horizontal(s.heads[b] - s.heads[a]) + horizontal(s.skin_centre[b] - s.heads[b]);
            }
        }
        if facing.length() < FOOT_FACING * s.height {
            facing = Vec3::ZERO;
        }
    }
    let facing = if facing.length() > 1e-6 { facing.normalize() } else { Vec3::Z };
    let left = Vec3::Y.cross(facing);
    let centre =
        |l: &Limb| l.chain.iter().map(|&j| s.heads[j]).sum::<Vec3>() / l.chain.len() as f32;
    let a_left = (centre(&legs.limbs[0]) - s.heads[pelvis]).dot(left)
        >= (centre(&legs.limbs[1]) - s.heads[pelvis]).dot(left);
    (
        [if a_left { 0 } else { 1 }, if a_left { 1 } else { 0 }],
        RoleRule::Topology("first downward bone of a leg; side from the facing".into()),
    )
}
