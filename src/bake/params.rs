//! Bake parameters and their documented defaults (SPEC B: warm up until the
//! tail is back at its starting state, then record).

use serde::{Deserialize, Serialize};

use crate::error::{CaudalError, Result};
use crate::gltf_io::DEFAULT_SAMPLE_RATE;
use crate::rig::Rig;
use crate::spring::SpringParams;

/// The tail state at the loop start counts as repeated when, from one warm-up
/// pass to the next, no link's tip moved by more than this angle about its
/// head and no link's velocity changed by more than what would swing it this
/// far (`|Δv| / (ℓ ω)`), degrees, all in the pelvis frame. 0.05° is ten
/// times finer than the loop-closure check (0.5°), so a converged loop closes
/// with room to spare.
pub const LOOP_STATE_TOLERANCE_DEG: f32 = 0.05;
/// Most warm-up passes over a looping clip. The tip is the softest link
/// (0.45 Hz at ζ 0.65: its transient shrinks by e^(-1.8) per second), so a
/// 0.5 s cycle needs about a dozen passes from a cold start; 64 bounds the
/// work on a clip that never settles (reported, not an error).
pub const MAX_WARMUP_PASSES: u32 = 64;
/// Upper bound of `max_warmup_passes`: a tail that has not repeated its
/// motion after 10^4 passes over its clip never will (the softest link's
/// transient has long decayed); more passes would only hang the bake.
pub const MAX_WARMUP_PASSES_BOUND: u32 = 10_000;
/// Settling a one-shot clip: the first frame's pose is held in chunks of
/// this many seconds until the state stops changing (same tolerance).
pub const SETTLE_CHUNK_SECONDS: f32 = 0.5;
/// Longest hold while settling a one-shot clip, seconds.
pub const MAX_SETTLE_SECONDS: f32 = 30.0;
/// Upper bound of `max_settle`, seconds: an hour of held pose, far past the
/// tail's slowest settling time (seconds); more would only hang the bake.
pub const MAX_SETTLE_BOUND: f32 = 3600.0;
/// A clip loops when its first and last frames agree: every joint rotation
/// within this angle, degrees...
pub const LOOP_POSE_ANGLE_DEG: f32 = 0.5;
/// ...and every translation (the root's horizontal travel excepted: that is
/// root motion, carried across the seam) within this share of the model
/// height, and every scale within this relative difference.
pub const LOOP_POSE_DISTANCE_RATIO: f32 = 0.002;

/// Whether a clip is baked as a loop. Serde: its name (see
/// [`LoopMode::parse`]) or a bool (True: loop, False: once).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LoopMode {
    /// Loops when its first and last poses are equal (see [`LOOP_POSE_ANGLE_DEG`]).
    #[default]
    Auto,
    /// Always a loop: warm up over repeated passes.
    Loop,
    /// A one-shot: settle at the first frame's pose, then play once.
    Once,
}

impl LoopMode {
    /// From a name (`auto`, `loop`/`true`/`yes`, `once`/`false`/`no`, any
    /// case); errors name `field`.
    pub fn parse(field: &str, s: &str) -> Result<LoopMode> {
        match s.to_ascii_lowercase().as_str() {
            "auto" => Ok(LoopMode::Auto),
            "loop" | "true" | "yes" => Ok(LoopMode::Loop),
            "once" | "false" | "no" => Ok(LoopMode::Once),
            other => Err(CaudalError::param(
                field,
                format!("unknown loop mode {other:?} (auto, loop, once)"),
            )),
        }
    }
}

impl<'de> Deserialize<'de> for LoopMode {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        /// What a caller may give: a switch or a mode's name.
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Given {
            Switch(bool),
            Name(String),
        }
        match Given::deserialize(d)? {
            Given::Switch(true) => Ok(LoopMode::Loop),
            Given::Switch(false) => Ok(LoopMode::Once),
            // The caller's path names the field; the message alone here.
            Given::Name(s) => LoopMode::parse("", &s).map_err(|_| {
                serde::de::Error::custom(format!("unknown loop mode {s:?} (auto, loop, once)"))
            }),
        }
    }
}

/// How clips are baked: key rate, loop handling, warm-up and the spring.
/// Serde names are the keyword names of the Python API, a missing one takes
/// its default; `loops` is a mapping of clip names to loop modes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BakeParams {
    /// Keyframes per second (the clip is sampled at this rate, adjusted so
    /// the last key lands on the clip's end).
    pub rate: f32,
    /// Loop handling for clips without an entry in `loops`.
    pub default_loop: LoopMode,
    /// Per-clip loop handling by animation name.
    #[serde(with = "loop_table")]
    pub loops: Vec<(String, LoopMode)>,
    /// See [`LOOP_STATE_TOLERANCE_DEG`].
    pub state_tolerance_deg: f32,
    /// See [`MAX_WARMUP_PASSES`].
    pub max_warmup_passes: u32,
    /// See [`SETTLE_CHUNK_SECONDS`].
    pub settle_chunk: f32,
    /// See [`MAX_SETTLE_SECONDS`].
    pub max_settle: f32,
    /// See [`LOOP_POSE_ANGLE_DEG`].
    pub loop_pose_angle_deg: f32,
    /// See [`LOOP_POSE_DISTANCE_RATIO`].
    pub loop_pose_distance_ratio: f32,
    /// The spring every chain is simulated with.
    pub spring: SpringParams,
}

/// Per-clip loop modes as a mapping of clip names, in the given order.
mod loop_table {
    use serde::de::{MapAccess, Visitor};
    use serde::ser::SerializeMap;
    use serde::{Deserializer, Serializer};

    use super::LoopMode;

    type Table = Vec<(String, LoopMode)>;

    pub fn serialize<S: Serializer>(t: &Table, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(t.len()))?;
        for (name, mode) in t {
            m.serialize_entry(name, mode)?;
        }
        m.end()
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Table, D::Error> {
        struct Entries;
        impl<'de> Visitor<'de> for Entries {
            type Value = Table;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a mapping of clip names to loop modes")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Table, A::Error> {
                let mut t = Table::new();
                while let Some(entry) = a.next_entry::<String, LoopMode>()? {
                    t.push(entry);
                }
                Ok(t)
            }
        }
        d.deserialize_map(Entries)
    }
}

impl Default for BakeParams {
    fn default() -> Self {
        BakeParams {
            rate: DEFAULT_SAMPLE_RATE,
            default_loop: LoopMode::Auto,
            loops: Vec::new(),
            state_tolerance_deg: LOOP_STATE_TOLERANCE_DEG,
            max_warmup_passes: MAX_WARMUP_PASSES,
            settle_chunk: SETTLE_CHUNK_SECONDS,
            max_settle: MAX_SETTLE_SECONDS,
            loop_pose_angle_deg: LOOP_POSE_ANGLE_DEG,
            loop_pose_distance_ratio: LOOP_POSE_DISTANCE_RATIO,
            spring: SpringParams::default(),
        }
    }
}

impl BakeParams {
    /// Errors naming the first field out of range (the spring's included).
    pub fn validate(&self) -> Result<()> {
        let positive = |field: &str, x: f32| {
            if x.is_finite() && x > 0.0 {
                Ok(())
            } else {
                Err(CaudalError::param(field, format!("must be finite and > 0, got {x}")))
            }
        };
        positive("rate", self.rate)?;
        positive("state_tolerance_deg", self.state_tolerance_deg)?;
        positive("settle_chunk", self.settle_chunk)?;
        positive("loop_pose_angle_deg", self.loop_pose_angle_deg)?;
        positive("loop_pose_distance_ratio", self.loop_pose_distance_ratio)?;
        if !(self.max_settle.is_finite() && self.max_settle >= 0.0) {
            return Err(CaudalError::param(
                "max_settle",
                format!("must be finite and >= 0, got {}", self.max_settle),
            ));
        }
        let passes = self.max_warmup_passes;
        crate::limits::check_count("max_warmup_passes", passes, MAX_WARMUP_PASSES_BOUND, "passes")?;
        if self.max_settle > MAX_SETTLE_BOUND {
            return Err(CaudalError::param(
                "max_settle",
                format!(
                    "{} s is above the bound {MAX_SETTLE_BOUND} s (at most that long)",
                    self.max_settle
                ),
            ));
        }
        self.spring.validate().map_err(|e| e.within("spring"))
    }

    /// The fields naming `rig`'s joints (the spring's roles) name joints it
    /// has; the error names the field under `spring`.
    pub fn check_names(&self, rig: &Rig) -> Result<()> {
        self.spring.roles.check(rig).map_err(|e| e.within("spring"))
    }

    /// The loop handling of the clip called `name`.
    pub fn loop_mode(&self, name: &str) -> LoopMode {
        self.loops.iter().find(|(n, _)| n == name).map_or(self.default_loop, |(_, m)| *m)
    }
}
