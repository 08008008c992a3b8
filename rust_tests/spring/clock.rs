//! Clock: teleport, units, batch, bad input

use super::creature::{
    crouch_clip, field_of, hips, metres, rest_hips, started, walk, Creature, HIPS,
};
use caudal::spring::{
    bend_angle, output_offsets, simulate, step_many, BodyPose, SpringParams, TailChain, TailSpring,
    Units,
};
use caudal::{Clip, Trs};
use glam::{EulerRot, Mat4, Quat, Vec3};

#[test]
fn teleport_restarts_at_rest_but_a_fast_move_does_not() {
    let mut spring = started(4);
    for _ in 0..30 {
        spring.step(rest_hips(), 1.0 / 60.0).unwrap();
    }
    let far = hips(Vec3::new(5.0, 1.0, 3.0), Quat::from_rotation_y(1.0));
    spring.step(far, 1.0 / 60.0).unwrap();
    assert_eq!(spring.teleports(), 1);
    assert!(spring.velocities().iter().all(|v| *v == Vec3::ZERO));
    let rest = spring.rest_locals();
    assert_eq!(spring.output(), &rest[..]);
    // 0.5 m in one frame is fast but real: the tail is left behind and
    // whips, no restart.
    let near = hips(Vec3::new(5.5, 1.0, 3.0), Quat::from_rotation_y(1.0));
    for _ in 0..6 {
        spring.step(near, 1.0 / 60.0).unwrap();
    }
    assert_eq!(spring.teleports(), 1);
    let lag = spring
        .output()
        .iter()
        .zip(&rest)
        .map(|(a, b)| bend_angle(a.inverse() * *b))
        .fold(0.0, f32::max);
    assert!(
        lag.to_degrees() > 5.0,
        "the tail should lag behind the jump ({} deg)",
        lag.to_degrees()
    );
}

#[test]
fn physical_parameters_scale_with_the_model() {
    // The same creature exported in centimetres, with automatic units,
    // moves exactly 100x as far.
    let (rig_m, chain_m) = Creature::new(5).build();
    let mut cm = Creature::new(5);
    cm.scale = 100.0;
    let (rig_cm, chain_cm) = cm.build();
    let auto = SpringParams::default();
    let mut a = TailSpring::new(&rig_m, chain_m, auto.clone()).unwrap();
    let mut b = TailSpring::new(&rig_cm, chain_cm, auto).unwrap();
    assert!((b.units_per_metre() / a.units_per_metre() - 100.0).abs() < 1e-3);
    let dt = 1.0 / 60.0;
    let mut worst = 0.0f32;
    for f in 0..=240 {
        let m = walk(f as f64 / 60.0);
        let (s, r, t) = m.to_scale_rotation_translation();
        let m_cm = Mat4::from_scale_rotation_translation(s, r, t * 100.0);
        let d = if f == 0 { 0.0 } else { dt };
        a.step(m, d).unwrap();
        b.step(m_cm, d).unwrap();
        for (p, q) in a.particles().iter().zip(b.particles()) {
            worst = worst.max((*p * 100.0 - *q).length() / 100.0);
        }
    }
    assert!(worst < 1e-4, "centimetre run differs by {worst} m (scaled)");
    // Absolute units do not scale: 1 m/s² on a 100x model barely sags it.
    let abs = SpringParams { units: Units::PerMetre(1.0), ..Default::default() };
    let c = TailSpring::new(&rig_cm, TailChain::find(&rig_cm).unwrap(), abs).unwrap();
    assert_eq!(c.units_per_metre(), 1.0);
}

fn crowd(n: usize) -> (Vec<TailSpring>, Vec<f32>) {
    let mut springs = Vec::new();
    let mut phases = Vec::new();
    for i in 0..n {
        let (rig, chain) = Creature::new(3 + i % 6).build();
        springs.push(TailSpring::new(&rig, chain, metres()).unwrap());
        phases.push(i as f32 * 0.37);
    }
    (springs, phases)
}

#[test]
fn batch_matches_one_by_one_on_any_thread_count() {
    let frames = 90;
    let run_batch = |threads: usize| -> Vec<glam::Quat> {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| {
            let (mut springs, phases) = crowd(40);
            let offsets = output_offsets(&springs);
            let mut out = vec![Quat::IDENTITY; *offsets.last().unwrap()];
            let mut all = Vec::new();
            for f in 0..frames {
                let worlds: Vec<Mat4> =
                    phases.iter().map(|p| walk(f as f64 / 60.0 + *p as f64)).collect();
                step_many(&mut springs, &worlds, if f == 0 { 0.0 } else { 1.0 / 60.0 }, &mut out)
                    .unwrap();
                all.extend_from_slice(&out);
            }
            all
        })
    };
    let (mut springs, phases) = crowd(40);
    let mut single = Vec::new();
    for f in 0..frames {
        for (s, p) in springs.iter_mut().zip(&phases) {
            let o = s
                .step(walk(f as f64 / 60.0 + *p as f64), if f == 0 { 0.0 } else { 1.0 / 60.0 })
                .unwrap();
            single.extend_from_slice(o);
        }
    }
    let one = run_batch(1);
    let two = run_batch(2);
    assert_eq!(one, single, "batch on one thread differs from stepping one by one");
    assert_eq!(one, two, "batch differs between 1 and 2 threads");
}

#[test]
fn bad_input_is_an_error_naming_the_field() {
    let (rig, chain) = Creature::new(4).build();
    let mut spring = TailSpring::new(&rig, chain.clone(), metres()).unwrap();
    spring.step(rest_hips(), 0.0).unwrap();
    let before = spring.particles().to_vec();
    for dt in [f32::NAN, -0.1, f32::INFINITY] {
        assert_eq!(field_of(&spring.step(rest_hips(), dt).unwrap_err()), "dt");
    }
    let mut nan = rest_hips();
    nan.w_axis.x = f32::NAN;
    assert_eq!(field_of(&spring.step(nan, 0.01).unwrap_err()), "parent_world");
    assert_eq!(field_of(&spring.step(Mat4::ZERO, 0.01).unwrap_err()), "parent_world");
    assert_eq!(spring.particles(), &before[..], "a rejected step must not move the tail");

    let n = rig.joint_count();
    assert_eq!(field_of(&TailChain::new(&rig, vec![7, n + 3], None).unwrap_err()), "chain");
    assert_eq!(field_of(&TailChain::new(&rig, vec![7, 9], None).unwrap_err()), "chain"); // not parent-child
    assert_eq!(field_of(&TailChain::new(&rig, vec![], None).unwrap_err()), "chain");
    assert_eq!(field_of(&TailChain::new(&rig, vec![0, 1], None).unwrap_err()), "chain"); // root without parent
    assert_eq!(field_of(&TailChain::new(&rig, vec![7], None).unwrap_err()), "chain"); // one bone, no end
    assert_eq!(field_of(&TailChain::new(&rig, vec![7], Some(2)).unwrap_err()), "chain");
    assert!(TailChain::from_joints(&rig, &[7, 8, 9, 10, 11]).unwrap().end == Some(11));

    let bad = [
        (SpringParams { damping_ratio: -1.0, ..metres() }, "damping_ratio"),
        (SpringParams { root_frequency: f32::NAN, ..metres() }, "root_frequency"),
        (SpringParams { rest_curve: 2.0, ..metres() }, "rest_curve"),
        (SpringParams { stop_deg: 0.0, ..metres() }, "stop_deg"),
        (SpringParams { substep_rate: 5.0, ..metres() }, "substep_rate"),
        (SpringParams { units: Units::PerMetre(0.0), ..metres() }, "units_per_metre"),
        (SpringParams { forward: Some(Vec3::Y), ..metres() }, "forward"),
        (SpringParams { teleport_distance: -1.0, ..metres() }, "teleport_distance"),
    ];
    for (p, field) in bad {
        assert_eq!(field_of(&TailSpring::new(&rig, chain.clone(), p).unwrap_err()), field);
    }

    let mut springs = vec![TailSpring::new(&rig, chain.clone(), metres()).unwrap()];
    let mut out = vec![Quat::IDENTITY; 4];
    assert_eq!(
        field_of(&step_many::<_, BodyPose>(&mut springs, &[], 0.1, &mut out).unwrap_err()),
        "parent_worlds"
    );
    assert_eq!(
        field_of(&step_many(&mut springs, &[rest_hips()], 0.1, &mut out[..3]).unwrap_err()),
        "out"
    );
    assert_eq!(
        field_of(&step_many(&mut springs, &[nan], 0.1, &mut out).unwrap_err()),
        "parent_worlds"
    );

    let other = Clip::new("x", 30.0, 0.0, 3, vec![Trs::IDENTITY; 3]).unwrap();
    assert_eq!(field_of(&simulate(&rig, &other, &chain, &metres()).unwrap_err()), "clip");
}

#[test]
fn simulate_equals_stepping_by_hand() {
    let (rig, chain) = Creature::new(5).build();
    let clip = crouch_clip(&rig, 60);
    let track = simulate(&rig, &clip, &chain, &metres()).unwrap();
    let mut spring = TailSpring::new(&rig, chain.clone(), metres()).unwrap();
    for f in 0..60 {
        let w = caudal::rig::world_matrices(rig.parents(), rig.topological_order(), clip.frame(f));
        let out = spring.step(w[HIPS], if f == 0 { 0.0 } else { 1.0 / 30.0 }).unwrap();
        assert_eq!(out, track.frame(f));
    }
}

#[test]
fn fast_slerp_stays_within_1e4_rad_of_slerp_up_to_90_degrees() {
    use caudal::spring::{fast_slerp, slerp};
    let mut worst = 0.0f32;
    for i in 0..40 {
        let a = Quat::from_euler(EulerRot::YXZ, 0.3 * i as f32, 0.17 * i as f32, -0.11 * i as f32);
        for j in 1..=18 {
            let b = a * Quat::from_axis_angle(
                Vec3::new(1.0, 2.0, -0.5).normalize(),
                (j * 5) as f32 * 0.0174533,
            );
            for t in [0.0f32, 0.02, 0.1, 0.18, 0.33, 0.5, 0.77, 1.0] {
                worst = worst.max(bend_angle(fast_slerp(a, b, t).inverse() * slerp(a, b, t)));
            }
        }
    }
    assert!(worst < 1e-4, "fast slerp off by {worst} rad");
}

/// Mean neighbour kink over a fast move, with the given coupling rate.
fn mean_kink(coupling_rate: f32, bones: usize) -> f32 {
    let (rig, chain) = Creature::new(bones).build();
    let params = SpringParams { coupling_rate, ground: false, ..metres() };
    let mut spring = TailSpring::new(&rig, chain, params).unwrap();
    let dt = 1.0 / 60.0;
    let mut sum = 0.0;
    let mut count = 0;
    for f in 0..=150 {
        let t = f as f32 * dt;
        let m = hips(
            Vec3::new(0.8 * (t / 0.5).min(1.0), 1.0, 0.3 * t),
            Quat::from_rotation_y(1.2 * (3.0 * t).sin()),
        );
        spring.step(m, if f == 0 { 0.0 } else { dt }).unwrap();
        for w in spring.bends().windows(2) {
            sum += bend_angle(w[0].inverse() * w[1]);
            count += 1;
        }
    }
    (sum / count as f32).to_degrees()
}

#[test]
fn coupling_smooths_neighbouring_bends() {
    for bones in [4, 8] {
        let free = mean_kink(0.0, bones);
        let coupled = mean_kink(12.0, bones);
        println!(
            "K={bones}: mean neighbour kink {free:.2} deg uncoupled, {coupled:.2} deg coupled"
        );
        assert!(
            coupled < 0.8 * free,
            "K={bones}: coupling must smooth the bends ({coupled} vs {free})"
        );
    }
}

/// Holds the hips still with the given tail and reports, over the last
/// half second of `seconds`, the largest change of each link's bend and
/// of its velocity (degrees, velocity as `|Δv| / (ℓ ω)` like the bake's
/// warm-up check), and each link's final bend.
fn held_against_gravity(bones: usize, params: SpringParams, seconds: f32) -> (f32, f32, Vec<f32>) {
    let mut c = Creature::new(bones);
    c.direction = Vec3::new(0.0, 0.0, -1.0);
    let (rig, chain) = c.build();
    let mut spring = TailSpring::new(&rig, chain, params).unwrap();
    let dt = 1.0 / 30.0;
    let frames = (seconds / dt).round() as usize;
    let (l, w): (Vec<f32>, Vec<f32>) = (
        spring.lengths(),
        spring.frequencies().iter().map(|f| std::f32::consts::TAU * f).collect(),
    );
    spring.step(rest_hips(), 0.0).unwrap();
    let (mut bend_change, mut vel_change) = (0.0f32, 0.0f32);
    let mut last: Option<(Vec<Quat>, Vec<Vec3>)> = None;
    for f in 0..frames {
        spring.step(rest_hips(), dt).unwrap();
        if f + 15 >= frames {
            if let Some((b, v)) = &last {
                for i in 0..bones {
                    bend_change = bend_change
                        .max(bend_angle(b[i].inverse() * spring.bends()[i]).to_degrees());
                    vel_change = vel_change.max(
                        ((spring.velocities()[i] - v[i]).length() / (l[i] * w[i])).to_degrees(),
                    );
                }
            }
            last = Some((spring.bends().to_vec(), spring.velocities().to_vec()));
        }
    }
    (bend_change, vel_change, spring.bends().iter().map(|b| bend_angle(*b).to_degrees()).collect())
}

#[test]
fn a_tail_held_on_the_elastic_stop_settles() {
    // A level tail under more gravity than the default sags onto the stop
    // while the coupling pulls its bends back inside. Held still it must
    // come to rest. Cutting all outward velocity at the stop made such
    // links cycle (these cases: up to 5 degrees of bend and 35 degrees of
    // velocity change over the last half second of 30 s).
    for (gravity, carry_deg, bones) in [(4.0, 0.0, 3), (4.0, 0.0, 4), (4.0, 50.0, 4), (9.8, 0.0, 3)]
    {
        let params = SpringParams { gravity, carry_deg, ground: false, ..metres() };
        let (bend_change, vel_change, bends) = held_against_gravity(bones, params, 30.0);
        println!("g {gravity}, carry {carry_deg}, K={bones}: bends {bends:.2?} deg, last 0.5 s change {bend_change:.4} deg, velocity {vel_change:.4} deg");
        let on_stop = bends.iter().filter(|b| **b > 29.99).count();
        assert!(
            on_stop >= 1 && bends.iter().all(|b| *b < 30.01),
            "the case must rest on the stop: {bends:?}"
        );
        assert!(
            bend_change < 0.01 && vel_change < 0.05,
            "K={bones}, g {gravity}: still moving ({bend_change}, {vel_change})"
        );
    }
}

/// A level tail pointing back, pressed onto its stop by a strong gravity
/// for `hold` seconds with the hips still; then the hips turn 90° in 0.3 s.
/// Returns the largest bend at the end of the hold, the largest link speed
/// then (m/s), and every link's bend (degrees) each frame of the second
/// after the turn starts.
fn pressed_then_turned(hold: f32) -> (f32, f32, Vec<f32>) {
    let mut c = Creature::new(4);
    c.direction = Vec3::new(0.0, 0.0, -1.0);
    let (rig, chain) = c.build();
    let params = SpringParams { gravity: 9.8, carry_deg: 0.0, ground: false, ..metres() };
    let mut spring = TailSpring::new(&rig, chain, params).unwrap();
    let dt = 1.0f32 / 60.0;
    spring.step(rest_hips(), 0.0).unwrap();
    for _ in 0..(hold / dt).round() as usize {
        spring.step(rest_hips(), dt).unwrap();
    }
    let most_bend = spring.bends().iter().map(|b| bend_angle(*b).to_degrees()).fold(0.0, f32::max);
    let stored = spring.velocities().iter().map(|v| v.length()).fold(0.0, f32::max);
    let mut after = Vec::new();
    for f in 1..=60 {
        let turn = (f as f32 * dt / 0.3).min(1.0) * std::f32::consts::FRAC_PI_2;
        spring.step(hips(Vec3::new(0.0, 1.0, 0.0), Quat::from_rotation_y(turn)), dt).unwrap();
        after.extend(spring.bends().iter().map(|b| bend_angle(*b).to_degrees()));
    }
    (most_bend, stored, after)
}

#[test]
fn pressing_on_the_stop_stores_no_velocity() {
    // SPEC S5: no accumulation against the stop and no sudden release. The
    // stop limits positions only; the velocity a push leaves pointing past
    // it is held by the damping to a steady value (at most g / (2ζω) of the
    // softest link), the same after four seconds pressed as after twelve, so
    // the tail answers a turn the same way after either.
    let (bend_1, stored_1, after_1) = pressed_then_turned(4.0);
    let (bend_8, stored_8, after_8) = pressed_then_turned(12.0);
    let bound = 9.8 / (2.0 * 0.65 * std::f32::consts::TAU * 0.9 * 0.5);
    let differ = after_1.iter().zip(&after_8).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
    println!("pressed 4 s: bend {bend_1:.2} deg, speed {stored_1:.3} m/s; 12 s: {bend_8:.2} deg, {stored_8:.3} m/s (bound {bound:.3}); the turn after differs by {differ:.5} deg");
    assert!(bend_1 > 29.99 && bend_8 > 29.99, "the tail must rest on the stop");
    assert!(
        stored_8 <= bound && (stored_8 - stored_1).abs() <= 1e-3 * bound,
        "velocity accumulates on the stop: {stored_1} then {stored_8}"
    );
    assert!(
        differ < 0.01,
        "the answer to a turn depends on how long the tail was pressed: {differ} deg"
    );
}

#[test]
fn a_chain_from_another_rig_is_rejected_not_a_panic() {
    let (small, _) = Creature::new(3).build();
    let (_, big_chain) = Creature::new(8).build();
    let err = TailSpring::new(&small, big_chain, metres()).unwrap_err();
    assert_eq!(field_of(&err), "chain");
    let forged = TailChain { bones: vec![7, 8], end: None, anchor: 3 };
    let (rig, _) = Creature::new(4).build();
    // Anchor is recomputed from the rig, not trusted.
    let s = TailSpring::new(&rig, forged, metres()).unwrap();
    assert_eq!(s.chain().anchor, HIPS);
}
