//! The spring's rest geometry, built once per chain and parameter set:
//! neutral locals from the inverse bind matrices (S6), the extrapolated last
//! segment when there is no Tail_End (S6), and the centred rest arc with the
//! distributed carry (S3, S7).

use glam::{Mat3A, Mat4, Quat, Vec3, Vec3A};

use super::chain::TailChain;
use super::coupling::{coupling_alpha, swing};
use super::lane_geometry::Blend;
use super::params::{SpringParams, Units, FACING_SNAP_DEG, MAX_STIFFENING, REFERENCE_HEIGHT_M};
use crate::error::{CaudalError, Result};
use crate::rig::roles::JointRoles;
use crate::rig::{Rig, Trs};

/// Constants of one link (bone `i`, from its head to its tip).
#[derive(Clone, Copy, Debug)]
pub(crate) struct LinkRest {
    /// Corrected rest direction `r_i` in the parent bone's frame.
    pub r: Vec3A,
    /// The same in the body (hips) frame: `u_i = A_i r_i`.
    pub u: Vec3A,
    /// Authored (bind) direction in the parent bone's frame: what the
    /// bone's neutral local rotation points along.
    pub r_bind: Vec3A,
    /// `A_i`, the parent's corrected rest frame into the body (hips)
    /// frame, as a matrix: the solver turns vectors between the parent's
    /// frame and the body frame several times per link and substep, and a
    /// matrix product is shorter (and has a shorter dependency chain) than
    /// rotating by a quaternion.
    pub a: Mat3A,
    /// Neutral local rotation `L_i⁰` (from the bind matrices).
    pub neutral: Quat,
    /// Corrected rest local rotation: the output when the tail is at rest.
    pub rest_local: Quat,
    /// Length in the anchor's local units (world = this × anchor scale).
    pub length: f32,
    /// Frequency of this link, Hz (profile and length scaling applied).
    pub frequency: f32,
    /// Bend coupling blend per substep, `1 - exp(-k h)`, with `k` the
    /// coupling rate times the link's stiffening squared: neighbouring bends
    /// of a smooth curve differ in proportion to ℓ², so this keeps coupling
    /// the same weight against the link's spring for any bone count.
    /// (Kept with the parts of the corrected lerp that depend on it only,
    /// computed once.)
    pub blend: Blend<f32>,
    /// `ω²` and `2ζω`.
    pub omega2: f32,
    pub damping: f32,
    /// The half turns used when a swing from `u` or from `r_bind` meets
    /// the opposite direction (no shortest arc): fixed per link, so the
    /// solver never computes them.
    pub u_flip: Quat,
    pub r_bind_flip: Quat,
}

#[derive(Clone, Debug)]
pub(crate) struct ChainRest {
    pub links: Vec<LinkRest>,
    /// Head of the root bone in the anchor's local space.
    pub root_offset: Vec3,
    /// Uniform scale of the anchor's bind world matrix.
    pub anchor_bind_scale: f32,
    /// The body's forward axis in the anchor's local frame (bind forward
    /// under the inverse bind rotation): the forward-plane normal is the
    /// anchor's rotation applied to this.
    pub forward_in_anchor: Vec3A,
    /// The body's up axis in the anchor's local frame: the forward plane
    /// only guards the space below the root (between the legs).
    pub up_in_anchor: Vec3A,
    /// Units per metre in bind space, and whether it follows the scene scale.
    pub units_per_metre: f32,
    pub units_follow_scale: bool,
    /// The ground the character stands on, metres along `up`
    /// ([`bind_ground_along`] over the units per metre): the floor is this
    /// plus `floor_height` and the clearance.
    pub ground: f32,
    /// The character's up in world ([`body_up`], the bind's space): the
    /// floor's normal and the way gravity does not pull; exactly +Y for an
    /// upright bind, and then the solver runs its level form.
    pub up: Vec3,
}

pub(crate) fn uniform_scale(s: Vec3) -> f32 {
    (s.x.abs() + s.y.abs() + s.z.abs()) / 3.0
}

/// The rotation levelling the ground the character stands on in its file,
/// as its roles read it (`JointRoles::level`: `rig::roles::ground_level`,
/// kept only when the levelled bind reads the skeleton better), or the
/// identity when `params.up` is given (anything but the default +Y: the
/// caller then says where up is). A file pitched or rolled as a whole
/// (character and ground on a slope, the corpus' `rotated_bind`) has its
/// up along the ground's normal, not world Y; an upright bind levels to
/// exactly the identity.
pub fn body_level(rig: &Rig, params: &SpringParams) -> Quat {
    read_body(rig, params).0
}

/// [`body_level`] and the skeleton's facing (`JointRoles::facing`), from
/// one reading of the roles.
fn read_body(rig: &Rig, params: &SpringParams) -> (Quat, Option<Vec3>) {
    if params.up.normalize_or_zero() != Vec3::Y {
        return (Quat::IDENTITY, None);
    }
    match JointRoles::find(rig, &params.roles) {
        Ok(r) => (r.level, r.facing),
        Err(_) => (Quat::IDENTITY, None),
    }
}

/// The character's up in bind space: `params.up` when given, else the
/// normal of the ground it stands on ([`body_level`]), exactly +Y for an
/// upright bind. The spring's gravity, floor, forward plane and rest arc
/// all take this up: a tail modelled resting on a pitched ground lay up to
/// 8% H below a floor level in world Y and was folded from the first frame
/// (corpus seed 3, pitched about 15 degrees: Tail_4 bent 40 degrees
/// standing).
pub fn body_up(rig: &Rig, params: &SpringParams) -> Vec3 {
    up_of(body_level(rig, params), params)
}

/// [`body_up`] and [`body_facing`] from one reading of the roles (each
/// alone reads them again).
pub fn body_frame(rig: &Rig, params: &SpringParams) -> (Vec3, Vec3) {
    let (level, facing) = read_body(rig, params);
    (up_of(level, params), facing_of(params, level, facing))
}

fn up_of(level: Quat, params: &SpringParams) -> Vec3 {
    if level == Quat::IDENTITY {
        params.up.normalize()
    } else {
        (level.inverse() * Vec3::Y).normalize()
    }
}

/// The way the character faces in bind space: `forward` when given, else
/// the horizontal axis of the file (+Z, -Z, +X or -X) nearest the
/// skeleton's own facing (`JointRoles::facing`: pelvis to head, or along the
/// hind feet), else glTF's +Z. A file models its character along one of its
/// axes; the skeleton says which, but its pelvis-to-head line wanders by a
/// degree or so on a real rig (the rat's and zebra's heads lie 0.5° off +Z),
/// which would tilt the rest arc's axes for nothing. A file modelled facing
/// -X (a Rigify export) read as facing +Z had its tail's own direction
/// taken for the lateral axis: the rest arc bent the rabbit's tail root 87°
/// off its bind and the forward plane pushed it sideways. With `up` other
/// than Y the skeleton is not read (its facing is horizontal in Y-up). A
/// bind standing on a pitched ground ([`body_level`]) has its file's axes
/// read levelled with that ground: the facing is snapped to the nearest of
/// them turned back onto the slope. A facing further than
/// [`FACING_SNAP_DEG`] from every axis is a character turned in its file,
/// not a wandering head, and is kept as the skeleton shows it: snapped,
/// a character turned 20-160 degrees (the corpus' `rotated_bind`) had its
/// rest arc and forward plane up to 45 degrees off its body, and its
/// crouches tore the skin by the repair on 33 of 59 rows of corpus 0..200
/// against 46 of 164 for the rest (21 of 59 kept as shown).
pub fn body_facing(rig: &Rig, params: &SpringParams) -> Vec3 {
    body_frame(rig, params).1
}

fn facing_of(params: &SpringParams, level: Quat, facing: Option<Vec3>) -> Vec3 {
    if let Some(f) = params.forward {
        return f;
    }
    if params.up.normalize_or_zero() != Vec3::Y {
        return Vec3::Z;
    }
    let on_slope = |v: Vec3| if level == Quat::IDENTITY { v } else { level.inverse() * v };
    let Some(f) = facing else { return on_slope(Vec3::Z) };
    let axis = [Vec3::Z, Vec3::NEG_Z, Vec3::X, Vec3::NEG_X]
        .into_iter()
        .map(on_slope)
        .max_by(|a, b| a.dot(f).total_cmp(&b.dot(f)))
        .unwrap_or(Vec3::Z);
    if axis.angle_between(f) > FACING_SNAP_DEG.to_radians() {
        f
    } else {
        axis
    }
}

/// The height (world Y, bind units) of the ground the character stands on
/// in its file: world 0 (SPEC S8), unless its body's lowest bind-pose skin
/// point lies more than `sink` below it; then that point plus `sink`. The
/// body is every vertex the chain does not weight (a long hanging tail
/// modelled through the floor must not lower the floor it lies on). `sink`
/// is the clearance the spring keeps the tail's centre line above the
/// floor: feet modelled sunk into the floor by up to that much (the demo
/// creature's soles reach 5.6 mm below 0) still stand on world 0, as S8
/// says. A character modelled about its centre (the Rigify horse,
/// fieldmouse and rabbit stand 0.3-0.55 H below 0) put the floor through
/// its own hips, and the floor then folded its tail's root against the body
/// far past the elastic stop (the rabbit's Tail_1: 174°). Only ever lower
/// than world 0: a floor below the feet never touches a tail the feet keep
/// off it; one inside the body folds it.
pub fn bind_ground(rig: &Rig, chain: &TailChain, sink: f32) -> f32 {
    bind_ground_along(rig, chain, sink, Vec3::Y)
}

/// [`bind_ground`] measured along `up` (the character's up, [`body_up`]):
/// heights are `p · up`, exactly `p.y` for +Y. On a pitched file the floor
/// is the plane of the ground the body stands on, not a level plane
/// through its lowest point.
pub fn bind_ground_along(rig: &Rig, chain: &TailChain, sink: f32, up: Vec3) -> f32 {
    let inf = rig.influences();
    let on_chain = |j: &u32| chain.bones.contains(&(*j as usize)) || chain.end == Some(*j as usize);
    let height = |p: &Vec3| if up == Vec3::Y { p.y } else { p.dot(up) };
    let lowest = rig
        .vertices()
        .iter()
        .enumerate()
        .filter(|(v, _)| {
            let (joints, weights) = inf.of(*v);
            !joints.iter().zip(weights).any(|(j, w)| *w > 0.0 && on_chain(j))
        })
        .map(|(_, p)| height(p))
        .fold(0.0, f32::min);
    (lowest + sink).min(0.0)
}

/// Body axes: `forward` ([`body_facing`]) made orthogonal to `up`
/// ([`body_up`]); lateral = up × forward (+X, the character's left, for
/// glTF's +Y up / +Z forward).
pub(crate) fn body_axes(forward: Vec3, up: Vec3) -> (Vec3, Vec3, Vec3) {
    let forward = (forward - forward.dot(up) * up).normalize();
    (forward, up, up.cross(forward))
}

/// Elevation of the modelled root direction `c` (lateral part removed)
/// above straight down, radians, about the hips' lateral axis: 0 hanging
/// straight down, π/2 level and pointing back, beyond π/2 curled up over
/// the back; negative when it points forward between the legs.
pub(crate) fn root_elevation(c: Vec3, forward: Vec3, up: Vec3) -> f32 {
    (-c.dot(forward)).atan2(-c.dot(up))
}

/// The lift the rest arc applies (radians): carry is a target elevation,
/// not a fixed turn. Departure from SPEC S3, which lifts a tail modelled
/// hanging straight down between the legs by the whole carry: applied to a
/// tail modelled level or curled over the back it lifted that tail 50°
/// further (the curled demo tails stretched most, p99 up to 1.49). The lift
/// is `max(0, carry - elevation)`: a hanging tail gets the article's whole
/// carry, a level or curled one keeps its modelled elevation. A stub's
/// bend capacity κ then scales the lift (`SpringParams::bend_capacity`).
pub(crate) fn carry_lift(carry: f32, elevation: f32) -> f32 {
    (carry - elevation).max(0.0)
}

/// `capacity`: the chain's bend capacity κ, which scales the carry's lift.
/// The stages: each bone's tip and length, the authored directions, the
/// centred rest arc with its carry, each link's constants, the units.
pub(crate) fn build(
    rig: &Rig,
    chain: &TailChain,
    params: &SpringParams,
    capacity: f32,
) -> Result<ChainRest> {
    params.validate()?;
    params.roles.check(rig)?;
    let neutral = rig.bind_locals();
    let tips = bone_tips(rig, chain, &neutral)?;
    let lengths = anchor_lengths(chain, &neutral, &tips);
    let anchor_rot = rig.bind_world()[chain.anchor].to_scale_rotation_translation().1.normalize();
    let (up, facing) = body_frame(rig, params);
    let (forward, up, lateral) = body_axes(facing, up);
    let (r_bind, authored) = authored_directions(chain, &neutral, &tips, anchor_rot);

    // Centred arc (S7): the root direction without its lateral part.
    let c = side_free(authored[0], lateral, -up);
    let carry =
        capacity * carry_lift(params.carry_deg.to_radians(), root_elevation(c, forward, up));
    let arc = RestArc { c, lateral, carry, beta: params.rest_curve };
    // Reference link length in anchor-local units (H is in bind space).
    let anchor_scale = rig.bind_world()[chain.anchor].to_scale_rotation_translation().0;
    let reference = params.segment_reference * rig.height() / uniform_scale(anchor_scale);
    let n = chain.bones.len();
    let mut links = Vec::with_capacity(n);
    let mut corrected = anchor_rot; // A_i: corrected parent rest frame in the body frame
    for i in 0..n {
        let nrot = neutral[chain.bones[i]].rotation.normalize();
        let (u, r, rest_local) = arc.link(i, n, authored[i], r_bind[i], corrected, nrot);
        let a = corrected;
        corrected = (corrected * rest_local).normalize();
        let (frequency, blend, omega2, damping) =
            link_dynamics(params, i, n, lengths[i], reference);
        let half_turn =
            |v: Vec3| Quat::from_axis_angle(v.any_orthonormal_vector(), std::f32::consts::PI);
        links.push(LinkRest {
            r: r.into(),
            u: u.into(),
            r_bind: r_bind[i].into(),
            a: Mat3A::from_quat(a),
            neutral: nrot,
            rest_local,
            length: lengths[i],
            frequency,
            blend,
            omega2,
            damping,
            u_flip: half_turn(u),
            r_bind_flip: half_turn(r_bind[i]),
        });
    }
    let (units_per_metre, units_follow_scale) = units_scale(rig, params)?;
    Ok(ChainRest {
        ground: bind_ground_along(rig, chain, params.clearance * units_per_metre, up)
            / units_per_metre,
        up,
        links,
        root_offset: neutral[chain.bones[0]].translation,
        forward_in_anchor: (anchor_rot.inverse() * forward).into(),
        up_in_anchor: (anchor_rot.inverse() * up).into(),
        anchor_bind_scale: uniform_scale(
            rig.bind_world()[chain.anchor].to_scale_rotation_translation().0,
        ),
        units_per_metre,
        units_follow_scale,
    })
}

/// Tip offset of each bone in its own local frame; a zero-length bone is an
/// error naming it.
fn bone_tips(rig: &Rig, chain: &TailChain, neutral: &[Trs]) -> Result<Vec<Vec3>> {
    let n = chain.bones.len();
    let names = rig.joint_names();
    let mut tips: Vec<Vec3> = Vec::with_capacity(n);
    for i in 0..n {
        let tip = if i + 1 < n {
            neutral[chain.bones[i + 1]].translation
        } else if let Some(e) = chain.end {
            neutral[e].translation
        } else {
            // No Tail_End: continue the incoming tangent. The incoming
            // segment is the last bone's head as seen from its parent; that
            // vector lives in the *parent's* frame, so express it in the
            // last bone's own frame (rotation and scale undone).
            let last = &neutral[chain.bones[i]];
            let incoming = last.translation;
            last.rotation.inverse() * incoming / last.scale
        };
        if !tip.is_finite() || tip.length() <= 1e-9 {
            return Err(CaudalError::param(
                "chain",
                format!("bone {:?} has zero length", names[chain.bones[i]]),
            ));
        }
        tips.push(tip);
    }
    Ok(tips)
}

/// Lengths in anchor-local units through the full neutral transforms
/// (scales included).
fn anchor_lengths(chain: &TailChain, neutral: &[Trs], tips: &[Vec3]) -> Vec<f32> {
    let mut x = Mat4::IDENTITY;
    let mut lengths = Vec::with_capacity(tips.len());
    for (i, tip) in tips.iter().enumerate() {
        x *= neutral[chain.bones[i]].matrix();
        lengths.push(x.transform_vector3(*tip).length());
    }
    lengths
}

/// Each bone's bind direction in its parent's frame, and the authored
/// directions a_i in the body frame (bind world axes).
fn authored_directions(
    chain: &TailChain,
    neutral: &[Trs],
    tips: &[Vec3],
    anchor_rot: Quat,
) -> (Vec<Vec3>, Vec<Vec3>) {
    let mut r_bind = Vec::with_capacity(tips.len());
    let mut authored = Vec::with_capacity(tips.len());
    let mut frame = anchor_rot;
    for (i, tip) in tips.iter().enumerate() {
        let rot = neutral[chain.bones[i]].rotation;
        let rb = rot * tip.normalize();
        r_bind.push(rb);
        authored.push((frame * rb).normalize());
        frame = (frame * rot).normalize();
    }
    (r_bind, authored)
}

/// A direction without its lateral part (`fallback` if nothing is left).
fn side_free(a: Vec3, lateral: Vec3, fallback: Vec3) -> Vec3 {
    let f = a - a.dot(lateral) * lateral;
    if f.length() > 1e-4 {
        f.normalize()
    } else {
        fallback
    }
}

/// The centred rest arc (S7) with the distributed carry (S3).
struct RestArc {
    /// The root direction without its lateral part.
    c: Vec3,
    /// The body's lateral axis, which the carry turns about.
    lateral: Vec3,
    /// The whole carry's lift, radians, shared out along the links.
    carry: f32,
    /// `rest_curve`: how much of the modelled side curvature stays.
    beta: f32,
}

impl RestArc {
    /// Link `i` of `n` at rest: its direction `u` in the body frame, the
    /// same `r` in its corrected parent frame `a`, and its rest local
    /// rotation (from its neutral one `nrot`).
    fn link(
        &self,
        i: usize,
        n: usize,
        authored: Vec3,
        r_bind: Vec3,
        a: Quat,
        nrot: Quat,
    ) -> (Vec3, Vec3, Quat) {
        let (c, beta) = (self.c, self.beta);
        // S7's text: β = 0 removes the modelled *side* curvature. Its
        // formula slerps every segment onto `c`, which also straightens the
        // curl in the body's mid plane: it would unroll a tail curled over
        // the back (Shiba) at rest and squash its low-poly skin to a quarter
        // of its length without any motion. Only the lateral part goes.
        let keep_side =
            swing(c, side_free(authored, self.lateral, c)).slerp(swing(c, authored), beta);
        let lift = Quat::from_axis_angle(self.lateral, self.carry * (i + 1) as f32 / n as f32);
        let u = (lift * (keep_side * c)).normalize();
        let r = (a.inverse() * u).normalize();
        let rest_local = (swing(r_bind, r) * nrot).normalize();
        (u, r, rest_local)
    }
}

/// Link `i` of `n`'s frequency (Hz, the profile from root to tip times the
/// stiffening of a short link), coupling blend, `ω²` and `2ζω`.
fn link_dynamics(
    params: &SpringParams,
    i: usize,
    n: usize,
    length: f32,
    reference: f32,
) -> (f32, Blend<f32>, f32, f32) {
    let t = if n > 1 { i as f32 / (n - 1) as f32 } else { 0.0 };
    let profile = params.root_frequency * (1.0 + (params.tip_frequency_ratio - 1.0) * t);
    let stiffening = if reference > 0.0 { (reference / length).min(MAX_STIFFENING) } else { 1.0 };
    let f = profile * stiffening;
    let omega = std::f32::consts::TAU * f;
    let alpha =
        coupling_alpha(params.coupling_rate * stiffening * stiffening, 1.0 / params.substep_rate);
    let two_zeta = 2.0 * params.damping_ratio;
    (f, Blend::new(alpha), omega * omega, two_zeta * omega)
}

/// Units per metre in bind space, and whether they follow the scene scale
/// (`Units::Auto`: from the rig's height).
fn units_scale(rig: &Rig, params: &SpringParams) -> Result<(f32, bool)> {
    Ok(match params.units {
        Units::Auto => {
            let h = rig.height();
            if !(h.is_finite() && h > 0.0) {
                return Err(CaudalError::param(
                    "units",
                    "the rig has no height to scale the spring by; pass units_per_metre",
                ));
            }
            (h / REFERENCE_HEIGHT_M, true)
        }
        Units::PerMetre(u) => (u, false),
    })
}
