//! Grounding must ignore the tail (SPEC G). Two places let a tail float the
//! feet: placing the model by the lowest point of the whole mesh, and a
//! body-grounding pass that lifts the pelvis to keep tail skin off the floor
//! (the article's mouse: about 15 cm of extra lift in "Back Flip").
//!
//! With `S` the sampled support points of the skin, `T` the points dominated
//! by tail bones and `E` the points owned by the limbs' contact solvers:
//!
//! - `f_body = min over S\T of y⁰` (the reference floor, at calibration),
//! - `c(t) = min over S\(T∪E) of y(t) - f_body`,
//! - `L_raw(t) = max(0, a(t) - c(t))`, `a(t) <= 0` the sink the source clip allows.
//!
//! The tail is excluded from **both** minima: excluded only from `c(t)`, the
//! wrong reference floor would stay. Skin is sampled by dominant bone (each
//! bone's support points in a fixed set of directions), not every vertex
//! every frame. The reported lift is the difference of the final pelvis
//! tracks, not of raw corrections.
//!
//! | file | job |
//! |---|---|
//! | `ground/support` | support points per dominant bone; the T and E sets |
//! | `ground/lift` | f_body, c(t), L_raw, the lifted pelvis and the body check |
//! | `ground/crouch` | a generated crouch with planted feet, for the checks |

#[path = "ground/crouch.rs"]
mod crouch;
#[path = "ground/lift.rs"]
mod lift;
#[path = "ground/support.rs"]
mod support;

pub use crouch::{crouch_clip, crouch_joint, CROUCH_HOLD_SHARE};
pub use lift::{body_floor, pelvis_lift, placement_offset, Grounding, LIFT_NOISE_RATIO};
pub use support::{support_points, GroundParams, SupportPoints, SUPPORT_GRID};
