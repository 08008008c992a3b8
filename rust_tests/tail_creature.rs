//! The spring's test creature, shared by rust_tests and benches/spring.rs
//! (which includes this file by path).

use caudal::rig::{Influences, RigParts};
use caudal::spring::TailChain;
use caudal::Rig;
use glam::{Mat4, Vec3};

/// A box body with a pelvis at 1 m and a `bones`-bone tail (with Tail_End)
/// reaching back and down 0.8 m.
pub fn creature(bones: usize) -> (Rig, TailChain) {
    let mut names = vec!["Hips".to_string()];
    let mut parents = vec![None];
    let mut heads = vec![Vec3::new(0.0, 1.0, 0.0)];
    let dir = Vec3::new(0.0, -0.6, -0.8);
    for i in 0..=bones {
        names.push(if i < bones { format!("Tail_{}", i + 1) } else { "Tail_End".into() });
        parents.push(Some(i));
        heads.push(Vec3::new(0.0, 0.95, -0.12) + dir * (0.8 * i as f32 / bones as f32));
    }
    let rig = Rig::new(RigParts {
        vertices: vec![
            Vec3::new(-0.2, 0.0, -0.1),
            Vec3::new(0.2, 0.0, -0.1),
            Vec3::new(0.0, 1.4, 0.1),
        ],
        triangles: vec![[0, 1, 2]],
        influences: Influences::rigid(&[0, 0, 0]),
        joint_names: names,
        parents,
        bind_world: Some(heads.iter().map(|h| Mat4::from_translation(*h)).collect()),
        ..Default::default()
    })
    .unwrap();
    let chain = TailChain::find(&rig).unwrap();
    (rig, chain)
}
