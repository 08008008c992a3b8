//! Which joints form a tail chain: Tail_1..Tail_K, optionally a weightless
//! Tail_End, each the parent of the next. The root's parent (the pelvis for
//! the chains caudal grows) is the spring's *anchor*: the caller supplies its
//! world transform every step.

use crate::error::{CaudalError, Result};
use crate::rig::{tail_number, Rig, TailName};

/// A tail chain of a rig, by joint index, validated parent to child.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TailChain {
    /// Simulated bones from the root outwards (Tail_1..Tail_K).
    pub bones: Vec<usize>,
    /// The weightless tip helper (Tail_End). Without it the last segment
    /// continues the incoming tangent (SPEC S6).
    pub end: Option<usize>,
    /// Parent of the root bone; the spring reads its world transform.
    pub anchor: usize,
}

impl TailChain {
    /// Validates a chain given as bone indices plus an optional end helper.
    pub fn new(rig: &Rig, bones: Vec<usize>, end: Option<usize>) -> Result<TailChain> {
        if bones.is_empty() {
            return Err(CaudalError::shape("chain", "a tail chain needs at least one bone"));
        }
        rig.check_joints("chain", &bones)?;
        if let Some(e) = end {
            rig.check_joints("chain_end", &[e])?;
        }
        let names = rig.joint_names();
        let parents = rig.parents();
        let anchor = parents[bones[0]].ok_or_else(|| {
            CaudalError::param(
                "chain",
                format!(
                    "root bone {:?} has no parent to hang from (it needs the pelvis)",
                    names[bones[0]]
                ),
            )
        })?;
        let mut all: Vec<usize> = bones.clone();
        all.extend(end);
        for w in all.windows(2) {
            if parents[w[1]] != Some(w[0]) {
                return Err(CaudalError::param(
                    "chain",
                    format!(
                        "{:?} is not the child of {:?}: a chain must run parent to child",
                        names[w[1]], names[w[0]]
                    ),
                ));
            }
        }
        // Parent links already exclude repeats except the anchor itself.
        if all.contains(&anchor) {
            return Err(CaudalError::param("chain", "the chain contains its own anchor"));
        }
        if bones.len() == 1 && end.is_none() {
            return Err(CaudalError::param(
                "chain",
                format!(
                    "one-bone chain {:?} without an end helper has no length to swing",
                    names[bones[0]]
                ),
            ));
        }
        Ok(TailChain { bones, end, anchor })
    }

    /// From a list of joints root first: the last one is taken as the end
    /// helper when it carries no skin weight, as caudal's Tail_End does.
    pub fn from_joints(rig: &Rig, joints: &[usize]) -> Result<TailChain> {
        rig.check_joints("chain", joints)?;
        match joints.split_last() {
            Some((&last, rest)) if !rest.is_empty() && !carries_weight(rig, last) => {
                TailChain::new(rig, rest.to_vec(), Some(last))
            }
            _ => TailChain::new(rig, joints.to_vec(), None),
        }
    }

    /// Finds the tail by joint names: caudal's own `Tail_1..Tail_K` and
    /// `Tail_End`, and the common riggers' spellings (`Tail1`, `tail.01`,
    /// `b_Tail01_012`, `mixamorig:Tail_1`, case-insensitive): numbered tail
    /// joints from the lowest number up, parent to child. Several joints
    /// with the same number (two tails) is an error asking for the chain.
    pub fn find(rig: &Rig) -> Result<TailChain> {
        let mut numbered: Vec<(u32, usize)> = Vec::new();
        let mut end = None;
        for (j, name) in rig.joint_names().iter().enumerate() {
            match tail_number(name) {
                Some(TailName::Bone(k)) => numbered.push((k, j)),
                Some(TailName::End) => end = Some(j),
                None => {}
            }
        }
        if numbered.is_empty() {
            return Err(CaudalError::not_found(
                "chain",
                "no joint is named like a tail bone (Tail_1, Tail1, ...); pass the chain explicitly",
            ));
        }
        numbered.sort();
        if let Some(w) = numbered.windows(2).find(|w| w[0].0 == w[1].0) {
            let names = rig.joint_names();
            return Err(CaudalError::param(
                "chain",
                format!(
                    "{:?} and {:?} both look like tail bone {}: pass the chain explicitly",
                    names[w[0].1], names[w[1].1], w[0].0
                ),
            ));
        }
        let mut bones = vec![numbered[0].1];
        for w in numbered.windows(2) {
            if w[1].0 != w[0].0 + 1 {
                break;
            }
            bones.push(w[1].1);
        }
        // An end helper must hang off the last bone; otherwise a weightless
        // leaf after the numbered bones is taken as the end helper.
        let last = *bones.last().unwrap();
        let end = end.filter(|&e| rig.parents()[e] == Some(last)).or_else(|| {
            let kids: Vec<usize> = rig.children(last).collect();
            match kids.as_slice() {
                [k] if rig.children(*k).next().is_none() && !carries_weight(rig, *k) => Some(*k),
                _ => None,
            }
        });
        TailChain::new(rig, bones, end)
    }

    /// Number of simulated bones.
    pub fn len(&self) -> usize {
        self.bones.len()
    }
    /// Whether the chain has no bones ([`TailChain::new`] never makes one).
    pub fn is_empty(&self) -> bool {
        self.bones.is_empty()
    }
}

fn carries_weight(rig: &Rig, joint: usize) -> bool {
    let inf = rig.influences();
    inf.joints.iter().zip(&inf.weights).any(|(&j, &w)| j as usize == joint && w > 0.0)
}
