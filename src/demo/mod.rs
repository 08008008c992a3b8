//! The built-in procedural creature: a biped with a Mixamo-named 22-bone
//! skeleton and a long tail skinned to the left shin and both thighs, as a
//! template rigger leaves it, plus a looping walk. It needs no files, so the
//! demo and the tests run anywhere.

mod glb;
mod mesh;
mod skeleton;
mod walk;

pub use glb::creature_glb;
pub use skeleton::{DemoJoint, BONES, TAIL_LENGTH_SHARE_OF_TAIL_TO_SHIN};
pub use walk::{WALK_DURATION, WALK_RATE};

/// The demo creature as a loaded model (its GLB parsed back).
pub fn creature() -> crate::gltf_io::GltfModel {
    let bytes = creature_glb();
    crate::gltf_io::load_bytes(&bytes, None, "<demo creature>").expect("the built-in creature is a valid glTF file")
}
