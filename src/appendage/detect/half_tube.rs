//! A part the peel cut lengthwise: one side of a tube, closed over its
//! collar before it is judged broad.

use super::candidates::Origin;
use super::root_growth::Growing;
use super::surface::{sorted_union, Surface};
use super::verdict::{Shape, ShapeTests};
use crate::appendage::attach::Region;
use crate::appendage::decide::{long_by_covariance, Verdict};
use crate::appendage::report::Kind;
use crate::appendage::shape::tube_sections;
use crate::geometry::geodesic_within;

/// How far past its collar a broad part reaches for the other side of its
/// tube, in its own depth (its geodesic length from the collar). A tail
/// hanging against the thighs lies along the skeleton-distance levels, so
/// the peel's level cuts it lengthwise: the part is its outer side, whose
/// depth from the rims is a quarter of the tube's girth, and the inner side
/// left as body skin is as deep from the same rims.
pub const HALF_TUBE_REACH: f32 = 1.0;

/// A broad part closed into a tube ([`Surface::close_half_tube`]), with
/// where it now hangs.
pub(super) struct ClosedTube {
    pub(super) attachment: Option<usize>,
    pub(super) region: Region,
}

impl Surface<'_> {
    /// A broad part long by its covariance (T4b's `min_elongation`) that,
    /// with the free skin within its own depth past its
    /// collar ([`HALF_TUBE_REACH`]), is a tail long by its covariance
    /// ([`long_by_covariance`]), is that tail: one side of a tube the peel
    /// cut lengthwise (corpus look seed 50614: a thin hanging tail peeled as
    /// its outer half, 90 vertices, collar along 0-0.83 of the tail,
    /// elongation 6.05 but tube ratio 0.32, its bands across the tail).
    /// Closed, its collar rings the tube's root and its length is the
    /// tail's, not its girth; it hangs where that collar lies. Long by the
    /// tube ratio alone (T4b's curled tail) is not enough: a lump of rump
    /// skin closed over its collar is a dome, round by its covariance
    /// (1.04-1.08 on look seeds 42742, 53225) with a dome's tube ratio
    /// (1.26-1.42). The depth also takes a patch of rump round the root,
    /// trimmed off before the closed part is judged (`trim_to_own_tube`):
    /// judged with it, the tail read round (41436, 44295: elongation
    /// 1.56-1.59) or wrapping a bone (41359, 43516, 51815), and grown with
    /// it, failed precision (53555: 0.59). The
    /// centroid test (T4a) is read on the tube as whether a bone runs
    /// inside it ([`Self::wraps_a_bone`]): a tail hanging against a thigh
    /// has its centroid near the thigh's bone, outside the tube.
    pub(super) fn close_half_tube(
        &self,
        part: &mut Growing,
        tests: &mut ShapeTests,
        verdict: &mut Verdict,
        taken: &mut [bool],
        origin: Origin,
    ) -> Option<ClosedTube> {
        // One side of a tube is as long as the tube by its covariance; only
        // its bands, run across it from the rims, read it broad.
        if matches!(origin, Origin::Remainder { .. })
            || verdict.kind != Kind::Broad
            || tests.elongation < self.params.min_elongation
        {
            return None;
        }
        let (trial, trial_taken) = self.closed_over_collar(part, taken, origin);
        let Growing { welded, collar, geodesic, length } = trial;
        let closed_tests = self.shape_tests(&welded, &geodesic, length);
        let (join, attachment) = self.joins_at(&welded, &collar);
        let region = self.region_of(attachment, join);
        let names = self.rig.joint_names();
        let name = attachment.map_or("?", |j| names[j].as_str());
        // Read only when the centroid test fails: the bands and the moving
        // bones' field cost more than the rest of the closing.
        let centroid_fails = closed_tests.centroid_ratio < self.params.min_centroid_ratio;
        let wraps = centroid_fails && self.wraps_a_bone(&welded, &geodesic, length);
        let judged = ShapeTests {
            centroid_ratio: if wraps {
                closed_tests.centroid_ratio
            } else {
                closed_tests.centroid_ratio.max(self.params.min_centroid_ratio)
            },
            ..closed_tests
        };
        let shape =
            Shape { welded: &welded, collar: &collar, geodesic: &geodesic, length, tests: &judged };
        let mut closed = self.verdict(&shape, region, name);
        if closed.kind != Kind::Tail
            || !long_by_covariance(self.params, judged.elongation, judged.tube)
        {
            return None;
        }
        let centroid = if centroid_fails {
            format!(
                "; centroid ratio {:.2}, but no bone that moves it runs inside it",
                closed_tests.centroid_ratio
            )
        } else {
            String::new()
        };
        closed.reason.push_str(&format!(
            "; one side of a tube cut lengthwise, closed over its collar ({} welded vertices, \
             {} alone; alone: elongation {:.2}, tube ratio {:.2}){centroid}",
            welded.len(),
            part.welded.len(),
            tests.elongation,
            tests.tube,
        ));
        taken.copy_from_slice(&trial_taken);
        *part = Growing { welded, collar, geodesic, length };
        *tests = closed_tests;
        *verdict = closed;
        Some(ClosedTube { attachment, region })
    }

    /// The part with the free skin within its own depth past its collar
    /// ([`HALF_TUBE_REACH`]), trimmed back to its own tube
    /// (`trim_to_own_tube`), and the skin taken with it.
    fn closed_over_collar(
        &self,
        part: &Growing,
        taken: &[bool],
        origin: Origin,
    ) -> (Growing, Vec<bool>) {
        let sources: Vec<u32> =
            part.collar.iter().copied().filter(|&v| !taken[v as usize]).collect();
        let bound = HALF_TUBE_REACH * part.length;
        let other: Vec<u32> =
            geodesic_within(self.graph, &self.weld.positions, &sources, bound, |w| {
                !taken[w as usize] && part.welded.binary_search(&w).is_err()
            })
            .into_iter()
            .map(|(v, _)| v)
            .collect();
        let mut taken = taken.to_vec();
        for &v in &other {
            taken[v as usize] = true;
        }
        let welded = sorted_union(&part.welded, &other);
        let collar = self.collar(&welded);
        let (geodesic, length) = self.geodesic_of(&welded, &collar);
        let mut closed = Growing { welded, collar, geodesic, length };
        self.trim_to_own_tube(&mut closed, &mut taken, origin, true);
        (closed, taken)
    }

    /// Whether a bone that moves the part runs inside it: at least half its
    /// cross-sections ([`tube_sections`]) have their centre nearer such a
    /// bone than their own radius. Far skin round a limb or the trunk does;
    /// a tail lying against a thigh does not, however near the thigh's bone
    /// its centroid lies.
    fn wraps_a_bone(&self, welded: &[u32], geodesic: &[f32], length: f32) -> bool {
        let points: Vec<_> = welded.iter().map(|&v| self.weld.positions[v as usize]).collect();
        let sections = tube_sections(&points, geodesic, length);
        let field = self.moving_field(welded);
        let inside = sections.iter().filter(|(c, r)| field.distance(*c) < *r).count();
        2 * inside >= sections.len()
    }
}
