//! How much the tail moves: the tip's angle about the tail root, relative to
//! where the tail would be if the pelvis carried it rigidly in its reference
//! pose (the spring's carry pose for a chain, the bind pose otherwise), RMS
//! over the sampled times. Relative to the pelvis, so walking forward or
//! turning is not counted as tail motion; a rigid tail scores exactly 0.

use glam::{Mat4, Vec3};

use super::TAIL_END_SHARE;
use crate::error::{CaudalError, Result};
use crate::rig::Rig;

/// The ends of a tail in bind space.
#[derive(Clone, Debug, PartialEq)]
pub struct TailEnds {
    /// Centroid of the tail vertices nearest the pelvis (the hang point).
    pub root: Vec3,
    /// Tail vertices at the far end, averaged into the tip.
    pub tip: Vec<u32>,
}

/// Orders the tail by bind distance from the anchor joint's head; the first
/// and last [`TAIL_END_SHARE`] of that range are the root and the tip.
pub fn tail_ends(rig: &Rig, tail: &[u32], anchor: usize) -> Result<TailEnds> {
    if tail.is_empty() {
        return Err(CaudalError::shape("tail_vertices", "no tail vertices"));
    }
    rig.check_vertices("tail_vertices", tail)?;
    rig.check_joints("anchor", &[anchor])?;
    let head = rig.bind_heads()[anchor];
    let d: Vec<f32> = tail.iter().map(|&v| (rig.vertices()[v as usize] - head).length()).collect();
    let (lo, hi) =
        d.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(l, h), &x| (l.min(x), h.max(x)));
    let band = TAIL_END_SHARE * (hi - lo);
    let root_vs: Vec<Vec3> = tail
        .iter()
        .zip(&d)
        .filter(|(_, &x)| x <= lo + band)
        .map(|(&v, _)| rig.vertices()[v as usize])
        .collect();
    let root = root_vs.iter().copied().sum::<Vec3>() / root_vs.len() as f32;
    let tip = tail.iter().zip(&d).filter(|(_, &x)| x >= hi - band).map(|(&v, _)| v).collect();
    Ok(TailEnds { root, tip })
}

/// Tip centroid of posed positions, carried back into the pelvis's bind frame.
pub(crate) fn carried_tip(posed: &[Vec3], tip: &[u32], anchor_skin: &Mat4) -> Vec3 {
    let c = tip.iter().map(|&v| posed[v as usize]).sum::<Vec3>() / tip.len() as f32;
    anchor_skin.inverse().transform_point3(c)
}

/// The tip angle over the samples, degrees.
#[derive(Clone, Debug, PartialEq, Default, serde::Serialize)]
pub struct TailMotion {
    /// RMS of the angle to the rigid carry pose (SPEC M1's amplitude; a
    /// tail sagging under gravity counts here even if it never moves).
    pub amplitude_deg: f32,
    /// Largest angle to the carry pose.
    pub max_deg: f32,
    /// Mean angle to the carry pose.
    pub mean_deg: f32,
    /// RMS of the angle to the tip's mean direction over the clip: motion
    /// only, no static offset. A tail that hangs still scores 0 here.
    pub swing_deg: f32,
}

/// Angle between two vectors, accurate near 0 (unlike `acos` in f32).
fn angle(a: Vec3, b: Vec3) -> f32 {
    a.cross(b).length().atan2(a.dot(b))
}

impl TailMotion {
    /// From the tip directions (about the tail root, pelvis frame) at each
    /// sample and the reference direction.
    pub fn from_directions(dirs: &[Vec3], reference: Vec3) -> TailMotion {
        if dirs.is_empty() {
            return TailMotion::default();
        }
        let n = dirs.len() as f32;
        let angles: Vec<f32> = dirs.iter().map(|d| angle(*d, reference)).collect();
        let rms = |a: &[f32]| (a.iter().map(|x| x * x).sum::<f32>() / n).sqrt().to_degrees();
        let mean_dir =
            dirs.iter().map(|d| d.normalize_or_zero()).sum::<Vec3>().normalize_or(reference);
        let about_mean: Vec<f32> = dirs.iter().map(|d| angle(*d, mean_dir)).collect();
        TailMotion {
            amplitude_deg: rms(&angles),
            max_deg: angles.iter().copied().fold(0.0, f32::max).to_degrees(),
            mean_deg: (angles.iter().sum::<f32>() / n).to_degrees(),
            swing_deg: rms(&about_mean),
        }
    }
}
