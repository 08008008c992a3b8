//! Correspondence between a source (artist) mesh and a target (rigger's)
//! mesh: nearest neighbour between their rest poses after aligning them
//! (SPEC X3; exact when both are the same mesh).
//!
//! Alignment is a similarity without rotation: the source's bind-pose
//! bounding-box centre goes to the target's, and the source is scaled by the
//! ratio of the two bounding-box diagonals. Both rigs are in the core's
//! Y-up frame already, so no rotation is searched; meshes facing different
//! ways must be turned by the caller first. Nearest neighbours come from a
//! uniform grid, ties to the lower source index (deterministic).

use glam::{DVec3, Vec3};

/// Source-to-target alignment and the nearest source vertex of every target
/// vertex.
#[derive(Clone, Debug, PartialEq)]
pub struct Correspondence {
    /// `x_target = (x_source - source_centre) * scale + target_centre`.
    pub source_centre: DVec3,
    pub target_centre: DVec3,
    pub scale: f64,
    /// Nearest source vertex of each target vertex.
    pub nearest: Vec<usize>,
    /// Mean and largest rest-pose distance from a target vertex to its
    /// aligned source vertex, as fractions of the target diagonal (0 for
    /// the same mesh).
    pub rest_mean_distance: f64,
    pub rest_max_distance: f64,
}

fn bounds(p: &[Vec3]) -> (DVec3, DVec3) {
    p.iter().fold((DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)), |(lo, hi), q| {
        let q = q.as_dvec3();
        (lo.min(q), hi.max(q))
    })
}

impl Correspondence {
    pub fn new(source: &[Vec3], target: &[Vec3]) -> Correspondence {
        let (slo, shi) = bounds(source);
        let (tlo, thi) = bounds(target);
        let sd = (shi - slo).length();
        let td = (thi - tlo).length();
        let scale = if sd > 0.0 { td / sd } else { 1.0 };
        let source_centre = (slo + shi) * 0.5;
        let target_centre = (tlo + thi) * 0.5;
        let aligned: Vec<DVec3> =
            source.iter().map(|p| (p.as_dvec3() - source_centre) * scale + target_centre).collect();
        let grid = Grid::new(&aligned);
        let mut nearest = Vec::with_capacity(target.len());
        let (mut sum, mut max) = (0.0f64, 0.0f64);
        for t in target {
            let (i, d) = grid.nearest(&aligned, t.as_dvec3());
            nearest.push(i);
            sum += d;
            max = max.max(d);
        }
        let td = td.max(f64::MIN_POSITIVE);
        Correspondence {
            source_centre,
            target_centre,
            scale,
            nearest,
            rest_mean_distance: sum / target.len().max(1) as f64 / td,
            rest_max_distance: max / td,
        }
    }

    /// Aligned source position.
    pub fn align(&self, p: Vec3) -> Vec3 {
        ((p.as_dvec3() - self.source_centre) * self.scale + self.target_centre).as_vec3()
    }

    /// Target surfaces from source surfaces (both frame-major).
    pub fn carry(&self, source_surfaces: &[Vec3], source_vertices: usize) -> Vec<Vec3> {
        let frames = source_surfaces.len() / source_vertices.max(1);
        let mut out = Vec::with_capacity(frames * self.nearest.len());
        for f in 0..frames {
            let s = &source_surfaces[f * source_vertices..(f + 1) * source_vertices];
            out.extend(self.nearest.iter().map(|&i| self.align(s[i])));
        }
        out
    }
}

/// Uniform grid over points, about two points a cell.
struct Grid {
    lo: DVec3,
    cell: f64,
    dims: [usize; 3],
    starts: Vec<usize>,
    items: Vec<usize>,
}

impl Grid {
    fn new(points: &[DVec3]) -> Grid {
        let (lo, hi) = points
            .iter()
            .fold((DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)), |(a, b), p| {
                (a.min(*p), b.max(*p))
            });
        let ext = (hi - lo).max(DVec3::splat(1e-12));
        let volume = ext.x * ext.y * ext.z;
        let cells = (points.len() as f64 / 2.0).max(1.0);
        let mut cell = (volume / cells).cbrt();
        let longest = ext.max_element();
        cell = cell.max(longest / 256.0).max(1e-12);
        let dims = [
            ((ext.x / cell) as usize + 1).min(512),
            ((ext.y / cell) as usize + 1).min(512),
            ((ext.z / cell) as usize + 1).min(512),
        ];
        let mut counts = vec![0usize; dims[0] * dims[1] * dims[2] + 1];
        let key = |p: &DVec3| -> usize {
            let c = |x: f64, d: usize| ((x / cell) as usize).min(d - 1);
            let q = *p - lo;
            (c(q.z, dims[2]) * dims[1] + c(q.y, dims[1])) * dims[0] + c(q.x, dims[0])
        };
        for p in points {
            counts[key(p) + 1] += 1;
        }
        for i in 1..counts.len() {
            counts[i] += counts[i - 1];
        }
        let mut fill = counts.clone();
        let mut items = vec![0; points.len()];
        for (i, p) in points.iter().enumerate() {
            let k = key(p);
            items[fill[k]] = i;
            fill[k] += 1;
        }
        Grid { lo, cell, dims, starts: counts, items }
    }

    fn nearest(&self, points: &[DVec3], q: DVec3) -> (usize, f64) {
        let rel = (q - self.lo) / self.cell;
        let centre = [rel.x.floor() as i64, rel.y.floor() as i64, rel.z.floor() as i64];
        let mut best = (usize::MAX, f64::INFINITY);
        let max_ring = *self.dims.iter().max().unwrap() as i64 + 1;
        for ring in 0..=max_ring {
            // Every cell at Chebyshev distance `ring`; stop once the ring
            // is farther than the best found.
            if best.0 != usize::MAX {
                let reach = (ring - 1).max(0) as f64 * self.cell;
                if reach > best.1 {
                    break;
                }
            }
            for dz in -ring..=ring {
                for dy in -ring..=ring {
                    for dx in -ring..=ring {
                        if dx.abs().max(dy.abs()).max(dz.abs()) != ring {
                            continue;
                        }
                        let (x, y, z) = (centre[0] + dx, centre[1] + dy, centre[2] + dz);
                        if x < 0
                            || y < 0
                            || z < 0
                            || x >= self.dims[0] as i64
                            || y >= self.dims[1] as i64
                            || z >= self.dims[2] as i64
                        {
                            continue;
                        }
                        let k =
                            (z as usize * self.dims[1] + y as usize) * self.dims[0] + x as usize;
                        for &i in &self.items[self.starts[k]..self.starts[k + 1]] {
                            let d = (points[i] - q).length();
                            if d < best.1 || (d == best.1 && i < best.0) {
                                best = (i, d);
                            }
                        }
                    }
                }
            }
        }
        best
    }
}
