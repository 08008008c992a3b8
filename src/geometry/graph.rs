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
        // Every triangle edge in both directions, bucketed per vertex
        // (counting sort), then each short row sorted and deduplicated:
        // no global sort of millions of edges.
        let mut degree = vec![0u32; vertex_count + 1];
        for t in triangles {
            for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
                if a != b {
                    degree[a as usize + 1] += 1;
                    degree[b as usize + 1] += 1;
                }
            }
        }
        for i in 0..vertex_count {
            degree[i + 1] += degree[i];
        }
        let mut fill = degree.clone();
        let mut raw = vec![0u32; degree[vertex_count] as usize];
        for t in triangles {
            for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
                if a != b {
                    raw[fill[a as usize] as usize] = b;
                    fill[a as usize] += 1;
                    raw[fill[b as usize] as usize] = a;
                    fill[b as usize] += 1;
                }
            }
        }
        // Each edge of a closed surface comes twice (once per triangle
        // beside it): dropping the repeat by a per-vertex mark before
        // sorting halves every row the sort sees (the sort was most of
        // building the graph).
        let mut offsets = Vec::with_capacity(vertex_count + 1);
        let mut neighbors = Vec::with_capacity(raw.len() / 2);
        let mut seen_by = vec![u32::MAX; vertex_count];
        offsets.push(0u32);
        for v in 0..vertex_count {
            let start = neighbors.len();
            for &w in &raw[degree[v] as usize..degree[v + 1] as usize] {
                if seen_by[w as usize] != v as u32 {
                    seen_by[w as usize] = v as u32;
                    neighbors.push(w);
                }
            }
            neighbors[start..].sort_unstable();
            offsets.push(neighbors.len() as u32);
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
        let n = self.vertex_count();
        let mut comp = vec![u32::MAX; n];
        let mut count = 0u32;
        let mut stack = Vec::new();
        for s in 0..n {
            if !keep[s] || comp[s] != u32::MAX {
                continue;
            }
            comp[s] = count;
            stack.push(s as u32);
            while let Some(v) = stack.pop() {
                for &w in self.neighbors_of(v as usize) {
                    if keep[w as usize] && comp[w as usize] == u32::MAX {
                        comp[w as usize] = count;
                        stack.push(w);
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
