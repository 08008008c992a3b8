//! Baked keys written as glTF channels into each clip and read back.

use caudal::bake::{bake_model, tracks, BakeParams};
use caudal::gltf_io::{self, WriteOptions};

use super::fixtures::fox;

#[test]
fn written_keys_read_back_exactly() {
    let g = fox();
    let bake = bake_model(&g.model, 0, &g.rig, &g.chains, None, &BakeParams::default()).unwrap();
    let ts = tracks(&bake);
    assert_eq!(ts.len(), g.model.animations.len() * g.chains[0].bones.len());
    let dir = std::env::temp_dir().join(format!("caudal-bake-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("fox_baked.glb");
    gltf_io::write(&g.model, &[&g.rig], &ts, &path, &WriteOptions::default()).unwrap();
    let back = gltf_io::load(&path).unwrap();
    assert_eq!(back.rig().unwrap().joint_names(), g.rig.joint_names());
    assert_eq!(
        back.animations.len(),
        g.model.animations.len(),
        "keys go into the existing clips, no new animations"
    );
    for (name, per_chain) in bake.clip_names.iter().zip(&bake.clips) {
        let b = &per_chain[0];
        let clip = back.sample_clip(0, name, BakeParams::default().rate).unwrap();
        assert_eq!(clip.frame_count(), b.times.len());
        let k = b.track.joints.len();
        let mut worst = 0.0f32;
        for f in 0..clip.frame_count() {
            for (i, &j) in b.track.joints.iter().enumerate() {
                let (got, want) = (clip.frame(f)[j].rotation, b.track.rotations[f * k + i]);
                let d = (glam::Vec4::from(got) - glam::Vec4::from(want))
                    .abs()
                    .max_element()
                    .min((glam::Vec4::from(got) + glam::Vec4::from(want)).abs().max_element());
                worst = worst.max(d);
            }
        }
        assert!(worst <= 1e-6, "{name}: read back differs by {worst}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
