//! Real models (assets/): the Khronos Fox (3 tail bones under the
//! hips, no end helper, 79 units tall) and the Quaternius Wolf (8 tail bones
//! hanging off `Back`, not the pelvis).

use super::creature::{field_of, hips, length_error, started, walk, Creature};
use caudal::spring::{bend_angle, simulate, SpringParams, TailChain, TailSpring};
use caudal::{Clip, Rig, Trs};
use glam::{Quat, Vec3};

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

/// The tail of `who` on clip `name` swings (more than 2 degrees from rest)
/// without stretching (relative length error under 1e-4) or moving a body
/// joint.
fn assert_swings_rigidly(who: &str, name: &str, r: &RealRun) {
    println!(
        "{who} {name}: relative length error {:.1e}, largest bend from rest {:.1} deg",
        r.len_err, r.max_bend_deg
    );
    assert!(r.len_err < 1e-4, "{name}: tail stretched by {}", r.len_err);
    assert!(!r.body_moved, "{name}: the tail moved a body joint");
    assert!(r.max_bend_deg > 2.0, "{name}: the tail should swing ({} deg)", r.max_bend_deg);
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
        assert_swings_rigidly("fox", name, &r);
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
        assert_swings_rigidly("wolf", name, &real_run(rig, &chain, &clip, 4));
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
    let mut spring = started(5);
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
