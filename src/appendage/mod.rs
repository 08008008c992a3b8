//! Appendage detection and decisions (SPEC T1-T6): far skin, components on
//! the welded graph, collar, attachment with the trunk/thigh bias, the
//! centroid/reach and elongation tests, merging of overlapping shells, and a
//! report of every part found, rejected ones too.

mod anchor;
mod attach;
mod contact;
mod decide;
mod detect;
mod layers;
mod midline;
mod params;
mod peel;
mod report;
mod rigger_root;
mod root;
mod shape;

pub use anchor::{chain_anchor, ChainAnchor, ANCHOR_SKIN_RADII};
pub use attach::{attachment_joint, joint_regions, Region};
pub use contact::{root_collar, FAR_CONTACT_SHARE};
pub use detect::{
    cut_centre, detect, find_appendages, rig_vertices, Detection, PartGeometry,
    DETACHED_COLLAR_SHARE, LENGTH_PERCENTILE, RIG_MARKS_SHARE,
};
pub use layers::LAYER_GAP_WIDTHS;
pub use midline::{
    paired_off_midline, root_radius, MirrorPlane, Paired, Root, MIDLINE_ROOT_RADII, TWIN_ROOT_RADII,
};
pub use params::{
    BroadPolicy, DetectParams, ATTACHMENT_BIAS, ENCLOSED_CAP_DEPTH, FAR_RATIO, FLAT_CAP_THICKNESS,
    FLAT_PATCH_LENGTH, FLAT_TIP_STANDOFF, INSIDE_WINDING, MERGE_OVERLAP, MIN_CENTROID_RATIO,
    MIN_ELONGATION, MIN_PART_VERTICES, MIN_PROTRUSION_RATIO, MIN_SLENDERNESS, MIN_STUB_REACH,
    MIN_STUB_STANDOFF, MIN_TAIL_LENGTH_RATIO, MIN_TUBE_RATIO, STRIP_TUBE_RATIO, STUB_RISE_RADII,
};
pub use report::{Decision, Kind, PartReport, PartTests, Report};
pub use rigger_root::{
    grow_root, TailWeights, SIGNATURE_SHARE, TAIL_BONE_SHARE, TAIL_WEIGHT_SHARE,
};
pub use root::{
    in_walking_order, next_to, NECK_RING_SPREAD, RECUT_SLANT_RADII, RING_SIDE_SHARE, ROOT_BAND,
    ROOT_DEPTH, ROOT_RADIUS_SLACK,
};
pub use shape::{axial_tube, box_overlap, elongation, AxialTube, SECTION_MIN_VERTICES};
