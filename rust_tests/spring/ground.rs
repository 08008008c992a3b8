//! Forward plane and ground (SPEC S3, S8, S9)

use super::creature::{crouch_clip, hips, length_error, metres, tail_points, Creature, FEET, HIPS};
use caudal::spring::{simulate, SpringParams, TailSpring};
use glam::{Quat, Vec3};

#[test]
fn forward_plane_is_never_crossed() {
    let (rig, chain) = Creature::new(5).build();
    let run = |plane: bool| -> f32 {
        let mut spring =
            TailSpring::new(&rig, chain.clone(), SpringParams { forward_plane: plane, ..metres() })
                .unwrap();
        let dt = 1.0 / 60.0;
        let mut worst = f32::NEG_INFINITY;
        for f in 0..=150 {
            let t = f as f32 * dt;
            // Backwards dash then a sudden stop and pitch: throws the tail forward.
            let pos = Vec3::new(0.0, 1.0, -2.0 * (t / 0.25).min(1.0));
            let rot = Quat::from_rotation_x(0.6 * (t * 4.0).sin())
                * Quat::from_rotation_y(0.4 * (t * 3.0).sin());
            let m = hips(pos, rot);
            spring.step(m, if f == 0 { 0.0 } else { dt }).unwrap();
            let root = spring.root_head().unwrap();
            let normal = rot * Vec3::Z;
            let up = rot * Vec3::Y;
            for p in spring.particles() {
                // The plane guards the space below the root (the legs).
                if (*p - root).dot(up) < 0.0 {
                    worst = worst.max((*p - root).dot(normal));
                }
            }
        }
        worst
    };
    let with = run(true);
    let without = run(false);
    assert!(with <= 1e-5, "a particle below the root got {with} m in front of the plane");
    assert!(without > 0.05, "the move must really throw the tail forward ({without})");
    println!("forward plane: worst {with:.1e} m in front with the plane, {without:.3} m without");
}

struct GroundRun {
    below: f32,
    len_err: f32,
    grounded_at_settle: usize,
    settle_speed: f32,
    settle_drift: f32,
    settle_height_err: f32,
    released_min_height: f32,
}

/// Lower the hips from 1 m to `low` over 0.5 s, hold 3 s (settle), lift to
/// 1.8 m over 0.3 s and hold 1.5 s (release).
fn crouch(low: f32, params: SpringParams) -> GroundRun {
    let (rig, chain) = Creature::new(5).build();
    let mut spring = TailSpring::new(&rig, chain, params.clone()).unwrap();
    let floor = params.floor_height + params.clearance;
    let dt = 1.0 / 60.0;
    let mut settle_from = Vec::new();
    let mut r = GroundRun {
        settle_drift: 0.0,
        below: 0.0,
        len_err: 0.0,
        grounded_at_settle: 0,
        settle_speed: 0.0,
        settle_height_err: 0.0,
        released_min_height: 0.0,
    };
    for f in 0..=((0.5 + 3.0 + 0.3 + 1.5) * 60.0) as usize {
        let t = f as f32 * dt;
        let y = if t < 0.5 {
            1.0 + (low - 1.0) * t / 0.5
        } else if t < 3.5 {
            low
        } else {
            low + (1.8 - low) * ((t - 3.5) / 0.3).min(1.0)
        };
        let m = hips(Vec3::new(0.0, y, 0.2 * t.min(0.5)), Quat::IDENTITY);
        spring.step(m, if f == 0 { 0.0 } else { dt }).unwrap();
        assert!(spring.particles().iter().all(|p| p.is_finite()));
        r.len_err = r.len_err.max(length_error(&spring));
        let root_y = spring.root_head().unwrap().y;
        for p in spring.particles() {
            // A head below the floor cannot be helped (u > 1 is clamped):
            // only tips whose head can reach count.
            // The first call places the chain at its rest pose without a
            // step, contacts unapplied: the creature modelled at 53 degrees
            // (above the carry, so not lifted) starts 5 mm under the raised
            // floor. From the first step on, contact holds.
            if root_y > floor && f > 0 {
                r.below = r.below.max(floor - p.y);
            }
        }
        if (t - 3.2).abs() < 0.5 * dt {
            settle_from = spring.particles().to_vec();
        }
        if (t - 3.45).abs() < 0.5 * dt {
            // Settled = the tail no longer moves (measured on positions over
            // the last quarter second of the hold).
            r.settle_drift = spring
                .particles()
                .iter()
                .zip(&settle_from)
                .map(|(a, b)| (*a - *b).length())
                .fold(0.0, f32::max);
            let g = spring.grounded();
            r.grounded_at_settle = g.iter().filter(|g| **g).count();
            r.settle_speed = spring.velocities().iter().map(|v| v.length()).fold(0.0, f32::max);
            r.settle_height_err = spring
                .particles()
                .iter()
                .zip(g)
                .filter(|(_, g)| **g)
                .map(|(p, _)| (p.y - floor).abs())
                .fold(0.0, f32::max);
        }
        if f == ((0.5 + 3.0 + 0.3 + 1.5) * 60.0) as usize {
            r.released_min_height =
                spring.particles().iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
            assert!(spring.grounded().iter().all(|g| !g), "tail stuck to the floor after the lift");
        }
    }
    r
}

#[test]
fn crouch_settles_on_the_floor_and_releases_when_the_hips_lift() {
    let r = crouch(0.4, metres());
    assert!(r.below <= 1e-5, "a tip went {} m under the floor", r.below);
    assert!(r.len_err <= 1e-5, "length error {}", r.len_err);
    assert!(r.grounded_at_settle >= 1, "the crouched tail must lie on the floor");
    assert!(r.settle_height_err <= 1e-5, "grounded tips {} m off the floor", r.settle_height_err);
    assert!(
        r.settle_drift < 1e-3,
        "still moving: {} m in the last 0.25 s of the hold",
        r.settle_drift
    );
    assert!(r.released_min_height > 0.5, "lifted tail lowest point {}", r.released_min_height);
    println!(
        "crouch: {} links grounded, drift {:.1e} m over 0.25 s at settle (stored velocity {:.2} m/s), lifted lowest point {:.2} m",
        r.grounded_at_settle, r.settle_drift, r.settle_speed, r.released_min_height
    );
}

#[test]
fn raised_floor_and_a_head_below_the_floor() {
    let raised = SpringParams { floor_height: 0.45, ..metres() };
    let r = crouch(0.85, raised);
    assert!(r.below <= 1e-5, "a tip went {} m under the raised floor", r.below);
    assert!(r.grounded_at_settle >= 1);
    assert!(r.settle_height_err <= 1e-5);
    // Hips sunk into the floor: the root head is below it; nothing may
    // stretch or explode, and the body is not lifted (it is never touched).
    let r = crouch(-0.2, metres());
    assert!(r.len_err <= 1e-5, "length error {}", r.len_err);
    assert!(r.released_min_height > 0.5);
    // Contact off: the same crouch goes through the floor (the test can fail).
    let r = crouch(0.4, SpringParams { ground: false, ..metres() });
    assert!(r.below > 0.05, "without contact the tail should sink ({})", r.below);
}

#[test]
fn tail_contact_never_moves_pelvis_or_feet() {
    let (rig, chain) = Creature::new(6).build();
    let clip = crouch_clip(&rig, 120);
    let (rig_before, clip_before) = (rig.clone(), clip.clone());
    let track = simulate(&rig, &clip, &chain, &metres()).unwrap();
    assert_eq!(rig, rig_before);
    assert_eq!(clip, clip_before);
    assert_eq!(track.frame_count(), 120);
    let mut touched = 0;
    let mut lowest = f32::INFINITY;
    let mut tail_moved = 0.0f32;
    for f in 0..120 {
        let base = clip.frame(f).to_vec();
        let mut with_tail = base.clone();
        for (b, q) in chain.bones.iter().zip(track.frame(f)) {
            with_tail[*b].rotation = *q;
        }
        let w0 = caudal::rig::world_matrices(rig.parents(), rig.topological_order(), &base);
        let w1 = caudal::rig::world_matrices(rig.parents(), rig.topological_order(), &with_tail);
        for j in [HIPS, 1, 2, FEET[0], 4, 5, FEET[1]] {
            assert_eq!(w0[j], w1[j], "joint {j} moved at frame {f}");
        }
        let tip = chain.bones[5];
        tail_moved = tail_moved.max((w0[tip].w_axis - w1[tip].w_axis).length());
        // Floor contact happens during the crouch.
        let pts = tail_points(&rig, &chain, w1[HIPS], track.frame(f));
        let low = pts.iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
        lowest = lowest.min(low);
        if low < 0.03 {
            touched += 1;
        }
    }
    assert!(touched > 0, "the crouch must bring the tail to the floor (lowest {lowest})");
    assert!(tail_moved > 0.1, "the spring must move the tail ({tail_moved})");
}
