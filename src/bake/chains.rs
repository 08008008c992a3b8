//! Which chains to bake: every grown chain of a rig, found by caudal's names
//! (`Tail_1..Tail_K` + `Tail_End`, further tails `Tail2_*`, `Tail3_*`;
//! an exporter's `prefix:` is ignored, case-insensitive).

use crate::error::{CaudalError, Result};
use crate::rig::Rig;
use crate::spring::TailChain;

fn base(name: &str) -> String {
    name.rsplit(':').next().unwrap_or(name).to_ascii_lowercase()
}

/// Every `Tail*` chain of `rig`, in name order (`Tail`, `Tail2`, ...).
pub fn find_chains(rig: &Rig) -> Result<Vec<TailChain>> {
    let names: Vec<String> = rig.joint_names().iter().map(|n| base(n)).collect();
    let index = |n: &str| names.iter().position(|m| m == n);
    let mut prefixes: Vec<(u32, String)> = names
        .iter()
        .filter_map(|n| n.strip_suffix("_1"))
        .filter_map(|p| {
            let digits = p.strip_prefix("tail")?;
            if digits.is_empty() {
                Some((1, p.to_string()))
            } else if digits.chars().all(|c| c.is_ascii_digit()) {
                digits.parse().ok().map(|d| (d, p.to_string()))
            } else {
                None
            }
        })
        .collect();
    prefixes.sort();
    let mut chains = Vec::new();
    for (_, p) in prefixes {
        let bones: Vec<usize> = (1..).map_while(|k| index(&format!("{p}_{k}"))).collect();
        let end = index(&format!("{p}_end"));
        chains.push(TailChain::new(rig, bones, end)?);
    }
    if chains.is_empty() {
        return Err(CaudalError::not_found(
            "chains",
            "the rig has no Tail_1 joint: grow a chain first (caudal tail) or pass the chain",
        ));
    }
    Ok(chains)
}
