//! One character of a file baked with the chains it needs: the tail grown
//! first when the caller brings no rig (what `caudal.bake(model)` does).

use super::chains::find_chains;
use super::model::{bake_model, ModelBake};
use super::params::BakeParams;
use crate::appendage::Report;
use crate::chain::{grow_chains, ChainParams};
use crate::error::Result;
use crate::gltf_io::GltfModel;
use crate::rig::Rig;
use crate::spring::TailChain;

/// A bake of one character, with the rig grown for it.
#[derive(Clone, Debug)]
pub struct CharacterBake {
    /// The rig grown for the bake and its appendage report (None when the
    /// caller gave the rig).
    pub grown: Option<(Rig, Report)>,
    /// Every selected clip through every chain.
    pub bake: ModelBake,
}

/// Bakes the clips `names` (all when None) of `model`'s `character` on
/// `rig` (the character's rig with grown chains) or, when None, on the
/// character's rig with its tail grown by `grow` first. `chains` lists each
/// chain's joint names, root first (an unweighted last joint is the end
/// helper); None bakes every `Tail*` chain of the rig.
pub fn bake_character(
    model: &GltfModel,
    character: usize,
    rig: Option<&Rig>,
    chains: Option<&[Vec<String>]>,
    names: Option<&[String]>,
    params: &BakeParams,
    grow: &ChainParams,
) -> Result<CharacterBake> {
    params.validate()?;
    match rig {
        Some(rig) => Ok(CharacterBake {
            grown: None,
            bake: bake_on(model, character, rig, chains, names, params)?,
        }),
        None => {
            let (rig, report) = grow_chains(&model.character(character)?.rig, grow)?;
            let bake = bake_on(model, character, &rig, chains, names, params)?;
            Ok(CharacterBake { grown: Some((rig, report)), bake })
        }
    }
}

/// [`bake_model`] on `rig`'s chains `chains` (None: its `Tail*` chains).
fn bake_on(
    model: &GltfModel,
    character: usize,
    rig: &Rig,
    chains: Option<&[Vec<String>]>,
    names: Option<&[String]>,
    params: &BakeParams,
) -> Result<ModelBake> {
    let chains = match chains {
        None => find_chains(rig)?,
        Some(cs) => cs.iter().map(|names| chain_named(rig, names)).collect::<Result<_>>()?,
    };
    bake_model(model, character, rig, &chains, names, params)
}

/// The chain through the joints `names`, root first.
fn chain_named(rig: &Rig, names: &[String]) -> Result<TailChain> {
    let joints: Vec<usize> =
        names.iter().map(|n| rig.require_joint("chains", n)).collect::<Result<_>>()?;
    TailChain::from_joints(rig, &joints)
}
