//! A tail's part cut back to its own tube's inside: where the far cut runs
//! over the rump beside a short tail, the part holds the stub and a lump
//! of haunch, joined only along the cut; where the peel takes the torso's
//! rear end with a lengthwise half of a short hanging tail, the grown tail
//! holds that cap, joined to it at the tail's root ring.

use super::root_growth::Growing;
use super::surface::{collar_after_giving_back, Members, Surface};
use super::verdict::ShapeTests;
use crate::appendage::decide::{is_long, Verdict};
use crate::appendage::report::Kind;
use crate::appendage::root::marks;

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

    /// A grown tail's part (its tube whole, root to tip) cut back as
    /// [`Self::stub_to_its_core`] cuts a stub, but only where it started:
    /// of the skin outside its largest inside and the skin round it, each
    /// connected piece that holds skin of `start` (the piece the part grew
    /// from, with its resting tip) goes back to the body; pieces the growth
    /// alone added stay, as each growth step followed the tube. The collar
    /// (the old one and the given-back skin, where next to what stays) and
    /// the geodesic coordinate are measured again.
    ///
    /// The peel takes the torso's rounded rear end (the ring or two of
    /// coarse body mesh round its pole, past the end of the pelvis bone:
    /// see `demote_rim_only` in verdict.rs) in one piece with the far half,
    /// cut lengthwise, of a short tail hanging from it; the tail's other
    /// half stays in the body's remainder. The piece is long, so the stub
    /// rule passes it by, and grown back over the whole tube the chain part
    /// held the cap: 24-29 welded vertices of rump skin, precision
    /// 0.87-0.89, its root on the cap's rim, the chain read from the tip
    /// end (corpus look seeds 43668, 44583, 45467, 47844, 48911, 49009,
    /// 50091, 50506, 51257, 52032). The cap's inside meets the tail's only
    /// through the tail's root ring (on 43668 through one vertex of it).
    /// Grown skin stays because a fur tail's root strip that the root walk
    /// added can be an inside of its own touching the tube rim to rim
    /// (look seed 44531: 6 inside vertices, 24 tail vertices given back and
    /// recall 0.915 -> 0.871 when every smaller inside went). No number.
    pub(super) fn tail_to_its_core(&self, part: &mut Growing, start: &[u32], taken: &mut [bool]) {
        if !self.inside_is_split(&part.welded) {
            return;
        }
        let kept = self.cores_kept(&part.welded);
        if kept.len() == part.welded.len() {
            return;
        }
        let rest: Vec<u32> =
            part.welded.iter().copied().filter(|v| kept.binary_search(v).is_err()).collect();
        let mut back: Vec<u32> = self
            .graph
            .pieces(&rest)
            .into_iter()
            .filter(|piece| piece.iter().any(|v| start.binary_search(v).is_ok()))
            .flatten()
            .collect();
        if back.is_empty() {
            return;
        }
        back.sort_unstable();
        part.welded.retain(|v| back.binary_search(v).is_err());
        for &v in &back {
            taken[v as usize] = false;
        }
        part.collar = collar_after_giving_back(self.graph, &part.collar, &back, &part.welded);
        (part.geodesic, part.length) = self.geodesic_of(&part.welded, &part.collar);
    }

    /// Whether some shell of `welded` (sorted) has two or more insides, as
    /// [`Self::cores_kept`] reads them, labelled by marks over the mesh
    /// ([`crate::geometry::MeshGraph::components`]): every grown tail asks
    /// this of its whole part (26k vertices on the bench creature, where
    /// reading its pieces by binary search cost 12-20% of detection), and
    /// almost every part answers no.
    fn inside_is_split(&self, welded: &[u32]) -> bool {
        let graph = self.graph;
        let in_part = marks(self.weld.count(), welded);
        let mut inside = vec![false; self.weld.count()];
        for &v in welded {
            inside[v as usize] =
                graph.neighbors_of(v as usize).iter().all(|&w| in_part[w as usize]);
        }
        let (shell, _) = graph.components(&in_part);
        let (core, cores) = graph.components(&inside);
        // Each inside piece claims the shell it lies on; a shell claimed twice is split.
        let mut home = vec![u32::MAX; cores];
        for &v in welded.iter().filter(|&&v| inside[v as usize]) {
            home[core[v as usize] as usize] = shell[v as usize];
        }
        home.sort_unstable();
        home.windows(2).any(|p| p[0] == p[1])
    }

    /// What stays of `welded` (sorted), sorted, by the rule of
    /// [`Self::stub_to_its_core`]: its shells and their insides are the
    /// mesh's pieces of each ([`crate::geometry::MeshGraph::pieces`]).
    fn cores_kept(&self, welded: &[u32]) -> Vec<u32> {
        let graph = self.graph;
        let part = Members::new(welded, self.weld.count());
        let mut kept = Vec::with_capacity(welded.len());
        let mut cut = false;
        for shell in graph.pieces(welded) {
            let inside: Vec<u32> = shell
                .iter()
                .copied()
                .filter(|&v| graph.neighbors_of(v as usize).iter().all(|&w| part.contains(w)))
                .collect();
            let cores = graph.pieces(&inside);
            if cores.len() < 2 {
                kept.extend(shell);
                continue;
            }
            cut = true;
            // The largest inside; of equal ones, the one with the lowest
            // vertex (pieces come numbered so), so the choice is fixed.
            let core = cores.iter().fold(&cores[0], |a, b| if b.len() > a.len() { b } else { a });
            for &v in core {
                kept.push(v);
                kept.extend_from_slice(graph.neighbors_of(v as usize));
            }
        }
        if !cut {
            // Every shell whole: the part as it was (sorted).
            return welded.to_vec();
        }
        kept.sort_unstable();
        kept.dedup();
        kept
    }
}
