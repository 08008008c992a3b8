//! A sheet's two faces are one place along the chain's coordinate.
//!
//! A tail modelled as a two-sided sheet (a feathered ribbon, a fin) is
//! often two layers of triangles a hair apart, joined only at the tip, with
//! the front face meeting the body. The coordinate walks the mesh, so it
//! runs out along the front face and back along the other: the phoenix's
//! ribbon (`assets/phoenix_bird`) read 952 of 956 units on the back face
//! beside its root, 38 on the front, and its chain's joints came back
//! towards the root (`tail_u` 0.06, 0.32, 0.65, 0.50, 0.12). Read across
//! twins ([`crate::geometry::twin_pairs`]) the back face lies where the
//! front does. Only a part given a chain is read again: the decision was
//! taken on the walk along the mesh, and finding twins over every part
//! cost the 200k-vertex bench creature's detection 29% more instructions.

use super::surface::LENGTH_PERCENTILE;
use super::PartGeometry;
use crate::appendage::report::{Decision, PartReport};
use crate::geometry::{relax_across_twins, MeshGraph, Weld};
use crate::stats::percentile;

/// Each part given a chain: its coordinate relaxed across its twins, its
/// length (and its report's) measured again on it; unchanged without
/// twins.
pub(super) fn sheet_faces_share_their_place(
    parts: &mut [PartGeometry],
    reports: &mut [PartReport],
    weld: &Weld,
    graph: &MeshGraph,
    height: f32,
) {
    for (part, report) in parts.iter_mut().zip(reports.iter_mut()) {
        if report.decision != Decision::Chain {
            continue;
        }
        let relaxed = relax_across_twins(graph, &weld.positions, &part.welded, &part.geodesic);
        let Some(g) = relaxed else { continue };
        part.length = percentile(&g, LENGTH_PERCENTILE);
        part.geodesic = g;
        report.length = part.length;
        report.length_ratio = part.length / height;
    }
}
