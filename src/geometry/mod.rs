//! Weld by position, the welded mesh graph, the skeleton distance field and
//! geodesic distances over the mesh (SPEC T1, T2, T8).

mod dijkstra;
mod graph;
mod skeleton_field;
mod weld;

pub use dijkstra::{geodesic_from, geodesic_within};
pub use graph::MeshGraph;
pub use skeleton_field::{
    point_segment_distance, weighted_joints, BoneSegment, SkeletonField, LEAF_STUB_RATIO,
};
pub use weld::{Weld, WELD_TOLERANCE_RATIO};
