//! The nearest of a set of points, by a uniform grid: what a rigging TD's
//! "transfer weights from the nearest vertex" does, in time linear in the
//! points asked about rather than their product.

use std::collections::HashMap;

use glam::Vec3;

/// Points per grid cell on average: a few, so a query looks at a handful of
/// cells and a handful of points in each.
const POINTS_PER_CELL: f32 = 4.0;

/// Rings of cells looked at round a query before it falls back to a scan
/// of every point: 16 rings are 33^3 cells, more than a scan of the few
/// thousand points a shell of a tail has.
const MAX_RINGS: i32 = 16;

/// Points sorted into a uniform grid for nearest-point queries.
pub struct NearestPoints<'a> {
    points: &'a [Vec3],
    origin: Vec3,
    cell: f32,
    cells: HashMap<(i32, i32, i32), Vec<u32>>,
    /// Cells across the box along its longest side: no query ring reaches
    /// further than this.
    span: i32,
}

impl<'a> NearestPoints<'a> {
    /// The grid over `points` (finite positions).
    pub fn new(points: &'a [Vec3]) -> NearestPoints<'a> {
        let (lo, hi) = points
            .iter()
            .fold((Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)), |(lo, hi), &p| {
                (lo.min(p), hi.max(p))
            });
        let size = (hi - lo).max(Vec3::splat(f32::MIN_POSITIVE));
        let volume = size.x as f64 * size.y as f64 * size.z as f64;
        let per = (volume * POINTS_PER_CELL as f64 / points.len().max(1) as f64).cbrt() as f32;
        // A flat or thin set has no volume to share out: its longest side
        // over the points' count keeps the cells from vanishing.
        let cell = per.max(size.max_element() / points.len().max(1) as f32).max(f32::MIN_POSITIVE);
        let mut grid = NearestPoints {
            points,
            origin: lo,
            cell,
            cells: HashMap::new(),
            span: (size.max_element() / cell).ceil() as i32 + 1,
        };
        for (i, &p) in points.iter().enumerate() {
            let key = grid.key(p);
            grid.cells.entry(key).or_default().push(i as u32);
        }
        grid
    }

    fn key(&self, p: Vec3) -> (i32, i32, i32) {
        let q = ((p - self.origin) / self.cell).floor();
        (q.x as i32, q.y as i32, q.z as i32)
    }

    /// The index of the point nearest `q` (the lowest index among equals),
    /// or `None` for an empty set.
    pub fn nearest(&self, q: Vec3) -> Option<usize> {
        if self.points.is_empty() {
            return None;
        }
        // Rings of cells grow round the query's nearest point of the grid's
        // box: a query far outside it would otherwise walk every empty ring
        // between. Clamping onto a box never lengthens the distance to a
        // point inside it, so a ring r cells out is still at least r - 1
        // cells from the query.
        let hi = self.origin + Vec3::splat(self.span as f32 * self.cell);
        let c = self.key(q.clamp(self.origin, hi));
        let mut best: Option<(f32, u32)> = None;
        for r in 0..=self.span {
            if r > MAX_RINGS {
                // Points far apart for their count (a cluster and a far
                // outlier): the scan costs less than the empty rings.
                return self.scan(q);
            }
            if let Some((d2, _)) = best {
                let reach = (r - 1).max(0) as f32 * self.cell;
                if reach * reach > d2 {
                    break;
                }
            }
            for dz in -r..=r {
                for dy in -r..=r {
                    for dx in -r..=r {
                        if dx.abs().max(dy.abs()).max(dz.abs()) != r {
                            continue;
                        }
                        let Some(list) = self.cells.get(&(c.0 + dx, c.1 + dy, c.2 + dz)) else {
                            continue;
                        };
                        for &i in list {
                            let d2 = self.points[i as usize].distance_squared(q);
                            if best.is_none_or(|(b, j)| d2 < b || (d2 == b && i < j)) {
                                best = Some((d2, i));
                            }
                        }
                    }
                }
            }
        }
        best.map(|(_, i)| i as usize)
    }

    /// The nearest point by looking at every one.
    fn scan(&self, q: Vec3) -> Option<usize> {
        (0..self.points.len()).min_by(|&a, &b| {
            let (da, db) = (self.points[a].distance_squared(q), self.points[b].distance_squared(q));
            da.total_cmp(&db).then(a.cmp(&b))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grid_finds_what_a_scan_finds() {
        // A deterministic scatter: a helix, a flat sheet and a far point.
        let mut pts = Vec::new();
        for i in 0..400 {
            let t = i as f32 * 0.05;
            pts.push(Vec3::new(t.cos(), t * 0.1, t.sin()));
        }
        for i in 0..20 {
            for j in 0..20 {
                pts.push(Vec3::new(i as f32 * 0.1, -1.0, j as f32 * 0.1));
            }
        }
        pts.push(Vec3::new(50.0, 0.0, 0.0));
        let grid = NearestPoints::new(&pts);
        for k in 0..500 {
            let s = k as f32 * 0.37;
            let q = Vec3::new(s.sin() * 3.0, (s * 1.3).cos() * 2.0, (s * 0.7).sin() * 4.0)
                + if k % 50 == 0 { Vec3::new(60.0, 0.0, 0.0) } else { Vec3::ZERO };
            let scan = (0..pts.len())
                .min_by(|&a, &b| {
                    pts[a]
                        .distance_squared(q)
                        .total_cmp(&pts[b].distance_squared(q))
                        .then(a.cmp(&b))
                })
                .unwrap();
            assert_eq!(grid.nearest(q), Some(scan), "query {q}");
        }
        assert_eq!(NearestPoints::new(&[]).nearest(Vec3::ZERO), None);
        // Far outside a small set: found at once, not after every empty ring
        // between (a single point's grid is a fraction of a unit wide).
        let lone = [Vec3::new(1.0, 2.0, 3.0)];
        assert_eq!(NearestPoints::new(&lone).nearest(Vec3::splat(1.0e6)), Some(0));
        let pair = [Vec3::ZERO, Vec3::new(1.0e-3, 0.0, 0.0)];
        assert_eq!(NearestPoints::new(&pair).nearest(Vec3::new(-1.0e3, 1.0, 0.0)), Some(0));
        assert_eq!(NearestPoints::new(&pair).nearest(Vec3::new(1.0e3, -1.0, 0.0)), Some(1));
        // A dense cluster and a far outlier: queries in the empty middle of
        // the box fall back to the scan, with the scan's answer.
        let mut spread: Vec<Vec3> = (0..2000)
            .map(|i| Vec3::new((i % 10) as f32, (i / 10 % 10) as f32, (i / 100) as f32) * 1e-3)
            .collect();
        spread.push(Vec3::new(100.0, 100.0, 100.0));
        let grid = NearestPoints::new(&spread);
        for q in [Vec3::splat(50.0), Vec3::new(60.0, 10.0, 90.0), Vec3::splat(99.0)] {
            assert_eq!(grid.nearest(q), grid.scan(q), "query {q}");
        }
    }
}
