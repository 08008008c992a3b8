//! Bake tails into keyframes (SPEC B). A spring helps nobody who opens the
//! file in Blender, Unity or Unreal, so every selected clip is simulated and
//! the tail rotations are recorded as real keys, written as glTF animation
//! channels into each clip.
//!
//! A looping clip (first and last pose equal, or set per clip) is run
//! silently, pass after pass, until the tail state at the loop start repeats
//! ([`LOOP_STATE_TOLERANCE_DEG`], at most [`MAX_WARMUP_PASSES`]); only then is
//! a cycle recorded, so the keys close and the tail does not jump at the
//! loop point. A loop whose tail never repeats within the bound (a motion
//! that repeats every second or third cycle) is recorded once and closed by
//! spreading its last-to-first difference over the cycle, reported as
//! `seam_blend_deg`. A one-shot clip settles from its first frame's pose. Every
//! computation runs on private copies (SPEC R): rigs, clips and models are
//! only read, and baking one clip never depends on another.
//!
//! | file | job |
//! |---|---|
//! | `params` | parameters and defaults, loop modes |
//! | `chains` | which chains a rig has |
//! | `clip` | clips padded for grown bones, baked tracks laid over clips |
//! | `drive` | the anchor's path through each clip, the state that must repeat |
//! | `looping` | does a clip loop, and its root travel |
//! | `warmup` | passes until the loop start repeats; settling one-shots |
//! | `bake_clip` | one clip, one chain |
//! | `seam` | loop closure measured on the keys |
//! | `model` | every selected clip of a file, as tracks for the writer |

mod bake_clip;
mod chains;
mod character;
mod clip;
mod drive;
mod looping;
mod model;
mod params;
mod seam;
mod warmup;

pub use bake_clip::{bake_clip, BakedClip};
pub use chains::find_chains;
pub use character::{bake_character, CharacterBake};
pub use clip::{apply_track, extend_clip};
pub use drive::{anchor_worlds, state_distance_deg, TailState};
pub use looping::{check_loop, LoopCheck};
pub use model::{bake_model, baked_tracks, select_clips, tracks, ModelBake};
pub use params::*;
pub use seam::{angle_between, close_loop, Seam, STILL_STEP_DEG};
pub use warmup::Warmup;
