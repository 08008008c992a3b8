//! Edges and the statistics of their length ratios.

use super::{TORN_ABOVE, TORN_BELOW};
use crate::stats::percentile_sorted;

/// Every undirected edge of `triangles` whose two ends pass `keep`, sorted.
pub fn mesh_edges(triangles: &[[u32; 3]], keep: impl Fn(u32) -> bool) -> Vec<(u32, u32)> {
    let mut edges: Vec<(u32, u32)> = triangles
        .iter()
        .flat_map(|t| [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])])
        .filter(|&(a, b)| a != b && keep(a) && keep(b))
        .map(|(a, b)| (a.min(b), a.max(b)))
        .collect();
    edges.sort_unstable();
    edges.dedup();
    edges
}

/// Distribution of skinned / bind edge length over all samples.
#[derive(Clone, Debug, PartialEq, Default, serde::Serialize)]
pub struct StretchStats {
    /// Edge-time samples.
    pub samples: usize,
    /// 95th percentile ratio (nearest rank).
    pub p95: f32,
    /// 99th percentile ratio (nearest rank).
    pub p99: f32,
    /// Largest ratio.
    pub max: f32,
    /// Smallest ratio.
    pub min: f32,
    /// Share of samples beyond [`TORN_ABOVE`] or below [`TORN_BELOW`].
    pub torn_share: f32,
}

impl StretchStats {
    /// The distribution of `ratios` (any order); all zero for none.
    pub fn from_ratios(mut ratios: Vec<f32>) -> StretchStats {
        if ratios.is_empty() {
            return StretchStats::default();
        }
        ratios.sort_by(f32::total_cmp);
        let torn = ratios.iter().filter(|&&r| !(TORN_BELOW..=TORN_ABOVE).contains(&r)).count();
        StretchStats {
            samples: ratios.len(),
            p95: percentile_sorted(&ratios, 0.95),
            p99: percentile_sorted(&ratios, 0.99),
            max: ratios[ratios.len() - 1],
            min: ratios[0],
            torn_share: torn as f32 / ratios.len() as f32,
        }
    }
}
