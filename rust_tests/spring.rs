//! The tail spring (SPEC S, C): the checks the article's authors run, on
//! synthetic rigs with known answers. Rigs are in metres with absolute units
//! (`Units::PerMetre(1.0)`) unless a test is about scaling.

use caudal::rig::{Influences, RigParts};
use caudal::spring::{
    bend_angle, bend_capacity, chain_thickness, output_offsets, simulate, step_many, SpringParams,
    TailChain, TailSpring, Units,
};
use caudal::{CaudalError, Clip, Rig, Trs};
use glam::{EulerRot, Mat4, Quat, Vec3};

const HIPS: usize = 0;
const FEET: [usize; 2] = [3, 6];

/// How to build a test creature: a box body with a pelvis, two legs and a
/// K-bone tail hanging off the pelvis.
#[derive(Clone)]
struct Creature {
    bones: usize,
    tail_length: f32,
    /// Authored direction of the tail (bind space).
    direction: Vec3,
    /// Sideways bend added per joint, radians (a modelled one-sided curve).
    side_curve: f32,
    /// Bend in the body's mid plane added per joint, radians (a tail
    /// curled up over the back).
    up_curl: f32,
    end: bool,
    /// Bind world rotation given to the last tail bone (its head stays put).
    last_bone_rotation: Quat,
    /// Loaded pose (rest_local) rotation on the last tail joint.
    loaded_last: Option<Quat>,
    scale: f32,
}

impl Creature {
    fn new(bones: usize) -> Self {
        Creature {
            bones,
            tail_length: 0.8,
            direction: Vec3::new(0.0, -0.6, -0.8).normalize(),
            side_curve: 0.0,
            up_curl: 0.0,
            end: true,
            last_bone_rotation: Quat::IDENTITY,
            loaded_last: None,
            scale: 1.0,
        }
    }

    fn build(&self) -> (Rig, TailChain) {
        let s = self.scale;
        let mut names: Vec<String> =
            ["Hips", "LeftUpLeg", "LeftLeg", "LeftFoot", "RightUpLeg", "RightLeg", "RightFoot"]
                .iter()
                .map(|n| n.to_string())
                .collect();
        let mut parents = vec![None, Some(0), Some(1), Some(2), Some(0), Some(4), Some(5)];
        let mut heads = vec![
            Vec3::new(0.0, 1.0, 0.0),
            Vec3::new(0.12, 0.95, 0.0),
            Vec3::new(0.12, 0.5, 0.0),
            Vec3::new(0.12, 0.05, 0.05),
            Vec3::new(-0.12, 0.95, 0.0),
            Vec3::new(-0.12, 0.5, 0.0),
            Vec3::new(-0.12, 0.05, 0.05),
        ];
        let mut rots = vec![Quat::IDENTITY; 7];
        let seg = self.tail_length / self.bones as f32;
        let mut p = Vec3::new(0.0, 0.95, -0.12);
        let mut d = self.direction;
        let mut mids = Vec::new();
        let count = self.bones + usize::from(self.end);
        let first = names.len();
        for i in 0..count {
            names.push(if i < self.bones { format!("Tail_{}", i + 1) } else { "Tail_End".into() });
            parents.push(Some(if i == 0 { HIPS } else { first + i - 1 }));
            heads.push(p);
            rots.push(if i + 1 == self.bones { self.last_bone_rotation } else { Quat::IDENTITY });
            mids.push(p + d * seg * 0.5);
            p += d * seg;
            d = Quat::from_rotation_x(self.up_curl) * Quat::from_rotation_y(self.side_curve) * d;
        }
        let bind_world: Vec<Mat4> = heads
            .iter()
            .zip(&rots)
            .map(|(h, r)| Mat4::from_rotation_translation(*r, *h * s))
            .collect();

        // Body box on the hips, one small triangle on every weighted tail bone.
        let mut vertices: Vec<Vec3> = Vec::new();
        for &x in &[-0.2f32, 0.2] {
            for &y in &[0.0f32, 1.4] {
                for &z in &[-0.1f32, 0.15] {
                    vertices.push(Vec3::new(x, y, z) * s);
                }
            }
        }
        let mut triangles: Vec<[u32; 3]> = vec![
            [0, 1, 3],
            [0, 3, 2],
            [4, 6, 7],
            [4, 7, 5],
            [0, 4, 5],
            [0, 5, 1],
            [2, 3, 7],
            [2, 7, 6],
            [0, 2, 6],
            [0, 6, 4],
            [1, 5, 7],
            [1, 7, 3],
        ];
        let mut joint_of = vec![HIPS as u32; 8];
        for (b, &c) in mids.iter().enumerate().take(self.bones) {
            let base = vertices.len() as u32;
            vertices.push((c + Vec3::X * 0.03) * s);
            vertices.push((c - Vec3::X * 0.03) * s);
            vertices.push((c + Vec3::Y * 0.03) * s);
            triangles.push([base, base + 1, base + 2]);
            joint_of.extend([(first + b) as u32; 3]);
        }
        let parts = RigParts {
            vertices,
            triangles,
            influences: Influences::rigid(&joint_of),
            joint_names: names,
            parents,
            bind_world: Some(bind_world),
            ..Default::default()
        };
        let mut rig = Rig::new(parts).unwrap();
        if let Some(q) = self.loaded_last {
            let mut parts = rig.to_parts();
            let mut loaded = rig.bind_locals();
            loaded[first + self.bones - 1].rotation = q;
            parts.rest_local = Some(loaded);
            rig = Rig::new(parts).unwrap();
        }
        let chain = TailChain::find(&rig).unwrap();
        assert_eq!(chain.bones.len(), self.bones);
        assert_eq!(chain.end.is_some(), self.end);
        (rig, chain)
    }
}

fn metres() -> SpringParams {
    SpringParams { units: Units::PerMetre(1.0), ..Default::default() }
}

fn hips(pos: Vec3, rot: Quat) -> Mat4 {
    Mat4::from_rotation_translation(rot, pos)
}

fn rest_hips() -> Mat4 {
    hips(Vec3::new(0.0, 1.0, 0.0), Quat::IDENTITY)
}

/// World position of every tail joint head plus the last tip, by forward
/// kinematics from the spring's output (what a renderer would show).
fn tail_points(rig: &Rig, chain: &TailChain, parent_world: Mat4, locals: &[Quat]) -> Vec<Vec3> {
    let neutral = rig.bind_locals();
    let mut m = parent_world;
    let mut out = Vec::new();
    for (i, &b) in chain.bones.iter().enumerate() {
        let t = &neutral[b];
        m *= Mat4::from_scale_rotation_translation(t.scale, locals[i], t.translation);
        out.push(m.w_axis.truncate());
    }
    let end = chain.end.expect("tail_points needs a Tail_End");
    out.push(m.transform_point3(neutral[end].translation));
    out
}

fn max_kink(bends: &[Quat]) -> f32 {
    bends.windows(2).map(|w| bend_angle(w[0].inverse() * w[1])).fold(0.0, f32::max)
}

/// Largest |(|p_i - h_i| - ℓ_i)| over the chain's current state.
fn length_error(spring: &TailSpring) -> f32 {
    let mut head = spring.root_head().unwrap();
    let mut worst = 0.0f32;
    for (p, l) in spring.particles().iter().zip(spring.lengths()) {
        worst = worst.max(((*p - head).length() - l).abs());
        head = *p;
    }
    worst
}

// ------------------------------------------------------------------------
// Fast hips (SPEC S2 second bug)

/// Documented bounds for the fast-hip moves below, from the elastic stop
/// (SPEC S5, 30 degrees): neighbouring joints' bend angles differ by at most
/// the stop, and their bend rotations (which may point opposite ways in a
/// whip's S-curve) by at most twice the stop. The shipped bug had one joint
/// at 95 degrees against neighbours at 3: a difference of 92. Both bounds
/// must hold even while the forward plane overrides the stop.
const BEND_DIFF_BOUND_DEG: f32 = 30.0 + 0.5;
const KINK_BOUND_DEG: f32 = 60.0 + 0.5;

fn fast_move(bones: usize, distance: f32, seconds: f32, direction: Vec3) -> (f32, f32, f32, f32) {
    let (rig, chain) = Creature::new(bones).build();
    // The hips dive 2 m: no floor here (contact has its own tests).
    let mut spring =
        TailSpring::new(&rig, chain, SpringParams { ground: false, ..metres() }).unwrap();
    let fps = 60.0;
    let dt = 1.0 / fps;
    let frames = ((seconds + 1.5) * fps) as usize;
    let (mut kink, mut len_err, mut max_bend, mut diff) = (0.0f32, 0.0f32, 0.0f32, 0.0f32);
    for f in 0..=frames {
        let t = f as f32 * dt;
        let s = (t / seconds).min(1.0); // constant speed: abrupt start and stop
        let m = hips(Vec3::new(0.0, 1.0, 0.0) + direction * distance * s, Quat::IDENTITY);
        let out = spring.step(m, if f == 0 { 0.0 } else { dt }).unwrap();
        assert!(out.iter().all(|q| q.is_finite()), "NaN rotation at frame {f}");
        assert!(spring.particles().iter().all(|p| p.is_finite()), "NaN particle at frame {f}");
        len_err = len_err.max(length_error(&spring));
        kink = kink.max(max_kink(spring.bends()));
        for w in spring.bends().windows(2) {
            diff = diff.max((bend_angle(w[0]) - bend_angle(w[1])).abs());
        }
        max_bend = spring.bends().iter().map(|q| bend_angle(*q)).fold(max_bend, f32::max);
    }
    assert_eq!(spring.teleports(), 0);
    (kink.to_degrees(), len_err, max_bend.to_degrees(), diff.to_degrees())
}

#[test]
fn fast_hips_stay_smooth_for_3_5_8_bones() {
    let directions = [Vec3::Z, -Vec3::Z, Vec3::X, -Vec3::Y, Vec3::new(0.6, 0.0, -0.8)];
    let mut report = Vec::new();
    for bones in [3, 5, 8] {
        for (distance, seconds) in [(0.5f32, 2.0f32 / 3.0), (2.0, 0.25)] {
            for d in directions {
                let (kink, len_err, bend, diff) = fast_move(bones, distance, seconds, d);
                report.push((kink, len_err, diff, format!("K={bones} {distance} m in {seconds:.3} s dir {d}: bend diff {diff:.1} deg, kink {kink:.1} deg, largest bend {bend:.1} deg, length err {len_err:.1e}")));
            }
        }
    }
    let text = report.iter().map(|r| r.3.clone()).collect::<Vec<_>>().join("\n");
    println!("{text}");
    assert!(report.iter().all(|r| r.1 <= 1e-5), "{text}");
    assert!(report.iter().all(|r| r.0 <= KINK_BOUND_DEG), "{text}");
    assert!(report.iter().all(|r| r.2 <= BEND_DIFF_BOUND_DEG), "{text}");
}

/// The rotations handed out put every bone exactly along its particle: FK of
/// the output reproduces the simulated tips. The output is interpolated one
/// substep behind the simulation (a constant 1/120 s lag that makes it
/// independent of the caller's rate), so at one substep per call it is the
/// previous call's state.
#[test]
fn output_rotations_reproduce_the_particles() {
    let (rig, chain) = Creature::new(5).build();
    let mut spring = TailSpring::new(&rig, chain.clone(), metres()).unwrap();
    let dt = 1.0 / 120.0;
    let mut worst = 0.0f32;
    let mut previous: Option<(Mat4, Vec<Vec3>)> = None;
    for f in 0..240 {
        let t = f as f32 * dt;
        let m = hips(
            Vec3::new(0.3 * (3.0 * t).sin(), 1.0, 0.8 * t),
            Quat::from_rotation_y(0.7 * (2.0 * t).sin()),
        );
        let out = spring.step(m, if f == 0 { 0.0 } else { dt }).unwrap().to_vec();
        if let Some((pm, particles)) = &previous {
            let pts = tail_points(&rig, &chain, *pm, &out);
            for (a, b) in pts[1..].iter().zip(particles) {
                worst = worst.max((*a - *b).length());
            }
        }
        previous = Some((m, spring.particles().to_vec()));
    }
    assert!(worst < 1e-5, "FK of the output is {worst} m off the particles");
}

// ------------------------------------------------------------------------
// Frame-rate independence

fn walk(t: f64) -> Mat4 {
    use std::f64::consts::TAU;
    let pos = Vec3::new(
        (0.15 * (TAU * 0.8 * t).sin()) as f32,
        (1.0 + 0.05 * (TAU * 1.6 * t).sin()) as f32,
        (0.9 * t + 0.2 * (TAU * 0.5 * t).sin()) as f32,
    );
    let rot = Quat::from_euler(
        EulerRot::YXZ,
        (0.6 * (TAU * 0.4 * t).sin()) as f32,
        (0.15 * (TAU * 0.8 * t).sin()) as f32,
        (0.1 * (TAU * 1.1 * t).cos()) as f32,
    );
    hips(pos, rot)
}

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

// ------------------------------------------------------------------------
// Mirror

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

// ------------------------------------------------------------------------
// Bind pose recovery and the end bone (SPEC S6)

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

// ------------------------------------------------------------------------
// Carry and rest arc (SPEC S2 third bug, S3, S7)

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

// ------------------------------------------------------------------------
// Forward plane and ground (SPEC S3, S8, S9)

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

/// Clip whose hips crouch to the floor and rise again; everything else at bind.
fn crouch_clip(rig: &Rig, frames: usize) -> Clip {
    let bind = rig.bind_locals();
    let mut locals = Vec::new();
    for f in 0..frames {
        let t = f as f32 / 30.0;
        let mut frame = bind.clone();
        frame[HIPS].translation = Vec3::new(0.1 * t, 1.0 - 0.85 * (t * 1.5).sin().abs(), 0.3 * t);
        frame[HIPS].rotation = Quat::from_rotation_y(0.5 * (t * 2.0).sin());
        frame[1].rotation = Quat::from_rotation_x(0.8 * (t * 3.0).sin());
        frame[4].rotation = Quat::from_rotation_x(-0.8 * (t * 3.0).sin());
        locals.extend(frame);
    }
    Clip::new("crouch", 30.0, (frames - 1) as f32 / 30.0, rig.joint_count(), locals).unwrap()
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

// ------------------------------------------------------------------------
// Damping (SPEC S1): a released swing decays as ζ says

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

// ------------------------------------------------------------------------
// Clock: teleport, units, batch, bad input

#[test]
fn teleport_restarts_at_rest_but_a_fast_move_does_not() {
    let (rig, chain) = Creature::new(4).build();
    let mut spring = TailSpring::new(&rig, chain, metres()).unwrap();
    spring.step(rest_hips(), 0.0).unwrap();
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

fn field_of(e: &CaudalError) -> String {
    match e {
        CaudalError::Parameter { field, .. }
        | CaudalError::Shape { field, .. }
        | CaudalError::NonFinite { field, .. }
        | CaudalError::IndexOutOfRange { field, .. }
        | CaudalError::NotFound { field, .. } => field.clone(),
        other => format!("{other:?}"),
    }
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
        (SpringParams { forward: Vec3::Y, ..metres() }, "forward"),
        (SpringParams { teleport_distance: -1.0, ..metres() }, "teleport_distance"),
    ];
    for (p, field) in bad {
        assert_eq!(field_of(&TailSpring::new(&rig, chain.clone(), p).unwrap_err()), field);
    }

    let mut springs = vec![TailSpring::new(&rig, chain.clone(), metres()).unwrap()];
    let mut out = vec![Quat::IDENTITY; 4];
    assert_eq!(
        field_of(&step_many(&mut springs, &[], 0.1, &mut out).unwrap_err()),
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

// ------------------------------------------------------------------------
// Real models (assets/): the Khronos Fox (3 tail bones under the
// hips, no end helper, 79 units tall) and the Quaternius Wolf (8 tail bones
// hanging off `Back`, not the pelvis).

fn looped(clip: &Clip, loops: usize) -> Clip {
    let mut locals = Vec::new();
    for _ in 0..loops {
        // Drop the last frame of each loop: it repeats the first.
        for f in 0..clip.frame_count() - 1 {
            locals.extend_from_slice(clip.frame(f));
        }
    }
    let frames = locals.len() / clip.joint_count();
    Clip::new(
        clip.name.clone(),
        clip.rate,
        (frames - 1) as f32 / clip.rate,
        clip.joint_count(),
        locals,
    )
    .unwrap()
}

struct RealRun {
    len_err: f32,
    body_moved: bool,
    max_bend_deg: f32,
    tip_path: Vec<Vec3>,
}

/// Plays `clip` `loops` times through the spring (default parameters,
/// automatic units) and checks what FK of the output does.
fn real_run(rig: &Rig, chain: &TailChain, clip: &Clip, loops: usize) -> RealRun {
    let clip = looped(clip, loops);
    let track = simulate(rig, &clip, chain, &SpringParams::default()).unwrap();
    let bind = rig.bind_locals();
    let neutral_len: Vec<f32> =
        chain.bones.iter().skip(1).map(|&b| bind[b].translation.length()).collect();
    let spring = TailSpring::new(rig, chain.clone(), SpringParams::default()).unwrap();
    let rest = spring.rest_locals();
    let last = *chain.bones.last().unwrap();
    let tip_local = match chain.end {
        Some(e) => bind[e].translation,
        None => bind[last].rotation.inverse() * bind[last].translation / bind[last].scale,
    };
    let body: Vec<usize> = (0..rig.joint_count())
        .filter(|j| !chain.bones.contains(j) && Some(*j) != chain.end)
        .collect();
    let mut r =
        RealRun { len_err: 0.0, body_moved: false, max_bend_deg: 0.0, tip_path: Vec::new() };
    for f in 0..clip.frame_count() {
        let base = clip.frame(f).to_vec();
        let mut with_tail = base.clone();
        for (i, (&b, q)) in chain.bones.iter().zip(track.frame(f)).enumerate() {
            assert!(q.is_finite() && (q.length() - 1.0).abs() < 1e-4, "frame {f} bone {i}: {q}");
            // The spring sets rotations only; translations stay neutral.
            with_tail[b] = Trs::new(bind[b].translation, *q, bind[b].scale);
            r.max_bend_deg = r.max_bend_deg.max(bend_angle(q.inverse() * rest[i]).to_degrees());
        }
        let w0 = caudal::rig::world_matrices(rig.parents(), rig.topological_order(), &base);
        let w1 = caudal::rig::world_matrices(rig.parents(), rig.topological_order(), &with_tail);
        r.body_moved |= body
            .iter()
            .any(|&j| chain.bones.iter().all(|b| !is_ancestor(rig, *b, j)) && w0[j] != w1[j]);
        // Segment lengths under the clip's (scaled) parent equal the
        // neutral lengths scaled the same way: the tail never stretches.
        let scale = w1[chain.anchor].to_scale_rotation_translation().0.x;
        for (k, pair) in chain.bones.windows(2).enumerate() {
            let d = (w1[pair[1]].w_axis - w1[pair[0]].w_axis).truncate().length();
            let want = neutral_len[k] * scale;
            r.len_err = r.len_err.max((d - want).abs() / want);
        }
        r.tip_path.push(w1[last].transform_point3(tip_local));
    }
    r
}

fn is_ancestor(rig: &Rig, a: usize, mut j: usize) -> bool {
    while let Some(p) = rig.parents()[j] {
        if p == a {
            return true;
        }
        j = p;
    }
    false
}

#[test]
fn fox_tail_swings_without_stretching_or_moving_the_body() {
    let m = caudal::gltf_io::load(&crate::common::asset("fox/Fox.glb")).unwrap();
    let rig = m.rig().unwrap();
    let joints: Vec<usize> = ["b_Tail01_012", "b_Tail02_013", "b_Tail03_014"]
        .iter()
        .map(|n| rig.joint_index(n).unwrap())
        .collect();
    let chain = TailChain::from_joints(rig, &joints).unwrap();
    assert_eq!(chain.end, None, "the fox's last tail bone carries weight: no end helper");
    assert_eq!(rig.joint_names()[chain.anchor], "b_Hip_01");
    let spring = TailSpring::new(rig, chain.clone(), SpringParams::default()).unwrap();
    assert!((spring.units_per_metre() - rig.height() / 1.91).abs() < 1e-3 * rig.height());
    for name in ["Walk", "Run"] {
        let clip = m.sample_clip(0, name, 30.0).unwrap();
        let r = real_run(rig, &chain, &clip, 4);
        println!(
            "fox {name}: relative length error {:.1e}, largest bend from rest {:.1} deg",
            r.len_err, r.max_bend_deg
        );
        assert!(r.len_err < 1e-4, "{name}: tail stretched by {}", r.len_err);
        assert!(!r.body_moved, "{name}: the tail moved a body joint");
        assert!(r.max_bend_deg > 2.0, "{name}: the tail should swing ({} deg)", r.max_bend_deg);
        assert!(r.max_bend_deg < 100.0, "{name}: implausible bend {} deg", r.max_bend_deg);
    }
    // Frame-rate independence on a real clip: Run sampled at 30 and 60 Hz.
    let run30 = real_run(rig, &chain, &m.sample_clip(0, "Run", 30.0).unwrap(), 3);
    let run60 = real_run(rig, &chain, &m.sample_clip(0, "Run", 60.0).unwrap(), 3);
    let tail_length = 36.652;
    let worst = run30
        .tip_path
        .iter()
        .zip(run60.tip_path.iter().step_by(2))
        .map(|(a, b)| (*a - *b).length())
        .fold(0.0, f32::max);
    println!(
        "fox Run: tip path 30 vs 60 Hz differs by {:.2}% of the tail length",
        100.0 * worst / tail_length
    );
    assert!(worst <= 0.02 * tail_length, "tip path differs by {worst}");
}

#[test]
fn wolf_eight_bone_tail_hanging_off_the_back() {
    let m = caudal::gltf_io::load(&crate::common::asset("quaternius_wolf/Wolf.gltf")).unwrap();
    let rig = m.rig().unwrap();
    let chain = TailChain::find(rig).unwrap();
    assert_eq!(chain.bones.len(), 8);
    assert_eq!(rig.joint_names()[chain.anchor], "Back");
    for name in ["Walk", "Gallop"] {
        let clip = m.sample_clip(0, name, 30.0).unwrap();
        let r = real_run(rig, &chain, &clip, 4);
        println!(
            "wolf {name}: relative length error {:.1e}, largest bend from rest {:.1} deg",
            r.len_err, r.max_bend_deg
        );
        assert!(r.len_err < 1e-4, "{name}: tail stretched by {}", r.len_err);
        assert!(!r.body_moved, "{name}: the tail moved a body joint");
        assert!(r.max_bend_deg > 2.0, "{name}: the tail should swing ({} deg)", r.max_bend_deg);
    }
}

#[test]
fn tail_chains_are_found_by_the_common_riggers_names() {
    // caudal's own names with Tail_End, and the Fox's and Wolf's spellings.
    let (rig, chain) = Creature::new(5).build();
    assert_eq!(chain.bones, vec![7, 8, 9, 10, 11]);
    assert_eq!(chain.end, Some(12));
    let fox = crate::common::load("fox/Fox.glb");
    let c = TailChain::find(fox.rig().unwrap()).unwrap();
    let names: Vec<&str> =
        c.bones.iter().map(|&j| fox.rig().unwrap().joint_names()[j].as_str()).collect();
    assert_eq!(names, ["b_Tail01_012", "b_Tail02_013", "b_Tail03_014"]);
    assert_eq!(c.end, None);
    // No tail at all: a clear NotFound naming the field.
    let robot = crate::common::load("robot_expressive/RobotExpressive.glb");
    assert_eq!(field_of(&TailChain::find(robot.rig().unwrap()).unwrap_err()), "chain");
    drop(rig);
}

#[test]
fn a_long_hitch_is_capped_not_exploded() {
    let (rig, chain) = Creature::new(5).build();
    let mut spring = TailSpring::new(&rig, chain, metres()).unwrap();
    spring.step(rest_hips(), 0.0).unwrap();
    for f in 1..30 {
        spring.step(walk(f as f64 / 60.0), 1.0 / 60.0).unwrap();
    }
    // A two-second stall, then normal frames: at most max_substeps run for
    // the stall, nothing explodes, lengths hold, the clock carries on.
    // (0.6 m and a half turn: below the teleport distance.)
    let base = walk(29.0 / 60.0).w_axis.truncate();
    let after =
        |t: f32| hips(base + Vec3::new(0.6, 0.0, 0.2 * t), Quat::from_rotation_y(3.0 + 0.5 * t));
    spring.step(after(0.0), 2.0).unwrap();
    assert!(length_error(&spring) < 1e-5);
    assert!(spring.particles().iter().all(|p| p.is_finite()));
    for f in 1..120 {
        spring.step(after(f as f32 / 60.0), 1.0 / 60.0).unwrap();
        assert!(length_error(&spring) < 1e-5);
    }
    assert_eq!(spring.teleports(), 0);
    let speed = spring.velocities().iter().map(|v| v.length()).fold(0.0, f32::max);
    assert!(speed < 5.0, "tail speed {speed} m/s after the hitch");
}
