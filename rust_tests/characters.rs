//! Several characters in one file: which skins make one character, and a
//! two-dog file (two copies of a degraded fixture side by side, the second
//! standing higher) read, repaired, solved and written per character.

use std::collections::HashSet;

use caudal::appendage::Decision;
use caudal::chain::{grow_file_chains, ChainParams};
use caudal::gltf_io::{self, characters::group_skins, GltfModel};
use caudal::rig::{skin_matrices, skin_vertices};
use caudal::solve::quality::skin_clip;
use caudal::solve::{solve_surface, SolveParams};

use crate::common::{assert_control_run, asset, load};
use crate::merge::merge_glbs;

#[test]
fn skins_sharing_joints_or_hanging_below_each_other_are_one_character() {
    // Nodes: 0 scene root; 1 armature A; 2,3 joints of A; 4 armature B; 5,6
    // joints of B; 7 a non-joint node under joint 3; 8 a joint under it.
    let parent = [None, Some(0), Some(1), Some(2), Some(0), Some(4), Some(5), Some(3), Some(7)];
    // Two skins over the same joints: one character.
    assert_eq!(group_skins(&parent, &[vec![2, 3], vec![3, 2]]), vec![vec![0, 1]]);
    // A skin whose joint hangs (through a non-joint node) below another's.
    assert_eq!(group_skins(&parent, &[vec![2, 3], vec![8]]), vec![vec![0, 1]]);
    // Disjoint armatures under one scene root: two characters, by first skin.
    assert_eq!(group_skins(&parent, &[vec![5, 6], vec![2, 3]]), vec![vec![0], vec![1]]);
    // One skin over a forest (two roots side by side): still one character.
    assert_eq!(group_skins(&parent, &[vec![2, 5]]), vec![vec![0]]);
    // A third skin bridging two: all one.
    assert_eq!(group_skins(&parent, &[vec![2], vec![5], vec![3, 6]]), vec![vec![0, 1, 2]]);
}

#[test]
fn robot_expressive_two_hand_skins_are_one_character() {
    let m = load("robot_expressive/RobotExpressive.glb");
    assert_eq!(m.skins.len(), 2);
    assert_eq!(m.characters.len(), 1);
    assert_eq!(m.characters[0].skins, vec![0, 1]);
    assert!(m.skins.iter().all(|s| s.character == 0));
}

const DOG: &str = "quaternius_wolf/Wolf_notail.glb";

/// Two wolves: the second 3 lengths along x and 0.7 heights up (on a box),
/// as one merged scene would make the union rig 1.7 heights tall.
pub fn two_wolves() -> GltfModel {
    let bytes = std::fs::read(asset(DOG)).unwrap();
    let one = load(DOG);
    let (lo, hi) = one.rig().unwrap().bounds();
    let ext = hi - lo;
    let merged =
        merge_glbs(&bytes, &bytes, [3.0 * ext.max_element(), 0.7 * ext.y, 0.0], "SecondWolf");
    gltf_io::load_bytes(&merged, None, "two wolves").unwrap()
}

#[test]
fn two_skeletons_are_two_characters_each_with_its_own_height() {
    let one = load(DOG);
    let single = one.rig().unwrap();
    let two = two_wolves();
    assert_eq!(two.characters.len(), 2);
    assert!(
        matches!(two.rig(), Err(caudal::CaudalError::Parameter { .. })),
        "model.rig() names the count"
    );
    let names: Vec<&str> = two.characters.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names.len(), names.iter().collect::<HashSet<_>>().len(), "unique names: {names:?}");
    for c in &two.characters {
        let r = &c.rig;
        assert_eq!(r.joint_count(), single.joint_count());
        assert_eq!(r.vertex_count(), single.vertex_count());
        assert_eq!(r.joint_names(), single.joint_names());
        let rel = (r.height() - single.height()).abs() / single.height();
        assert!(
            rel < 1e-4,
            "character {} height {} vs the single wolf's {}",
            c.index,
            r.height(),
            single.height()
        );
        // The bind pose skins exactly.
        let posed = skin_vertices(r, &skin_matrices(r, r.bind_world()));
        let worst =
            posed.iter().zip(r.vertices()).map(|(a, b)| (*a - *b).length()).fold(0f32, f32::max);
        assert!(worst <= 1e-5 * r.height());
    }
    // The second stands 0.7 heights up, in the same Y-up scene frame.
    let dy = two.characters[1].rig.bounds().0.y - two.characters[0].rig.bounds().0.y;
    assert!((dy / single.height() - 0.7).abs() < 1e-3, "second wolf raised {dy}");
    // File-global vertex order: the second character's vertices follow the first's.
    let first = &two.characters[1].primitives[0];
    assert_eq!(first.vertex_offset, 0);
    assert_eq!(first.file_vertex_offset, single.vertex_count());
    // Clips sample per character; the merged animations drive both.
    let walk0 = two.sample_clip(0, "Walk", 30.0).unwrap();
    let walk1 = two.sample_clip(1, "Walk", 30.0).unwrap();
    assert_eq!(walk0.frame_count(), walk1.frame_count());
    assert_eq!(walk0.joint_count(), single.joint_count());
}

#[test]
fn each_characters_tail_is_found_and_chain_names_stay_unique() {
    let two = two_wolves();
    let one = load(DOG);
    // The truth's global vertex indices are the reader's (one character,
    // file order), and each wolf of the two has the same order.
    let t: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(asset("quaternius_wolf/Wolf_notail.truth.json")).unwrap(),
    )
    .unwrap();
    let tail: Vec<u32> =
        t["tail_vertices"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as u32).collect();
    let pelvis = t["skins"][0]["tail_root_parent"].as_str().unwrap();
    let truth_set: HashSet<u32> = tail.iter().copied().collect();
    let repaired = grow_file_chains(&two, &ChainParams::default()).unwrap();
    assert_eq!(repaired.len(), 2);
    let mut all_new = HashSet::new();
    for (c, (rig, report)) in repaired.iter().enumerate() {
        let chains: Vec<_> =
            report.parts.iter().filter(|p| p.decision == Decision::Chain).collect();
        assert_eq!(chains.len(), 1, "character {c}: one chain");
        assert_eq!(chains[0].attachment.as_deref(), Some(pelvis));
        let hit = chains[0].vertices.iter().filter(|v| truth_set.contains(v)).count() as f32;
        let (precision, recall) = (hit / chains[0].vertices.len() as f32, hit / tail.len() as f32);
        eprintln!(
            "character {c}: {:?}, precision {precision:.3} recall {recall:.3}, H {:.3}",
            chains[0].bones, report.height
        );
        assert!(
            precision >= 0.95 && recall >= 0.90,
            "character {c}: precision {precision} recall {recall}"
        );
        assert!((report.height - one.rig().unwrap().height()).abs() < 1e-4 * report.height);
        let base = two.characters[c].rig.joint_count();
        for name in &rig.joint_names()[base..] {
            assert!(all_new.insert(name.clone()), "{name} grown twice in one file");
        }
    }
    assert_eq!(
        repaired[0].1.parts.iter().find(|p| p.decision == Decision::Chain).unwrap().bones[0],
        "Tail_1"
    );
    assert_eq!(
        repaired[1].1.parts.iter().find(|p| p.decision == Decision::Chain).unwrap().bones[0],
        "Tail2_1"
    );

    // Both repairs in one file: each character reads back with its chain.
    let rigs: Vec<&caudal::Rig> = repaired.iter().map(|(r, _)| r).collect();
    let bytes = gltf_io::encode(&two, &rigs, &[], false).unwrap();
    let back = gltf_io::load_bytes(&bytes, None, "two wolves repaired").unwrap();
    assert_eq!(back.characters.len(), 2);
    for (c, (rig, _)) in repaired.iter().enumerate() {
        assert_eq!(back.characters[c].rig.joint_names(), rig.joint_names());
        assert_eq!(back.characters[c].rig.vertex_count(), rig.vertex_count());
        for v in (0..rig.vertex_count()).step_by(97) {
            let (ja, wa) = back.characters[c].rig.influences().of(v);
            let (jb, wb) = rig.influences().of(v);
            assert_eq!(ja, jb);
            assert!(wa.iter().zip(wb).all(|(a, b)| (a - b).abs() < 1e-6));
        }
    }
}

#[test]
fn the_transfer_control_run_passes_per_character() {
    // SPEC X4 on each wolf of the two: its own clip skinned, solved back.
    let two = two_wolves();
    for c in 0..2 {
        let rig = &two.characters[c].rig;
        let info = &two.animations[two.animation_index("Walk").unwrap()];
        let clip = two.sample_clip(c, "Walk", 23.0 / info.duration).unwrap();
        let surf = skin_clip(rig, &clip);
        let s = solve_surface(rig, &surf, "Walk", clip.rate, &SolveParams::default()).unwrap();
        assert_control_run(&format!("character {c} Walk"), s.report.quality());
    }
}
