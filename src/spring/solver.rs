//! One fixed substep (SPEC S1-S5, S8, S9): spring, semi-implicit Euler,
//! rope, bend coupling, elastic stop, forward plane, ground, and the bone
//! rotations that follow. Everything is world space; the only input from
//! the body is the anchor (pelvis) pose, and the only output is tail
//! rotations, so the body can never be moved by its tail.
//!
//! The substep is written over lanes (`L: Lane`): one chain alone (`f32`)
//! or a group of chains side by side, one per SIMD lane. Along a chain each
//! link waits for its parent's new frame, a dependency chain of products
//! and square roots that leaves most of the CPU idle; up to eight chains in
//! the lanes of two registers fill it. Rare corrections (contact, the stop,
//! degenerate arcs) run only when some lane needs them and are merged
//! per lane, so each chain's numbers are the same as when it runs alone.

use glam::{Mat3A, Vec3A};

use super::contact::{forward_plane_lanes, ground_lanes, Along, Vertical, WorldY};
use super::coupling::ElasticStop;
use super::lane::Lane;
use super::lane_geometry::{fast_slerp_raw, half_slerp, swing_to, Blend, ShortArc, M3, Q, V3};
use super::rest::{ChainRest, LinkRest};

/// Settings of one substep, derived from the parameters.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StepRules {
    pub dt: f32,
    pub gravity: f32,
    pub coupling_rate: f32,
    pub stop: ElasticStop,
    pub forward_plane: bool,
    pub ground: bool,
    /// Floor plus clearance, metres.
    pub floor: f32,
    /// `exp(-γ dt)` with γ the contact damping.
    pub ground_keep: f32,
}

/// Which optional parts of the substep run. Chains are grouped by these
/// (and their link count), so within a group they are plain branches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Switches {
    pub couple: bool,
    pub forward_plane: bool,
    pub ground: bool,
    /// Up (the floor's normal, against gravity) is not world +Y: the
    /// character stands on a pitched ground (`ChainRest::up`).
    pub tilted: bool,
}

impl Switches {
    pub fn of(rest: &ChainRest, rules: &StepRules) -> Self {
        Switches {
            couple: rest.links.len() > 1 && rules.coupling_rate > 0.0,
            forward_plane: rules.forward_plane,
            ground: rules.ground,
            tilted: rest.up != glam::Vec3::Y,
        }
    }
}

/// The chain in lane `i` of a group of `k`; lanes past the last chain
/// repeat it (their results are never read).
#[inline(always)]
fn pick(k: usize, i: usize) -> usize {
    i.min(k - 1)
}

/// The per-chain numbers of [`StepRules`] a substep reads.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RuleLanes<L> {
    dt: L,
    stop_cos: L,
    stop_sin: L,
    ground_keep: L,
}

impl<L: Lane> RuleLanes<L> {
    /// Chain `i`'s rules are `rules(i)`, `i < k`.
    pub fn gather<'a>(k: usize, rules: impl Fn(usize) -> &'a StepRules) -> Self {
        let r = |i| rules(pick(k, i));
        RuleLanes {
            dt: L::from_fn(|i| r(i).dt),
            stop_cos: L::from_fn(|i| r(i).stop.cos_half()),
            stop_sin: L::from_fn(|i| r(i).stop.sin_half()),
            ground_keep: L::from_fn(|i| r(i).ground_keep),
        }
    }
}

/// A link's constants (see `LinkRest`), one lane per chain.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LinkLanes<L: Lane> {
    r: V3<L>,
    u: V3<L>,
    r_bind: V3<L>,
    a: M3<L>,
    neutral: Q<L>,
    u_flip: Q<L>,
    r_bind_flip: Q<L>,
    length: L,
    omega2: L,
    damping: L,
    blend: Blend<L>,
}

impl<L: Lane> LinkLanes<L> {
    /// Chain `i`'s link is `links(i)`, `i < k`.
    pub fn gather<'a>(k: usize, links: impl Fn(usize) -> &'a LinkRest) -> Self {
        let l = |i| links(pick(k, i));
        let v = |f: fn(&LinkRest) -> Vec3A| V3::from_fn(|i| f(l(i)));
        let m = |f: fn(&LinkRest) -> Mat3A| M3::from_fn(|i| f(l(i)));
        let s = |f: fn(&LinkRest) -> f32| L::from_fn(|i| f(l(i)));
        LinkLanes {
            r: v(|l| l.r),
            u: v(|l| l.u),
            r_bind: v(|l| l.r_bind),
            a: m(|l| l.a),
            neutral: Q::from_fn(|i| l(i).neutral),
            u_flip: Q::from_fn(|i| l(i).u_flip),
            r_bind_flip: Q::from_fn(|i| l(i).r_bind_flip),
            length: s(|l| l.length),
            omega2: s(|l| l.omega2),
            damping: s(|l| l.damping),
            blend: Blend {
                t: s(|l| l.blend.t),
                quad: s(|l| l.blend.quad),
                cubic: s(|l| l.blend.cubic),
            },
        }
    }
}

/// What a substep takes from the anchor pose, one lane per chain (built by
/// `PathLanes::frame`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct FrameLanes<L: Lane> {
    /// The anchor's rotation.
    pub rotation: Q<L>,
    /// World head of the root bone.
    pub root: V3<L>,
    /// Forward-plane normal (the body's forward axis in world).
    pub normal: V3<L>,
    /// The body's up axis in world (the plane guards below the root).
    pub up: V3<L>,
    pub gravity_y: L,
    pub floor: L,
    /// The character's up in world (`ChainRest::up`): the floor's normal;
    /// read only by tilted groups.
    pub ground_up: V3<L>,
    /// Uniform scale of the anchor.
    pub sigma: L,
}

/// A group's state during one call, one lane per chain.
#[derive(Clone, Debug)]
pub(crate) struct StateLanes<L: Lane> {
    pub particles: Vec<V3<L>>,
    pub velocities: Vec<V3<L>>,
    pub bends: Vec<Q<L>>,
    pub locals: Vec<Q<L>>,
    /// Scratch: neighbour targets of this step.
    pub targets: Vec<Q<L>>,
    pub grounded: Vec<L::Mask>,
}

impl<L: Lane> StateLanes<L> {
    pub fn new() -> Self {
        StateLanes {
            particles: Vec::new(),
            velocities: Vec::new(),
            bends: Vec::new(),
            locals: Vec::new(),
            targets: Vec::new(),
            grounded: Vec::new(),
        }
    }
}

/// Neighbour targets `q̄_i` from the previous step's bends (a snapshot,
/// never partially updated values): the base's other neighbour is the hips
/// (identity), the free tip has one neighbour. Needs two or more links.
fn neighbour_targets<L: Lane>(old: &[Q<L>], out: &mut [Q<L>]) {
    let n = old.len();
    out[0] = half_slerp(Q::identity(), old[1]);
    for i in 1..n - 1 {
        out[i] = half_slerp(old[i - 1], old[i + 1]);
    }
    out[n - 1] = old[n - 2];
}

/// The elastic stop (see [`ElasticStop`]) in lanes: bends beyond `θmax`
/// scaled back to `θmax` about their own axis.
#[inline(always)]
fn stop<L: Lane>(q: Q<L>, rules: &RuleLanes<L>) -> Q<L> {
    // θ = 2 acos(|w|) > θmax  <=>  |w| < cos(θmax/2); no acos needed.
    let cut = q.w.abs().lt(rules.stop_cos);
    if !L::any(cut) {
        return q;
    }
    let sign = L::select(q.w.lt(L::splat(0.0)), L::splat(-1.0), L::splat(1.0));
    let axis = V3::new(q.x * sign, q.y * sign, q.z * sign);
    let len = axis.length();
    let a = axis.div(len).scale(rules.stop_sin);
    let limited = Q::select(
        len.lt(L::splat(1e-12)),
        Q::identity(),
        Q { x: a.x, y: a.y, z: a.z, w: rules.stop_cos },
    );
    Q::select(cut, limited, q)
}

/// Advances a group of chains by one substep under their anchor poses.
///
/// Per link the parent's world frame `F` is turned into a matrix once and
/// the constant `A_i` (parent rest frame into body frame) is a stored
/// matrix, so the frame changes a link needs are matrix-vector products:
/// body = `A Fᵀ` world, world = `F Aᵀ` body, parent-local = `Fᵀ` world.
/// The frame itself goes down the chain as a quaternion (`F_{i+1} = F_i
/// L_i` with `L_i` the local rotation the link outputs anyway): with four
/// or eight chains in the lanes the CPU is busy, and the quaternion product
/// and one matrix from it are half the work of two matrix products.
pub(crate) fn substep<L: Lane>(
    links: &[LinkLanes<L>],
    rules: &RuleLanes<L>,
    on: Switches,
    frame: &FrameLanes<L>,
    state: &mut StateLanes<L>,
) {
    if on.tilted {
        substep_along(Along(frame.ground_up), links, rules, on, frame, state)
    } else {
        substep_along(WorldY, links, rules, on, frame, state)
    }
}

/// [`substep`] with the floor and gravity along `up`.
#[inline(always)]
fn substep_along<L: Lane, U: Vertical<L>>(
    up: U,
    links: &[LinkLanes<L>],
    rules: &RuleLanes<L>,
    on: Switches,
    frame: &FrameLanes<L>,
    state: &mut StateLanes<L>,
) {
    let n = links.len();
    let dt = rules.dt;
    let zero = L::splat(0.0);
    let gravity = up.raise(V3::new(zero, zero, zero), frame.gravity_y);
    let normal = frame.normal;
    let plane = on.forward_plane.then_some((frame.root, normal));
    if on.couple {
        neighbour_targets(&state.bends[..n], &mut state.targets[..n]);
    }

    // Re-slice to the chain length so the loop's indexing needs no checks.
    let particles = &mut state.particles[..n];
    let velocities = &mut state.velocities[..n];
    let bends = &mut state.bends[..n];
    let locals = &mut state.locals[..n];
    let targets = &state.targets[..n];
    let grounded_out = &mut state.grounded[..n];

    // World rotation of the link's parent.
    let mut parent = frame.rotation;
    let mut head = frame.root;
    for i in 0..n {
        let link = &links[i];
        let length = link.length * frame.sigma;
        let f = M3::from_quat(parent);
        let rest_dir = f.apply(link.r);
        let target = head + rest_dir.scale(length);

        // Damped spring, semi-implicit Euler (velocity first), written so
        // the target (which waits on the previous link) enters last:
        // `v' = v + (ω²(T - p) - 2ζω v + g) dt`, `p' = p + v' dt`.
        let v0 = velocities[i];
        let p = particles[i];
        let free = v0 + (gravity - v0.scale(link.damping)).scale(dt);
        let pull = (target - p).scale(link.omega2 * dt);
        let mut v = free + pull;
        let predicted = (p + free.scale(dt)) + pull.scale(dt);
        let offset = predicted - head;
        let dist = offset.length();

        // Bend relative to the rest direction in the body frame (towards
        // the offset's direction); a tip on its head keeps the rest bend.
        // Bends live in the body frame: conjugating a swing is the swing
        // between the rotated vectors (S4: `A swing(r, d̃) A⁻¹ = swing(A r, A d̃)`).
        let mut bend = swing_to(link.u, link.a.apply(f.apply_inverse(offset)), dist, link.u_flip);
        let on_head = !dist.gt(L::splat(1e-6) * length);
        if L::any(on_head) {
            let still =
                ShortArc::new(link.u, link.a.apply(f.apply_inverse(rest_dir))).quat(link.u_flip);
            bend = Q::select(on_head, still, bend);
        }

        // Coupling, then the elastic stop. The coupled bend's normalisation
        // stays off the path when the stop does not act: a quaternion `p`
        // rotates by `p v p* / |p|²`, so the direction needs one division,
        // which runs beside the rotation.
        let (limited, limited_body) = if on.couple {
            let raw = fast_slerp_raw(bend, targets[i], &link.blend);
            let s = raw.dot(raw);
            let q = raw.scale(s.sqrt().recip());
            let body = raw.rotate_scaled(link.u).scale(s.recip());
            let over = (raw.w * raw.w).lt(rules.stop_cos * rules.stop_cos * s);
            if L::any(over) {
                let l = stop(q, rules);
                (Q::select(over, l, q), V3::select(over, l.rotate_scaled(link.u), body))
            } else {
                (q, body)
            }
        } else {
            let l = stop(bend, rules);
            (l, l.rotate_scaled(link.u))
        };
        let limited_local = link.a.apply_inverse(limited_body);
        let stop_dir = f.apply(limited_local);

        let (at_plane, dir) = match plane {
            Some((root, normal)) => {
                forward_plane_lanes(head, stop_dir, length, root, normal, frame.up, rest_dir)
            }
            None => (L::no_lanes(), stop_dir),
        };
        let (grounded, dir) = if on.ground {
            ground_lanes(up, head, dir, length, frame.floor, rest_dir, -normal, plane)
        } else {
            (L::no_lanes(), dir)
        };
        let tip = head + dir.scale(length);

        // Velocity: no correction is fed back (the PBD update that exploded
        // with fast hips); only components that push into the forward plane
        // or the floor go. The stop limits the position only: a velocity
        // still pointing past it is not stored up, the spring and its
        // damping bound it (`|v| <= a / (2ζω)` for a push `a`) and turn it
        // within a few substeps once the push ends. Removing it instead (all
        // of it, the share that carried the bend past the stop, or a
        // decaying share) made the stop an inelastic impact: the tail
        // answered a walk cycle every other cycle, so some loops never
        // closed (Fox Walk at stops of 24-26°, 32-37°; Wolf Gallop, Walk,
        // Idle_HitReact), and a link held on the stop cycled.
        if L::any(at_plane) {
            let vn = v.dot(normal);
            v = V3::select(at_plane & vn.gt(zero), v - normal.scale(vn), v);
        }
        // Rope: no velocity along the bone.
        v = v - dir.scale(v.dot(dir));
        if L::any(grounded) {
            let kept = up.not_down(v).scale(rules.ground_keep);
            v = V3::select(grounded, kept, v);
        }

        let contact = at_plane | grounded;
        let (dir_local, bend) = if L::any(contact) {
            let d = V3::select(contact, f.apply_inverse(dir), limited_local);
            let touched = ShortArc::new(link.u, link.a.apply(d)).quat(link.u_flip);
            (d, Q::select(contact, touched, limited))
        } else {
            (limited_local, limited)
        };
        let local = ShortArc::new(link.r_bind, dir_local).quat(link.r_bind_flip).mul(link.neutral);
        locals[i] = local;
        bends[i] = bend;
        particles[i] = tip;
        velocities[i] = v;
        grounded_out[i] = grounded;
        // Each substep starts again from the anchor's rotation, so the
        // product over at most a few links cannot drift off unit length.
        parent = parent.mul(local);
        head = tip;
    }
}
