//! The constraint set of a solve: which vertices pull on the bones, in
//! centred double precision, and the per-bone-pair moment sums that make a
//! sweep cost O(bone pairs) instead of O(vertices) (SPEC X8).
//!
//! With weights fixed, linear blend skinning is linear in the skinning
//! matrices `M_k` (3x4, bind space to posed): `p_i = sum_k w_ik M_k v_i`
//! (`v_i` homogeneous). Every quantity a bone's block update needs is then a
//! product of the current `M_k` with the constant moments
//! `G_jk = sum_i w_ij w_ik v_i v_i^T` (4x4, symmetric, the same for every
//! frame) and the per-frame `Y_j = sum_i w_ij y_i v_i^T` (3x4).

use glam::Vec3;
use nalgebra::{Matrix3x4, Matrix4, Vector3, Vector4};

use super::frames::Positions;
use crate::rig::Rig;

/// Vertices always kept per weighted bone by the subsample, on top of the
/// spatial stride, so that no bone loses all its constraints.
pub const MIN_VERTICES_PER_BONE: usize = 4;

/// The constraint vertices of a solve with their bind positions,
/// influences and per-bone-pair moments (everything a sweep needs without
/// touching a vertex).
#[derive(Clone, Debug)]
pub struct Constraints {
    /// Subtracted from every position: the rest centroid of the constraint
    /// vertices. Keeps the moment sums well conditioned in f64.
    pub center: Vector3<f64>,
    /// Rig vertex index of each constraint vertex (ascending).
    pub vertices: Vec<usize>,
    /// Centred homogeneous bind positions.
    pub points: Vec<Vector4<f64>>,
    /// Influences of each constraint vertex (CSR over `points`).
    pub offsets: Vec<usize>,
    /// Joint of each influence.
    pub joints: Vec<usize>,
    /// Skin weight of each influence.
    pub weights: Vec<f64>,
    /// Each constraint vertex's weight sum: one up to the float32 rounding
    /// of the file's weights, which centring must not turn into an error of
    /// `(1 - sum) * center` (3e-8 of the diagonal, above what float64
    /// surfaces resolve).
    pub weight_sums: Vec<f64>,
    /// Joints with constraint weight; the others are placed by the hierarchy.
    pub active: Vec<bool>,
    /// Per joint `j`, every `(k, G_jk)` with shared constraint vertices,
    /// `k == j` included, ascending `k`.
    pub pairs: Vec<Vec<(usize, Matrix4<f64>)>>,
    /// `G_jj` of each joint (zero for inactive joints).
    pub own: Vec<Matrix4<f64>>,
}

/// Deterministic spatially stratified subsample: vertices in Morton order of
/// their bind position, taken at an even stride, plus the
/// [`MIN_VERTICES_PER_BONE`] heaviest vertices of every weighted bone.
/// `budget == 0` or `budget >= n` keeps every vertex.
pub fn subsample(rig: &Rig, budget: usize) -> Vec<usize> {
    let n = rig.vertex_count();
    if budget == 0 || budget >= n {
        return (0..n).collect();
    }
    let (lo, hi) = rig.bounds();
    let ext = (hi - lo).max(Vec3::splat(1e-12));
    let morton = |p: Vec3| -> u64 {
        let q = ((p - lo) / ext * 1023.0).clamp(Vec3::ZERO, Vec3::splat(1023.0));
        let spread = |x: u32| -> u64 {
            let mut v = x as u64 & 0x3ff;
            v = (v | (v << 16)) & 0x30000ff;
            v = (v | (v << 8)) & 0x300f00f;
            v = (v | (v << 4)) & 0x30c30c3;
            v = (v | (v << 2)) & 0x9249249;
            v
        };
        spread(q.x as u32) | (spread(q.y as u32) << 1) | (spread(q.z as u32) << 2)
    };
    let mut order: Vec<(u64, usize)> =
        rig.vertices().iter().enumerate().map(|(i, p)| (morton(*p), i)).collect();
    order.sort_unstable();
    let mut keep = vec![false; n];
    for k in 0..budget {
        keep[order[k * n / budget].1] = true;
    }
    // The heaviest vertices of each bone, ties by index.
    let inf = rig.influences();
    let mut best: Vec<Vec<(f32, usize)>> = vec![Vec::new(); rig.joint_count()];
    for v in 0..n {
        let (js, ws) = inf.of(v);
        for (&j, &w) in js.iter().zip(ws) {
            best[j as usize].push((w, v));
        }
    }
    for list in &mut best {
        list.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        for &(w, v) in list.iter().take(MIN_VERTICES_PER_BONE) {
            if w > 0.0 {
                keep[v] = true;
            }
        }
    }
    (0..n).filter(|&v| keep[v]).collect()
}

impl Constraints {
    /// The constraints of `rig` at `vertices` (rig vertex indices, ascending).
    pub fn new(rig: &Rig, vertices: Vec<usize>) -> Constraints {
        let b = rig.joint_count();
        let rest = rig.vertices();
        let mut center = Vector3::zeros();
        for &v in &vertices {
            let p = rest[v];
            center += Vector3::new(p.x as f64, p.y as f64, p.z as f64);
        }
        center /= vertices.len().max(1) as f64;
        let inf = rig.influences();
        let mut points = Vec::with_capacity(vertices.len());
        let mut offsets = Vec::with_capacity(vertices.len() + 1);
        let (mut joints, mut weights) = (Vec::new(), Vec::new());
        let mut weight_sums = Vec::with_capacity(vertices.len());
        offsets.push(0);
        // Dense pair table: a rig has at most a few hundred joints.
        let mut moments: Vec<Option<Matrix4<f64>>> = vec![None; b * b];
        for &v in &vertices {
            let p = rest[v];
            let q = Vector4::new(
                p.x as f64 - center.x,
                p.y as f64 - center.y,
                p.z as f64 - center.z,
                1.0,
            );
            let outer = q * q.transpose();
            let (js, ws) = inf.of(v);
            for (&ja, &wa) in js.iter().zip(ws) {
                if wa <= 0.0 {
                    continue;
                }
                joints.push(ja as usize);
                weights.push(wa as f64);
                for (&jb, &wb) in js.iter().zip(ws) {
                    if wb <= 0.0 {
                        continue;
                    }
                    *moments[ja as usize * b + jb as usize].get_or_insert_with(Matrix4::zeros) +=
                        outer * (wa as f64 * wb as f64);
                }
            }
            offsets.push(joints.len());
            weight_sums.push(weights[offsets[offsets.len() - 2]..].iter().sum());
            points.push(q);
        }
        let mut pairs: Vec<Vec<(usize, Matrix4<f64>)>> = vec![Vec::new(); b];
        let mut own = vec![Matrix4::zeros(); b];
        let mut active = vec![false; b];
        for (slot, g) in moments.into_iter().enumerate() {
            let Some(g) = g else { continue };
            let (ja, jb) = (slot / b, slot % b);
            if ja == jb {
                own[ja] = g;
                active[ja] = g[(3, 3)] > 0.0;
            }
            pairs[ja].push((jb, g));
        }
        Constraints {
            center,
            vertices,
            points,
            offsets,
            joints,
            weights,
            weight_sums,
            active,
            pairs,
            own,
        }
    }

    /// Number of constraint vertices.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// Whether no vertex constrains the solve.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// Joints and weights of constraint vertex `i`.
    #[inline]
    pub fn influences(&self, i: usize) -> (&[usize], &[f64]) {
        let (a, b) = (self.offsets[i], self.offsets[i + 1]);
        (&self.joints[a..b], &self.weights[a..b])
    }

    /// Centred targets of the constraint vertices for one frame of full
    /// surfaces (`surfaces.at(offset + v)` for every rig vertex `v`): with
    /// `M v = M_c (v - c) + c` for every joint, a vertex skinned by weights
    /// summing to `s` lands at `sum w M_c (v - c) + s c`, so `s c` is what
    /// comes off.
    pub fn targets<S: Positions + ?Sized>(&self, surfaces: &S, offset: usize) -> Vec<Vector3<f64>> {
        self.vertices
            .iter()
            .zip(&self.weight_sums)
            .map(|(&v, &s)| {
                let p = surfaces.at(offset + v);
                Vector3::new(
                    p.x - s * self.center.x,
                    p.y - s * self.center.y,
                    p.z - s * self.center.z,
                )
            })
            .collect()
    }

    /// `Y_j = sum_i w_ij y_i v_i^T` for every joint.
    pub fn target_moments(&self, targets: &[Vector3<f64>], out: &mut [Matrix3x4<f64>]) {
        for y in out.iter_mut() {
            *y = Matrix3x4::zeros();
        }
        for (i, (p, t)) in self.points.iter().zip(targets).enumerate() {
            let outer = t * p.transpose();
            let (js, ws) = self.influences(i);
            for (&j, &w) in js.iter().zip(ws) {
                out[j] += outer * w;
            }
        }
    }

    /// Skinned (centred) position of constraint vertex `i` under `m`.
    #[inline]
    pub fn skinned(&self, i: usize, m: &[Matrix3x4<f64>]) -> Vector3<f64> {
        let (js, ws) = self.influences(i);
        let mut acc = Vector3::zeros();
        for (&j, &w) in js.iter().zip(ws) {
            acc += (m[j] * self.points[i]) * w;
        }
        acc
    }

    /// Sum of squared constraint errors from the moments alone, in
    /// O(bone pairs): `sum_jk tr(M_j G_jk M_k^T) - 2 sum_j tr(M_j Y_j^T) +
    /// sum_i |y_i|^2`. Centring keeps the cancellation small: in f64 it
    /// resolves errors far below [`super::params::DEFAULT_ERROR_FLOOR`].
    pub fn moment_energy(&self, m: &[Matrix3x4<f64>], y: &[Matrix3x4<f64>], yy: f64) -> f64 {
        let mut e = yy;
        for (j, row) in self.pairs.iter().enumerate() {
            if row.is_empty() {
                continue;
            }
            let mut c = y[j] * -2.0;
            for (k, g) in row {
                c += m[*k] * g;
            }
            e += m[j].component_mul(&c).sum();
        }
        e
    }

    /// Sum of squared constraint errors, vertex by vertex (exact, no moment
    /// cancellation).
    pub fn energy(&self, m: &[Matrix3x4<f64>], targets: &[Vector3<f64>]) -> f64 {
        (0..self.len()).map(|i| (self.skinned(i, m) - targets[i]).norm_squared()).sum()
    }
}
