//! Mesh pieces: a vertex buffer with skin weights (model joint indices) and
//! a tag per vertex saying what it belongs to, tubes along curves with
//! parallel-transport frames (no twist), optional UV seams (a duplicated
//! column, as exporters split a wrapped UV map), caps, and a zipper that
//! stitches two loops of different vertex counts.

use glam::{Quat, Vec3};

/// What a vertex belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Body,
    /// Body vertices on the hole a welded tail grows from.
    Collar,
    TailSkin,
    Fur,
    Ear,
    Quiver,
    Cape,
    Skirt,
    Blanket,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tag {
    pub part: Part,
    /// Arc length from the tail's root ring over the tail's length (negative
    /// inside the body for a separate shell); NaN off the tail.
    pub tail_u: f32,
    /// Tail ring index from the root ring (0), negative for buried rings;
    /// `i32::MIN` off the tail rings (caps, other parts).
    pub ring: i32,
}

impl Tag {
    pub fn plain(part: Part) -> Tag {
        Tag { part, tail_u: f32::NAN, ring: i32::MIN }
    }
}

pub type Weights = Vec<(usize, f32)>;

#[derive(Clone, Debug, Default)]
pub struct MeshBuf {
    pub positions: Vec<Vec3>,
    pub triangles: Vec<[u32; 3]>,
    pub weights: Vec<Weights>,
    pub tags: Vec<Tag>,
}

impl MeshBuf {
    pub fn push(&mut self, p: Vec3, w: Weights, tag: Tag) -> u32 {
        self.positions.push(p);
        self.weights.push(w);
        self.tags.push(tag);
        (self.positions.len() - 1) as u32
    }

    pub fn append(&mut self, other: MeshBuf) {
        let base = self.positions.len() as u32;
        self.positions.extend(other.positions);
        self.weights.extend(other.weights);
        self.tags.extend(other.tags);
        self.triangles.extend(other.triangles.iter().map(|t| t.map(|i| i + base)));
    }

    pub fn len(&self) -> usize {
        self.positions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }
}

/// A frame along a curve: tangent `t`, normal `n`, binormal `b = t x n`.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    pub centre: Vec3,
    pub t: Vec3,
    pub n: Vec3,
    pub b: Vec3,
}

/// Rotation-minimising frames along `line`; the first normal is `hint`
/// made perpendicular to the first tangent.
pub fn frames(line: &[Vec3], hint: Vec3) -> Vec<Frame> {
    let k = line.len();
    let tangent = |i: usize| {
        let d = if i == 0 {
            line[1] - line[0]
        } else if i + 1 == k {
            line[k - 1] - line[k - 2]
        } else {
            line[i + 1] - line[i - 1]
        };
        d.normalize_or(Vec3::Z)
    };
    let mut out = Vec::with_capacity(k);
    let t0 = tangent(0);
    let mut n = (hint - hint.dot(t0) * t0).normalize_or(t0.any_orthonormal_vector());
    let mut prev_t = t0;
    for (i, &c) in line.iter().enumerate() {
        let t = tangent(i);
        n = Quat::from_rotation_arc(prev_t, t) * n;
        n = (n - n.dot(t) * t).normalize_or(t.any_orthonormal_vector());
        out.push(Frame { centre: c, t, n, b: t.cross(n) });
        prev_t = t;
    }
    out
}

/// Ring `around` points of an ellipse (`rx` along n, `ry` along b) on a
/// frame, starting at angle `angle0`.
pub fn ring(f: &Frame, rx: f32, ry: f32, around: usize, angle0: f32) -> Vec<Vec3> {
    (0..around)
        .map(|a| {
            let ang = angle0 + a as f32 / around as f32 * std::f32::consts::TAU;
            f.centre + rx * ang.cos() * f.n + ry * ang.sin() * f.b
        })
        .collect()
}

/// Vertex indices of a grid of rings: `idx[ring][col]`, `col` in
/// `0..=around`; without a seam column `around` is column 0 again.
pub struct Grid {
    pub idx: Vec<Vec<u32>>,
    pub around: usize,
}

impl Grid {
    /// The ring as a closed loop (each position once).
    pub fn loop_of(&self, r: usize) -> Vec<u32> {
        self.idx[r][..self.around].to_vec()
    }
}

/// Adds rings as vertices and the quads between consecutive rings (two
/// triangles each, outward for rings ordered along the tangent and points
/// ordered from n towards b), except those `skip(ring, col)` refuses.
/// With `seam` the first point of every ring is written twice (columns 0
/// and `around`, same position), as a UV seam splits it.
pub fn grid(
    mesh: &mut MeshBuf,
    rings: &[Vec<Vec3>],
    seam: bool,
    skip: impl Fn(usize, usize) -> bool,
    mut vertex: impl FnMut(usize, usize, Vec3) -> (Weights, Tag),
) -> Grid {
    let around = rings[0].len();
    let mut idx = Vec::with_capacity(rings.len());
    for (r, pts) in rings.iter().enumerate() {
        let mut row: Vec<u32> = pts
            .iter()
            .enumerate()
            .map(|(c, &p)| {
                let (w, t) = vertex(r, c, p);
                mesh.push(p, w, t)
            })
            .collect();
        if seam {
            let (w, t) = vertex(r, 0, pts[0]);
            row.push(mesh.push(pts[0], w, t));
        } else {
            row.push(row[0]);
        }
        idx.push(row);
    }
    for r in 0..rings.len().saturating_sub(1) {
        for c in 0..around {
            if skip(r, c) {
                continue;
            }
            let (p, q, s, t) = (idx[r][c], idx[r][c + 1], idx[r + 1][c], idx[r + 1][c + 1]);
            mesh.triangles.push([p, q, s]);
            mesh.triangles.push([q, t, s]);
        }
    }
    Grid { idx, around }
}

/// Closes `lp` (a ring's loop) with a fan to a new centre vertex; `end`
/// caps face along the tangent, start caps against it.
pub fn cap(mesh: &mut MeshBuf, lp: &[u32], centre: Vec3, w: Weights, tag: Tag, end: bool) {
    let c = mesh.push(centre, w, tag);
    let n = lp.len();
    for a in 0..n {
        let (p, q) = (lp[a], lp[(a + 1) % n]);
        mesh.triangles.push(if end { [c, p, q] } else { [c, q, p] });
    }
}

/// Angles of loop points about `axis` through `centre`, measured from `e1`.
fn angles(mesh: &MeshBuf, lp: &[u32], centre: Vec3, axis: Vec3, e1: Vec3) -> Vec<f32> {
    let e2 = axis.cross(e1);
    lp.iter()
        .map(|&v| {
            let d = mesh.positions[v as usize] - centre;
            d.dot(e2).atan2(d.dot(e1))
        })
        .collect()
}

/// Orders a loop so its angles about `axis` increase.
fn orient(mesh: &MeshBuf, lp: &mut [u32], centre: Vec3, axis: Vec3, e1: Vec3) {
    let a = angles(mesh, lp, centre, axis, e1);
    let turn: f32 = (0..a.len())
        .map(|i| {
            let d = a[(i + 1) % a.len()] - a[i];
            (d + std::f32::consts::PI).rem_euclid(std::f32::consts::TAU) - std::f32::consts::PI
        })
        .sum();
    if turn < 0.0 {
        lp.reverse();
    }
}

/// Stitches loop `a` (the start side) to loop `b` (further along `axis`)
/// with triangles, whatever their vertex counts: each step advances the
/// loop whose next point comes first in angle about `axis`.
pub fn zipper(mesh: &mut MeshBuf, a: &[u32], b: &[u32], centre: Vec3, axis: Vec3) {
    let axis = axis.normalize();
    let e1 = axis.any_orthonormal_vector();
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    orient(mesh, &mut a, centre, axis, e1);
    orient(mesh, &mut b, centre, axis, e1);
    let tau = std::f32::consts::TAU;
    let aa = angles(mesh, &a, centre, axis, e1);
    let reference = aa[0];
    let phase = |x: f32| (x - reference).rem_euclid(tau);
    let pa: Vec<f32> = aa.iter().map(|&x| phase(x)).collect();
    let ab: Vec<f32> = angles(mesh, &b, centre, axis, e1).iter().map(|&x| phase(x)).collect();
    let start = (0..b.len()).min_by(|&i, &j| ab[i].total_cmp(&ab[j])).unwrap();
    b.rotate_left(start);
    let mut pb: Vec<f32> = ab.clone();
    pb.rotate_left(start);
    let (na, nb) = (a.len(), b.len());
    let next_a = |i: usize| if i + 1 < na { pa[i + 1] } else { tau };
    let next_b = |j: usize| if j + 1 < nb { pb[j + 1] } else { tau + pb[0] };
    let (mut i, mut j) = (0, 0);
    while i < na || j < nb {
        if j == nb || (i < na && next_a(i) <= next_b(j)) {
            mesh.triangles.push([a[i], a[(i + 1) % na], b[j % nb]]);
            i += 1;
        } else {
            mesh.triangles.push([a[i % na], b[(j + 1) % nb], b[j]]);
            j += 1;
        }
    }
}

/// Points along a polyline at `count` even arc-length steps, with the arc
/// share of each.
pub fn resample(line: &[Vec3], count: usize) -> Vec<(Vec3, f32)> {
    let lengths: Vec<f32> = line.windows(2).map(|w| w[0].distance(w[1])).collect();
    let total: f32 = lengths.iter().sum();
    (0..count)
        .map(|k| {
            let u = k as f32 / (count - 1) as f32;
            let mut s = u * total;
            let mut seg = 0;
            while seg + 1 < lengths.len() && s > lengths[seg] {
                s -= lengths[seg];
                seg += 1;
            }
            let t = if lengths[seg] > 0.0 { (s / lengths[seg]).clamp(0.0, 1.0) } else { 0.0 };
            (line[seg].lerp(line[seg + 1], t), u)
        })
        .collect()
}

pub fn polyline_length(line: &[Vec3]) -> f32 {
    line.windows(2).map(|w| w[0].distance(w[1])).sum()
}

/// Merges repeated joints, keeps the four largest influences (glTF's one
/// JOINTS_0/WEIGHTS_0 set) and rescales them to sum to one.
pub fn normalize(w: &Weights) -> Weights {
    let mut merged: Weights = Vec::with_capacity(w.len());
    for &(j, x) in w {
        if x <= 0.0 {
            continue;
        }
        match merged.iter_mut().find(|e| e.0 == j) {
            Some(e) => e.1 += x,
            None => merged.push((j, x)),
        }
    }
    merged.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    merged.truncate(4);
    let sum: f32 = merged.iter().map(|e| e.1).sum();
    for e in &mut merged {
        e.1 /= sum;
    }
    merged
}
