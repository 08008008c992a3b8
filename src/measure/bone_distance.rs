//! Weighted bone distance (SPEC T10, M2): for a vertex, the distance to each
//! bone that moves it, weighted by its skin weights. A tail driven from the
//! shin scores half a metre; skin on its own chain scores about the tail's
//! radius.
//!
//! A joint's bone is the set of segments from its head to its weighted
//! children's heads (or to an end helper, or a short stub past a leaf), the
//! same segments as the skeleton distance field of SPEC T1.

use crate::error::{CaudalError, Result};
use crate::geometry::{point_segment_distance, SkeletonField, LEAF_STUB_RATIO};
use crate::rig::Rig;

/// Per-vertex weighted bone distance `sum_j w_j d(p, bone_j)` of the given
/// vertices (all vertices when `vertices` is `None`).
pub fn weighted_bone_distances(rig: &Rig, vertices: Option<&[u32]>) -> Result<Vec<f32>> {
    let n = rig.vertex_count();
    if let Some(vs) = vertices {
        if let Some((i, &v)) = vs.iter().enumerate().find(|(_, &v)| v as usize >= n) {
            return Err(CaudalError::IndexOutOfRange { field: "vertices".into(), index: i, value: v as i64, bound: n });
        }
    }
    let field = SkeletonField::new(rig, LEAF_STUB_RATIO);
    let mut by_joint: Vec<Vec<usize>> = vec![Vec::new(); rig.joint_count()];
    for (i, s) in field.segments.iter().enumerate() {
        by_joint[s.joint].push(i);
    }
    let one = |v: usize| -> f32 {
        let p = rig.vertices()[v];
        let (js, ws) = rig.influences().of(v);
        let mut acc = 0.0f32;
        for (&j, &w) in js.iter().zip(ws) {
            if w <= 0.0 {
                continue;
            }
            let d = by_joint[j as usize]
                .iter()
                .map(|&s| point_segment_distance(p, field.segments[s].a, field.segments[s].b))
                .fold(f32::INFINITY, f32::min);
            acc += w * d;
        }
        acc
    };
    Ok(match vertices {
        Some(vs) => vs.iter().map(|&v| one(v as usize)).collect(),
        None => (0..n).map(one).collect(),
    })
}

/// Mean weighted bone distance over `vertices` (SPEC T10: the fox's tail
/// went from 47 cm to 17 cm). Zero for an empty list.
pub fn weighted_bone_distance(rig: &Rig, vertices: &[u32]) -> Result<f32> {
    let d = weighted_bone_distances(rig, Some(vertices))?;
    if d.is_empty() {
        return Ok(0.0);
    }
    Ok((d.iter().map(|&x| x as f64).sum::<f64>() / d.len() as f64) as f32)
}
