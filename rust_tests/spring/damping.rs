//! Damping (SPEC S1): a released swing decays as ζ says

use super::creature::{hips, metres, rest_hips, Creature};
use caudal::spring::{SpringParams, TailSpring};
use glam::{Quat, Vec3};

fn released_swing(zeta: f32) -> (f32, f32, f32) {
    let mut c = Creature::new(1);
    c.tail_length = 0.14; // 0.1 H: the link swings at exactly root_frequency
    let (rig, chain) = c.build();
    let params = SpringParams {
        damping_ratio: zeta,
        gravity: 0.0,
        ground: false,
        forward_plane: false,
        ..metres()
    };
    let mut spring = TailSpring::new(&rig, chain, params).unwrap();
    let dt = 1.0 / 120.0;
    spring.step(rest_hips(), 0.0).unwrap();
    // Snap-turn the hips 20 degrees and hold: the tail is left behind and
    // swings back with nothing else acting on it.
    let turned = hips(Vec3::new(0.0, 1.0, 0.0), Quat::from_rotation_y(20f32.to_radians()));
    let mut xs = Vec::new();
    let frequency = spring.frequencies()[0];
    for _ in 0..1200 {
        spring.step(turned, dt).unwrap();
        let local = turned.inverse().transform_point3(spring.particles()[0]);
        xs.push(local.x);
    }
    // Extrema after the release (skip the first, set by the snap itself).
    // A turning point where two samples are exactly equal is still one
    // extremum: compare each step with the last step that moved.
    let mut ext = Vec::new();
    let mut last_step = 0.0f32;
    for i in 1..xs.len() {
        let step = xs[i] - xs[i - 1];
        if step == 0.0 {
            continue;
        }
        if last_step * step < 0.0 {
            ext.push((i - 1, xs[i - 1]));
        }
        last_step = step;
    }
    let rest_x = *xs.last().unwrap();
    assert!(ext.len() >= 3, "no oscillation found: {ext:?}");
    let (i1, x1) = ext[0];
    let (i2, x2) = ext[1];
    // Two successive extrema are half a period apart: ratio e^{-δ/2}.
    let delta = 2.0 * ((x1 - rest_x) / (x2 - rest_x)).abs().ln();
    let half_period = (i2 - i1) as f32 * dt;
    (delta, half_period, frequency)
}

#[test]
fn released_swing_decays_as_the_damping_ratio_says() {
    for zeta in [0.65f32, 0.3] {
        let (delta, half_period, frequency) = released_swing(zeta);
        assert!(
            (frequency - 0.9).abs() < 0.01,
            "a 0.1 H link swings at the root frequency ({frequency})"
        );
        let omega = std::f32::consts::TAU * frequency;
        let want = std::f32::consts::TAU * zeta / (1.0 - zeta * zeta).sqrt();
        let want_half = std::f32::consts::PI / (omega * (1.0 - zeta * zeta).sqrt());
        println!("zeta {zeta}: log decrement {delta:.3} (theory {want:.3}), half period {half_period:.3} s (theory {want_half:.3})");
        assert!(
            (delta - want).abs() <= 0.1 * want,
            "zeta {zeta}: log decrement {delta}, theory {want}"
        );
        assert!(
            (half_period - want_half).abs() <= 0.1 * want_half,
            "zeta {zeta}: half period {half_period}"
        );
    }
}
