//! T3: each candidate's collar and attachment; then a fur shell takes the
//! skin of another part that lies under it, and a far part joined by a
//! strip of back skin is walked back to its tip's tube.

use glam::Vec3;

use super::candidates::Origin;
use super::surface::{sorted_union, Members, Surface};
use crate::appendage::attach::{attachment_joint, Region};
use crate::appendage::decide::MIN_TUBE_VERTICES;
use crate::appendage::layers::{are_layers, under_shell};
use crate::appendage::root::{follow_tube, WalkFrom};
use crate::appendage::shape::bounds;

pub(super) use component::Component;

/// A candidate's lists and what is derived from them, kept apart so that
/// `welded` and `collar` change only through [`Component::set_lists`], which
/// measures the box again and drops the coordinate measured for the old
/// lists (three sites reset it by hand before; a fourth could forget).
mod component {
    use glam::Vec3;

    use crate::appendage::detect::candidates::Origin;
    use crate::appendage::shape::bounds;

    pub(in crate::appendage::detect) struct Component {
        welded: Vec<u32>,
        collar: Vec<u32>,
        box_: (Vec3, Vec3),
        pub(in crate::appendage::detect) attachment: Option<usize>,
        /// Where the skin hangs by the bones that move it, when its
        /// nearest bone's chain moves none of it and that is another joint
        /// ([`super::Surface::reattachment`]); else `None`.
        pub(in crate::appendage::detect) reattached: Option<usize>,
        pub(in crate::appendage::detect) origin: Origin,
        /// Where the part meets the body.
        pub(in crate::appendage::detect) join: Vec3,
        /// The shell lies on the body (see [`crate::appendage::decide::lies_on_body`]): a
        /// covering, never merged into a shell that stands out of it unless
        /// the two are one tube's layers (see [`super::super::merge::merge_shells`]).
        pub(in crate::appendage::detect) covering: bool,
        /// The geodesic coordinate of `welded` from `collar` and its length
        /// ([`super::Surface::geodesic_of`]), measured once for the covering
        /// test and read again by the walk to the tip's tube and by the part
        /// a shell makes alone (a 30k-vertex tail's coordinate costs 23 M
        /// instructions); `None` where it was not measured, or once the
        /// lists changed or the part took it.
        coordinate: Option<(Vec<f32>, f32)>,
    }

    impl Component {
        /// A candidate's component; `coordinate`, when given, measured from
        /// these `welded` and `collar`.
        pub(in crate::appendage::detect) fn new(
            (welded, collar): (Vec<u32>, Vec<u32>),
            positions: &[Vec3],
            (attachment, reattached, origin, join): (Option<usize>, Option<usize>, Origin, Vec3),
            covering: bool,
            coordinate: Option<(Vec<f32>, f32)>,
        ) -> Component {
            let box_ = bounds(welded.iter().map(|&v| positions[v as usize]));
            Component {
                welded,
                collar,
                box_,
                attachment,
                reattached,
                origin,
                join,
                covering,
                coordinate,
            }
        }

        /// The part's welded vertices, sorted.
        pub(in crate::appendage::detect) fn welded(&self) -> &[u32] {
            &self.welded
        }

        /// Where the part meets the body (welded vertices, sorted).
        pub(in crate::appendage::detect) fn collar(&self) -> &[u32] {
            &self.collar
        }

        /// The bounding box of `welded`.
        pub(in crate::appendage::detect) fn box_(&self) -> (Vec3, Vec3) {
            self.box_
        }

        /// The coordinate measured for the current lists, if any.
        pub(in crate::appendage::detect) fn coordinate(&self) -> Option<(&[f32], f32)> {
            self.coordinate.as_ref().map(|(g, l)| (g.as_slice(), *l))
        }

        /// Hands the coordinate measured for the current lists over (the
        /// part this shell makes alone); the component keeps none.
        pub(in crate::appendage::detect) fn take_coordinate(&mut self) -> Option<(Vec<f32>, f32)> {
            self.coordinate.take()
        }

        /// New lists: the box is measured again and the coordinate, measured
        /// for the old ones, is dropped.
        pub(in crate::appendage::detect) fn set_lists(
            &mut self,
            welded: Vec<u32>,
            collar: Vec<u32>,
            positions: &[Vec3],
        ) {
            self.box_ = bounds(welded.iter().map(|&v| positions[v as usize]));
            (self.welded, self.collar, self.coordinate) = (welded, collar, None);
        }
    }
}

/// The outer share of a part, by geodesic distance from its collar, that
/// is taken as the tail's own tube when a far part is walked back to its
/// root ([`Surface::trim_to_tip_tube`]): a strip of body skin joined to
/// the root is bounded by the collar on both sides, so its skin lies within
/// half its width of the collar, far less than half the length of a part
/// long enough to be a tail.
pub const TIP_BAND_SHARE: f32 = 0.5;

impl Surface<'_> {
    /// T3: collar and attachment of every candidate.
    pub(super) fn components(&self, candidates: Vec<(Vec<u32>, Origin)>) -> Vec<Component> {
        let positions = &self.weld.positions;
        candidates
            .into_iter()
            .map(|(welded, origin)| {
                let collar = self.collar(&welded);
                // Where the part joins the body decides where it hangs, not
                // what it passes near (a rat's tail lies along its feet).
                let (join, attachment) = self.joins_at(&welded, &collar);
                let reattached = self.reattachment(&welded, join, attachment);
                // Remainders never merge (see [`merge_shells`]).
                let coordinate = (!matches!(origin, Origin::Remainder { .. })
                    && welded.len() >= MIN_TUBE_VERTICES)
                    .then(|| self.geodesic_of(&welded, &collar));
                let covering = coordinate.as_ref().is_some_and(|(geodesic, length)| {
                    self.lies_on_body(&welded, geodesic, *length)
                });
                let lists = (welded, collar);
                let at = (attachment, reattached, origin, join);
                Component::new(lists, positions, at, covering, coordinate)
            })
            .collect()
    }

    /// A candidate on a shell of its own (fur: see [`Self::on_own_shell`])
    /// that lies over skin of another part along its length takes that
    /// skin: the tail's skin inside a far piece that wraps a body bone is the fur's
    /// tail, not the body. The skin taken must itself be the shell's layer
    /// (see [`are_layers`]), not a band of body skin round its open end.
    /// The other part hangs from another joint, or from the same one as a
    /// covering when the shell is not (T5 never merges those, see
    /// [`merge_shells`](super::merge::merge_shells)), or from the same one
    /// as far skin that fails the centroid test when the shell passes it:
    /// merged whole by T5, the tail's fur and skin were judged body with
    /// the rump's skin round them (look seeds 40092, 47652: 750 and 753
    /// welded vertices, centroid ratio 0.13 and 0.10). A covering
    /// ([`Self::is_covering`]: a blanket lying on the back) takes nothing
    /// from far skin that fails the centroid test: what lies under it is
    /// the body's (49826: a blanket took 127 vertices of the rump's far
    /// skin, the tail's root among them, and the tail got no chain). From
    /// far skin that fails the centroid test the shell takes one piece
    /// ([`Self::split_under`]).
    pub(super) fn carve_under_shells(&self, comps: &mut [Component]) {
        let positions = &self.weld.positions;
        let points =
            |w: &[u32]| -> Vec<Vec3> { w.iter().map(|&v| positions[v as usize]).collect() };
        let remainder = |c: &Component| matches!(c.origin, Origin::Remainder { .. });
        let own_shell = self.on_own_shell(comps);
        for f in 0..comps.len() {
            if remainder(&comps[f]) || !own_shell[f] {
                continue;
            }
            let shell = points(comps[f].welded());
            // Whether the shell is a covering, read once per list it has.
            let mut covers: Option<bool> = None;
            for c in 0..comps.len() {
                if c == f || remainder(&comps[c]) {
                    continue;
                }
                let body = self.fails_centroid_test(comps[c].welded());
                if body && *covers.get_or_insert_with(|| self.is_covering(comps[f].welded())) {
                    continue; // the skin under a blanket is the body's
                }
                // At one attachment T5 may merge the two whole, but never a
                // covering with a shell standing out of it: then only this
                // carve hands the skin to its fur (a thick rump's far skin,
                // lying on the body, held the tail's skin under a standing
                // fur). Nor far skin that wraps a bone with a shell that
                // does not: merged whole, the tail's fur and skin fail the
                // centroid test with the rump's skin round them.
                let whole_merge = comps[c].attachment == comps[f].attachment
                    && comps[c].covering == comps[f].covering;
                let tail_in_body = body && !self.fails_centroid_test(comps[f].welded());
                if whole_merge && !tail_in_body {
                    continue;
                }
                let other = points(comps[c].welded());
                if are_layers(&shell, comps[f].box_(), &other, comps[c].box_()) {
                    continue; // the whole part is the shell's layer: T5 merges them
                }
                let under = under_shell(&shell, comps[f].box_(), &other);
                let (skin, kept) = self.split_under(comps[c].welded(), &under, tail_in_body);
                let skin_box = bounds(skin.iter().map(|&v| positions[v as usize]));
                if skin.len() < self.params.min_part_vertices
                    || skin.len() == comps[c].welded().len()
                    || !are_layers(&points(&skin), skin_box, &shell, comps[f].box_())
                {
                    continue;
                }
                let collar = self.collar(&kept);
                comps[c].set_lists(kept, collar, positions);
                let mut welded = comps[f].welded().to_vec();
                welded.extend(skin);
                welded.sort_unstable();
                let collar = self.collar(&welded);
                comps[f].set_lists(welded, collar, positions);
                covers = None;
            }
        }
    }

    /// The vertices of `welded` (sorted) that `under` marks, and the rest.
    /// With `one_piece`, only the largest connected piece of the marked
    /// skin (the first of equals, by lowest vertex) is taken: where a fur
    /// lies against the rump, far skin that wraps a bone holds patches of
    /// rump under it beside the tail's own skin, and carried by the chain
    /// they tore the rump and moved the body (look seed 40092: the rump's
    /// rear pole under the fur's tip, three vertices 4.7-5.0 root radii
    /// from the root; 103 edges torn on the walk, the body moved 5.3% of
    /// the height; none and none with the tail's piece alone).
    fn split_under(&self, welded: &[u32], under: &[bool], one_piece: bool) -> (Vec<u32>, Vec<u32>) {
        let marked = welded.iter().zip(under).filter(|(_, &u)| u).map(|(&v, _)| v);
        let mut skin: Vec<u32> = marked.collect();
        if one_piece {
            let mut largest = Vec::new();
            for piece in self.graph.pieces(&skin) {
                if piece.len() > largest.len() {
                    largest = piece;
                }
            }
            skin = largest;
        }
        let kept = welded.iter().copied().filter(|v| skin.binary_search(v).is_err()).collect();
        (skin, kept)
    }

    /// A far part whose join reads as the spine may be a tail whose far skin
    /// runs on as a strip of back skin above its root (a thick back is far
    /// skin too): the strip pulls the collar's centre up the trunk. Walked
    /// back from its outer part ([`TIP_BAND_SHARE`]) as a tube
    /// ([`follow_tube`]), such a part stops where the tube opens onto the
    /// body; when the tube alone joins the trunk within the pelvis share,
    /// the part is that tube and the strip goes back to the body (its root
    /// skin is grown back later, as for any tail). A quiver or a cape does
    /// not change: walked back, it still joins the back, or it is no tube.
    pub(super) fn trim_to_tip_tube(&self, comps: &mut [Component]) {
        let positions = &self.weld.positions;
        for c in comps.iter_mut() {
            if !matches!(c.origin, Origin::Far { .. })
                || c.welded().len() < MIN_TUBE_VERTICES
                || self.region_of(c.attachment, c.join) != Region::Spine
            {
                continue;
            }
            let measured;
            let (geodesic, length) = match c.coordinate() {
                Some(coordinate) => coordinate,
                None => {
                    measured = self.geodesic_of(c.welded(), c.collar());
                    (measured.0.as_slice(), measured.1)
                }
            };
            let Some(welded) = self.tip_tube(c.welded(), geodesic, length) else { continue };
            if welded.len() < MIN_TUBE_VERTICES || welded.len() == c.welded().len() {
                continue;
            }
            let collar = self.collar(&welded);
            let (join, attachment) = self.joins_at(&welded, &collar);
            if self.region_of(attachment, join) != Region::Pelvis {
                continue;
            }
            c.reattached = self.reattachment(&welded, join, attachment);
            c.set_lists(welded, collar, positions);
            (c.join, c.attachment) = (join, attachment);
        }
    }

    /// Where far skin hangs by the bones that move it, when the joint it
    /// was attached to (`attachment`, the nearest bone to `join`) belongs to
    /// a chain that moves none of its skin: the attachment again in the
    /// field of the segments whose chains move some of it
    /// ([`Surface::moving_field`](super::surface::Surface::moving_field)), when that is another joint; otherwise
    /// `None`. A chain of plumes or hair off the pelvis may run through a
    /// tail's root without carrying any of the tail's weight (the phoenix,
    /// `assets/phoenix_bird`: `B_Hair_22..33` hold no weight on its 129
    /// tail vertices); being nearest, it is not where the tail hangs. A
    /// bone that moves the skin, however little, keeps it: the rigger's
    /// word is read, not overruled. No constant.
    pub(super) fn reattachment(
        &self,
        welded: &[u32],
        join: Vec3,
        attachment: Option<usize>,
    ) -> Option<usize> {
        if self.chain_moves(attachment?, welded) {
            return None;
        }
        let moving = self.moving_field(welded);
        attachment_joint(join, &moving, self.regions, self.params.attachment_bias)
            .filter(|&a| Some(a) != attachment)
    }

    /// A far part's own tube: its outer share ([`TIP_BAND_SHARE`] of its
    /// geodesic `length` from the collar) and the tube walked back from it
    /// inside the part ([`follow_tube`] from its tip ring) to where it opens onto
    /// the body or stops running along its tube, or to the collar. Sorted
    /// welded vertices; `None` when the outer share
    /// has no ring inside the part or the walk takes nothing.
    pub(super) fn tip_tube(
        &self,
        welded: &[u32],
        geodesic: &[f32],
        length: f32,
    ) -> Option<Vec<u32>> {
        let mut tip: Vec<u32> = welded
            .iter()
            .zip(geodesic)
            .filter(|&(_, &g)| g >= TIP_BAND_SHARE * length)
            .map(|(&v, _)| v)
            .collect();
        tip.sort_unstable();
        // The walk asks of every vertex it reaches whether it is the part's:
        // on a long tail that is tens of thousands of searches in the part,
        // marks answer them at a read each.
        let part = Members::new(welded, self.weld.count());
        let ring: Vec<u32> = self.collar(&tip).into_iter().filter(|&v| part.contains(v)).collect();
        if tip.is_empty() || ring.is_empty() {
            return None;
        }
        let taken = vec![false; self.weld.count()];
        let in_part = |v: u32| part.contains(v);
        let positions = &self.weld.positions;
        let tube = follow_tube(
            self.graph,
            positions,
            (&tip, &ring),
            length,
            &taken,
            &in_part,
            WalkFrom::TipRing,
        )
        .vertices;
        if tube.is_empty() {
            return None;
        }
        // Both sorted: merged, not sorted again together.
        Some(sorted_union(&tip, &tube))
    }

    /// Which candidates lie on a shell of their own: a connected piece of
    /// the surface that is not the body's skin (the shell with the most
    /// skin near the bones, see [`Shells`](super::surface::Shells)). A fur shell is one whether or
    /// not all of it is far skin: over a short tail only the fur's outer part stands past the far
    /// threshold, so the candidate is part of the shell, and testing the
    /// candidate alone for edges leaving it read that fur as body skin
    /// (corpus seeds 94 and 184: the chain grew on the fur, the skin under
    /// it stayed on the rigger's weights).
    fn on_own_shell(&self, comps: &[Component]) -> Vec<bool> {
        let shells = self.shells;
        comps
            .iter()
            .map(|c| match c.welded().first() {
                Some(&v0) => {
                    let s = shells.id[v0 as usize];
                    shells.own(v0) && c.welded().iter().all(|&v| shells.id[v as usize] == s)
                }
                None => false,
            })
            .collect()
    }
}
