//! A tail grown on to its tip: the rest of its tube beyond its far end
//! ring, and the far tip cap it encloses.

use std::collections::HashMap;

use super::root_growth::Growing;
use super::surface::{Members, Surface, LENGTH_PERCENTILE};
use crate::appendage::contact::root_collar;
use crate::appendage::params::ENCLOSED_CAP_DEPTH;
use crate::appendage::root::{follow_tube, WalkFrom, TUBE_JOIN_FLARE};
use crate::appendage::shape::tube_sections;
use crate::geometry::{geodesic_from_starts, ring_radius};
use crate::stats::percentile;

impl Surface<'_> {
    /// A tail whose part ends short of its tip takes the rest of its tube:
    /// the skin beyond its far end ring (a collar cluster reached through
    /// the part only after `FAR_CONTACT_SHARE` of its length, see
    /// [`root_collar`]) that the tube walk from that ring ([`follow_tube`],
    /// bounded as the walk back by the part's length or its tip's `reach`)
    /// takes whole: every vertex next to the walked skin is the part's,
    /// walked, or another part's. Only the closed end of a tube is enclosed
    /// like that; a tip resting on the body opens onto it (the walk flares
    /// or stops at its bound with body skin beside it) and takes nothing.
    /// The piece a trunk-field split frees of a tail hanging behind the
    /// thighs (see [`Self::trunk_pieces`]) is the skin above a level that
    /// falls along the tail towards its tip; the tip half stayed in the
    /// remainder (corpus seed 363: 61 of the tail's 181 vertices, recall
    /// 0.663). Returns how many vertices it took.
    pub(super) fn grow_to_tip(&self, part: &mut Growing, taken: &mut [bool], reach: f32) -> usize {
        let positions = &self.weld.positions;
        let collar = self.collar(&part.welded);
        let (_, far_end) = root_collar(self.graph, positions, &part.welded, &collar);
        let far_end: Vec<u32> = far_end.into_iter().filter(|&v| !taken[v as usize]).collect();
        if far_end.is_empty() {
            return 0;
        }
        let bound = part.length.max(reach);
        let tube = follow_tube(
            self.graph,
            positions,
            (&part.welded, &far_end),
            bound,
            taken,
            &|_| true,
            WalkFrom::RootRing,
        );
        let walked = |v: u32| tube.vertices.binary_search(&v).is_ok();
        let in_part = |v: u32| part.welded.binary_search(&v).is_ok();
        let closed = tube.vertices.iter().all(|&v| {
            self.graph
                .neighbors_of(v as usize)
                .iter()
                .all(|&w| walked(w) || in_part(w) || taken[w as usize])
        });
        if !closed {
            return 0;
        }
        self.take_root_skin(part, taken, tube.vertices)
    }

    /// A tail's part takes the skin it encloses: every piece of skin no
    /// other part owns whose only neighbours outside it are the part's,
    /// when the piece is all far skin (beyond the far threshold) or is a
    /// cap closing the part's ring ([`Self::is_cap`]), or is buried: on a
    /// shell of its own inside the rest of the mesh ([`Self::buried_piece`],
    /// a separate tail shell's start too deep for a cap). The closed end of a
    /// tube (its tip cap) is bounded by the tube's last ring alone; body
    /// skin goes on past the part to the rest of the body. Close skin must
    /// be a cap or buried: a fur shell over the whole body meets the tail's part only
    /// along the tail, and its torso is as enclosed by the tail's fur as a
    /// tip cap (taking any enclosed skin took it: 0..200 192 -> 165, on
    /// precision), but runs on far past the ring. A separate tail shell's
    /// buried start is such a cap of close skin near the pelvis (corpus
    /// seeds 42 and 53: 23 and 24 welded vertices, recall 0.934 and
    /// 0.915). A piece that grows larger than the part before it closes
    /// is the body's side of the part's ring and is left. The peel's level
    /// can fall back below its cut along a short hanging tail towards its
    /// tip, and the rigger's growth may close the ring round that tip only
    /// after [`Self::grow_to_tip`] looked for it (corpus seed 416: the tip
    /// cap, 40 welded vertices all tail, in a body remainder, recall 0.801).
    /// Returns how many vertices it took.
    pub(super) fn take_enclosed(&self, part: &mut Growing, taken: &mut [bool]) -> usize {
        let inside = Members::new(&part.welded, self.graph.vertex_count());
        let far = self.params.far_ratio * self.height;
        let widest = TUBE_JOIN_FLARE * self.section_radius(part);
        // Which walk reached each outside vertex first (by its start).
        let mut seen: HashMap<u32, u32> = HashMap::new();
        let mut extra = Vec::new();
        for &v in &part.welded {
            for &s in self.graph.neighbors_of(v as usize) {
                if inside.contains(s) || taken[s as usize] || seen.contains_key(&s) {
                    continue;
                }
                seen.insert(s, s);
                let Some(piece) = self.enclosed_piece(s, &inside, taken, &mut seen) else {
                    continue;
                };
                if piece.iter().all(|&w| self.dist[w as usize] > far)
                    || self.is_cap(&piece, &inside, widest)
                    || self.buried_piece(&piece, part)
                {
                    extra.extend(piece);
                }
            }
        }
        extra.sort_unstable();
        self.join_on_coordinate(part, taken, extra)
    }

    /// `extra` (sorted welded vertices next to the part) joins `part` on
    /// the part's own coordinate: every vertex already in the part keeps
    /// its geodesic, and each new one lies at the shortest way in from the
    /// part's skin, through the new skin only. Measuring the whole part
    /// again from its new collar (as [`Self::take_root_skin`] does) would
    /// undo [`Self::grow_rigger_root`], which keeps the tube measured from
    /// where it leaves the body with the rigger's root skin at 0: at stop
    /// 30 the rabbit fixture's root-ring vertex (taken then through the
    /// walk [`Self::enclosed_piece`] no longer lets pass) moved the
    /// coordinate's source to the grown skin's outer edge, its length
    /// 0.42 -> 0.53 (the true tail's 0.48 from its seam), its bones and
    /// weights outwards, and its generated crouch tore 47 edges at the
    /// root seam instead of 27. Joining skin never shortens the part.
    fn join_on_coordinate(&self, part: &mut Growing, taken: &mut [bool], extra: Vec<u32>) -> usize {
        if extra.is_empty() {
            return 0;
        }
        let g = self.way_in(part, &extra);
        for &v in &extra {
            taken[v as usize] = true;
        }
        let count = extra.len();
        self.merge_into(part, extra.into_iter().zip(g));
        part.length = part.length.max(percentile(&part.geodesic, LENGTH_PERCENTILE));
        count
    }

    /// The geodesic of each of `extra` (sorted welded vertices outside
    /// `part`) on the part's coordinate: the shortest way in from the
    /// part's skin through `extra` alone (infinite when none). Each vertex
    /// next to the part starts at its nearest neighbour's geodesic plus the
    /// edge between them; the rest is the coordinate's own walk
    /// ([`geodesic_from_starts`]).
    fn way_in(&self, part: &Growing, extra: &[u32]) -> Vec<f32> {
        let at = |v: u32| self.weld.positions[v as usize];
        let starts = extra.iter().filter_map(|&v| {
            let d = self
                .graph
                .neighbors_of(v as usize)
                .iter()
                .filter_map(|&u| part.welded.binary_search(&u).ok().map(|k| (u, k)))
                .fold(f32::INFINITY, |d, (u, k)| d.min(part.geodesic[k] + at(v).distance(at(u))));
            d.is_finite().then_some((v, d))
        });
        geodesic_from_starts(self.graph, &self.weld.positions, extra, starts)
    }

    /// Whether `piece` (skin outside `inside`, bounded by it alone) is a
    /// cap closing the part's ring round it: the ring (the part's vertices
    /// next to the piece, its radius their median distance from their
    /// centre, [`ring_radius`]) is no wider than `widest`, and every vertex
    /// of the piece lies within [`ENCLOSED_CAP_DEPTH`] ring radii (the
    /// ring's diameter) of the ring itself (its nearest ring vertex). A
    /// tube's closed end is no deeper than its ring is wide; the torso under
    /// a whole-body fur shell, enclosed by a tail's fur as well, runs on for
    /// many of the tail's radii. The depth is read from the ring, not from
    /// its centre: a peeled part's ring can be cut slanted along a hanging
    /// tail, its centre then lies up the tube and a cap under its low side
    /// reads deep (corpus seed 26: the separate shell's buried start, 31
    /// vertices all tail, 2.94 radii from the ring's centre and 1.98 from
    /// the ring, recall 0.897). `widest` is the flare's bar over the tube's
    /// median section ([`Self::section_radius`]): a ring that much wider
    /// than the tube is where the part spreads onto the body, and the piece
    /// it closes is the rest of the body's skin, not the tube's end (stop
    /// 66: biped curled tails 45126 and 53585 and the quadruped 47899 took
    /// 251, 277 and 363 such vertices, rings 1.8, 2.3 and 17 times their
    /// tube's median section, precision 0.47-0.49; the caps and buried
    /// starts measured on look seeds 42596, 47756, 48381, 48473, 53430 and
    /// seeds 26, 42, 53 close rings of 0.47-0.81).
    fn is_cap(&self, piece: &[u32], inside: &Members, widest: f32) -> bool {
        let positions = &self.weld.positions;
        let mut ring: Vec<u32> = piece
            .iter()
            .flat_map(|&v| self.graph.neighbors_of(v as usize).iter().copied())
            .filter(|&w| inside.contains(w))
            .collect();
        ring.sort_unstable();
        ring.dedup();
        let Some(radius) = ring_radius(positions, &ring) else {
            return false;
        };
        // Written so that a NaN `widest` (no section) refuses nothing.
        if radius > widest {
            return false;
        }
        let depth = ENCLOSED_CAP_DEPTH * radius;
        piece.iter().all(|&v| {
            let p = positions[v as usize];
            ring.iter().any(|&w| positions[w as usize].distance(p) <= depth)
        })
    }

    /// The median radius of the part's cross-sections along its geodesic
    /// coordinate ([`tube_sections`]): how thick its tube is, whatever its
    /// root or tip ring; NaN when it has none.
    fn section_radius(&self, part: &Growing) -> f32 {
        let points: Vec<glam::Vec3> =
            part.welded.iter().map(|&v| self.weld.positions[v as usize]).collect();
        let mut radii: Vec<f32> =
            tube_sections(&points, &part.geodesic, part.length).iter().map(|s| s.1).collect();
        crate::stats::median(&mut radii).unwrap_or(f32::NAN)
    }

    /// Whether `piece` is a shell's start buried in the body
    /// ([`super::surface::Shells::buried`]): skin nobody sees, on a shell
    /// of its own, inside the rest of the mesh where the tail half way
    /// along `part` (its vertex at the median geodesic coordinate) is not.
    /// Read only for a piece that is neither far skin nor a cap, so the
    /// mesh's triangles are welded here, not for every part.
    fn buried_piece(&self, piece: &[u32], part: &Growing) -> bool {
        let mut order: Vec<usize> = (0..part.welded.len()).collect();
        if order.is_empty() {
            return false;
        }
        let half = order.len() / 2;
        let (_, &mut m, _) = order.select_nth_unstable_by(half, |&a, &b| {
            part.geodesic[a].total_cmp(&part.geodesic[b]).then(a.cmp(&b))
        });
        let mid = self.weld.positions[part.welded[m] as usize];
        let triangles = self.weld.triangles(self.rig.triangles());
        self.shells.buried(piece, (&part.welded, mid), &self.weld.positions, &triangles)
    }

    /// The piece of skin outside `inside` reached from `start` (far and
    /// close skin alike), when no other part's skin borders it and it closes before it holds more
    /// vertices than `inside` (see [`Self::take_enclosed`]). A vertex an
    /// earlier walk reached belongs to a piece that walk left unfinished
    /// at that bound (a walk that finishes floods its whole piece, so no
    /// later walk starts in it): this piece is that one, too large. Read
    /// as a border instead, it let the rest of the body's side pass as
    /// enclosed (the rabbit fixture's root-ring vertex, whose two far
    /// neighbours outside the part such a walk had reached).
    fn enclosed_piece(
        &self,
        start: u32,
        inside: &Members,
        taken: &[bool],
        seen: &mut HashMap<u32, u32>,
    ) -> Option<Vec<u32>> {
        let mut piece = vec![start];
        let mut enclosed = true;
        let mut i = 0;
        while i < piece.len() {
            let v = piece[i];
            i += 1;
            for &w in self.graph.neighbors_of(v as usize) {
                if inside.contains(w) {
                    continue;
                }
                if taken[w as usize] {
                    enclosed = false;
                    continue;
                }
                match seen.get(&w) {
                    None => {
                        seen.insert(w, start);
                        piece.push(w);
                    }
                    Some(&walk) if walk != start => return None,
                    Some(_) => {}
                }
            }
            if piece.len() > inside.sorted.len() {
                return None;
            }
        }
        enclosed.then_some(piece)
    }
}
