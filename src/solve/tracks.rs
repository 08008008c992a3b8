//! A solved clip as glTF animation tracks for the target file: one
//! translation, rotation and scale track per joint, keyed at every frame,
//! in each joint node's own space (rig locals that fold in non-joint parent
//! nodes, such as an armature node above the roots, are unfolded with those
//! nodes' rest transforms). Quaternions are kept in one hemisphere from key
//! to key so that interpolation never takes the long way round.

use glam::Mat4;

use crate::error::{CaudalError, Result};
use crate::gltf_io::{AnimationTrack, GltfModel, TrackPath};
use crate::rig::{Clip, Trs};

/// The tracks of `clip` (a clip of character `character`'s rig).
pub fn clip_tracks(model: &GltfModel, character: usize, clip: &Clip, animation: &str) -> Result<Vec<AnimationTrack>> {
    let rig = &model.character(character)?.rig;
    if clip.joint_count() != rig.joint_count() {
        return Err(CaudalError::shape(
            "clip",
            format!("clip {:?} has {} joints, the model's rig {}", clip.name, clip.joint_count(), rig.joint_count()),
        ));
    }
    let frames = clip.frame_count();
    let times: Vec<f32> = (0..frames).map(|f| clip.time(f)).collect();
    let mut out = Vec::with_capacity(3 * rig.joint_count());
    for j in 0..rig.joint_count() {
        let folded = model.folded_rest(character, j);
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
        let track = |path, values| AnimationTrack { animation: animation.to_string(), character, joint: j, path, times: times.clone(), values };
        out.push(track(TrackPath::Translation, locals.iter().map(|l| l.translation.extend(0.0)).collect()));
        out.push(track(TrackPath::Rotation, rotations));
        out.push(track(TrackPath::Scale, locals.iter().map(|l| l.scale.extend(0.0)).collect()));
    }
    Ok(out)
}
