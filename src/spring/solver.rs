//! One fixed substep of one chain (SPEC S1-S5, S8, S9): spring, semi-implicit
//! Euler, rope, bend coupling, elastic stop, forward plane, ground, and the
//! bone rotations that follow. Everything is world space; the only input
//! from the body is the anchor (pelvis) pose, and the only output is tail
//! rotations, so the body can never be moved by its tail.

use glam::{Mat3A, Quat, Vec3, Vec3A};

use super::contact;
use super::coupling::{fast_slerp_raw, neighbour_targets, swing_a, swing_matrix, swing_to, ElasticStop};
use super::rest::{uniform_scale, ChainRest};

/// The anchor's world pose, decomposed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AnchorPose {
    pub translation: Vec3,
    pub rotation: Quat,
    pub scale: Vec3,
}

impl AnchorPose {
    pub fn lerp(&self, other: &AnchorPose, t: f32) -> AnchorPose {
        AnchorPose {
            translation: self.translation.lerp(other.translation, t),
            rotation: self.rotation.slerp(other.rotation, t),
            scale: self.scale.lerp(other.scale, t),
        }
    }
}

/// The anchor's motion over one call, set up once so that each substep's
/// pose costs one `sin_cos` instead of a full slerp (glam's takes an acos
/// and three sines): the rotation is `q₀ (q₀⁻¹ q₁)^t` on the short arc, the
/// same curve as `slerp(q₀, q₁, t)`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AnchorPath {
    from: AnchorPose,
    to: AnchorPose,
    /// Unit axis of `q₀⁻¹ q₁` and half its angle; `None` for no turn.
    turn: Option<(Vec3, f32)>,
}

impl AnchorPath {
    pub fn new(from: &AnchorPose, to: &AnchorPose) -> Self {
        let mut r = from.rotation.conjugate() * to.rotation;
        if r.w < 0.0 {
            r = -r;
        }
        let v = Vec3::new(r.x, r.y, r.z);
        let s = v.length();
        let turn = if s < 1e-12 { None } else { Some((v / s, s.atan2(r.w))) };
        AnchorPath { from: *from, to: *to, turn }
    }

    /// The pose a fraction `t` of the way (exactly the end pose at 1).
    #[inline]
    pub fn at(&self, t: f32) -> AnchorPose {
        if t >= 1.0 {
            return self.to;
        }
        let rotation = match self.turn {
            Some((axis, half)) => {
                let (sin, cos) = (half * t).sin_cos();
                let v = axis * sin;
                (self.from.rotation * Quat::from_xyzw(v.x, v.y, v.z, cos)).normalize()
            }
            None => self.from.rotation,
        };
        AnchorPose {
            translation: self.from.translation.lerp(self.to.translation, t),
            rotation,
            scale: self.from.scale.lerp(self.to.scale, t),
        }
    }
}

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

/// Per-chain simulation state. Bends are the coupling snapshots.
#[derive(Clone, Debug)]
pub(crate) struct ChainState {
    pub particles: Vec<Vec3>,
    pub velocities: Vec<Vec3>,
    pub bends: Vec<Quat>,
    pub locals: Vec<Quat>,
    /// Scratch: neighbour targets of this step.
    pub targets: Vec<Quat>,
    /// Which links touched the floor in the last substep.
    pub grounded: Vec<bool>,
}

impl ChainState {
    pub fn new(n: usize) -> Self {
        ChainState {
            particles: vec![Vec3::ZERO; n],
            velocities: vec![Vec3::ZERO; n],
            bends: vec![Quat::IDENTITY; n],
            locals: vec![Quat::IDENTITY; n],
            targets: vec![Quat::IDENTITY; n],
            grounded: vec![false; n],
        }
    }
}

/// World units per metre for this anchor pose.
#[inline]
pub(crate) fn units_now(rest: &ChainRest, anchor: &AnchorPose) -> f32 {
    if rest.units_follow_scale {
        rest.units_per_metre * uniform_scale(anchor.scale) / rest.anchor_bind_scale
    } else {
        rest.units_per_metre
    }
}

/// Puts the chain at its (corrected) rest pose under `anchor`, at rest.
pub(crate) fn rest_state(rest: &ChainRest, anchor: &AnchorPose, state: &mut ChainState) {
    let sigma = uniform_scale(anchor.scale);
    let mut frame = anchor.rotation;
    let mut head = anchor.translation + anchor.rotation * (anchor.scale * rest.root_offset);
    for (i, link) in rest.links.iter().enumerate() {
        let tip = head + Vec3::from(frame * link.r) * (link.length * sigma);
        state.particles[i] = tip;
        state.velocities[i] = Vec3::ZERO;
        state.bends[i] = Quat::IDENTITY;
        state.locals[i] = link.rest_local;
        state.grounded[i] = false;
        frame = (frame * link.rest_local).normalize();
        head = tip;
    }
}

/// `mᵀ v`: a rotation matrix's inverse applied without transposing it.
#[inline(always)]
fn inverse_times(m: &Mat3A, v: Vec3A) -> Vec3A {
    Vec3A::new(m.x_axis.dot(v), m.y_axis.dot(v), m.z_axis.dot(v))
}

/// Advances the chain by one substep under the anchor pose at its end.
///
/// Per link the parent's world frame `F` is turned into a matrix once and
/// the constant `A_i` (parent rest frame into body frame) is a stored
/// matrix, so the several frame changes a link needs are short matrix
/// products: body = `A Fᵀ` world, world = `F Aᵀ` body, parent-local = `Fᵀ`
/// world. (Same maths as rotating by `F A⁻¹` and its conjugate.) The loop
/// works on SIMD vectors (`Vec3A`): with plain `Vec3` most of its
/// instructions were register shuffles between scalar and vector halves.
pub(crate) fn substep(rest: &ChainRest, rules: &StepRules, anchor: &AnchorPose, state: &mut ChainState) {
    let n = rest.links.len();
    let dt = rules.dt;
    let sigma = uniform_scale(anchor.scale);
    let units = units_now(rest, anchor);
    let gravity = Vec3A::new(0.0, -rules.gravity * units, 0.0);
    let floor = rules.floor * units;
    let normal = (anchor.rotation * rest.forward_in_anchor).normalize();
    let root = Vec3A::from(anchor.translation + anchor.rotation * (anchor.scale * rest.root_offset));
    let body_up = (anchor.rotation * rest.up_in_anchor).normalize();
    let plane = if rules.forward_plane { Some((root, normal)) } else { None };
    let couple = n > 1 && rules.coupling_rate > 0.0;
    let ground_keep = rules.ground_keep;
    if couple {
        neighbour_targets(&state.bends, &mut state.targets);
    }

    // Re-slice to the chain length so the loop's indexing needs no checks.
    let links = &rest.links[..n];
    let particles = &mut state.particles[..n];
    let velocities = &mut state.velocities[..n];
    let bends = &mut state.bends[..n];
    let locals = &mut state.locals[..n];
    let targets = &state.targets[..n];
    let grounded_out = &mut state.grounded[..n];

    // World frame of the link's parent, as a matrix: `F_{i+1} = F_i S_i N_i`
    // with `S_i` the swing's matrix and `N_i` the neutral's, which keeps the
    // square root and division of the swing quaternion off the chain from
    // one link to the next (the quaternion is only output).
    let mut f = Mat3A::from_quat(anchor.rotation);
    let mut head = root;
    for i in 0..n {
        let link = &links[i];
        let last = i + 1 == n;
        let length = link.length * sigma;
        // Bends live in the body frame: conjugating a swing is the swing
        // between the rotated vectors (S4: `A swing(r, d̃) A⁻¹ = swing(A r, A d̃)`).
        let a = &link.a;
        // World from body, `W = F Aᵀ`; body from world is `Wᵀ`. Built while
        // the spring step below runs, it saves one product on the path.
        let w = f * link.a_t;
        let rest_dir = f * link.r;
        let target = head + rest_dir * length;

        // Damped spring, semi-implicit Euler (velocity first).
        let mut v = Vec3A::from(velocities[i]);
        let p = Vec3A::from(particles[i]);
        // Written so the target (which waits on the previous link) enters
        // last: `v' = v + (ω²(T - p) - 2ζω v + g) dt`, `p' = p + v' dt`.
        let free = v + (gravity - link.damping * v) * dt;
        let pull = (target - p) * (link.omega2 * dt);
        v = free + pull;
        let predicted = (p + free * dt) + pull * dt;
        let offset = predicted - head;
        let dist = offset.length();

        // Bend relative to the rest direction in the body frame (towards
        // the offset's direction); coupling, then the elastic stop.
        // (Rotations keep unit vectors unit: no renormalising in between.)
        let bend = if dist > 1e-6 * length {
            swing_to(link.u, inverse_times(&w, offset), dist)
        } else {
            swing_a(link.u, *a * inverse_times(&f, rest_dir))
        };
        // The coupled bend's normalisation (a square root and a division)
        // stays off the path when the stop does not act: a quaternion `p`
        // rotates by `p v p* / |p|²`, so the direction needs one division,
        // which runs beside the rotation.
        let (coupled, limited, limited_body, stopped) = if couple {
            let raw = fast_slerp_raw(bend, targets[i], link.coupling_alpha);
            let s = raw.length_squared();
            if rules.stop.admits_unnormalised(raw) {
                let q = raw * s.sqrt().recip();
                (q, q, (raw * link.u) * s.recip(), false)
            } else {
                let q = raw.normalize();
                let (l, st) = rules.stop.apply(q);
                (q, l, l * link.u, st)
            }
        } else {
            let (l, st) = rules.stop.apply(bend);
            (bend, l, l * link.u, st)
        };
        let limited_local = inverse_times(a, limited_body);
        let mut dir = w * limited_body;
        let stop_dir = dir;

        let mut at_plane = false;
        if let Some((root, normal)) = plane {
            if let Some(d) = contact::forward_plane_a(head, dir, length, root, normal, body_up, rest_dir) {
                dir = d;
                at_plane = true;
            }
        }
        let mut grounded = false;
        if rules.ground {
            if let Some(d) = contact::ground_a(head, dir, length, floor, rest_dir, -normal, plane) {
                dir = d;
                grounded = true;
            }
        }
        let tip = head + dir * length;

        // Velocity: no correction is fed back (the PBD update that exploded
        // with fast hips); only components that push into a constraint go.
        if stopped {
            let coupled_dir = w * (coupled * link.u);
            let push = coupled_dir - stop_dir;
            let push = push - push.dot(stop_dir) * stop_dir;
            let l = push.length();
            if l > 1e-9 {
                let w = push / l;
                let vw = v.dot(w);
                if vw > 0.0 {
                    v -= vw * w;
                }
            }
        }
        if at_plane {
            let vn = v.dot(normal);
            if vn > 0.0 {
                v -= vn * normal;
            }
        }
        // Rope: no velocity along the bone.
        v -= v.dot(dir) * dir;
        if grounded {
            v.y = v.y.max(0.0);
            v *= ground_keep;
        }

        let contact = at_plane || grounded;
        let dir_local = if contact { inverse_times(&f, dir) } else { limited_local };
        let local = swing_a(link.r_bind, dir_local) * link.neutral;
        bends[i] = if contact { swing_a(link.u, *a * dir_local) } else { limited };
        particles[i] = tip.into();
        velocities[i] = v.into();
        locals[i] = local;
        grounded_out[i] = grounded;
        // Each substep starts again from the anchor's rotation, so the
        // product over at most a few links cannot drift off unit length.
        if !last {
            f *= swing_matrix(link.r_bind, dir_local) * link.neutral_m;
        }
        head = tip;
    }
}
