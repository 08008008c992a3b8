//! The skeleton distance field (SPEC T1): distance from a point to the
//! nearest bone segment, with a short stub past every leaf joint so that a
//! snout or a hand is not "far" from its own bone.

use glam::Vec3;
use rayon::prelude::*;

use crate::rig::Rig;

/// Stub length past a leaf joint, as a fraction of the bone leading into
/// it. Half a bone covers a hand, foot or snout without reaching into
/// whatever hangs beyond it.
pub const LEAF_STUB_RATIO: f32 = 0.5;

/// An unweighted leaf child counts as the end of its parent's bone when it
/// is at most this many incoming bone lengths away (farther helpers, such
/// as IK pole targets, are not bone ends).
pub const END_HELPER_MAX_RATIO: f32 = 2.0;

/// One bone segment `a -> b`, owned by the joint at `a` (the joint that
/// rotates the skin around it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoneSegment {
    /// The joint at `a`, which owns the segment.
    pub joint: usize,
    /// The joint at `b` (the segment's own joint for a stub past a leaf).
    pub child: usize,
    /// Start (the joint's bind head), model units.
    pub a: Vec3,
    /// End (the child's bind head, or the stub's end).
    pub b: Vec3,
}

/// `d(p, ab) = |p - (a + t (b - a))|`, `t = clamp((p-a).(b-a) / |b-a|^2, 0, 1)`.
#[inline]
pub fn point_segment_distance(p: Vec3, a: Vec3, b: Vec3) -> f32 {
    point_segment_distance_squared(p, a, b).sqrt()
}

#[inline]
fn point_segment_distance_squared(p: Vec3, a: Vec3, b: Vec3) -> f32 {
    let ab = b - a;
    let len2 = ab.length_squared();
    let t = if len2 > 0.0 { ((p - a).dot(ab) / len2).clamp(0.0, 1.0) } else { 0.0 };
    (p - (a + t * ab)).length_squared()
}

/// Joints that move at least one vertex (the rig stage's own reading; the
/// field draws no segment through an unweighted helper).
pub use crate::rig::roles::weighted_joints;

/// The skeleton distance field (SPEC T1): distance from a point to the
/// nearest bone segment of the rig in bind pose.
#[derive(Clone, Debug)]
pub struct SkeletonField {
    /// Every bone segment of the rig.
    pub segments: Vec<BoneSegment>,
    /// Per segment `(a, b - a, 1 / |b - a|^2 or 0)`: the inner loop of the
    /// field runs once per vertex and segment, so no division in it.
    pre: Vec<(Vec3, Vec3, f32)>,
}

impl SkeletonField {
    fn from_segments(segments: Vec<BoneSegment>) -> SkeletonField {
        let pre = segments
            .iter()
            .map(|s| {
                let ab = s.b - s.a;
                let l2 = ab.length_squared();
                (s.a, ab, if l2 > 0.0 { 1.0 / l2 } else { 0.0 })
            })
            .collect();
        SkeletonField { segments, pre }
    }
}

impl SkeletonField {
    /// Segments along the structural skeleton (every joint that carries
    /// weight or connects joints that do, see
    /// [`crate::rig::roles::structural_joints`]: a Maya rig's unweighted
    /// spine is a bone, an effect helper parked at the origin is not), each
    /// from a joint to its structural child, plus a stub of `stub_ratio`
    /// times the incoming bone past every weighted joint with no structural
    /// child.
    pub fn new(rig: &Rig, stub_ratio: f32) -> SkeletonField {
        let weighted = weighted_joints(rig);
        let structural = crate::rig::roles::structural_joints_of(rig, &weighted);
        let heads = crate::rig::roles::credible_heads_of(rig, &weighted);
        let parents = rig.parents();
        let mut children = vec![Vec::new(); rig.joint_count()];
        for (j, p) in parents.iter().enumerate() {
            if let Some(p) = *p {
                children[p].push(j);
            }
        }
        let mut segments = Vec::new();
        let mut has_child = vec![false; rig.joint_count()];
        for &j in rig.topological_order() {
            if !structural[j] {
                continue;
            }
            if let Some(a) = parents[j].filter(|&p| structural[p]) {
                segments.push(BoneSegment { joint: a, child: j, a: heads[a], b: heads[j] });
                has_child[a] = true;
            }
        }
        for &j in rig.topological_order() {
            if !weighted[j] || has_child[j] {
                continue;
            }
            // An unweighted leaf child near the joint is an end helper
            // (`Tail_End`, Blender's `*_end`): the bone runs to it.
            let incoming = parents[j].map(|p| heads[j].distance(heads[p])).unwrap_or(0.0);
            let end = children[j]
                .iter()
                .copied()
                .filter(|&c| !weighted[c] && children[c].is_empty())
                .filter(|&c| {
                    let d = heads[c].distance(heads[j]);
                    d > 0.0 && (incoming == 0.0 || d <= END_HELPER_MAX_RATIO * incoming)
                })
                .min_by(|&a, &b| {
                    heads[a]
                        .distance(heads[j])
                        .total_cmp(&heads[b].distance(heads[j]))
                        .then(a.cmp(&b))
                });
            if let Some(c) = end {
                segments.push(BoneSegment { joint: j, child: c, a: heads[j], b: heads[c] });
                continue;
            }
            // Direction of the incoming bone: from the nearest ancestor
            // whose head is not on this joint.
            let mut dir = Vec3::ZERO;
            let mut k = parents[j];
            while let Some(p) = k {
                let d = heads[j] - heads[p];
                if d.length_squared() > 0.0 {
                    dir = d;
                    break;
                }
                k = parents[p];
            }
            segments.push(BoneSegment {
                joint: j,
                child: j,
                a: heads[j],
                b: heads[j] + stub_ratio * dir,
            });
        }
        SkeletonField::from_segments(segments)
    }

    /// Skeleton distance of one point and the index of the nearest segment.
    #[inline]
    pub fn nearest(&self, p: Vec3) -> (f32, usize) {
        let mut best = (f32::INFINITY, 0);
        for (i, &(a, ab, inv)) in self.pre.iter().enumerate() {
            let ap = p - a;
            let t = (ap.dot(ab) * inv).clamp(0.0, 1.0);
            let d = (ap - t * ab).length_squared();
            if d < best.0 {
                best = (d, i);
            }
        }
        (best.0.sqrt(), best.1)
    }

    /// Distance from `p` to the nearest bone segment, model units.
    #[inline]
    pub fn distance(&self, p: Vec3) -> f32 {
        self.nearest(p).0
    }

    /// Skeleton distance of every point. Fixed chunks: the same result on
    /// any number of threads.
    pub fn distances(&self, points: &[Vec3]) -> Vec<f32> {
        const CHUNK: usize = 4096;
        let mut out = vec![0.0f32; points.len()];
        out.par_chunks_mut(CHUNK).enumerate().for_each(|(c, chunk)| {
            self.chunk_distances(&points[c * CHUNK..c * CHUNK + chunk.len()], chunk);
        });
        out
    }

    /// [`Self::distance`] of every point of `points` into `out`, segment
    /// after segment over the whole chunk: the inner loop runs over plain
    /// arrays, which the compiler vectorises (point by point, the segment
    /// loop was a fifth of detection's instructions on a 200k-vertex mesh).
    /// Each point sees the same arithmetic, in the same order, and keeps
    /// the first smallest value as [`Self::nearest`] does: the same figures,
    /// bit for bit.
    ///
    /// Segments are visited nearest the chunk first, and those that cannot
    /// come nearer any point of it than the point's nearest so far are
    /// skipped (see [`segment_reach`]): a chunk of mesh lies on a patch of
    /// skin, near a few bones of dozens. A skipped segment would have left
    /// every point's least value as it was, so the figures are unchanged.
    fn chunk_distances(&self, points: &[Vec3], out: &mut [f32]) {
        let x: Vec<f32> = points.iter().map(|p| p.x).collect();
        let y: Vec<f32> = points.iter().map(|p| p.y).collect();
        let z: Vec<f32> = points.iter().map(|p| p.z).collect();
        let mut best = vec![f32::INFINITY; points.len()];
        for (reach, i) in self.segments_by_reach(points) {
            if reach > 0.0 {
                let worst = best.iter().fold(0.0f32, |m, &b| if b > m { b } else { m });
                if reach * reach > worst {
                    break; // the rest lie further still
                }
            }
            let (a, ab, inv) = self.pre[i];
            for (((b, &px), &py), &pz) in best.iter_mut().zip(&x).zip(&y).zip(&z) {
                let (apx, apy, apz) = (px - a.x, py - a.y, pz - a.z);
                let t = (((apx * ab.x) + (apy * ab.y) + (apz * ab.z)) * inv).clamp(0.0, 1.0);
                let (dx, dy, dz) = (apx - t * ab.x, apy - t * ab.y, apz - t * ab.z);
                let d = (dx * dx) + (dy * dy) + (dz * dz);
                *b = if d < *b { d } else { *b };
            }
        }
        for (o, b) in out.iter_mut().zip(&best) {
            *o = b.sqrt();
        }
    }

    /// Every segment with a distance no point of `points` comes nearer
    /// than ([`segment_reach`] from their bounding box), nearest first (ties
    /// by segment).
    fn segments_by_reach(&self, points: &[Vec3]) -> Vec<(f32, usize)> {
        let (lo, hi) = points
            .iter()
            .fold((Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)), |(lo, hi), &p| {
                (lo.min(p), hi.max(p))
            });
        let mut order: Vec<(f32, usize)> = self
            .pre
            .iter()
            .enumerate()
            .map(|(i, &(a, ab, _))| (segment_reach(lo, hi, a, ab), i))
            .collect();
        order.sort_by(|p, q| p.0.total_cmp(&q.0).then(p.1.cmp(&q.1)));
        order
    }

    /// Per joint, whether the chain of the segments it owns moves some of
    /// `vertices` (rig vertex indices). A joint's chain is the run of joints
    /// from the child of the nearest branch point above it down, with all
    /// that run carries; it moves a vertex when any joint of that subtree
    /// has weight on it. A trunk bone carries every chain below it and so
    /// moves whatever they move; a plume or a feather chain off the pelvis
    /// moves only the skin weighted to it.
    pub fn moving_chains(&self, rig: &Rig, vertices: &[u32]) -> Vec<bool> {
        let n = rig.joint_count();
        let parents = rig.parents();
        let inf = rig.influences();
        let mut moves = vec![false; n];
        for &v in vertices {
            let (a, b) = (inf.offsets[v as usize] as usize, inf.offsets[v as usize + 1] as usize);
            for i in a..b {
                if inf.weights[i] > 0.0 {
                    moves[inf.joints[i] as usize] = true;
                }
            }
        }
        for &j in rig.topological_order().iter().rev() {
            if let (true, Some(p)) = (moves[j], parents[j]) {
                moves[p] = true;
            }
        }
        let chain_root = self.chain_roots(rig);
        (0..n).map(|j| moves[chain_root[j]]).collect()
    }

    /// Whether the chain of `joint` (see [`Self::moving_chains`]) moves
    /// some of the skin of `vertices` (rig vertex indices): the same answer
    /// as `moving_chains(rig, vertices)[joint]`, found at the first weight
    /// on the chain's subtree. Asked of every detected piece, whose nearest
    /// chain nearly always moves its first vertex: reading every weight of
    /// every piece cost the Wolf's detection 7% more instructions.
    pub fn chain_moves_any(
        &self,
        rig: &Rig,
        joint: usize,
        vertices: impl IntoIterator<Item = u32>,
    ) -> bool {
        let root = self.chain_roots(rig)[joint];
        let mut in_chain = vec![false; rig.joint_count()];
        in_chain[root] = true;
        for &j in rig.topological_order() {
            if let Some(p) = rig.parents()[j] {
                in_chain[j] |= in_chain[p];
            }
        }
        let inf = rig.influences();
        vertices.into_iter().any(|v| {
            let (a, b) = (inf.offsets[v as usize] as usize, inf.offsets[v as usize + 1] as usize);
            (a..b).any(|i| inf.weights[i] > 0.0 && in_chain[inf.joints[i] as usize])
        })
    }

    /// Per joint, the top of its chain: the child of the nearest branch
    /// point of the field's own skeleton above it (an unweighted helper
    /// child draws no segment and does not split a chain), or the root.
    fn chain_roots(&self, rig: &Rig) -> Vec<usize> {
        let n = rig.joint_count();
        let parents = rig.parents();
        let mut in_field = vec![false; n];
        for s in &self.segments {
            (in_field[s.joint], in_field[s.child]) = (true, true);
        }
        let mut branches = vec![0usize; n];
        for (j, p) in parents.iter().enumerate() {
            if let (true, Some(p)) = (in_field[j], *p) {
                branches[p] += 1;
            }
        }
        (0..n)
            .map(|j| {
                let mut r = j;
                while let Some(p) = parents[r] {
                    if branches[p] > 1 {
                        break;
                    }
                    r = p;
                }
                r
            })
            .collect()
    }

    /// The field of the segments whose owner is marked in `chains` (see
    /// [`Self::moving_chains`]); the whole field when none is.
    pub fn of_chains(&self, chains: &[bool]) -> SkeletonField {
        let kept: Vec<BoneSegment> =
            self.segments.iter().copied().filter(|s| chains[s.joint]).collect();
        if kept.is_empty() {
            return self.clone();
        }
        SkeletonField::from_segments(kept)
    }

    /// Distance from `p` to the bone of joint `j` (all its segments);
    /// infinity when the joint owns no segment.
    pub fn distance_to_joint(&self, p: Vec3, j: usize) -> f32 {
        self.segments
            .iter()
            .filter(|s| s.joint == j)
            .map(|s| point_segment_distance_squared(p, s.a, s.b))
            .fold(f32::INFINITY, f32::min)
            .sqrt()
    }
}

/// A distance no point of the box `lo..hi` comes nearer than to the
/// segment `a -> a + ab`: the box's distance to the segment's midpoint less
/// half its length (every point of the segment lies within that of its
/// midpoint), less a slack of `REACH_SLACK` times the largest coordinate
/// involved. The slack covers the rounding of this bound and of the
/// field's own arithmetic (a few units in the last place of those
/// coordinates, some hundred times smaller), so a segment skipped for it
/// would have measured more than each point's least value, never as much.
fn segment_reach(lo: Vec3, hi: Vec3, a: Vec3, ab: Vec3) -> f32 {
    let mid = a + 0.5 * ab;
    let to_box = (lo - mid).max(mid - hi).max(Vec3::ZERO).length();
    let scale = lo.abs().max(hi.abs()).max(a.abs()).max((a + ab).abs()).max_element();
    to_box - 0.5 * ab.length() - REACH_SLACK * scale
}

/// [`segment_reach`]'s slack, a share of the largest coordinate: f32 keeps
/// about seven digits, so this is some hundred times its rounding.
const REACH_SLACK: f32 = 1e-4;
