//! Does a clip loop? Its first and last frames must agree (SPEC B); the
//! root's horizontal travel is root motion, which the warm-up carries across
//! the seam instead of jumping back.

use glam::{Mat4, Vec3};

use super::params::BakeParams;
use crate::rig::{Clip, Rig};

/// The verdict and the largest differences found, for the report.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopCheck {
    /// Whether the clip's first and last frames match: it loops.
    pub loops: bool,
    /// Largest rotation difference between first and last frame, degrees.
    pub angle_deg: f32,
    /// Largest translation difference (root horizontal travel excepted),
    /// as a share of the model height.
    pub distance_ratio: f32,
    /// Largest relative scale difference.
    pub scale_diff: f32,
    /// Horizontal travel of the anchor over one cycle (root motion), world units.
    pub travel: Vec3,
}

/// Compares the first and last frames of `clip` on every joint except
/// `ignore` (the tail bones, which clips do not drive).
pub fn check_loop(
    rig: &Rig,
    clip: &Clip,
    anchor_worlds: &[Mat4],
    ignore: &[usize],
    params: &BakeParams,
    up: Vec3,
) -> LoopCheck {
    let n = clip.frame_count();
    let up = up.normalize_or(Vec3::Y);
    let first = clip.frame(0);
    let last = clip.frame(n - 1);
    let height = rig.height().max(f32::MIN_POSITIVE);
    let (mut angle, mut dist, mut scale) = (0.0f32, 0.0f32, 0.0f32);
    for j in 0..clip.joint_count() {
        if ignore.contains(&j) {
            continue;
        }
        let (a, b) = (first[j], last[j]);
        angle = angle.max(a.rotation.angle_between(b.rotation).to_degrees());
        let mut d = b.translation - a.translation;
        if rig.parents()[j].is_none() {
            d = d.dot(up) * up;
        }
        dist = dist.max(d.length() / height);
        let rel = ((b.scale - a.scale).abs() / a.scale.abs().max(Vec3::splat(1e-6))).max_element();
        scale = scale.max(rel);
    }
    let travel = if n > 1 {
        let d = anchor_worlds[n - 1].w_axis.truncate() - anchor_worlds[0].w_axis.truncate();
        d - d.dot(up) * up
    } else {
        Vec3::ZERO
    };
    let loops = n >= 3
        && angle <= params.loop_pose_angle_deg
        && dist <= params.loop_pose_distance_ratio
        && scale <= params.loop_pose_distance_ratio;
    LoopCheck { loops, angle_deg: angle, distance_ratio: dist, scale_diff: scale, travel }
}
