//! Solver settings. Every number is a named, documented default.

use caudal::error::{CaudalError, Result};

/// What each bone may do per frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveMode {
    /// Rotation and translation per bone, as in article 001: joints may
    /// translate, so bone lengths are not preserved (SPEC X7).
    Rigid,
    /// Local translations fixed to the bind pose (roots keep a free
    /// translation: that is where the character is, not a bone length), so
    /// every bone length is preserved. The article's missing number.
    RotationOnly,
}

impl SolveMode {
    pub fn parse(field: &str, s: &str) -> Result<SolveMode> {
        match s {
            "rigid" => Ok(SolveMode::Rigid),
            "rotation_only" => Ok(SolveMode::RotationOnly),
            _ => Err(CaudalError::param(
                field,
                format!("unknown mode {s:?} (expected \"rigid\" or \"rotation_only\")"),
            )),
        }
    }
    pub fn name(&self) -> &'static str {
        match self {
            SolveMode::Rigid => "rigid",
            SolveMode::RotationOnly => "rotation_only",
        }
    }
}

/// Constraint vertices per solve (SPEC X7: the article reduced constraints
/// to 5,000 vertices on the densest mesh). Quality is always measured on
/// the full mesh.
pub const DEFAULT_CONSTRAINT_BUDGET: usize = 5_000;

/// Upper bound on block-coordinate sweeps per frame.
pub const DEFAULT_MAX_SWEEPS: usize = 200;

/// A frame stops when one sweep lowers the RMS constraint error by less than
/// this fraction of the model diagonal. Absolute progress, not relative: a
/// relative test froze sweeps that were still descending (SPEC X4).
pub const DEFAULT_PROGRESS_TOLERANCE: f64 = 1e-9;

/// A frame also stops once its RMS constraint error is below this fraction
/// of the diagonal: nothing left to win (a control run reaches it at once).
pub const DEFAULT_ERROR_FLOOR: f64 = 1e-7;

/// Proximal pull of each Horn fit towards the bone's current rotation,
/// relative to the bone's own second moment. It only decides cases the data
/// leave open (a bone whose constraint points are collinear or a single
/// point would otherwise spin freely); at 1e-9 it moves no answer visibly.
pub const DEFAULT_PROXIMAL_WEIGHT: f64 = 1e-9;

/// Ridge of the affine seed towards the warm start, relative to each
/// unknown's own moment (keeps bones with too few points determined).
pub const DEFAULT_SEED_RIDGE: f64 = 1e-7;

/// Error at which a vertex is drawn fully red, as a fraction of the model
/// diagonal (SPEC X6: blue = 0, red = 3% of the diagonal or worse).
pub const HEAT_RED_AT: f32 = 0.03;

#[derive(Clone, Debug, PartialEq)]
pub struct SolveParams {
    pub mode: SolveMode,
    /// Constraint vertices used by the solve (deterministic spatial
    /// subsample; 0 = every vertex).
    pub constraint_budget: usize,
    pub max_sweeps: usize,
    /// See [`DEFAULT_PROGRESS_TOLERANCE`].
    pub progress_tolerance: f64,
    /// See [`DEFAULT_ERROR_FLOOR`].
    pub error_floor: f64,
    /// See [`DEFAULT_PROXIMAL_WEIGHT`].
    pub proximal_weight: f64,
    /// Start each frame from the better (lower constraint error) of the
    /// previous frame's answer and the closed-form affine least-squares
    /// answer projected onto rigid motions. With `false` every frame is
    /// warm-started from the previous one only, as in the article.
    pub affine_seed: bool,
    /// See [`DEFAULT_SEED_RIDGE`].
    pub seed_ridge: f64,
}

impl Default for SolveParams {
    fn default() -> Self {
        SolveParams {
            mode: SolveMode::Rigid,
            constraint_budget: DEFAULT_CONSTRAINT_BUDGET,
            max_sweeps: DEFAULT_MAX_SWEEPS,
            progress_tolerance: DEFAULT_PROGRESS_TOLERANCE,
            error_floor: DEFAULT_ERROR_FLOOR,
            proximal_weight: DEFAULT_PROXIMAL_WEIGHT,
            affine_seed: true,
            seed_ridge: DEFAULT_SEED_RIDGE,
        }
    }
}

impl SolveParams {
    pub fn validate(&self) -> Result<()> {
        if self.max_sweeps == 0 {
            return Err(CaudalError::param("max_sweeps", "must be at least 1"));
        }
        for (field, v) in [
            ("progress_tolerance", self.progress_tolerance),
            ("error_floor", self.error_floor),
            ("proximal_weight", self.proximal_weight),
            ("seed_ridge", self.seed_ridge),
        ] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(CaudalError::param(field, format!("must be finite and >= 0, got {v}")));
            }
        }
        Ok(())
    }
}
