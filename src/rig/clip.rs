use super::Trs;
use crate::error::{CaudalError, Result};

/// An animation sampled at a fixed rate: the local transform of every joint
/// of one rig at every frame. Frame `f` is at time `f / rate` seconds.
#[derive(Clone, Debug, PartialEq)]
pub struct Clip {
    pub name: String,
    /// Samples per second.
    pub rate: f32,
    /// Clip length in seconds (the last frame is at `duration` when the
    /// clip was sampled to include its end).
    pub duration: f32,
    joint_count: usize,
    /// Frame-major: `locals[f * joint_count + j]`.
    locals: Vec<Trs>,
}

impl Clip {
    pub fn new(name: impl Into<String>, rate: f32, duration: f32, joint_count: usize, locals: Vec<Trs>) -> Result<Self> {
        if !(rate.is_finite() && rate > 0.0) {
            return Err(CaudalError::param("rate", format!("sample rate must be positive, got {rate}")));
        }
        if !(duration.is_finite() && duration >= 0.0) {
            return Err(CaudalError::param("duration", format!("must be finite and >= 0, got {duration}")));
        }
        if joint_count == 0 || locals.is_empty() || locals.len() % joint_count != 0 {
            return Err(CaudalError::shape(
                "locals",
                format!("{} transforms is not a whole number of frames of {joint_count} joints", locals.len()),
            ));
        }
        if let Some(i) = locals.iter().position(|t| !t.is_finite()) {
            return Err(CaudalError::NonFinite { field: "locals".into(), index: i });
        }
        Ok(Clip { name: name.into(), rate, duration, joint_count, locals })
    }

    pub fn frame_count(&self) -> usize {
        self.locals.len() / self.joint_count
    }
    pub fn joint_count(&self) -> usize {
        self.joint_count
    }
    pub fn frame(&self, f: usize) -> &[Trs] {
        &self.locals[f * self.joint_count..(f + 1) * self.joint_count]
    }
    pub fn locals(&self) -> &[Trs] {
        &self.locals
    }
    pub fn time(&self, f: usize) -> f32 {
        f as f32 / self.rate
    }
}
