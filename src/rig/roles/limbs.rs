//! Limbs: mirrored pairs of branches of the structural skeleton. Legs are
//! the pairs that reach the floor; arms, wings and ears are pairs that do
//! not. A tail with bones, the spine and the neck are single branches on
//! the body's mid plane, never paired.

use glam::Vec3;

use super::structure::Structure;

/// A leg is at least this share of the model height long, measured from
/// the joint it hangs from down to the floor: toes and fingers, whose
/// branches also reach the floor, hang from joints lower than that.
pub const LEG_MIN_DROP: f32 = 0.1;

/// A branch reaches the floor when its lowest skin lies within this share
/// of its junction's height above the floor. A leg's foot is at the floor
/// (0); a biped's hanging hand is half the shoulder height up; the bound
/// sits between, well clear of both.
pub const LEG_REACH: f32 = 0.25;

/// Two branches are a mirrored pair when the mirror image of one lies
/// within this share of their length of the other (including the junction
/// and the mid-line joints beside them lying on the mirror plane). Real
/// left/right pairs score a few percent; a front leg against the opposite
/// hind leg, or the spine against a tail, scores well above one.
pub const MIRROR_TOLERANCE: f32 = 0.25;

/// Every pair of one body mirrors across the same mid plane: a pair that is
/// not a leg pair counts only when its mirror plane's normal lies within 45
/// degrees (this cosine) of the legs'. A spine and a tail with bones also
/// mirror each other, across a plane square to the body.
pub const LATERAL_AGREEMENT: f32 = 0.7;

/// At most this many branches of one junction are compared pairwise (the
/// heaviest): a junction with hundreds of children is a file's flat
/// helper list, not a body.
pub const MAX_BRANCHES: usize = 12;

/// Points sampled along a limb's chain for the mirror comparison.
const SAMPLES: usize = 6;

/// One branch of a pair: the junction's child it starts at and its main
/// chain (down to its lowest end for legs, its farthest end otherwise).
#[derive(Clone, Debug, PartialEq)]
pub struct Limb {
    /// The junction's child the branch starts at.
    pub root: usize,
    /// Joints of the branch's main chain, from `root` down.
    pub chain: Vec<usize>,
}

/// A mirrored pair of branches at one junction.
#[derive(Clone, Debug, PartialEq)]
pub struct LimbPair {
    /// The joint both branches hang from.
    pub junction: usize,
    /// The two branches, left (+X) first.
    pub limbs: [Limb; 2],
    /// Both branches reach the floor: legs.
    pub legs: bool,
    /// Mirror error relative to the limbs' length (0 = exact mirror).
    pub score: f32,
    /// Unit normal of the mirror plane (horizontal, from the second limb
    /// towards the first).
    pub across: Vec3,
}

impl LimbPair {
    /// Every structural joint of both branches.
    pub fn joints(&self, s: &Structure) -> Vec<usize> {
        self.limbs.iter().flat_map(|l| s.subtree(l.root)).collect()
    }
}

/// A limb's chain never runs longer than this many joints: real limbs are a
/// handful of bones, and the cap keeps a hostile comb of a skeleton linear.
pub const MAX_CHAIN_JOINTS: usize = 64;

fn chain_of(s: &Structure, root: usize, leg: bool) -> Vec<usize> {
    let mut chain = vec![root];
    let mut j = root;
    while chain.len() < MAX_CHAIN_JOINTS {
        // A leg follows its lowest-reaching child, any other limb its
        // heaviest (the wing's arm bones, not a feather).
        let next = if leg {
            s.down[j]
                .iter()
                .copied()
                .min_by(|&a, &b| s.sub_low[a].y.total_cmp(&s.sub_low[b].y).then(a.cmp(&b)))
        } else {
            s.down[j]
                .iter()
                .copied()
                .max_by(|&a, &b| s.sub_mass[a].total_cmp(&s.sub_mass[b]).then(b.cmp(&a)))
        };
        match next {
            Some(c) => {
                chain.push(c);
                j = c;
            }
            None => break,
        }
    }
    chain
}

/// `SAMPLES` points along a chain's joint heads and the centre of its last
/// joint's skin, evenly by arc length.
fn samples(s: &Structure, limb: &Limb) -> (Vec<Vec3>, f32) {
    let mut pts: Vec<Vec3> = limb.chain.iter().map(|&j| s.heads[j]).collect();
    // The limb ends in the middle of its last joint's skin (a foot, a
    // hand, a one-joint limb exported as its own root).
    let last = *limb.chain.last().unwrap();
    if s.has_skin[last] {
        pts.push(s.skin_centre[last]);
    }
    let mut cum = vec![0.0f32];
    for w in pts.windows(2) {
        cum.push(cum.last().unwrap() + w[0].distance(w[1]));
    }
    let total = *cum.last().unwrap();
    if total <= 0.0 {
        return (vec![pts[0]; SAMPLES], 0.0);
    }
    let out = (0..SAMPLES)
        .map(|i| {
            let t = total * i as f32 / (SAMPLES - 1) as f32;
            let k = cum.partition_point(|&c| c < t).clamp(1, pts.len() - 1);
            let (a, b) = (cum[k - 1], cum[k]);
            let f = if b > a { (t - a) / (b - a) } else { 0.0 };
            pts[k - 1].lerp(pts[k], f)
        })
        .collect();
    (out, total)
}

/// Mirror error of branches `a`, `b` at `junction`: the vertical plane
/// bisecting their centroids must map one chain onto the other and hold the
/// junction and `mid_line` joints. `None` when the branches do not sit side
/// by side at all.
fn mirror_score(
    s: &Structure,
    junction: usize,
    a: &Limb,
    b: &Limb,
    mid_line: &[usize],
) -> Option<(f32, Vec3)> {
    let (pa, la) = samples(s, a);
    let (pb, lb) = samples(s, b);
    let len = la.max(lb);
    if len <= 0.0 {
        return None;
    }
    let ca = pa.iter().copied().sum::<Vec3>() / SAMPLES as f32;
    let cb = pb.iter().copied().sum::<Vec3>() / SAMPLES as f32;
    let across = Vec3::new(ca.x - cb.x, 0.0, ca.z - cb.z);
    if across.length() < 1e-3 * len {
        return None;
    }
    let n = across.normalize();
    let m = 0.5 * (ca + cb);
    let reflect = |p: Vec3| p - 2.0 * n * n.dot(p - m);
    let chain_err =
        pa.iter().zip(&pb).map(|(&p, &q)| reflect(p).distance(q)).sum::<f32>() / SAMPLES as f32;
    let off_plane = |j: usize| n.dot(s.heads[j] - m).abs();
    let mid = if mid_line.is_empty() {
        0.0
    } else {
        mid_line.iter().map(|&j| off_plane(j)).sum::<f32>() / mid_line.len() as f32
    };
    let length_err = (la - lb).abs();
    Some(((chain_err + off_plane(junction) + mid + length_err) / len, n))
}

/// Greedy pairing of `cands` (branch roots at `junction`): the best-scoring
/// pairs first, each branch used once.
fn pair_up(
    s: &Structure,
    junction: usize,
    cands: &[usize],
    leg: bool,
    mid_line: &[usize],
    lateral: Option<Vec3>,
) -> Vec<LimbPair> {
    let limbs: Vec<Limb> =
        cands.iter().map(|&c| Limb { root: c, chain: chain_of(s, c, leg) }).collect();
    let mut scored = Vec::new();
    for i in 0..limbs.len() {
        for k in i + 1..limbs.len() {
            if let Some((score, n)) = mirror_score(s, junction, &limbs[i], &limbs[k], mid_line) {
                let agrees = lateral.is_none_or(|l| n.dot(l).abs() >= LATERAL_AGREEMENT);
                if score <= MIRROR_TOLERANCE && agrees {
                    scored.push((score, i, k, n));
                }
            }
        }
    }
    scored.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let mut used = vec![false; limbs.len()];
    let mut out = Vec::new();
    for (score, i, k, across) in scored {
        if used[i] || used[k] {
            continue;
        }
        used[i] = true;
        used[k] = true;
        out.push(LimbPair {
            junction,
            limbs: [limbs[i].clone(), limbs[k].clone()],
            legs: leg,
            score,
            across,
        });
    }
    out
}

/// The heaviest `MAX_BRANCHES` of `js` (ties: lower index).
fn heaviest(s: &Structure, mut js: Vec<usize>) -> Vec<usize> {
    if js.len() > MAX_BRANCHES {
        js.sort_by(|&a, &b| s.sub_mass[b].total_cmp(&s.sub_mass[a]).then(a.cmp(&b)));
        js.truncate(MAX_BRANCHES);
        js.sort_unstable();
    }
    js
}

/// Every mirrored pair of the skeleton: legs first (pairs of branches that
/// reach the floor and hold no other leg junction), then the other pairs
/// among the remaining branches of every junction.
pub fn find_pairs(s: &Structure) -> Vec<LimbPair> {
    let n = s.heads.len();
    // Whether a joint's subtree holds a leg junction (filled bottom-up).
    let mut holds_legs = vec![false; n];
    let mut leg_pairs = Vec::new();
    let mut paired = vec![false; n];
    for &j in s.order.iter().rev() {
        let kids = &s.down[j];
        let rise = s.heads[j].y - s.floor;
        let mut here = Vec::new();
        if kids.len() >= 2 && rise >= LEG_MIN_DROP * s.height {
            let cands: Vec<usize> = kids
                .iter()
                .copied()
                .filter(|&c| !holds_legs[c] && s.sub_low[c].y - s.floor <= LEG_REACH * rise)
                .collect();
            let cands = heaviest(s, cands);
            if cands.len() >= 2 {
                let mid: Vec<usize> =
                    kids.iter().copied().filter(|c| !cands.contains(c)).chain(s.up[j]).collect();
                here = pair_up(s, j, &cands, true, &mid, None);
            }
        }
        holds_legs[j] = !here.is_empty() || kids.iter().any(|&c| holds_legs[c]);
        for p in &here {
            for l in &p.limbs {
                paired[l.root] = true;
            }
        }
        leg_pairs.extend(here);
    }
    // Legs found bottom-up; report them top-down (hind/front order is the
    // trunk's business).
    leg_pairs.reverse();
    // The body's lateral axis: the best-mirrored leg pair's.
    let lateral = leg_pairs.iter().min_by(|a, b| a.score.total_cmp(&b.score)).map(|p| p.across);
    let mut other_pairs = Vec::new();
    for &j in &s.order {
        let kids: Vec<usize> = s.down[j].iter().copied().filter(|&c| !paired[c]).collect();
        let kids = heaviest(s, kids);
        if kids.len() < 2 {
            continue;
        }
        let mid: Vec<usize> = s.up[j].into_iter().collect();
        let pairs = pair_up(s, j, &kids, false, &mid, lateral);
        for p in &pairs {
            for l in &p.limbs {
                paired[l.root] = true;
            }
        }
        other_pairs.extend(pairs);
    }
    leg_pairs.extend(other_pairs);
    leg_pairs
}
