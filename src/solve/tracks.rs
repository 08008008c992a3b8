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

pub fn clip_tracks(model: &GltfModel, clip: &Clip, animation: &str) -> Result<Vec<AnimationTrack>> {
    clip_tracks_for(model, &model.rig, clip, animation)
}

/// [`clip_tracks`] for `rig`, the model's rig with joints appended (a grown
/// tail): the appended joints hang directly from joints, so their locals
/// need no unfolding.
pub fn clip_tracks_for(model: &GltfModel, rig: &Rig, clip: &Clip, animation: &str) -> Result<Vec<AnimationTrack>> {
    if !rig.appends_to(&model.rig) {
        return Err(CaudalError::shape("rig", "must be the model's rig (same vertices, its joints first and in order) with grown joints appended"));
    }
    clip.check_joints(rig)?;
    let file_joints = model.rig.joint_count();
    let frames = clip.frame_count();
    let times: Vec<f32> = (0..frames).map(|f| clip.time(f)).collect();
    let mut out = Vec::with_capacity(3 * rig.joint_count());
    for j in 0..rig.joint_count() {
        let folded = if j < file_joints { model.folded_rest(j) } else { Mat4::IDENTITY };
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
        let track = |path, values| AnimationTrack { animation: animation.to_string(), joint: j, path, times: times.clone(), values };
        out.push(track(TrackPath::Translation, locals.iter().map(|l| l.translation.extend(0.0)).collect()));
        out.push(track(TrackPath::Rotation, rotations));
        out.push(track(TrackPath::Scale, locals.iter().map(|l| l.scale.extend(0.0)).collect()));
    }
    Ok(out)
}
