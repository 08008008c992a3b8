//! Correspondence between a source (artist) mesh and a target (rigger's)
//! mesh (SPEC X3): in aligned rest poses ([`super::align`]), each target
//! vertex is tied to its closest point on the source *surface* (a triangle
//! and barycentric weights), not to the nearest source vertex.
//!
//! How a tied vertex moves: it follows the source rig at that point. The
//! source's skin weights are interpolated there with the barycentric
//! weights, and the vertex (its rest position taken into the source's bind
//! space, the gap to the surface included) is skinned by the source's
//! joints with them: `x_f = A(sum_k w_k S_k(f) A^-1 x)`, `A` the alignment,
//! `S_k(f)` the source's skinning matrices at frame `f`. On the surface
//! (gap 0) that is the point the source rig would put there; off it, the
//! gap turns with the skin instead of trailing behind. At the rest pose
//! every vertex stays exactly where the target has it, so what the solve
//! chases is the source's motion, never the gap between the meshes.
//!
//! A source without triangles (a point cloud) ties each target vertex to
//! its nearest source vertex.
//!
//! The tie is computed once per source and target; carrying a frame costs
//! one skinning of the target's vertex count.

use glam::{DMat4, DVec3, Vec3};

use super::align::{align, AlignMode, Alignment};
use super::closest::TriangleTree;
use crate::error::{CaudalError, Result};
use crate::rig::Rig;

/// The largest median gap (fraction of the target diagonal) left by the
/// alignment before a transfer is refused. A re-mesh, a subdivision or a
/// decimation of the same character moves its surface by a fraction of its
/// edge length (the repository's twelve targets: median 0.02-0.07%, worst
/// vertex under 1%; a voxel remesh moves it by at most half a voxel).
/// Another animal fitted by the similarity leaves 1.4% (the Fox onto the
/// Shiba Inu) to 3.5% (the Wolf onto the Alpaca), a humanoid more: above 1%
/// (1.7 cm on a 1.7 m character) the meshes are not one character in one
/// rest pose, and the solve would chase a surface that is not the target's.
pub const DEFAULT_MAX_MEDIAN_GAP: f64 = 0.01;

/// Each target vertex tied to a point of the source surface; see the
/// module doc.
#[derive(Clone, Debug, PartialEq)]
pub struct Correspondence {
    /// How the source's rest pose is placed on the target's.
    pub alignment: Alignment,
    /// Closest source triangle of each target vertex (with no source
    /// triangles: the nearest source vertex).
    pub triangle: Vec<usize>,
    /// Barycentric weights on that triangle.
    pub barycentric: Vec<[f64; 3]>,
    /// Rest-pose distance from each target vertex to the aligned source
    /// surface (target units): the correspondence gap.
    pub gap: Vec<f64>,
    /// Target bind-pose diagonal (target units).
    pub diagonal: f64,
    /// Each target vertex in the source's bind space.
    points: Vec<DVec3>,
    /// Interpolated source influences of each target vertex (CSR).
    offsets: Vec<usize>,
    joints: Vec<usize>,
    weights: Vec<f64>,
}

fn source_triangles(source: &Rig) -> Vec<[DVec3; 3]> {
    let v = source.vertices();
    if source.triangles().is_empty() {
        return v.iter().map(|p| [p.as_dvec3(); 3]).collect();
    }
    source
        .triangles()
        .iter()
        .map(|t| {
            [v[t[0] as usize].as_dvec3(), v[t[1] as usize].as_dvec3(), v[t[2] as usize].as_dvec3()]
        })
        .collect()
}

impl Correspondence {
    /// Aligns the rest poses (`mode`), ties every target vertex to the
    /// source surface, and refuses (an `alignment` error) when the median
    /// gap left is above `max_median_gap` of the target diagonal.
    pub fn new(
        source: &Rig,
        target: &Rig,
        mode: AlignMode,
        max_median_gap: f64,
    ) -> Result<Correspondence> {
        let tree = TriangleTree::new(source_triangles(source));
        let aligned = align(mode, source.vertices(), &tree, target.vertices());
        let diagonal = target.diagonal() as f64;
        if aligned.median_gap > max_median_gap * diagonal {
            return Err(CaudalError::param(
                "alignment",
                format!(
                    "the rest poses cannot be aligned: after the {} alignment the target's median vertex lies {:.2}% of its diagonal \
                     from the source surface (at most {:.2}%): the meshes are not the same character in the same rest pose \
                     (turn or scale one onto the other first, or raise max_median_gap)",
                    aligned.alignment.mode.name(),
                    aligned.median_gap / diagonal * 100.0,
                    max_median_gap * 100.0
                ),
            ));
        }
        Ok(Self::tie(source, target.vertices(), &tree, aligned.alignment, diagonal))
    }

    fn tie(
        source: &Rig,
        target: &[Vec3],
        tree: &TriangleTree,
        alignment: Alignment,
        diagonal: f64,
    ) -> Correspondence {
        let n = target.len();
        let with_triangles = !source.triangles().is_empty();
        let inf = source.influences();
        let mut c = Correspondence {
            alignment,
            triangle: Vec::with_capacity(n),
            barycentric: Vec::with_capacity(n),
            gap: Vec::with_capacity(n),
            diagonal,
            points: Vec::with_capacity(n),
            offsets: Vec::with_capacity(n + 1),
            joints: Vec::new(),
            weights: Vec::new(),
        };
        c.offsets.push(0);
        let mut acc: Vec<(usize, f64)> = Vec::with_capacity(12);
        for t in target {
            let x = alignment.invert(t.as_dvec3());
            let hit = tree.closest(x).expect("a rig has vertices");
            let corners: [usize; 3] = if with_triangles {
                source.triangles()[hit.triangle].map(|i| i as usize)
            } else {
                [hit.triangle; 3]
            };
            acc.clear();
            for (&v, &b) in corners.iter().zip(&hit.weights) {
                if b <= 0.0 {
                    continue;
                }
                let (js, ws) = inf.of(v);
                for (&j, &w) in js.iter().zip(ws) {
                    match acc.iter_mut().find(|(k, _)| *k == j as usize) {
                        Some(slot) => slot.1 += b * w as f64,
                        None => acc.push((j as usize, b * w as f64)),
                    }
                }
            }
            acc.sort_by_key(|a| a.0);
            for &(j, w) in &acc {
                c.joints.push(j);
                c.weights.push(w);
            }
            c.offsets.push(c.joints.len());
            c.triangle.push(hit.triangle);
            c.barycentric.push(hit.weights);
            c.gap.push(hit.distance * alignment.scale);
            c.points.push(x);
        }
        c
    }

    /// Number of target vertices tied.
    pub fn vertex_count(&self) -> usize {
        self.points.len()
    }

    /// Mean and largest gap, fractions of the target diagonal.
    pub fn gap_summary(&self) -> (f64, f64) {
        let d = self.diagonal.max(f64::MIN_POSITIVE);
        let n = self.gap.len().max(1) as f64;
        (self.gap.iter().sum::<f64>() / n / d, self.gap.iter().copied().fold(0.0, f64::max) / d)
    }

    /// Target positions of one frame, from the source's skinning matrices
    /// of that frame (bind space to posed, one per source joint).
    pub fn carry_into(&self, skin: &[DMat4], out: &mut Vec<DVec3>) {
        for (i, x) in self.points.iter().enumerate() {
            let mut p = DVec3::ZERO;
            for k in self.offsets[i]..self.offsets[i + 1] {
                p += skin[self.joints[k]].transform_point3(*x) * self.weights[k];
            }
            out.push(self.alignment.apply(p));
        }
    }
}
