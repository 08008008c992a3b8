//! Chain-growth parameters with the SPEC T7-T9 defaults.

use serde::{Deserialize, Serialize};

use crate::appendage::DetectParams;
use crate::error::{CaudalError, Result};

/// One segment per this fraction of the model height (SPEC T8: `L / 0.1 H`).
pub const SEGMENT_RATIO: f32 = 0.1;
/// Fewest bones in a chain (SPEC T8: clamp to 3..8).
pub const MIN_BONES: usize = 3;
/// Most bones in a chain (SPEC T8: clamp to 3..8).
pub const MAX_BONES: usize = 8;
/// Passes of `Ji <- Ji/2 + (Ji-1 + Ji+1)/4` over interior joints (SPEC T8).
pub const SMOOTHING_PASSES: usize = 2;
/// Most smoothing passes a caller may ask for. Each pass is a diffusion
/// step over at most 64 joints; its slowest mode shrinks by about
/// `1 - π²/(4·65²)` a pass, so 10^5 passes straighten even the longest
/// chain completely (e^-58) in milliseconds. More is a typo or a hang.
pub const MAX_SMOOTHING_PASSES: usize = 100_000;
/// Fraction of a segment on each side of a joint over which the two bones
/// share the skin. SPEC T9's `w_prev = clamp(0.5 - 2f, 0, 0.5)` is a
/// quarter segment (0.25); caudal blends over the whole segment (0.5: the
/// weight slides linearly from joint to joint, at a joint still 50/50).
/// Why: on low-poly tails a ring of skin often sits a whole segment from
/// the next, so the quarter-segment blend left each ring on one bone and
/// the edges between rings folded at every bend. With today's other
/// defaults, 0.25 tears Wolf Gallop 0.6%, Shiba Walk/Gallop 0.3/1.0%;
/// 0.5 tears only Shiba and Alpaca Gallop, 0.1% each (the Alpaca's stub
/// alone does better at 0.25: 0%).
pub const JOINT_BLEND: f32 = 0.5;
/// No bone shorter than this many times the tail's thickness (twice the
/// 90th-percentile distance of its skin from the centre line): `K` from
/// SPEC T8 is lowered to `round(L / (ratio · thickness))`, never below
/// [`MIN_BONES`]. Not in the SPEC (its fox, 0.42 H long and thin, is
/// unaffected); 0 turns it off.
pub const SEGMENT_THICKNESS: f32 = 1.25;

/// How a tail is fixed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TailFix {
    /// Grow a bone chain (SPEC T8, T9).
    #[default]
    Chain,
    /// All its weight on the pelvis (SPEC T7, "step one"): a plank that
    /// cannot tear, the stretch harness' self-check.
    Rigid,
}

/// How parts are detected and fixed: detection's parameters and chain
/// growth's. Serde names are the keyword names of the Python API (growth's
/// own; `detect` crosses as its own [`DetectParams`]), a missing one takes
/// its default.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ChainParams {
    /// How appendages are found and decided.
    #[serde(skip)]
    pub detect: DetectParams,
    /// What a tail gets: a chain, or rigid binding (serde: `rigid`, a switch).
    #[serde(rename = "rigid", with = "rigid_switch")]
    pub tail_fix: TailFix,
    /// [`SEGMENT_RATIO`].
    pub segment_ratio: f32,
    /// [`MIN_BONES`].
    pub min_bones: usize,
    /// [`MAX_BONES`].
    pub max_bones: usize,
    /// [`SMOOTHING_PASSES`].
    pub smoothing_passes: usize,
    /// [`JOINT_BLEND`], in (0, 0.5].
    pub joint_blend: f32,
    /// [`SEGMENT_THICKNESS`], >= 0.
    pub segment_thickness: f32,
    /// [`super::HANDOVER_RADII`], in [0, [`super::MAX_HANDOVER_RADII`]]
    /// (0: the chain's weights start at the tail's first ring).
    pub handover_radii: f32,
    /// Names a new joint must not take besides the rig's own: the other
    /// characters' joints and chains when a file holds several, so chain
    /// names stay unique in the file (a later character's first tail
    /// continues the numbering: `Tail2_*`, `Tail3_*`, ...).
    pub reserved_names: Vec<String>,
}

/// [`TailFix`] as the switch `rigid` (True: [`TailFix::Rigid`]).
mod rigid_switch {
    use serde::{Deserializer, Serializer};

    use super::TailFix;

    pub fn serialize<S: Serializer>(f: &TailFix, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bool(*f == TailFix::Rigid)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<TailFix, D::Error> {
        Ok(if crate::error::bool_only(d)? { TailFix::Rigid } else { TailFix::Chain })
    }
}

impl Default for ChainParams {
    fn default() -> Self {
        ChainParams {
            detect: DetectParams::default(),
            tail_fix: TailFix::Chain,
            segment_ratio: SEGMENT_RATIO,
            min_bones: MIN_BONES,
            max_bones: MAX_BONES,
            smoothing_passes: SMOOTHING_PASSES,
            joint_blend: JOINT_BLEND,
            segment_thickness: SEGMENT_THICKNESS,
            handover_radii: super::HANDOVER_RADII,
            reserved_names: Vec::new(),
        }
    }
}

impl ChainParams {
    /// Errors naming the first field out of range (detection's included).
    pub fn validate(&self) -> Result<()> {
        self.detect.validate()?;
        if !(self.segment_ratio.is_finite() && self.segment_ratio > 0.0) {
            return Err(CaudalError::param(
                "segment_ratio",
                format!("{} must be a positive number", self.segment_ratio),
            ));
        }
        if self.min_bones == 0 {
            return Err(CaudalError::param("min_bones", "must be at least 1"));
        }
        if self.max_bones < self.min_bones {
            return Err(CaudalError::param(
                "max_bones",
                format!("{} is below min_bones {}", self.max_bones, self.min_bones),
            ));
        }
        if !(self.joint_blend > 0.0 && self.joint_blend <= 0.5) {
            return Err(CaudalError::param(
                "joint_blend",
                format!("{} must lie in (0, 0.5]", self.joint_blend),
            ));
        }
        if !(self.segment_thickness.is_finite() && self.segment_thickness >= 0.0) {
            return Err(CaudalError::param(
                "segment_thickness",
                format!("{} must be a number >= 0", self.segment_thickness),
            ));
        }
        if !(self.handover_radii.is_finite()
            && (0.0..=super::MAX_HANDOVER_RADII).contains(&self.handover_radii))
        {
            return Err(CaudalError::param(
                "handover_radii",
                format!("{} must lie in [0, {}]", self.handover_radii, super::MAX_HANDOVER_RADII),
            ));
        }
        if self.smoothing_passes > MAX_SMOOTHING_PASSES {
            return Err(CaudalError::param(
                "smoothing_passes",
                format!("{} is above the bound {MAX_SMOOTHING_PASSES} (at most that many: more changes nothing)", self.smoothing_passes),
            ));
        }
        if self.max_bones > 64 {
            return Err(CaudalError::param("max_bones", format!("{} is above 64", self.max_bones)));
        }
        Ok(())
    }
}
