//! Closest point on a triangle mesh: a bounding-volume hierarchy over the
//! triangles (median splits along the longest axis, a few triangles a
//! leaf) and Ericson's closest point on a triangle with its barycentric
//! weights ("Real-Time Collision Detection", 5.1.5). Queries are exact
//! (every triangle that could be closer is tested) and deterministic: ties
//! go to the lower triangle index.

use glam::DVec3;

/// Triangles per leaf.
const LEAF_SIZE: usize = 4;

/// The closest point of a mesh to a query point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
    /// Index of the triangle it lies on.
    pub triangle: usize,
    /// Barycentric weights of the triangle's three corners (sum 1, >= 0).
    pub weights: [f64; 3],
    /// The point itself (the mesh's units).
    pub point: DVec3,
    /// Its distance to the query point.
    pub distance: f64,
}

#[derive(Clone, Debug)]
struct Node {
    lo: DVec3,
    hi: DVec3,
    /// Leaf: `start..end` into `order`; inner: children `left`, `left + 1`.
    start: usize,
    end: usize,
    left: usize,
}

/// A bounding-volume tree over a mesh's triangles, for closest-point
/// queries.
#[derive(Clone, Debug)]
pub struct TriangleTree {
    corners: Vec<[DVec3; 3]>,
    order: Vec<usize>,
    nodes: Vec<Node>,
}

/// Closest point to `p` on triangle `abc` and its barycentric weights.
pub fn closest_on_triangle(p: DVec3, a: DVec3, b: DVec3, c: DVec3) -> (DVec3, [f64; 3]) {
    let ab = b - a;
    let ac = c - a;
    // `p` seen from a corner, along both edges out of `a`: the signs of
    // these six dots pick the Voronoi region of the triangle `p` lies in.
    let along = |corner: DVec3| (ab.dot(p - corner), ac.dot(p - corner));
    let (d1, d2) = along(a);
    if d1 <= 0.0 && d2 <= 0.0 {
        return (a, [1.0, 0.0, 0.0]);
    }
    let (d3, d4) = along(b);
    if d3 >= 0.0 && d4 <= d3 {
        return (b, [0.0, 1.0, 0.0]);
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        let v = d1 / (d1 - d3);
        return (a + ab * v, [1.0 - v, v, 0.0]);
    }
    let (d5, d6) = along(c);
    if d6 >= 0.0 && d5 <= d6 {
        return (c, [0.0, 0.0, 1.0]);
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        let w = d2 / (d2 - d6);
        return (a + ac * w, [1.0 - w, 0.0, w]);
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return (b + (c - b) * w, [0.0, 1.0 - w, w]);
    }
    let denom = va + vb + vc;
    if denom == 0.0 || denom.is_nan() {
        // Degenerate (zero-area) triangle: the closest of its corners.
        let (da, db, dc) = (p.distance_squared(a), p.distance_squared(b), p.distance_squared(c));
        return if da <= db && da <= dc {
            (a, [1.0, 0.0, 0.0])
        } else if db <= dc {
            (b, [0.0, 1.0, 0.0])
        } else {
            (c, [0.0, 0.0, 1.0])
        };
    }
    let v = vb / denom;
    let w = vc / denom;
    (a + ab * v + ac * w, [1.0 - v - w, v, w])
}

fn dist2_to_box(p: DVec3, lo: DVec3, hi: DVec3) -> f64 {
    let d = (lo - p).max(DVec3::ZERO).max(p - hi);
    d.length_squared()
}

impl TriangleTree {
    /// `corners[t]` are the three corners of triangle `t`.
    pub fn new(corners: Vec<[DVec3; 3]>) -> TriangleTree {
        let mut order: Vec<usize> = (0..corners.len()).collect();
        let centres: Vec<DVec3> = corners.iter().map(|c| (c[0] + c[1] + c[2]) / 3.0).collect();
        let mut nodes = Vec::with_capacity(2 * corners.len() / LEAF_SIZE + 1);
        nodes.push(Node {
            lo: DVec3::ZERO,
            hi: DVec3::ZERO,
            start: 0,
            end: corners.len(),
            left: 0,
        });
        let mut stack = vec![0usize];
        while let Some(n) = stack.pop() {
            let (start, end) = (nodes[n].start, nodes[n].end);
            let (mut lo, mut hi) = (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY));
            let (mut clo, mut chi) = (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY));
            for &t in &order[start..end] {
                for c in &corners[t] {
                    lo = lo.min(*c);
                    hi = hi.max(*c);
                }
                clo = clo.min(centres[t]);
                chi = chi.max(centres[t]);
            }
            nodes[n].lo = lo;
            nodes[n].hi = hi;
            if end - start <= LEAF_SIZE {
                continue;
            }
            let ext = chi - clo;
            let axis = if ext.x >= ext.y && ext.x >= ext.z {
                0
            } else if ext.y >= ext.z {
                1
            } else {
                2
            };
            let mid = start + (end - start) / 2;
            order[start..end]
                .sort_by(|&a, &b| centres[a][axis].total_cmp(&centres[b][axis]).then(a.cmp(&b)));
            let left = nodes.len();
            nodes.push(Node { lo, hi, start, end: mid, left: 0 });
            nodes.push(Node { lo, hi, start: mid, end, left: 0 });
            nodes[n].left = left;
            stack.push(left);
            stack.push(left + 1);
        }
        TriangleTree { corners, order, nodes }
    }

    /// Whether the tree holds no triangle.
    pub fn is_empty(&self) -> bool {
        self.corners.is_empty()
    }

    /// The closest point of the mesh to `p`.
    pub fn closest(&self, p: DVec3) -> Option<Hit> {
        if self.corners.is_empty() {
            return None;
        }
        let mut best = Hit {
            triangle: usize::MAX,
            weights: [0.0; 3],
            point: DVec3::ZERO,
            distance: f64::INFINITY,
        };
        let mut best2 = f64::INFINITY;
        let mut stack = vec![0usize];
        while let Some(n) = stack.pop() {
            let node = &self.nodes[n];
            if dist2_to_box(p, node.lo, node.hi) > best2 {
                continue;
            }
            if node.left == 0 {
                for &t in &self.order[node.start..node.end] {
                    let [a, b, c] = self.corners[t];
                    let (q, w) = closest_on_triangle(p, a, b, c);
                    let d2 = p.distance_squared(q);
                    if d2 < best2 || (d2 == best2 && t < best.triangle) {
                        best2 = d2;
                        best = Hit { triangle: t, weights: w, point: q, distance: 0.0 };
                    }
                }
                continue;
            }
            // Nearer child last, so it is searched first.
            let (l, r) = (node.left, node.left + 1);
            let dl = dist2_to_box(p, self.nodes[l].lo, self.nodes[l].hi);
            let dr = dist2_to_box(p, self.nodes[r].lo, self.nodes[r].hi);
            if dl <= dr {
                stack.push(r);
                stack.push(l);
            } else {
                stack.push(l);
                stack.push(r);
            }
        }
        best.distance = best2.sqrt();
        Some(best)
    }
}
