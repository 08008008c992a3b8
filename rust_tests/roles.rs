//! Joint roles on synthetic skeletons named as the common riggers name them.
use caudal::rig::{Influences, JointRoles, Rig, RigParts, RoleOverrides, RoleRule};
use glam::{Mat4, Vec3};

/// A biped (facing +Z, left = +X) with the given names for
/// [pelvis, spine, chest, neck, head, thigh.L, shin.L, foot.L, thigh.R, shin.R, foot.R].
fn biped(names: [&str; 11]) -> Rig {
    let heads = [
        [0.0, 1.0, 0.0], [0.0, 1.15, 0.0], [0.0, 1.3, 0.0], [0.0, 1.5, 0.0], [0.0, 1.6, 0.0],
        [0.1, 0.95, 0.0], [0.1, 0.5, 0.0], [0.1, 0.08, 0.0],
        [-0.1, 0.95, 0.0], [-0.1, 0.5, 0.0], [-0.1, 0.08, 0.0],
    ];
    let parents = [None, Some(0), Some(1), Some(2), Some(3), Some(0), Some(5), Some(6), Some(0), Some(8), Some(9)];
    let mut vertices: Vec<Vec3> = heads.iter().map(|h| Vec3::from(*h)).collect();
    vertices.push(Vec3::new(0.0, 1.8, 0.0));
    vertices.push(Vec3::new(0.1, 0.0, 0.1));
    let n = vertices.len();
    Rig::new(RigParts {
        vertices,
        triangles: (0..n as u32 - 2).map(|i| [i, i + 1, i + 2]).collect(),
        influences: Influences::rigid(&vec![0; n]),
        joint_names: names.iter().map(|s| s.to_string()).collect(),
        parents: parents.to_vec(),
        bind_world: Some(heads.iter().map(|h| Mat4::from_translation(Vec3::from(*h))).collect()),
        ..Default::default()
    })
    .unwrap()
}

fn check(rig: &Rig, pelvis_rule: &str) -> JointRoles {
    let r = JointRoles::find(rig, &RoleOverrides::default()).unwrap();
    assert_eq!(r.pelvis, Some(0));
    assert_eq!(r.thighs, [Some(5), Some(8)]);
    assert_eq!(r.shins, [Some(6), Some(9)]);
    assert_eq!(r.head, Some(4));
    assert_eq!(r.spine, vec![1, 2]);
    let src = r.sources.iter().find(|s| s.role == "pelvis").unwrap();
    let kind = match &src.rule {
        RoleRule::Name(_) => "name",
        RoleRule::Topology(_) => "topology",
        RoleRule::Override => "override",
    };
    assert_eq!(kind, pelvis_rule);
    r
}

#[test]
fn mixamo_names() {
    let r = check(
        &biped(["mixamorig:Hips", "mixamorig:Spine", "mixamorig:Spine1", "mixamorig:Neck", "mixamorig:Head", "mixamorig:LeftUpLeg", "mixamorig:LeftLeg", "mixamorig:LeftFoot", "mixamorig:RightUpLeg", "mixamorig:RightLeg", "mixamorig:RightFoot"]),
        "name",
    );
    assert!(r.sources.iter().any(|s| s.role == "thigh.L" && matches!(&s.rule, RoleRule::Name(_))));
}

#[test]
fn rigify_deform_names() {
    check(&biped(["DEF-spine", "DEF-spine.001", "DEF-spine.002", "DEF-spine.004", "DEF-spine.006", "DEF-thigh.L", "DEF-shin.L", "DEF-foot.L", "DEF-thigh.R", "DEF-shin.R", "DEF-foot.R"]), "name");
}

#[test]
fn unreal_names() {
    check(&biped(["pelvis", "spine_01", "spine_02", "neck_01", "head", "thigh_l", "calf_l", "foot_l", "thigh_r", "calf_r", "foot_r"]), "name");
}

#[test]
fn unnamed_joints_by_topology() {
    check(&biped(["j0", "j1", "j2", "j3", "j4", "j5", "j6", "j7", "j8", "j9", "j10"]), "topology");
}

#[test]
fn swapped_side_names_win_over_position() {
    // A rig whose "left" leg sits at -X (facing -Z): names decide.
    let rig = biped(["Hips", "Spine", "Chest", "Neck", "Head", "UpperLeg.R", "LowerLeg.R", "Foot.R", "UpperLeg.L", "LowerLeg.L", "Foot.L"]);
    let r = JointRoles::find(&rig, &RoleOverrides::default()).unwrap();
    assert_eq!(r.thighs, [Some(8), Some(5)]);
}
