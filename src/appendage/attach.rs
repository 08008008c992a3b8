//! Where a part hangs (SPEC T3): the joint nearest to its collar centroid,
//! with the trunk/thigh bias, and which body region that joint belongs to.

use glam::Vec3;
use serde::Serialize;

use crate::geometry::{point_segment_distance, SkeletonField};
use crate::rig::{JointRoles, Rig};

/// The body region of an attachment joint; it drives the decision (T5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Region {
    /// Pelvis, thighs and the short connectors between them: a part here
    /// hangs from the hips.
    Pelvis,
    /// Spine joints between pelvis and neck.
    Spine,
    /// Neck, head and everything below them (ears, jaw, hair).
    Head,
    /// Arms, shins, feet, or anything the roles do not cover.
    Limb,
}

/// Body regions of every joint from the roles.
pub fn joint_regions(rig: &Rig, roles: &JointRoles) -> Vec<Region> {
    let n = rig.joint_count();
    let mut region = vec![Region::Limb; n];
    let parents = rig.parents();
    let is_below = |j: usize, a: usize| {
        let mut k = Some(j);
        while let Some(p) = k {
            if p == a {
                return true;
            }
            k = parents[p];
        }
        false
    };
    for (j, r) in region.iter_mut().enumerate() {
        let under_head = [roles.neck, roles.head].iter().flatten().any(|&h| is_below(j, h));
        *r = if under_head {
            Region::Head
        } else if Some(j) == roles.pelvis {
            Region::Pelvis
        } else if roles.spine.contains(&j) {
            Region::Spine
        } else {
            Region::Limb
        };
    }
    // Thighs and the connectors between pelvis and thigh (Quaternius'
    // sideways `BackShoulder`): their heads ring the tail root. Where the
    // legs are siblings of the pelvis (Quaternius humanoids: both under
    // `Body`), the walk stops below the pelvis' parent.
    if let Some(pelvis) = roles.pelvis {
        let stop = parents[pelvis];
        for t in roles.thighs.iter().flatten() {
            let mut path = Vec::new();
            let mut k = Some(*t);
            while let Some(j) = k {
                if j == pelvis || Some(j) == stop {
                    break;
                }
                path.push(j);
                k = parents[j];
            }
            if k.is_none() {
                path.truncate(1); // not below the pelvis at all: the thigh only
            }
            for j in path {
                region[j] = Region::Pelvis;
            }
        }
    }
    region
}

/// The attachment joint for a collar centroid: the joint whose bone (its
/// segments of the skeleton distance field) is nearest, unless a trunk or
/// thigh bone lies within `bias` times that distance (the thigh heads are as
/// near as the hips around the pelvis; a tail root between them belongs to
/// the body). Bones, not joint heads: a pelvis bone runs from the hip joint
/// to the first spine joint, and a tail root sits beside that bone, nearer
/// the spine joint's head than the hip's. Collar weights are deliberately
/// not used: a tail modelled as its own shell has its own root ring as
/// collar, carrying the very weights being fixed.
pub fn attachment_joint(centroid: Vec3, field: &SkeletonField, regions: &[Region], bias: f32) -> Option<usize> {
    let mut dist = vec![f32::INFINITY; regions.len()];
    for s in &field.segments {
        dist[s.joint] = dist[s.joint].min(point_segment_distance(centroid, s.a, s.b));
    }
    let by_distance = |a: &usize, b: &usize| dist[*a].total_cmp(&dist[*b]).then(a.cmp(b));
    let nearest = (0..regions.len()).filter(|&j| dist[j].is_finite()).min_by(by_distance)?;
    let limit = bias * dist[nearest];
    let body = (0..regions.len())
        .filter(|&j| matches!(regions[j], Region::Pelvis | Region::Spine) && dist[j] <= limit)
        .min_by(by_distance);
    Some(body.unwrap_or(nearest))
}
