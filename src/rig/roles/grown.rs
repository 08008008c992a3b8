//! The joints a tail's chain holds are read as the joint the chain hangs
//! from: the roles of a rig caudal grew a chain on are those of the rig it
//! grew it from.
//!
//! Growing a chain ([`crate::chain::grow_chains`]) appends `Tail_1..Tail_K`
//! and `Tail_End` to the anchor (the pelvis, or the trunk joint the tail
//! hangs from) and moves the tail's skin onto them. Every reading of the roles
//! weighs joints by the skin they carry: read as bones of their own, the
//! chain and its skin are a new heavy end of the trunk, and on 17
//! characters of corpus seeds 0..200 the grown rig read the tail as the
//! head, its root as the neck, and the facing reversed (seed 3), so the
//! spring's rest arc and forward plane bent the tail the wrong way. The
//! skin the chain carries was the anchor's side of the body before the
//! chain was grown; read as the anchor's it is again, and the chain's
//! joints, carrying nothing of their own, are not bones of the trunk.
//!
//! The chains are known by caudal's naming rule
//! ([`crate::rig::grown_chains`]), which a rigger's own tail spelled
//! `Tail_1..` also matches. Its skin too is read as the joint it hangs from:
//! a tail is neither the trunk, nor the head, nor a leg, whoever rigged it.

use crate::rig::{grown_chains, Rig};

/// Per joint, the joint whose skin it is read as: itself, or for a joint
/// of a tail's chain the nearest ancestor outside every chain (the joint
/// the chain hangs from). A chain with no such ancestor is read as is.
pub(super) fn skin_owner(rig: &Rig) -> Vec<usize> {
    let n = rig.joint_count();
    let mut in_chain = vec![false; n];
    for c in grown_chains(rig.joint_names()) {
        for j in c.bones.into_iter().chain(c.end) {
            in_chain[j] = true;
        }
    }
    let parents = rig.parents();
    let mut owner: Vec<usize> = (0..n).collect();
    for &j in rig.topological_order() {
        if in_chain[j] {
            if let Some(p) = parents[j] {
                owner[j] = owner[p];
            }
        }
    }
    owner
}
