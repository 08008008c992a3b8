//! How much the tail moves: the tip's angle about the tail root, relative to
//! where the tail would be if the pelvis carried it rigidly in its reference
//! pose (the spring's carry pose for a chain, the bind pose otherwise), RMS
//! over the sampled times. Relative to the pelvis, so walking forward or
//! turning is not counted as tail motion; a rigid tail scores exactly 0.

use glam::{Mat4, Vec3};

use super::TAIL_END_SHARE;
use crate::error::{CaudalError, Result};
use crate::geometry::{geodesic_from, MeshGraph, Weld, WELD_TOLERANCE_RATIO};
use crate::rig::Rig;

/// The ends of a tail in bind space.
#[derive(Clone, Debug, PartialEq)]
pub struct TailEnds {
    /// Centroid of the tail vertices nearest the pelvis (the hang point).
    pub root: Vec3,
    /// Tail vertices at the far end, averaged into the tip.
    pub tip: Vec<u32>,
}

/// Orders the tail from its root to its far end and takes the first and last
/// [`TAIL_END_SHARE`] of that range as the root and the tip. The order is
/// the geodesic distance over the tail's own surface from its root seam (the
/// tail vertices that share an edge with the body), so a tail hanging beside
/// its anchor joint's head is ordered along itself; straight-line distance
/// from that head swapped the root and the tip of the zebra's tail (the head
/// sits level with its hanging end) and scored a swinging tail 0.09 degrees
/// (docs/decisions.md). A tail that is a
/// separate shell (no seam) is ordered by distance from the anchor's head,
/// its root end being the part nearest the joint it hangs from.
pub fn tail_ends(rig: &Rig, tail: &[u32], anchor: usize) -> Result<TailEnds> {
    if tail.is_empty() {
        return Err(CaudalError::shape("tail_vertices", "no tail vertices"));
    }
    rig.check_vertices("tail_vertices", tail)?;
    rig.check_joints("anchor", &[anchor])?;
    let d = along_tail(rig, tail).unwrap_or_else(|| {
        let head = rig.bind_heads()[anchor];
        tail.iter().map(|&v| (rig.vertices()[v as usize] - head).length()).collect()
    });
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

/// Per tail vertex: geodesic distance over the tail's welded surface from its
/// root seam; a tail vertex the surface does not reach from the seam (a
/// loose piece) takes its straight distance from the seam's centre. None
/// when the tail shares no edge with the body (a separate shell).
fn along_tail(rig: &Rig, tail: &[u32]) -> Option<Vec<f32>> {
    let weld = Weld::by_position(rig.vertices(), WELD_TOLERANCE_RATIO * rig.diagonal());
    let mut on_tail = vec![false; weld.count()];
    for &v in tail {
        on_tail[weld.welded_of[v as usize] as usize] = true;
    }
    let graph = MeshGraph::from_triangles(weld.count(), &weld.triangles(rig.triangles()));
    let seam: Vec<u32> = (0..weld.count())
        .filter(|&w| on_tail[w] && graph.neighbors_of(w).iter().any(|&u| !on_tail[u as usize]))
        .map(|w| w as u32)
        .collect();
    if seam.is_empty() {
        return None;
    }
    let centre = seam.iter().map(|&w| weld.positions[w as usize]).sum::<Vec3>() / seam.len() as f32;
    let subset: Vec<u32> = (0..weld.count() as u32).filter(|&w| on_tail[w as usize]).collect();
    let along = geodesic_from(&graph, &weld.positions, &subset, &seam);
    let d = tail
        .iter()
        .map(|&v| {
            let w = weld.welded_of[v as usize];
            let g = subset.binary_search(&w).map(|i| along[i]).unwrap_or(f32::INFINITY);
            if g.is_finite() {
                g
            } else {
                (rig.vertices()[v as usize] - centre).length()
            }
        })
        .collect();
    Some(d)
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
