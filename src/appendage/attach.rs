//! Where a part hangs (SPEC T3): the joint nearest to its collar centroid,
//! with the trunk/thigh bias, and which body region that joint belongs to.

use glam::Vec3;

use crate::geometry::{point_segment_distance, SkeletonField};
use crate::rig::{JointRoles, Rig};

pub use crate::rig::roles::Region;

/// Body regions of every joint from the roles (see [`crate::rig::roles::Region`]).
pub fn joint_regions(rig: &Rig, roles: &JointRoles) -> Vec<Region> {
    if roles.regions.len() == rig.joint_count() {
        roles.regions.clone()
    } else {
        vec![Region::Limb; rig.joint_count()]
    }
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
pub fn attachment_joint(
    centroid: Vec3,
    field: &SkeletonField,
    regions: &[Region],
    bias: f32,
) -> Option<usize> {
    let mut dist = vec![f32::INFINITY; regions.len()];
    for s in &field.segments {
        dist[s.joint] = dist[s.joint].min(point_segment_distance(centroid, s.a, s.b));
    }
    let by_distance = |a: &usize, b: &usize| dist[*a].total_cmp(&dist[*b]).then(a.cmp(b));
    let nearest = (0..regions.len()).filter(|&j| dist[j].is_finite()).min_by(by_distance)?;
    // The bias settles pelvis against legs; a part nearest the head is the
    // head's, however near the top of the spine it joins.
    if regions[nearest] == Region::Head {
        return Some(nearest);
    }
    let limit = bias * dist[nearest];
    let body = (0..regions.len())
        .filter(|&j| matches!(regions[j], Region::Pelvis | Region::Spine) && dist[j] <= limit)
        .min_by(by_distance);
    Some(body.unwrap_or(nearest))
}
