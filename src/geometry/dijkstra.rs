//! Geodesic distance over the welded mesh graph (SPEC T8): Dijkstra with
//! edge lengths as weights, restricted to a subset of vertices (one part and
//! its collar) so that the cost is the part's, not the mesh's.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::Vec3;

use super::twins::twin_pairs;
use super::MeshGraph;

/// Dijkstra's queue: least distance first, ties by the lower vertex. Each
/// item is one `u64`, the distance's bits above the vertex: a non-negative
/// `f32`'s bits order as the number does, so the order is that of
/// comparing distance then vertex, with one integer comparison per step of
/// the heap's sift (the pair compared by `total_cmp` then by vertex cost a
/// fifth of a geodesic coordinate on a 30k-vertex tail).
struct Queue(BinaryHeap<Reverse<u64>>);

impl Queue {
    fn new() -> Self {
        Queue(BinaryHeap::new())
    }

    /// Queues `v` at distance `d` (non-negative).
    #[inline]
    fn push(&mut self, d: f32, v: u32) {
        debug_assert!(d >= 0.0, "negative distance {d}");
        self.0.push(Reverse(((d.to_bits() as u64) << 32) | v as u64));
    }

    #[inline]
    fn pop(&mut self) -> Option<(f32, u32)> {
        self.0.pop().map(|Reverse(k)| (f32::from_bits((k >> 32) as u32), k as u32))
    }
}

/// Geodesic distances over the sub-graph induced by `subset` (sorted,
/// unique vertex ids) from `sources` (members of `subset`, distance 0).
/// The result is aligned with `subset`; unreached vertices get infinity.
pub fn geodesic_from(
    graph: &MeshGraph,
    positions: &[Vec3],
    subset: &[u32],
    sources: &[u32],
) -> Vec<f32> {
    geodesic_from_starts(graph, positions, subset, sources.iter().map(|&s| (s, 0.0)))
}

/// Geodesic distances over the sub-graph induced by `subset` (sorted,
/// unique vertex ids) from `starts`: `(vertex, distance)` pairs, each
/// vertex a member of `subset` entering the walk at its own distance
/// (non-negative; the least one counts when a vertex comes twice). This
/// measures skin joined to a part on the part's coordinate, its starts
/// the part's geodesic plus the edge in, with the one shortest-path walk
/// every coordinate uses. The result is aligned with `subset`; unreached
/// vertices get infinity.
pub fn geodesic_from_starts(
    graph: &MeshGraph,
    positions: &[Vec3],
    subset: &[u32],
    starts: impl IntoIterator<Item = (u32, f32)>,
) -> Vec<f32> {
    debug_assert!(subset.windows(2).all(|w| w[0] < w[1]));
    walk_with_jumps(graph, positions, subset, starts, &[])
}

/// `geodesic` (aligned with `subset`, sorted unique vertex ids; infinite
/// where unreached) relaxed across twins ([`super::twin_pairs`]: one place
/// of the surface modelled twice, a sheet's two faces): each vertex takes
/// the least of its own value and any walk from another vertex's value
/// over the subset's edges and steps between twins, their distance. A
/// coordinate measured from where a sheet meets the body along one face
/// then reads the other face where it lies, not round the sheet's far
/// edge. `None` when the subset has no twins (nothing changes).
pub fn relax_across_twins(
    graph: &MeshGraph,
    positions: &[Vec3],
    subset: &[u32],
    geodesic: &[f32],
) -> Option<Vec<f32>> {
    let pairs = twin_pairs(graph, positions, subset);
    if pairs.is_empty() {
        return None;
    }
    let mut jumps: Vec<Vec<(u32, f32)>> = vec![Vec::new(); subset.len()];
    for &(a, b, d) in &pairs {
        jumps[a as usize].push((b, d));
        jumps[b as usize].push((a, d));
    }
    let starts = subset.iter().zip(geodesic).filter(|(_, g)| g.is_finite()).map(|(&v, &g)| (v, g));
    Some(walk_with_jumps(graph, positions, subset, starts, &jumps))
}

/// The walk over `subset`'s sub-graph plus `jumps` (per place in `subset`,
/// `(place, length)` steps off the mesh's edges; empty for none).
fn walk_with_jumps(
    graph: &MeshGraph,
    positions: &[Vec3],
    subset: &[u32],
    starts: impl IntoIterator<Item = (u32, f32)>,
    jumps: &[Vec<(u32, f32)>],
) -> Vec<f32> {
    // Each lookup gets its own copy of the walk, so the choice is made
    // once, not at every edge.
    match SubsetIndex::new(subset) {
        SubsetIndex::Table { first, places } => {
            walk(graph, positions, subset, starts, jumps, |v| table_place(first, &places, v))
        }
        SubsetIndex::Search(s) => {
            walk(graph, positions, subset, starts, jumps, |v| s.binary_search(&v).ok())
        }
    }
}

/// Each mesh vertex's place in a sorted subset of the mesh's vertices: a
/// table for a subset holding a sizeable share of the vertices between its
/// least and its greatest, a binary search for a sparse one (a table per
/// sparse subset costs more than it saves). Either answers the same.
///
/// The table spans the subset's own range of vertex ids, not the mesh: a
/// part is mostly a run of ids (a tail modelled as one piece), and a
/// mesh-sized table was filled for each walk over it (six on the 200k-vertex
/// bench creature, 800 kB each, fresh pages for a 30k-vertex tail).
pub enum SubsetIndex<'a> {
    /// A table over the subset's range of ids.
    Table {
        /// The subset's least vertex.
        first: u32,
        /// Place per vertex from `first` to the subset's greatest,
        /// `u32::MAX` off the subset.
        places: Vec<u32>,
    },
    /// The sorted subset itself.
    Search(&'a [u32]),
}

impl<'a> SubsetIndex<'a> {
    /// The index of `subset` (sorted, unique vertex ids).
    pub fn new(subset: &'a [u32]) -> Self {
        let (Some(&first), Some(&last)) = (subset.first(), subset.last()) else {
            return SubsetIndex::Search(subset);
        };
        let span = (last - first) as usize + 1;
        if subset.len() * 64 > span {
            let mut places = vec![u32::MAX; span];
            for (i, &v) in subset.iter().enumerate() {
                places[(v - first) as usize] = i as u32;
            }
            SubsetIndex::Table { first, places }
        } else {
            SubsetIndex::Search(subset)
        }
    }

    /// `v`'s place in the subset, `None` off it.
    #[inline]
    pub fn of(&self, v: u32) -> Option<usize> {
        match self {
            SubsetIndex::Table { first, places } => table_place(*first, places, v),
            SubsetIndex::Search(s) => s.binary_search(&v).ok(),
        }
    }
}

/// `v`'s place in a table of places from vertex `first` on.
#[inline]
fn table_place(first: u32, places: &[u32], v: u32) -> Option<usize> {
    // Below `first` the difference wraps past the table's end.
    match places.get(v.wrapping_sub(first) as usize) {
        Some(&place) if place != u32::MAX => Some(place as usize),
        _ => None,
    }
}

/// [`geodesic_from_starts`]'s walk, `jumps` beside the edges, with
/// `local` the index in `subset` of a mesh vertex (`None` off the subset).
fn walk(
    graph: &MeshGraph,
    positions: &[Vec3],
    subset: &[u32],
    starts: impl IntoIterator<Item = (u32, f32)>,
    jumps: &[Vec<(u32, f32)>],
    local: impl Fn(u32) -> Option<usize>,
) -> Vec<f32> {
    let mut dist = vec![f32::INFINITY; subset.len()];
    let mut heap = Queue::new();
    for (s, d) in starts {
        if let Some(i) = local(s) {
            if d < dist[i] {
                dist[i] = d;
                heap.push(d, i as u32);
            }
        }
    }
    while let Some((d, i)) = heap.pop() {
        if d > dist[i as usize] {
            continue;
        }
        let v = subset[i as usize];
        let pv = positions[v as usize];
        for &w in graph.neighbors_of(v as usize) {
            let Some(k) = local(w) else { continue };
            // A neighbour already at `d` or nearer cannot come nearer by
            // an edge of non-negative length: its edge is not measured.
            if dist[k] <= d {
                continue;
            }
            let nd = d + pv.distance(positions[w as usize]);
            if nd < dist[k] {
                dist[k] = nd;
                heap.push(nd, k as u32);
            }
        }
        for &(k, len) in jumps.get(i as usize).map_or(&[][..], Vec::as_slice) {
            let nd = d + len;
            if nd < dist[k as usize] {
                dist[k as usize] = nd;
                heap.push(nd, k);
            }
        }
    }
    dist
}

/// Geodesic distances from `sources` (distance 0) to every vertex within
/// `limit`, walking only through vertices `open` accepts. Returns
/// `(vertex, distance)` for every vertex reached below `limit` (the sources
/// too, at 0), sorted by vertex. The walk is the band's: nothing past
/// `limit` is visited. Its distances sit in one slot per vertex of the
/// mesh, cleared once, with the vertices reached listed beside them: a
/// hash map keyed by vertex cost a hash per edge visited (the Wolf's tube
/// walks 1.06 M -> 0.69 M instructions without it).
pub fn geodesic_within(
    graph: &MeshGraph,
    positions: &[Vec3],
    sources: &[u32],
    limit: f32,
    open: impl Fn(u32) -> bool,
) -> Vec<(u32, f32)> {
    let mut dist = vec![f32::INFINITY; graph.vertex_count()];
    let mut reached: Vec<u32> = Vec::new();
    let mut heap = Queue::new();
    for &s in sources {
        if dist[s as usize].is_infinite() {
            dist[s as usize] = 0.0;
            reached.push(s);
            heap.push(0.0, s);
        }
    }
    while let Some((d, v)) = heap.pop() {
        if d > dist[v as usize] {
            continue;
        }
        let pv = positions[v as usize];
        for &w in graph.neighbors_of(v as usize) {
            // As in `walk`: a neighbour already at `d` or nearer cannot
            // come nearer, so neither `open` nor its edge is asked.
            if dist[w as usize] <= d || !open(w) {
                continue;
            }
            let nd = d + pv.distance(positions[w as usize]);
            if nd < limit && nd < dist[w as usize] {
                if dist[w as usize].is_infinite() {
                    reached.push(w);
                }
                dist[w as usize] = nd;
                heap.push(nd, w);
            }
        }
    }
    reached.sort_unstable();
    reached.into_iter().map(|v| (v, dist[v as usize])).collect()
}

#[cfg(test)]
mod tests {
    use super::SubsetIndex;

    /// The table over the subset's range and the binary search give each
    /// vertex the same place, below the range, inside it and above it.
    #[test]
    fn subset_table_over_its_range_places_as_the_search_does() {
        let subset = [5u32, 6, 8, 9, 12];
        let index = SubsetIndex::new(&subset);
        assert!(matches!(index, SubsetIndex::Table { first: 5, ref places } if places.len() == 8));
        for v in 0..20u32 {
            assert_eq!(index.of(v), subset.binary_search(&v).ok(), "vertex {v}");
        }
        assert_eq!(index.of(u32::MAX), None);
        // Sparse: 2 vertices over a range of 1000 are searched.
        assert!(matches!(SubsetIndex::new(&[0, 999]), SubsetIndex::Search(_)));
        assert!(matches!(SubsetIndex::new(&[]), SubsetIndex::Search(_)));
    }
}
