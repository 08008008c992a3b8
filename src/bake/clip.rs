//! Clips and rigs with grown bones: a file's clips know only the file's
//! joints, so new bones are padded with their rest pose; a baked track is
//! laid over a clip to play (or measure) the result. Always new clips.

use crate::error::{CaudalError, Result};
use crate::rig::{Clip, Rig, Trs};
use crate::spring::TailTrack;

/// `clip` (sampled for the first `clip.joint_count()` joints of `rig`) with
/// every further joint of `rig` at its rest local transform: [`Clip::for_rig`].
pub fn extend_clip(clip: &Clip, rig: &Rig) -> Result<Clip> {
    clip.for_rig(rig)
}

/// `clip` with the tail bones of `track` rotated as baked (translations and
/// scales stay the clip's).
pub fn apply_track(clip: &Clip, track: &TailTrack) -> Result<Clip> {
    if track.frame_count() != clip.frame_count() {
        return Err(CaudalError::shape(
            "track",
            format!("{} baked frames for a clip of {}", track.frame_count(), clip.frame_count()),
        ));
    }
    if let Some(&j) = track.joints.iter().find(|&&j| j >= clip.joint_count()) {
        return Err(CaudalError::IndexOutOfRange {
            field: "track.joints".into(),
            index: 0,
            value: j as i64,
            bound: clip.joint_count(),
        });
    }
    let n = clip.joint_count();
    let mut locals: Vec<Trs> = clip.locals().to_vec();
    for f in 0..clip.frame_count() {
        for (b, &j) in track.joints.iter().enumerate() {
            locals[f * n + j].rotation = track.frame(f)[b];
        }
    }
    Clip::new(clip.name.clone(), clip.rate, clip.duration, n, locals)
}
