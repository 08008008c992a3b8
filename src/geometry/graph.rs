//! The welded mesh graph: vertex adjacency in compressed rows.

use glam::Vec3;

/// Vertex adjacency of a welded mesh, compressed rows.
#[derive(Clone, Debug, PartialEq)]
pub struct MeshGraph {
    /// Row starts: vertex `v`'s neighbours are `neighbors[offsets[v]..offsets[v + 1]]`.
    pub offsets: Vec<u32>,
    /// Neighbour vertex ids, row after row.
    pub neighbors: Vec<u32>,
}

impl MeshGraph {
    /// Adjacency of `vertex_count` vertices from triangle edges; degenerate
    /// edges (a vertex to itself, from welding) are dropped, duplicates merged.
    pub fn from_triangles(vertex_count: usize, triangles: &[[u32; 3]]) -> MeshGraph {
        // Each edge is bucketed once, at its lower end (counting sort): the
        // upper half of every row. Each of those short rows is deduplicated
        // and sorted; the lower half of row `w` is then every `u < w` whose
        // upper half holds `w`, and visiting `u` in increasing order lays
        // it down already sorted. A row is its lower half then its upper
        // half: sorted, each neighbour once. Bucketing both ends and sorting
        // whole rows wrote every entry twice and sorted rows twice as long.
        let upper = upper_rows(vertex_count, triangles);
        let mut offsets = vec![0u32; vertex_count + 1];
        for v in 0..vertex_count {
            let row = upper.row(v);
            offsets[v + 1] += row.len() as u32;
            for &w in row {
                offsets[w as usize + 1] += 1;
            }
        }
        for v in 0..vertex_count {
            offsets[v + 1] += offsets[v];
        }
        // Where each row's lower half goes on: its next free slot.
        let mut fill: Vec<u32> = offsets[..vertex_count].to_vec();
        let mut neighbors = vec![0u32; offsets[vertex_count] as usize];
        for u in 0..vertex_count {
            let row = upper.row(u);
            let end = offsets[u + 1] as usize;
            // A few entries: a loop, not a call to copy them.
            for (slot, &w) in neighbors[end - row.len()..end].iter_mut().zip(row) {
                *slot = w;
            }
            for &w in row {
                neighbors[fill[w as usize] as usize] = u as u32;
                fill[w as usize] += 1;
            }
        }
        MeshGraph { offsets, neighbors }
    }

    /// Vertices in the graph.
    pub fn vertex_count(&self) -> usize {
        self.offsets.len() - 1
    }

    /// The neighbours of vertex `v`.
    #[inline]
    pub fn neighbors_of(&self, v: usize) -> &[u32] {
        &self.neighbors[self.offsets[v] as usize..self.offsets[v + 1] as usize]
    }

    /// Every vertex reachable from `seeds` through vertices `accept` admits
    /// (seeds included when admitted), sorted.
    pub fn flood(
        &self,
        seeds: impl IntoIterator<Item = u32>,
        accept: impl Fn(u32) -> bool,
    ) -> Vec<u32> {
        let mut seen = std::collections::HashSet::new();
        let mut stack: Vec<u32> =
            seeds.into_iter().filter(|&v| accept(v) && seen.insert(v)).collect();
        let mut out = Vec::new();
        while let Some(v) = stack.pop() {
            out.push(v);
            for &w in self.neighbors_of(v as usize) {
                if !seen.contains(&w) && accept(w) {
                    seen.insert(w);
                    stack.push(w);
                }
            }
        }
        out.sort_unstable();
        out
    }

    /// Connected components of the vertices where `keep` is true. Returns a
    /// component id per vertex (`u32::MAX` where not kept); components are
    /// numbered by their lowest vertex index.
    pub fn components(&self, keep: &[bool]) -> (Vec<u32>, usize) {
        self.components_where(|v| keep[v])
    }

    /// `vertices` split into the pieces mesh edges join among them, in the
    /// order [`Self::components`] numbers them (by each piece's lowest
    /// vertex); each piece keeps `vertices`' order (sorted in, sorted out).
    /// Labelled over the set's own sorted ids, not a mask of the mesh: the
    /// rings and collars split here hold hundreds of vertices, and a pass
    /// over all 200k of the bench creature's cost 2.6 M instructions a call.
    pub fn pieces(&self, vertices: &[u32]) -> Vec<Vec<u32>> {
        let mut ids = vertices.to_vec();
        ids.sort_unstable();
        ids.dedup();
        let place = |w: u32| ids.binary_search(&w).ok();
        let mut piece_of = vec![u32::MAX; ids.len()];
        let mut count = 0u32;
        let mut stack = Vec::new();
        for s in 0..ids.len() {
            if piece_of[s] != u32::MAX {
                continue;
            }
            piece_of[s] = count;
            stack.push(s);
            while let Some(i) = stack.pop() {
                for &w in self.neighbors_of(ids[i] as usize) {
                    match place(w) {
                        Some(j) if piece_of[j] == u32::MAX => {
                            piece_of[j] = count;
                            stack.push(j);
                        }
                        _ => {}
                    }
                }
            }
            count += 1;
        }
        let mut pieces = vec![Vec::new(); count as usize];
        for &v in vertices {
            if let Some(i) = place(v) {
                pieces[piece_of[i] as usize].push(v);
            }
        }
        pieces
    }

    /// The connected components of the whole graph (its shells), numbered
    /// as [`Self::components`] numbers them with every vertex kept. With no
    /// mask to read for each edge entry, labelling a 200k-vertex body costs
    /// about half as much.
    pub fn shells(&self) -> (Vec<u32>, usize) {
        self.components_where(|_| true)
    }

    /// [`Self::components`] over the vertices `keep` admits.
    #[inline]
    fn components_where(&self, keep: impl Fn(usize) -> bool) -> (Vec<u32>, usize) {
        let n = self.vertex_count();
        let mut comp = vec![u32::MAX; n];
        let mut count = 0u32;
        let mut stack = Vec::new();
        for s in 0..n {
            if comp[s] != u32::MAX || !keep(s) {
                continue;
            }
            comp[s] = count;
            stack.push(s as u32);
            while let Some(v) = stack.pop() {
                let v = v as usize;
                for &w in &self.neighbors[self.offsets[v] as usize..self.offsets[v + 1] as usize] {
                    let w = w as usize;
                    if comp[w] == u32::MAX && keep(w) {
                        comp[w] = count;
                        stack.push(w as u32);
                    }
                }
            }
            count += 1;
        }
        (comp, count as usize)
    }

    /// Length of every edge, in row order (for geodesic distances).
    pub fn edge_lengths(&self, positions: &[Vec3]) -> Vec<f32> {
        let mut out = Vec::with_capacity(self.neighbors.len());
        for v in 0..self.vertex_count() {
            for &w in self.neighbors_of(v) {
                out.push(positions[v].distance(positions[w as usize]));
            }
        }
        out
    }
}

/// Each vertex's neighbours above it, each once, sorted: compressed rows.
struct UpperRows {
    offsets: Vec<u32>,
    neighbors: Vec<u32>,
}

impl UpperRows {
    #[inline]
    fn row(&self, v: usize) -> &[u32] {
        &self.neighbors[self.offsets[v] as usize..self.offsets[v + 1] as usize]
    }
}

/// Every triangle edge bucketed at its lower end, then each row
/// deduplicated (an edge of a closed surface comes once per triangle
/// beside it) by a per-vertex mark and sorted, compacted in place.
fn upper_rows(vertex_count: usize, triangles: &[[u32; 3]]) -> UpperRows {
    let mut start = vec![0u32; vertex_count + 1];
    for t in triangles {
        for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
            if a != b {
                start[a.min(b) as usize + 1] += 1;
            }
        }
    }
    for i in 0..vertex_count {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut raw = vec![0u32; start[vertex_count] as usize];
    for t in triangles {
        for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
            if a != b {
                let lo = a.min(b) as usize;
                raw[fill[lo] as usize] = a.max(b);
                fill[lo] += 1;
            }
        }
    }
    let mut offsets = fill;
    offsets[0] = 0;
    let mut seen_by = vec![u32::MAX; vertex_count];
    let mut kept = 0usize;
    for v in 0..vertex_count {
        let row_start = kept;
        for i in start[v] as usize..start[v + 1] as usize {
            let w = raw[i];
            if seen_by[w as usize] != v as u32 {
                seen_by[w as usize] = v as u32;
                raw[kept] = w;
                kept += 1;
            }
        }
        raw[row_start..kept].sort_unstable();
        offsets[v + 1] = kept as u32;
    }
    raw.truncate(kept);
    UpperRows { offsets, neighbors: raw }
}
