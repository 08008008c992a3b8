//! Chain weights (SPEC T9) and rigid binding (SPEC T7).

/// Influences of one vertex on a chain: `s = K g / L`, `k = floor(s)`,
/// `f = s - k`; the vertex belongs to bone `k+1` and shares the ends with
/// its neighbours: `w_prev = clamp(0.5 - 2f, 0, 0.5)`,
/// `w_next = clamp(2f - 1.5, 0, 0.5)`, `w_self = 1 - w_prev - w_next`.
/// `bones[0]` is "prev" of the root segment (the pelvis: the tail blends
/// into the body instead of creasing at the collar); `bones[1..=K]` are
/// `Tail_1..Tail_K`. At the tip there is no next bone: its share stays on
/// the last bone. Returns up to three `(joint, weight)` pairs, merged.
pub fn chain_weights(g: f32, length: f32, bones: &[u32], blend: f32) -> Vec<(u32, f32)> {
    let k_count = bones.len() - 1;
    let s = if length > 0.0 { k_count as f32 * g.max(0.0) / length } else { 0.0 };
    let k = (s.floor() as usize).min(k_count - 1);
    let f = s - k as f32;
    let w_prev = 0.5 * (1.0 - f / blend).clamp(0.0, 1.0);
    let w_next =
        if k + 1 < k_count { 0.5 * (1.0 - (1.0 - f) / blend).clamp(0.0, 1.0) } else { 0.0 };
    let w_self = 1.0 - w_prev - w_next;
    // Room for the three at once: a row grown from one had to move (a
    // reallocation per vertex of a blended tail).
    let mut out = Vec::with_capacity(3);
    out.push((bones[k + 1], w_self));
    if w_prev > 0.0 {
        out.push((bones[k], w_prev));
    }
    if w_next > 0.0 {
        out.push((bones[k + 2], w_next));
    }
    out
}
