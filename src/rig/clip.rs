use super::{Rig, Trs};
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
                "translations",
                format!("{} transforms is not a whole number of frames of {joint_count} joints", locals.len()),
            ));
        }
        if let Some(i) = locals.iter().position(|t| !t.is_finite()) {
            // Named as the Python constructor's arrays are.
            let t = &locals[i];
            let field = if !t.translation.is_finite() {
                "translations"
            } else if !t.rotation.is_finite() {
                "rotations"
            } else {
                "scales"
            };
            return Err(CaudalError::NonFinite { field: field.into(), index: i });
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

    /// Errors unless the clip has exactly one local transform per joint of
    /// `rig`. A clip sampled from a file has only the file's joints; for a
    /// rig grown from it the message says how to get the grown joints too.
    pub fn check_joints(&self, rig: &Rig) -> Result<()> {
        let (c, r) = (self.joint_count, rig.joint_count());
        if c == r {
            return Ok(());
        }
        let hint = if c < r {
            ": a rig with appended joints (a grown tail) needs them in the clip; for_rig holds them at bind"
        } else {
            ": the clip is for another rig"
        };
        Err(CaudalError::shape("clip", format!("clip {:?} has {c} joints, the rig {r}{hint}", self.name)))
    }

    /// This clip for `rig`, a rig that holds the clip's joints first and in
    /// order and may append more (a rig with grown tail bones): every
    /// appended joint is held at its rest local transform, which for grown
    /// joints is their bind pose relative to their parent. A clip that
    /// already has every joint comes back unchanged.
    pub fn for_rig(&self, rig: &Rig) -> Result<Clip> {
        let (old, new) = (self.joint_count, rig.joint_count());
        if old == new {
            return Ok(self.clone());
        }
        if old > new {
            return self.check_joints(rig).map(|_| self.clone());
        }
        let rest = &rig.rest_local()[old..];
        let mut locals = Vec::with_capacity(self.frame_count() * new);
        for f in 0..self.frame_count() {
            locals.extend_from_slice(self.frame(f));
            locals.extend_from_slice(rest);
        }
        Clip::new(self.name.clone(), self.rate, self.duration, new, locals)
    }
}
