//! Decisions (SPEC T5): chain for a long part on the pelvis, rigid for a
//! long part on the spine, untouched for the head and (by default) for
//! broad trunk parts.

use super::attach::Region;
use super::params::{BroadPolicy, DetectParams, STUB_RISE_RADII};
use super::report::{Decision, Kind};

/// What a part is and what it gets, with the reason in words.
pub struct Verdict {
    /// The part's kind (tail, carried, broad, ...).
    pub kind: Kind,
    /// What the fix does with it.
    pub decision: Decision,
    /// Why, with the figures that decided it.
    pub reason: String,
}

/// The fewest welded vertices that can make a tube: two rings of three. A
/// part with fewer is never a tail, however long.
pub const MIN_TUBE_VERTICES: usize = 6;

/// The verdict on one part from its size, shape tests and region (SPEC T5, T6).
#[allow(clippy::too_many_arguments)]
pub fn decide(
    params: &DetectParams,
    welded_count: usize,
    length_ratio: f32,
    region: Region,
    attachment: &str,
    centroid_ratio: f32,
    elongation: f32,
    tube_ratio: f32,
    reach_ratio: f32,
    collar_radius_ratio: f32,
) -> Verdict {
    let v = |kind, decision, reason: String| Verdict { kind, decision, reason };
    // Few vertices make a claw tip or a stray spike, unless they reach far:
    // a low-poly tail (a zebra's, seven welded vertices past the far
    // threshold) is a few rings a long way apart.
    let reaches = length_ratio >= params.min_protrusion_ratio && welded_count >= MIN_TUBE_VERTICES;
    if welded_count < params.min_part_vertices && !reaches {
        return v(
            Kind::Small,
            Decision::Untouched,
            format!(
                "{welded_count} welded vertices (< min_part_vertices {}) reaching {length_ratio:.3} H (< min_protrusion_ratio {})",
                params.min_part_vertices, params.min_protrusion_ratio
            ),
        );
    }
    if centroid_ratio < params.min_centroid_ratio {
        return v(
            Kind::Body,
            Decision::Untouched,
            format!(
                "centroid ratio {centroid_ratio:.2} < {:.2}: far skin wrapping a bone, part of the body",
                params.min_centroid_ratio
            ),
        );
    }
    let long = is_long(params, elongation, tube_ratio);
    let stub = is_stub(params, length_ratio, tube_ratio, reach_ratio, collar_radius_ratio);
    if region == Region::Pelvis && !long && stub {
        return v(
            Kind::Tail,
            Decision::Chain,
            format!(
                "a stub tail on {attachment} (pelvis): not long (elongation {elongation:.2}, tube ratio {tube_ratio:.2}) but its tip stands {reach_ratio:.3} H off the skeleton ({}) and {:.2} of its own width (>= min_stub_standoff {})",
                stub_reach_reason(params, reach_ratio),
                standoff(length_ratio, tube_ratio, reach_ratio),
                params.min_stub_standoff
            ),
        );
    }
    let trunk = matches!(region, Region::Pelvis | Region::Spine);
    if trunk && long && lies_on_body(params, length_ratio, tube_ratio, reach_ratio) {
        return covering(params, attachment, elongation, tube_ratio, length_ratio, reach_ratio);
    }
    match (region, long) {
        (Region::Head, _) => v(Kind::Head, Decision::Untouched, format!("hangs from {attachment} (head/neck): moving rigidly with the head is right")),
        (Region::Pelvis, true) => v(
            Kind::Tail,
            Decision::Chain,
            format!("long (elongation {elongation:.2}, tube ratio {tube_ratio:.2}) and hangs from {attachment} (pelvis)"),
        ),
        (Region::Spine, true) => v(
            Kind::Carried,
            Decision::Rigid,
            format!("long (elongation {elongation:.2}, tube ratio {tube_ratio:.2}) and hangs from {attachment} (spine): carried rigidly by that bone"),
        ),
        (Region::Pelvis | Region::Spine, false) => match params.broad {
            BroadPolicy::Untouched => v(
                Kind::Broad,
                Decision::Untouched,
                format!(
                    "not long (elongation {elongation:.2}, tube ratio {tube_ratio:.2}) on the trunk at {attachment}: rigger's weights kept (broad=\"rigid\" binds it)"
                ),
            ),
            BroadPolicy::Rigid => v(Kind::Broad, Decision::Rigid, format!("not long (elongation {elongation:.2}, tube ratio {tube_ratio:.2}) on the trunk; broad=\"rigid\" requested: bound to {attachment}")),
        },
        (Region::Limb, _) => v(Kind::Limb, Decision::Untouched, format!("hangs from {attachment} (a limb joint): follows its limb")),
    }
}

/// Long: passes the elongation test (SPEC T4b) and is at least a tube
/// long, or is a clear tube whatever its covariance (a curled tail).
pub fn is_long(params: &DetectParams, elongation: f32, tube_ratio: f32) -> bool {
    long_by_covariance(params, elongation, tube_ratio) || tube_ratio >= params.min_tube_ratio
}

/// Long by its covariance (SPEC T4b) and at least a tube long, whatever
/// its geodesic bands read: the part of [`is_long`] that does not rest on
/// the tube ratio alone.
pub fn long_by_covariance(params: &DetectParams, elongation: f32, tube_ratio: f32) -> bool {
    elongation >= params.min_elongation && tube_ratio >= params.min_slenderness
}

/// Reach over the part's mean width (its geodesic length over the tube
/// ratio is the mean diameter of its cross-sections); all in H.
fn standoff(length_ratio: f32, tube_ratio: f32, reach_ratio: f32) -> f32 {
    if length_ratio > 0.0 {
        reach_ratio * tube_ratio / length_ratio
    } else {
        0.0
    }
}

/// A stub tail: too short to pass as long, but its tip stands well past the
/// far cut ([`super::params::MIN_STUB_REACH`], or its base ring's radius
/// above it for a thin one, [`STUB_RISE_RADII`]) and at least about its own
/// width off the skeleton ([`super::params::MIN_STUB_STANDOFF`]), which a
/// body bulge and a garment over the rump do not.
pub fn is_stub(
    params: &DetectParams,
    length_ratio: f32,
    tube_ratio: f32,
    reach_ratio: f32,
    collar_radius_ratio: f32,
) -> bool {
    stands_out(params, reach_ratio, collar_radius_ratio)
        && standoff(length_ratio, tube_ratio, reach_ratio) >= params.min_stub_standoff
}

/// The part's tip stands out of the far cut as a stub's must ([`is_stub`]'s
/// reach bars): past [`super::params::MIN_STUB_REACH`] far thresholds, or
/// risen at least [`STUB_RISE_RADII`] of its collar's radius above the far
/// cut. A bulge of body skin that only just crosses the far cut does
/// neither. All in H.
pub fn stands_out(params: &DetectParams, reach_ratio: f32, collar_radius_ratio: f32) -> bool {
    past_stub_reach(params, reach_ratio)
        || rises_its_radius(collar_radius_ratio, reach_ratio, params.far_ratio)
}

/// Which of [`is_stub`]'s two reach bars the part met, for its reason: the
/// reach in far thresholds, or (a thin stub under it) its rise above the far
/// cut in its collar's radius.
fn stub_reach_reason(params: &DetectParams, reach_ratio: f32) -> String {
    if past_stub_reach(params, reach_ratio) {
        format!(">= min_stub_reach {} far thresholds", params.min_stub_reach)
    } else {
        format!(
            "< min_stub_reach {} far thresholds, but it rises at least STUB_RISE_RADII {STUB_RISE_RADII} of its collar's radius above the far cut",
            params.min_stub_reach
        )
    }
}

/// The tip stands [`super::params::MIN_STUB_REACH`] far thresholds off the
/// skeleton.
fn past_stub_reach(params: &DetectParams, reach_ratio: f32) -> bool {
    reach_ratio >= params.min_stub_reach * params.far_ratio
}

/// The tip rises above the far cut at least [`STUB_RISE_RADII`] of the
/// radius of the part's base ring, its collar (`collar_radius_ratio`: the
/// collar's median distance from its centre, [`crate::geometry::ring_radius`],
/// as the peel measures a piece's base for
/// [`super::peel::PROTRUSION_ASPECT`]); all in H.
pub fn rises_its_radius(collar_radius_ratio: f32, reach_ratio: f32, far_ratio: f32) -> bool {
    collar_radius_ratio > 0.0 && reach_ratio - far_ratio >= STUB_RISE_RADII * collar_radius_ratio
}

/// A part lies on the body, not out of it, when its tip stands off the
/// skeleton less than [`super::params::MIN_STUB_STANDOFF`] of its own mean
/// width: a cape, skirt or blanket follows the trunk's surface along its
/// whole length, so however long it is, it is wider than it stands off.
pub fn lies_on_body(
    params: &DetectParams,
    length_ratio: f32,
    tube_ratio: f32,
    reach_ratio: f32,
) -> bool {
    standoff(length_ratio, tube_ratio, reach_ratio) < params.min_stub_standoff
}

/// The verdict on a long trunk part that lies on the body: a covering,
/// decided as a broad part (the rigger's weights kept, or bound rigidly
/// when `broad="rigid"` asks).
fn covering(
    params: &DetectParams,
    attachment: &str,
    elongation: f32,
    tube_ratio: f32,
    length_ratio: f32,
    reach_ratio: f32,
) -> Verdict {
    let why = format!(
        "long (elongation {elongation:.2}, tube ratio {tube_ratio:.2}) but it lies on the body at {attachment}: its tip stands off the skeleton {:.2} of its own width (< min_stub_standoff {}), a covering (cape, skirt, blanket), not a tail or a carried part",
        standoff(length_ratio, tube_ratio, reach_ratio),
        params.min_stub_standoff
    );
    match params.broad {
        BroadPolicy::Untouched => Verdict {
            kind: Kind::Broad,
            decision: Decision::Untouched,
            reason: format!("{why}: rigger's weights kept (broad=\"rigid\" binds it)"),
        },
        BroadPolicy::Rigid => Verdict {
            kind: Kind::Broad,
            decision: Decision::Rigid,
            reason: format!("{why}; broad=\"rigid\" requested: bound to {attachment}"),
        },
    }
}
