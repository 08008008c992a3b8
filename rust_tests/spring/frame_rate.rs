//! Frame-rate independence

use super::creature::{metres, tail_points, walk, Creature};
use caudal::spring::TailSpring;
use glam::Vec3;

/// Tip positions at every 1/6 s (a time all four rates hit exactly).
fn tip_path(fps: u32, seconds: u32) -> Vec<Vec3> {
    let (rig, chain) = Creature::new(5).build();
    let mut spring = TailSpring::new(&rig, chain.clone(), metres()).unwrap();
    let dt = 1.0 / fps as f32;
    let mut path = Vec::new();
    for f in 0..=(fps * seconds) {
        let m = walk(f as f64 / fps as f64);
        let out = spring.step(m, if f == 0 { 0.0 } else { dt }).unwrap().to_vec();
        if f % (fps / 6) == 0 {
            path.push(*tail_points(&rig, &chain, m, &out).last().unwrap());
        }
    }
    path
}

#[test]
fn tip_path_is_frame_rate_independent() {
    let reference = tip_path(144, 4);
    let tail_length = 0.8;
    let mut report = Vec::new();
    for fps in [24, 30, 60] {
        let path = tip_path(fps, 4);
        assert_eq!(path.len(), reference.len());
        let worst =
            path.iter().zip(&reference).map(|(a, b)| (*a - *b).length()).fold(0.0f32, f32::max);
        report
            .push(format!("{fps} fps vs 144: {:.3}% of tail length", 100.0 * worst / tail_length));
        assert!(worst <= 0.02 * tail_length, "{}", report.last().unwrap());
    }
    // The tip really moves, so agreement means something.
    let travel = reference.windows(2).map(|w| (w[1] - w[0]).length()).sum::<f32>();
    assert!(travel > 1.0, "tip travelled only {travel} m");
    println!("{}", report.join("\n"));
}
