//! Appendage detection and decisions (SPEC T1-T6): far skin, components on
//! the welded graph, collar, attachment with the trunk/thigh bias, the
//! centroid/reach and elongation tests, merging of overlapping shells, and a
//! report of every part found, rejected ones too.

mod attach;
mod decide;
mod detect;
mod params;
mod report;
mod shape;

pub use attach::{attachment_joint, joint_regions, Region};
pub use detect::{detect, find_appendages, percentile, Detection, PartGeometry, DETACHED_COLLAR_SHARE, LENGTH_PERCENTILE};
pub use params::{
    BroadPolicy, DetectParams, ATTACHMENT_BIAS, FAR_RATIO, MERGE_OVERLAP, MIN_CENTROID_RATIO, MIN_ELONGATION, MIN_PART_VERTICES,
};
pub use report::{Decision, Kind, PartReport, PartTests, Report};
pub use shape::{box_overlap, elongation};
