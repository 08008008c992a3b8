//! Joint roles (pelvis, spine, neck, head, thighs, shins) from the shape of
//! the skeleton and its skin, whatever the rigger named the joints.
//!
//! | file | job |
//! |---|---|
//! | `find.rs` | the stages of `JointRoles::find`, in order |
//! | `grown.rs` | a tail chain's joints read as the joint the chain hangs from (a grown rig's roles are its source rig's) |
//! | `ground.rs` | the ground the character stands on: the levelled frame every height is read in |
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

mod find;
mod ground;
mod grown;
mod limbs;
mod names;
mod regions;
mod structure;
mod trunk;

use glam::{Quat, Vec3};
use serde::{Deserialize, Serialize};

use super::Rig;
use crate::error::Result;
use find::Finder;
pub use ground::{ground_up, CONTACT, MAX_TILT_DEG, TILT_STEP_DEG};
pub use limbs::{
    Limb, LimbPair, LEG_MIN_DROP, LEG_REACH, MAX_BRANCHES, MAX_CHAIN_JOINTS, MIRROR_TOLERANCE,
};
pub use names::{base_name, name_side, names_head, names_pelvis, names_the_head};
pub use regions::{Region, PELVIS_TRUNK_SHARE};
pub use structure::{
    credible_heads, credible_heads_of, ground_level, ground_level_of, structural_joints,
    structural_joints_of, weighted_joints, SkinReading, Structure, MAX_NEAREST_TOPS,
};
use trunk::Axial;
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

/// Which joint plays a role, and the rule that chose it.
#[derive(Clone, Debug, PartialEq)]
pub struct RoleSource {
    /// The role (`pelvis`, `spine`, `neck`, `head`, `thigh.L`, ...).
    pub role: String,
    /// The joint playing it.
    pub joint: usize,
    /// How it was found.
    pub rule: RoleRule,
    /// What the rule overruled, in the user's words (a joint named like the
    /// role that structure did not pick), if anything.
    pub overruled: Option<String>,
}

/// User overrides by joint name; unknown names are errors. Serde names are
/// the roles of the Python API (`thigh_l`, `shin_r`, ...).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(from = "RoleNames", into = "RoleNames")]
pub struct RoleOverrides {
    /// The pelvis joint's name.
    pub pelvis: Option<String>,
    /// The spine joints' names, pelvis side first.
    pub spine: Option<Vec<String>>,
    /// The neck joint's name.
    pub neck: Option<String>,
    /// The head joint's name.
    pub head: Option<String>,
    /// Left, right.
    pub thighs: [Option<String>; 2],
    /// Left, right.
    pub shins: [Option<String>; 2],
}

/// [`RoleOverrides`] under one name per role, as the Python API spells them;
/// a role not overridden is left out (a dict of the overrides given).
#[derive(Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct RoleNames {
    #[serde(skip_serializing_if = "Option::is_none")]
    pelvis: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    spine: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    neck: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    head: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    thigh_l: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    thigh_r: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    shin_l: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    shin_r: Option<String>,
}

impl RoleOverrides {
    /// Every joint named here exists in `rig`; the error names the role
    /// (`roles.pelvis`, `roles.thigh_l`, ...). Roles are found lazily by the
    /// stages that read them (the spring reads the body's level and facing
    /// only when it builds its rest pose), so a misspelt name is caught
    /// here, where it is given, not skipped as "no roles found".
    pub fn check(&self, rig: &Rig) -> Result<()> {
        let RoleNames { pelvis, spine, neck, head, thigh_l, thigh_r, shin_l, shin_r } =
            self.clone().into();
        let single = [
            ("roles.pelvis", pelvis),
            ("roles.neck", neck),
            ("roles.head", head),
            ("roles.thigh_l", thigh_l),
            ("roles.thigh_r", thigh_r),
            ("roles.shin_l", shin_l),
            ("roles.shin_r", shin_r),
        ];
        for (field, name) in single {
            if let Some(n) = name {
                rig.require_joint(field, &n)?;
            }
        }
        for n in spine.iter().flatten() {
            rig.require_joint("roles.spine", n)?;
        }
        Ok(())
    }
}

impl From<RoleNames> for RoleOverrides {
    fn from(n: RoleNames) -> Self {
        let RoleNames { pelvis, spine, neck, head, thigh_l, thigh_r, shin_l, shin_r } = n;
        RoleOverrides {
            pelvis,
            spine,
            neck,
            head,
            thighs: [thigh_l, thigh_r],
            shins: [shin_l, shin_r],
        }
    }
}

impl From<RoleOverrides> for RoleNames {
    fn from(o: RoleOverrides) -> Self {
        let ([thigh_l, thigh_r], [shin_l, shin_r]) = (o.thighs, o.shins);
        let (pelvis, spine, neck, head) = (o.pelvis, o.spine, o.neck, o.head);
        RoleNames { pelvis, spine, neck, head, thigh_l, thigh_r, shin_l, shin_r }
    }
}

/// The roles of a rig's joints, found from the shape of its skeleton and skin.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct JointRoles {
    /// Where the hind legs meet the trunk.
    pub pelvis: Option<usize>,
    /// From the pelvis upwards (pelvis excluded), up to the neck.
    pub spine: Vec<usize>,
    /// The first trunk joint past the shoulders.
    pub neck: Option<usize>,
    /// The head: past the shoulders, the joint named like a head, else the
    /// last carrying a third of the heaviest one's skin surface.
    pub head: Option<usize>,
    /// Left, right (left is +X for a character facing +Z, as in glTF).
    pub thighs: [Option<usize>; 2],
    /// The joint below each thigh: left, right.
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
    /// The way the character faces in bind space, unit and level with the
    /// ground the feet rest on (`facing`; horizontal for an upright bind):
    /// from the pelvis to the head, or along the hind feet; `None` when the
    /// skeleton shows neither.
    pub facing: Option<Vec3>,
    /// The rotation this reading levelled the bind by ([`ground_level`]):
    /// the identity when the bind was read as it stands (upright, or a
    /// ground read from the skin that did not read the skeleton better).
    /// `level⁻¹ · Y` is the up of the ground the character stands on.
    pub level: Quat,
}

fn side_label(role: &str, side: usize) -> String {
    format!("{role}.{}", if side == 0 { "L" } else { "R" })
}

impl JointRoles {
    /// Every role of `rig`'s joints, the user's overrides first: the pelvis,
    /// the named legs, the trunk (head, neck, spine), the pelvis' own legs,
    /// then each joint's body region.
    ///
    /// A bind that does not stand on the horizontal plane ([`ground_level`]:
    /// pitched or rolled, as on a slope) is read twice, as it stands and
    /// levelled with the ground it stands on, and the levelled reading is
    /// kept when it finds more of the pelvis, both thighs and the head, or
    /// as many and more pairs of legs (a rat pitched nose-down reads whole
    /// upright, its front legs taken for its only legs). A skeleton that
    /// reads better as it stands is not second-guessed by a ground read from
    /// its skin (a bird on one foot, its tail feathers brushing a tilted
    /// plane, reads nothing levelled).
    pub fn find(rig: &Rig, overrides: &RoleOverrides) -> Result<JointRoles> {
        let skin = SkinReading::of(rig);
        let upright = Self::find_in(rig, &skin, overrides, Quat::IDENTITY)?;
        if let Some(on_toes) = Self::on_toes(rig, &skin, overrides, &upright)? {
            return Ok(on_toes);
        }
        let level = ground_level_of(rig, &skin);
        if level == Quat::IDENTITY {
            return Ok(upright);
        }
        let levelled = Self::find_in(rig, &skin, overrides, level)?;
        Ok(if levelled.found() > upright.found() { levelled } else { upright })
    }

    /// The reading levelled with the plane the toes of `upright`'s legs lie
    /// in ([`ground::toes_up`]), when that plane is tilted past what the
    /// roles resolve (half of [`TILT_STEP_DEG`]) and the levelled reading
    /// finds as much as `upright` (the toes are the skeleton's own cue, not
    /// the skin's, so a tie goes to them). A reading that finds more legs
    /// than the one it was levelled from reads its toes again: a quadruped
    /// pitched nose-down reads upright on its front legs only, whose toe
    /// bones slope down to their tips, and levelled with them it finds its
    /// hind legs, whose four tips fix the ground exactly.
    fn on_toes(
        rig: &Rig,
        skin: &SkinReading,
        overrides: &RoleOverrides,
        upright: &JointRoles,
    ) -> Result<Option<JointRoles>> {
        let mut best: Option<JointRoles> = None;
        let mut legs = 0;
        for _ in 0..2 {
            let from = best.as_ref().unwrap_or(upright);
            let toes = from.toes(rig, &skin.heads);
            // Two feet first: four already fix the skin's ground (a real
            // quadruped's toe tips sit at its paws' own heights, a Rigify
            // rabbit's front ones 0.14 above its hind ones).
            if toes.len() <= legs || (legs == 0 && toes.len() != 2) {
                break;
            }
            legs = toes.len();
            let Some(up) = ground::toes_up(&toes) else { break };
            if up.angle_between(Vec3::Y).to_degrees() <= 0.5 * TILT_STEP_DEG
                || !from.soles_rest_on(rig, skin, up)
            {
                break;
            }
            let levelled = Self::find_in(rig, skin, overrides, ground::levelling(up))?;
            if levelled.found() < from.found() {
                break;
            }
            best = Some(levelled);
        }
        Ok(best)
    }

    /// Whether the soles of this reading's legs (the skin their last two
    /// joints carry most of, foot and toe) lie flatter on the plane of up
    /// `up` than on the horizontal one: more of their surface within
    /// [`CONTACT`] of the model height of their lowest point along each.
    /// A real rig's toe bones may slope (a fox's, a Rigify toe) while its
    /// soles stand flat on the horizontal floor; a pitched file's soles
    /// touch the horizontal plane only at their heels' edge.
    fn soles_rest_on(&self, rig: &Rig, skin: &SkinReading, up: Vec3) -> bool {
        let mut foot = vec![false; rig.joint_count()];
        for limb in self.limbs.iter().filter(|p| p.legs).flat_map(|p| &p.limbs) {
            for &j in limb.chain.iter().rev().take(2) {
                foot[j] = true;
            }
        }
        let area = structure::vertex_areas(rig);
        let tolerance = CONTACT * rig.height();
        let soles: Vec<usize> =
            (0..rig.vertex_count()).filter(|&v| foot[skin.dominant[v] as usize]).collect();
        let contact = |n: Vec3| {
            let floor =
                soles.iter().map(|&v| rig.vertices()[v].dot(n)).fold(f32::INFINITY, f32::min);
            soles
                .iter()
                .filter(|&&v| rig.vertices()[v].dot(n) - floor <= tolerance)
                .map(|&v| area[v])
                .sum::<f64>()
        };
        contact(up) > contact(Vec3::Y)
    }

    /// Each leg's toe as (head, tip) in bind space: the last bone of every
    /// leg, from its chain's last joint to that joint's tip (the first child
    /// down to a leaf: a toe's end joint carries no skin, so the chain
    /// stops before it). A leg whose last joint has no tip gives none: its
    /// last bone may be a shin (a rig without toes), which does not lie
    /// along the ground.
    fn toes(&self, rig: &Rig, heads: &[Vec3]) -> Vec<(Vec3, Vec3)> {
        let mut out = Vec::new();
        for limb in self.limbs.iter().filter(|p| p.legs).flat_map(|p| &p.limbs) {
            let Some(&last) = limb.chain.last() else { continue };
            let mut tip = last;
            for _ in 0..limbs::MAX_CHAIN_JOINTS {
                match rig.children(tip).next() {
                    Some(c) => tip = c,
                    None => break,
                }
            }
            if tip != last {
                out.push((heads[last], heads[tip]));
            }
        }
        out
    }

    /// The pair of legs the thighs begin: the hind legs.
    pub fn hind_legs(&self) -> Option<&LimbPair> {
        let thigh = |l: &Limb| self.thighs.iter().flatten().any(|t| l.chain.contains(t));
        self.limbs.iter().find(|p| p.legs && p.limbs.iter().any(thigh))
    }

    /// How many of the pelvis, the two thighs and the head were found, then
    /// how many pairs of legs.
    fn found(&self) -> (usize, usize) {
        let roles = [self.pelvis, self.thighs[0], self.thighs[1], self.head];
        (roles.iter().flatten().count(), self.limbs.iter().filter(|p| p.legs).count())
    }

    /// The roles read in the frame `level` turns the bind into.
    fn find_in(
        rig: &Rig,
        skin: &SkinReading,
        overrides: &RoleOverrides,
        level: Quat,
    ) -> Result<JointRoles> {
        let s = Structure::new(rig, skin, level);
        let pairs = limbs::find_pairs(&s);
        let axial = Axial::new(&s, &pairs, rig.joint_names());
        let mut junctions: Vec<usize> = Vec::new();
        for p in pairs.iter().filter(|p| p.legs) {
            if !junctions.contains(&p.junction) {
                junctions.push(p.junction);
            }
        }
        let finder = Finder { rig, overrides, s: &s, pairs: &pairs, axial: &axial, junctions };
        let mut roles =
            JointRoles { structural: s.structural.clone(), level, ..Default::default() };
        finder.pelvis(&mut roles)?;
        finder.named_legs(&mut roles)?;
        finder.trunk(&mut roles)?;
        finder.pelvis_legs(&mut roles);
        roles.facing = roles
            .pelvis
            .and_then(|p| facing(&s, finder.pelvis_pair(&roles), roles.head, p))
            .map(|f| s.level.inverse() * f);
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

/// How many joints down both legs of a pair their thighs start: past the
/// first bones that go more out to the side than down (`across`, the
/// pair's mirror normal: an animal's hip connector, Rigify's `pelvis.L`,
/// goes out; a bird's thigh goes back). The two sides decide together, on
/// their summed reach out against their summed drop: a connector that goes
/// about as far out as down reads either way on its own, and a bind that
/// is not an exact mirror (rolled, or one side posed) then gave one side
/// the connector and the other the thigh (a Quaternius hip connector,
/// 0.021 out against 0.021 down on one side and 0.025 against 0.016 on the
/// other). A mirrored pair's thighs sit at the same depth.
fn thigh_depth(s: &Structure, legs: &LimbPair) -> usize {
    let [a, b] = [&legs.limbs[0].chain, &legs.limbs[1].chain];
    let mut k = 0;
    while k + 2 < a.len().min(b.len()) {
        let (mut out, mut down) = (0.0, 0.0);
        for chain in [a, b] {
            let d = s.heads[chain[k + 1]] - s.heads[chain[k]];
            out += d.dot(legs.across).abs();
            down -= d.y;
        }
        if out > down {
            k += 1;
        } else {
            break;
        }
    }
    k
}

/// The thigh of a leg chain `depth` joints down (see [`thigh_depth`]), and
/// the joint below it.
fn thigh_and_shin(chain: &[usize], depth: usize) -> (usize, Option<usize>) {
    let k = depth.min(chain.len().saturating_sub(1));
    (chain[k], chain.get(k + 1).copied())
}

/// The feet give the facing only when, seen from above, they point at least
/// this share of the model height away from the ankles (a foot modelled
/// straight down points nowhere).
pub const FOOT_FACING: f32 = 0.01;

/// A trunk whose head rises above its pelvis more than this many times as
/// far as it reaches ahead of it (one: leaning less than 45 degrees from
/// vertical) stands, and a standing trunk's lean says nothing about where
/// it faces: a biped bound pitched back holds its head behind its pelvis
/// (generated bipeds pitched 8-25 degrees had left and right swapped). Its
/// feet say. A lying trunk (a quadruped, a dinosaur) faces its head.
pub const STANDING_TRUNK_RISE: f32 = 1.0;

/// The way the character faces, seen from above (unit, Y-up bind space):
/// from the pelvis to the head when the head lies at least
/// [`LEG_MIN_DROP`] of the height ahead of it and the trunk lies (see
/// [`STANDING_TRUNK_RISE`]), else along the feet of the pelvis' legs: the
/// last bone of each leg and the foot's skin beyond it, when they point at
/// least [`FOOT_FACING`] of the height away; else the head's lead, if any.
/// `None` when neither says (the caller's convention then decides: glTF's
/// +Z).
fn facing(
    s: &Structure,
    legs: Option<&LimbPair>,
    head: Option<usize>,
    pelvis: usize,
) -> Option<Vec3> {
    let horizontal = |v: Vec3| Vec3::new(v.x, 0.0, v.z);
    let lead = head.map(|h| s.heads[h] - s.heads[pelvis]);
    let by_head =
        lead.map(horizontal).filter(|f| f.length() >= LEG_MIN_DROP * s.height).map(Vec3::normalize);
    let stands = lead.is_some_and(|d| d.y > STANDING_TRUNK_RISE * horizontal(d).length());
    if by_head.is_some() && !stands {
        return by_head;
    }
    // Feet point forward: the last bone of each leg and the foot's skin
    // beyond it, seen from above.
    let mut feet = Vec3::ZERO;
    for l in legs.map_or(&[][..], |p| &p.limbs[..]) {
        if let [.., a, b] = l.chain[..] {
            feet += horizontal(s.heads[b] - s.heads[a]) + horizontal(s.skin_centre[b] - s.heads[b]);
        }
    }
    if feet.length() >= FOOT_FACING * s.height && feet.length() > 1e-6 {
        return Some(feet.normalize());
    }
    by_head
}

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
    let facing = facing(s, Some(legs), head, pelvis).unwrap_or(Vec3::Z);
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
