//! Chain-growth parameters with the SPEC T7-T9 defaults.

use crate::appendage::DetectParams;
use crate::error::{CaudalError, Result};

/// One segment per this fraction of the model height (SPEC T8: `L / 0.1 H`).
pub const SEGMENT_RATIO: f32 = 0.1;
/// Fewest and most bones in a chain (SPEC T8: clamp to 3..8).
pub const MIN_BONES: usize = 3;
pub const MAX_BONES: usize = 8;
/// Passes of `Ji <- Ji/2 + (Ji-1 + Ji+1)/4` over interior joints (SPEC T8).
pub const SMOOTHING_PASSES: usize = 2;

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

#[derive(Clone, Debug)]
pub struct ChainParams {
    pub detect: DetectParams,
    pub tail_fix: TailFix,
    /// [`SEGMENT_RATIO`].
    pub segment_ratio: f32,
    /// [`MIN_BONES`], [`MAX_BONES`].
    pub min_bones: usize,
    pub max_bones: usize,
    /// [`SMOOTHING_PASSES`].
    pub smoothing_passes: usize,
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
        }
    }
}

impl ChainParams {
    pub fn validate(&self) -> Result<()> {
        self.detect.validate()?;
        if !(self.segment_ratio.is_finite() && self.segment_ratio > 0.0) {
            return Err(CaudalError::param("segment_ratio", format!("{} must be a positive number", self.segment_ratio)));
        }
        if self.min_bones == 0 {
            return Err(CaudalError::param("min_bones", "must be at least 1"));
        }
        if self.max_bones < self.min_bones {
            return Err(CaudalError::param("max_bones", format!("{} is below min_bones {}", self.max_bones, self.min_bones)));
        }
        if self.max_bones > 64 {
            return Err(CaudalError::param("max_bones", format!("{} is above 64", self.max_bones)));
        }
        Ok(())
    }
}
