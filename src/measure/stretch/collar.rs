//! The collar band: the skin on both sides of where the tail meets the body,
//! found by geodesic distance over the welded surface from the tail's root
//! seam. Tail and body rows of the whole-mesh table leave it out, so a tear
//! at the root is counted in the collar row and nowhere else, and the body
//! row is the skin a tail repair has no business moving.

use glam::Vec3;

use super::motion::tail_ends;
use crate::error::Result;
use crate::geometry::{geodesic_from, MeshGraph, Weld, WELD_TOLERANCE_RATIO};
use crate::rig::Rig;

/// Geodesic reach of the collar band on each side of the tail's root seam,
/// in diameters of the tail's root ring. One thickness of the tail: the
/// weights a repair changes next to the root (SPEC T9's blend with the
/// pelvis, a hand-over to the body) span a fraction of the first bone, and
/// caudal's bones are at least 1.25 thicknesses long (`segment_thickness`),
/// so a band of one thickness holds them; a hind leg's skin further out
/// is body. Relative to the part's own thickness, so it is the same band on
/// a mouse and a dragon.
pub const COLLAR_BAND_DIAMETERS: f32 = 1.0;

/// Geodesic distance of every vertex from the tail's root seam.
#[derive(Clone, Debug, PartialEq)]
pub struct CollarBand {
    /// Per vertex: geodesic distance from the root seam (model units;
    /// infinity where the surface does not reach).
    pub distance: Vec<f32>,
    /// The band's reach on each side, model units.
    pub width: f32,
    /// Radius of the tail's root ring (mean distance of the seam from its
    /// centre).
    pub root_radius: f32,
    /// False when the tail is a separate shell: the band then starts at the
    /// tail's root end and, on the body side, at body vertices within the
    /// root radius of the root ring's centre.
    pub seam: bool,
}

impl CollarBand {
    /// Vertex `v` lies in the band.
    pub fn contains(&self, v: u32) -> bool {
        self.distance[v as usize] <= self.width
    }
}

/// The collar band of `tail` (vertex ids) on `rig`; `anchor` is the joint the
/// tail hangs from (for a tail that is a separate shell, whose root end is
/// the part nearest it).
pub fn collar_band(rig: &Rig, tail: &[u32], anchor: usize, diameters: f32) -> Result<CollarBand> {
    let ends = tail_ends(rig, tail, anchor)?;
    let n = rig.vertex_count();
    let weld = Weld::by_position(rig.vertices(), WELD_TOLERANCE_RATIO * rig.diagonal());
    let wn = weld.count();
    let mut on_tail = vec![false; wn];
    for &v in tail {
        on_tail[weld.welded_of[v as usize] as usize] = true;
    }
    let graph = MeshGraph::from_triangles(wn, &weld.triangles(rig.triangles()));
    let mut sources: Vec<u32> = Vec::new();
    let mut ring: Vec<Vec3> = Vec::new();
    for w in 0..wn {
        if on_tail[w] && graph.neighbors_of(w).iter().any(|&u| !on_tail[u as usize]) {
            ring.push(weld.positions[w]);
            sources.push(w as u32);
            sources.extend(graph.neighbors_of(w).iter().copied().filter(|&u| !on_tail[u as usize]));
        }
    }
    let seam = !ring.is_empty();
    let radius_of = |pts: &[Vec3]| {
        let c = pts.iter().copied().sum::<Vec3>() / pts.len().max(1) as f32;
        (c, pts.iter().map(|p| (*p - c).length()).sum::<f32>() / pts.len().max(1) as f32)
    };
    let (centre, root_radius) = if seam {
        radius_of(&ring)
    } else {
        // A separate shell: its root end, and the body skin round it.
        let head = rig.bind_heads()[anchor];
        let d: Vec<f32> =
            tail.iter().map(|&v| (rig.vertices()[v as usize] - head).length()).collect();
        let (lo, hi) =
            d.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(l, h), &x| (l.min(x), h.max(x)));
        let band = super::TAIL_END_SHARE * (hi - lo);
        let root: Vec<u32> =
            tail.iter().zip(&d).filter(|(_, &x)| x <= lo + band).map(|(&v, _)| v).collect();
        let pts: Vec<Vec3> = root.iter().map(|&v| rig.vertices()[v as usize]).collect();
        sources.extend(root.iter().map(|&v| weld.welded_of[v as usize]));
        let (_, r) = radius_of(&pts);
        (ends.root, r)
    };
    if !seam {
        let near = |(w, p): (usize, &Vec3)| {
            (!on_tail[w] && (*p - centre).length() <= root_radius).then_some(w as u32)
        };
        sources.extend(weld.positions.iter().enumerate().filter_map(near));
    }
    sources.sort_unstable();
    sources.dedup();
    let all: Vec<u32> = (0..wn as u32).collect();
    let welded = geodesic_from(&graph, &weld.positions, &all, &sources);
    let distance = (0..n).map(|v| welded[weld.welded_of[v] as usize]).collect();
    Ok(CollarBand { distance, width: diameters * 2.0 * root_radius, root_radius, seam })
}
