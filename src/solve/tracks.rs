//! A solved clip as glTF animation tracks for the target file: one
//! translation, rotation and scale track per joint, keyed at every frame,
//! in each joint node's own space (rig locals that fold in non-joint parent
//! nodes, such as an armature node above the roots, are unfolded with those
//! nodes' rest transforms). Quaternions are kept in one hemisphere from key
//! to key so that interpolation never takes the long way round.

use glam::Mat4;

use crate::error::{CaudalError, Result};
use crate::gltf_io::{AnimationTrack, GltfModel, TrackPath};
use crate::rig::{Clip, Rig, Trs};

/// The tracks of `clip` (a clip of character `character`'s rig).
pub fn clip_tracks(
    model: &GltfModel,
    character: usize,
    clip: &Clip,
    animation: &str,
) -> Result<Vec<AnimationTrack>> {
    clip_tracks_for(model, character, &model.character(character)?.rig, clip, animation)
}

/// [`clip_tracks`] for `rig`, character `character`'s rig with joints
/// appended (a grown tail): the appended joints hang directly from joints,
/// so their locals need no unfolding.
pub fn clip_tracks_for(
    model: &GltfModel,
    character: usize,
    rig: &Rig,
    clip: &Clip,
    animation: &str,
) -> Result<Vec<AnimationTrack>> {
    let file_joints = model.character(character)?.rig.joint_count();
    if !rig.appends_to(&model.character(character)?.rig) {
        return Err(CaudalError::shape(
            "rig",
            format!("must be character {character}'s rig (same vertices, its joints first and in order) with grown joints appended"),
        ));
    }
    clip.check_joints(rig)?;
    let frames = clip.frame_count();
    let times: Vec<f32> = (0..frames).map(|f| clip.time(f)).collect();
    let mut out = Vec::with_capacity(3 * rig.joint_count());
    for j in 0..rig.joint_count() {
        let folded = if j < file_joints { model.folded_rest(character, j) } else { Mat4::IDENTITY };
        let unfold = (folded != Mat4::IDENTITY).then(|| folded.inverse());
        let locals: Vec<Trs> = (0..frames)
            .map(|f| {
                let l = clip.frame(f)[j];
                match unfold {
                    Some(inv) => Trs::from_matrix(&(inv * l.matrix())),
                    None => l,
                }
            })
            .collect();
        let mut rotations = Vec::with_capacity(frames);
        let mut prev: Option<glam::Vec4> = None;
        for l in &locals {
            let mut q = glam::Vec4::from(l.rotation);
            if prev.is_some_and(|p| p.dot(q) < 0.0) {
                q = -q;
            }
            prev = Some(q);
            rotations.push(q);
        }
        let track = |path, values| AnimationTrack {
            animation: animation.to_string(),
            character,
            joint: j,
            path,
            times: times.clone(),
            values,
        };
        out.push(track(
            TrackPath::Translation,
            locals.iter().map(|l| l.translation.extend(0.0)).collect(),
        ));
        out.push(track(TrackPath::Rotation, rotations));
        out.push(track(TrackPath::Scale, locals.iter().map(|l| l.scale.extend(0.0)).collect()));
    }
    Ok(out)
}
