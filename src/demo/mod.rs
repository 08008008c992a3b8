//! The built-in procedural creature: a biped with a Mixamo-named 22-bone
//! skeleton and a long tail skinned to the left shin and both thighs, as a
//! template rigger leaves it, plus a looping walk. It needs no files, so the
//! demo and the tests run anywhere.

pub mod corpus;
mod glb;
mod mesh;
mod skeleton;
mod walk;

pub use glb::{creature_glb, creature_glb_with, tail_vertex_count};
pub use skeleton::{DemoJoint, BONES, TAIL_LENGTH_SHARE_OF_TAIL_TO_SHIN, TAIL_LINE};
pub use walk::{WALK_DURATION, WALK_RATE};

/// The tail's centre line (from the back of the hips) and its radius at the
/// root and the tip, metres. `Default` is the demo's: 0.85 m hanging back
/// and down, 0.07 m tapering to 0.025 m.
#[derive(Clone, Debug, PartialEq)]
pub struct TailShape {
    /// Centre line points, root first, metres.
    pub line: Vec<[f32; 3]>,
    /// Skin radius at the root, metres.
    pub root_radius: f32,
    /// Skin radius at the tip, metres.
    pub tip_radius: f32,
}

impl Default for TailShape {
    fn default() -> Self {
        TailShape { line: TAIL_LINE.to_vec(), root_radius: 0.07, tip_radius: 0.025 }
    }
}

/// The demo creature as a loaded model (its GLB parsed back).
pub fn creature() -> crate::gltf_io::GltfModel {
    creature_with(&TailShape::default())
}

/// The demo creature with another tail: for sweeping tail shapes in tests.
pub fn creature_with(shape: &TailShape) -> crate::gltf_io::GltfModel {
    let bytes = creature_glb_with(shape);
    crate::gltf_io::load_bytes(&bytes, None, "<demo creature>")
        .expect("the built-in creature is a valid glTF file")
}
