//! A broad part on the pelvis read across its own axis: a thick tail
//! hanging behind the thighs whose collar runs along it.

use glam::Vec3;

use super::surface::Surface;
use super::verdict::Shape;
use crate::appendage::attach::Region;
use crate::appendage::decide::{stands_out, Verdict};
use crate::appendage::params::FLAT_PATCH_LENGTH;
use crate::appendage::report::{Decision, Kind};
use crate::appendage::shape::axial_tube;
use crate::geometry::ring_radius;

impl Surface<'_> {
    /// A broad part on the pelvis that is a tube across its own major axis
    /// ([`axial_tube`]) is a tail. A thick tail hanging behind the thighs
    /// lies near the leg bones along its underside, so the far cut takes
    /// it with a collar that slants from its root down that underside:
    /// every vertex is near the collar, the geodesic bands run lengthwise,
    /// and the tube ratio reads its length across (corpus 47463: 0.34, a
    /// tail three and a half radii long; 40759: 0.32). Read across its axis
    /// it passes the bars a tube passes along its bands, none new:
    /// - its tip stands out of the far cut as a stub's must ([`stands_out`]:
    ///   past the stub reach, or risen its own radius), which a swelling of
    ///   the body does not. Its own radius is half its axial width, not its
    ///   collar's: a collar that runs along the tail is as wide as the tail
    ///   is long, and short hanging tails under the stub reach never rose
    ///   that far (look seeds 55006 and 46232's LizardB, tails 0.089 H and
    ///   0.087 H long, left broad on the rigger's weights);
    /// - it is longer than its collar's radius ([`FLAT_PATCH_LENGTH`]), so
    ///   it sticks out of where it meets the body: a patch of skin between
    ///   the thighs or on a haunch spans its collar (0.67-0.77 of it on the
    ///   look seeds whose patches this read as tubes);
    /// - elongated by its covariance (`min_elongation`), a tube across its
    ///   sections (`min_tube_ratio`), and standing off the skeleton at
    ///   least `min_stub_standoff` of its axial width, as a stub must.
    pub(super) fn tube_across_its_axis(
        &self,
        verdict: &mut Verdict,
        shape: &Shape<'_>,
        region: Region,
        at: &str,
    ) {
        if verdict.kind != Kind::Broad || region != Region::Pelvis {
            return;
        }
        let (params, tests, height) = (self.params, shape.tests, self.height);
        let positions = &self.weld.positions;
        let Some(radius) = ring_radius(positions, shape.collar) else { return };
        if shape.length <= FLAT_PATCH_LENGTH * radius || tests.elongation < params.min_elongation {
            return;
        }
        let points: Vec<Vec3> = shape.welded.iter().map(|&v| positions[v as usize]).collect();
        let Some(axial) = axial_tube(&points) else { return };
        let standoff = tests.reach / axial.width;
        if !stands_out(params, tests.reach / height, 0.5 * axial.width / height)
            || axial.ratio < params.min_tube_ratio
            || standoff < params.min_stub_standoff
        {
            return;
        }
        verdict.kind = Kind::Tail;
        verdict.decision = Decision::Chain;
        verdict.reason = format!(
            "a tube across its own axis on {at} (pelvis), though its collar runs along it (tube ratio {:.2} along its skin): {:.2} across its sections (>= min_tube_ratio {}), elongation {:.2}, {:.2} of its collar's radius long, its tip {:.3} H off the skeleton, {standoff:.2} of its axial width (>= min_stub_standoff {})",
            tests.tube,
            axial.ratio,
            params.min_tube_ratio,
            tests.elongation,
            shape.length / radius,
            tests.reach / height,
            params.min_stub_standoff
        );
    }
}
