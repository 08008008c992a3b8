//! A file may place its character facing any of its horizontal axes (-X in
//! Rigify exports) and standing below world 0 (modelled about its centre). The spring must read
//! the character's facing and ground from the file, so a character turned
//! and lowered, driven by the same motion turned and lowered, moves its tail
//! exactly as the upright one does (issue 13: the rabbit's Tail_1 turned
//! 174° against its parent because the spring took +Z for its facing and
//! world 0, inside its hips, for its floor).

use caudal::chain::{grow_chains, ChainParams};
use caudal::rig::RigParts;
use caudal::spring::{bend_angle, bind_ground, body_facing, SpringParams, TailChain, TailSpring};
use caudal::Rig;
use glam::{Mat4, Quat, Vec3};

use super::creature::{hips, metres};

/// The demo creature (a biped standing on world 0, facing +Z by its feet)
/// with its grown tail.
fn demo() -> Rig {
    let model = caudal::demo::creature();
    grow_chains(model.rig().unwrap(), &ChainParams::default()).unwrap().0
}

/// `rig` with its whole bind space moved by `m` (a turn about Y, a drop).
fn placed(rig: &Rig, m: Mat4) -> Rig {
    let parts = rig.to_parts();
    let bind_world = rig.bind_world().iter().map(|b| m * *b).collect();
    Rig::new(RigParts {
        vertices: parts.vertices.iter().map(|v| m.transform_point3(*v)).collect(),
        bind_world: Some(bind_world),
        inverse_bind: None,
        rest_local: None,
        ..parts
    })
    .unwrap()
}

/// A crouch to the floor with a turn and a sway: the hanging tail meets the
/// floor, and the rest arc's axes decide where it swings.
fn crouch_walk(t: f32) -> Mat4 {
    let depth = 0.85 * (t * 1.5).sin().abs();
    hips(
        Vec3::new(0.2 * (t * 2.0).sin(), 1.0 - depth, 0.4 * t),
        Quat::from_rotation_y(0.6 * (t * 2.0).sin()) * Quat::from_rotation_x(0.3 * (t * 3.0).sin()),
    )
}

/// The tail's local rotations at every frame of three seconds of
/// `crouch_walk` placed by `place`.
fn run(rig: &Rig, place: Mat4, params: &SpringParams) -> Vec<Vec<Quat>> {
    let chain = TailChain::find(rig).unwrap();
    let mut spring = TailSpring::new(rig, chain, params.clone()).unwrap();
    (0..=90)
        .map(|f| spring.step(place * crouch_walk(f as f32 / 30.0), 1.0 / 30.0).unwrap().to_vec())
        .collect()
}

#[test]
fn a_turned_and_lowered_character_swings_its_tail_as_an_upright_one() {
    let upright = demo();
    // The creature faces +Z by its feet, and stands on world 0 with its
    // soles a few millimetres into it (within the clearance: S8's floor).
    let params = metres();
    let f = body_facing(&upright, &params);
    assert!(f.distance(Vec3::Z) < 1e-3, "the upright creature faces {f}");
    let soles = upright.vertices().iter().map(|v| v.y).fold(f32::MAX, f32::min);
    assert!(soles < 0.0 && soles > -params.clearance, "soles at {soles}");
    let chain = TailChain::find(&upright).unwrap();
    assert_eq!(bind_ground(&upright, &chain, params.clearance), 0.0);
    let base = run(&upright, Mat4::IDENTITY, &params);
    // Lowered by more than its clearance, the creature stands on its soles
    // sunk by one clearance: the same as the upright one on a floor that
    // far above its soles.
    let sunk = SpringParams { floor_height: soles + params.clearance, ..params.clone() };
    let base_sunk = run(&upright, Mat4::IDENTITY, &sunk);
    // The crouch really puts the tail on the floor (else the ground half of
    // this test could not fail).
    let mut spring = TailSpring::new(&upright, chain, params.clone()).unwrap();
    let mut touched = false;
    for f in 0..=90 {
        spring.step(crouch_walk(f as f32 / 30.0), 1.0 / 30.0).unwrap();
        touched |= spring.grounded().iter().any(|&g| g);
    }
    assert!(touched, "the crouch must put the tail on the floor");

    use std::f32::consts::{FRAC_PI_2, PI};
    // Quarter and half turns: a file faces along one of its axes.
    for (yaw, drop) in [(-FRAC_PI_2, 0.0), (0.0, 0.7), (PI, 0.7), (FRAC_PI_2, 0.7)] {
        let m = Mat4::from_translation(Vec3::new(0.3, -drop, -0.2)) * Mat4::from_rotation_y(yaw);
        let rig = placed(&upright, m);
        let moved = run(&rig, m, &params);
        let reference = if drop > 0.0 { &base_sunk } else { &base };
        let worst = reference
            .iter()
            .zip(&moved)
            .flat_map(|(a, b)| a.iter().zip(b).map(|(p, q)| bend_angle(p.inverse() * *q)))
            .fold(0.0f32, f32::max);
        println!(
            "yaw {yaw:.2}, drop {drop}: worst turn against upright {:.2e} deg",
            worst.to_degrees()
        );
        assert!(
            worst.to_degrees() < 0.05,
            "yaw {yaw}, drop {drop}: the tail moves {:.1} deg away from the upright creature's",
            worst.to_degrees()
        );
        let f = body_facing(&rig, &params);
        assert!(f.distance(Quat::from_rotation_y(yaw) * Vec3::Z) < 1e-3, "facing {f} at yaw {yaw}");
    }
}

/// The spring reads the body's facing from the roles the user names
/// (`SpringParams::roles`), the names that set detection right: told the
/// head lies where the tail is, the creature faces backwards; told a name
/// the rig lacks, the spring refuses, naming the role.
#[test]
fn the_spring_reads_the_users_roles() {
    let rig = demo();
    let params = metres();
    assert!(body_facing(&rig, &params).distance(Vec3::Z) < 1e-3);
    let tail_tip = TailChain::find(&rig).unwrap().end.expect("the grown chain's end helper");
    let turned = SpringParams {
        roles: caudal::rig::RoleOverrides {
            head: Some(rig.joint_names()[tail_tip].clone()),
            ..Default::default()
        },
        ..params.clone()
    };
    let f = body_facing(&rig, &turned);
    assert!(f.distance(-Vec3::Z) < 1e-3, "with the head at the tail's end it faces {f}");
    let unknown = SpringParams {
        roles: caudal::rig::RoleOverrides { pelvis: Some("Nope".into()), ..Default::default() },
        ..params
    };
    let err = TailSpring::new(&rig, TailChain::find(&rig).unwrap(), unknown).unwrap_err();
    assert!(
        matches!(&err, caudal::CaudalError::UnknownJoint { field, name } if field == "roles.pelvis" && name == "Nope"),
        "{err}"
    );
}
