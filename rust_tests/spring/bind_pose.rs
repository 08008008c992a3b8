//! Bind pose recovery and the end bone (SPEC S6)

use super::creature::{metres, rest_hips, walk, Creature};
use caudal::spring::{bend_angle, SpringParams, TailSpring};
use caudal::Rig;
use glam::{Mat4, Quat, Vec3};

#[test]
fn loaded_pose_on_last_joint_is_not_taken_as_neutral() {
    let loaded = Quat::from_rotation_x(28f32.to_radians());
    let mut posed = Creature::new(4);
    posed.loaded_last = Some(loaded);
    let (rig_posed, chain) = posed.build();
    let (rig_clean, _) = Creature::new(4).build();
    let last = chain.bones[3];
    assert!((bend_angle(rig_posed.rest_local()[last].rotation) - 28f32.to_radians()).abs() < 1e-4);

    // Neutral spring (no carry, authored curve, no gravity): at rest the
    // output is the bind pose rebuilt from the inverse binds, not the file's.
    let neutral = SpringParams { carry_deg: 0.0, rest_curve: 1.0, gravity: 0.0, ..metres() };
    let mut spring = TailSpring::new(&rig_posed, chain.clone(), neutral.clone()).unwrap();
    spring.step(rest_hips(), 0.0).unwrap();
    let mut out = Vec::new();
    for _ in 0..120 {
        out = spring.step(rest_hips(), 1.0 / 60.0).unwrap().to_vec();
    }
    let bind = rig_posed.bind_locals();
    for (i, &b) in chain.bones.iter().enumerate() {
        let err = bend_angle(out[i].inverse() * bind[b].rotation).to_degrees();
        assert!(err < 1e-2, "bone {i} rests {err} deg away from its bind rotation");
    }
    let off = bend_angle(out[3].inverse() * rig_posed.rest_local()[last].rotation).to_degrees();
    assert!((off - 28.0).abs() < 0.05, "the loaded 28 degrees must not be the target ({off})");

    // With the default carry the posed and clean files rest identically too.
    for params in [metres(), neutral] {
        let run = |rig: &Rig| {
            let mut s = TailSpring::new(rig, chain.clone(), params.clone()).unwrap();
            s.step(rest_hips(), 0.0).unwrap();
            for _ in 0..60 {
                s.step(rest_hips(), 1.0 / 60.0).unwrap();
            }
            s.output().to_vec()
        };
        assert_eq!(run(&rig_posed), run(&rig_clean));
    }
}

#[test]
fn rotated_end_bone_without_tail_end_continues_the_incoming_tangent() {
    let turn = Quat::from_axis_angle(Vec3::new(1.0, 0.4, 0.3).normalize(), 40f32.to_radians());
    let mut c = Creature::new(4);
    c.end = false;
    c.last_bone_rotation = turn;
    let (rig, chain) = c.build();
    let neutral = SpringParams { carry_deg: 0.0, rest_curve: 1.0, gravity: 0.0, ..metres() };
    let mut spring = TailSpring::new(&rig, chain.clone(), neutral).unwrap();
    let out = spring.step(rest_hips(), 0.0).unwrap().to_vec();
    let p = spring.particles();
    let incoming = (p[2] - p[1]).normalize();
    let last = (p[3] - p[2]).normalize();
    let err = incoming.angle_between(last).to_degrees();
    assert!(err < 1e-2, "last segment leaves the tangent by {err} deg");
    assert!(((p[3] - p[2]).length() - (p[2] - p[1]).length()).abs() < 1e-5);
    // The bone keeps its own (rotated) bind orientation at rest.
    let bind = rig.bind_locals();
    assert!(bend_angle(out[3].inverse() * bind[chain.bones[3]].rotation) < 1e-4);
    // Copying the incoming vector as if it were in the last bone's frame
    // would point the tip along turn * tangent: 40 degrees off (measured, so
    // this test can tell the two apart).
    let wrong = (turn * incoming).normalize();
    assert!(wrong.angle_between(last).to_degrees() > 30.0);

    // In motion the extrapolated tip still follows the bone: the bone's own
    // frame times its local tip offset lands on the particle.
    let mut spring = TailSpring::new(&rig, chain.clone(), metres()).unwrap();
    let dt = 1.0 / 120.0;
    let tip_local = bind[chain.bones[3]].rotation.inverse() * bind[chain.bones[3]].translation;
    let mut worst = 0.0f32;
    let mut previous: Option<(Mat4, Vec3)> = None;
    for f in 0..240 {
        let m = walk(f as f64 * dt as f64);
        let out = spring.step(m, if f == 0 { 0.0 } else { dt }).unwrap().to_vec();
        // The output trails the simulation by one substep (one call here).
        if let Some((pm, tip)) = previous {
            let mut frame = pm;
            for (i, &b) in chain.bones.iter().enumerate() {
                frame *= Mat4::from_rotation_translation(out[i], bind[b].translation);
            }
            worst = worst.max((frame.transform_point3(tip_local) - tip).length());
        }
        previous = Some((m, spring.particles()[3]));
    }
    assert!(worst < 1e-5, "tip off the last bone by {worst}");
}
