//! Rotation-only mode: every non-root joint keeps its bind-pose local
//! translation (so every bone length is preserved exactly), and only local
//! rotations, plus each root's translation, are solved.
//!
//! In bind space this means `M_j h_j = M_parent h_j` for every non-root
//! joint `j` with bind head `h_j`: the joint's head is carried by its
//! parent. Turning joint `j`'s local rotation by a small world-axis vector
//! `w` turns its whole subtree about its head `P_j`, moving constraint
//! vertex `i` by `w x z_ij` with `z_ij = S_ij - W_ij P_j` (`S_ij` the
//! subtree's share of the skinned vertex, `W_ij` its weight on it).
//!
//! Why not the rigid mode's bone-by-bone sweeps here: with lengths pinned,
//! a chain bends only through every joint above it, and one-joint-at-a-time
//! descent crawls (measured on the Wolf Gallop: RMS still falling after
//! 1,000 sweeps). All rotations are therefore solved together by
//! Levenberg-Marquardt on those exact first derivatives, each step applied
//! as exact rotations (children first, each about its current head) and
//! accepted only if the error falls. It stops on absolute progress relative
//! to the model scale, like the rigid sweeps, and keeps the best iterate.

#![allow(clippy::needless_range_loop)] // index loops read as the 4x4 maths they implement

use nalgebra::{DMatrix, DVector, Matrix3, Matrix3x4, Rotation3, Vector3};

use super::constraints::Constraints;
use super::rigid::{compose, FrameSettings, FrameStats};
use crate::rig::Rig;

/// Levenberg-Marquardt damping at the start of a frame, relative to each
/// unknown's own curvature (Marquardt scaling).
pub const LM_INITIAL_DAMPING: f64 = 1e-4;
/// Damping factor after a rejected step.
pub const LM_RAISE: f64 = 8.0;
/// Damping factor after an accepted step.
pub const LM_LOWER: f64 = 0.25;
/// Damping above which a frame gives up improving (no descent left at
/// machine precision).
pub const LM_MAX_DAMPING: f64 = 1e12;

/// The rig's hierarchy as the rotation-only solve's unknowns see it: each
/// joint's subtree, the bind heads, and which constraint vertices each
/// rotation moves.
pub struct Hierarchy {
    parents: Vec<Option<usize>>,
    order: Vec<usize>,
    /// Centred bind heads.
    heads: Vec<Vector3<f64>>,
    /// Euler-tour interval of each joint's subtree.
    tin: Vec<usize>,
    tout: Vec<usize>,
    roots: Vec<usize>,
    /// Root of each joint's tree.
    root_of: Vec<usize>,
    /// Per constraint vertex, the joints whose subtree weights it (CSR).
    anc_offsets: Vec<usize>,
    anc: Vec<usize>,
    /// Unknowns: rotation of joint j at `rot_param[j]` (3 values), the
    /// translation of root r at `trans_param[r]`.
    rot_param: Vec<Option<usize>>,
    trans_param: Vec<Option<usize>>,
    unknowns: usize,
}

impl Hierarchy {
    /// The hierarchy of `rig` over the constraint vertices of `cons`.
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
        let order = rig.topological_order().to_vec();
        let mut root_of = vec![0; b];
        for &j in &order {
            root_of[j] = match parents[j] {
                Some(p) => root_of[p],
                None => j,
            };
        }
        let heads = rig
            .bind_world()
            .iter()
            .map(|m| {
                let h = m.w_axis;
                Vector3::new(h.x as f64, h.y as f64, h.z as f64) - cons.center
            })
            .collect();
        let mut anc_offsets = vec![0];
        let mut anc = Vec::new();
        let mut mark = vec![usize::MAX; b];
        let mut used = vec![false; b];
        for i in 0..cons.len() {
            let (js, _) = cons.influences(i);
            let start = anc.len();
            for &k in js {
                let mut a = Some(k);
                while let Some(j) = a {
                    if mark[j] == i {
                        break;
                    }
                    mark[j] = i;
                    anc.push(j);
                    used[j] = true;
                    a = parents[j];
                }
            }
            anc[start..].sort_unstable();
            anc_offsets.push(anc.len());
        }
        let mut unknowns = 0;
        let mut rot_param = vec![None; b];
        let mut trans_param = vec![None; b];
        for j in 0..b {
            if used[j] {
                rot_param[j] = Some(unknowns);
                unknowns += 3;
            }
        }
        for &r in &roots {
            if used[r] {
                trans_param[r] = Some(unknowns);
                unknowns += 3;
            }
        }
        Hierarchy {
            parents,
            order,
            heads,
            tin,
            tout,
            roots,
            root_of,
            anc_offsets,
            anc,
            rot_param,
            trans_param,
            unknowns,
        }
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

    fn energy(&self, cons: &Constraints, m: &[Matrix3x4<f64>], targets: &[Vector3<f64>]) -> f64 {
        cons.energy(m, targets)
    }

    /// Normal equations `J^T J` and `J^T e` at `m`.
    fn normal_equations(
        &self,
        cons: &Constraints,
        m: &[Matrix3x4<f64>],
        targets: &[Vector3<f64>],
    ) -> (DMatrix<f64>, DVector<f64>) {
        let u = self.unknowns;
        let mut a = DMatrix::<f64>::zeros(u, u);
        let mut g = DVector::<f64>::zeros(u);
        let pivots: Vec<Vector3<f64>> =
            (0..m.len()).map(|j| m[j] * self.heads[j].push(1.0)).collect();
        // Per vertex: (param index, kind, vector) rows of J^T; kind 0 = rotation (z), 1 = translation (weight in x).
        let mut rows: Vec<(usize, bool, Vector3<f64>, f64)> = Vec::new();
        for i in 0..cons.len() {
            let (js, ws) = cons.influences(i);
            let q: Vec<Vector3<f64>> =
                js.iter().zip(ws).map(|(&k, &w)| (m[k] * cons.points[i]) * w).collect();
            let mut s_all = Vector3::zeros();
            for qk in &q {
                s_all += qk;
            }
            let e = targets[i] - s_all;
            rows.clear();
            for &j in &self.anc[self.anc_offsets[i]..self.anc_offsets[i + 1]] {
                let (mut s, mut w) = (Vector3::zeros(), 0.0);
                for ((&k, &wk), qk) in js.iter().zip(ws).zip(&q) {
                    if self.contains(j, k) {
                        s += qk;
                        w += wk;
                    }
                }
                let z = s - pivots[j] * w;
                if let Some(p) = self.rot_param[j] {
                    rows.push((p, false, z, 0.0));
                }
                if let Some(p) = self.trans_param[j] {
                    rows.push((p, true, Vector3::zeros(), w));
                }
            }
            for (ra, &(pa, ta, za, wa)) in rows.iter().enumerate() {
                // J_a^T e
                let ga = if ta { e * wa } else { za.cross(&e) };
                for r in 0..3 {
                    g[pa + r] += ga[r];
                }
                for &(pb, tb, zb, wb) in &rows[ra..] {
                    // J_a^T J_b with J_rot = -[z]x, J_trans = w I.
                    let block: Matrix3<f64> = match (ta, tb) {
                        (false, false) => Matrix3::identity() * za.dot(&zb) - zb * za.transpose(),
                        (false, true) => za.cross_matrix() * wb,
                        (true, false) => -(zb.cross_matrix()) * wa,
                        (true, true) => Matrix3::identity() * (wa * wb),
                    };
                    for r in 0..3 {
                        for c in 0..3 {
                            a[(pa + r, pb + c)] += block[(r, c)];
                        }
                    }
                    if pa != pb {
                        for r in 0..3 {
                            for c in 0..3 {
                                a[(pb + c, pa + r)] += block[(r, c)];
                            }
                        }
                    }
                }
            }
        }
        (a, g)
    }

    /// Applies a step: rotations children first, each about its current
    /// head, then root translations.
    fn apply(&self, m: &[Matrix3x4<f64>], step: &DVector<f64>) -> Vec<Matrix3x4<f64>> {
        let mut out = m.to_vec();
        for &j in self.order.iter().rev() {
            let Some(p) = self.rot_param[j] else { continue };
            let w = Vector3::new(step[p], step[p + 1], step[p + 2]);
            if w == Vector3::zeros() {
                continue;
            }
            let d = Rotation3::new(w).into_inner();
            let pivot = out[j] * self.heads[j].push(1.0);
            for k in 0..out.len() {
                if self.contains(j, k) {
                    let r: Matrix3<f64> = out[k].fixed_view::<3, 3>(0, 0).into_owned();
                    let t: Vector3<f64> = out[k].column(3).into_owned();
                    out[k] = compose(&(d * r), &(d * (t - pivot) + pivot));
                }
            }
        }
        for &r in &self.roots {
            let Some(p) = self.trans_param[r] else { continue };
            let d = Vector3::new(step[p], step[p + 1], step[p + 2]);
            for k in 0..out.len() {
                if self.root_of[k] == r {
                    let t = out[k].column(3) + d;
                    out[k].set_column(3, &t);
                }
            }
        }
        out
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
        let rms = |e: f64| (e.max(0.0) / n).sqrt();
        let mut e = self.energy(cons, m, targets);
        let mut stats = FrameStats::default();
        if let Some(alt) = alt {
            let ea = self.energy(cons, &alt, targets);
            if ea < e {
                *m = alt;
                e = ea;
                stats.seeded = true;
            }
        }
        let mut damping = LM_INITIAL_DAMPING;
        for s in 0..set.max_sweeps {
            if rms(e) <= set.floor || self.unknowns == 0 {
                break;
            }
            stats.sweeps = s + 1;
            let (a, g) = self.normal_equations(cons, m, targets);
            let scale =
                (0..self.unknowns).map(|r| a[(r, r)]).fold(0.0f64, f64::max).max(f64::MIN_POSITIVE);
            let mut accepted = None;
            while damping <= LM_MAX_DAMPING {
                let mut damped = a.clone();
                for r in 0..self.unknowns {
                    damped[(r, r)] += damping * a[(r, r)].max(1e-12 * scale);
                }
                if let Some(ch) = damped.cholesky() {
                    let step = ch.solve(&g);
                    let cand = self.apply(m, &step);
                    let ec = self.energy(cons, &cand, targets);
                    if ec < e {
                        accepted = Some((cand, ec));
                        damping = (damping * LM_LOWER).max(1e-15);
                        break;
                    }
                }
                damping *= LM_RAISE;
            }
            let Some((cand, ec)) = accepted else { break };
            let progress = rms(e) - rms(ec);
            *m = cand;
            e = ec;
            if progress < set.progress {
                break;
            }
        }
        // Re-derive translations so that rounding never bends a bone.
        self.enforce(m);
        stats.rms = rms(self.energy(cons, m, targets));
        stats
    }
}
