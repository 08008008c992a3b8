//! Solver settings. Every number is a named, documented default.

use super::align::AlignMode;
use super::correspondence::DEFAULT_MAX_MEDIAN_GAP;
use serde::{Deserialize, Serialize};

use crate::error::{CaudalError, Result};
use crate::limits::check_count;

/// How much of a report the solve computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReportLevel {
    /// No quality measure at all: the call costs the solve.
    None,
    /// Transfer quality and error figures over the full mesh, no
    /// per-vertex arrays.
    Summary,
    /// The summary plus every vertex's error at every key (heat maps).
    Full,
}

impl ReportLevel {
    /// The name a caller gives (serde's name for the level).
    pub fn name(&self) -> &'static str {
        match self {
            ReportLevel::None => "none",
            ReportLevel::Summary => "summary",
            ReportLevel::Full => "full",
        }
    }
}

/// What each bone may do per frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
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
    /// The name a caller gives (serde's name for the mode).
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
/// Upper bound of `max_sweeps`: a frame that has not converged in 10^5
/// sweeps will not (each sweep is a full pass over every bone); more would
/// only hang the solve.
pub const MAX_SWEEPS_BOUND: usize = 100_000;

/// A frame stops when one sweep lowers the RMS constraint error by less than
/// this fraction of the model diagonal. Absolute progress, not relative: a
/// relative test freezes sweeps that are still descending (SPEC X4).
pub const DEFAULT_PROGRESS_TOLERANCE: f64 = 1e-9;

/// A frame also stops once its RMS constraint error is below this fraction
/// of the diagonal: nothing left to win (a control run reaches it at once).
/// For float32 surfaces: their own rounding is about 3e-8 of the diagonal.
pub const DEFAULT_ERROR_FLOOR: f64 = 1e-7;

/// The same floor for float64 surfaces: far below the 1e-9 of the diagonal
/// a float64 control run must reach, above the ~1e-13 at which float64
/// moment sums stop resolving the error.
pub const DEFAULT_ERROR_FLOOR_F64: f64 = 1e-11;

/// Iterative-refinement steps of the affine seed on exact per-vertex
/// residuals, float64 surfaces only (float32 surfaces are rounded far above
/// what they fix). Each step costs one pass over the constraint vertices.
pub const SEED_REFINEMENT_F64: usize = 2;

/// A loop's first and last surfaces are one pose when they differ by less
/// than this fraction of the diagonal (float32 rounding); the solve then
/// gives the last frame the first frame's answer, so the solved clip loops
/// too.
pub const LOOP_TOLERANCE: f64 = 1e-6;

/// The same for float64 surfaces (their rounding): closer ends than the
/// float32 tolerance but farther than this are solved each on its own, to
/// the float64 solve's precision, rather than copied.
pub const LOOP_TOLERANCE_F64: f64 = 1e-12;

/// Proximal pull of each Horn fit towards the bone's current rotation,
/// relative to the bone's own second moment. It only decides cases the data
/// leave open (a bone whose constraint points are collinear or a single
/// point would otherwise spin freely); at 1e-9 it moves no answer visibly.
pub const DEFAULT_PROXIMAL_WEIGHT: f64 = 1e-9;

/// Ridge of the affine seed towards the warm start, relative to each
/// unknown's own moment (keeps bones with too few points determined).
pub const DEFAULT_SEED_RIDGE: f64 = 1e-7;

/// Bone-length bound of the rigid solve, as a fraction of the diagonal
/// over the source clip's own largest bone-length change (a transfer), or
/// alone (surfaces without a source). Rigid lets joints slide, which is how
/// a straight-legged rig follows a bending surface (SPEC X5) and how the
/// artist's own gallop stretches its rig (3.2% of the diagonal on the
/// Alpaca); a bone that changes length by more than the artist's clip does,
/// plus this much, is chasing a surface its weights cannot follow (or
/// noise), and the report names it: rotation-only mode keeps every length.
pub const DEFAULT_STRETCH_SLACK: f64 = 0.01;

/// Error at which a vertex is drawn fully red, as a fraction of the model
/// diagonal (SPEC X6: blue = 0, red = 3% of the diagonal or worse).
pub const HEAT_RED_AT: f32 = 0.03;

/// Settings of a surface solve or a transfer; [`Default`] gives the
/// documented defaults above. Serde names are the Python keywords; a
/// missing one takes its default, an unknown one is refused.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SolveParams {
    /// What each bone may do per frame.
    pub mode: SolveMode,
    /// Constraint vertices used by the solve (deterministic spatial
    /// subsample; 0 = every vertex).
    pub constraint_budget: usize,
    /// Sweeps per frame at most; see [`DEFAULT_MAX_SWEEPS`], bounded by
    /// [`MAX_SWEEPS_BOUND`].
    pub max_sweeps: usize,
    /// See [`DEFAULT_PROGRESS_TOLERANCE`].
    pub progress_tolerance: f64,
    /// See [`DEFAULT_ERROR_FLOOR`]; `None` picks it by the precision of the
    /// surfaces ([`DEFAULT_ERROR_FLOOR_F64`] for float64).
    pub error_floor: Option<f64>,
    /// See [`DEFAULT_PROXIMAL_WEIGHT`].
    pub proximal_weight: f64,
    /// Start each frame from the better (lower constraint error) of the
    /// previous frame's answer and the closed-form affine least-squares
    /// answer projected onto rigid motions. With `false` every frame is
    /// warm-started from the previous one only, as in the article.
    #[serde(deserialize_with = "crate::error::bool_only")]
    pub affine_seed: bool,
    /// See [`DEFAULT_SEED_RIDGE`].
    pub seed_ridge: f64,
    /// How much of the report to compute.
    pub report: ReportLevel,
    /// Transfers only: how the rest poses are aligned.
    pub alignment: AlignMode,
    /// Transfers only: see [`DEFAULT_MAX_MEDIAN_GAP`].
    pub max_median_gap: f64,
}

impl Default for SolveParams {
    fn default() -> Self {
        SolveParams {
            mode: SolveMode::Rigid,
            constraint_budget: DEFAULT_CONSTRAINT_BUDGET,
            max_sweeps: DEFAULT_MAX_SWEEPS,
            progress_tolerance: DEFAULT_PROGRESS_TOLERANCE,
            error_floor: None,
            proximal_weight: DEFAULT_PROXIMAL_WEIGHT,
            affine_seed: true,
            seed_ridge: DEFAULT_SEED_RIDGE,
            report: ReportLevel::Full,
            alignment: AlignMode::Auto,
            max_median_gap: DEFAULT_MAX_MEDIAN_GAP,
        }
    }
}

impl SolveParams {
    /// Every field within its documented range, else a parameter error
    /// naming the field.
    pub fn validate(&self) -> Result<()> {
        check_count("max_sweeps", self.max_sweeps, MAX_SWEEPS_BOUND, "sweeps")?;
        for (field, v) in [
            ("progress_tolerance", self.progress_tolerance),
            ("error_floor", self.error_floor.unwrap_or(0.0)),
            ("max_median_gap", self.max_median_gap),
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
