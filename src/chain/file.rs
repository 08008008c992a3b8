//! Every character of a file repaired, with chain names unique in the file.

use super::{grow_chains, ChainParams};
use crate::appendage::Report;
use crate::error::Result;
use crate::gltf_io::GltfModel;
use crate::rig::Rig;

/// Grows the chains of every character of `model`, in file order. Chain
/// names stay unique in the file: a character's new joints avoid every
/// node name of the file and the joints grown for the characters before
/// it, so the first character's tails are `Tail_*`, `Tail2_*`, ... and a
/// later character continues the numbering. One `(rig, report)` per
/// character.
pub fn grow_file_chains(model: &GltfModel, params: &ChainParams) -> Result<Vec<(Rig, Report)>> {
    let mut reserved = params.reserved_names.clone();
    reserved.extend(model.node_names());
    let mut out = Vec::with_capacity(model.characters.len());
    for c in &model.characters {
        let p = ChainParams { reserved_names: reserved.clone(), ..params.clone() };
        let (rig, report) = grow_chains(&c.rig, &p)?;
        reserved.extend(rig.joint_names()[c.rig.joint_count()..].iter().cloned());
        out.push((rig, report));
    }
    Ok(out)
}
