//! Clips in model space, as world matrices per frame and joint of the
//! artist's skeleton: a looping walk (legs, arms, a swaying tail; the feet
//! never below the floor) and a
//! crouch that keeps the feet planted and presses a hanging tail onto the
//! floor (the artist's tail bends at its joints to stay on it).

use glam::{Mat4, Quat, Vec3};

use super::character::Character;
use super::skeleton::{Role, Side};
use super::spec::Layout;

/// Keys per second of the corpus' clips.
pub const RATE: f32 = 30.0;
/// Length of the walk clip, seconds (one stride cycle).
pub const WALK_DURATION: f32 = 1.0;
/// Length of the crouch clip, seconds.
pub const CROUCH_DURATION: f32 = 1.5;
/// The crouch lowers the pelvis by this share of the hip height.
pub const CROUCH_DEPTH: f32 = 0.25;
/// A tail joint this close to the floor at the bind pose (share of the
/// height, above its clearance) rests on it.
const FLOOR_CONTACT: f32 = 0.01;
/// Share of the crouch spent going down; the rest holds.
const CROUCH_HOLD: f32 = 1.0 / 3.0;

pub struct Motion {
    pub name: &'static str,
    pub times: Vec<f32>,
    /// `worlds[frame][joint]`, model space.
    pub worlds: Vec<Vec<Mat4>>,
}

/// Forward kinematics with bind frames that are pure translations: each
/// joint's local rotation `rot[j]`, the pelvis moved by `offset`.
fn fk(ch: &Character, rot: &[Quat], offset: Vec3) -> Vec<Mat4> {
    let s = &ch.skel;
    let n = s.joints.len();
    let mut out = vec![Mat4::IDENTITY; n];
    let mut done = vec![false; n];
    let pelvis = s.get(Role::Pelvis);
    fn visit(
        j: usize,
        ch: &Character,
        rot: &[Quat],
        offset: Vec3,
        pelvis: usize,
        out: &mut [Mat4],
        done: &mut [bool],
    ) {
        if done[j] {
            return;
        }
        let joint = &ch.skel.joints[j];
        let extra = if j == pelvis { offset } else { Vec3::ZERO };
        out[j] = match joint.parent {
            Some(p) => {
                visit(p, ch, rot, offset, pelvis, out, done);
                out[p]
                    * Mat4::from_rotation_translation(
                        rot[j],
                        joint.head - ch.skel.joints[p].head + extra,
                    )
            }
            None => Mat4::from_rotation_translation(rot[j], joint.head + extra),
        };
        done[j] = true;
    }
    for j in 0..n {
        visit(j, ch, rot, offset, pelvis, &mut out, &mut done);
    }
    out
}

fn world_rotation(m: &Mat4) -> Quat {
    Quat::from_mat4(m).normalize()
}

fn frames(duration: f32) -> Vec<f32> {
    let n = (duration * RATE).round() as usize + 1;
    (0..n).map(|f| f as f32 * duration / (n - 1) as f32).collect()
}

/// A looping walk: the first and last frames are equal.
pub fn walk(ch: &Character) -> Motion {
    let s = &ch.skel;
    let h = s.height;
    let times = frames(WALK_DURATION);
    let quad = ch.spec.layout == Layout::Quadruped;
    let worlds = times
        .iter()
        .map(|&t| {
            let ph = t / WALK_DURATION * std::f32::consts::TAU;
            let mut rot = vec![Quat::IDENTITY; s.joints.len()];
            let rx = |deg: f32| Quat::from_rotation_x(deg.to_radians());
            for side in Side::BOTH {
                let sign = side.x();
                let knee_phase = if side == Side::Left { 0.0 } else { std::f32::consts::PI };
                let (thigh, shin) = (
                    rx(-25.0 * sign * ph.sin()),
                    rx(30.0 * 0.5 * (1.0 + (ph + knee_phase + 0.6).cos())),
                );
                rot[s.get(Role::Thigh(side))] = thigh;
                rot[s.get(Role::Shin(side))] = shin;
                // The foot stays level, so its toes do not dig into the floor.
                rot[s.get(Role::Foot(side))] = (thigh * shin).inverse();
                let arm = if quad { 20.0 } else { 15.0 };
                rot[s.get(Role::UpperArm(side))] = rx(arm * sign * ph.sin());
                if quad {
                    rot[s.get(Role::ForeArm(side))] = rx(25.0
                        * 0.5
                        * (1.0 + (ph + knee_phase + std::f32::consts::PI + 0.6).cos()));
                }
            }
            rot[s.get(Role::Pelvis)] = Quat::from_rotation_y(5f32.to_radians() * ph.sin());
            rot[s.first_above_pelvis()] = Quat::from_rotation_y(-3f32.to_radians() * ph.sin());
            rot[s.get(Role::Neck(0))] = rx(3.0 * (2.0 * ph).sin());
            for (i, &j) in ch.tail_joints.iter().enumerate() {
                let lag = 0.6 * i as f32;
                // Sways side to side and only ever lifts (a tail lying on
                // the floor must not be pushed through it).
                rot[j] = Quat::from_rotation_y(8f32.to_radians() * (ph - lag).sin())
                    * rx(1.5 * (1.0 + (2.0 * ph - lag).cos()));
            }
            // Sway, no bob: without foot IK a lowered pelvis would push the
            // feet through the floor, which grounding measures would see.
            let offset = Vec3::new(0.02 * h * ph.sin(), 0.0, 0.0);
            fk(ch, &rot, offset)
        })
        .collect();
    Motion { name: "Walk", times, worlds }
}

/// Knee of a two-bone limb from hip `a` to ankle `c` with bone lengths
/// `l1`, `l2`, bending towards `pole`.
fn knee(a: Vec3, c: Vec3, l1: f32, l2: f32, pole: Vec3) -> Vec3 {
    let d = (c - a).length().clamp((l1 - l2).abs() + 1e-6, l1 + l2 - 1e-6);
    let u = (c - a).normalize();
    let w = (pole - pole.dot(u) * u).normalize_or(u.any_orthonormal_vector());
    let cos = ((l1 * l1 + d * d - l2 * l2) / (2.0 * l1 * d)).clamp(-1.0, 1.0);
    a + l1 * (cos * u + (1.0 - cos * cos).sqrt() * w)
}

/// The pelvis sinks, every leg keeps its foot where it stands, and the
/// artist's tail bends at its joints so no joint goes below the floor.
pub fn crouch(ch: &Character) -> Motion {
    let s = &ch.skel;
    let h = s.height;
    let times = frames(CROUCH_DURATION);
    let depth = CROUCH_DEPTH * s.hip_y;
    let mut legs: Vec<[usize; 3]> = Side::BOTH
        .iter()
        .map(|&x| [s.get(Role::Thigh(x)), s.get(Role::Shin(x)), s.get(Role::Foot(x))])
        .collect();
    if ch.spec.layout == Layout::Quadruped {
        legs.extend(
            Side::BOTH.iter().map(|&x| {
                [s.get(Role::UpperArm(x)), s.get(Role::ForeArm(x)), s.get(Role::Hand(x))]
            }),
        );
    }
    let worlds = times
        .iter()
        .map(|&t| {
            let k = (t / (CROUCH_DURATION * (1.0 - CROUCH_HOLD))).min(1.0);
            let k = k * k * (3.0 - 2.0 * k);
            let offset = Vec3::new(0.0, -depth * k, 0.0);
            let mut rot = vec![Quat::IDENTITY; s.joints.len()];
            let mut w = fk(ch, &rot, offset);
            for &[a, b, c] in &legs {
                let (ha, hb, hc) = (s.joints[a].head, s.joints[b].head, s.joints[c].head);
                let hip = w[a].w_axis.truncate();
                let bend = hb - (ha + hc) * 0.5;
                let pole = if bend.length() > 1e-4 * h { bend } else { Vec3::Z };
                let kn = knee(hip, hc, ha.distance(hb), hb.distance(hc), pole);
                let upper = Quat::from_rotation_arc((hb - ha).normalize(), (kn - hip).normalize());
                let lower = Quat::from_rotation_arc((hc - hb).normalize(), (hc - kn).normalize());
                let parent = world_rotation(&w[s.joints[a].parent.unwrap()]);
                rot[a] = parent.inverse() * upper;
                rot[b] = upper.inverse() * lower;
                rot[c] = lower.inverse();
                w = fk(ch, &rot, offset);
            }
            for i in 0..ch.tail_joints.len() {
                let j = ch.tail_joints[i];
                let child = s.children(j).find(|&c| s.joints[c].role.is_tail()).unwrap();
                let p = w[j].w_axis.truncate();
                let c = w[j].transform_point3(s.joints[child].head - s.joints[j].head);
                let arc = (i + 1) as f32 / ch.tail_joints.len() as f32 * ch.tail.length;
                let clearance = ch.tail.radius_at(arc) + 0.004 * h;
                // Where the tail lay on the floor it stays on it; elsewhere
                // it only bends where it would go through.
                let resting = s.joints[child].head.y <= clearance + FLOOR_CONTACT * h;
                if c.y >= clearance && !resting {
                    continue;
                }
                let v = c - p;
                let len = v.length();
                let flat = Vec3::new(v.x, 0.0, v.z).normalize_or(Vec3::NEG_Z);
                let y = (clearance - p.y).clamp(-len, len);
                let target = flat * (len * len - y * y).max(0.0).sqrt() + Vec3::Y * y;
                let turn = Quat::from_rotation_arc(v.normalize(), target.normalize());
                let parent = world_rotation(&w[s.joints[j].parent.unwrap()]);
                rot[j] = parent.inverse() * turn * world_rotation(&w[j]);
                w = fk(ch, &rot, offset);
            }
            w
        })
        .collect();
    Motion { name: "Crouch", times, worlds }
}
