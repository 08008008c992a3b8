//! A file's clip for a rig grown from it (`Clip::for_rig`), the check that a
//! clip fits a rig, and errors that name what the caller passed.

use caudal::bake::{bake_model, find_chains, BakeParams};
use caudal::chain::{grow_chains, ChainParams};
use caudal::error::CaudalError;
use caudal::gltf_io;
use caudal::rig::world_matrices;

use crate::common::{asset, load};

#[test]
fn a_files_clip_for_the_grown_rig_holds_the_new_joints_at_bind() {
    let model = load("fox/Fox_notail.glb");
    let rig = model.rig().unwrap();
    let (grown, _) = grow_chains(rig, &ChainParams::default()).unwrap();
    assert!(grown.appends_to(rig) && !rig.appends_to(&grown));
    let clip = model.sample_clip(0, "Walk", 30.0).unwrap();
    let full = clip.for_rig(&grown).unwrap();
    let (j, n) = (rig.joint_count(), grown.joint_count());
    assert_eq!((full.joint_count(), full.frame_count()), (n, clip.frame_count()));
    for f in 0..clip.frame_count() {
        assert_eq!(&full.frame(f)[..j], clip.frame(f), "the file's joints keep the file's motion");
        let worlds = world_matrices(grown.parents(), grown.topological_order(), full.frame(f));
        for g in j..n {
            let p = grown.parents()[g].unwrap();
            // Held at bind relative to the parent, whatever the parent does.
            let want = worlds[p] * grown.bind_world()[p].inverse() * grown.bind_world()[g];
            assert!(worlds[g].abs_diff_eq(want, 1e-4 * grown.height()), "frame {f} joint {g}");
        }
    }
    assert_eq!(full.for_rig(&grown).unwrap(), full, "a clip that fits comes back unchanged");
}

#[test]
fn a_clip_that_does_not_fit_says_how_to_make_one_that_does() {
    let model = load("fox/Fox_notail.glb");
    let rig = model.rig().unwrap();
    let (grown, _) = grow_chains(rig, &ChainParams::default()).unwrap();
    let clip = model.sample_clip(0, "Walk", 30.0).unwrap();
    let short = clip.check_joints(&grown).unwrap_err().to_string();
    assert_eq!(short, "clip: clip \"Walk\" has 21 joints, the rig 25: a rig with appended joints (a grown tail) needs them in the clip; for_rig holds them at bind");
    let long = clip.for_rig(&grown).unwrap().check_joints(rig).unwrap_err().to_string();
    assert!(long.ends_with("has 25 joints, the rig 21: the clip is for another rig"), "{long}");
    assert!(clip.for_rig(&grown).unwrap().for_rig(rig).is_err());
}

#[test]
fn errors_are_renamed_for_the_callers_parameter() {
    let model = load("fox/Fox_notail.glb");
    let rig = model.rig().unwrap();
    let (grown, _) = grow_chains(rig, &ChainParams::default()).unwrap();
    let chains = find_chains(&grown).unwrap();
    let e =
        bake_model(&model, 0, &grown, &chains, Some(&["Nope".to_string()]), &BakeParams::default())
            .unwrap_err();
    assert!(matches!(&e, CaudalError::NotFound { field, .. } if field == "clips"), "{e}");
    let mut params = BakeParams::default();
    params.spring.carry_deg = 1e9;
    let e = bake_model(&model, 0, &grown, &chains, None, &params).unwrap_err();
    assert!(e.to_string().starts_with("spring.carry_deg: "), "{e}");
    // Errors about a file keep their path.
    let e = CaudalError::gltf("x.glb", "bad").with_field("clips");
    assert_eq!(e.to_string(), "glTF x.glb: bad");
}

#[test]
fn a_broken_glb_container_reads_as_a_sentence() {
    let good = std::fs::read(asset("fox/Fox.glb")).unwrap();
    let mut version = good.clone();
    version[4..8].copy_from_slice(&3u32.to_le_bytes());
    let mut chunk = good.clone();
    chunk[16..20].copy_from_slice(b"XXXX");
    let cases: [(&[u8], &str); 3] = [
        (&good[..5000], "the header declares 162840 bytes but the file has 4988 (truncated?)"),
        (&version, "GLB version 3 (only version 2 is glTF 2.0)"),
        (&chunk, "unknown chunk type \"XXXX\""),
    ];
    for (bytes, want) in cases {
        let e = gltf_io::load_bytes(bytes, None, "fox.glb").unwrap_err().to_string();
        assert_eq!(e, format!("glTF fox.glb: bad GLB container: {want}"));
    }
}
