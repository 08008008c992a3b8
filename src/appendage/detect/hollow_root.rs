//! The root's growth takes the tube's wall, not what lies inside it: the
//! body's rounded end that a thick tail's root passes over stays the
//! body's.

use glam::Vec3;

use super::root_growth::Growing;
use super::surface::Surface;
use crate::appendage::peel::NECK_FLARE;
use crate::appendage::root::{marks, TUBE_TAPER_SLACK};
use crate::geometry::{points_ring_radius, ring_radius};

/// Grown skin nearer the tube's axis than this share of the tube's radius
/// is not the tube's wall: a wall lies a radius off its axis (a tapering
/// one a little less), so half way. What lies there is the body's rounded
/// end where a thick tail leaves the side of the rump just before it: the
/// end carries on inside the tail's root for up to a radius, hidden by the
/// tail's skin, and the walks back over the surface (and the axis
/// extension, and the ring's low side) took it with the tube. Traced at
/// stop 63 on the look windows' thick dinosaur tails failing precision at
/// 0.937-0.949 (11 of the 26 precision-only failures): 10-16 of each one's
/// 14-23 body vertices lay within 0.9 root radii of the truth's axis.
/// Measured: 0.5 gains 7 look seeds and loses 1 (a bone distance 0.0008
/// short of its bar); 0.6 gains 9 and loses 11, eight of them separate
/// tail shells whose buried start (inside the tube too) was hollowed, and
/// with those left alone (`Surface::on_body_shells`) still loses 3.
pub const HOLLOW_SHARE: f32 = 0.5;

/// Where the tube's axis at the root is read: the centres of the part's
/// rings at these geodesic levels, in radii of its collar ring (the skin
/// round the root, as wide as the tube or wider). The first lies past the
/// skin inside the tube (the body's end reaches up to a radius into the
/// tail), the second a radius and a half further, near enough the root
/// that a curled tail's bend does not carry the chord off the tube. A part
/// no longer than the second level is left as it is: read on shorter parts
/// (the levels held within 0.4 and 0.8 of the part's length), the second
/// ring lay on a short tail's tip cap and the axis across its tube (look
/// windows: 11 seeds gained, 13 lost, short thin hanging tails hung from
/// the wrong end or given no chain).
pub const HOLLOW_AXIS_LEVELS: (f32, f32) = (2.0, 3.5);

impl Surface<'_> {
    /// The skin the root's growth took (`part.welded` less `before`, both
    /// sorted) that lies inside the tube goes back to the body: within
    /// [`HOLLOW_SHARE`] of the first ring's radius of the axis through the
    /// rings at [`HOLLOW_AXIS_LEVELS`], from a radius on the tip's side of
    /// the first ring to a collar radius past the root's end of the
    /// coordinate. Only where the rings read are the tube's (the first no
    /// wider than [`TUBE_TAPER_SLACK`] times the collar ring, which is at
    /// least as wide as the tube, and no narrower than the collar over
    /// [`NECK_FLARE`]: a collar that much wider is body skin past the
    /// neck, and levels in its radii lie many of the tube's radii up the
    /// tail, where a hanging tail's chord misses its root; look seed
    /// 53025's read 0.40 and hollowed two of the tail's first ring, while
    /// every tail gained read 0.53-0.86) and what lies inside is less than half
    /// of what grew (skin inside a tube is the lesser part of the tube's
    /// length grown round it): never-used seed 35464's long thin fur tail
    /// read a first ring 4.2 times its collar's across a second piece, and
    /// a part grown from its narrow end had all ten vertices it took
    /// "inside"; hollowed, a joint fell 4.3 local radii off the tail.
    /// The part's collar and coordinate are read again. Returns how many
    /// vertices went.
    pub(super) fn hollow_root(
        &self,
        part: &mut Growing,
        taken: &mut [bool],
        before: &[u32],
    ) -> usize {
        let positions = &self.weld.positions;
        let Some(collar) = ring_radius(positions, &part.collar).filter(|r| *r > 0.0) else {
            return 0;
        };
        let (near, far) = (HOLLOW_AXIS_LEVELS.0 * collar, HOLLOW_AXIS_LEVELS.1 * collar);
        if part.length.is_nan() || part.length <= far {
            return 0;
        }
        let (Some((c1, r1)), Some((c2, _))) =
            (self.part_ring(part, near), self.part_ring(part, far))
        else {
            return 0;
        };
        let axis = (c1 - c2).normalize_or_zero();
        let tube_ring = r1 * NECK_FLARE >= collar && r1 <= TUBE_TAPER_SLACK * collar;
        if axis == Vec3::ZERO || !tube_ring {
            return 0;
        }
        let inside = |v: u32| {
            let d = positions[v as usize] - c1;
            let along = d.dot(axis);
            along > -r1 && along <= near + collar && (d - along * axis).length() < HOLLOW_SHARE * r1
        };
        let grown: Vec<u32> =
            part.welded.iter().copied().filter(|v| before.binary_search(v).is_err()).collect();
        let inner: Vec<u32> = grown.iter().copied().filter(|&v| inside(v)).collect();
        let inner = self.on_body_shells(part, inner);
        if inner.is_empty() || 2 * inner.len() >= grown.len() {
            return 0;
        }
        for &v in &inner {
            taken[v as usize] = false;
        }
        part.welded.retain(|v| inner.binary_search(v).is_err());
        part.collar = self.root_ring(&part.welded);
        (part.geodesic, part.length) = self.geodesic_of(&part.welded, &part.collar);
        inner.len()
    }

    /// Of `inner` (sorted), the vertices on a shell that also holds skin
    /// outside `part`. A separate tail shell's buried start lies inside its
    /// tube as well, and it is the tail's own: its shell is the part's
    /// alone. Hollowed, the start's pole went back to the body and, taken
    /// again as a cap the part encloses, moved the collar to the tip's end
    /// (never-used seed 8724: the chain hung from the wrong end).
    fn on_body_shells(&self, part: &Growing, inner: Vec<u32>) -> Vec<u32> {
        let id = &self.shells.id;
        let count = id.iter().copied().max().map_or(0, |m| m as usize + 1);
        let in_part = marks(id.len(), &part.welded);
        let mut outside = vec![false; count];
        for (&s, _) in id.iter().zip(&in_part).filter(|(_, &p)| !p) {
            outside[s as usize] = true;
        }
        inner.into_iter().filter(|&v| outside[id[v as usize] as usize]).collect()
    }

    /// The ring where the part's geodesic coordinate crosses `level`: the
    /// centre of the crossing points on its edges and their median
    /// distance from it.
    fn part_ring(&self, part: &Growing, level: f32) -> Option<(Vec3, f32)> {
        let positions = &self.weld.positions;
        let mut points = Vec::new();
        for (a, &v) in part.welded.iter().enumerate() {
            let ga = part.geodesic[a];
            // Only skin short of the level has an edge across it.
            if ga.is_nan() || ga >= level {
                continue;
            }
            for &w in self.graph.neighbors_of(v as usize) {
                let Ok(b) = part.welded.binary_search(&w) else { continue };
                let gb = part.geodesic[b];
                if gb >= level && gb.is_finite() {
                    let s = (level - ga) / (gb - ga).max(1e-12);
                    points.push(positions[v as usize].lerp(positions[w as usize], s));
                }
            }
        }
        let radius = points_ring_radius(&points)?;
        let centre = points.iter().copied().sum::<Vec3>() / points.len() as f32;
        Some((centre, radius))
    }
}
