//! What every stage of detection reads (the welded surface, its shells and
//! skeleton distance) and the measures the stages share: a part's collar,
//! where it leaves the body, its geodesic coordinate and its region.

use std::sync::Mutex;

use glam::Vec3;

use crate::appendage::attach::{attachment_joint, Region};
use crate::appendage::layers::reach_detached_shells;
use crate::appendage::params::{DetectParams, INSIDE_WINDING};
use crate::appendage::shape::centroid;
use crate::geometry::{geodesic_from, ring_radius, winding_number, MeshGraph, SkeletonField, Weld};
use crate::rig::{JointRoles, Rig};
use crate::stats::percentile;

/// What every stage of detection reads: the rig, the welded surface, its
/// skeleton distance field and the joints' roles.
pub(super) struct Surface<'a> {
    pub(super) rig: &'a Rig,
    pub(super) params: &'a DetectParams,
    pub(super) height: f32,
    pub(super) weld: &'a Weld,
    pub(super) graph: &'a MeshGraph,
    pub(super) field: &'a SkeletonField,
    /// Skeleton distance per welded vertex.
    pub(super) dist: &'a [f32],
    pub(super) roles: &'a JointRoles,
    pub(super) regions: &'a [Region],
    pub(super) shells: &'a Shells,
    /// Detached shells' collars already read ([`Surface::collar`]).
    pub(super) detached: DetachedCollars,
    /// Per welded vertex: skin of a part already judged body (far skin
    /// wrapping a bone). It stays taken, but the rigger's root may claim
    /// it ([`Surface::owned_at_root`]).
    pub(super) body_skin: Mutex<Vec<bool>>,
}

/// Each detached shell's collar, read once: a shell touching no other skin
/// has its collar from its taper ([`super::taper::thicker_end_cap`]: three
/// geodesics over the shell and its rings), and the stages ask for the same
/// shell's collar several times (the part, its root ring, its tip growth).
#[derive(Default)]
pub(super) struct DetachedCollars(Mutex<Vec<(Vec<u32>, Vec<u32>)>>);

/// The connected pieces of the welded surface, and which is the body's.
pub(super) struct Shells {
    /// Shell id per welded vertex.
    pub(super) id: Vec<u32>,
    /// The body's skin: the shell with the most skin near the bones (within
    /// the far threshold). Not the one with the most vertices: a long dense
    /// tail modelled as a shell of its own can have as many as the body
    /// (corpus seed 42: 350 welded vertices against the body's 354), but
    /// only its buried start lies near a bone.
    body: Option<u32>,
}

impl Shells {
    pub(super) fn of(graph: &MeshGraph, dist: &[f32], far_threshold: f32) -> Shells {
        let (id, count) = graph.shells();
        let mut near = vec![0usize; count];
        for (&s, &d) in id.iter().zip(dist) {
            if d <= far_threshold {
                near[s as usize] += 1;
            }
        }
        // Ties go to the lowest shell id: deterministic.
        let body = (0..count).max_by_key(|&s| (near[s], std::cmp::Reverse(s))).map(|s| s as u32);
        Shells { id, body }
    }

    /// The shell `piece` (connected welded vertices: one shell) lies on;
    /// `None` for an empty piece.
    pub(super) fn of_piece(&self, piece: &[u32]) -> Option<u32> {
        piece.first().map(|&v| self.id[v as usize])
    }

    /// Whether welded vertex `v` lies on a shell other than the body's.
    pub(super) fn own(&self, v: u32) -> bool {
        Some(self.id[v as usize]) != self.body
    }

    /// Whether `piece` (connected skin next to the tail's `part`, so on one
    /// of the part's shells) lies on a shell other than the body's and
    /// is buried in the rest of the mesh while its tail is not: the shells
    /// the tail's `part` does not lie on (`triangles`, welded indices) wind
    /// round the centre of the piece's points at least [`INSIDE_WINDING`]
    /// more than round `mid` (a point of the tail's own skin half way along
    /// it). The part's own layers (its skin and fur) are left out; a fur or
    /// a garment outside the part winds round the tail and its start alike;
    /// the body winds round the buried start only.
    pub(super) fn buried(
        &self,
        piece: &[u32],
        (part, mid): (&[u32], Vec3),
        positions: &[Vec3],
        triangles: &[[u32; 3]],
    ) -> bool {
        let Some(&first) = piece.first() else { return false };
        if !self.own(first) {
            return false;
        }
        let mut layers: Vec<u32> = part.iter().map(|&v| self.id[v as usize]).collect();
        layers.sort_unstable();
        layers.dedup();
        let others: Vec<[u32; 3]> = triangles
            .iter()
            .copied()
            .filter(|t| layers.binary_search(&self.id[t[0] as usize]).is_err())
            .collect();
        let centre = centroid(piece.iter().map(|&v| positions[v as usize]));
        let wound = |p: Vec3| winding_number(p, positions, &others).abs();
        wound(centre) - wound(mid) >= INSIDE_WINDING
    }
}

/// Whether a vertex is in a sorted list of welded vertices, asked once per
/// edge: marks over the whole graph when the list is a sizeable share of it
/// (a binary search per edge was a tenth of detection on a large body
/// part), a binary search when it is small (a graph-sized array for each
/// small part costs more than it saves). Either answers the same.
pub(super) struct Members<'a> {
    pub(super) sorted: &'a [u32],
    marks: Option<Vec<bool>>,
}

/// A list holding at least this share of the graph's vertices gets marks.
const MEMBER_MARKS_SHARE: usize = 32;

impl<'a> Members<'a> {
    pub(super) fn new(sorted: &'a [u32], vertex_count: usize) -> Self {
        let marks = (sorted.len() * MEMBER_MARKS_SHARE >= vertex_count).then(|| {
            let mut marks = vec![false; vertex_count];
            for &v in sorted {
                marks[v as usize] = true;
            }
            marks
        });
        Members { sorted, marks }
    }

    #[inline]
    pub(super) fn contains(&self, v: u32) -> bool {
        match &self.marks {
            Some(m) => m[v as usize],
            None => self.sorted.binary_search(&v).is_ok(),
        }
    }
}

/// A part without a single non-far neighbour (a detached shell floating
/// wholly beyond the threshold) takes as collar its own vertices whose
/// skeleton distance is within this share of its depth range above the
/// nearest one: the end nearest the body.
pub const DETACHED_COLLAR_SHARE: f32 = 0.1;

/// Percentile of the geodesic coordinate taken as the part's length
/// (SPEC T8: the 99th, so a stray vertex at the tip does not count).
pub const LENGTH_PERCENTILE: f32 = 0.99;

/// Mean midpoint of the edges from `welded` (sorted) to `collar` (sorted);
/// the collar centroid when they share no edge (a detached shell).
pub fn cut_centre(graph: &MeshGraph, positions: &[Vec3], welded: &[u32], collar: &[u32]) -> Vec3 {
    let mut acc = glam::DVec3::ZERO;
    let mut n = 0usize;
    for_cut_edges(graph, welded, collar, |v, w| {
        acc += (0.5 * (positions[v as usize] + positions[w as usize])).as_dvec3();
        n += 1;
    });
    if n == 0 {
        return centroid(collar.iter().map(|&v| positions[v as usize]));
    }
    (acc / n as f64).as_vec3()
}

/// A collar at most this share of its part's size is read from its own
/// side in [`for_cut_edges`]: each of its vertices costs a binary search
/// in the part per neighbour and a place in a sort, about five times what
/// a part vertex costs read from the part's side (a mark per neighbour).
/// Speed only: either side finds the same edges in the same order.
const COLLAR_SIDE_SHARE: usize = 8;

/// Each edge `(v, w)` from `v` in `welded` to `w` in `collar` but not in
/// `welded`, handed to `visit` in the order a pass over `welded` and each
/// of its rows meets them (the midpoints' sum is the same to the bit),
/// and none when the two share no edge. Found from the
/// collar's side when the collar is much the smaller ([`COLLAR_SIDE_SHARE`]):
/// a ring of a few hundred vertices round a part of tens of thousands (on
/// the bench creature, eight cut centres cost 21 M instructions by the
/// part's side, mostly marking and reading its members), and a detached
/// shell's collar lies inside its part, so it has no such edge at all.
/// Mesh edges are symmetric, each once in either row. The part's side is
/// kept for lists not sorted (membership by binary search needs the order).
fn for_cut_edges(
    graph: &MeshGraph,
    welded: &[u32],
    collar: &[u32],
    mut visit: impl FnMut(u32, u32),
) {
    let small = collar.len() * COLLAR_SIDE_SHARE <= welded.len();
    if !(small && welded.windows(2).all(|p| p[0] < p[1]) && collar.is_sorted()) {
        return for_cut_edges_by_part(graph, welded, collar, visit);
    }
    let mut edges: Vec<(u32, usize, u32)> = Vec::new();
    let mut last = None;
    for &w in collar {
        if last == Some(w) || welded.binary_search(&w).is_ok() {
            continue;
        }
        last = Some(w);
        for &v in graph.neighbors_of(w as usize) {
            if welded.binary_search(&v).is_ok() {
                let row = graph.neighbors_of(v as usize);
                let at = row.iter().position(|&x| x == w).unwrap_or(usize::MAX);
                edges.push((v, at, w));
            }
        }
    }
    edges.sort_unstable();
    edges.into_iter().for_each(|(v, _, w)| visit(v, w));
}

/// [`for_cut_edges`] by a pass over the part's rows.
fn for_cut_edges_by_part(
    graph: &MeshGraph,
    welded: &[u32],
    collar: &[u32],
    mut visit: impl FnMut(u32, u32),
) {
    let (in_collar, in_welded) =
        (Members::new(collar, graph.vertex_count()), Members::new(welded, graph.vertex_count()));
    for &v in welded {
        for &w in graph.neighbors_of(v as usize) {
            // Most neighbours are the part's own: asked first (marks on a
            // large part), the collar's binary search runs on few edges.
            if !in_welded.contains(w) && in_collar.contains(w) {
                visit(v, w);
            }
        }
    }
}

impl Surface<'_> {
    /// The collar of `welded`: the welded vertices next to it but not in it
    /// (for a far component these are exactly its non-far neighbours); for
    /// a shell touching no other skin, its root end ([`detached_collar`]),
    /// read once per shell.
    pub(super) fn collar(&self, welded: &[u32]) -> Vec<u32> {
        // A part in the cache is detached (its neighbour collar was empty):
        // read it first, before the pass over the part that would find
        // that again.
        if let Some(c) = self.cached_collar(welded) {
            return c;
        }
        let collar = neighbour_collar(welded, self.graph);
        if !collar.is_empty() {
            return collar;
        }
        let c = detached_collar(welded, self.dist, self.graph, &self.weld.positions);
        let mut read = self.detached.0.lock().unwrap_or_else(|e| e.into_inner());
        read.push((welded.to_vec(), c.clone()));
        c
    }

    /// The detached collar already found for `welded`, if any.
    fn cached_collar(&self, welded: &[u32]) -> Option<Vec<u32>> {
        let read = self.detached.0.lock().unwrap_or_else(|e| e.into_inner());
        read.iter().find(|(w, _)| w.as_slice() == welded).map(|(_, c)| c.clone())
    }
}

/// The welded vertices next to `welded` but not in it, sorted.
pub(super) fn neighbour_collar(welded: &[u32], graph: &MeshGraph) -> Vec<u32> {
    let inside = Members::new(welded, graph.vertex_count());
    let mut collar: Vec<u32> = welded
        .iter()
        .flat_map(|&v| graph.neighbors_of(v as usize).iter().copied())
        .filter(|&w| !inside.contains(w))
        .collect();
    collar.sort_unstable();
    collar.dedup();
    collar
}

/// A detached shell's collar: the skin within [`DETACHED_COLLAR_SHARE`] of
/// its skeleton-distance range from the bones, or the cap at its wide end
/// when it tapers steadily ([`super::taper::thicker_end_cap`]).
fn detached_collar(
    welded: &[u32],
    dist: &[f32],
    graph: &MeshGraph,
    positions: &[Vec3],
) -> Vec<u32> {
    let lo = welded.iter().map(|&v| dist[v as usize]).fold(f32::INFINITY, f32::min);
    let hi = welded.iter().map(|&v| dist[v as usize]).fold(f32::NEG_INFINITY, f32::max);
    let cut = lo + DETACHED_COLLAR_SHARE * (hi - lo);
    let collar: Vec<u32> = welded.iter().copied().filter(|&v| dist[v as usize] <= cut).collect();
    super::taper::thicker_end_cap(welded, graph, positions, &collar)
        .unwrap_or_else(|| widest_piece(collar, graph, positions))
}

/// Of a detached collar in several pieces (not joined by the shell's
/// edges), the widest (its points' median distance from their centre,
/// [`ring_radius`]): the root. A hanging tail that curls swings its tip as
/// near the bones as its buried start, so the skin nearest the bones is a
/// patch at each end, and the chain rooted at the two together started mid
/// tail and ran back across the root (corpus seed 10: the collar's 23
/// vertices at tail_u -0.17 and near 1.0, its centre 1.17 tail radii off
/// the centre line at u 0.38). The buried start spans the root's width;
/// the tip, narrower, only a patch of it. No new number.
fn widest_piece(collar: Vec<u32>, graph: &MeshGraph, positions: &[Vec3]) -> Vec<u32> {
    let pieces = graph.pieces(&collar);
    if pieces.len() < 2 {
        return collar;
    }
    let widest = pieces
        .into_iter()
        .filter_map(|piece| ring_radius(positions, &piece).map(|r| (r, piece)))
        .max_by(|a, b| a.0.total_cmp(&b.0));
    widest.map_or(collar, |(_, piece)| piece)
}

/// The collar of `welded` (sorted) after `back` went from it to the body:
/// the old `collar` and the skin given back, where next to what stays;
/// sorted, each once.
pub(super) fn collar_after_giving_back(
    graph: &MeshGraph,
    collar: &[u32],
    back: &[u32],
    welded: &[u32],
) -> Vec<u32> {
    let stays = |v: &u32| welded.binary_search(v).is_ok();
    let mut out: Vec<u32> = collar
        .iter()
        .chain(back)
        .copied()
        .filter(|&v| graph.neighbors_of(v as usize).iter().any(stays))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// `a` and `b` together, sorted, each once: merged when both are sorted
/// (parts and collars are), sorted afresh otherwise.
pub(super) fn sorted_union(a: &[u32], b: &[u32]) -> Vec<u32> {
    if !(a.is_sorted() && b.is_sorted()) {
        let mut all: Vec<u32> = a.iter().chain(b).copied().collect();
        all.sort_unstable();
        all.dedup();
        return all;
    }
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    loop {
        let next = match (a.get(i), b.get(j)) {
            (Some(&x), Some(&y)) => x.min(y),
            (Some(&x), None) | (None, Some(&x)) => x,
            (None, None) => break,
        };
        while a.get(i) == Some(&next) {
            i += 1;
        }
        while b.get(j) == Some(&next) {
            j += 1;
        }
        out.push(next);
    }
    out
}

/// `sorted` with `extra` added, sorted, duplicates kept: the list a sort of
/// the two together gives, merged instead (a part's welded list is sorted
/// and long, the skin joining it short; sorting the whole list again at
/// every growth was a tenth of the bench tail's root growth).
pub(super) fn with_added(sorted: Vec<u32>, mut extra: Vec<u32>) -> Vec<u32> {
    extra.sort_unstable();
    if !sorted.is_sorted() {
        let mut all = sorted;
        all.extend(extra);
        all.sort_unstable();
        return all;
    }
    let mut out = Vec::with_capacity(sorted.len() + extra.len());
    let mut rest = extra.as_slice();
    for v in sorted {
        while let Some((&x, tail)) = rest.split_first() {
            if x >= v {
                break;
            }
            out.push(x);
            rest = tail;
        }
        out.push(v);
    }
    out.extend_from_slice(rest);
    out
}

/// [`rig_vertices`] marks a list's rig vertices instead of sorting them
/// when the list holds at least this share (one in this many) of the welded
/// vertices. Marking costs a pass over the span the rig vertices lie in,
/// sorting a few comparisons per vertex: at one in 32 the Wolf's small
/// parts cost it 0.7% more instructions (the pass over most of its mesh for
/// a hundred vertices), at one in eight the bench creature's 29k-vertex
/// tail still takes the marks. Speed only: both give the same list.
pub const RIG_MARKS_SHARE: usize = 8;

/// The rig's vertices behind welded vertices, sorted. A list holding a
/// large share of the mesh ([`RIG_MARKS_SHARE`]), each welded vertex once,
/// marks its rig vertices over the span they lie in and reads them off in
/// one pass, instead of sorting them (a tail's part is tens of thousands
/// of rig vertices); a smaller list, or one not strictly sorted, sorts
/// what it collects.
pub fn rig_vertices(weld: &Weld, welded: &[u32]) -> Vec<u32> {
    if welded.len() * RIG_MARKS_SHARE >= weld.count() && welded.is_sorted_by(|a, b| a < b) {
        let (mut lo, mut hi, mut count) = (u32::MAX, 0u32, 0usize);
        for &w in welded {
            let members = weld.members_of(w as usize);
            for &v in members {
                (lo, hi) = (lo.min(v), hi.max(v));
            }
            count += members.len();
        }
        if count == 0 {
            return Vec::new();
        }
        let mut marks = vec![false; (hi - lo) as usize + 1];
        for &w in welded {
            for &v in weld.members_of(w as usize) {
                marks[(v - lo) as usize] = true;
            }
        }
        let mut vertices = Vec::with_capacity(count);
        vertices.extend((lo..=hi).filter(|&v| marks[(v - lo) as usize]));
        return vertices;
    }
    let mut vertices: Vec<u32> =
        welded.iter().flat_map(|&w| weld.members_of(w as usize).iter().copied()).collect();
    vertices.sort_unstable();
    vertices
}

impl Surface<'_> {
    /// Where a part meets the body through `ring` (its collar or root
    /// ring): the ring's centre across the cut ([`cut_centre`]) and the
    /// joint nearest it ([`attachment_joint`]). Where the part joins
    /// decides where it hangs, not what it passes near (a rat's tail lies
    /// along its feet).
    pub(super) fn joins_at(&self, welded: &[u32], ring: &[u32]) -> (Vec3, Option<usize>) {
        let join = cut_centre(self.graph, &self.weld.positions, welded, ring);
        (join, attachment_joint(join, self.field, self.regions, self.params.attachment_bias))
    }

    /// The part's region. On the trunk, where along it the part joins
    /// decides pelvis or spine; a thigh's bone beside the tail root stays
    /// the pelvis'.
    pub(super) fn region_of(&self, attachment: Option<usize>, join: Vec3) -> Region {
        let roles = self.roles;
        match attachment.map(|j| self.regions[j]) {
            Some(Region::Pelvis | Region::Spine)
                if attachment.is_some_and(|j| {
                    roles.trunk.contains(&j)
                        || !roles.thighs.contains(&Some(j))
                            && !roles
                                .limbs
                                .iter()
                                .any(|p| p.limbs.iter().any(|l| l.chain.contains(&j)))
                }) =>
            {
                roles.trunk_region(join)
            }
            Some(r) => r,
            None => Region::Limb,
        }
    }

    /// The region of a long part judged on the spine at its join, read
    /// again on its whole collar: the pelvis when any collar vertex lies in
    /// the pelvis share of the trunk
    /// ([`crate::rig::roles::PELVIS_TRUNK_SHARE`]). A part meets the body
    /// round its collar, not at the collar's centre, and a tail's root ring
    /// can be wider than the pelvis share is long: on a biped's short trunk
    /// (corpus seed 47592: 0.19 from pelvis to neck, the share 0.029) a
    /// tail of radius 0.032 whose far cut rises one radius up its root ring
    /// joined at 0.23 of the trunk, and a thick tail (45669: radius 0.136
    /// on a 0.70 trunk) at 0.19, so both were carried rigidly by the spine.
    /// Measured on the look windows (40000..56000) before this reading: of
    /// 2144 long parts judged on the spine, the 8 tails' collars reach
    /// -0.26 to -0.09 of the trunk, every other part's (quivers, packs) no
    /// lower than 0.288. Long parts only: broad parts' collars reach the
    /// share too (4118 on the look windows, 7 of them tails), and read on
    /// the pelvis they meet the stub's bar, which was measured on pelvis
    /// parts; a 48-vertex broad part on the elephant original's trunk
    /// (collar radius 0.35 H) passed it. No new number.
    pub(super) fn collar_region(
        &self,
        region: Region,
        attachment: Option<usize>,
        collar: &[u32],
    ) -> Region {
        let on_pelvis = |&w: &u32| {
            self.region_of(attachment, self.weld.positions[w as usize]) == Region::Pelvis
        };
        if region == Region::Spine && collar.iter().any(on_pelvis) {
            Region::Pelvis
        } else {
            region
        }
    }

    /// Whether the chain of `joint` moves some of `welded`'s skin
    /// ([`crate::geometry::SkeletonField::chain_moves_any`]).
    pub(super) fn chain_moves(&self, joint: usize, welded: &[u32]) -> bool {
        let skin = welded.iter().flat_map(|&w| self.weld.members_of(w as usize).iter().copied());
        self.field.chain_moves_any(self.rig, joint, skin)
    }

    /// The field of the bones whose chains move some of `welded`'s skin
    /// ([`crate::geometry::SkeletonField::moving_chains`]).
    pub(super) fn moving_field(&self, welded: &[u32]) -> SkeletonField {
        let chains = self.field.moving_chains(self.rig, &rig_vertices(self.weld, welded));
        self.field.of_chains(&chains)
    }

    /// The geodesic coordinate of `welded` from `collar`, and the length it
    /// gives (its [`LENGTH_PERCENTILE`]).
    pub(super) fn geodesic_of(&self, welded: &[u32], collar: &[u32]) -> (Vec<f32>, f32) {
        let subset = sorted_union(welded, collar);
        let g_subset = geodesic_from(self.graph, &self.weld.positions, &subset, collar);
        let mut g: Vec<f32> = if welded.is_sorted() {
            // A walk along both sorted lists instead of a search per vertex.
            let mut at = 0;
            welded
                .iter()
                .map(|&v| {
                    while subset[at] < v {
                        at += 1;
                    }
                    g_subset[at]
                })
                .collect()
        } else {
            welded.iter().map(|v| g_subset[subset.binary_search(v).unwrap()]).collect()
        };
        reach_detached_shells(&self.weld.positions, welded, &mut g);
        let l = percentile(&g, LENGTH_PERCENTILE);
        (g, l)
    }
}

#[cfg(test)]
mod tests {
    use super::Shells;
    use crate::geometry::cuboid;
    use glam::Vec3;

    /// A body (shell 0), a tail shell (1) whose start is buried in it, and
    /// a fur shell (2) over the tail's visible length.
    #[test]
    fn a_start_is_buried_where_the_body_winds_round_it_and_not_the_tail() {
        let (mut p, mut body) = cuboid(Vec3::ZERO, Vec3::splat(4.0), 0);
        let (tail_p, tail_t) = cuboid(Vec3::new(3.0, 1.5, 1.5), Vec3::new(8.0, 2.5, 2.5), 8);
        let (fur_p, fur_t) = cuboid(Vec3::new(3.8, 1.2, 1.2), Vec3::new(8.5, 2.8, 2.8), 16);
        p.extend(tail_p);
        p.extend(fur_p);
        body.extend(&tail_t);
        let mut with_fur = body.clone();
        with_fur.extend(&fur_t);
        let id: Vec<u32> = (0..24).map(|v| v / 8).collect();
        let shells = Shells { id, body: Some(0) };
        // The tail's corners at x = 3 are its start; those at x = 8 its part.
        let start = [8, 10, 12, 14];
        let part = [9, 11, 13, 15];
        let mid = Vec3::new(6.0, 2.0, 2.0);
        assert!(shells.buried(&start, (&part, mid), &p, &body));
        // A fur outside the part winds round the tail as it does its start.
        assert!(!shells.buried(&start, (&part, mid), &p, &with_fur));
        // A fur in the part is the tail's own layer.
        let part_with_fur = [9, 11, 13, 15, 17];
        assert!(shells.buried(&start, (&part_with_fur, mid), &p, &with_fur));
        // The tip is not buried; nor is skin of the body's own shell.
        assert!(!shells.buried(&part, (&start, mid), &p, &body));
        assert!(!shells.buried(&[0, 1], (&part, mid), &p, &body));
    }
}
