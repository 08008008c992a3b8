use super::{Rig, Trs};
use crate::error::{CaudalError, Result};
use crate::limits::{bytes_of, check_bytes, human};

/// An animation as keys: the local transform of every joint of one rig at
/// every frame. Frames are either sampled at a fixed rate (frame `f` at
/// `f / rate` seconds) or keyed at explicit times (a solved transfer keeps
/// the source clip's own key times); see [`Clip::time`].
#[derive(Clone, Debug, PartialEq)]
pub struct Clip {
    /// The clip's name (the glTF animation's, or the caller's).
    pub name: String,
    /// Samples per second. For a clip keyed at explicit times, the mean
    /// rate `(frames - 1) / (last time - first time)`.
    pub rate: f32,
    /// Clip length in seconds (the last frame is at `duration` when the
    /// clip was sampled to include its end).
    pub duration: f32,
    joint_count: usize,
    /// Frame-major: `locals[f * joint_count + j]`.
    locals: Vec<Trs>,
    /// Explicit key time of every frame (seconds, strictly increasing), or
    /// `None` for a fixed-rate clip.
    times: Option<Vec<f32>>,
}

fn check_locals(joint_count: usize, locals: &[Trs]) -> Result<()> {
    if joint_count == 0 || locals.is_empty() || !locals.len().is_multiple_of(joint_count) {
        return Err(CaudalError::shape(
            "translations",
            format!(
                "{} transforms is not a whole number of frames of {joint_count} joints",
                locals.len()
            ),
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
    Ok(())
}

impl Clip {
    /// An error naming `rate` unless it is finite and > 0 (samples per
    /// second), or `duration` unless it is finite and >= 0 (seconds).
    pub fn check_timing(rate: f32, duration: f32) -> Result<()> {
        if !(rate.is_finite() && rate > 0.0) {
            return Err(CaudalError::param(
                "rate",
                format!("sample rate must be finite and > 0, got {rate}"),
            ));
        }
        if !(duration.is_finite() && duration >= 0.0) {
            return Err(CaudalError::param(
                "duration",
                format!("must be finite and >= 0, got {duration}"),
            ));
        }
        Ok(())
    }

    /// A clip sampled at `rate` keys per second over `duration` seconds,
    /// `joint_count` locals per frame (frame-major); bad values are errors
    /// naming the field.
    pub fn new(
        name: impl Into<String>,
        rate: f32,
        duration: f32,
        joint_count: usize,
        locals: Vec<Trs>,
    ) -> Result<Self> {
        Self::check_timing(rate, duration)?;
        check_locals(joint_count, &locals)?;
        Ok(Clip { name: name.into(), rate, duration, joint_count, locals, times: None })
    }

    /// A clip sampled every `1 / rate` seconds: it lasts from its first
    /// frame to its last, `(frames - 1) / rate`.
    pub fn at_rate(
        name: impl Into<String>,
        rate: f32,
        joint_count: usize,
        locals: Vec<Trs>,
    ) -> Result<Self> {
        let frames = locals.len().checked_div(joint_count).unwrap_or(0);
        let duration = if frames > 1 && rate > 0.0 { (frames - 1) as f32 / rate } else { 0.0 };
        Clip::new(name, rate, duration, joint_count, locals)
    }

    /// A clip keyed at explicit `times` (seconds, finite, >= 0, strictly
    /// increasing, one per frame). Its `duration` is the last time.
    pub fn keyed(
        name: impl Into<String>,
        times: Vec<f32>,
        joint_count: usize,
        locals: Vec<Trs>,
    ) -> Result<Self> {
        check_locals(joint_count, &locals)?;
        let frames = locals.len() / joint_count;
        if times.len() != frames {
            return Err(CaudalError::shape(
                "times",
                format!("{} key times for {frames} frames", times.len()),
            ));
        }
        if let Some(i) = times.iter().position(|t| !(t.is_finite() && *t >= 0.0)) {
            return Err(CaudalError::param(
                "times",
                format!("key time {i} must be finite and >= 0, got {}", times[i]),
            ));
        }
        if let Some(i) = times.windows(2).position(|w| w[1] <= w[0]) {
            return Err(CaudalError::param(
                "times",
                format!("key times must increase: {} then {} at {}", times[i], times[i + 1], i + 1),
            ));
        }
        let span = times[frames - 1] - times[0];
        let rate = if frames > 1 && span > 0.0 { (frames - 1) as f32 / span } else { 1.0 };
        let duration = times[frames - 1];
        Ok(Clip { name: name.into(), rate, duration, joint_count, locals, times: Some(times) })
    }

    /// Number of frames.
    pub fn frame_count(&self) -> usize {
        self.locals.len() / self.joint_count
    }
    /// Joints per frame (the rig's joint count).
    pub fn joint_count(&self) -> usize {
        self.joint_count
    }
    /// The local transforms of every joint at frame `f`.
    pub fn frame(&self, f: usize) -> &[Trs] {
        &self.locals[f * self.joint_count..(f + 1) * self.joint_count]
    }
    /// Every frame's locals, frame-major.
    pub fn locals(&self) -> &[Trs] {
        &self.locals
    }
    /// Time of frame `f` in seconds.
    pub fn time(&self, f: usize) -> f32 {
        match &self.times {
            Some(t) => t[f],
            None => f as f32 / self.rate,
        }
    }
    /// The explicit key times, if the clip is keyed rather than sampled.
    pub fn key_times(&self) -> Option<&[f32]> {
        self.times.as_deref()
    }
    /// Whether frames are evenly spaced in time (a fixed-rate clip, or keys
    /// whose steps differ by less than a thousandth of the mean step):
    /// what a fixed-step simulation needs.
    pub fn is_uniform(&self) -> bool {
        match &self.times {
            None => true,
            Some(t) if t.len() < 3 => true,
            Some(t) => {
                let mean = 1.0 / self.rate;
                t.windows(2).all(|w| ((w[1] - w[0]) - mean).abs() <= 1e-3 * mean)
            }
        }
    }
    /// Errors unless the clip has exactly one local transform per joint of
    /// `rig`. A clip sampled from a file has only the file's joints; for a
    /// rig grown from it the message says how to get the grown joints too.
    pub fn check_joints(&self, rig: &Rig) -> Result<()> {
        self.check_joints_as("clip", rig)
    }

    /// [`Clip::check_joints`], the error naming `field` (the clip's role
    /// where a call takes several).
    pub fn check_joints_as(&self, field: &str, rig: &Rig) -> Result<()> {
        let (c, r) = (self.joint_count, rig.joint_count());
        if c == r {
            return Ok(());
        }
        let hint = if c < r {
            ": a rig with appended joints (a grown tail) needs them in the clip; for_rig holds them at bind"
        } else {
            ": the clip is for another rig"
        };
        Err(CaudalError::shape(
            field,
            format!("clip {:?} has {c} joints, the rig {r}{hint}", self.name),
        ))
    }

    /// This clip for `rig`, a rig that holds the clip's joints first and in
    /// order and may append more (a rig with grown tail bones): every
    /// appended joint is held at its rest local transform, which for grown
    /// joints is their bind pose relative to their parent. Key times are
    /// kept. A clip that already has every joint comes back unchanged.
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
        check_locals(new, &locals)?;
        Ok(Clip {
            name: self.name.clone(),
            rate: self.rate,
            duration: self.duration,
            joint_count: new,
            locals,
            times: self.times.clone(),
        })
    }

    /// An error naming `field` unless [`Clip::is_uniform`].
    pub fn require_uniform(&self, field: &str) -> Result<()> {
        if self.is_uniform() {
            return Ok(());
        }
        Err(CaudalError::param(
            field,
            format!("clip {:?} is keyed at uneven times (a fixed time step is needed here): sample it at a rate", self.name),
        ))
    }
}

/// Frames of a clip sampled over `[0, duration]` at about `rate` per
/// second: `round(duration * rate) + 1` (at least 2 when `duration > 0`),
/// checked to fit `joints` transforms a frame in `max_bytes`.
pub fn clip_frames(duration: f32, rate: f32, joints: usize, max_bytes: usize) -> Result<usize> {
    Clip::check_timing(rate, duration)?;
    // In f32, as every sampler counts (another rounding would change the
    // frame count of clips already written); checked in f64 before use.
    let frames = if duration > 0.0 { (duration * rate).round().max(1.0) as f64 + 1.0 } else { 1.0 };
    let what = format!(
        "a clip of {duration} s at {rate} frames/s ({} frames of {joints} joints)",
        human(frames)
    );
    check_bytes(
        "rate",
        &what,
        bytes_of(frames * joints.max(1) as f64, std::mem::size_of::<Trs>()),
        max_bytes,
    )?;
    Ok(frames as usize)
}
