//! Spring parameters with the article's defaults (SPEC S1-S8), and how the
//! physical ones scale with the model's size.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::error::{CaudalError, Result};
use crate::rig::RoleOverrides;

/// Root segment frequency, Hz (SPEC S1: "muscle at the base").
pub const ROOT_FREQUENCY_HZ: f32 = 0.9;
/// Tip frequency as a fraction of the root's (SPEC S1: "fur at the end").
/// Links in between are interpolated linearly by index.
pub const TIP_FREQUENCY_RATIO: f32 = 0.5;
/// Damping ratio ζ (SPEC S1; the mouse update raised it from 0.45).
pub const DAMPING_RATIO: f32 = 0.65;
/// Gravity on the particles, m/s² (not 9.8: a tail has muscles).
pub const GRAVITY_M_S2: f32 = 1.0;
/// Carry, degrees (SPEC S3): the elevation above straight down the rest arc
/// lifts the tail's root direction to, distributed over its joints.
/// Departure: S3 lifts by the whole carry, written for a tail modelled
/// hanging down; caudal lifts by `max(0, carry - modelled elevation)`, so a
/// level or curled tail is not lifted further (`spring::rest::carry_lift`).
pub const CARRY_DEG: f32 = 50.0;
/// Bend coupling rate `k`, 1/s (SPEC S4: α = 1 - exp(-k Δt)).
pub const COUPLING_RATE: f32 = 12.0;
/// Elastic stop: largest extra bend beyond the rest direction, degrees (SPEC S5).
/// Departure: the stop limits positions only; S5's removal of the velocity
/// pushing against it made some loops answer every other cycle (see the
/// velocity note in `solver::substep`).
///
/// **The bound it keeps.** At every substep, at any hip speed (tested with
/// hips tumbling at 10^4 rad/s), every link's bend from its rest direction
/// (hips frame) is at most `stop_deg` (times the bend capacity) unless the
/// floor touches that link or a link between it and the hips. The floor
/// takes precedence: hips driven below the floor fold the tail as far as
/// the floor pushes it (measured up to 178°), and the forward plane carries
/// that fold down the chain. With `ground` off the stop always holds. On
/// every clip of the repository's assets, and the demo creature's 0.8 m
/// crouch, the floor never needed more than the stop; only a 1.2 m crouch
/// of a 1.9 m creature (hips at the floor) did (109°).
pub const STOP_DEG: f32 = 30.0;
/// Bend capacity ratio: a chain whose bones are shorter than this many
/// times its skin's thickness has its carry's lift and its stop scaled by
/// `κ = min(1, bone length / (ratio · thickness))` (see
/// `spring::bend_capacity`). Not in the SPEC: its fox tail is slender and
/// unaffected, as are the Khronos Fox (κ 1, bones 0.83 of its thickness)
/// and the Wolf (1.0); the Shiba Inu's curl (0.26) and the Alpaca's stub
/// (0.34) tore at the article's 50° carry and 30° stop. 0 turns it off.
pub const BEND_CAPACITY: f32 = 0.5;
/// Furthest a skeleton's facing may lie from a file axis and still be
/// snapped to it (`spring::body_facing`), degrees: a real rig's
/// pelvis-to-head line wanders a degree or so off the axis its file models
/// it along (the rat's and zebra's heads 0.5 degrees off +Z); a file whose
/// character is turned about its up (the corpus' `rotated_bind`, 20-160
/// degrees) faces up to 45 degrees off every axis, and snapping it turned
/// the rest arc's and the forward plane's axes that far.
pub const FACING_SNAP_DEG: f32 = 10.0;

/// Floor height `g0`, metres (SPEC S8: world up = 0).
pub const FLOOR_HEIGHT_M: f32 = 0.0;
/// Centre-line clearance `ρ` above the floor for the tail's thickness, metres.
pub const CLEARANCE_M: f32 = 0.025;
/// Contact damping `γ` of a grounded particle, 1/s.
pub const CONTACT_DAMPING: f32 = 8.0;
/// restCurve β: 0 = centred arc, 1 = keep the modelled side curvature (SPEC S7).
/// Departure: β acts on the side (lateral) curvature only, as S7's text says;
/// the curl in the body's mid plane (up/back) is always kept, where S7's
/// formula `slerp(I, swing(c, a_i), β)` would straighten it too.
pub const REST_CURVE: f32 = 0.0;
/// Link length, as a fraction of the model height `H`, at which a link
/// swings at exactly its given frequency: the segment length caudal grows
/// (SPEC T8, `0.1 H`). A shorter link is stiffer in proportion (`ω ∝ 1/ℓ`),
/// a longer one softer. Without this the article's particle spring bends a
/// link by `g/(ω² ℓ)` under gravity or acceleration, so the same tail cut
/// into 8 bones sags about 4x as far as cut into 4 (measured: 7° against 29°
/// of a 50° carry); with it the whole tail bends the same for any bone count.
/// 0 turns the scaling off (every link at its frequency, the article's model).
pub const SEGMENT_REFERENCE: f32 = 0.1;
/// Largest stiffening of a very short link (`ω` times this at most), which
/// keeps the fixed substep stable.
pub const MAX_STIFFENING: f32 = 4.0;
/// Internal fixed substep rate, Hz. Not from the article: with a fixed step
/// and an accumulator the motion does not depend on the caller's frame rate.
/// 120 Hz keeps ω·h ≤ 0.05 for the default springs (semi-implicit Euler is
/// stable up to ω·h = 2) and is a whole multiple of 24, 30 and 60 fps.
pub const SUBSTEP_RATE_HZ: f32 = 120.0;
/// Most substeps one call may run. A longer hitch is simulated with this many
/// substeps spread over the whole interval (time is stretched, never skipped
/// in a way that would snap the tail), so one slow frame cannot snowball.
pub const MAX_SUBSTEPS: u32 = 32;
/// Upper bound of `max_substeps`: at the default 120 Hz, 10^5 substeps are
/// 14 minutes of motion in one call. A caller asking for more would hang
/// the call, not smooth a hitch.
pub const MAX_SUBSTEPS_BOUND: u32 = 100_000;
/// A move of the spring's parent (the pelvis) farther than this between two
/// calls is a teleport: the chain restarts at rest instead of whipping, metres.
pub const TELEPORT_DISTANCE_M: f32 = 1.0;
/// Height of the character the physical defaults were tuned on, metres (the
/// article's fox model is 1.91 m tall). [`Units::Auto`] scales the metre-based
/// parameters by `model height / REFERENCE_HEIGHT_M`.
pub const REFERENCE_HEIGHT_M: f32 = 1.91;

/// How the metre-based parameters (`gravity`, `floor_height`, `clearance`,
/// `teleport_distance`) become world units. Frequencies, damping, rates and
/// angles have no length unit and never scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Units {
    /// Scale with the model: `units_per_metre = H / REFERENCE_HEIGHT_M` with
    /// `H` the bind-pose height of the rig, times the scale the scene puts on
    /// the spring's parent relative to its bind scale. A centimetre export or
    /// a tiny mouse behaves like the article's fox, scaled.
    Auto,
    /// Absolute: this many world units per metre (1.0 = the parameters are
    /// world units, whatever the model's size).
    PerMetre(f32),
}

/// Parameters of one tail spring. `Default` gives the article's values;
/// serde names are the keyword names of the Python API, a missing one takes
/// its default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SpringParams {
    /// Root link frequency `f`, Hz; `ω = 2π f`.
    pub root_frequency: f32,
    /// Tip frequency / root frequency.
    pub tip_frequency_ratio: f32,
    /// Damping ratio ζ of `p'' = ω²(T - p) - 2ζω p' + g`.
    pub damping_ratio: f32,
    /// Downward acceleration, metres/s² (see [`Units`]).
    pub gravity: f32,
    /// Target elevation of the tail above straight down, degrees: the rest
    /// arc lifts the tail about the hips' lateral axis by
    /// `max(0, carry - modelled root elevation)`; link `i` of `N` gets
    /// `(i+1)/N` of that lift, so the arc does not depend on `N`. A tail
    /// modelled at or above the carry (level, curled) is not lifted; 0 or
    /// less never lifts.
    pub carry_deg: f32,
    /// Keep every particle below the root behind the forward-facing plane
    /// through the tail root (so the tail never swings between the legs;
    /// above the root lies the back, where a curled tail may rest).
    #[serde(deserialize_with = "crate::error::bool_only")]
    pub forward_plane: bool,
    /// Bend coupling rate `k`, 1/s; 0 disables coupling.
    pub coupling_rate: f32,
    /// Elastic stop angle beyond the rest direction, degrees (0 < stop ≤ 180).
    pub stop_deg: f32,
    /// [`BEND_CAPACITY`]: scales the carry's lift and `stop_deg` down for a
    /// chain too short for its skin's thickness; 0 = off.
    pub bend_capacity: f32,
    /// Ground contact on or off.
    #[serde(deserialize_with = "crate::error::bool_only")]
    pub ground: bool,
    /// Floor height `g0`, metres (see [`Units`]); along the character's up
    /// (`spring::body_up`: world Y for an upright bind).
    pub floor_height: f32,
    /// Centre-line clearance `ρ`, metres (see [`Units`]).
    pub clearance: f32,
    /// Contact damping `γ`, 1/s.
    pub contact_damping: f32,
    /// restCurve β in [0, 1].
    pub rest_curve: f32,
    /// Link length (fraction of `H`) swinging at exactly the given
    /// frequency; see [`SEGMENT_REFERENCE`]. 0 = no length scaling.
    pub segment_reference: f32,
    /// Internal fixed substep rate, Hz.
    pub substep_rate: f32,
    /// Most substeps per call.
    pub max_substeps: u32,
    /// Teleport threshold, metres (see [`Units`]); `f32::INFINITY` disables.
    pub teleport_distance: f32,
    /// Metres to world units; `units_per_metre` for serde (none: [`Units::Auto`]).
    #[serde(rename = "units_per_metre", with = "units_per_metre")]
    pub units: Units,
    /// The character's facing direction in bind space; `None` (the
    /// default): the way its skeleton faces (`JointRoles::facing`: pelvis
    /// to head, or along the hind feet), glTF's +Z when it shows none. A
    /// file need not face +Z (Rigify exports of the horse, the rabbit and
    /// the fieldmouse face -X or -Z); taking +Z for them turned the carry's
    /// and the rest arc's axes by 90° and bent the tail's root 87° at rest.
    #[serde(with = "opt_xyz")]
    pub forward: Option<Vec3>,
    /// The character's up direction in bind space (core space: +Y).
    #[serde(with = "xyz")]
    pub up: Vec3,
    /// The user's joint roles (as `Rig.roles(overrides)` and detection's
    /// `pelvis` take them; none: found from the skeleton's structure). The
    /// spring reads the body's level and facing from the roles
    /// (`spring::body_frame`): a rig whose pelvis or head the finder misreads
    /// is set right by the same names that set detection right, or its rest
    /// arc and forward plane would turn with the misread facing.
    pub roles: RoleOverrides,
}

impl Default for SpringParams {
    fn default() -> Self {
        SpringParams {
            root_frequency: ROOT_FREQUENCY_HZ,
            tip_frequency_ratio: TIP_FREQUENCY_RATIO,
            damping_ratio: DAMPING_RATIO,
            gravity: GRAVITY_M_S2,
            carry_deg: CARRY_DEG,
            forward_plane: true,
            coupling_rate: COUPLING_RATE,
            stop_deg: STOP_DEG,
            bend_capacity: BEND_CAPACITY,
            ground: true,
            floor_height: FLOOR_HEIGHT_M,
            clearance: CLEARANCE_M,
            contact_damping: CONTACT_DAMPING,
            rest_curve: REST_CURVE,
            segment_reference: SEGMENT_REFERENCE,
            substep_rate: SUBSTEP_RATE_HZ,
            max_substeps: MAX_SUBSTEPS,
            teleport_distance: TELEPORT_DISTANCE_M,
            units: Units::Auto,
            forward: None,
            up: Vec3::Y,
            roles: RoleOverrides::default(),
        }
    }
}

fn finite(field: &str, x: f32) -> Result<()> {
    if x.is_finite() {
        Ok(())
    } else {
        Err(CaudalError::param(field, format!("must be finite, got {x}")))
    }
}

impl SpringParams {
    /// Checks every field; the error names the offending one.
    pub fn validate(&self) -> Result<()> {
        let positive = |field: &str, x: f32| -> Result<()> {
            if x.is_finite() && x > 0.0 {
                Ok(())
            } else {
                Err(CaudalError::param(field, format!("must be finite and > 0, got {x}")))
            }
        };
        let non_negative = |field: &str, x: f32| -> Result<()> {
            if x.is_finite() && x >= 0.0 {
                Ok(())
            } else {
                Err(CaudalError::param(field, format!("must be finite and >= 0, got {x}")))
            }
        };
        positive("root_frequency", self.root_frequency)?;
        positive("tip_frequency_ratio", self.tip_frequency_ratio)?;
        non_negative("damping_ratio", self.damping_ratio)?;
        non_negative("gravity", self.gravity)?;
        finite("carry_deg", self.carry_deg)?;
        if self.carry_deg.abs() > 180.0 {
            return Err(CaudalError::param(
                "carry_deg",
                format!("must be within [-180, 180], got {}", self.carry_deg),
            ));
        }
        non_negative("coupling_rate", self.coupling_rate)?;
        if !(self.stop_deg.is_finite() && self.stop_deg > 0.0 && self.stop_deg <= 180.0) {
            return Err(CaudalError::param(
                "stop_deg",
                format!("must be in (0, 180], got {}", self.stop_deg),
            ));
        }
        non_negative("bend_capacity", self.bend_capacity)?;
        finite("floor_height", self.floor_height)?;
        non_negative("clearance", self.clearance)?;
        non_negative("contact_damping", self.contact_damping)?;
        if !(self.rest_curve.is_finite() && (0.0..=1.0).contains(&self.rest_curve)) {
            return Err(CaudalError::param(
                "rest_curve",
                format!("must be in [0, 1], got {}", self.rest_curve),
            ));
        }
        non_negative("segment_reference", self.segment_reference)?;
        positive("substep_rate", self.substep_rate)?;
        // Semi-implicit Euler on the stiffest possible link: keep ω·h well
        // inside its stability limit of 2.
        let stiffening = if self.segment_reference > 0.0 { MAX_STIFFENING } else { 1.0 };
        let omega = std::f32::consts::TAU
            * self.root_frequency
            * self.tip_frequency_ratio.max(1.0)
            * stiffening;
        if omega / self.substep_rate > 0.5 {
            return Err(CaudalError::param(
                "substep_rate",
                format!(
                    "{} Hz is too coarse for a {} Hz spring (need ω/rate <= 0.5)",
                    self.substep_rate, self.root_frequency
                ),
            ));
        }
        if self.max_substeps == 0 {
            return Err(CaudalError::param("max_substeps", "must be >= 1"));
        }
        if self.max_substeps > MAX_SUBSTEPS_BOUND {
            return Err(CaudalError::param(
                "max_substeps",
                format!("{} is above the bound {MAX_SUBSTEPS_BOUND} (at most that many substeps per call)", self.max_substeps),
            ));
        }
        if self.teleport_distance.is_nan() || self.teleport_distance <= 0.0 {
            return Err(CaudalError::param(
                "teleport_distance",
                format!("must be > 0 (infinity disables), got {}", self.teleport_distance),
            ));
        }
        if let Units::PerMetre(u) = self.units {
            positive("units_per_metre", u)?;
        }
        self.check_axes()
    }

    /// `forward` (when given) and `up`: finite, non-zero, not parallel.
    fn check_axes(&self) -> Result<()> {
        let forward = self.forward.unwrap_or(Vec3::Z);
        if !forward.is_finite() || !self.up.is_finite() {
            return Err(CaudalError::param("forward", "forward and up must be finite vectors"));
        }
        let (f, u) = (forward.normalize_or_zero(), self.up.normalize_or_zero());
        if f == Vec3::ZERO {
            return Err(CaudalError::param("forward", "must be a non-zero vector"));
        }
        if u == Vec3::ZERO {
            return Err(CaudalError::param("up", "must be a non-zero vector"));
        }
        if f.cross(u).length() < 0.1 {
            return Err(CaudalError::param("forward", "must not be parallel to up"));
        }
        Ok(())
    }
}

/// [`Units`] as an optional number: none for [`Units::Auto`].
mod units_per_metre {
    use serde::{Deserialize, Deserializer, Serializer};

    use super::Units;

    pub fn serialize<S: Serializer>(units: &Units, s: S) -> std::result::Result<S::Ok, S::Error> {
        match units {
            Units::Auto => s.serialize_none(),
            Units::PerMetre(u) => s.serialize_some(u),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Units, D::Error> {
        Ok(Option::<f32>::deserialize(d)?.map_or(Units::Auto, Units::PerMetre))
    }
}

/// A direction as its three components `[x, y, z]`.
mod xyz {
    use glam::Vec3;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(v: &Vec3, s: S) -> std::result::Result<S::Ok, S::Error> {
        v.to_array().as_slice().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Vec3, D::Error> {
        Ok(Vec3::from_array(<[f32; 3]>::deserialize(d)?))
    }
}

/// An optional direction: `[x, y, z]` or none.
mod opt_xyz {
    use glam::Vec3;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(
        v: &Option<Vec3>,
        s: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        // A slice, as `xyz` writes one (Python reads a list, not a tuple).
        match v {
            Some(v) => s.serialize_some(v.to_array().as_slice()),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> std::result::Result<Option<Vec3>, D::Error> {
        Ok(Option::<[f32; 3]>::deserialize(d)?.map(Vec3::from_array))
    }
}
