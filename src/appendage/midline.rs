//! Where a tail leaves the trunk (issue 12): on the body's mirror plane.
//!
//! Why: a tail continues the spine, so its root ring straddles the plane
//! that mirrors the body; wings, arms and their feathers leave the trunk in
//! mirrored pairs, each root ring wholly on one side. On a bird whose tail
//! is a sparse ribbon (the phoenix), the feathers beside the wing roots
//! were long, on the pelvis and passed every shape test, while the true
//! tail did not: two chains on feathers, none on the tail. A part that
//! shape and region call a tail is therefore not one when its root ring
//! does not reach the mirror plane *and* another part leaves the trunk at
//! the mirror image of its root: the pair is the proof it is one of two
//! sides. A lone part off the plane (a tail modelled swept to one side, an
//! asymmetric creature) stays a tail; so does a pair of tails whose rings
//! reach the plane. Both thresholds are in the part's own root radii (the
//! collar's median distance from where the part leaves the body), so the
//! rule reads the same on a mouse and a dragon. Names play no part.
//!
//! The plane is the one the hind legs mirror across: through the midpoint
//! of the thighs' heads, its normal their horizontal difference (Y-up bind
//! space). Without both thighs (a snake, a fish) there is no plane and the
//! rule says nothing.

use glam::Vec3;

use crate::rig::{JointRoles, Rig};

/// A part's root is off the midline when its distance from the mirror
/// plane exceeds this many root radii: its root ring does not reach the
/// plane. A tail's ring straddles it (distance near 0); the ring of a
/// tail modelled a little aside still touches it (below 1).
pub const MIDLINE_ROOT_RADII: f32 = 1.0;

/// Two roots are mirror twins when the mirror image of one lies within
/// this many root radii (the thinner part's) of the other: once reflected,
/// each ring holds the other's centre. Mirrored parts have equal roots, so
/// this leaves a cut a few edges apart on an uneven mesh; the thinner
/// part's radius keeps a thick tail swept a little aside from taking a thin
/// feather near its mirror image for its twin.
pub const TWIN_ROOT_RADII: f32 = 1.0;

/// The plane the hind legs mirror across.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MirrorPlane {
    /// A point on it: the midpoint of the thighs' heads.
    pub point: Vec3,
    /// Unit, horizontal: from the right thigh's head to the left's.
    pub normal: Vec3,
}

impl MirrorPlane {
    /// The hind legs' mirror plane; `None` without both thighs or when
    /// they stand one above the other.
    pub fn of(rig: &Rig, roles: &JointRoles) -> Option<MirrorPlane> {
        let [Some(l), Some(r)] = roles.thighs else { return None };
        let heads = rig.bind_heads();
        let d = heads[l] - heads[r];
        let normal = Vec3::new(d.x, 0.0, d.z);
        if normal.length() <= 1e-6 * rig.height().max(f32::MIN_POSITIVE) {
            return None;
        }
        Some(MirrorPlane { point: 0.5 * (heads[l] + heads[r]), normal: normal.normalize() })
    }

    /// Signed distance of `p` from the plane (positive on the left thigh's side).
    pub fn offset(&self, p: Vec3) -> f32 {
        (p - self.point).dot(self.normal)
    }

    /// The mirror image of `p`.
    pub fn reflect(&self, p: Vec3) -> Vec3 {
        p - 2.0 * self.offset(p) * self.normal
    }
}

/// Where a candidate part leaves the trunk and how thick it is there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Root {
    /// Where it leaves the body.
    pub centre: Vec3,
    /// Its root radius (the collar's median distance from `centre`), > 0.
    pub radius: f32,
}

/// A part off the midline with a mirror twin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Paired {
    /// Index of the twin among the roots given.
    pub twin: usize,
    /// Distance of the root from the mirror plane, in root radii.
    pub offset_radii: f32,
}

/// The collar's median distance from `root` (`None` for an empty collar
/// or one sitting on the point).
pub fn root_radius(positions: &[Vec3], collar: &[u32], root: Vec3) -> Option<f32> {
    let mut d: Vec<f32> = collar.iter().map(|&v| positions[v as usize].distance(root)).collect();
    if d.is_empty() {
        return None;
    }
    d.sort_by(f32::total_cmp);
    let r = d[d.len() / 2];
    (r > 0.0).then_some(r)
}

/// For each root (`None`: not judged), its twin when both lie off the
/// midline ([`MIDLINE_ROOT_RADII`]) and each is the other's mirror image
/// ([`TWIN_ROOT_RADII`]); the nearest such twin, ties to the lower index.
pub fn paired_off_midline(plane: &MirrorPlane, roots: &[Option<Root>]) -> Vec<Option<Paired>> {
    let off = |r: &Root| plane.offset(r.centre).abs() > MIDLINE_ROOT_RADII * r.radius;
    roots
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let a = a.filter(off)?;
            let image = plane.reflect(a.centre);
            let twin = roots
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .filter_map(|(j, b)| b.filter(off).map(|b| (j, b)))
                // The twin lies on the other side.
                .filter(|(_, b)| plane.offset(b.centre) * plane.offset(a.centre) < 0.0)
                .map(|(j, b)| (j, b.centre.distance(image) / a.radius.min(b.radius)))
                .filter(|&(_, d)| d <= TWIN_ROOT_RADII)
                .min_by(|x, y| x.1.total_cmp(&y.1).then(x.0.cmp(&y.0)))?;
            Some(Paired { twin: twin.0, offset_radii: plane.offset(a.centre).abs() / a.radius })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plane() -> MirrorPlane {
        MirrorPlane { point: Vec3::new(0.0, 1.0, 0.0), normal: Vec3::X }
    }

    #[test]
    fn a_mirrored_pair_off_the_plane_is_paired_and_a_midline_root_is_not() {
        let r = |x: f32, radius: f32| Some(Root { centre: Vec3::new(x, 1.0, -0.5), radius });
        let got = paired_off_midline(
            &plane(),
            &[r(0.0, 0.1), r(0.5, 0.1), r(-0.52, 0.1), r(0.05, 0.1), r(-0.3, 0.2), r(0.45, 0.05)],
        );
        assert_eq!(got[0], None);
        assert_eq!(got[1].map(|p| p.twin), Some(2));
        assert_eq!(got[2].map(|p| p.twin), Some(1));
        assert_eq!(got[3], None);
        // Within the thick part's radius of its image but not the thin
        // one's: no twins.
        assert_eq!(got[4], None);
        assert_eq!(got[5], None);
    }

    #[test]
    fn a_lone_part_off_the_plane_stays() {
        let r = Some(Root { centre: Vec3::new(0.5, 1.0, -0.5), radius: 0.1 });
        assert_eq!(paired_off_midline(&plane(), &[r, None]), vec![None, None]);
    }
}
