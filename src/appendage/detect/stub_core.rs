//! A stub tail's part cut back to its own tube: where the far cut runs
//! over the rump beside a short tail, the part holds the stub and a lump
//! of haunch, joined only along the cut.

use super::root_growth::Growing;
use super::surface::Surface;
use super::verdict::ShapeTests;
use crate::appendage::decide::{is_long, Verdict};
use crate::appendage::report::Kind;

impl Surface<'_> {
    /// A stub's part (judged a tail, too short to be long, see [`is_long`])
    /// keeps, on each of its shells, only its tube's inside. A vertex is inside the part when all its
    /// neighbours are in it; a tube's inside is one connected piece, and a
    /// stub cut with a lump of haunch beside it (a short hanging tail on a
    /// quadruped's rump, the far level running round both: corpus look
    /// seeds 300 and 533, grown joints 2.4 and 3.9 local radii off the
    /// tail's line, precision 0.87 and 0.86) has two, which touch only
    /// through skin lying next to the body. The largest inside with the
    /// skin round it stays; the rest of the shell goes back to the body,
    /// and the collar and geodesic coordinate are measured again. A shell
    /// with one inside (or none: a stub two rings long) is left whole. No
    /// number: which piece stays is read from the part's own connectivity.
    pub(super) fn stub_to_its_core(
        &self,
        part: &mut Growing,
        verdict: &Verdict,
        tests: &ShapeTests,
        taken: &mut [bool],
    ) {
        if verdict.kind != Kind::Tail || is_long(self.params, tests.elongation, tests.tube) {
            return;
        }
        let kept = self.cores_kept(&part.welded);
        if kept.len() == part.welded.len() {
            return;
        }
        for &v in &part.welded {
            if kept.binary_search(&v).is_err() {
                taken[v as usize] = false;
            }
        }
        part.welded = kept;
        part.collar = self.collar(&part.welded);
        (part.geodesic, part.length) = self.geodesic_of(&part.welded, &part.collar);
    }

    /// What stays of `welded` (sorted), sorted, by the rule of
    /// [`Self::stub_to_its_core`]: its shells and their insides are the
    /// mesh's pieces of each ([`crate::geometry::MeshGraph::pieces`]).
    fn cores_kept(&self, welded: &[u32]) -> Vec<u32> {
        let graph = self.graph;
        let in_part = |w: &u32| welded.binary_search(w).is_ok();
        let mut kept = Vec::with_capacity(welded.len());
        for shell in graph.pieces(welded) {
            let inside: Vec<u32> = shell
                .iter()
                .copied()
                .filter(|&v| graph.neighbors_of(v as usize).iter().all(in_part))
                .collect();
            let cores = graph.pieces(&inside);
            if cores.len() < 2 {
                kept.extend(shell);
                continue;
            }
            // The largest inside; of equal ones, the one with the lowest
            // vertex (pieces come numbered so), so the choice is fixed.
            let core = cores.iter().fold(&cores[0], |a, b| if b.len() > a.len() { b } else { a });
            for &v in core {
                kept.push(v);
                kept.extend_from_slice(graph.neighbors_of(v as usize));
            }
        }
        kept.sort_unstable();
        kept.dedup();
        kept
    }
}
