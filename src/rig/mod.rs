//! The rig table: a skinned mesh in bind space plus its skeleton, the input
//! and output of every stage. Also the pieces every stage shares: joint roles,
//! clips of local transforms, forward kinematics, linear blend skinning and
//! the names of tail joints.

mod checks;
mod clip;
mod fingers;
mod pose;
pub mod roles;
mod skinning;
mod table;
mod tail_names;
mod trs;

pub use clip::{clip_frames, Clip};
pub use fingers::{names_digit, names_hand, FingerMerge};
pub use pose::{world_matrices, world_matrices_into};
pub use roles::{JointRoles, RoleOverrides, RoleRule, RoleSource};
pub use skinning::{skin_frames, skin_matrices, skin_vertices, skin_vertices_into};
pub use table::{
    normalize_weights, Influences, Rig, RigParts, EXACT_WEIGHT_SUM, WEIGHT_SUM_TOLERANCE,
};
pub use tail_names::{
    bone_name, chain_prefix, end_name, grown_chains, tail_number, GrownChain, TailName,
};
pub use trs::Trs;
