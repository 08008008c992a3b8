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
        let keep = self.cores_kept(&part.welded);
        if keep.iter().all(|&k| k) {
            return;
        }
        let mut kept = Vec::with_capacity(part.welded.len());
        for (&v, &k) in part.welded.iter().zip(&keep) {
            if k {
                kept.push(v);
            } else {
                taken[v as usize] = false;
            }
        }
        part.welded = kept;
        part.collar = self.collar(&part.welded);
        (part.geodesic, part.length) = self.geodesic_of(&part.welded, &part.collar);
    }

    /// Per vertex of `welded` (sorted): whether it stays, by the rule of
    /// [`Self::stub_to_its_core`].
    fn cores_kept(&self, welded: &[u32]) -> Vec<bool> {
        let graph = self.graph;
        let local = |w: u32| welded.binary_search(&w).ok();
        let inside: Vec<bool> = welded
            .iter()
            .map(|&v| graph.neighbors_of(v as usize).iter().all(|&w| local(w).is_some()))
            .collect();
        let mut keep = vec![true; welded.len()];
        for shell in pieces(welded.len(), |i| {
            graph.neighbors_of(welded[i] as usize).iter().filter_map(|&w| local(w)).collect()
        }) {
            let cores = pieces_within(&shell, &inside, |i| {
                graph.neighbors_of(welded[i] as usize).iter().filter_map(|&w| local(w)).collect()
            });
            if cores.len() < 2 {
                continue;
            }
            // The largest inside; of equal ones, the first met (the shell
            // is walked from its lowest vertex, so the choice is fixed).
            let core = cores.iter().fold(&cores[0], |a, b| if b.len() > a.len() { b } else { a });
            let mut stays = vec![false; welded.len()];
            for &i in core {
                stays[i] = true;
                for &w in graph.neighbors_of(welded[i] as usize) {
                    if let Some(j) = local(w) {
                        stays[j] = true;
                    }
                }
            }
            for &i in &shell {
                keep[i] = stays[i];
            }
        }
        keep
    }
}

/// The connected pieces of `0..n` under `next`, each walked from its
/// lowest index, in the order of those indices.
fn pieces(n: usize, next: impl Fn(usize) -> Vec<usize>) -> Vec<Vec<usize>> {
    let all: Vec<usize> = (0..n).collect();
    pieces_within(&all, &vec![true; n], next)
}

/// The connected pieces of the indices of `among` marked in `within`,
/// joined by `next` through marked indices only, each listed from its
/// lowest index in the order of `among`.
fn pieces_within(
    among: &[usize],
    within: &[bool],
    next: impl Fn(usize) -> Vec<usize>,
) -> Vec<Vec<usize>> {
    let mut seen = vec![false; within.len()];
    let mut out = Vec::new();
    for &start in among {
        if seen[start] || !within[start] {
            continue;
        }
        seen[start] = true;
        let mut piece = vec![start];
        let mut k = 0;
        while k < piece.len() {
            for j in next(piece[k]) {
                if within[j] && !seen[j] {
                    seen[j] = true;
                    piece.push(j);
                }
            }
            k += 1;
        }
        out.push(piece);
    }
    out
}
