//! T5: shells that overlap merged into parts (fur over skin), the member a
//! merged part hangs from, and which parts are one of a mirrored pair.

use glam::Vec3;

use super::candidates::Origin;
use super::components::Component;
use super::surface::{cut_centre, Shells, Surface};
use crate::appendage::layers::{are_layers, under_shell};
use crate::appendage::midline::{paired_off_midline, root_radius, MirrorPlane, Paired, Root};
use crate::appendage::params::DetectParams;
use crate::appendage::shape::box_overlap;
use crate::geometry::MeshGraph;

/// T5: shells whose boxes overlap by more than half are one part (fur over
/// skin, never welded) when they are separate surfaces hanging from one
/// attachment and the smaller lies under the larger (more than the same
/// share of its vertices within [`under_shell`]'s gap of it), or lie over each
/// other as one tube's layers (see [`crate::appendage::layers`]: a detached fur shell's
/// attachment is not where the tail leaves the body), or both from one
/// joint by the bones that move their skin (`Component::reattached`: pieces
/// of a tail that a chain moving none of it cut apart and took as nearest
/// bone, the phoenix's ribbon). A piece whose nearest chain moves it keeps
/// that joint: read again by the bones that move it, a scrap of rump beside
/// a hip would hang from the pelvis as a tail does and take the tail's
/// root off the midline (corpus 8081). Shells whose collars'
/// centres lie within the smaller of their two ring radii are one tube cut
/// across, whatever their boxes and joints: each collar is the other's cut,
/// and a part left with its cut at the middle of a tail reads backwards,
/// as a second tail hanging from the first one's root (corpus seed 222: the
/// fur's root half hung from the shoulder, the rest from the hind leg,
/// their roots 0.0013 apart against a ring radius of 0.028). The ring
/// radius is each shell's own thickness at its cut: no new constant. A cut
/// runs through one surface, so the two pieces are joined by its edges:
/// each one's collar holds skin of the other. Two shells whose collars
/// merely meet in space (a skirt's waist around a tail's root, a second
/// tube starting where the first does) share no edge and stay apart
/// (never-used seeds 6434, 6540, 6699: the centres 0.24-0.92 of the smaller
/// ring radius apart, no edge between the shells, merged into parts
/// that lost or misplaced the tail's chain).
/// A covering (a shell lying on the body) merges with a shell that stands
/// out of it only as its layer: a blanket is not a tail's fur, but a short
/// thick tail hanging against the rump reads as lying on the body while
/// the fur proud of it stands out, and the two are still one tube. The
/// carve ([`Surface::carve_under_shells`]) leaves a whole part that is a
/// shell's layer to this merge, so refusing it here left the skin and the
/// fur one chain each, each holding half the tail (look-window seeds
/// 40803, 44454, 55270: recall 0.500).
/// A box says nothing of what lies in it: a skin under its fur lies under
/// it all (every merge of look seeds 40411, 40667, 41620, 43989, 52861:
/// each vertex of the smaller under the larger), but a scrap of rump skin
/// beside a separate tail's shell, or a piece of a cape by its root, only
/// shares its box. Merged with the tail, such a piece gave the part its
/// collar and its root: the chain's root joint 2.55 and 3.12 local radii
/// off the centre line (look seeds 48175, 51146: 8% and 7% of the smaller
/// under the larger), or the part read broad or body (45661, 53852: 3%).
/// Measured at stop 69: look windows gained those four and lost none,
/// 0..2200 was unchanged, and the six never-used windows gained four
/// (6603, 16124, 24508, 60097) and lost none. A scrap lying under
/// the tail still merges (46356: 7 welded vertices, 86% under the tail's
/// shells; it leads the part, and the tail is read as a 0.024 H stub).
/// Two pieces of one surface are not shells: a box overlap and a common
/// attachment say nothing of them. The torso's rear end round its pole
/// (a ring of body skin) and the short hanging tail below it, peeled apart
/// with the tail's root ring left between them, were one part by their
/// boxes and were judged together: the tail got no chain (look-window
/// seeds 40199, 50502: not long, a broad part), or the ring's skin joined
/// its chain (42510, 45264: precision 0.90), or it read reversed (42237).
/// Pieces of one surface are one part by their cut (`cut_across`), their
/// moving bones (`reattached`) or as layers. Measured at stop 52: look
/// windows 17 seeds gained, none lost; 0..2200 2 gained.
/// Returns the groups of component indices, each in order, by first member.
/// `shells` says which connected surface each part lies on.
pub(super) fn merge_shells(
    comps: &[Component],
    graph: &MeshGraph,
    shells: &Shells,
    positions: &[Vec3],
    params: &DetectParams,
    height: f32,
) -> Vec<Vec<usize>> {
    let pad = 1e-3 * height;
    let points = |c: &Component| -> Vec<Vec3> {
        c.welded().iter().map(|&v| positions[v as usize]).collect()
    };
    let layers =
        |a: &Component, b: &Component| are_layers(&points(a), a.box_(), &points(b), b.box_());
    // More than `merge_overlap` of the smaller shell's vertices lie under
    // the larger one (ties: `a` is the smaller).
    let smaller_under = |a: &Component, b: &Component| {
        let (small, large) = if a.welded().len() <= b.welded().len() { (a, b) } else { (b, a) };
        let under = under_shell(&points(large), large.box_(), &points(small));
        under.iter().filter(|&&u| u).count() as f32 > params.merge_overlap * under.len() as f32
    };
    let rings: Vec<Option<(Vec3, f32)>> = comps
        .iter()
        .map(|c| {
            let centre = cut_centre(graph, positions, c.welded(), c.collar());
            Some((centre, root_radius(positions, c.collar(), centre)?))
        })
        .collect();
    // `a`'s collar holds skin of `b`: an edge of the surface runs from one
    // across the other's cut.
    let meets = |a: &Component, b: &Component| {
        a.collar().iter().any(|v| b.welded().binary_search(v).is_ok())
    };
    let cut_across = |a: usize, b: usize| match (rings[a], rings[b]) {
        (Some((ca, ra)), Some((cb, rb))) => {
            ca.distance(cb) <= ra.min(rb)
                && meets(&comps[a], &comps[b])
                && meets(&comps[b], &comps[a])
        }
        _ => false,
    };
    let mut joined = Vec::new();
    for a in 0..comps.len() {
        for b in a + 1..comps.len() {
            let remainder = |c: &Component| matches!(c.origin, Origin::Remainder { .. });
            let same_cover = comps[a].covering == comps[b].covering;
            let overlap = box_overlap(comps[a].box_(), comps[b].box_(), pad) > params.merge_overlap;
            // Shells by their boxes and attachment are separate surfaces (above).
            let apart = shells.of_piece(comps[a].welded()) != shells.of_piece(comps[b].welded());
            if !remainder(&comps[a])
                && !remainder(&comps[b])
                && ((overlap
                    && ((same_cover
                        && ((apart
                            && comps[a].attachment == comps[b].attachment
                            && smaller_under(&comps[a], &comps[b]))
                            || (comps[a].reattached.is_some()
                                && comps[a].reattached == comps[b].reattached)))
                        || layers(&comps[a], &comps[b])))
                    || (same_cover && cut_across(a, b)))
            {
                joined.push((a, b));
            }
        }
    }
    classes(comps.len(), joined)
}

/// The classes of `0..count` that the `joined` pairs make (union-find), each
/// in order, listed by first member: a partition, whatever the pairs' order.
pub(super) fn classes(
    count: usize,
    joined: impl IntoIterator<Item = (usize, usize)>,
) -> Vec<Vec<usize>> {
    fn find(root: &mut [usize], mut i: usize) -> usize {
        while root[i] != i {
            root[i] = root[root[i]];
            i = root[i];
        }
        i
    }
    let mut root: Vec<usize> = (0..count).collect();
    for (a, b) in joined {
        let (ra, rb) = (find(&mut root, a), find(&mut root, b));
        root[ra.max(rb)] = ra.min(rb);
    }
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut slot = vec![usize::MAX; count];
    for i in 0..count {
        let r = find(&mut root, i);
        if slot[r] == usize::MAX {
            slot[r] = out.len();
            out.push(Vec::new());
        }
        out[slot[r]].push(i);
    }
    out
}

/// The welded vertices (sorted) and collar (sorted, each once) of a group
/// of merged components.
pub(super) fn merged_shells(group: &[usize], comps: &[Component]) -> (Vec<u32>, Vec<u32>) {
    let mut welded: Vec<u32> =
        group.iter().flat_map(|&c| comps[c].welded().iter().copied()).collect();
    welded.sort_unstable();
    let mut collar: Vec<u32> =
        group.iter().flat_map(|&c| comps[c].collar().iter().copied()).collect();
    collar.sort_unstable();
    collar.dedup();
    (welded, collar)
}

impl Surface<'_> {
    /// The member a merged part hangs from: the first, unless its shells
    /// hang from different joints (layers of one tube, see `merge_shells`):
    /// then the one whose join lies nearest the skeleton, where the tube
    /// leaves the body (a skin peeled at a saddle half way along the tail
    /// joins there; the fur over it reaches back to the root).
    pub(super) fn lead_shell(&self, group: &[usize], comps: &[Component]) -> usize {
        let first = group[0];
        if group.iter().all(|&c| comps[c].attachment == comps[first].attachment) {
            return first;
        }
        let depth = |c: usize| self.field.distance(comps[c].join);
        group.iter().copied().min_by(|&a, &b| depth(a).total_cmp(&depth(b))).unwrap_or(first)
    }

    /// Per group of merged shells: off the midline with a mirror twin (see
    /// [`crate::appendage::midline`]), judged where its far skin meets the body (a
    /// tail is grown back to its root only once it is judged one); `None`
    /// everywhere without a mirror plane.
    pub(super) fn paired(&self, groups: &[Vec<usize>], comps: &[Component]) -> Vec<Option<Paired>> {
        let Some(plane) = MirrorPlane::of(self.rig, self.roles) else {
            return vec![None; groups.len()];
        };
        let positions = &self.weld.positions;
        let roots: Vec<Option<Root>> = groups
            .iter()
            .map(|group| {
                if matches!(comps[group[0]].origin, Origin::Remainder { .. }) {
                    return None;
                }
                let (welded, collar) = merged_shells(group, comps);
                let centre = cut_centre(self.graph, positions, &welded, &collar);
                let radius = root_radius(positions, &collar, centre)?;
                Some(Root { centre, radius })
            })
            .collect();
        paired_off_midline(&plane, &roots)
    }
}
