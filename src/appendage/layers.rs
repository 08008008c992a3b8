//! Two shells of one tube: fur over skin, never welded to it. Their boxes
//! overlap, but a shell that touches no body skin (the fur) takes its collar
//! and so its attachment from the end nearest a bone, which on a tail hanging
//! past a thigh is the thigh: the two layers then hang from different joints
//! and the T5 merge at one attachment leaves them two parts (two chains, or
//! one chain and a carried part, each with half the tail).

use glam::Vec3;

use crate::stats::percentile;

/// Two shells are layers of one tube when the median distance from either
/// one's vertices to the other's nearest vertex is within this share of the
/// thinner shell's width (the smallest side of its box: a tube's diameter
/// where it is widest, more where it bends). Fur stands a fraction of the
/// radius proud of the skin under it (the corpus's 0.15 radius, 0.075 of
/// the width, plus up to half a ring's vertex spacing where the rings are
/// twisted); a cape, a second tail or a leg beside a tail is farther than a
/// quarter of its width from most of it, and both directions must hold, so
/// a small part lying against a big one is not its layer.
pub const LAYER_GAP_WIDTHS: f32 = 0.25;

/// Vertices of a shell sampled (evenly by index) when measuring its
/// distance to the other shell: the median needs no more, and the cost
/// stays linear in the other shell's size.
const LAYER_SAMPLES: usize = 256;

/// Whether the shells `a` and `b` (vertex positions, with their boxes) lie
/// over each other as one tube's layers (see [`LAYER_GAP_WIDTHS`]).
pub fn are_layers(a: &[Vec3], a_box: (Vec3, Vec3), b: &[Vec3], b_box: (Vec3, Vec3)) -> bool {
    if a.is_empty() || b.is_empty() {
        return false;
    }
    let width = |(lo, hi): (Vec3, Vec3)| (hi - lo).min_element();
    let limit = LAYER_GAP_WIDTHS * width(a_box).min(width(b_box));
    median_gap(a, b) <= limit && median_gap(b, a) <= limit
}

/// Which of the points `other` lie under the shell `shell` (vertex positions,
/// with its box): within [`LAYER_GAP_WIDTHS`] of the shell's width of its
/// nearest vertex. Only points in the shell's box widened by that gap are
/// measured, so a big body part costs no more than the skin near the shell.
pub fn under_shell(shell: &[Vec3], shell_box: (Vec3, Vec3), other: &[Vec3]) -> Vec<bool> {
    let gap = LAYER_GAP_WIDTHS * (shell_box.1 - shell_box.0).min_element();
    let (lo, hi) = (shell_box.0 - gap, shell_box.1 + gap);
    let gap2 = gap * gap;
    other
        .iter()
        .map(|p| {
            p.cmpge(lo).all()
                && p.cmple(hi).all()
                && shell.iter().any(|q| p.distance_squared(*q) <= gap2)
        })
        .collect()
}

/// Median over sampled vertices of `from` of the distance to the nearest
/// vertex of `to`.
fn median_gap(from: &[Vec3], to: &[Vec3]) -> f32 {
    let step = from.len().div_ceil(LAYER_SAMPLES).max(1);
    let gaps: Vec<f32> = from
        .iter()
        .step_by(step)
        .map(|p| to.iter().map(|q| p.distance_squared(*q)).fold(f32::INFINITY, f32::min).sqrt())
        .collect();
    percentile(&gaps, 0.5)
}

/// Gives the shells of a part that its geodesic coordinate does not reach
/// (`geodesic[i]` infinite for `welded[i]`) the coordinate of the nearest
/// vertex it does reach. A part merged from a tail's skin and the fur over
/// it meets the body only through the skin; once the part grows towards
/// the body its coordinate is measured from the skin's root ring alone, the
/// fur is out of reach, and every fur vertex rode the chain's last bone
/// (corpus seeds 98 and 181: the fur's weighted bone distance 6x the
/// skin's). The fur lies over the skin: the skin under a fur vertex is
/// where along the tail it is, so fur and skin at one cross-section share a
/// coordinate (and a bone), as a rigger transferring the skin's weights to
/// the fur by proximity would have them. Measured from the fur's own root
/// instead, its coordinate drifts from the skin's along a bending tail,
/// and the chain's joints, centred on each coordinate's ring of both
/// shells, left the centre line (seed 22: 3.5 local radii).
pub fn reach_detached_shells(positions: &[Vec3], welded: &[u32], geodesic: &mut [f32]) {
    let reached: Vec<usize> = (0..welded.len()).filter(|&i| geodesic[i].is_finite()).collect();
    if reached.len() == welded.len() || reached.is_empty() {
        return;
    }
    let points: Vec<Vec3> = reached.iter().map(|&i| positions[welded[i] as usize]).collect();
    let grid = crate::geometry::NearestPoints::new(&points);
    for i in 0..welded.len() {
        if !geodesic[i].is_finite() {
            if let Some(k) = grid.nearest(positions[welded[i] as usize]) {
                geodesic[i] = geodesic[reached[k]];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tube(radius: f32, length: f32, twist: f32) -> Vec<Vec3> {
        let mut out = Vec::new();
        for k in 0..=20 {
            for i in 0..12 {
                let a = (i as f32 + twist) * std::f32::consts::TAU / 12.0;
                out.push(Vec3::new(radius * a.cos(), radius * a.sin(), length * k as f32 / 20.0));
            }
        }
        out
    }

    fn box_of(p: &[Vec3]) -> (Vec3, Vec3) {
        crate::appendage::shape::bounds(p.iter().copied())
    }

    #[test]
    fn fur_over_skin_is_a_layer_and_a_parallel_tube_is_not() {
        let skin = tube(0.1, 1.0, 0.0);
        let fur = tube(0.115, 1.0, 0.3);
        assert!(are_layers(&skin, box_of(&skin), &fur, box_of(&fur)));
        // A second tube of the same size one diameter aside: boxes overlap
        // by half, but it is no layer.
        let beside: Vec<Vec3> = skin.iter().map(|p| *p + Vec3::new(0.2, 0.0, 0.0)).collect();
        assert!(!are_layers(&skin, box_of(&skin), &beside, box_of(&beside)));
        // A short stub lying inside the tube's root is near the tube, but
        // the tube is not near it.
        let stub: Vec<Vec3> = skin.iter().take(36).copied().collect();
        assert!(!are_layers(&stub, box_of(&stub), &fur, box_of(&fur)));
    }
}
