//! The trunk: which leg junction is the pelvis, and the path from it to the
//! head. Limb pairs come from [`super::limbs`]; every structural joint
//! outside them lies on the body's mid plane (the trunk, the neck, the
//! head, a tail with bones).

use super::limbs::LimbPair;
use super::names::{names_head, names_the_head};
use super::structure::Structure;

/// Two sides of a junction weigh the same (for telling the head's side from
/// the tail's) when the lighter holds at least this share of the heavier's
/// skin.
pub const SAME_MASS: f32 = 0.75;
/// Two sides reach the same height when their highest joints lie within
/// this share of the model height.
pub const SAME_HEIGHT: f32 = 0.05;

/// The head is the last joint past the shoulders holding at least this
/// share of the skin surface of the heaviest joint there (see
/// `Axial::head_on`). A share of surface, not of vertices (a count moves
/// with triangulation, seams and blend rings). Between the two things it
/// tells apart: a skull behind a long neck holds 0.42 of the neck's
/// surface at least on the generated corpus (a quadruped's single neck
/// joint, seeds 0..600) and the Alpaca's `Head` 0.73 of its `Neck2`; what
/// hangs past the head holds little of it (the rabbit's `face` 0.29 of
/// its head, a nub nothing).
pub const HEAD_MASS_SHARE: f32 = 1.0 / 3.0;

/// A leg junction's free side leads to a head (or a tail with bones) only
/// when it reaches at least this share of the trunk (the way to the nearest
/// other leg junction) away from it; flesh bones round a junction do not.
pub const FREE_SIDE_REACH: f32 = 0.25;

/// How a tie between two sides was settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Settled {
    Mass,
    Height,
    Name,
    Order,
}

/// A side of joint `o`: everything reached from its neighbour `n`.
#[derive(Clone, Copy, Debug)]
struct Side {
    n: usize,
    mass: f32,
    top: f32,
    named_head: bool,
}

pub struct Axial<'a> {
    s: &'a Structure,
    /// Joints inside a limb pair's branches.
    pub limb: Vec<bool>,
    total_mass: f32,
    /// Highest joint head, and whether a joint is named like a head, over
    /// each structural subtree (`sub_*`) and over everything outside it
    /// (`out_*`): every side of a joint in constant time.
    sub_top: Vec<f32>,
    sub_named: Vec<bool>,
    out_top: Vec<f32>,
    out_named: Vec<bool>,
}

impl<'a> Axial<'a> {
    pub fn new(s: &'a Structure, pairs: &[LimbPair], names: &[String]) -> Axial<'a> {
        let n = s.heads.len();
        let mut limb = vec![false; n];
        for p in pairs {
            for j in p.joints(s) {
                limb[j] = true;
            }
        }
        let total_mass = s.order.iter().map(|&j| s.mass[j]).sum();
        let named: Vec<bool> = names.iter().map(|x| names_head(x)).collect();
        let mut sub_top: Vec<f32> = s.heads.iter().map(|h| h.y).collect();
        let mut sub_named = named.clone();
        for &j in s.order.iter().rev() {
            if let Some(p) = s.up[j] {
                sub_top[p] = sub_top[p].max(sub_top[j]);
                sub_named[p] |= sub_named[j];
            }
        }
        let mut out_top = vec![f32::NEG_INFINITY; n];
        let mut out_named = vec![false; n];
        for &p in &s.order {
            let kids = &s.down[p];
            // Prefix and suffix maxima over the siblings.
            let k = kids.len();
            let mut pre = vec![(f32::NEG_INFINITY, false); k + 1];
            for i in 0..k {
                pre[i + 1] = (pre[i].0.max(sub_top[kids[i]]), pre[i].1 | sub_named[kids[i]]);
            }
            let mut suf = vec![(f32::NEG_INFINITY, false); k + 1];
            for i in (0..k).rev() {
                suf[i] = (suf[i + 1].0.max(sub_top[kids[i]]), suf[i + 1].1 | sub_named[kids[i]]);
            }
            for (i, &c) in kids.iter().enumerate() {
                out_top[c] = out_top[p].max(s.heads[p].y).max(pre[i].0).max(suf[i + 1].0);
                out_named[c] = out_named[p] | named[p] | pre[i].1 | suf[i + 1].1;
            }
        }
        Axial { s, limb, total_mass, sub_top, sub_named, out_top, out_named }
    }

    pub fn is_axial(&self, j: usize) -> bool {
        self.s.structural[j] && !self.limb[j]
    }

    /// Axial neighbours of `j`.
    pub fn neighbours(&self, j: usize) -> Vec<usize> {
        let s = self.s;
        s.up[j].into_iter().chain(s.down[j].iter().copied()).filter(|&k| self.is_axial(k)).collect()
    }

    /// Everything reached from `n` without passing `o` (`n` a neighbour of
    /// `o`), in constant time.
    fn side(&self, o: usize, n: usize) -> Side {
        let s = self.s;
        if s.up[o] == Some(n) {
            Side {
                n,
                mass: self.total_mass - s.sub_mass[o],
                top: self.out_top[o],
                named_head: self.out_named[o],
            }
        } else {
            Side { n, mass: s.sub_mass[n], top: self.sub_top[n], named_head: self.sub_named[n] }
        }
    }

    /// The side of `o` (among its neighbours `ns`) that leads to the head:
    /// the heavier; when the two heaviest weigh the same, the higher; when
    /// they also reach as high, the one holding a joint named like a head.
    fn head_side(&self, o: usize, ns: &[usize]) -> Option<(usize, Settled)> {
        let mut sides: Vec<Side> = ns.iter().map(|&n| self.side(o, n)).collect();
        sides.sort_by(|a, b| b.mass.total_cmp(&a.mass).then(a.n.cmp(&b.n)));
        let first = *sides.first()?;
        let Some(second) = sides.get(1).copied() else { return Some((first.n, Settled::Mass)) };
        if second.mass < SAME_MASS * first.mass {
            return Some((first.n, Settled::Mass));
        }
        if (first.top - second.top).abs() > SAME_HEIGHT * self.s.height {
            let hi = if first.top > second.top { first } else { second };
            return Some((hi.n, Settled::Height));
        }
        if first.named_head != second.named_head {
            let named = if first.named_head { first } else { second };
            return Some((named.n, Settled::Name));
        }
        Some((first.n, Settled::Order))
    }

    /// The mid-line joint holding the most skin, leg junctions aside: on a
    /// four-legged body the head (a skull carries more skin than any one
    /// trunk joint, and limbs are not mid-line), the one thing the pelvis
    /// is farthest from.
    fn heaviest_end(&self, junctions: &[usize]) -> Option<usize> {
        let s = self.s;
        s.order
            .iter()
            .copied()
            .filter(|&j| self.is_axial(j) && !junctions.contains(&j))
            .max_by(|&a, &b| s.mass[a].total_cmp(&s.mass[b]).then(b.cmp(&a)))
    }

    /// Of several leg junctions, the pelvis. The front junction is the one
    /// whose free side (a side leading to no other leg junction) leads to
    /// the head: heavier, else higher, else holding a joint named like a
    /// head; the pelvis is the junction farthest from it along the trunk.
    /// Where no junction has a free side (a Rigify rig hangs both pairs of
    /// legs from controls whose tree says nothing of the body's shape), the
    /// pelvis is the junction farthest, straight, from the heaviest mid-line
    /// joint (the head).
    pub fn pelvis_of(&self, junctions: &[usize]) -> (usize, Settled) {
        let s = self.s;
        if junctions.len() == 1 {
            return (junctions[0], Settled::Order);
        }
        let leads_to = |o: usize, n: usize, t: usize| {
            if s.up[o] == Some(n) {
                !s.is_below(t, o)
            } else {
                s.is_below(t, n)
            }
        };
        let mut best: Option<(usize, Side)> = None;
        let mut settled = Settled::Mass;
        for &j in junctions {
            // A free side that ends within a quarter of the trunk (the way
            // to the nearest other leg junction) is flesh round the junction
            // (Rigify's `DEF-pelvis` bones), not a neck and a head.
            let trunk = junctions
                .iter()
                .filter(|&&t| t != j)
                .map(|&t| s.heads[t].distance(s.heads[j]))
                .fold(f32::INFINITY, f32::min);
            let reaches = |n: usize| {
                let joints: Vec<usize> = if s.up[j] == Some(n) {
                    s.order.iter().copied().filter(|&k| !s.is_below(k, j)).collect()
                } else {
                    s.subtree(n)
                };
                joints.iter().any(|&k| s.heads[k].distance(s.heads[j]) >= FREE_SIDE_REACH * trunk)
            };
            let free: Vec<usize> = self
                .neighbours(j)
                .into_iter()
                .filter(|&n| !junctions.iter().any(|&t| t != j && leads_to(j, n, t)) && reaches(n))
                .collect();
            let Some((n, _)) = self.head_side(j, &free) else { continue };
            let side = self.side(j, n);
            best = match best {
                None => Some((j, side)),
                Some((bj, bs)) => {
                    let (heavier, lighter) = if side.mass > bs.mass {
                        ((j, side), (bj, bs))
                    } else {
                        ((bj, bs), (j, side))
                    };
                    if lighter.1.mass < SAME_MASS * heavier.1.mass {
                        settled = Settled::Mass;
                        Some(heavier)
                    } else if (side.top - bs.top).abs() > SAME_HEIGHT * s.height {
                        settled = Settled::Height;
                        Some(if side.top > bs.top { (j, side) } else { (bj, bs) })
                    } else if side.named_head != bs.named_head {
                        settled = Settled::Name;
                        Some(if side.named_head { (j, side) } else { (bj, bs) })
                    } else {
                        settled = Settled::Order;
                        Some((bj, bs))
                    }
                }
            };
        }
        let Some((front, _)) = best else {
            let Some(head) = self.heaviest_end(junctions) else {
                return (junctions[0], Settled::Order);
            };
            let far = |j: usize| s.heads[j].distance(s.heads[head]);
            let pelvis = junctions
                .iter()
                .copied()
                .max_by(|&a, &b| far(a).total_cmp(&far(b)).then(b.cmp(&a)))
                .unwrap_or(junctions[0]);
            return (pelvis, Settled::Mass);
        };
        let pelvis = junctions
            .iter()
            .copied()
            .filter(|&j| j != front)
            .max_by(|&a, &b| {
                self.path_len(front, a).total_cmp(&self.path_len(front, b)).then(b.cmp(&a))
            })
            .unwrap_or(front);
        (pelvis, settled)
    }

    /// Length of the structural path between two joints.
    fn path_len(&self, a: usize, b: usize) -> f32 {
        let s = self.s;
        let depth = |mut j: usize| {
            let mut d = 0usize;
            while let Some(p) = s.up[j] {
                d += 1;
                j = p;
            }
            d
        };
        let (mut x, mut y) = (a, b);
        let (mut dx, mut dy) = (depth(x), depth(y));
        let mut len = 0.0f32;
        while dx > dy {
            let p = s.up[x].unwrap();
            len += s.heads[x].distance(s.heads[p]);
            x = p;
            dx -= 1;
        }
        while dy > dx {
            let p = s.up[y].unwrap();
            len += s.heads[y].distance(s.heads[p]);
            y = p;
            dy -= 1;
        }
        while x != y {
            match (s.up[x], s.up[y]) {
                (Some(px), Some(py)) => {
                    len += s.heads[x].distance(s.heads[px]) + s.heads[y].distance(s.heads[py]);
                    x = px;
                    y = py;
                }
                _ => return f32::INFINITY,
            }
        }
        len
    }

    /// The trunk from `pelvis` to its far end on the head's side: at every
    /// joint the side leading to the head. Returns the path (pelvis first)
    /// and how the first step was settled.
    pub fn head_path(&self, pelvis: usize) -> (Vec<usize>, Settled) {
        let mut on_path = vec![false; self.s.heads.len()];
        on_path[pelvis] = true;
        let mut path = vec![pelvis];
        let mut j = pelvis;
        let mut first = Settled::Order;
        loop {
            let ns: Vec<usize> = self.neighbours(j).into_iter().filter(|&n| !on_path[n]).collect();
            let Some((n, settled)) = self.head_side(j, &ns) else { break };
            if path.len() == 1 {
                first = settled;
            }
            on_path[n] = true;
            path.push(n);
            j = n;
        }
        (path, first)
    }

    /// The head on `path` past its shoulders (`from`: the first index past
    /// them): the one joint there named like a head that carries skin (a
    /// Rigify `head` whose skin its `skull` children hold, the phoenix's
    /// `b_Head_06` with a fifth of the surface of its feathered first neck
    /// joint), else the last joint holding at least [`HEAD_MASS_SHARE`] of
    /// the skin surface of the heaviest one. Not simply the heaviest: a long neck carries more surface than
    /// the skull (the Alpaca's `Neck2` 1.37 times its `Head`, a generated
    /// quadruped's one neck joint up to 2.4 times its head), while what the
    /// trunk's path runs into past the head (a face or jaw bone, a nub)
    /// carries a small part of it. Returns the index in `path` and whether
    /// a name decided.
    pub fn head_on(&self, path: &[usize], from: usize, names: &[String]) -> Option<(usize, bool)> {
        let s = self.s;
        if from >= path.len() {
            return None;
        }
        let heaviest = (from..path.len()).map(|i| s.mass[path[i]]).fold(0.0f32, f32::max);
        let h = (from..path.len())
            .rev()
            .find(|&i| s.mass[path[i]] >= HEAD_MASS_SHARE * heaviest)
            .unwrap_or(path.len() - 1);
        let named: Vec<usize> = (from..path.len())
            .filter(|&i| s.mass[path[i]] > 0.0 && names_the_head(&names[path[i]]))
            .collect();
        if named.len() == 1 {
            return Some((named[0], named[0] != h));
        }
        Some((h, false))
    }

    /// The neck: the first joint past the shoulders, or the one before the
    /// head named like a neck. Returns the index and whether a name decided.
    pub fn neck_on(
        &self,
        path: &[usize],
        from: usize,
        head_at: usize,
        names: &[String],
    ) -> Option<(usize, bool)> {
        if head_at <= from {
            return None;
        }
        let named =
            (from..head_at).find(|&i| super::names::base_name(&names[path[i]]).contains("neck"));
        Some(named.map_or((from, false), |i| (i, i != from)))
    }
}
