//! glTF 2.0 in and out.
//!
//! Reading ([`load`]) turns every skinned primitive of a file (several meshes,
//! several skins sharing one skeleton) plus node-parented rigid meshes into one
//! [`Rig`](crate::rig::Rig) in bind space, and samples any animation into a
//! [`Clip`](crate::rig::Clip). Writing ([`write`]) changes only what caudal
//! changes (new joint nodes, skin joints and inverse binds, skin weights, new
//! animation channels) and keeps every other byte of JSON it does not know.
//!
//! Bind space: glTF skins map mesh space through inverse bind matrices; a file
//! may keep its mesh in another axis convention or scale than its scene
//! (Z-up mesh under a Y-up hierarchy). The reader carries the mesh into the
//! scene's frame with one similarity `bind_from_file` (exact for skinning:
//! positions and inverse binds are changed together) so the core always works
//! Y-up; the writer applies the inverse on the way out.

mod buffers;
mod read;
mod sample;
mod write;
mod atomic;

pub use read::{load, load_bytes, AnimationInfo, GltfModel, PrimitiveInfo, SkinInfo};
pub use sample::{thin_key_times, DEFAULT_MAX_KEY_RATE, DEFAULT_SAMPLE_RATE};
pub use write::{encode, glb_container, write, AnimationTrack, TrackPath, WriteOptions};
pub use atomic::write_atomic;
