//! Carry and rest arc (SPEC S2 third bug, S3, S7)

use super::creature::{max_kink, metres, rest_hips, Creature};
use caudal::spring::{
    bend_angle, bend_capacity, chain_thickness, SpringParams, TailChain, TailSpring,
};
use caudal::Rig;
use glam::Vec3;

/// Lift of a direction above hanging straight down, about the lateral axis,
/// degrees (positive = back and up).
fn lift_deg(d: Vec3) -> f32 {
    (-d.z).atan2(-d.y).to_degrees()
}

fn settled(bones: usize, params: SpringParams) -> (TailSpring, Vec<f32>) {
    let mut c = Creature::new(bones);
    c.direction = -Vec3::Y; // modelled hanging straight down between the legs
    let (rig, chain) = c.build();
    let mut spring = TailSpring::new(&rig, chain, params).unwrap();
    spring.step(rest_hips(), 0.0).unwrap();
    for _ in 0..600 {
        spring.step(rest_hips(), 1.0 / 60.0).unwrap();
    }
    let mut head = spring.root_head().unwrap();
    let mut lifts = Vec::new();
    for p in spring.particles() {
        lifts.push(lift_deg((*p - head).normalize()));
        head = *p;
    }
    (spring, lifts)
}

#[test]
fn carry_is_the_lift_of_the_whole_tail_for_4_and_8_bones() {
    // The rest arc itself: exactly the carry at the last link, C/N per joint.
    for bones in [4, 8] {
        let (_, lifts) = settled(bones, SpringParams { gravity: 0.0, ..metres() });
        for (i, l) in lifts.iter().enumerate() {
            let want = 50.0 * (i + 1) as f32 / bones as f32;
            assert!((l - want).abs() < 0.05, "K={bones} link {i}: lift {l}, want {want}");
        }
    }
    // With gravity and coupling at work: same total lift within 3 degrees
    // and a smooth arc (neighbouring joints bend alike).
    let (s4, l4) = settled(4, metres());
    let (s8, l8) = settled(8, metres());
    let (t4, t8) = (*l4.last().unwrap(), *l8.last().unwrap());
    println!(
        "settled total lift: 4 bones {t4:.2} deg, 8 bones {t8:.2} deg; arcs {l4:.1?} {l8:.1?}"
    );
    assert!((t4 - t8).abs() <= 3.0, "4 bones lift {t4}, 8 bones {t8}");
    // Without carry a tail modelled hanging straight down stays at 0.
    assert!(t4 > 10.0 && t8 > 10.0, "the tail must be carried, not hang ({t4}, {t8})");
    for (lifts, s) in [(&l4, &s4), (&l8, &s8)] {
        let n = lifts.len() as f32;
        // Per-joint bends (lift steps) change gradually along the tail: no
        // neighbour pair differs by a whole joint's share of the carry.
        let steps: Vec<f32> =
            std::iter::once(lifts[0]).chain(lifts.windows(2).map(|w| w[1] - w[0])).collect();
        for w in steps.windows(2) {
            assert!((w[1] - w[0]).abs() < 50.0 / n, "uneven arc {steps:?}");
        }
        assert!(max_kink(s.bends()).to_degrees() < 5.0);
    }
}

#[test]
fn carry_is_a_target_elevation_not_a_turn() {
    // A tail modelled at elevation e above straight down is lifted by
    // max(0, 50 - e): a tail at 30 degrees ends at the carry's 50, a level
    // one (90) and one curled up over the back (120) keep their own.
    for (modelled, want) in [(0.0f32, 50.0f32), (30.0, 50.0), (90.0, 90.0), (120.0, 120.0)] {
        let mut c = Creature::new(4);
        let e = modelled.to_radians();
        c.direction = Vec3::new(0.0, -e.cos(), -e.sin());
        let (rig, chain) = c.build();
        let mut spring =
            TailSpring::new(&rig, chain, SpringParams { gravity: 0.0, ground: false, ..metres() })
                .unwrap();
        spring.step(rest_hips(), 0.0).unwrap();
        for _ in 0..600 {
            spring.step(rest_hips(), 1.0 / 60.0).unwrap();
        }
        // The last link carries the whole lift (link i gets (i+1)/N of it).
        let p = spring.particles();
        let lift = lift_deg((p[p.len() - 1] - p[p.len() - 2]).normalize());
        assert!(
            (lift - want).abs() < 0.1,
            "modelled at {modelled} deg: rests at {lift}, want {want}"
        );
    }
}

#[test]
fn a_stub_bends_less_by_its_bend_capacity() {
    // The creature's tail skin lies 0.03 m round its centre line (thickness
    // 0.06 m); four bones on 0.2 m are 0.05 m long: κ = 0.05 / (r 0.06).
    let mut c = Creature::new(4);
    c.direction = -Vec3::Y;
    c.tail_length = 0.2;
    let (rig, chain) = c.build();
    let (thickness, bone) = chain_thickness(&rig, &chain).unwrap();
    assert!(
        (thickness - 0.06).abs() < 1e-5 && (bone - 0.05).abs() < 1e-5,
        "thickness {thickness}, bone {bone}"
    );
    assert!(
        (bend_capacity(&rig, &chain, 0.5) - 1.0).abs() < 1e-6,
        "slender enough at the default ratio"
    );
    let kappa = bend_capacity(&rig, &chain, 2.0);
    assert!((kappa - 0.05 / 0.12).abs() < 1e-5, "κ {kappa}");
    assert_eq!(bend_capacity(&rig, &chain, 0.0), 1.0, "0 turns it off");

    // The carry and the stop shrink by κ: the settled rest arc lifts κ x 50°,
    // and a tail pressed by a strong gravity rests on a stop of κ x 30°.
    let mut level = c.clone();
    level.direction = Vec3::new(0.0, 0.0, -1.0);
    let level = level.build();
    let run = |(rig, chain): &(Rig, TailChain), params: SpringParams| {
        let mut spring = TailSpring::new(rig, chain.clone(), params).unwrap();
        spring.step(rest_hips(), 0.0).unwrap();
        for _ in 0..600 {
            spring.step(rest_hips(), 1.0 / 60.0).unwrap();
        }
        let mut head = spring.root_head().unwrap();
        let mut lift = 0.0;
        for p in spring.particles() {
            lift = lift_deg((*p - head).normalize());
            head = *p;
        }
        (
            spring.bend_capacity(),
            lift,
            spring.bends().iter().map(|b| bend_angle(*b).to_degrees()).fold(0.0, f32::max),
        )
    };
    let hanging = (rig.clone(), chain.clone());
    let (k, lift, _) = run(&hanging, SpringParams { gravity: 0.0, bend_capacity: 2.0, ..metres() });
    assert!(
        (k - kappa).abs() < 1e-6 && (lift - 50.0 * kappa).abs() < 0.05,
        "κ {k}: lift {lift}, want {}",
        50.0 * kappa
    );
    let (_, full, _) = run(&hanging, SpringParams { gravity: 0.0, bend_capacity: 0.0, ..metres() });
    assert!((full - 50.0).abs() < 0.05, "no capacity: lift {full}");
    let (_, _, most) = run(
        &level,
        SpringParams {
            gravity: 40.0,
            carry_deg: 0.0,
            ground: false,
            bend_capacity: 2.0,
            ..metres()
        },
    );
    assert!((most - 30.0 * kappa).abs() < 0.01, "pressed bend {most}, stop {}", 30.0 * kappa);
}

#[test]
fn rest_curve_centres_a_one_sided_tail() {
    let mut c = Creature::new(5);
    c.side_curve = 12f32.to_radians();
    let (rig, chain) = c.build();
    for (beta, expect_centred) in [(0.0, true), (1.0, false)] {
        let p = SpringParams { rest_curve: beta, carry_deg: 0.0, gravity: 0.0, ..metres() };
        let mut spring = TailSpring::new(&rig, chain.clone(), p).unwrap();
        spring.step(rest_hips(), 0.0).unwrap();
        let side = spring.particles().iter().map(|p| p.x.abs()).fold(0.0f32, f32::max);
        if expect_centred {
            assert!(side < 1e-5, "restCurve 0 leaves the tail {side} m to the side");
        } else {
            // restCurve 1 keeps the modelled curve: the bind geometry itself.
            let bind = rig.bind_heads();
            for (i, p) in spring.particles().iter().enumerate() {
                let want = bind[chain.bones[0] + i + 1];
                assert!((*p - want).length() < 1e-5, "link {i}: {p} vs bind {want}");
            }
            assert!(side > 0.05);
        }
    }
}

/// restCurve 0 centres the tail sideways but keeps a curl in the body's mid
/// plane: unrolling a tail curled over the back at rest squashed the
/// Shiba's skin without any motion (see REST_CURVE).
#[test]
fn rest_curve_keeps_a_curl_over_the_back() {
    let mut c = Creature::new(5);
    c.up_curl = 25f32.to_radians();
    let (rig, chain) = c.build();
    let p = SpringParams {
        rest_curve: 0.0,
        carry_deg: 0.0,
        gravity: 0.0,
        forward_plane: false,
        ..metres()
    };
    let mut spring = TailSpring::new(&rig, chain.clone(), p.clone()).unwrap();
    spring.step(rest_hips(), 0.0).unwrap();
    let bind = rig.bind_heads();
    for (i, p) in spring.particles().iter().enumerate() {
        let want = bind[chain.bones[0] + i + 1];
        assert!((*p - want).length() < 1e-5, "link {i}: {p} vs bind {want}");
    }
    // The curl is real: the tip rises above the root.
    let rise = bind[chain.bones[0] + 5].y - bind[chain.bones[0]].y;
    assert!(rise > 0.1, "tip rise {rise}");

    // With a side curve as well, only the side part goes.
    c.side_curve = 12f32.to_radians();
    let (rig, chain) = c.build();
    let mut spring = TailSpring::new(&rig, chain.clone(), p).unwrap();
    spring.step(rest_hips(), 0.0).unwrap();
    let side = spring.particles().iter().map(|p| p.x.abs()).fold(0.0f32, f32::max);
    assert!(side < 1e-5, "restCurve 0 leaves the tail {side} m to the side");
    let tip = spring.particles()[4];
    assert!(tip.y - bind[chain.bones[0]].y > 0.1, "curl lost: tip {tip}");
}
