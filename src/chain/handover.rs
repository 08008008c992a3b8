//! The tail's root hands over (issue 13): across a band at the root of the
//! tail, as wide as the tail is thick there, the tail's skin goes from half
//! on the body's bone it hangs from (the pelvis, the chain's parent) to the
//! chain's weights alone.
//!
//! Why: whatever the rigger did with the tail (put it on a leg, the pelvis
//! or the spine), the chain's first ring of skin meets rump skin. SPEC T9
//! gives that ring half to the pelvis and fades it out within a fraction of
//! a segment; on a thick, short-boned tail that fraction is a few edges,
//! and those edges carry the whole turn of the tail's first bone against
//! the rump. Fading over the root's own thickness spreads the turn, so a
//! thick tail's wide root and a thin tail's narrow one bend over the same
//! share of their thickness. The chain still owns the tail to where it
//! meets the body (at least half of every tail vertex's weight), and only
//! the tail's own skin changes: the body keeps the rigger's weights
//! exactly. Decided from the
//! mesh (the part, where it meets the body, geodesic distance), never from
//! a truth file; the same for any rigger. The band starts, per vertex,
//! from the share the rigger gave it off the body when the rigger's tail
//! shows it (a template rigger's legs hold the artist's fade), never above
//! half ([`starting_share`]). Measured and rejected: starting
//! the tail on the weights of the body skin next to it (it tore 30 to 110
//! edges the rigid tail keeps on the four Quaternius animals and the rat:
//! a template rigger's rump skin follows a leg); starting it wholly on the
//! pelvis (the root ring then is not the chain's, recall fell to 0.5-0.7);
//! handing the rump over to the pelvis (thigh skin compressed).

use crate::geometry::{geodesic_within, ring_radius, MeshGraph, Weld};
use crate::rig::{JointRoles, Rig};

/// Width of the hand-over band in radii of the tail's root ring (the
/// median distance of the tail's boundary vertices from their centre),
/// at most the first bone's length. 2.0 is the root's thickness: when the
/// first bone turns by `theta` against the pelvis, skin at the root's
/// radius `r` moves `theta r` relative to the rump, spread over the band's
/// width `W`, so its edges stretch by about `theta r / W` = `theta / 2`.
/// Measured on the twelve degraded fixtures' first two clips (24 times
/// each, edges torn that the rigid tail keeps): 311 with no band, 321 with
/// two radii, the difference on the phoenix (whose chains are on the wrong
/// part) and the rabbit (whose first bone turns far past its stop); the
/// seam edges that tear are the rump's own, on a leg, against the root
/// ring's half on the chain. 0 turns the band off (SPEC T9's fade alone).
pub const HANDOVER_RADII: f32 = 2.0;

/// The widest hand-over band, in root radii: wider would leave a tail's
/// first bone on the pelvis, which is not repairing it.
pub const MAX_HANDOVER_RADII: f32 = 8.0;

/// Where a part meets the rest of the mesh: its welded vertices with a
/// neighbour outside it, and the ring's radius.
pub struct RootRing {
    /// Welded vertices of the part with a neighbour outside it.
    pub boundary: Vec<u32>,
    /// Median distance of the boundary from its centroid, model units.
    pub radius: f32,
    /// Per welded vertex of the mesh: in the part. Kept for [`band`]'s
    /// walk, which asks it per edge (a binary search of the part each).
    inside: Vec<bool>,
}

/// The ring where `part` (sorted welded vertices) meets the body; `None`
/// for a separate shell (no edge to the body: no seam to hand over).
pub fn root_ring(weld: &Weld, graph: &MeshGraph, part: &[u32]) -> Option<RootRing> {
    // Membership read from a mask, not a binary search of the part per
    // neighbour (six searches per vertex of a 29k-vertex tail).
    let mut inside = vec![false; graph.vertex_count()];
    for &v in part {
        inside[v as usize] = true;
    }
    let boundary: Vec<u32> = part
        .iter()
        .copied()
        .filter(|&v| graph.neighbors_of(v as usize).iter().any(|&w| !inside[w as usize]))
        .collect();
    let radius = ring_radius(&weld.positions, &boundary)?;
    Some(RootRing { boundary, radius, inside })
}

/// The pelvis' share of a tail vertex at geodesic distance `d` from the
/// root ring, in a band of width `width`: half at the ring (the chain owns
/// the tail to where it meets the body, half its weight on the root bone),
/// none at the band's end, smooth at both ends (no crease where the band
/// starts or stops).
pub fn pelvis_share(d: f32, width: f32) -> f32 {
    pelvis_share_from(d, width, 0.5)
}

/// The pelvis' share at `d` in a band of width `width` whose chain share
/// starts at `start` on the ring (`1 - start` on the pelvis there) and
/// fades smoothly to the chain alone at the band's end: for a fixed start,
/// the chain's share never falls along the tail.
pub fn pelvis_share_from(d: f32, width: f32, start: f32) -> f32 {
    if width <= 0.0 {
        return 0.0;
    }
    let x = (d / width).clamp(0.0, 1.0);
    (1.0 - start.clamp(0.0, 1.0)) * (1.0 - x * x * (3.0 - 2.0 * x))
}

/// Per joint: one of the body's (the roles' pelvis, spine, neck, head and
/// trunk) or the chain's parent `anchor`. Everything else (legs, arms,
/// wings, controls) is off the body: a template rigger with no tail bone
/// gave the tail's skin to the legs it found nearest.
pub fn body_joints(joint_count: usize, roles: &JointRoles, anchor: u32) -> Vec<bool> {
    let mut body = vec![false; joint_count];
    let named = roles.pelvis.iter().chain(&roles.neck).chain(&roles.head);
    for &j in named.chain(&roles.spine).chain(&roles.trunk) {
        if j < joint_count {
            body[j] = true;
        }
    }
    if (anchor as usize) < joint_count {
        body[anchor as usize] = true;
    }
    body
}

/// Per welded vertex of `part`: the share of the rigger's weight on joints
/// off the body (`body`), averaged over the vertex's seam copies.
pub fn off_body_shares(rig: &Rig, weld: &Weld, part: &[u32], body: &[bool]) -> Vec<f32> {
    part.iter()
        .map(|&w| {
            let members = weld.members_of(w as usize);
            let sum: f32 = members
                .iter()
                .map(|&v| {
                    let (js, ws) = rig.influences().of(v as usize);
                    js.iter()
                        .zip(ws)
                        .filter(|(&j, _)| !body[j as usize])
                        .map(|(_, &x)| x)
                        .sum::<f32>()
                })
                .sum();
            if members.is_empty() {
                0.0
            } else {
                sum / members.len() as f32
            }
        })
        .collect()
}

/// The chain's share on the root ring, per vertex of the band: the share
/// the rigger gave the vertex off the body, read against what it gave the
/// tail's own skin past the band (`tail`: the median off-body share there),
/// and never more than half (the band's start: the hand-over only ever
/// gives the body more). A template rigger with no tail bone gave each
/// vertex's tail share to the legs, so on its root skin that share is the
/// fade the artist drew. When the tail past the band carries no off-body
/// weight (the rigger left it on the pelvis or the spine), or the vertex
/// itself none (a nearest-bone rigger's root skin on the pelvis: read as a
/// fade it cost 78 corpus seeds their recall), there is no fade to read and
/// the band starts at half.
pub fn starting_share(off_body: f32, tail: f32) -> f32 {
    if tail.is_nan() || tail <= 0.0 || off_body.is_nan() || off_body <= 0.0 {
        return 0.5;
    }
    (off_body / tail).clamp(0.0, 0.5)
}

/// Each welded vertex of the ring's part within `width` of the ring
/// (walking inside the part, by the ring's own part mask), with its
/// geodesic distance from the ring.
pub fn band(weld: &Weld, graph: &MeshGraph, ring: &RootRing, width: f32) -> Vec<(u32, f32)> {
    if width <= 0.0 {
        return Vec::new();
    }
    geodesic_within(graph, &weld.positions, &ring.boundary, width, |w| ring.inside[w as usize])
}

/// The chain's row with at least `share` of it on `parent` (the chain's
/// own bones scaled to the rest): SPEC T9 already gives the root ring half
/// to the pelvis, fading over a fraction of a segment; the band makes that
/// fade as long as the root is thick.
pub fn blend(parent: u32, chain: &[(u32, f32)], share: f32) -> Vec<(u32, f32)> {
    let own = chain.iter().filter(|(j, _)| *j == parent).map(|&(_, w)| w).sum::<f32>();
    if own >= share {
        return chain.to_vec();
    }
    let rest = 1.0 - own;
    let scale = if rest > 0.0 { (1.0 - share) / rest } else { 0.0 };
    let mut row: Vec<(u32, f32)> =
        chain.iter().filter(|(j, _)| *j != parent).map(|&(j, w)| (j, w * scale)).collect();
    row.push((parent, share));
    row.retain(|&(_, w)| w > 0.0);
    row.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    row
}
