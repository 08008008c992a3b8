//! A chain's part gives back skin it holds only along its cut, a root
//! thickness or more from its root ring: body skin the cut took beside the
//! tube.

use glam::Vec3;

use super::part::drop_from_part;
use super::surface::{collar_after_giving_back, cut_centre, Members};
use super::PartGeometry;
use crate::appendage::params::CAUGHT_SKIN_RADII;
use crate::appendage::report::{Decision, PartReport};
use crate::appendage::shape::centroid;
use crate::error::Result;
use crate::geometry::{ring_radius, BoneDistance, MeshGraph, Weld};

/// Each part that gets a chain gives back to the body the skin it holds
/// only along its cut (a vertex of the part next to none of its inside, the
/// skin whose neighbours are all the part's) that lies farther than
/// [`CAUGHT_SKIN_RADII`] of the root ring's radii from the ring's centre
/// (the ring: the part's edge vertices next to its inside). Such skin
/// touches the tail only through the cut: the torso's rear pole under a
/// short level tail's tip, joined to the part by a fan edge from the seam,
/// or a tongue of rump skin by a hanging tail's root. The chain's
/// hand-over gives the part's edge half its weight on the first bone
/// ([`crate::chain::pelvis_share`]), and that bone's turn moves skin a
/// thickness or more from the root as far as the tail's own: the body
/// drifted 0.3-4.3% of H (bar 0.2%) on generated look seeds 40112, 40650,
/// 40765, 40805 and 43155, each of which passed every detection bar.
/// Read on the parts as made, joins included: a tip piece another chain
/// part encloses meets its host along a ring, which read before the join
/// was skin on the cut. A shell with no inside (a stub two rings long) is
/// left whole. Its length stands (the skin given back lies on its cut, not
/// at its tip); its collar takes the skin given back, its bone distance
/// before is measured again over what it keeps, and its root, when that is
/// the centre of its cut (`PartGeometry::root_at_cut`), is measured again
/// on the cut that is left: the centre averages the cut's edges, and the
/// edges round skin given back lie where that skin was. Left standing, the
/// chain's root joint sat a root radius behind the root and aside (look
/// seeds 44158, 46970 and 48895, level tails whose part as made flared up
/// to three root radii back over the rump: 1.37, 1.20 and 1.20 local radii
/// off the centre line, bar 1).
pub(super) fn give_back_caught_skin(
    parts: &mut [PartGeometry],
    reports: &mut [PartReport],
    weld: &Weld,
    graph: &MeshGraph,
    bones: &mut BoneDistance,
) -> Result<()> {
    for (p, r) in parts.iter_mut().zip(reports.iter_mut()) {
        if r.decision != Decision::Chain {
            continue;
        }
        let back = caught_skin(&p.welded, &weld.positions, graph);
        if back.is_empty() {
            continue;
        }
        drop_from_part(p, r, |v| back.binary_search(&v).is_ok(), weld, bones)?;
        p.collar = collar_after_giving_back(graph, &p.collar, &back, &p.welded);
        r.collar_vertex_count = p.collar.len();
        if p.root_at_cut {
            p.root = cut_centre(graph, &weld.positions, &p.welded, &p.collar);
        }
    }
    Ok(())
}

/// The skin of `welded` (sorted) that [`give_back_caught_skin`] gives
/// back, sorted.
fn caught_skin(welded: &[u32], positions: &[Vec3], graph: &MeshGraph) -> Vec<u32> {
    let members = Members::new(welded, positions.len());
    let inside: Vec<bool> = welded
        .iter()
        .map(|&v| graph.neighbors_of(v as usize).iter().all(|&w| members.contains(w)))
        .collect();
    let is_inside = |w: u32| welded.binary_search(&w).is_ok_and(|i| inside[i]);
    let (mut ring, mut on_cut) = (Vec::new(), Vec::new());
    for (&v, &i) in welded.iter().zip(&inside) {
        if !i {
            let near_inside = graph.neighbors_of(v as usize).iter().any(|&w| is_inside(w));
            if near_inside {
                ring.push(v)
            } else {
                on_cut.push(v)
            }
        }
    }
    if on_cut.is_empty() {
        return on_cut;
    }
    let Some(radius) = ring_radius(positions, &ring) else { return Vec::new() };
    let centre = centroid(ring.iter().map(|&v| positions[v as usize]));
    on_cut.retain(|&v| positions[v as usize].distance(centre) > CAUGHT_SKIN_RADII * radius);
    if on_cut.is_empty() {
        return on_cut;
    }
    // A shell with no inside keeps its skin.
    let mut back: Vec<u32> = graph
        .pieces(welded)
        .into_iter()
        .filter(|shell| shell.iter().any(|&v| is_inside(v)))
        .flatten()
        .filter(|v| on_cut.binary_search(v).is_ok())
        .collect();
    back.sort_unstable();
    back
}
