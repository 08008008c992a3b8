//! Detection parameters with the SPEC T1-T5 defaults.

use serde::{Deserialize, Serialize};

use crate::error::{CaudalError, Result};
use crate::geometry::{LEAF_STUB_RATIO, WELD_TOLERANCE_RATIO};
use crate::rig::RoleOverrides;

/// A vertex is far when its skeleton distance exceeds this fraction of the
/// model height H (SPEC T1: 7 %, the fox's 13 cm).
pub const FAR_RATIO: f32 = 0.07;
/// Centroid test (SPEC T4a): the skeleton distance of a part's centroid must
/// be at least this fraction of its reach (largest skeleton distance).
pub const MIN_CENTROID_RATIO: f32 = 0.4;
/// Shape test (SPEC T4b): `sqrt(l1/l2)` of the part's covariance. The
/// article gives about 2.6 for a tail and about 1 for a cape or skirt but no
/// cut; 1.6 sits between them with room for a curled tail (whose covariance
/// is rounder than a straight one's).
pub const MIN_ELONGATION: f32 = 1.6;
/// Attachment bias (SPEC T3): a trunk or thigh joint within this factor of
/// the nearest joint distance wins.
pub const ATTACHMENT_BIAS: f32 = 1.5;
/// Merge (SPEC T5): parts at one attachment (or layers of one tube, see
/// [`super::LAYER_GAP_WIDTHS`]) whose bounding boxes overlap by more than
/// this share (of the smaller box) are one part; separate surfaces only
/// when more than this share of the smaller one's vertices also lie under
/// the larger (`merge_shells` in detect/merge.rs: a box says nothing of
/// what lies in it).
pub const MERGE_OVERLAP: f32 = 0.5;
/// Parts with fewer welded vertices than this are reported but never
/// changed: a handful of vertices (a claw tip, a stray spike) carries no
/// shape worth a test.
pub const MIN_PART_VERTICES: usize = 12;

/// Peeling: a piece split off far body skin must rise at least this
/// fraction of H above the saddle where it meets the rest (a tail does by
/// most of its length; a belly bulge or a muscle does not).
pub const MIN_PROTRUSION_RATIO: f32 = 0.1;

/// Tube ratio: geodesic length over the mean diameter of the part's
/// geodesic cross-sections (8 bands of the geodesic coordinate). Covariance
/// elongation alone calls a strip of far skin round a waist "long" (it is
/// long, round the body) and a curled tail "broad" (its covariance is
/// round). A part is long when it passes the elongation test and is at least
/// [`MIN_SLENDERNESS`] tubes long, or is a clear tube
/// ([`MIN_TUBE_RATIO`]) whatever its covariance (a curled tail). Measured:
/// the Shiba Inu's curled tail 1.30 (elongation 1.40), a synthetic cape
/// 1.03, the strips of far skin round CesiumMan's waist 0.49 and 0.99, the
/// Wolf's tail 3.8, the Fox's 4.0.
pub const MIN_SLENDERNESS: f32 = 1.0;
/// Tube ratio above which a part is long whatever its covariance (a curled
/// tail; see [`MIN_SLENDERNESS`]).
pub const MIN_TUBE_RATIO: f32 = 1.2;

/// A part sticks out of the body only when its geodesic length (collar to
/// farthest vertex) exceeds this share of its collar's median radius: a
/// flat patch spanning its collar measures exactly its radius (rim to
/// centre), a patch wider than it is long (the far skin between a biped's
/// thighs) less; anything standing out of the body at least a cap over its
/// collar more (a hemisphere pi/2). A tail's far piece is a tube's end at
/// the least. Measured in corpus seeds 0..200 at the decision: the crotch
/// patches judged tails 0.86-0.90; the shortest true tails' far or peeled
/// pieces 1.9 and up (stub tails 1.9-2.1).
pub const FLAT_PATCH_LENGTH: f32 = 1.0;

/// A part whose tube ratio (its geodesic length over the mean width of its
/// geodesic bands, see [`MIN_SLENDERNESS`]) is under this lies along its
/// collar, not across it, and [`FLAT_PATCH_LENGTH`] and
/// [`FLAT_TIP_STANDOFF`] do not judge it. A patch spanning its collar has
/// bands that shrink from the collar to its centre: their mean width is its
/// length (a flat disc reads 1, a cap or a dome more). Bands wider than the
/// part is long run along the collar: a strip. A short thin tail hanging
/// behind the thighs is cut by the far threshold along its length; its
/// outer half, tip included, is the part, and its collar runs root to tip
/// down both sides. That collar's radius is half the tail's length, not
/// the tail's radius, and against it the half tube read 0.59-0.98 and was
/// demoted as a flat patch: no chain (corpus look windows 40000..56000, 31
/// such tails, tube ratio 0.19-0.93). A part that is not long reaches a
/// tail verdict only as a stub, whose own bar asks whether its tip stands
/// off the skeleton (`min_stub_standoff`). The parts the two tests demote in
/// seeds 0..600 and 40000..56000 read 1.00-1.51 (187 of 188; the crotch
/// patches of seeds 79, 111 and 189: 1.1-1.2). The one under 1 (seed
/// 43489, 0.63) is far skin with no tail vertex beside a dinosaur's
/// hanging tail under a cape: it now passes as a stub and grows into that
/// tail, whose seed had no chain and now has one at precision 0.748.
pub const STRIP_TUBE_RATIO: f32 = 1.0;

/// A part stands out of the body only when its tip (the vertex farthest
/// from its collar along the skin) lies more than this share of its
/// collar's median radius from where it meets the body (the collar's cut
/// centre): a cap no higher than a hemisphere over its collar lifts its
/// tip exactly the radius, a flat disc (a fan of rings closing the end of
/// a body tube, its pole at the rings' centre) hardly at all, and a tail's
/// far piece, a tube's end at the least, more. Its geodesic length does not
/// tell the disc apart ([`FLAT_PATCH_LENGTH`]): the disc's rings are
/// concentric about its pole, so the pole lies a full ring radius or more
/// along the skin from the collar. Measured in corpus seeds 0..200 at the
/// decision: the end cap of a torso tube judged a tail (seed 10) 0.34; the
/// true tails' far or peeled pieces 1.32 and up (stub tails 1.69-2.6).
/// Short parts that lift their tip less than that are not all caps (a short
/// tail hanging from a wide, aslant collar), so the cap must also lie in
/// one plane ([`FLAT_CAP_THICKNESS`]), or be long only by its tube ratio
/// and fail to stand out of the far cut as a stub tail must
/// ([`MIN_STUB_REACH`], [`STUB_RISE_RADII`]): the torso's rounded rear end,
/// its fan with a few far vertices of the next ring (corpus seeds 800, 1349,
/// 1777, 2075), is not flat but reaches only 1.23-1.34 far thresholds, the
/// hanging tails 1.65 and up.
pub const FLAT_TIP_STANDOFF: f32 = 1.0;

/// A part lies in one plane when it departs from its best plane by at most
/// this share of its width (`shape::flatness`, `sqrt(l3 / l2)` of its
/// covariance): a disc of rings round a pole scores 0, anything with a
/// round cross section about 1. Measured in corpus seeds 0..200 on the
/// parts shape and region call tails or carried parts whose tip lifts no
/// more than [`FLAT_TIP_STANDOFF`]: the torso's end cap (seed 10) 0.000,
/// every other 0.27 and up.
pub const FLAT_CAP_THICKNESS: f32 = 0.1;

/// Close skin a tail's part encloses (bounded by the part alone) joins the
/// tail only when it is a cap closing the part's ring: no vertex of it lies
/// farther than this many of the ring's radii from the ring (its nearest
/// ring vertex; the ring's diameter). A tube's closed end is no deeper than
/// its ring is wide (a hemisphere's pole lies 1.41 radii from its ring); a
/// separate tail shell's buried start goes on about a root radius past
/// where the tail leaves the body. The torso under a whole-body fur shell,
/// which a tail's fur encloses as well, runs on for many of the tail's
/// radii. Measured on the look window's buried starts (seeds 42, 53) from
/// the ring's centre: 1.30 and 1.58; seed 26, whose ring is slanted along
/// the tail: 2.94 from the centre, 1.98 from the ring.
pub const ENCLOSED_CAP_DEPTH: f32 = 2.0;

/// Skin a chain's part holds only along its cut (a vertex of the part next
/// to none of its inside) goes back to the body when it lies farther than
/// this many radii of the part's root ring from the ring's centre (the ring:
/// the part's edge vertices next to its inside). Two radii are the root's
/// thickness: the chain's hand-over spreads the first bone's turn over one
/// root thickness (`crate::chain::HANDOVER_RADII`), and the whole-mesh
/// measure's collar band is one thickness wide (`COLLAR_BAND_DIAMETERS`), so
/// skin within it is the root's own. Skin caught on the cut a whole
/// thickness or more away is body skin the cut took beside the tube (the
/// torso's rear pole under a short level tail's tip, 2.9-3.0 radii on look
/// seeds 40650 and 40805; tongues of rump skin by a hanging tail's root,
/// 2.1-4.4 on 40112, 40765, 43155), and half its weight on the first bone
/// made the body drift 0.3-4.3% of H (bar 0.2%). Nearer skin on the cut is
/// the ring's own: a low-poly ring's side vertex joined to the part only by
/// its ring neighbours lies 1.03-1.05 radii out (the Alpaca fixture, look
/// seeds 53550 and 54490, all true tail), the skin round the seam 0.9-1.4.
/// Not a clean split: a long thin hanging tail's root skin on a slanted cut
/// lies 2.04 out (seed 475, two true tail vertices given back, recall 0.950
/// -> 0.949), and 40820's drifting skin 1.9-2.0 stays (0.77% of H).
pub const CAUGHT_SKIN_RADII: f32 = 2.0;

/// Close skin a tail's part encloses also joins the tail when it lies on a
/// shell other than the body's and is buried: the mesh's other shells (not
/// the tail's own skin and fur) wind round the centre of its points at
/// least this much more than round the tail's middle. Half a turn is
/// midway between outside (0) and inside a closed surface (1), so a body
/// left open (an arm hole, a neck) still reads inside where it closes round
/// the point. Such skin is a separate tail shell's start hidden in the
/// body, however deep it goes: on thin and long tails the part's root ring
/// is narrow against it, and the start reached 2.0 to 3.8 ring radii past
/// the ring, no cap by [`ENCLOSED_CAP_DEPTH`] (look-window seeds 40787,
/// 43484, 43551, 49889, 53777, 53902 and seven more: 30 to 37 welded
/// vertices, all tail, left on the pelvis by a nearest-bone rigger, recall
/// 0.82 to 0.95). The tail's middle is the reference because a fur shell
/// that is not in the tail's part winds round the skin under it from root
/// to tip: read against nothing, that skin's root half read as buried (two
/// tails already split between their skin and fur turned into chains hung
/// from the wrong end). A whole-body fur's torso lies outside the body,
/// and the body's own shell is never read this way.
pub const INSIDE_WINDING: f64 = 0.5;

/// A stub tail: a part on the pelvis that is not long (a short tail is
/// about as long as it is thick, so its tube ratio is near 1 and its
/// covariance round) still gets a chain when its tip stands this many far
/// thresholds from the skeleton. Body bulges that only just cross the far
/// cut (rump and belly skin, muscles) reach 1.1-1.5 far thresholds in the
/// generated corpus (0.077-0.104 H); the short tails the corpus generates
/// stand 1.7-5 (0.117-0.354 H) off their bones.
pub const MIN_STUB_REACH: f32 = 1.6;
/// A thin stub tail stands out of the far cut by its own radius even where
/// its tip stays under [`MIN_STUB_REACH`]: a stub also counts when its tip
/// rises above the far cut (reach minus the far threshold) at least this
/// many times the radius of its base ring, its collar (the collar's median
/// distance from its centre, as the peel measures a piece's base). A bulge
/// of body skin that crosses the far cut swells over a base wider than it
/// rises; a tube's end rises at least its radius, as a peeled piece must
/// rise its base ring's radius (`super::peel::PROTRUSION_ASPECT`).
/// [`MIN_STUB_REACH`] is in far thresholds (H), blind to how thin the part
/// is: a tail 0.05-0.07 H long and 0.015-0.02 H thick hanging behind the
/// thighs stands 1.46-1.57 far thresholds off its bones. The part's mean
/// width (the mean diameter of its geodesic cross-sections) is no measure
/// of that base where the far cut runs along such a tail: the bands from
/// that slanted collar run along the tail, not across it (corpus seed 533:
/// a mean radius 0.051 H, its collar's 0.026 H, its tip rising 0.033 H).
/// Measured in corpus seeds 0..600 at the decision, on parts on the pelvis
/// that are not long and not small, under [`MIN_STUB_REACH`]: body and
/// broad parts rise 0.05-0.77 of their collar's radius above the cut, the
/// four short tails 1.24-2.95.
pub const STUB_RISE_RADII: f32 = 1.0;
/// A stub tail must also stand off the skeleton at least this share of
/// its own mean width (reach over the mean diameter of its geodesic
/// cross-sections, the part's own thickness): a garment or blanket over
/// the rump is wider than it stands off (0.52-0.65 in the corpus, the rat's
/// rump 0.47 and 0.59), a short tail about its width or more (0.92-2.3).
/// The same measure keeps a *long* trunk part that lies on the body (a
/// cape down the back, a blanket along it: 0.41-0.67 of their width in
/// corpus seeds 0..200) from being a tail or a carried part, and a shell
/// that lies on the body from merging into one that stands out (a blanket
/// over a curled tail's root); see `super::decide::lies_on_body`.
pub const MIN_STUB_STANDOFF: f32 = 0.8;

/// A stub on the pelvis that is round, not a sheet (`shape::flatness`,
/// `sqrt(l3 / l2)` of its covariance, at least this), is a tube's end even
/// when it stands off less than [`MIN_STUB_STANDOFF`] of its width: a thick
/// tail hanging behind the thighs is cut by the far threshold along its
/// length, so its geodesic bands from that slanted collar run along the tail
/// and its "width" is its length (standoff 0.68-0.78 on corpus seeds 228,
/// 332, 486, fur and the skin under it as one part). The coverings the
/// standoff bar keeps off are sheets: a blanket over the rump, alone or with
/// the rump skin under it, 0.39-0.48 on seeds 0..600; the tails 0.79-0.92.
/// Half way between a tube (1) and a flat patch ([`FLAT_CAP_THICKNESS`]).
pub const ROUND_STUB_FLATNESS: f32 = 0.6;

/// The standoff a round stub ([`ROUND_STUB_FLATNESS`]) still needs, as a
/// share of [`MIN_STUB_STANDOFF`] (0.6 of its width by default): round
/// coverings wrap the trunk (a skirt round the hips) and stand off less than
/// half their width (0.41-0.49 on seeds 0..600), the round tails 0.68 and
/// up. Tied to the stub's bar so that switching that bar off switches both.
pub const ROUND_STUB_STANDOFF_SHARE: f32 = 0.75;

/// A tail shorter than this fraction of H (geodesic length, after its root
/// is followed back) gets no chain: three bones on a stub a few percent of
/// the body tall would be shorter than the skin they bend. Half a segment
/// of SPEC T8's `0.1 H`.
pub const MIN_TAIL_LENGTH_RATIO: f32 = 0.05;

/// What to do with broad parts on the trunk (capes, skirts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum BroadPolicy {
    /// Leave the rigger's weights alone (default, SPEC T5: a garment spread
    /// over hips and both thighs must keep following the legs).
    #[default]
    Untouched,
    /// Bind the whole part to its attachment joint; only on request.
    Rigid,
}

impl BroadPolicy {
    /// From its name (`untouched`, `rigid`); errors name `field`.
    pub fn parse(field: &str, s: &str) -> Result<BroadPolicy> {
        match s {
            "untouched" => Ok(BroadPolicy::Untouched),
            "rigid" => Ok(BroadPolicy::Rigid),
            _ => Err(CaudalError::param(
                field,
                format!("{s:?} is not one of \"untouched\", \"rigid\""),
            )),
        }
    }
}

/// How appendages are found and decided; every threshold relative to `H`
/// or to the part itself. Serde names are the keyword names of the Python
/// API, a missing one takes its default.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DetectParams {
    /// Far threshold as a fraction of H ([`FAR_RATIO`]).
    pub far_ratio: f32,
    /// Stub past leaf joints as a fraction of the incoming bone.
    pub leaf_stub_ratio: f32,
    /// Weld tolerance as a fraction of the bounding-box diagonal.
    pub weld_tolerance_ratio: f32,
    /// [`MIN_CENTROID_RATIO`].
    pub min_centroid_ratio: f32,
    /// [`MIN_ELONGATION`].
    pub min_elongation: f32,
    /// [`ATTACHMENT_BIAS`].
    pub attachment_bias: f32,
    /// [`MERGE_OVERLAP`].
    pub merge_overlap: f32,
    /// [`MIN_PART_VERTICES`].
    pub min_part_vertices: usize,
    /// [`MIN_PROTRUSION_RATIO`].
    pub min_protrusion_ratio: f32,
    /// [`MIN_TAIL_LENGTH_RATIO`].
    pub min_tail_length_ratio: f32,
    /// [`MIN_SLENDERNESS`].
    pub min_slenderness: f32,
    /// [`MIN_TUBE_RATIO`].
    pub min_tube_ratio: f32,
    /// [`MIN_STUB_REACH`] (in far thresholds).
    pub min_stub_reach: f32,
    /// [`MIN_STUB_STANDOFF`] (reach over the part's mean width).
    pub min_stub_standoff: f32,
    /// Broad trunk parts: untouched (default) or rigid on request.
    pub broad: BroadPolicy,
    /// Joint-role overrides (pelvis, spine, head, ...) by joint name; serde
    /// carries the pelvis's alone, as `pelvis` (the one role detection's
    /// callers name; `Rig.roles` takes them all).
    #[serde(rename = "pelvis", with = "pelvis_role")]
    pub roles: RoleOverrides,
}

/// [`RoleOverrides`] as the pelvis joint's name alone (none: no override).
mod pelvis_role {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::rig::RoleOverrides;

    pub fn serialize<S: Serializer>(r: &RoleOverrides, s: S) -> Result<S::Ok, S::Error> {
        r.pelvis.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<RoleOverrides, D::Error> {
        Ok(RoleOverrides { pelvis: Option::<String>::deserialize(d)?, ..Default::default() })
    }
}

impl Default for DetectParams {
    fn default() -> Self {
        DetectParams {
            far_ratio: FAR_RATIO,
            leaf_stub_ratio: LEAF_STUB_RATIO,
            weld_tolerance_ratio: WELD_TOLERANCE_RATIO,
            min_centroid_ratio: MIN_CENTROID_RATIO,
            min_elongation: MIN_ELONGATION,
            attachment_bias: ATTACHMENT_BIAS,
            merge_overlap: MERGE_OVERLAP,
            min_part_vertices: MIN_PART_VERTICES,
            min_protrusion_ratio: MIN_PROTRUSION_RATIO,
            min_tail_length_ratio: MIN_TAIL_LENGTH_RATIO,
            min_slenderness: MIN_SLENDERNESS,
            min_tube_ratio: MIN_TUBE_RATIO,
            min_stub_reach: MIN_STUB_REACH,
            min_stub_standoff: MIN_STUB_STANDOFF,
            broad: BroadPolicy::Untouched,
            roles: RoleOverrides::default(),
        }
    }
}

fn check_range(field: &str, v: f32, lo: f32, hi: f32) -> Result<()> {
    if !v.is_finite() || v < lo || v > hi {
        return Err(CaudalError::param(field, format!("{v} is outside [{lo}, {hi}]")));
    }
    Ok(())
}

impl DetectParams {
    /// Errors naming the first field out of range.
    pub fn validate(&self) -> Result<()> {
        check_range("far_ratio", self.far_ratio, 1e-4, 1.0)?;
        check_range("leaf_stub_ratio", self.leaf_stub_ratio, 0.0, 10.0)?;
        check_range("weld_tolerance_ratio", self.weld_tolerance_ratio, 0.0, 0.1)?;
        check_range("min_centroid_ratio", self.min_centroid_ratio, 0.0, 1.0)?;
        check_range("min_elongation", self.min_elongation, 1.0, 1e3)?;
        check_range("attachment_bias", self.attachment_bias, 1.0, 100.0)?;
        check_range("merge_overlap", self.merge_overlap, 0.0, 1.0)?;
        check_range("min_protrusion_ratio", self.min_protrusion_ratio, 0.0, 10.0)?;
        check_range("min_tail_length_ratio", self.min_tail_length_ratio, 0.0, 10.0)?;
        check_range("min_slenderness", self.min_slenderness, 0.0, 1e3)?;
        check_range("min_tube_ratio", self.min_tube_ratio, 0.0, 1e3)?;
        check_range("min_stub_reach", self.min_stub_reach, 0.0, 1e3)?;
        check_range("min_stub_standoff", self.min_stub_standoff, 0.0, 1e3)?;
        Ok(())
    }
}
