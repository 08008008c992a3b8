//! Support points: for every bone, the vertices it dominates that are
//! extreme in one of a fixed set of directions (in the bone's bind frame).
//! While a bone moves rigidly, its lowest point in any pose is extreme in
//! some direction, so these few points stand for all of its skin.

use glam::Vec3;

use crate::error::Result;
use crate::rig::{grown_chains, Rig, Trs};

/// Directions are the surface points of a `(2g+1)³` grid (`g` = this): 98
/// directions for 2, at most about 13° apart, so the sampled lowest point of
/// a rigid part is within about 3% of its radius of the true one.
pub const SUPPORT_GRID: i32 = 2;

/// What counts as tail, contact and floor, and the calibration pose.
#[derive(Clone, Debug, PartialEq)]
pub struct GroundParams {
    /// Leave tail points out of both minima (SPEC G). `false` counts them,
    /// as a retargeter blind to tails does: for comparisons.
    pub exclude_tail: bool,
    /// Tail bones: points they dominate are `T`. `None`: every `Tail*`
    /// chain bone of the rig (with its `Tail_End`), none if it has no chain.
    pub tail_joints: Option<Vec<usize>>,
    /// Further tail points by vertex (a tail still weighted to the legs).
    pub tail_vertices: Vec<u32>,
    /// Bones whose dominated points the limbs' contact solvers own (`E`).
    pub contact_joints: Vec<usize>,
    /// Further contact points by vertex.
    pub contact_vertices: Vec<u32>,
    /// `a(t)`: sink below the reference floor the source clip allows, per
    /// frame, each <= 0. `None`: 0 (no sink).
    pub allowed_sink: Option<Vec<f32>>,
    /// Calibration pose (locals of every joint) for `f_body`. `None`: the
    /// bind pose, which never depends on what a player has done to the rig.
    pub calibration: Option<Vec<Trs>>,
    /// World up.
    pub up: Vec3,
}

impl Default for GroundParams {
    fn default() -> Self {
        GroundParams {
            exclude_tail: true,
            tail_joints: None,
            tail_vertices: Vec::new(),
            contact_joints: Vec::new(),
            contact_vertices: Vec::new(),
            allowed_sink: None,
            calibration: None,
            up: Vec3::Y,
        }
    }
}

/// The sampled points with their dominant bones and set memberships.
#[derive(Clone, Debug, PartialEq)]
pub struct SupportPoints {
    /// The sampled vertices.
    pub vertices: Vec<u32>,
    /// Each sampled vertex's dominant bone.
    pub bones: Vec<u32>,
    /// In `T` (tail-dominated or listed as tail).
    pub tail: Vec<bool>,
    /// In `E` (owned by a limb's contact solver).
    pub contact: Vec<bool>,
}

fn directions() -> Vec<Vec3> {
    let g = SUPPORT_GRID;
    let mut out = Vec::new();
    for i in -g..=g {
        for j in -g..=g {
            for k in -g..=g {
                if i.abs().max(j.abs()).max(k.abs()) == g {
                    out.push(Vec3::new(i as f32, j as f32, k as f32).normalize());
                }
            }
        }
    }
    out
}

/// Samples the skin by dominant bone and marks `T` and `E`.
pub fn support_points(rig: &Rig, params: &GroundParams) -> Result<SupportPoints> {
    let tail_joints: Vec<usize> = match &params.tail_joints {
        Some(js) => {
            rig.check_joints("tail_joints", js)?;
            js.clone()
        }
        None => grown_chains(rig.joint_names())
            .into_iter()
            .flat_map(|c| c.bones.into_iter().chain(c.end))
            .collect(),
    };
    rig.check_joints("contact_joints", &params.contact_joints)?;
    rig.check_vertices("tail_vertices", &params.tail_vertices)?;
    rig.check_vertices("contact_vertices", &params.contact_vertices)?;

    let mut listed_tail = vec![false; rig.vertex_count()];
    for &v in &params.tail_vertices {
        listed_tail[v as usize] = true;
    }
    let mut listed_contact = vec![false; rig.vertex_count()];
    for &v in &params.contact_vertices {
        listed_contact[v as usize] = true;
    }
    // Groups: dominant bone, and whether listed as tail or contact, so a
    // listed point never hides an unlisted one of the same bone.
    let dirs = directions();
    let inf = rig.influences();
    let key = |v: usize| {
        inf.dominant_joint(v) as usize * 4
            + usize::from(listed_tail[v]) * 2
            + usize::from(listed_contact[v])
    };
    let mut groups: Vec<Vec<u32>> = vec![Vec::new(); rig.joint_count() * 4];
    for v in 0..rig.vertex_count() {
        groups[key(v)].push(v as u32);
    }
    let mut chosen = vec![false; rig.vertex_count()];
    let mut vertices = Vec::new();
    let mut bones = Vec::new();
    for (g, vs) in groups.iter().enumerate() {
        if vs.is_empty() {
            continue;
        }
        let b = g / 4;
        // The bone's bind frame: extremes are taken along its own axes.
        let rot = Trs::from_matrix(&rig.bind_world()[b]).rotation;
        for d in &dirs {
            let dw = rot * *d;
            let best = vs.iter().copied().max_by(|&a, &c| {
                rig.vertices()[a as usize]
                    .dot(dw)
                    .total_cmp(&rig.vertices()[c as usize].dot(dw))
                    .then(c.cmp(&a))
            });
            if let Some(v) = best {
                if !chosen[v as usize] {
                    chosen[v as usize] = true;
                    vertices.push(v);
                    bones.push(b as u32);
                }
            }
        }
    }
    let tail = vertices
        .iter()
        .zip(&bones)
        .map(|(&v, &b)| tail_joints.contains(&(b as usize)) || listed_tail[v as usize])
        .collect();
    let contact = vertices
        .iter()
        .zip(&bones)
        .map(|(&v, &b)| params.contact_joints.contains(&(b as usize)) || listed_contact[v as usize])
        .collect();
    Ok(SupportPoints { vertices, bones, tail, contact })
}
