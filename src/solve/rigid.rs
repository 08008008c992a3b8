//! Rigid mode: per frame, block coordinate descent over bones, each block a
//! closed-form weighted rigid fit (Horn) of one skinning matrix
//! `M_j = [R_j | t_j]` that accounts for every other bone's current
//! contribution, through the pair moments of [`Constraints`].
//!
//! Block objective for bone `j` with all others fixed (bind space, centred):
//! `f_j(M) = tr(M G_jj M^T) - 2 tr(M C_j^T)`, `C_j = Y_j - sum_{k!=j} M_k G_kj`.
//! Writing `G_jj = [[S, m], [m^T, A]]` and `C_j = [Cv | c]`, the optimum is
//! `R = argmax tr(R^T H)` with `H = Cv - c m^T / A` (Horn) and
//! `t = (c - R m) / A`. The change of `f_j` is the exact change of the total
//! error, so a sweep knows its own progress without touching a vertex.

use nalgebra::{Matrix3, Matrix3x4, Matrix4, Matrix4x3, Vector3};

use super::constraints::Constraints;
use super::horn::{fit_rotation, nearest_rotation};

/// Split a skinning matrix into its linear part and translation.
#[inline]
fn parts(m: &Matrix3x4<f64>) -> (Matrix3<f64>, Vector3<f64>) {
    (m.fixed_view::<3, 3>(0, 0).into_owned(), m.column(3).into_owned())
}

/// The skinning matrix `[r | t]`.
#[inline]
pub fn compose(r: &Matrix3<f64>, t: &Vector3<f64>) -> Matrix3x4<f64> {
    let mut m = Matrix3x4::zeros();
    m.fixed_view_mut::<3, 3>(0, 0).copy_from(r);
    m.set_column(3, t);
    m
}

/// `tr(M G M^T) - 2 tr(M C^T)`.
#[inline]
fn block_value(m: &Matrix3x4<f64>, g: &nalgebra::Matrix4<f64>, c: &Matrix3x4<f64>) -> f64 {
    (m * g).component_mul(m).sum() - 2.0 * m.component_mul(c).sum()
}

/// One Gauss-Seidel sweep over `order` (active joints). Returns the exact
/// change of the total squared constraint error (<= 0 up to rounding and the
/// proximal term).
pub fn sweep(
    cons: &Constraints,
    y: &[Matrix3x4<f64>],
    m: &mut [Matrix3x4<f64>],
    order: &[usize],
    proximal: f64,
) -> f64 {
    let mut delta = 0.0;
    for &j in order {
        let mut c = y[j];
        for (k, g) in &cons.pairs[j] {
            if *k != j {
                c -= m[*k] * g;
            }
        }
        let g = &cons.own[j];
        let a = g[(3, 3)];
        let s = g.fixed_view::<3, 3>(0, 0);
        let mv: Vector3<f64> = g.fixed_view::<3, 1>(0, 3).into_owned();
        let (cv, cc) = parts(&c);
        let (r_cur, _) = parts(&m[j]);
        let spread = (s.trace() - mv.norm_squared() / a).max(0.0);
        let h = cv - cc * mv.transpose() / a + r_cur * (proximal * spread);
        let r = fit_rotation(&h).to_rotation_matrix().into_inner();
        let t = (cc - r * mv) / a;
        let new = compose(&r, &t);
        delta += block_value(&new, g, &c) - block_value(&m[j], g, &c);
        m[j] = new;
    }
    delta
}

/// Closed-form affine least squares over all active bones at once
/// (`M G = Y`, G the 4B x 4B matrix of pair moments), pulled by a small
/// ridge towards a prior, then projected onto rigid motions. In a control
/// run it lands on the exact answer; elsewhere it is a seed that competes
/// with the warm start. It is what turns ~100 linear sweeps a frame into 1-3.
/// [`solve_frame`] solves it twice (iterative refinement of the ridge).
///
/// G is factored once per solve with bones ordered leaves first: bones
/// couple mostly along the skeleton, so the Cholesky factor keeps G's block
/// sparsity (eliminating a leaf creates no fill) and each frame's solve is
/// two block-sparse triangular sweeps, O(bone pairs).
pub struct AffineSeed {
    /// Active joints in elimination order.
    joints: Vec<usize>,
    /// Per block row: the off-diagonal factor blocks `(col, L_rc)`, col < row.
    rows: Vec<Vec<(usize, Matrix4<f64>)>>,
    /// Per block column: the same blocks `(row, L_rc)`, row > col.
    cols: Vec<Vec<(usize, Matrix4<f64>)>>,
    /// Inverse of each diagonal factor block.
    diag_inv: Vec<Matrix4<f64>>,
    ridge: Vec<f64>,
}

impl AffineSeed {
    /// The seed's factored moment matrix over the active bones of `cons`
    /// (`topological`: the rig's joints, parents first); `None` when the
    /// matrix is not positive definite even with the ridge.
    pub fn new(cons: &Constraints, ridge: f64, topological: &[usize]) -> Option<AffineSeed> {
        let joints: Vec<usize> =
            topological.iter().rev().copied().filter(|&j| cons.active[j]).collect();
        let mut block = vec![usize::MAX; cons.active.len()];
        for (b, &j) in joints.iter().enumerate() {
            block[j] = b;
        }
        let nb = joints.len();
        if nb == 0 {
            return None;
        }
        // Lower block triangle of G, then the ridge on its diagonal.
        let mut lower: Vec<Option<Matrix4<f64>>> = vec![None; nb * nb];
        for (bj, &j) in joints.iter().enumerate() {
            for (k, gk) in &cons.pairs[j] {
                let bk = block[*k];
                if bk == usize::MAX {
                    return None;
                }
                if bk <= bj {
                    lower[bj * nb + bk] = Some(*gk);
                }
            }
        }
        let scale = (0..nb)
            .flat_map(|b| (0..4).map(move |a| (b, a)))
            .map(|(b, a)| lower[b * nb + b].map_or(0.0, |g| g[(a, a)]))
            .fold(0.0f64, f64::max);
        let mut ridge_v = vec![0.0; 4 * nb];
        for b in 0..nb {
            let g = lower[b * nb + b].as_mut()?;
            for a in 0..4 {
                let l = ridge * g[(a, a)].max(1e-12 * scale);
                ridge_v[4 * b + a] = l;
                g[(a, a)] += l;
            }
        }
        // Block Cholesky, row by row, keeping only blocks that are nonzero
        // (leaves-first order: a tree-shaped coupling creates no fill).
        let mut factor: Vec<Option<Matrix4<f64>>> = vec![None; nb * nb];
        let mut rows: Vec<Vec<(usize, Matrix4<f64>)>> = vec![Vec::new(); nb];
        let mut cols: Vec<Vec<(usize, Matrix4<f64>)>> = vec![Vec::new(); nb];
        let mut diag_inv: Vec<Matrix4<f64>> = Vec::with_capacity(nb);
        for r in 0..nb {
            for c in 0..r {
                let mut acc = lower[r * nb + c];
                for (k, lrk) in &rows[r] {
                    if let Some(lck) = factor[c * nb + *k] {
                        *acc.get_or_insert_with(Matrix4::zeros) -= lrk * lck.transpose();
                    }
                }
                let Some(acc) = acc else { continue };
                if acc.iter().all(|x| *x == 0.0) {
                    continue;
                }
                let lrc = acc * diag_inv[c].transpose();
                factor[r * nb + c] = Some(lrc);
                rows[r].push((c, lrc));
                cols[c].push((r, lrc));
            }
            let mut d = lower[r * nb + r]?;
            for (_, lrk) in &rows[r] {
                d -= lrk * lrk.transpose();
            }
            let lrr = d.cholesky()?.unpack();
            factor[r * nb + r] = Some(lrr);
            diag_inv.push(lrr.try_inverse()?);
        }
        Some(AffineSeed { joints, rows, cols, diag_inv, ridge: ridge_v })
    }

    /// Rigid seed for every active joint (inactive ones copied from `prior`).
    pub fn seed(
        &self,
        cons: &Constraints,
        y: &[Matrix3x4<f64>],
        prior: &[Matrix3x4<f64>],
    ) -> Vec<Matrix3x4<f64>> {
        // Unknown block b is M_j^T (4x3); right-hand side Y_j^T + ridge * prior^T.
        let rhs: Vec<Matrix4x3<f64>> = self
            .joints
            .iter()
            .enumerate()
            .map(|(b, &j)| {
                let mut r = y[j].transpose();
                for a in 0..4 {
                    for c in 0..3 {
                        r[(a, c)] += self.ridge[4 * b + a] * prior[j][(c, a)];
                    }
                }
                r
            })
            .collect();
        let x = self.solve(rhs);
        let mut out = prior.to_vec();
        for (b, &j) in self.joints.iter().enumerate() {
            out[j] = self.rigid(cons, j, &x[b].transpose());
        }
        out
    }

    /// One step of iterative refinement on exact residuals: the affine
    /// correction of `m` solved from the per-vertex residuals (no moment
    /// cancellation), then projected back onto rigid motions. On float64
    /// surfaces the moment sums cannot resolve errors below ~1e-8 of the
    /// diagonal; the residuals can, and a control run comes out exact.
    pub fn refine(
        &self,
        cons: &Constraints,
        targets: &[Vector3<f64>],
        m: &[Matrix3x4<f64>],
    ) -> Vec<Matrix3x4<f64>> {
        let mut r = vec![Matrix3x4::<f64>::zeros(); m.len()];
        for (i, (p, t)) in cons.points.iter().zip(targets).enumerate() {
            let outer = (t - cons.skinned(i, m)) * p.transpose();
            let (js, ws) = cons.influences(i);
            for (&j, &w) in js.iter().zip(ws) {
                r[j] += outer * w;
            }
        }
        let x = self.solve(self.joints.iter().map(|&j| r[j].transpose()).collect());
        let mut out = m.to_vec();
        for (b, &j) in self.joints.iter().enumerate() {
            out[j] = self.rigid(cons, j, &(m[j] + x[b].transpose()));
        }
        out
    }

    /// `(G + ridge) X = rhs`, by the two block-sparse triangular sweeps.
    fn solve(&self, mut x: Vec<Matrix4x3<f64>>) -> Vec<Matrix4x3<f64>> {
        let nb = self.joints.len();
        for r in 0..nb {
            let mut acc = x[r];
            for (c, blk) in &self.rows[r] {
                acc -= blk * x[*c];
            }
            x[r] = self.diag_inv[r] * acc;
        }
        for r in (0..nb).rev() {
            let mut acc = x[r];
            for (k, blk) in &self.cols[r] {
                acc -= blk.transpose() * x[*k];
            }
            x[r] = self.diag_inv[r].transpose() * acc;
        }
        x
    }

    /// The rigid motion nearest an affine estimate of joint `j`'s matrix,
    /// keeping where the bone's own constraint centroid goes.
    fn rigid(&self, cons: &Constraints, j: usize, aff: &Matrix3x4<f64>) -> Matrix3x4<f64> {
        let (l, t) = parts(aff);
        let r = nearest_rotation(&l);
        let g = &cons.own[j];
        let centroid: Vector3<f64> = g.fixed_view::<3, 1>(0, 3).into_owned() / g[(3, 3)];
        compose(&r, &(l * centroid + t - r * centroid))
    }

    /// Factor blocks kept (diagonal included): the cost of one seed.
    pub fn factor_blocks(&self) -> usize {
        self.joints.len() + self.rows.iter().map(|r| r.len()).sum::<usize>()
    }
}

/// What one frame's solve did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameStats {
    /// Block-coordinate sweeps spent.
    pub sweeps: usize,
    /// RMS constraint error of the kept iterate (model units).
    pub rms: f64,
    /// Whether the affine seed beat the warm start.
    pub seeded: bool,
}

/// The per-frame stops and weights, read from [`super::SolveParams`] and the
/// surfaces' precision.
pub struct FrameSettings {
    /// Sweeps at most.
    pub max_sweeps: usize,
    /// Iterative-refinement steps of the seed on exact residuals (float64
    /// surfaces; see [`AffineSeed::refine`]).
    pub refine: usize,
    /// Absolute RMS progress per sweep below which the frame stops.
    pub progress: f64,
    /// RMS error below which the frame stops.
    pub floor: f64,
    /// Proximal pull of each Horn fit (see
    /// [`super::params::DEFAULT_PROXIMAL_WEIGHT`]).
    pub proximal: f64,
}

/// Solve one frame in place, starting from `m` (the previous frame's answer).
pub fn solve_frame(
    cons: &Constraints,
    seed: Option<&AffineSeed>,
    order: &[usize],
    targets: &[nalgebra::Vector3<f64>],
    y: &[Matrix3x4<f64>],
    m: &mut Vec<Matrix3x4<f64>>,
    set: &FrameSettings,
) -> FrameStats {
    let n = cons.len().max(1) as f64;
    let rms = |e: f64| (e.max(0.0) / n).sqrt();
    let yy: f64 = targets.iter().map(|t| t.norm_squared()).sum();
    let mut e = cons.moment_energy(m, y, yy);
    let mut stats = FrameStats::default();
    if let Some(seed) = seed {
        // Twice: the second solve is pulled towards the first instead of the
        // warm start, so the ridge's bias (1e-7 of the distance to the prior)
        // falls to its square, below float64 surfaces' own rounding.
        let first = seed.seed(cons, y, m);
        let mut cand = seed.seed(cons, y, &first);
        for _ in 0..set.refine {
            cand = seed.refine(cons, targets, &cand);
        }
        let ec = cons.moment_energy(&cand, y, yy);
        if ec < e {
            *m = cand;
            e = ec;
            stats.seeded = true;
        }
    }
    let mut best = (e, m.clone());
    for s in 0..set.max_sweeps {
        if rms(e) <= set.floor {
            break;
        }
        let d = sweep(cons, y, m, order, set.proximal);
        let e_new = e + d;
        stats.sweeps = s + 1;
        if e_new < best.0 {
            best = (e_new, m.clone());
        }
        let progress = rms(e) - rms(e_new);
        e = e_new;
        if progress < set.progress {
            break;
        }
    }
    if stats.sweeps > 0 {
        *m = best.1;
    }
    stats.rms = rms(cons.moment_energy(m, y, yy));
    stats
}
