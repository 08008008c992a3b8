//! The report (SPEC T6): every part found, rejected ones too, with the
//! measured tests and the reason for its decision. Serialises to the JSON
//! the CLI writes (`caudal tail --report`).

use serde::Serialize;

use super::attach::Region;

/// What a part is taken to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Long, hangs from the pelvis.
    Tail,
    /// Long, hangs from the spine (scabbard, quiver, strap).
    Carried,
    /// Hangs from the head or neck (ears, hair).
    Head,
    /// Not elongated, on the trunk (cape, skirt).
    Broad,
    /// Hangs from an arm or leg joint (sleeve, holster).
    Limb,
    /// Long on the trunk but one of a mirrored pair off the body's midline
    /// (wings, arms, their feathers): not a tail (see `midline`).
    Paired,
    /// Fails the centroid test: far skin of a thick body wrapping a bone.
    Body,
    /// Too few vertices to judge.
    Small,
}

/// What the fix does with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    /// Grow a bone chain (SPEC T8, T9).
    Chain,
    /// All its weight on one joint (SPEC T7).
    Rigid,
    /// The rigger's weights stay.
    Untouched,
}

/// The measured tests of SPEC T4.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PartTests {
    /// Skeleton distance of the part's centroid over its reach.
    pub centroid_ratio: f32,
    /// The centroid test passed (the part is far from the skeleton).
    pub centroid_passed: bool,
    /// `sqrt(l1 / l2)` of the covariance.
    pub elongation: f32,
    /// The elongation test passed.
    pub elongation_passed: bool,
    /// Geodesic length over the mean diameter of its cross-sections.
    pub tube_ratio: f32,
    /// The part counts as long (elongation and slenderness, or a clear tube).
    pub long: bool,
}

/// One part found by detection: what it is, its measures, what the fix did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PartReport {
    /// Position in the report.
    pub index: usize,
    /// What the part is.
    pub kind: Kind,
    /// What the fix does with it.
    pub decision: Decision,
    /// Why, in words with the deciding figures.
    pub reason: String,
    /// Name of the joint the part hangs from (None for a rig without
    /// weighted joints).
    pub attachment: Option<String>,
    /// Index of that joint.
    pub attachment_joint: Option<usize>,
    /// Body region of the attachment joint.
    pub region: Region,
    /// Original (seam-split) vertices in the part.
    pub vertex_count: usize,
    /// Welded vertices in the part.
    pub welded_vertex_count: usize,
    /// Welded vertices of its collar (the ring where it meets the body).
    pub collar_vertex_count: usize,
    /// Separate shells merged into this part (fur over skin: 2).
    pub shells: usize,
    /// Geodesic length from the collar, 99th percentile (model units).
    pub length: f32,
    /// `length / H`.
    pub length_ratio: f32,
    /// Largest skeleton distance of the part.
    pub reach: f32,
    /// Largest distance of a collar vertex from the collar centroid: the
    /// radius of the ring the part grows from.
    pub collar_radius: f32,
    /// Centroid of the part's skin (bind space).
    pub centroid: [f32; 3],
    /// The shape tests and their results.
    pub tests: PartTests,
    /// Bones grown for a chain (`Tail_1..Tail_K`, without `Tail_End`).
    pub bone_count: usize,
    /// Names of those bones, root first.
    pub bones: Vec<String>,
    /// The joint that takes all weight of a rigid part.
    pub rigid_joint: Option<String>,
    /// Mean weighted bone distance over the part's vertices (T10) on the
    /// rigger's rig, model units.
    pub bone_distance_before: f32,
    /// The same after the repair (equal to before for untouched parts;
    /// `None` until the fix ran).
    pub bone_distance_after: Option<f32>,
    /// "far" (a component of far skin), "peeled" (split off far body skin
    /// at a saddle of the distance field) or "remainder" (body skin left).
    pub origin: String,
    /// Skeleton distance of the saddle a peeled piece was cut at.
    pub cut_level: Option<f32>,
    /// Welded vertices added below the far threshold by following the tail's
    /// tube back to the body.
    pub root_vertices: usize,
    /// Welded vertices where the tail's far end rests on the body (a tail
    /// curled over the back), taken into the part.
    pub contact_vertices: usize,
    /// Whether the rigger's weights showed where it put the tail (the bones
    /// most of the part is weighted to, apart from the attachment).
    pub rigger_signature: bool,
    /// Welded vertices at the tail's root whose weights go over from the
    /// pelvis to the chain's (see `chain::handover`).
    pub handover_vertices: usize,
    /// The handover band's width in metres (0 when the part got no chain).
    pub handover_width: f32,
    /// The part's original vertex indices.
    #[serde(skip)]
    pub vertices: Vec<u32>,
}

/// What detection found on a rig, and what the fixes did with each part.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// Model height H (bind-pose extent along Y).
    pub height: f32,
    /// Skeleton distance above which skin is far (`far_ratio * H`).
    pub far_threshold: f32,
    /// Distance within which vertices weld, model units.
    pub weld_tolerance: f32,
    /// Vertices of the mesh.
    pub vertex_count: usize,
    /// Vertices after welding.
    pub welded_vertex_count: usize,
    /// The joint taken as the pelvis, if one was found.
    pub pelvis: Option<String>,
    /// Every part found, in detection order.
    pub parts: Vec<PartReport>,
}

impl Report {
    /// The report as pretty-printed JSON (the CLI's and the binding's form).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("report serialises")
    }

    /// The parts that get a chain.
    pub fn chains(&self) -> impl Iterator<Item = &PartReport> {
        self.parts.iter().filter(|p| p.decision == Decision::Chain)
    }
}
