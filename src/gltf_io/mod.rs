//! glTF 2.0 in and out.
//!
//! Reading ([`load`]) turns a file into its **characters**: each skinned
//! skeleton with every primitive it moves (several meshes, several skins
//! sharing one skeleton, meshes parented to a joint) becomes one
//! [`Character`] with its own [`Rig`](crate::rig::Rig) in its own bind
//! space: only its joints, only its vertices, its own height. Any animation
//! samples into a [`Clip`](crate::rig::Clip) of one character. Writing
//! ([`write()`]) changes only what caudal changes (new joint nodes, skin
//! joints and inverse binds, skin weights, new animation channels) for any
//! number of characters at once, and keeps every other byte of JSON it does
//! not know.
//!
//! **Characters.** Skins are one character when they share a joint, or when
//! a joint of one hangs (through any non-joint nodes) below a joint of the
//! other; all joints of one skin are always one character, even a forest of
//! roots. So RobotExpressive's two hand skins over the same 43 joints are one
//! character, a Quaternius animal's one skin with five roots is one, and two
//! armatures with disjoint joints are two, even under one scene node.
//! Characters are numbered by their first skin in file order; their names
//! (first skin's name, else the nearest named node above the skeleton) are
//! made unique. See [`characters`] for the rule in code.
//!
//! **Vertex order.** The file's global vertex index runs over the skinned
//! primitives in skin order, then node order, then primitive order, then
//! over meshes parented to a joint (rigid) in node order: global index =
//! [`PrimitiveInfo::file_vertex_offset`] + index in the primitive's
//! `POSITION`. This is the order the `*_notail.truth.json` fixtures use
//! (their `primitives[].vertex_offset`). A character's rig keeps the same
//! order over its own primitives ([`PrimitiveInfo::vertex_offset`]); in a
//! one-character file the two offsets are equal.
//!
//! **Bind space.** glTF skins map mesh space through inverse bind matrices;
//! a file may keep its mesh in another axis convention or scale than its
//! scene (FBX2glTF's Z-up bind under a scaled armature node, centimetre
//! wrappers, a root with translation and yaw). The reader carries each
//! character's mesh into the scene's frame with one similarity
//! `bind_from_file` (the first skin's root joint at its scene pose times its
//! inverse bind; exact for skinning: positions and inverse binds change
//! together) so the core always works Y-up at scene scale; the writer
//! applies the inverse on the way out. A non-uniform armature scale cannot
//! be a similarity: its rotation and mean scale are kept, and the bind pose
//! still skins exactly.
//!
//! **Extensions.** meshopt compression is decoded (by meshoptimizer's own
//! decoder) and quantized attributes dequantized; appearance-only required
//! extensions are ignored with a warning ([`GltfModel::warnings`]); ones
//! that change geometry and are not supported are refused by name
//! ([`extensions`] has the policy). A written file holds
//! the decoded buffers and does not require meshopt.

mod accessor;
mod atomic;
mod budget;
mod buffers;
pub mod characters;
mod document;
pub mod extensions;
mod meshopt;
mod read;
mod sample;
mod structure;
mod uri;
mod write;

pub use atomic::{remove_stale, write_all_atomic, write_atomic};
pub use budget::LoadOptions;
pub use meshopt::MAX_EXPANSION as MESHOPT_MAX_EXPANSION;
pub use read::{
    load, load_bytes, load_bytes_with, load_with, AnimationInfo, Character, GltfModel,
    PrimitiveInfo, SkinInfo,
};
pub use sample::{thin_key_times, DEFAULT_MAX_KEY_RATE, DEFAULT_SAMPLE_RATE};
pub use write::{encode, glb_container, write, AnimationTrack, TrackPath, WriteOptions};
