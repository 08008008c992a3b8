//! The skeleton as the skin sees it: which joints deform or connect
//! deforming joints (the structural skeleton), how they hang together, and
//! how low and how heavy each joint's skin is.
//!
//! A file's joint list holds more than bones: scene roots, IK and pole
//! targets, Rigify's `ORG-`/`MCH-` controls, effect helpers parked at the
//! origin. None of them carries skin, so none can be a limb. A joint is
//! structural when it carries weight, or lies on the path between two joints
//! that do (an unweighted `Body` between the spine and the legs, a Maya
//! rig's unweighted spine between its weighted hips and shoulders). A
//! weighted chain outside the main tree (Quaternius' IK feet, separate roots
//! carrying the hoof weights) hangs, for these purposes, from the main-tree
//! joint nearest its top.

use std::borrow::Cow;

use glam::{Quat, Vec3};

use super::ground::{ground_up, levelling};
use crate::rig::Rig;

/// Joint heads as the skeleton stands at the bind pose. A joint that moves
/// no skin may carry an inverse bind that agrees with nothing (Rigify's
/// controls exported at the origin, an exporter's scene root): its head
/// comes from the file's node pose instead, placed relative to the nearest
/// joint that does move skin (an ancestor first, else a descendant), whose
/// bind is exact.
///
/// A grown chain's joints move skin and keep their bind heads here (caudal
/// writes their binds; read as the joint the chain hangs from, as the
/// roles read them, they would be placed from the node pose instead, which
/// a rigger's own posed `Tail_1..` need not agree with).
pub fn credible_heads(rig: &Rig) -> Vec<Vec3> {
    credible_heads_of(rig, &weighted_joints(rig))
}

/// Joints that move at least one vertex. Unweighted helpers (IK targets,
/// pole targets, scene roots) are not bones of the skin: the roles and the
/// skeleton field (`crate::geometry`, which re-exports this) leave them out.
///
/// Read literally: a grown chain's joints move the tail's skin and count
/// here as their own, unlike in the roles ([`SkinReading::weighted`] reads
/// them as the joint the chain hangs from). This is a fact about the skin,
/// not a role: the skeleton field draws the chain's bones from it (the
/// weighted bone distance of a grown rig is measured to its chain), and
/// on a grown rig the joint a chain hangs from keeps the body skin round
/// the tail's root (`appendage::anchor` hangs it from a joint
/// carrying that skin), so the roles' questions asked of this reading
/// (the crouch's "does a trunk joint beside the pelvis move skin") get
/// the source rig's answer.
pub fn weighted_joints(rig: &Rig) -> Vec<bool> {
    let mut weighted = vec![false; rig.joint_count()];
    let inf = rig.influences();
    for (&j, &w) in inf.joints.iter().zip(&inf.weights) {
        if w > 0.0 {
            weighted[j as usize] = true;
        }
    }
    weighted
}

/// [`credible_heads`] given which joints carry weight.
pub fn credible_heads_of(rig: &Rig, weighted: &[bool]) -> Vec<Vec3> {
    let n = rig.joint_count();
    let parents = rig.parents();
    let bind = rig.bind_world();
    let mut heads: Vec<Vec3> = bind.iter().map(|m| m.w_axis.truncate()).collect();
    if !weighted.iter().any(|&w| w) || weighted.iter().all(|&w| w) {
        return heads;
    }
    let rest = crate::rig::world_matrices(parents, rig.topological_order(), rig.rest_local());
    // Nearest weighted ancestor (top-down), else nearest weighted
    // descendant (bottom-up).
    let mut anchor: Vec<Option<usize>> = vec![None; n];
    for &j in rig.topological_order() {
        anchor[j] = if weighted[j] { Some(j) } else { parents[j].and_then(|p| anchor[p]) };
    }
    let mut below: Vec<Option<usize>> = (0..n).map(|j| weighted[j].then_some(j)).collect();
    for &j in rig.topological_order().iter().rev() {
        if let (Some(p), Some(b)) = (parents[j], below[j]) {
            if below[p].is_none() {
                below[p] = Some(b);
            }
        }
    }
    for j in 0..n {
        if weighted[j] {
            continue;
        }
        if let Some(a) = anchor[j].or(below[j]) {
            let m = bind[a] * rest[a].inverse() * rest[j];
            if m.is_finite() {
                heads[j] = m.w_axis.truncate();
            }
        }
    }
    heads
}

/// What every reading of the roles takes from the skin, read once per rig
/// (the ground test and each reading of the structure used to make their
/// own passes over the vertices and their weights): which joints carry
/// weight, the joints' credible heads, each vertex's dominant joint, the
/// skin surface each joint moves.
#[derive(Clone, Debug)]
pub struct SkinReading {
    /// Per joint: moves at least one vertex.
    pub weighted: Vec<bool>,
    /// [`credible_heads`], bind space.
    pub heads: Vec<Vec3>,
    /// Per vertex: the owner carrying most of it ([`crate::rig::Influences::dominant_by`]).
    pub dominant: Vec<u32>,
    /// Per joint: the skin surface it carries, the integral of its weight over
    /// the mesh's surface, each vertex's share of the area (`vertex_areas`)
    /// spread over its joints by weight. This is the "mass" every roles rule
    /// weighs joints by (the head the heaviest joint past the neck, the head's
    /// side of a junction the heavier, the main tree the heaviest), and it
    /// does not depend on how the surface is meshed: a vertex split along a
    /// seam shares its triangles' area between its copies, and splitting
    /// triangles with their weights interpolated (1 -> 4 at edge midpoints)
    /// keeps every joint's integral exactly (the one-third share integrates a
    /// weight linear over a triangle exactly). Spread by weight rather than
    /// given whole to the vertex's heaviest joint, so a blend zone's surface
    /// is shared as the skin is, not handed to whichever joint leads by a
    /// hair at each vertex (a count of vertices, the measure before, moved
    /// with triangulation, seams and blend rings: a subdivided neck could
    /// outweigh its head).
    pub surface: Vec<f32>,
    /// Per joint: the joint whose skin it is read as (itself, or for a
    /// tail chain's joint the joint the chain hangs from: `super::grown`).
    pub owner: Vec<usize>,
}

impl SkinReading {
    /// The skin reading of `rig`, a tail chain's skin read as the joint the
    /// chain hangs from's (`super::grown`: the roles of a grown rig are
    /// its source rig's).
    pub fn of(rig: &Rig) -> SkinReading {
        let owner = super::grown::skin_owner(rig);
        let inf = rig.influences();
        let area = vertex_areas(rig);
        // One pass over the rows for all three: each was its own pass over
        // the skin, and the rows are most of what the roles read on a
        // 200k-vertex mesh. Each joint's surface is summed in f64 in vertex
        // order, then handed to its owner in f32 in joint order, the order
        // the separate passes summed in, so the sums are the same to the bit.
        let mut weighted = vec![false; rig.joint_count()];
        let mut by_joint = vec![0f64; rig.joint_count()];
        let mut dominant = Vec::with_capacity(rig.vertex_count());
        for (v, &a) in area.iter().enumerate() {
            let (js, ws) = inf.of(v);
            for (&j, &w) in js.iter().zip(ws) {
                weighted[owner[j as usize]] |= w > 0.0;
                by_joint[j as usize] += a * w as f64;
            }
            dominant.push(inf.dominant_by(v, |j| owner[j as usize] as u32));
        }
        let heads = credible_heads_of(rig, &weighted);
        let mut surface = vec![0.0; rig.joint_count()];
        for (j, s) in by_joint.into_iter().enumerate() {
            surface[owner[j]] += s as f32;
        }
        SkinReading { weighted, heads, dominant, surface, owner }
    }
}

/// Each vertex's share of the surface: a third of the area of every
/// triangle it is a corner of. A point cloud (no triangles, or none with
/// area) has no surface to share; each of its points counts one.
pub(super) fn vertex_areas(rig: &Rig) -> Vec<f64> {
    let p = rig.vertices();
    let mut area = vec![0f64; p.len()];
    for t in rig.triangles() {
        let [a, b, c] = t.map(|i| p[i as usize].as_dvec3());
        let third = (b - a).cross(c - a).length() / 6.0;
        for &i in t {
            area[i as usize] += third;
        }
    }
    if !area.iter().any(|&a| a > 0.0) {
        area.fill(1.0);
    }
    area
}

/// The rotation levelling `rig`'s bind with the ground it stands on (see
/// `super::ground`); identity for an upright bind.
pub fn ground_level(rig: &Rig) -> Quat {
    ground_level_of(rig, &SkinReading::of(rig))
}

/// [`ground_level`] from the rig's skin reading.
pub fn ground_level_of(rig: &Rig, skin: &SkinReading) -> Quat {
    let mesh_centre = rig.vertices().iter().fold(glam::DVec3::ZERO, |s, p| s + p.as_dvec3())
        / rig.vertex_count().max(1) as f64;
    let centres = [mesh_centre.as_vec3(), weight_centre(skin)];
    levelling(ground_up(rig.vertices(), centres, || lowest_skin(rig, skin), rig.height()))
}

/// `rig`'s joint heads and skin turned by `level` (the skin borrowed when
/// it is the identity).
fn levelled<'a>(rig: &'a Rig, heads: &[Vec3], level: Quat) -> (Vec<Vec3>, Cow<'a, [Vec3]>) {
    let heads: Vec<Vec3> = heads.iter().map(|&h| level * h).collect();
    let vertices: Cow<[Vec3]> = if level == Quat::IDENTITY {
        rig.vertices().into()
    } else {
        rig.vertices().iter().map(|&p| level * p).collect::<Vec<_>>().into()
    };
    (heads, vertices)
}

/// Every joint's children, in joint order.
fn children_of(parents: &[Option<usize>]) -> Vec<Vec<usize>> {
    let mut children = vec![Vec::new(); parents.len()];
    for (j, p) in parents.iter().enumerate() {
        if let Some(p) = *p {
            children[p].push(j);
        }
    }
    children
}

/// The lowest and highest `y` of `points`.
fn y_span(points: &[Vec3]) -> (f32, f32) {
    points.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), p| (lo.min(p.y), hi.max(p.y)))
}

/// Where the body's weight lies, as the skeleton carries it: every vertex
/// counted at the head of the joint that carries most of it (see
/// [`super::ground`] for why this is one of two estimates).
fn weight_centre(skin: &SkinReading) -> Vec3 {
    let n = skin.dominant.len().max(1);
    let sum =
        skin.dominant.iter().fold(glam::DVec3::ZERO, |s, &d| s + skin.heads[d as usize].as_dvec3());
    (sum / n as f64).as_vec3()
}

/// The lowest skin (by `Y`) of every joint that is some vertex's largest
/// weight: where feet touch the ground, whatever its tilt (a flat sole
/// tilted keeps its lowest corners on the ground).
fn lowest_skin(rig: &Rig, skin: &SkinReading) -> Vec<Vec3> {
    let mut low: Vec<Option<Vec3>> = vec![None; rig.joint_count()];
    for (v, &p) in rig.vertices().iter().enumerate() {
        let d = skin.dominant[v] as usize;
        if low[d].is_none_or(|l| p.y < l.y) {
            low[d] = Some(p);
        }
    }
    low.into_iter().flatten().collect()
}

/// Separate weighted trees (IK feet, loose helper chains) hung from their
/// nearest main-tree joint; past this many (heaviest first) they hang from
/// the main tree's top, which bounds the work on hostile files.
pub const MAX_NEAREST_TOPS: usize = 64;

/// The structural skeleton with per-joint skin aggregates. Every `Vec` is
/// indexed by joint; entries of non-structural joints are unused.
#[derive(Clone, Debug)]
pub struct Structure {
    /// The rotation from bind space into the levelled frame every position
    /// below is in (up the normal of the ground the feet rest on, see
    /// `super::ground`); identity for an upright bind.
    pub level: Quat,
    /// Bind-pose head of every joint (levelled).
    pub heads: Vec<Vec3>,
    /// Per joint: deforms skin or connects joints that do.
    pub structural: Vec<bool>,
    /// Structural parent: the real parent, except at the top of a separate
    /// weighted tree (the nearest main-tree joint) and at the top of the main
    /// tree (`None`).
    pub up: Vec<Option<usize>>,
    /// Structural children (the inverse of `up`), sorted.
    pub down: Vec<Vec<usize>>,
    /// Structural joints, every joint after its `up`.
    pub order: Vec<usize>,
    /// The skin surface the joint carries ([`SkinReading::surface`]): its
    /// weight integrated over the surface, whatever the meshing.
    pub mass: Vec<f32>,
    /// `mass` summed over the structural subtree.
    pub sub_mass: Vec<f32>,
    /// Lowest point of the joint's own skin (its head without skin).
    pub low: Vec<Vec3>,
    /// Per joint: the largest weight of some vertex is on it (it has its
    /// own skin, which `low` and `skin_centre` are read from).
    pub has_skin: Vec<bool>,
    /// Centre of the joint's own skin (its head without skin).
    pub skin_centre: Vec<Vec3>,
    /// Lowest point of the structural subtree's skin.
    pub sub_low: Vec<Vec3>,
    /// Lowest height of the mesh (and of the joints).
    pub floor: f32,
    /// Model height `H`.
    pub height: f32,
}

/// Per joint: carries weight, or lies on the path between two joints that
/// do (within one tree of the joint forest). Where fewer than two joints
/// carry weight nothing tells bones from helpers, and every joint counts.
///
/// The deforming skeleton as it is, a grown chain's joints included (they
/// deform the tail): the skeleton field's bones. The roles' structure
/// ([`Structure`], [`crate::rig::roles::JointRoles::structural`]) reads the
/// chain as the joint it hangs from and leaves its joints out.
pub fn structural_joints(rig: &Rig) -> Vec<bool> {
    structural_joints_of(rig, &weighted_joints(rig))
}

/// [`structural_joints`] given which joints carry weight.
pub fn structural_joints_of(rig: &Rig, weighted: &[bool]) -> Vec<bool> {
    let n = rig.joint_count();
    let parents = rig.parents();
    let order = rig.topological_order();
    if weighted.iter().filter(|&&w| w).count() < 2 {
        return vec![true; n];
    }
    // Steiner tree of the weighted joints: a joint is structural when
    // weighted joints lie in two of its directions (two child subtrees, or
    // a child subtree and outside its subtree).
    let mut sub_weighted = vec![0usize; n];
    for &j in order.iter().rev() {
        sub_weighted[j] += weighted[j] as usize;
        if let Some(p) = parents[j] {
            sub_weighted[p] += sub_weighted[j];
        }
    }
    let mut root_of = vec![0usize; n];
    for &j in order {
        root_of[j] = parents[j].map_or(j, |p| root_of[p]);
    }
    let mut branches = vec![0usize; n];
    for (j, p) in parents.iter().enumerate() {
        if let Some(p) = *p {
            branches[p] += (sub_weighted[j] > 0) as usize;
        }
    }
    (0..n)
        .map(|j| {
            weighted[j] || branches[j] + (sub_weighted[root_of[j]] > sub_weighted[j]) as usize >= 2
        })
        .collect()
}

impl Structure {
    /// The structure of `rig`'s skeleton and the skin each joint carries,
    /// read in the frame `level` turns the bind into.
    pub fn new(rig: &Rig, skin: &SkinReading, level: Quat) -> Structure {
        let n = rig.joint_count();
        let parents = rig.parents();
        let (heads, vertices) = levelled(rig, &skin.heads, level);
        let order = rig.topological_order();
        let children = children_of(parents);
        let mass = skin.surface.clone();
        let mut low: Vec<Vec3> = heads.clone();
        // Per joint: how many vertices it dominates (it has skin when any).
        let mut owned = vec![0usize; n];
        let mut centre_sum = vec![glam::DVec3::ZERO; n];
        for (&d, p) in skin.dominant.iter().zip(vertices.iter()) {
            let d = d as usize;
            if owned[d] == 0 || p.y < low[d].y {
                low[d] = *p;
            }
            owned[d] += 1;
            centre_sum[d] += p.as_dvec3();
        }
        let has_skin: Vec<bool> = owned.iter().map(|&c| c > 0).collect();
        let skin_centre: Vec<Vec3> =
            (0..n)
                .map(|j| {
                    if owned[j] > 0 {
                        (centre_sum[j] / owned[j] as f64).as_vec3()
                    } else {
                        heads[j]
                    }
                })
                .collect();
        // A tail chain's joints are read as their anchor, never as bones of
        // their own (even where too few joints carry weight to tell).
        let structural: Vec<bool> = structural_joints_of(rig, &skin.weighted)
            .into_iter()
            .enumerate()
            .map(|(j, s)| s && skin.owner[j] == j)
            .collect();
        let has_weight = &skin.weighted;

        // Structural parent within each real tree; the top of each tree.
        let mut up: Vec<Option<usize>> = vec![None; n];
        let mut tops = Vec::new();
        for &j in order {
            if !structural[j] {
                continue;
            }
            match parents[j] {
                Some(p) if structural[p] => up[j] = Some(p),
                _ => tops.push(j),
            }
        }
        // Tops of trees whose skeleton skips a non-structural joint (an
        // unweighted joint with a single weighted branch below a weighted
        // parent cannot occur: such a joint is on a path) are tree tops.
        let tree_mass = |t: usize| -> f32 {
            let mut s = 0.0;
            let mut stack = vec![t];
            while let Some(j) = stack.pop() {
                s += mass[j];
                stack.extend(children[j].iter().copied().filter(|&c| structural[c]));
            }
            s
        };
        let mut main =
            tops.iter().map(|&t| (t, tree_mass(t))).fold(None::<(usize, f32)>, |best, (t, m)| {
                match best {
                    Some((_, bm)) if bm >= m => best,
                    _ => Some((t, m)),
                }
            });
        // An unweighted top that only joins branches (a scene or control
        // root holding the body and, beside it, IK feet) deforms nothing:
        // its heaviest branch is the body, the others separate trees.
        while let Some((t, m)) = main {
            let kids: Vec<usize> = children[t].iter().copied().filter(|&c| structural[c]).collect();
            if has_weight[t] || kids.len() < 2 {
                break;
            }
            let heaviest = kids
                .iter()
                .map(|&c| (c, tree_mass(c)))
                .fold((kids[0], f32::NEG_INFINITY), |b, x| if x.1 > b.1 { x } else { b });
            tops.retain(|&x| x != t);
            for &c in &kids {
                up[c] = None;
                tops.push(c);
            }
            main = Some((heaviest.0, m.min(heaviest.1)));
        }
        if let Some((main, _)) = main {
            let mut in_main = vec![false; n];
            let mut stack = vec![main];
            while let Some(j) = stack.pop() {
                in_main[j] = true;
                stack.extend(children[j].iter().copied().filter(|&c| structural[c]));
            }
            let main_joints: Vec<usize> = (0..n).filter(|&k| in_main[k]).collect();
            let mut others: Vec<(usize, f32)> =
                tops.iter().copied().filter(|&t| t != main).map(|t| (t, tree_mass(t))).collect();
            others.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            for (rank, &(t, _)) in others.iter().enumerate() {
                // Nearest main-tree joint to this tree's top; past the
                // heaviest few (a file of thousands of loose roots), the
                // main top, so the work stays linear.
                up[t] = if rank < MAX_NEAREST_TOPS {
                    main_joints.iter().copied().min_by(|&a, &b| {
                        heads[a]
                            .distance_squared(heads[t])
                            .total_cmp(&heads[b].distance_squared(heads[t]))
                            .then(a.cmp(&b))
                    })
                } else {
                    Some(main)
                };
            }
        }
        let mut down = vec![Vec::new(); n];
        for (j, parent) in up.iter().enumerate() {
            if let Some(p) = *parent {
                down[p].push(j);
            }
        }
        let mut sorder = Vec::with_capacity(n);
        if let Some((main, _)) = main {
            let mut stack = vec![main];
            while let Some(j) = stack.pop() {
                sorder.push(j);
                stack.extend(down[j].iter().rev().copied());
            }
        }

        let mut sub_mass = mass.clone();
        let mut sub_low = low.clone();
        for &j in sorder.iter().rev() {
            if let Some(p) = up[j] {
                sub_mass[p] += sub_mass[j];
                if sub_low[j].y < sub_low[p].y {
                    sub_low[p] = sub_low[j];
                }
            }
        }
        let (lo, hi) = y_span(&vertices);
        let floor = heads.iter().map(|h| h.y).fold(lo, f32::min);
        let height = (hi - lo).max(f32::MIN_POSITIVE);
        Structure {
            level,
            heads,
            structural,
            up,
            down,
            order: sorder,
            mass,
            sub_mass,
            low,
            has_skin,
            skin_centre,
            sub_low,
            floor,
            height,
        }
    }

    /// Whether `j` lies in the structural subtree of `a` (or is `a`).
    pub fn is_below(&self, mut j: usize, a: usize) -> bool {
        loop {
            if j == a {
                return true;
            }
            match self.up[j] {
                Some(p) => j = p,
                None => return false,
            }
        }
    }

    /// Every structural joint of the subtree at `a`, `a` first.
    pub fn subtree(&self, a: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![a];
        while let Some(j) = stack.pop() {
            out.push(j);
            stack.extend(self.down[j].iter().rev().copied());
        }
        out
    }
}
