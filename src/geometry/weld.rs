//! Weld by position (SPEC T2). Exporters split vertices at UV and
//! hard-normal seams, so the raw face graph cuts one tail into dozens of
//! islands; welding restores the surface the artist modelled.

use glam::Vec3;

/// Weld tolerance as a fraction of the bounding-box diagonal. Seam copies
/// are bit-identical in practice; the tolerance only absorbs float noise of
/// exporters that recompute positions per primitive.
pub const WELD_TOLERANCE_RATIO: f32 = 1e-5;

/// Each original vertex mapped to a welded vertex.
#[derive(Clone, Debug, PartialEq)]
pub struct Weld {
    /// Original vertex -> welded vertex.
    pub welded_of: Vec<u32>,
    /// Position of each welded vertex (the first original vertex welded into it).
    pub positions: Vec<Vec3>,
    /// CSR list of the original vertices of each welded vertex.
    pub member_offsets: Vec<u32>,
    /// Original vertex ids, welded vertex after welded vertex.
    pub members: Vec<u32>,
}

/// The grid's occupied cells, each with the head of its list of welded
/// vertices: open addressing over a power-of-two table at most half full,
/// probed linearly. A general hash map's lookups (hashing a key tuple,
/// its control bytes, a second search to insert) were most of welding's
/// instructions on a 200k-vertex mesh; the answers are the same, since only
/// lookups by key are made (the table is never iterated).
struct Cells {
    keys: Vec<(i32, i32, i32)>,
    heads: Vec<u32>,
    mask: usize,
}

impl Cells {
    fn with_capacity(n: usize) -> Cells {
        let size = (2 * n).next_power_of_two().max(16);
        Cells { keys: vec![(0, 0, 0); size], heads: vec![NONE; size], mask: size - 1 }
    }

    /// The slot of cell `k`: where it is, or the empty slot it would take.
    #[inline]
    fn slot(&self, k: (i32, i32, i32)) -> usize {
        let h = (k.0 as u32 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(21)
            ^ (k.1 as u32 as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            ^ (k.2 as u32 as u64).wrapping_mul(0x1656_67B1_9E37_79F9);
        let mut i = (h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & self.mask;
        while self.heads[i] != NONE && self.keys[i] != k {
            i = (i + 1) & self.mask;
        }
        i
    }
}

/// Grid cells are this many tolerances wide, so a point only looks into a
/// neighbouring cell when it lies within the tolerance of that face.
const CELL_TOLERANCES: f32 = 8.0;
const NONE: u32 = u32::MAX;
/// The steps to a cell's neighbours along one axis.
const CELL_STEPS: [i32; 3] = [-1, 0, 1];

/// `x.floor()`, bit for bit, and the same floor as a cell index (`as i32`,
/// saturating), without the library call the baseline x86-64 target makes
/// for it (it has no rounding instruction; the calls were a fifth of
/// welding's instructions). Below 2^23 in magnitude truncating through
/// `i32` and back is exact, and the truncation already holds the cell's
/// integer, so the float is not converted a second time; from there on
/// every `f32` is an integer (and NaN goes to the library).
#[inline]
fn floor_cell(x: f32) -> (i32, f32) {
    if x.abs() >= 8_388_608.0 || x.is_nan() {
        let f = x.floor();
        return (f as i32, f);
    }
    let i = x as i32;
    let t = i as f32;
    if t > x {
        (i - 1, t - 1.0)
    } else if t == 0.0 {
        (0, 0.0f32.copysign(x)) // -0.0 floors to -0.0
    } else {
        (i, t)
    }
}

/// The first welded vertex on the cell list starting at `head` (linked by
/// `next`) within `tol2` (squared) of `p`: the one `p` welds into.
#[inline]
fn first_within(head: u32, next: &[u32], positions: &[Vec3], p: Vec3, tol2: f32) -> Option<u32> {
    let mut w = head;
    while w != NONE {
        if positions[w as usize].distance_squared(p) <= tol2 {
            return Some(w);
        }
        w = next[w as usize];
    }
    None
}

impl Weld {
    /// Welds vertices closer than `tolerance` (absolute, model units).
    /// Vertices are visited in index order, so the result does not depend
    /// on threads or hashing.
    pub fn by_position(vertices: &[Vec3], tolerance: f32) -> Weld {
        let n = vertices.len();
        let tol = tolerance.max(f32::MIN_POSITIVE);
        let cell = tol * CELL_TOLERANCES;
        let mut cells = Cells::with_capacity(n);
        // Per cell a linked list of welded vertices: head in `cells`, links in `next`.
        let mut next: Vec<u32> = Vec::new();
        let mut welded_of = vec![0u32; n];
        let mut positions: Vec<Vec3> = Vec::new();
        let tol2 = tol * tol;
        for (v, &p) in vertices.iter().enumerate() {
            let q = p / cell;
            let ((kx, fx), (ky, fy), (kz, fz)) =
                (floor_cell(q.x), floor_cell(q.y), floor_cell(q.z));
            let (fl, k) = (Vec3::new(fx, fy, fz), (kx, ky, kz));
            let f = q - fl;
            // The cells next to `p`'s own that lie within the tolerance of
            // it, per axis, as a run of `CELL_STEPS` (a slice: walking it
            // costs less than an inclusive range).
            let near = |x: f32| -> &'static [i32] {
                let lo = if x * CELL_TOLERANCES <= 1.0 { 0 } else { 1 };
                let hi = if (1.0 - x) * CELL_TOLERANCES <= 1.0 { 3 } else { 2 };
                &CELL_STEPS[lo..hi]
            };
            let (rx, ry, rz) = (near(f.x), near(f.y), near(f.z));
            let mut found = None;
            // The slot of `p`'s own cell, which a new welded vertex takes.
            let mut home = 0;
            'search: for &dz in rz {
                for &dy in ry {
                    for &dx in rx {
                        let slot = cells.slot((k.0 + dx, k.1 + dy, k.2 + dz));
                        if dx == 0 && dy == 0 && dz == 0 {
                            home = slot;
                        }
                        found = first_within(cells.heads[slot], &next, &positions, p, tol2);
                        if found.is_some() {
                            break 'search;
                        }
                    }
                }
            }
            welded_of[v] = match found {
                Some(w) => w,
                None => {
                    // Every cell was searched, `p`'s own among them, and
                    // nothing was inserted since: `home` is still its slot.
                    let w = positions.len() as u32;
                    positions.push(p);
                    cells.keys[home] = k;
                    next.push(cells.heads[home]);
                    cells.heads[home] = w;
                    w
                }
            };
        }
        let m = positions.len();
        let mut member_offsets = vec![0u32; m + 1];
        for &w in &welded_of {
            member_offsets[w as usize + 1] += 1;
        }
        for i in 0..m {
            member_offsets[i + 1] += member_offsets[i];
        }
        let mut fill = member_offsets.clone();
        let mut members = vec![0u32; n];
        for (v, &w) in welded_of.iter().enumerate() {
            members[fill[w as usize] as usize] = v as u32;
            fill[w as usize] += 1;
        }
        Weld { welded_of, positions, member_offsets, members }
    }

    /// Welded vertices.
    pub fn count(&self) -> usize {
        self.positions.len()
    }

    /// Original vertices welded into `w`.
    pub fn members_of(&self, w: usize) -> &[u32] {
        &self.members[self.member_offsets[w] as usize..self.member_offsets[w + 1] as usize]
    }

    /// Triangles re-indexed onto welded vertices.
    pub fn triangles(&self, triangles: &[[u32; 3]]) -> Vec<[u32; 3]> {
        triangles.iter().map(|t| t.map(|i| self.welded_of[i as usize])).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::{first_within, floor_cell, NONE};
    use glam::Vec3;

    #[test]
    fn floor_is_the_library_floor_bit_for_bit() {
        let mut xs = vec![
            0.0f32,
            -0.0,
            0.5,
            -0.5,
            1.0,
            -1.0,
            0.999_999_94,
            -0.999_999_94,
            8_388_607.5,
            -8_388_607.5,
            8_388_608.0,
            -8_388_609.0,
            3.0e9,
            -3.0e9,
            f32::MAX,
            f32::MIN,
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ];
        // Every scale from tiny to huge, both signs, on and off integers.
        let mut x = 1.0e-6f32;
        while x < 1.0e10 {
            for y in [x, x.next_up(), x.next_down(), x + 0.5, x.round()] {
                xs.push(y);
                xs.push(-y);
            }
            x *= 1.37;
        }
        for x in xs {
            assert_eq!(floor_cell(x).1.to_bits(), x.floor().to_bits(), "floor({x:e})");
            assert_eq!(floor_cell(x).0, x.floor() as i32, "cell of {x:e}");
        }
        assert!(floor_cell(f32::NAN).1.is_nan());
        assert_eq!(floor_cell(f32::NAN).0, 0);
    }

    /// A cell list of three welded vertices, newest first: the first one
    /// within the tolerance along the list is the answer, not the nearest.
    #[test]
    fn first_within_takes_the_first_on_the_list_within_the_tolerance() {
        let positions = [Vec3::ZERO, Vec3::new(0.5, 0.0, 0.0), Vec3::new(0.2, 0.0, 0.0)];
        // List 2 -> 1 -> 0.
        let next = [NONE, 0, 1];
        let p = Vec3::new(0.1, 0.0, 0.0);
        assert_eq!(first_within(2, &next, &positions, p, 0.25), Some(2));
        assert_eq!(first_within(1, &next, &positions, p, 0.25), Some(1));
        assert_eq!(first_within(1, &next, &positions, p, 0.02), Some(0));
        assert_eq!(first_within(2, &next, &positions, p, 0.001), None);
        assert_eq!(first_within(NONE, &next, &positions, p, 1.0), None);
    }
}
