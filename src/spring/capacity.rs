//! How far a tail may bend before its skin tears: its bend capacity.
//!
//! Linear blend skinning spreads a joint's bend over the skin between the
//! neighbouring bones' middles, so an edge on the outside of a bend of `θ`
//! stretches by about `θ r / ℓ` (skin radius `r`, bone length `ℓ`). The
//! article's angles (a 50° carry, a 30° stop) were set on a slender fox
//! tail; a stub whose bones are shorter than its skin is thick (the
//! Alpaca's: three bones of 0.8 times its thickness) tears at the same
//! angles. Its carry and stop are scaled down by the capacity
//! `κ = min(1, ℓ / (ratio · thickness))`: the tail bends as far as a
//! slender one would per unit of skin, in proportion.

use glam::Vec3;

use super::chain::TailChain;
use crate::geometry::thickness;
use crate::rig::Rig;

/// Centre line of the chain in bind space: the bones' heads and the tip
/// (`Tail_End`, or the last segment continued at its incoming length).
fn centre_line(rig: &Rig, chain: &TailChain) -> Vec<Vec3> {
    let bind = rig.bind_world();
    let mut line: Vec<Vec3> = chain.bones.iter().map(|&j| bind[j].w_axis.truncate()).collect();
    match chain.end {
        Some(e) => line.push(bind[e].w_axis.truncate()),
        None => {
            let n = line.len();
            let before = if n >= 2 { line[n - 2] } else { bind[chain.anchor].w_axis.truncate() };
            line.push(2.0 * line[n - 1] - before);
        }
    }
    line
}

/// The tail's thickness (twice the 90th-percentile distance of the skin
/// the chain's bones dominate from its centre line) and its mean bone
/// length, bind space. `None` when no vertex is dominated by the chain.
pub fn chain_thickness(rig: &Rig, chain: &TailChain) -> Option<(f32, f32)> {
    let line = centre_line(rig, chain);
    let inf = rig.influences();
    let skin: Vec<Vec3> = rig
        .vertices()
        .iter()
        .enumerate()
        .filter(|&(v, _)| {
            let (joints, weights) = inf.of(v);
            let dominant = joints
                .iter()
                .zip(weights)
                .max_by(|a, b| a.1.total_cmp(b.1))
                .map(|(j, _)| *j as usize);
            dominant.is_some_and(|j| chain.bones.contains(&j))
        })
        .map(|(_, &p)| p)
        .collect();
    if skin.is_empty() {
        return None;
    }
    let length: f32 = line.windows(2).map(|s| s[0].distance(s[1])).sum();
    Some((thickness(skin, &line), length / chain.bones.len() as f32))
}

/// `κ = min(1, mean bone length / (ratio · thickness))`; 1 when `ratio` is
/// 0 or the chain carries no skin.
pub fn bend_capacity(rig: &Rig, chain: &TailChain, ratio: f32) -> f32 {
    if ratio <= 0.0 {
        return 1.0;
    }
    match chain_thickness(rig, chain) {
        Some((t, l)) if t > 0.0 && l.is_finite() => (l / (ratio * t)).min(1.0),
        _ => 1.0,
    }
}
