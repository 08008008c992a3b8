//! Rotation-only mode: every non-root joint keeps its bind-pose local
//! translation (so every bone length is preserved exactly), and only local
//! rotations (plus each root's translation) are solved.
//!
//! In bind space this means `M_j h_j = M_parent h_j` for every non-root
//! joint `j` with bind head `h_j`: the joint's head is carried by its
//! parent. Blocks of the coordinate descent, each exact and closed-form:
//! * the local rotation of joint `j`, which turns its whole subtree rigidly
//!   about its head `P_j`: with `S_i` the subtree's share of skinned vertex
//!   `i` and `W_i` the subtree's weight on it, `z_i = S_i - W_i P_j`, the
//!   best turn `D` maximises `tr(D^T sum_i (e_i + z_i) z_i^T)` (Horn, `e_i`
//!   the current residual);
//! * the translation of each root's tree: `sum_i W_i e_i / sum_i W_i^2`.
//!
//! Residuals are kept per constraint vertex: a sweep costs
//! O(constraint vertices x skeleton depth).

use nalgebra::{Matrix3, Matrix3x4, Vector3};

use super::constraints::Constraints;
use super::horn::fit_rotation;
use super::rigid::{compose, FrameSettings, FrameStats};
use crate::rig::Rig;

pub struct Hierarchy {
    parents: Vec<Option<usize>>,
    order: Vec<usize>,
    /// Centred bind heads.
    heads: Vec<Vector3<f64>>,
    /// Euler-tour interval of each joint's subtree.
    tin: Vec<usize>,
    tout: Vec<usize>,
    /// Constraint vertices touched by each joint's subtree.
    touched: Vec<Vec<usize>>,
    roots: Vec<usize>,
}

impl Hierarchy {
    pub fn new(rig: &Rig, cons: &Constraints) -> Hierarchy {
        let b = rig.joint_count();
        let parents = rig.parents().to_vec();
        let mut children = vec![Vec::new(); b];
        let mut roots = Vec::new();
        for (j, p) in parents.iter().enumerate() {
            match p {
                Some(p) => children[*p].push(j),
                None => roots.push(j),
            }
        }
        let (mut tin, mut tout) = (vec![0; b], vec![0; b]);
        let mut clock = 0;
        let mut stack: Vec<(usize, bool)> = roots.iter().rev().map(|&r| (r, false)).collect();
        while let Some((j, done)) = stack.pop() {
            if done {
                tout[j] = clock;
                continue;
            }
            tin[j] = clock;
            clock += 1;
            stack.push((j, true));
            for &c in children[j].iter().rev() {
                stack.push((c, false));
            }
        }
        let heads = rig
            .bind_world()
            .iter()
            .map(|m| {
                let h = m.w_axis;
                Vector3::new(h.x as f64, h.y as f64, h.z as f64) - cons.center
            })
            .collect();
        let mut touched = vec![Vec::new(); b];
        let mut mark = vec![usize::MAX; b];
        for i in 0..cons.len() {
            let (js, _) = cons.influences(i);
            for &k in js {
                let mut a = Some(k);
                while let Some(j) = a {
                    if mark[j] == i {
                        break;
                    }
                    mark[j] = i;
                    touched[j].push(i);
                    a = parents[j];
                }
            }
        }
        Hierarchy { parents, order: rig.topological_order().to_vec(), heads, tin, tout, touched, roots }
    }

    #[inline]
    fn contains(&self, j: usize, k: usize) -> bool {
        self.tin[j] <= self.tin[k] && self.tin[k] < self.tout[j]
    }

    /// Rebuild every non-root translation from the hierarchy so that
    /// `M_j h_j = M_parent h_j`, keeping each joint's rotation.
    pub fn enforce(&self, m: &mut [Matrix3x4<f64>]) {
        for &j in &self.order {
            if let Some(p) = self.parents[j] {
                let head = m[p] * self.heads[j].push(1.0);
                let r: Matrix3<f64> = m[j].fixed_view::<3, 3>(0, 0).into_owned();
                m[j] = compose(&r, &(head - r * self.heads[j]));
            }
        }
    }

    /// Subtree share `S_i` and weight `W_i` of constraint vertex `i`.
    #[inline]
    fn share(&self, cons: &Constraints, j: usize, i: usize, m: &[Matrix3x4<f64>]) -> (Vector3<f64>, f64) {
        let (js, ws) = cons.influences(i);
        let (mut s, mut w) = (Vector3::zeros(), 0.0);
        for (&k, &wk) in js.iter().zip(ws) {
            if self.contains(j, k) {
                s += (m[k] * cons.points[i]) * wk;
                w += wk;
            }
        }
        (s, w)
    }

    fn residuals(&self, cons: &Constraints, m: &[Matrix3x4<f64>], targets: &[Vector3<f64>]) -> Vec<Vector3<f64>> {
        (0..cons.len()).map(|i| targets[i] - cons.skinned(i, m)).collect()
    }

    fn sweep(&self, cons: &Constraints, m: &mut [Matrix3x4<f64>], e: &mut [Vector3<f64>], proximal: f64) {
        // Root translations.
        for &r in &self.roots {
            let (mut num, mut den) = (Vector3::zeros(), 0.0);
            let shares: Vec<(usize, f64)> =
                self.touched[r].iter().map(|&i| (i, self.share(cons, r, i, m).1)).collect();
            for &(i, w) in &shares {
                num += e[i] * w;
                den += w * w;
            }
            if den <= 0.0 {
                continue;
            }
            let d = num / den;
            for k in 0..m.len() {
                if self.contains(r, k) {
                    let t = m[k].column(3) + d;
                    m[k].set_column(3, &t);
                }
            }
            for &(i, w) in &shares {
                e[i] -= d * w;
            }
        }
        // Local rotations, parents first.
        let mut z: Vec<Vector3<f64>> = Vec::new();
        for &j in &self.order {
            let list = &self.touched[j];
            if list.is_empty() {
                continue;
            }
            let pivot = m[j] * self.heads[j].push(1.0);
            z.clear();
            let mut k3 = Matrix3::zeros();
            let mut spread = 0.0;
            for &i in list {
                let (s, w) = self.share(cons, j, i, m);
                let zi = s - pivot * w;
                k3 += (e[i] + zi) * zi.transpose();
                spread += zi.norm_squared();
                z.push(zi);
            }
            k3 += Matrix3::identity() * (proximal * spread);
            let d = fit_rotation(&k3).to_rotation_matrix().into_inner();
            if d == Matrix3::identity() {
                continue;
            }
            for k in 0..m.len() {
                if self.contains(j, k) {
                    let r: Matrix3<f64> = m[k].fixed_view::<3, 3>(0, 0).into_owned();
                    let t: Vector3<f64> = m[k].column(3).into_owned();
                    m[k] = compose(&(d * r), &(d * (t - pivot) + pivot));
                }
            }
            let dm = d - Matrix3::identity();
            for (&i, zi) in list.iter().zip(&z) {
                e[i] -= dm * zi;
            }
        }
    }

    /// Solve one frame in place from `m` (hierarchy-consistent), optionally
    /// starting instead from `alt` when it is closer to the targets.
    pub fn solve_frame(
        &self,
        cons: &Constraints,
        targets: &[Vector3<f64>],
        m: &mut Vec<Matrix3x4<f64>>,
        alt: Option<Vec<Matrix3x4<f64>>>,
        set: &FrameSettings,
    ) -> FrameStats {
        let n = cons.len().max(1) as f64;
        let rms = |e: &[Vector3<f64>]| (e.iter().map(|x| x.norm_squared()).sum::<f64>() / n).sqrt();
        let mut e = self.residuals(cons, m, targets);
        let mut stats = FrameStats::default();
        if let Some(alt) = alt {
            let ea = self.residuals(cons, &alt, targets);
            if rms(&ea) < rms(&e) {
                *m = alt;
                e = ea;
                stats.seeded = true;
            }
        }
        let mut cur = rms(&e);
        let mut best = (cur, m.clone());
        for s in 0..set.max_sweeps {
            if cur <= set.floor {
                break;
            }
            self.sweep(cons, m, &mut e, set.proximal);
            stats.sweeps = s + 1;
            let new = rms(&e);
            if new < best.0 {
                best = (new, m.clone());
            }
            let progress = cur - new;
            cur = new;
            if progress < set.progress {
                break;
            }
        }
        *m = best.1;
        // Re-derive translations so that rounding never bends a bone.
        self.enforce(m);
        stats.rms = rms(&self.residuals(cons, m, targets));
        stats
    }
}
