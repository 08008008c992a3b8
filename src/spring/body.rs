//! What the spring reads of the body: one [`BodyPose`] per step.

use glam::Mat4;

use super::anchor::AnchorPose;
use crate::error::{CaudalError, Result};

/// The body at one instant, as the spring reads it: the world transforms of
/// the body parts its rules respond to. The body is only ever read.
///
/// Today that is the pelvis, the chain's anchor: the rest pose hangs from
/// it, and the forward plane, the ground circle and the bend coupling are
/// in its frame. A collider (a leg capsule the tail must not pass through)
/// goes here as one more field, checked in `BodyPose::anchor`'s place; its
/// rule goes beside the floor in `spring/contact.rs`, called from the
/// substep (`spring/solver.rs`) with the collider interpolated over the
/// call as the pelvis is (`AnchorPath`). Every entry point (`TailSpring::
/// reset_to`, `step`, `step_into`, `step_many`) takes a `BodyPose` (or a
/// pelvis `Mat4`, which converts), so the new field reaches them all.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyPose {
    /// World transform of the chain's parent (the pelvis for the chains
    /// caudal grows): translation, rotation and scale.
    pub pelvis: Mat4,
}

impl BodyPose {
    /// The body given by its pelvis alone.
    pub fn new(pelvis: Mat4) -> Self {
        BodyPose { pelvis }
    }

    /// Checks the pelvis (finite, not singular) and decomposes it into the
    /// anchor the chain hangs from; errors name `field`.
    pub(crate) fn anchor(&self, field: &str) -> Result<AnchorPose> {
        let m = &self.pelvis;
        if !m.is_finite() {
            return Err(CaudalError::NonFinite { field: field.into(), index: 0 });
        }
        let det = m.determinant();
        if det.is_nan() || det.abs() <= 1e-12 {
            return Err(CaudalError::param(field, "parent world matrix is singular"));
        }
        let (scale, rotation, translation) = m.to_scale_rotation_translation();
        Ok(AnchorPose { translation, rotation: rotation.normalize(), scale })
    }
}

impl From<Mat4> for BodyPose {
    fn from(pelvis: Mat4) -> Self {
        BodyPose::new(pelvis)
    }
}
