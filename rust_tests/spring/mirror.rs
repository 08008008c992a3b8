//! Mirror

use super::creature::{hips, metres, Creature};
use caudal::spring::TailSpring;
use glam::{EulerRot, Mat4, Quat, Vec3};

#[test]
fn mirrored_hips_give_the_mirrored_tail() {
    let (rig, chain) = Creature::new(6).build();
    let mut left = TailSpring::new(&rig, chain.clone(), metres()).unwrap();
    let mut right = TailSpring::new(&rig, chain, metres()).unwrap();
    let mirror = Mat4::from_scale(Vec3::new(-1.0, 1.0, 1.0));
    let dt = 1.0 / 60.0;
    let mut worst = 0.0f32;
    let mut sway = 0.0f32;
    for f in 0..=240 {
        let t = f as f32 * dt;
        // A lopsided move: sideways dash, yaw and roll, then a crouch.
        let pos = Vec3::new(0.6 * (t * 1.7).min(1.0), 1.0 - 0.4 * ((t - 2.0).max(0.0)), 0.5 * t);
        let rot = Quat::from_euler(
            EulerRot::YXZ,
            0.9 * (2.3 * t).sin(),
            0.2 * t.sin(),
            0.3 * (1.3 * t).sin(),
        );
        let m = hips(pos, rot);
        let mm = mirror * m * mirror;
        let d = if f == 0 { 0.0 } else { dt };
        left.step(m, d).unwrap();
        right.step(mm, d).unwrap();
        for (a, b) in left.particles().iter().zip(right.particles()) {
            worst = worst.max((*a * Vec3::new(-1.0, 1.0, 1.0) - *b).length());
            sway = sway.max(a.x.abs());
        }
    }
    assert!(sway > 0.2, "the tail must actually swing sideways (max |x| {sway})");
    assert!(worst <= 1e-4, "mirrored tail differs by {worst}");
    println!("mirror: largest difference {worst:.2e} m with sideways swing up to {sway:.2} m");
}
