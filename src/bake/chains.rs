//! Which chains to bake: every grown chain of a rig, found by caudal's names
//! ([`crate::rig::grown_chains`]).

use crate::error::{CaudalError, Result};
use crate::rig::{grown_chains, Rig};
use crate::spring::TailChain;

/// Every `Tail*` chain of `rig`, in name order (`Tail`, `Tail2`, ...).
pub fn find_chains(rig: &Rig) -> Result<Vec<TailChain>> {
    let chains: Vec<TailChain> = grown_chains(rig.joint_names())
        .into_iter()
        .map(|c| TailChain::new(rig, c.bones, c.end))
        .collect::<Result<_>>()?;
    if chains.is_empty() {
        return Err(CaudalError::not_found(
            "chains",
            "the rig has no Tail_1 joint: grow a chain first (caudal tail) or pass the chain",
        ));
    }
    Ok(chains)
}
