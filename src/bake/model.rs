//! Every selected clip of a file through every chain of the grown rig, and
//! the result as animation tracks for [`crate::gltf_io::write`].

use glam::Vec4;
use rayon::prelude::*;

use super::bake_clip::{bake_with, BakedClip};
use super::clip::extend_clip;
use super::params::BakeParams;
use crate::error::{CaudalError, Result};
use crate::gltf_io::{AnimationTrack, GltfModel, TrackPath};
use crate::rig::Rig;
use crate::spring::{TailChain, TailSpring};

/// All baked clips, clip-major: `clips[c][k]` is clip `c` through chain `k`.
#[derive(Clone, Debug)]
pub struct ModelBake {
    /// The file's character that was baked.
    pub character: usize,
    /// The clips baked, in bake order.
    pub clip_names: Vec<String>,
    /// The chains baked, in name order.
    pub chains: Vec<TailChain>,
    /// `clips[c][k]`: clip `c` through chain `k`.
    pub clips: Vec<Vec<BakedClip>>,
}

/// The clips to bake: `names` (each must exist) or every animation of the file.
pub fn select_clips(model: &GltfModel, names: Option<&[String]>) -> Result<Vec<String>> {
    match names {
        None => Ok(model.animations.iter().map(|a| a.name.clone()).collect()),
        Some(ns) => {
            for n in ns {
                model.animation_index(n).map_err(|e| e.with_field("clips"))?;
            }
            Ok(ns.to_vec())
        }
    }
}

/// Bakes the clips `names` (all when `None`) of `model` on `rig` (character
/// `character`'s rig with grown joints appended) for every chain in `chains`.
/// Clips run in parallel; each is independent, so the result is the same on
/// any number of threads.
pub fn bake_model(
    model: &GltfModel,
    character: usize,
    rig: &Rig,
    chains: &[TailChain],
    names: Option<&[String]>,
    params: &BakeParams,
) -> Result<ModelBake> {
    params.validate()?;
    params.check_names(rig)?;
    if chains.is_empty() {
        return Err(CaudalError::shape("chains", "no chain to bake"));
    }
    let old = &model.character(character)?.rig;
    if !rig.appends_to(old) {
        return Err(CaudalError::shape(
            "rig",
            format!("must be character {character}'s rig (same vertices, its joints first and in order) with grown joints appended"),
        ));
    }
    let clip_names = select_clips(model, names)?;
    let springs: Vec<TailSpring> = chains
        .iter()
        .map(|c| TailSpring::new(rig, c.clone(), params.spring.clone()))
        .collect::<Result<_>>()?;
    let clips: Vec<Vec<BakedClip>> = clip_names
        .par_iter()
        .map(|name| -> Result<Vec<BakedClip>> {
            let sampled = model.sample_clip(character, name, params.rate)?;
            let clip = extend_clip(&sampled, rig)?;
            let mode = params.loop_mode(name);
            springs.iter().map(|s| bake_with(rig, &clip, s.clone(), mode, params)).collect()
        })
        .collect::<Result<_>>()?;
    Ok(ModelBake { character, clip_names, chains: chains.to_vec(), clips })
}

/// One rotation track per baked bone per clip, into the clip's own animation.
pub fn tracks(bake: &ModelBake) -> Vec<AnimationTrack> {
    bake.clips.iter().flatten().flat_map(|b| baked_tracks(b, &b.name, bake.character)).collect()
}

/// One rotation track per baked bone of `b`, keyed at every baked frame,
/// into the animation named `animation` of the file's character `character`.
pub fn baked_tracks(b: &BakedClip, animation: &str, character: usize) -> Vec<AnimationTrack> {
    let k = b.track.joints.len();
    b.track
        .joints
        .iter()
        .enumerate()
        .map(|(i, &joint)| AnimationTrack {
            animation: animation.to_string(),
            character,
            joint,
            path: TrackPath::Rotation,
            times: b.times.clone(),
            values: (0..b.times.len()).map(|f| Vec4::from(b.track.rotations[f * k + i])).collect(),
        })
        .collect()
}
