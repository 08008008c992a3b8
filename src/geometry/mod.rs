//! Weld by position, the welded mesh graph, the skeleton distance field,
//! geodesic distances over the mesh and the weighted bone distance (SPEC T1,
//! T2, T8, T10).

mod bone_distance;
mod dijkstra;
mod graph;
mod nearest;
mod skeleton_field;
mod thickness;
mod twins;
mod weld;
mod winding;

pub use bone_distance::{
    weighted_bone_distance, weighted_bone_distances, BoneDistance, MeasuredDistances,
};
pub use dijkstra::{
    geodesic_from, geodesic_from_starts, geodesic_within, relax_across_twins, SubsetIndex,
};
pub use graph::MeshGraph;
pub use nearest::NearestPoints;
pub use skeleton_field::{
    point_segment_distance, weighted_joints, BoneSegment, SkeletonField, LEAF_STUB_RATIO,
};
pub use thickness::{
    points_ring_radius, polyline_distance, ring_radius, thickness, THICKNESS_PERCENTILE,
};
pub use twins::{twin_pairs, TWIN_EDGE_SHARE};
pub use weld::{Weld, WELD_TOLERANCE_RATIO};
#[cfg(test)]
pub(crate) use winding::cuboid;
pub use winding::winding_number;
