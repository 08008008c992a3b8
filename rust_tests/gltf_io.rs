use caudal::gltf_io;
use caudal::rig::{skin_matrices, skin_vertices, world_matrices, JointRoles, RoleOverrides};

use crate::common::{load, MODELS};

#[test]
fn every_shared_model_loads_with_the_documented_counts() {
    for &(path, joints, verts, clips) in MODELS {
        let m = load(path);
        let roles = JointRoles::find(m.rig().unwrap(), &RoleOverrides::default()).unwrap();
        println!(
            "{path}: joints {} verts {} tris {} clips {} H {:.3} pelvis {:?} thighs {:?} shins {:?} head {:?}",
            m.rig().unwrap().joint_count(),
            m.rig().unwrap().vertex_count(),
            m.rig().unwrap().triangles().len(),
            m.animations.len(),
            m.rig().unwrap().height(),
            roles.pelvis.map(|j| &m.rig().unwrap().joint_names()[j]),
            roles.thighs.map(|t| t.map(|j| m.rig().unwrap().joint_names()[j].clone())),
            roles.shins.map(|t| t.map(|j| m.rig().unwrap().joint_names()[j].clone())),
            roles.head.map(|j| &m.rig().unwrap().joint_names()[j]),
        );
        assert_eq!(m.rig().unwrap().joint_count(), joints, "{path} joints");
        assert_eq!(m.rig().unwrap().vertex_count(), verts, "{path} vertices");
        assert_eq!(m.animations.len(), clips, "{path} clips");
    }
}

#[test]
fn bind_pose_skinning_reproduces_bind_positions() {
    for &(path, ..) in MODELS {
        let m = load(path);
        let skin = skin_matrices(m.rig().unwrap(), m.rig().unwrap().bind_world());
        let posed = skin_vertices(m.rig().unwrap(), &skin);
        let h = m.rig().unwrap().height();
        let worst = posed
            .iter()
            .zip(m.rig().unwrap().vertices())
            .map(|(a, b)| (*a - *b).length())
            .fold(0f32, f32::max);
        assert!(worst <= 1e-5 * h, "{path}: bind pose moves a vertex by {worst} (H = {h})");
        // The bind pose rebuilt from locals (SPEC S6) gives the same worlds.
        let worlds = world_matrices(
            m.rig().unwrap().parents(),
            m.rig().unwrap().topological_order(),
            &m.rig().unwrap().bind_locals(),
        );
        for (a, b) in worlds.iter().zip(m.rig().unwrap().bind_world()) {
            assert!(
                a.abs_diff_eq(*b, 1e-3 * h.max(1.0)),
                "{path}: bind locals do not rebuild the bind pose"
            );
        }
    }
}

#[test]
fn clips_sample_to_finite_poses_over_their_duration() {
    let m = load("fox/Fox.glb");
    let walk = m.sample_clip(0, "Walk", 30.0).unwrap();
    assert!((walk.duration - 0.7083).abs() < 1e-3);
    assert_eq!(walk.frame_count(), (0.7083f32 * 30.0).round() as usize + 1);
    assert!(((walk.frame_count() - 1) as f32 / walk.rate - walk.duration).abs() < 1e-5);
    assert!(matches!(m.sample_clip(0, "Nope", 30.0), Err(caudal::CaudalError::NotFound { .. })));
}

#[test]
fn unchanged_write_reads_back_identical() {
    let dir = std::env::temp_dir().join(format!("caudal-rt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The cat and the horse (Sketchfab) put byteStride on animation views,
    // which glTF forbids: the writer drops it, the clips must not change.
    for path in [
        "fox/Fox.glb",
        "quaternius_wolf/Wolf.gltf",
        "robot_expressive/RobotExpressive.glb",
        "cesium_man/CesiumMan.glb",
        "cat_kenchoo/cat.glb",
        "horse_rigify/horse.glb",
    ] {
        let m = load(path);
        let out = dir.join("rt.glb");
        gltf_io::write(&m, &[m.rig().unwrap()], &[], &out, &Default::default()).unwrap();
        let back = gltf_io::load(&out).unwrap();
        let (a, b) = (back.rig().unwrap(), m.rig().unwrap());
        assert_eq!(a.vertices(), b.vertices(), "{path}: vertices");
        assert_eq!(a.triangles(), b.triangles(), "{path}: triangles");
        assert_eq!(a.influences(), b.influences(), "{path}: influences");
        assert_eq!(a.joint_names(), b.joint_names(), "{path}: names");
        assert_eq!(a.parents(), b.parents(), "{path}: parents");
        assert_eq!(a.inverse_bind(), b.inverse_bind(), "{path}: inverse binds");
        assert_eq!(a.rest_local(), b.rest_local(), "{path}: rest pose");
        assert_eq!(back.rig().unwrap(), m.rig().unwrap(), "{path}: rig changed in a round trip");
        assert_eq!(back.animations.len(), m.animations.len());
        for a in &m.animations {
            assert_eq!(
                back.sample_clip(0, &a.name, 24.0).unwrap(),
                m.sample_clip(0, &a.name, 24.0).unwrap(),
                "{path}: clip {} changed",
                a.name
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}
