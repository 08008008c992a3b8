//! Order statistics every stage shares: the nearest-rank percentile and
//! the median.
//!
//! Nearest rank (the `⌈p n⌉`-th smallest of `n` values) returns a value of
//! the data, never an interpolation: a tail's thickness or an edge's
//! stretch is one that was measured.

/// 0-based index of the nearest-rank `p`-quantile among `n >= 1` sorted
/// values (`p` in 0..=1; `p = 0` gives the smallest).
pub fn nearest_rank(n: usize, p: f32) -> usize {
    ((p * n as f32).ceil() as usize).clamp(1, n) - 1
}

/// The nearest-rank `p`-quantile of `sorted` (ascending, not empty).
pub fn percentile_sorted(sorted: &[f32], p: f32) -> f32 {
    sorted[nearest_rank(sorted.len(), p)]
}

/// The nearest-rank `p`-quantile of the finite `values`, in any order;
/// 0 when none is finite.
pub fn percentile(values: &[f32], p: f32) -> f32 {
    let mut v: Vec<f32> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return 0.0;
    }
    // The rank's value is one bit pattern in the total order, however the
    // rest lies: selecting it is enough (no sort of the whole list).
    let k = nearest_rank(v.len(), p);
    *v.select_nth_unstable_by(k, f32::total_cmp).1
}

/// The median of `values` as the middle rank `n / 2` of their total order
/// (the upper of the two middle values when `n` is even), selected, not
/// sorted; `None` when empty. A value of the data, like the percentiles.
pub fn median(values: &mut [f32]) -> Option<f32> {
    if values.is_empty() {
        return None;
    }
    let middle = values.len() / 2;
    Some(*values.select_nth_unstable_by(middle, f32::total_cmp).1)
}
