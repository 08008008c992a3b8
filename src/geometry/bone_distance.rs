//! Weighted bone distance (SPEC T10, M2): for a vertex, the distance to each
//! bone that moves it, weighted by its skin weights. A tail driven from the
//! shin scores half a metre; skin on its own chain scores about the tail's
//! radius.
//!
//! A joint's bone is the set of segments from its head to its weighted
//! children's heads (or to an end helper, or a short stub past a leaf), the
//! same segments as the skeleton distance field of SPEC T1.

use glam::Vec3A;

use super::{SkeletonField, LEAF_STUB_RATIO};
use crate::error::Result;
use crate::rig::Rig;

/// A segment as `(a, b - a, |b - a|^2)`: what [`super::point_segment_distance`]
/// computes first, computed once. In SIMD lanes: each lane's arithmetic is
/// the scalar one, and the dot product sums `(x + y) + z` as [`glam::Vec3`]'s
/// does, so every distance is the same to the bit in fewer instructions.
type Segment = (Vec3A, Vec3A, f32);

/// The bones of one rig, ready to score many vertex sets: the skeleton
/// field and each joint's segments are built once (detection scores every
/// part before and after, a dozen sets on one rig).
pub struct BoneDistance<'a> {
    rig: &'a Rig,
    /// Per joint its segments.
    by_joint: Vec<Vec<Segment>>,
    /// Per rig vertex its distance once [`Self::mean_noting`] measured it
    /// (NaN where it did not); empty until then.
    noted: Vec<f32>,
}

/// Weighted bone distances measured on one rig ([`BoneDistance::mean_noting`]),
/// kept with the bones they were measured on, to be read again on a rig
/// with the same mesh (the repaired rig: joints appended, some skin rows
/// replaced). A vertex whose row is the same and whose joints have the same
/// bones has the same distance there, the same arithmetic on the same
/// numbers ([`BoneDistance::mean_after`]).
#[derive(Clone, Debug, Default)]
pub struct MeasuredDistances {
    by_joint: Vec<Vec<Segment>>,
    /// Per rig vertex, NaN where not measured (or empty: none was).
    of: Vec<f32>,
}

/// Whether two joints' segment lists are the same to the bit.
fn same_segments(x: &[Segment], y: &[Segment]) -> bool {
    let bits = |&(a, ab, l2): &Segment| {
        (a.to_array().map(f32::to_bits), ab.to_array().map(f32::to_bits), l2.to_bits())
    };
    x.len() == y.len() && x.iter().zip(y).all(|(s, t)| bits(s) == bits(t))
}

impl<'a> BoneDistance<'a> {
    /// The bones of `rig`, each joint's segments gathered.
    pub fn new(rig: &'a Rig) -> Self {
        Self::with_field(rig, SkeletonField::new(rig, LEAF_STUB_RATIO))
    }

    /// The bones of `rig` from its skeleton field already built with
    /// [`LEAF_STUB_RATIO`] (detection builds that field anyway).
    pub fn with_field(rig: &'a Rig, field: SkeletonField) -> Self {
        let mut by_joint: Vec<Vec<Segment>> = vec![Vec::new(); rig.joint_count()];
        for s in &field.segments {
            let ab = s.b - s.a;
            by_joint[s.joint].push((s.a.into(), ab.into(), ab.length_squared()));
        }
        BoneDistance { rig, by_joint, noted: Vec::new() }
    }

    /// Weighted bone distance of vertex `v` (in range).
    pub fn of(&self, v: usize) -> f32 {
        let p = Vec3A::from(self.rig.vertices()[v]);
        let (js, ws) = self.rig.influences().of(v);
        let mut acc = 0.0f32;
        for (&j, &w) in js.iter().zip(ws) {
            if w <= 0.0 {
                continue;
            }
            // [`super::point_segment_distance`]'s arithmetic; the square
            // root of the least square is the least root (it is monotone).
            let d2 = self.by_joint[j as usize]
                .iter()
                .map(|&(a, ab, len2)| {
                    let t = if len2 > 0.0 { ((p - a).dot(ab) / len2).clamp(0.0, 1.0) } else { 0.0 };
                    (p - (a + t * ab)).length_squared()
                })
                .fold(f32::INFINITY, f32::min);
            acc += w * d2.sqrt();
        }
        acc
    }

    /// Mean over `vertices` (zero for none); see [`weighted_bone_distance`].
    pub fn mean(&self, vertices: &[u32]) -> Result<f32> {
        self.average(vertices, |v| self.of(v))
    }

    /// The mean of `distance` over `vertices` (checked in range; zero for
    /// none), summed in f64 in their order: what every mean here shares.
    fn average(&self, vertices: &[u32], mut distance: impl FnMut(usize) -> f32) -> Result<f32> {
        self.rig.check_vertices("vertices", vertices)?;
        if vertices.is_empty() {
            return Ok(0.0);
        }
        let sum: f64 = vertices.iter().map(|&v| distance(v as usize) as f64).sum();
        Ok((sum / vertices.len() as f64) as f32)
    }

    /// [`Self::mean`], each vertex's distance noted for [`Self::into_measured`].
    pub fn mean_noting(&mut self, vertices: &[u32]) -> Result<f32> {
        if self.noted.is_empty() && !vertices.is_empty() {
            self.noted = vec![f32::NAN; self.rig.vertex_count()];
        }
        let mut noted = std::mem::take(&mut self.noted);
        let mean = self.average(vertices, |v| {
            let d = self.of(v);
            noted[v] = d;
            d
        });
        self.noted = noted;
        mean
    }

    /// The distances [`Self::mean_noting`] measured, with these bones.
    pub fn into_measured(self) -> MeasuredDistances {
        MeasuredDistances { by_joint: self.by_joint, of: self.noted }
    }

    /// Per joint of this rig, whether it has the bones it had in `earlier`
    /// (a joint `earlier`'s rig did not have has not).
    pub fn same_bones_as(&self, earlier: &MeasuredDistances) -> Vec<bool> {
        self.by_joint
            .iter()
            .enumerate()
            .map(|(j, now)| earlier.by_joint.get(j).is_some_and(|then| same_segments(now, then)))
            .collect()
    }

    /// [`Self::mean`] on a rig with the mesh `earlier` was measured on:
    /// a vertex `earlier` measured whose row `kept_row` says is the one it
    /// had, and whose weighted joints all have the same bones (`same_bones`,
    /// from [`Self::same_bones_as`]), reads its earlier distance, which is
    /// what [`Self::of`] would compute here to the bit; the others are
    /// measured.
    pub fn mean_after(
        &self,
        vertices: &[u32],
        earlier: &MeasuredDistances,
        same_bones: &[bool],
        kept_row: impl Fn(usize) -> bool,
    ) -> Result<f32> {
        let influences = self.rig.influences();
        let reads = |v: usize| {
            let (js, ws) = influences.of(v);
            kept_row(v) && js.iter().zip(ws).all(|(&j, &w)| w <= 0.0 || same_bones[j as usize])
        };
        self.average(vertices, |v| match earlier.of.get(v) {
            Some(&d) if !d.is_nan() && reads(v) => d,
            _ => self.of(v),
        })
    }
}

/// Per-vertex weighted bone distance `sum_j w_j d(p, bone_j)` of the given
/// vertices (all vertices when `vertices` is `None`).
pub fn weighted_bone_distances(rig: &Rig, vertices: Option<&[u32]>) -> Result<Vec<f32>> {
    if let Some(vs) = vertices {
        rig.check_vertices("vertices", vs)?;
    }
    let bd = BoneDistance::new(rig);
    Ok(match vertices {
        Some(vs) => vs.iter().map(|&v| bd.of(v as usize)).collect(),
        None => (0..rig.vertex_count()).map(|v| bd.of(v)).collect(),
    })
}

/// Mean weighted bone distance over `vertices` (SPEC T10: the fox's tail
/// went from 47 cm to 17 cm). Zero for an empty list.
pub fn weighted_bone_distance(rig: &Rig, vertices: &[u32]) -> Result<f32> {
    BoneDistance::new(rig).mean(vertices)
}
