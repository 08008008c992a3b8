//! Where the rigger's tail ends at the root. Geometry alone cannot say how
//! far a tail reaches into the rump: the Wolf's artist weights carry it one
//! to two rings past the neck where its tube flares into the body, the
//! Fox's stop at that neck, and no shape cue tried tells the two apart
//! (level sets, ring flare, skeleton distance above the saddle, the tube
//! wall). The rig being repaired does: a template rigger weights the tail
//! to the bones it thinks nearest (the legs), and the skin it moved along
//! with the tail carries the same weights, while the rump round the root
//! stays on the pelvis. Skin next to the tail that the rigger weighted like
//! the tail, and that lies nearer the tail's root than any bone (so a rigger
//! that had the tail's bones would give it to them), is tail: left on the
//! legs it would be torn between them and the chain. Skin that the
//! geometric root extension took but that the rigger kept on the body is
//! not (the Alpaca's three welded rump vertices below its thick tail).
//!
//! This reads the rigger's weights only to place the root boundary; the
//! attachment joint never comes from them (SPEC T3: a tail modelled as its
//! own shell carries the same wrong weights on its collar). It is used only
//! when the part's own skin carries such a signature: a rigger that left
//! the tail on the pelvis, or spread it without a pattern, leaves the
//! geometric root as it is.

use glam::Vec3;

use crate::geometry::{MeshGraph, SkeletonField, Weld};
use crate::rig::roles::LimbPair;
use crate::rig::Rig;

/// A joint holding at least this share of the part's total skin weight is
/// one of the bones the rigger gave the tail (the degraded Wolf: shin 49%,
/// thighs 24% and 26%; everything else under 1%).
pub const TAIL_BONE_SHARE: f32 = 0.05;

/// A vertex reads as tail when more than this share of its weight lies on
/// the tail's bones (the attachment joint excluded) and its largest weight
/// is on one of them.
pub const TAIL_WEIGHT_SHARE: f32 = 0.5;

/// The rigger's weights are used only when at least this share of the
/// part's welded vertices read as tail.
pub const SIGNATURE_SHARE: f32 = 0.8;

/// The rigger's tail weights, found on the part's own skin.
#[derive(Clone, Debug)]
pub struct TailWeights {
    /// Per joint: one of the bones the rigger gave the tail.
    pub bones: Vec<bool>,
}

impl TailWeights {
    /// The bones holding the part's weight (`attachment` and the `pelvis`
    /// excluded), or `None` when too little of the part reads as tail on
    /// them. The pelvis is the joint every tail's chain hangs from and the
    /// bone the rump round its root is weighted to: a rigger that gave the
    /// tail to the pelvis left it on the body (no pattern to read), and
    /// read as a tail bone it makes the whole rump read as tail. Where the
    /// part's attachment was a thigh or a shoulder rather than the pelvis
    /// (a hanging tail's collar faces a thigh), the pelvis became the
    /// tail's bone and the rigger's root grew over the rump (corpus seeds
    /// 103, 324, 337, 342: 84-490 vertices, precision 0.63-0.95).
    pub fn find(
        rig: &Rig,
        weld: &Weld,
        welded: &[u32],
        attachment: Option<usize>,
        pelvis: Option<usize>,
    ) -> Option<TailWeights> {
        let tw = TailWeights { bones: held_bones(rig, weld, welded, attachment, pelvis)? };
        let reading = welded.iter().filter(|&&w| tw.reads_as_tail(rig, weld, w)).count();
        (reading as f32 >= SIGNATURE_SHARE * welded.len() as f32 && reading > 0).then_some(tw)
    }

    /// Each of the tail's bones on a hind leg brings its mirror twin (the
    /// joint at the same place in the other leg's chain). A tail leaves the
    /// body between the hind legs, on the mid plane, and a rigger that
    /// weights it by side or by nearest bone splits each ring that passes
    /// between the legs in two: the half by the left thigh to the left
    /// thigh, the other half to the right one. Read on a part that holds
    /// one side's bones only (its far end, weighted to one shin and thigh),
    /// half of each of those rings read as body; the walk back over skin
    /// read as tail stopped where that half began, and the shape's walk
    /// takes only far skin past it, while a hanging tail passes close to
    /// the thighs (corpus look seed 44795, the Cat: the first 40% of its
    /// tail, 160 vertices, left in peel remainders, recall 0.609). The hind
    /// legs only: a curled tail's far end that the rigger gave to one arm,
    /// twinned across the arms, made the other shoulder's skin read as tail
    /// (bipeds 53164, 53931, 54812, measured with the twins read in the
    /// rigger's root growth too: precision 0.855 and 0.946, a root joint
    /// 1.19 radii off).
    pub fn with_leg_twins(mut self, hind_legs: Option<&LimbPair>) -> TailWeights {
        let Some([left, right]) = hind_legs.map(|p| &p.limbs) else { return self };
        for (&a, &b) in left.chain.iter().zip(&right.chain) {
            let twinned = self.bones[a] || self.bones[b];
            self.bones[a] = twinned;
            self.bones[b] = twinned;
        }
        self
    }

    /// The rigger's tail bones read again on the tube grown back to the
    /// body (`welded`), added to those read on the part's own skin. A
    /// piece peeled off a hanging tail's far end holds the bones the rigger
    /// gave the far end (a template rigger's nearest: the shin, the foot);
    /// the last rings before the body it gave to the bones nearest them (a
    /// thigh), which hold under [`TAIL_BONE_SHARE`] of the piece's weight.
    /// Read on the piece alone, those rings are body, and the rigger's root
    /// growth stops a ring or two short of where the tail leaves the body
    /// (corpus seed 417: 13 true tail vertices at tail_u 0-0.12 left in
    /// peel remainders, all of them read as tail on the finished tube's
    /// bones; the five next to the part when the rigger's growth ran did
    /// not read as tail on the piece's). The signature itself stays the
    /// piece's (its test is not taken again on skin the walk back chose).
    pub fn with_tube(
        &self,
        rig: &Rig,
        weld: &Weld,
        welded: &[u32],
        attachment: Option<usize>,
        pelvis: Option<usize>,
    ) -> TailWeights {
        let grown = held_bones(rig, weld, welded, attachment, pelvis);
        let bones = match grown {
            Some(g) => self.bones.iter().zip(g).map(|(&a, b)| a || b).collect(),
            None => self.bones.clone(),
        };
        TailWeights { bones }
    }

    /// Whether the rigger put no weight at all on the tail's bones at
    /// welded vertex `w` (none of its seam copies has any): there its
    /// weights say nothing of where the tail ends. A rigger that grades the
    /// root (part of a vertex to the tail, more to the pelvis) draws the
    /// tail's edge; one that gives each vertex wholly to its nearest bone
    /// says only which bone was nearest.
    pub fn is_silent(&self, rig: &Rig, weld: &Weld, w: u32) -> bool {
        weld.members_of(w as usize).iter().all(|&v| {
            let (js, ws) = rig.influences().of(v as usize);
            js.iter().zip(ws).all(|(&j, &x)| !self.bones[j as usize] || x <= 0.0)
        })
    }

    /// Whether the rigger weighted welded vertex `w` like the tail: every
    /// member (seam copies carry their own weights) puts more than
    /// [`TAIL_WEIGHT_SHARE`] on the tail's bones, its largest weight among
    /// them.
    pub fn reads_as_tail(&self, rig: &Rig, weld: &Weld, w: u32) -> bool {
        weld.members_of(w as usize).iter().all(|&v| {
            let (js, ws) = rig.influences().of(v as usize);
            let on_tail: f32 =
                js.iter().zip(ws).filter(|(&j, _)| self.bones[j as usize]).map(|(_, &x)| x).sum();
            let largest = (0..js.len()).max_by(|&a, &b| ws[a].total_cmp(&ws[b]).then(b.cmp(&a)));
            on_tail > TAIL_WEIGHT_SHARE && largest.is_some_and(|k| self.bones[js[k] as usize])
        })
    }
}

/// Per joint: whether it holds at least [`TAIL_BONE_SHARE`] of the skin
/// weight of `welded` (`attachment` and the `pelvis` excluded, see
/// [`TailWeights::find`]); `None` when the skin carries no weight.
fn held_bones(
    rig: &Rig,
    weld: &Weld,
    welded: &[u32],
    attachment: Option<usize>,
    pelvis: Option<usize>,
) -> Option<Vec<bool>> {
    let mut total = vec![0f64; rig.joint_count()];
    for &w in welded {
        for &v in weld.members_of(w as usize) {
            let (js, ws) = rig.influences().of(v as usize);
            for (&j, &x) in js.iter().zip(ws) {
                total[j as usize] += x as f64;
            }
        }
    }
    let sum: f64 = total.iter().sum();
    if sum.is_nan() || sum <= 0.0 {
        return None;
    }
    let held = |(j, &t): (usize, &f64)| {
        Some(j) != attachment && Some(j) != pelvis && t >= TAIL_BONE_SHARE as f64 * sum
    };
    Some(total.iter().enumerate().map(held).collect())
}

/// A vertex sits on its own bone when at least this share of its weight is
/// on the joint at either end of the bone segment nearest it: body skin is
/// weighted to the bone it wraps; a template rigger's tail skin is weighted
/// to bones it does not sit on (the legs it was "nearest" to).
pub const OWN_BONE_SHARE: f32 = 0.2;

/// Whether welded vertex `w` is weighted to the bone it sits on (every
/// member: seam copies carry their own weights).
pub fn sits_on_own_bone(rig: &Rig, weld: &Weld, field: &SkeletonField, w: u32) -> bool {
    let (_, s) = field.nearest(weld.positions[w as usize]);
    let seg = &field.segments[s];
    weld.members_of(w as usize).iter().all(|&v| {
        let (js, ws) = rig.influences().of(v as usize);
        js.iter().zip(ws).any(|(&j, &x)| {
            (j as usize == seg.joint || j as usize == seg.child) && x >= OWN_BONE_SHARE
        })
    })
}

/// Whether welded vertex `w` lies nearer the tail's `root` than the tail
/// bone carrying its largest weight (every member: seam copies carry their
/// own weights). Skin the rigger moved with the tail onto bones elsewhere
/// lies by the tail, far from those bones (the Wolf's root skin weighted
/// to its shin); skin nearer the bone it is weighted to than the tail's
/// root is that bone's own skin. On corpus seed 286 (a biped whose rigger
/// gave the tail to the lower spine) the hip skin beside the hanging arm
/// lies nearer the spine it is weighted to. Against every tail bone
/// carrying weight (not only the largest) the rat fixture lost recall
/// (0.914 -> 0.897): its root skin carries some weight on a bone nearby.
pub fn nearer_root_than_its_bones(
    rig: &Rig,
    weld: &Weld,
    field: &SkeletonField,
    tail: &TailWeights,
    w: u32,
    root: Vec3,
) -> bool {
    let p = weld.positions[w as usize];
    let to_root = p.distance(root);
    weld.members_of(w as usize).iter().all(|&v| {
        let j = rig.influences().dominant_joint(v as usize) as usize;
        tail.bones[j] && to_root < field.distance_to_joint(p, j)
    })
}

/// Whether a point sits on a bone round a tail's root: one of the pelvis
/// region's (the rear trunk, the hind legs' connectors and thighs, whose
/// heads ring the root) or one of the rigger's tail bones. Skin the rigger
/// moved with the tail onto bones elsewhere still sits there; on corpus
/// seed 286 (a biped whose rigger gave the tail to the lower spine) the hip
/// skin beside the hanging arm sits on the arm, is weighted to the spine
/// it wraps, and read as moved tail skin it grew the rigger's root four
/// root radii up the hip (43 vertices).
pub fn sits_by_the_root(
    field: &SkeletonField,
    regions: &[crate::rig::roles::Region],
    tail: &TailWeights,
    p: Vec3,
) -> bool {
    let (_, s) = field.nearest(p);
    let j = field.segments[s].joint;
    tail.bones[j] || regions.get(j) == Some(&crate::rig::roles::Region::Pelvis)
}

/// Welded vertices beyond the part (sorted `welded`) that continue the
/// rigger's tail: reached from the part through vertices that read as tail
/// and that either lie nearer `root` (where the tail leaves the body) than
/// their skeleton distance `dist` (a rigger that had the tail's bones would
/// give them to those) or are not weighted to the bone they sit on (skin
/// the rigger moved with the tail onto bones elsewhere) while still lying
/// by the root: on a bone round it (`sits_by_the_root`) or nearer it
/// than their own weights' bone (`nearer_root_than_its_bones`). Either
/// test alone cost a fixture recall (the rabbit's rigify rigger put its
/// real root skin nearer the spine than the root; the rat's sits on a bone
/// outside the pelvis region). `regions` are the joints' body regions.
/// `taken[v]` marks skin another part owns.
#[allow(clippy::too_many_arguments)]
pub fn grow_root(
    rig: &Rig,
    weld: &Weld,
    graph: &MeshGraph,
    field: &SkeletonField,
    dist: &[f32],
    welded: &[u32],
    root: Vec3,
    regions: &[crate::rig::roles::Region],
    tail: &TailWeights,
    taken: &[bool],
) -> Vec<u32> {
    let positions = &weld.positions;
    let accept = |v: u32| {
        !taken[v as usize]
            && welded.binary_search(&v).is_err()
            && tail.reads_as_tail(rig, weld, v)
            && (positions[v as usize].distance(root) < dist[v as usize]
                || (!sits_on_own_bone(rig, weld, field, v)
                    && (sits_by_the_root(field, regions, tail, positions[v as usize])
                        || nearer_root_than_its_bones(rig, weld, field, tail, v, root))))
    };
    let seeds = welded.iter().flat_map(|&v| graph.neighbors_of(v as usize).iter().copied());
    graph.flood(seeds, accept)
}
