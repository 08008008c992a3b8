//! Body regions of every joint, for deciding what a part that hangs from
//! it needs (SPEC T5): a part on the pelvis is a tail, on the spine a
//! carried object, on the head an ear, on a limb part of that limb.

use serde::Serialize;

use super::limbs::LimbPair;
use super::structure::Structure;

/// The rear end of the trunk, within this share of its length from the
/// pelvis to the neck, counts as the pelvis: a tail's root sits at the
/// rear end (a humanoid rig's first spine joint, at the pelvis, may be the
/// bone nearest it); a quiver or a backpack hangs further up the back (on
/// the generated dinosaurs from a fifth of the way on).
pub const PELVIS_TRUNK_SHARE: f32 = 0.15;

/// The body region of a joint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Region {
    /// Pelvis, the rear of the trunk, the hind legs' connectors and thighs
    /// (their heads ring the tail root), and what hangs from them off the
    /// trunk (a rig's `Back` leaf beside the legs).
    Pelvis,
    /// The trunk between the pelvis region and the neck.
    Spine,
    /// Neck, head and everything below them (ears, jaw, hair).
    Head,
    /// Limbs (legs, arms, wings), controls, anything the roles do not cover.
    Limb,
}

pub fn regions(
    s: &Structure,
    pairs: &[LimbPair],
    pelvis: Option<usize>,
    trunk: &[usize],
    neck_or_head: Option<usize>,
    thighs: &[Option<usize>; 2],
) -> Vec<Region> {
    let n = s.heads.len();
    let mut region = vec![Region::Limb; n];
    let Some(pelvis) = pelvis else { return region };
    let mut in_limb = vec![false; n];
    for p in pairs {
        for j in p.joints(s) {
            in_limb[j] = true;
        }
    }
    let mut on_trunk = vec![false; n];
    for &j in trunk {
        on_trunk[j] = true;
    }
    // Trunk joints: the rear share is pelvis, the rest spine.
    let mut along = vec![0f32; trunk.len()];
    for i in 1..trunk.len() {
        along[i] = along[i - 1] + s.heads[trunk[i]].distance(s.heads[trunk[i - 1]]);
    }
    let neck_at = neck_or_head.and_then(|h| trunk.iter().position(|&j| j == h));
    let spine_len = neck_at.map_or(*along.last().unwrap_or(&0.0), |i| along[i]);
    for (i, &j) in trunk.iter().enumerate() {
        region[j] = if i == 0 || along[i] <= PELVIS_TRUNK_SHARE * spine_len {
            Region::Pelvis
        } else {
            Region::Spine
        };
    }
    let mut above_pelvis = vec![false; n];
    let mut k = Some(pelvis);
    while let Some(j) = k {
        above_pelvis[j] = true;
        k = s.up[j];
    }
    // A mid-line joint hanging straight from the trunk (a rig's `Back` leaf
    // beside the legs, the first bone of a tail) takes that trunk joint's
    // region; the joints past it are a limb of their own (a tail that has
    // its bones: what hangs from them follows them). Those above the trunk
    // (root controls over the pelvis) are pelvis.
    for &j in &s.order {
        if on_trunk[j] || in_limb[j] {
            continue;
        }
        region[j] = match s.up[j] {
            Some(p) if on_trunk[p] => region[p],
            Some(p) if above_pelvis[p] => Region::Pelvis,
            Some(_) => Region::Limb,
            None => Region::Pelvis,
        };
    }
    // The pelvis' own legs down to the thigh.
    let hind = |p: &&LimbPair| {
        p.legs
            && p.junction == pelvis
            && p.limbs.iter().any(|l| l.chain.iter().any(|j| thighs.contains(&Some(*j))))
    };
    for p in pairs.iter().filter(hind) {
        for l in &p.limbs {
            for &j in &l.chain {
                region[j] = Region::Pelvis;
                if thighs.contains(&Some(j)) {
                    break;
                }
            }
        }
    }
    // The head over everything below the neck.
    if let Some(h) = neck_or_head {
        for j in s.subtree(h) {
            region[j] = Region::Head;
        }
    }
    region
}
