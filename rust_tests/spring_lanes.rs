//! `step_many` steps chains side by side in SIMD lanes; a chain in a lane
//! must come out bit for bit as stepped alone, whatever its neighbours do
//! (floor contact, the elastic stop, the forward plane, teleports, other
//! link counts, substep rates and optional parts) and on any thread count.

use caudal::spring::{bend_angle, output_offsets, step_many, SpringParams, TailSpring, Units};
use glam::{EulerRot, Mat4, Quat, Vec3};

use crate::tail_creature::creature;

/// Character `i`: 2-8 bones, and parameters that put neighbouring lanes
/// on different paths (stiff stop, no ground, no coupling, no forward
/// plane, a finer substep rate).
fn character(i: usize) -> TailSpring {
    let (rig, chain) = creature(2 + i % 7);
    let mut p = SpringParams { units: Units::PerMetre(1.0), ..Default::default() };
    if i % 3 == 1 {
        p.stop_deg = 10.0;
    }
    if i % 7 == 3 {
        p.ground = false;
    }
    if i % 11 == 4 {
        p.coupling_rate = 0.0;
    }
    if i % 13 == 5 {
        p.forward_plane = false;
    }
    if i.is_multiple_of(5) {
        p.substep_rate = 240.0;
    }
    TailSpring::new(&rig, chain, p).unwrap()
}

/// Hips of character `i` at time `t`: crouches that put the tail on the
/// floor, fast turns that hit the stop, lunges, and for some characters a
/// jump far enough to count as a teleport.
fn motion(i: usize, t: f32) -> Mat4 {
    let k = i as f32 * 0.37;
    let speed = 1.0 + (i % 4) as f32;
    let y = 0.55 + 0.4 * (1.3 * t + k).sin().abs() - if i.is_multiple_of(2) { 0.4 } else { 0.0 };
    let jump = if i % 17 == 2 && t > 0.8 { 5.0 } else { 0.0 };
    let pos = Vec3::new(0.3 * (speed * t + k).sin() + jump, y, 0.6 * speed * t);
    let rot = Quat::from_euler(
        EulerRot::YXZ,
        1.5 * (speed * 2.0 * t + k).sin(),
        0.4 * (3.0 * t + k).sin(),
        0.2 * (5.0 * t).cos(),
    );
    Mat4::from_rotation_translation(rot, pos)
}

/// The caller's time steps: 60, 30 and 144 fps, and a repeated frame.
fn dt_of(frame: usize) -> f32 {
    match frame % 7 {
        _ if frame == 0 => 0.0,
        1 => 1.0 / 30.0,
        3 => 1.0 / 144.0,
        5 => 0.0,
        _ => 1.0 / 60.0,
    }
}

const CHARACTERS: usize = 1000;
const FRAMES: usize = 120;

/// Everything a run leaves: each frame's output, then the final state.
#[derive(PartialEq, Debug)]
struct Run {
    outputs: Vec<u32>,
    state: Vec<u32>,
    grounded: Vec<bool>,
    teleports: u64,
}

fn bits(qs: impl IntoIterator<Item = Quat>) -> impl Iterator<Item = u32> {
    qs.into_iter().flat_map(|q| q.to_array().map(f32::to_bits))
}

fn vec_bits(vs: &[Vec3]) -> impl Iterator<Item = u32> + '_ {
    vs.iter().flat_map(|v| v.to_array().map(f32::to_bits))
}

fn finish(springs: &[TailSpring], outputs: Vec<u32>) -> Run {
    let mut state = Vec::new();
    let mut grounded = Vec::new();
    for s in springs {
        state.extend(vec_bits(s.particles()));
        state.extend(vec_bits(s.velocities()));
        state.extend(bits(s.bends().iter().copied()));
        grounded.extend_from_slice(s.grounded());
    }
    Run { outputs, state, grounded, teleports: springs.iter().map(|s| s.teleports()).sum() }
}

/// The one-by-one run, the springs after it, and how many link-frames
/// were on the floor.
fn one_by_one() -> (Run, Vec<TailSpring>, usize) {
    let mut springs: Vec<TailSpring> = (0..CHARACTERS).map(character).collect();
    let mut outputs = Vec::new();
    let mut on_floor = 0;
    let mut t = 0.0;
    for f in 0..FRAMES {
        t += dt_of(f);
        for (i, s) in springs.iter_mut().enumerate() {
            outputs.extend(bits(s.step(motion(i, t), dt_of(f)).unwrap().iter().copied()));
            on_floor += s.grounded().iter().filter(|g| **g).count();
        }
    }
    (finish(&springs, outputs), springs, on_floor)
}

fn batched(threads: usize) -> Run {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    pool.install(|| {
        let mut springs: Vec<TailSpring> = (0..CHARACTERS).map(character).collect();
        let mut out = vec![Quat::IDENTITY; *output_offsets(&springs).last().unwrap()];
        let mut outputs = Vec::new();
        let mut t = 0.0;
        for f in 0..FRAMES {
            t += dt_of(f);
            let worlds: Vec<Mat4> = (0..CHARACTERS).map(|i| motion(i, t)).collect();
            step_many(&mut springs, &worlds, dt_of(f), &mut out).unwrap();
            outputs.extend(bits(out.iter().copied()));
        }
        finish(&springs, outputs)
    })
}

#[test]
fn lanes_give_the_one_by_one_bits_for_1000_varied_characters_on_1_and_2_threads() {
    let (single, springs, on_floor) = one_by_one();
    // The run must reach the paths a lane can take apart from its
    // neighbours, or the equality below proves little.
    assert!(on_floor > 1000, "only {on_floor} link-frames on the floor");
    assert!(single.teleports > 0, "no teleport");
    let at_stop = springs
        .iter()
        .filter(|s| s.params().stop_deg == 10.0)
        .flat_map(|s| s.bends().iter().map(|b| bend_angle(*b).to_degrees()))
        .filter(|deg| (*deg - 10.0).abs() < 0.01)
        .count();
    assert!(at_stop > 10, "only {at_stop} bends held at a 10 degree stop");

    let one = batched(1);
    assert!(one == single, "step_many on one thread differs from stepping one by one");
    let two = batched(2);
    assert!(two == one, "step_many differs between 1 and 2 threads");
}
