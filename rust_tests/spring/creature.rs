//! The test creature (a box body on two legs with a K-bone tail off the
//! pelvis), the hips it is driven by, and read-outs of the spring's state
//! shared by the sections.

use caudal::rig::{Influences, RigParts};
use caudal::spring::{bend_angle, SpringParams, TailChain, TailSpring, Units};
use caudal::{CaudalError, Clip, Rig};
use glam::{EulerRot, Mat4, Quat, Vec3};

pub const HIPS: usize = 0;
pub const FEET: [usize; 2] = [3, 6];

/// How to build a test creature: a box body with a pelvis, two legs and a
/// K-bone tail hanging off the pelvis.
#[derive(Clone)]
pub struct Creature {
    pub bones: usize,
    pub tail_length: f32,
    /// Authored direction of the tail (bind space).
    pub direction: Vec3,
    /// Sideways bend added per joint, radians (a modelled one-sided curve).
    pub side_curve: f32,
    /// Bend in the body's mid plane added per joint, radians (a tail
    /// curled up over the back).
    pub up_curl: f32,
    pub end: bool,
    /// Bind world rotation given to the last tail bone (its head stays put).
    pub last_bone_rotation: Quat,
    /// Loaded pose (rest_local) rotation on the last tail joint.
    pub loaded_last: Option<Quat>,
    pub scale: f32,
}

impl Creature {
    pub fn new(bones: usize) -> Self {
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

    pub fn build(&self) -> (Rig, TailChain) {
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

pub fn metres() -> SpringParams {
    SpringParams { units: Units::PerMetre(1.0), ..Default::default() }
}

pub fn hips(pos: Vec3, rot: Quat) -> Mat4 {
    Mat4::from_rotation_translation(rot, pos)
}

pub fn rest_hips() -> Mat4 {
    hips(Vec3::new(0.0, 1.0, 0.0), Quat::IDENTITY)
}

/// World position of every tail joint head plus the last tip, by forward
/// kinematics from the spring's output (what a renderer would show).
pub fn tail_points(rig: &Rig, chain: &TailChain, parent_world: Mat4, locals: &[Quat]) -> Vec<Vec3> {
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

pub fn max_kink(bends: &[Quat]) -> f32 {
    bends.windows(2).map(|w| bend_angle(w[0].inverse() * w[1])).fold(0.0, f32::max)
}

/// Largest |(|p_i - h_i| - ℓ_i)| over the chain's current state.
pub fn length_error(spring: &TailSpring) -> f32 {
    let mut head = spring.root_head().unwrap();
    let mut worst = 0.0f32;
    for (p, l) in spring.particles().iter().zip(spring.lengths()) {
        worst = worst.max(((*p - head).length() - l).abs());
        head = *p;
    }
    worst
}

pub fn walk(t: f64) -> Mat4 {
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

/// Clip whose hips crouch to the floor and rise again; everything else at bind.
pub fn crouch_clip(rig: &Rig, frames: usize) -> Clip {
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

/// The field an error names (its debug form when it names none).
pub fn field_of(e: &CaudalError) -> String {
    match e {
        CaudalError::Parameter { field, .. }
        | CaudalError::Shape { field, .. }
        | CaudalError::NonFinite { field, .. }
        | CaudalError::IndexOutOfRange { field, .. }
        | CaudalError::NotFound { field, .. } => field.clone(),
        other => format!("{other:?}"),
    }
}

/// The spring of a `bones`-bone creature in metres, started at the rest
/// hips (the rig it was made from already dropped: the spring owns its data).
pub fn started(bones: usize) -> TailSpring {
    let (rig, chain) = Creature::new(bones).build();
    let mut spring = TailSpring::new(&rig, chain, metres()).unwrap();
    spring.step(rest_hips(), 0.0).unwrap();
    spring
}
