//! A detached shell's root from its taper: a tail narrows steadily from
//! its root to its tip; a quiver, a rolled cape or a strap does not.
use glam::Vec3;

use super::surface::{sorted_union, DETACHED_COLLAR_SHARE};
use crate::appendage::params::ENCLOSED_CAP_DEPTH;
use crate::geometry::{geodesic_from, MeshGraph, SubsetIndex};
use crate::stats::median;

/// The spacing of the rings a detached shell's taper is read from, as a
/// share of its geodesic diameter: a ring every step from two steps past
/// one end to two steps short of the other (0.10, 0.15 ... 0.90, seventeen
/// rings). The first and last rings are the nearest the ends whose axis
/// (between the levels a step either side, [`TANGENT_HALF_STEP`]) stays
/// inside the shell. Seventeen rings, not seven at 0.2 ... 0.8: the rings
/// in the wide end's cap are dropped ([`in_wide_cap`]), and on a stub three
/// or four radii long with a buried start a third of it that cap holds the
/// last two or three tenths of the diameter, so seven rings left four or
/// five, too few for most orders to be read as a taper.
const TAPER_STEP: f32 = 0.05;

/// The skeleton's direction at a ring is taken between the rings this
/// share of the diameter before and after it (one [`TAPER_STEP`]), so that
/// it follows the shell's own bend at that ring.
const TANGENT_HALF_STEP: f32 = TAPER_STEP;

/// How far the order of the rings' radii along the shell must lean one way
/// for a taper: Kendall's S (pairs of rings narrowing towards one end less
/// pairs widening) must reach a value that, on a tube of even width where
/// every order of the rings is as likely, fewer than this share of the
/// orders of as many rings reach either way ([`order_min`], the exact
/// distribution). For seven rings that is |S| >= 15 of 21 (0.030; 13 would
/// let 1 in 14 through); for seventeen 50 of 136. Fewer than five rings
/// cannot lean that far at all.
const TAPER_ORDER_CHANCE: f64 = 0.05;

/// A ring across the shell: its centre, the skeleton's direction there, its
/// radius square to that direction and its unevenness (the spread of the
/// middle half of its points' distances from the skeleton, [`square_radius`]).
struct Ring {
    centre: Vec3,
    axis: Vec3,
    radius: f32,
    spread: f32,
}

/// A detached shell's collar when the shell tapers steadily and the skin
/// nearest the bones does not ring its wide end: the cap, within
/// [`DETACHED_COLLAR_SHARE`] of its geodesic diameter, at the end whose
/// rings are the wider; `None` otherwise, and the collar stays the skin
/// nearest the bones.
///
/// A tail tapers from its root to its tip, and a tail modelled as a shell
/// of its own starts buried in the body at its root's full width. Nearness
/// to the bones does not find that start: a hanging tail stays about as far
/// from the thigh and pelvis bones along its length, and its tip swings
/// nearer them than the buried start (corpus seed 449: the skin nearest the
/// bones spans 0.14-0.67 of the shell's length from the tip), or the skin
/// nearest the bones is the side of the tail facing them (415: 0.58-1.0),
/// so the chain was rooted mid-tail or one radius off its centre line
/// (seeds 223, 415, 449, 456: 0.98-1.04 radii off). Comparing the two ends
/// alone cannot tell a taper from the uneven ends of a cylinder strapped to
/// the body (a quiver, a cape roll: corpus seeds 63, 331 were rooted at one
/// end, false chains), so the taper is read from the order of seven rings
/// (`steady_taper`). No scale enters: only the order of the rings' own
/// radii, and the collar's centre against its ring's radius.
pub(super) fn thicker_end_cap(
    welded: &[u32],
    graph: &MeshGraph,
    positions: &[Vec3],
    nearest_bones: &[u32],
) -> Option<Vec<u32>> {
    let sorted: Vec<u32>;
    let welded = if welded.is_sorted() {
        welded
    } else {
        sorted = sorted_union(welded, &[]);
        &sorted
    };
    let first = *welded.first()?;
    let farthest = |g: &[f32]| {
        (0..g.len()).filter(|&i| g[i].is_finite()).max_by(|&a, &b| g[a].total_cmp(&g[b]))
    };
    let from = |v: u32| geodesic_from(graph, positions, welded, &[v]);
    let a = farthest(&from(first))?;
    let ga = from(welded[a]);
    let b = farthest(&ga)?;
    let diameter = ga[b];
    if diameter <= 0.0 {
        return None;
    }
    let (narrows_to_a, rings) = steady_taper(welded, &ga, diameter, graph, positions)?;
    // The cap is measured from the tip: from a vertex on the rim of an open
    // buried start the skin within a share of the diameter is a slanted
    // patch to one side of the axis (corpus seeds 20, 41, 102: one rim
    // vertex, the root one radius off the centre line); from the tip the
    // levels are rings round the tube.
    // The geodesic from the far end is measured only when that end is the
    // tip (one walk over the shell fewer otherwise).
    let g_tip = if narrows_to_a { ga } else { from(welded[b]) };
    let g_tip = &g_tip;
    if rings_wide_end(welded, g_tip, diameter, positions, nearest_bones, &rings) {
        return None;
    }
    let cut = (1.0 - DETACHED_COLLAR_SHARE) * diameter;
    Some(
        (0..welded.len())
            .filter(|&i| g_tip[i] >= cut && g_tip[i].is_finite())
            .map(|i| welded[i])
            .collect(),
    )
}

/// Whether the shell narrows steadily towards the end the geodesic `g`
/// starts from (`Some((true, rings))`), towards the other end
/// (`Some((false, rings))`), or does not taper steadily (`None`): its
/// rings every [`TAPER_STEP`] of the `diameter`, each measured square to
/// the skeleton through the rings' centres (a ring cut by geodesic level
/// alone is slanted where the tail bends), less those in the wide end's cap
/// ([`in_wide_cap`]), lean one way as far as [`TAPER_ORDER_CHANCE`] allows,
/// and the first and last differ by more than the median ring's own
/// unevenness (the interquartile range of its points' distances from the
/// skeleton, [`square_radius`]).
fn steady_taper(
    welded: &[u32],
    g: &[f32],
    diameter: f32,
    graph: &MeshGraph,
    positions: &[Vec3],
) -> Option<(bool, Vec<Ring>)> {
    let steps = (1.0 / TAPER_STEP).round() as usize;
    let shares: Vec<f32> = (2..=steps - 2).map(|k| k as f32 * TAPER_STEP).collect();
    // Each ring and the two either side of it that give its axis: all
    // cut in one pass over the shell's edges.
    let levels: Vec<f32> = shares
        .iter()
        .flat_map(|&share| [share, share - TANGENT_HALF_STEP, share + TANGENT_HALF_STEP])
        .map(|s| s * diameter)
        .collect();
    let cuts = level_points(welded, g, &levels, graph, positions);
    let mut rings = Vec::with_capacity(shares.len());
    for at in cuts.chunks(3) {
        let ring = &at[0];
        let (Some(centre), Some(c0), Some(c1)) = (mean(ring), mean(&at[1]), mean(&at[2])) else {
            return None;
        };
        let axis = (c1 - c0).try_normalize()?;
        let (radius, spread) = square_radius(ring, centre, axis);
        rings.push(Ring { centre, axis, radius, spread });
    }
    let rings = in_wide_cap(rings, &shares, diameter);
    let order_min = order_min(rings.len())?;
    let mut order = 0i32;
    for (i, a) in rings.iter().enumerate() {
        for b in &rings[i + 1..] {
            order += (b.radius > a.radius) as i32 - (b.radius < a.radius) as i32;
        }
    }
    // The whole narrowing must also exceed a ring's own unevenness (the
    // median of the rings' interquartile ranges of their points' distances
    // from the skeleton): a cylinder whose rings wobble by less than that
    // can still order them by chance (a quiver of even radius 0.04 bent
    // through a corner read 0.0398 down to 0.0359, S -15 of seven rings,
    // against a median unevenness of 0.0052; of its sixteen rings left
    // out of its wide end's cap, S -34 where 46 is needed, 0.0031 against
    // 0.0067).
    let unevenness = median(&mut rings.iter().map(|r| r.spread).collect::<Vec<_>>())?;
    let narrowing = (rings[rings.len() - 1].radius - rings[0].radius).abs();
    if narrowing <= unevenness {
        return None;
    }
    (order.abs() >= order_min).then_some((order > 0, rings))
}

/// The rings (at `shares` of the `diameter`) less those lying in the wide
/// end's cap: within [`ENCLOSED_CAP_DEPTH`] of their own radii of that end.
/// The wide end is the end whose half of the rings has the larger median
/// radius.
///
/// A tail's wide end is its root, and a shell of its own closes there (a
/// buried start, a fur's end) at the root's full width: its rings within
/// the closing cap narrow against the taper (47289's last ring of seven
/// 0.029 after 0.031, 48751's 0.052 after 0.063; Kendall's S 13, no
/// taper), and the chain was rooted on the skin nearest a thigh bone, mid
/// tail. A tube's closed end is no deeper than its ring is wide, the reach
/// the enclosed cap rule reads too. The tip's cap narrows with the taper
/// and is kept: a tip's rings are as narrow as the tip, and dropping rings
/// within two of their own radii of it dropped a stubby fur's whole
/// tip half (40243's fur: five rings left, S 6).
fn in_wide_cap(rings: Vec<Ring>, shares: &[f32], diameter: f32) -> Vec<Ring> {
    let half = rings.len() / 2;
    let median_radius =
        |rs: &[Ring]| median(&mut rs.iter().map(|r| r.radius).collect::<Vec<_>>()).unwrap_or(0.0);
    let wide_far = median_radius(&rings[rings.len() - half..]) > median_radius(&rings[..half]);
    rings
        .into_iter()
        .zip(shares)
        .filter(|(ring, &share)| {
            let to_wide_end = if wide_far { 1.0 - share } else { share } * diameter;
            to_wide_end >= ENCLOSED_CAP_DEPTH * ring.radius
        })
        .map(|(ring, _)| ring)
        .collect()
}

/// The least |S| (Kendall's, pairs in order less pairs out of order) that
/// fewer than [`TAPER_ORDER_CHANCE`] of the orders of `n` rings reach
/// either way, from the exact count of orders by inversions (the Mahonian
/// numbers); `None` when no order of so few rings is that rare (fewer
/// than five).
fn order_min(n: usize) -> Option<i32> {
    if n < 2 {
        return None;
    }
    // orders[k]: orders of the rings with k pairs out of order.
    let mut orders = vec![1f64];
    for added in 1..n {
        let mut next = vec![0f64; orders.len() + added];
        for (k, &count) in orders.iter().enumerate() {
            for slot in &mut next[k..=k + added] {
                *slot += count;
            }
        }
        orders = next;
    }
    let total: f64 = orders.iter().sum();
    let pairs = n * (n - 1) / 2;
    // |S| >= pairs - 2k for the orders with at most k pairs out of order
    // (either way: twice their share); the least S is the largest k whose
    // share stays under the chance.
    let mut within = 0f64;
    let mut least = None;
    for (k, &count) in orders.iter().enumerate().take(pairs / 2 + 1) {
        within += count;
        if 2.0 * within / total >= TAPER_ORDER_CHANCE || 2 * k >= pairs {
            break;
        }
        least = Some((pairs - 2 * k) as i32);
    }
    least
}

/// Whether the skin nearest the bones rings the shell's wide end: it lies
/// on the root half (nearer the wide end than the tip along `g_tip`) and
/// its centre is within half a radius of the skeleton at the ring nearest
/// it. A collar round the tube centres on its axis; the side of the tube
/// facing a bone centres near its skin, a radius off; half a radius parts
/// the two.
fn rings_wide_end(
    welded: &[u32],
    g_tip: &[f32],
    diameter: f32,
    positions: &[Vec3],
    nearest_bones: &[u32],
    rings: &[Ring],
) -> bool {
    let root_half = nearest_bones.iter().all(|v| {
        welded
            .binary_search(v)
            .ok()
            .is_some_and(|i| !g_tip[i].is_finite() || g_tip[i] >= 0.5 * diameter)
    });
    let Some(p) = mean(&nearest_bones.iter().map(|&v| positions[v as usize]).collect::<Vec<_>>())
    else {
        return true;
    };
    let off_axis = |r: &Ring| {
        let v = p - r.centre;
        (v - r.axis * v.dot(r.axis)).length()
    };
    let Some(ring) =
        rings.iter().min_by(|a, b| p.distance(a.centre).total_cmp(&p.distance(b.centre)))
    else {
        return true;
    };
    root_half && off_axis(ring) <= 0.5 * ring.radius
}

/// The ring's radius square to the skeleton's `axis` through its centre
/// `c` (the median distance of its points from the axis line) and its
/// unevenness: the interquartile range of those distances.
///
/// The middle half, not the whole range: a ring cut by geodesic level on a
/// short bent shell runs into the caps at its ends for a few of its
/// points, and a part holding fur and skin puts the fur's offset into one
/// side of it. The whole range counted those few points as the ring's own
/// wobble, half a radius on the short hanging tails of the look windows
/// (47177: 0.024 on a ring of radius 0.030, 41374: 0.027 on 0.045), so
/// their steady taper (Kendall's S 15 and 21) read as no taper and the
/// chain was rooted mid-tail, hung from the wrong end. The middle half of
/// those rings spreads 0.001-0.012; an even tube's rings (the synthetic
/// quiver: 0.0023-0.0113) keep theirs. No new number.
fn square_radius(ring: &[Vec3], c: Vec3, axis: Vec3) -> (f32, f32) {
    let mut d: Vec<f32> = ring
        .iter()
        .map(|&p| {
            let v = p - c;
            (v - axis * v.dot(axis)).length()
        })
        .collect();
    d.sort_by(f32::total_cmp);
    (d[d.len() / 2], d[3 * d.len() / 4] - d[d.len() / 4])
}
fn mean(points: &[Vec3]) -> Option<Vec3> {
    (!points.is_empty()).then(|| points.iter().copied().sum::<Vec3>() / points.len() as f32)
}

/// Per level of `levels`: the points where the geodesic `g` (aligned with
/// `welded`, sorted) crosses it on the part's edges. One pass over the
/// edges for every level: a shell's taper reads 21 levels, and a pass per
/// level made this most of detection's cost on a large detached shell. An
/// edge's levels are found among the levels in increasing order (most
/// edges cross none), and a neighbour's place in `welded` is read from a
/// table over the graph when the shell is a sizeable share of it (a binary
/// search per edge was half the taper's cost on the bench's 29k-vertex
/// tail shell). Each level's points come in the same edge order either way.
fn level_points(
    welded: &[u32],
    g: &[f32],
    levels: &[f32],
    graph: &MeshGraph,
    positions: &[Vec3],
) -> Vec<Vec<Vec3>> {
    let mut points = vec![Vec::new(); levels.len()];
    let mut order: Vec<usize> = (0..levels.len()).collect();
    order.sort_by(|&a, &b| levels[a].total_cmp(&levels[b]));
    let ascending: Vec<f32> = order.iter().map(|&k| levels[k]).collect();
    let index = SubsetIndex::new(welded);
    for (i, &v) in welded.iter().enumerate() {
        let gv = g[i];
        if !gv.is_finite() {
            continue;
        }
        // The levels above `gv`: the first one an edge from `v` may cross.
        let first = ascending.partition_point(|&level| level <= gv);
        if first == ascending.len() {
            continue;
        }
        for &w in graph.neighbors_of(v as usize) {
            let Some(k) = index.of(w) else { continue };
            let gw = g[k];
            if !(gw.is_finite() && gv < gw) {
                continue;
            }
            for (&level, &at) in ascending[first..].iter().zip(&order[first..]) {
                if level > gw {
                    break;
                }
                let t = (level - gv) / (gw - gv);
                points[at].push(positions[v as usize].lerp(positions[w as usize], t));
            }
        }
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A ring of `n` points of radius `r` round the Y axis through the
    /// origin, with `off` of them pushed out to `r_off`.
    fn ring(n: usize, r: f32, off: usize, r_off: f32) -> Vec<Vec3> {
        (0..n)
            .map(|i| {
                let a = std::f32::consts::TAU * i as f32 / n as f32;
                let radius = if i < off { r_off } else { r };
                Vec3::new(radius * a.cos(), 0.0, radius * a.sin())
            })
            .collect()
    }

    #[test]
    fn the_least_order_of_a_taper_is_one_in_twenty_either_way() {
        // Seven rings: 76 of the 5040 orders have at most three pairs out
        // of order (|S| >= 15: 0.030 either way); with four, 174 (0.069).
        assert_eq!(order_min(7), Some(15));
        // Five rings: only the two monotone orders (2 of 120); six: 2 x 6
        // of 720 reach 13.
        assert_eq!(order_min(5), Some(10));
        assert_eq!(order_min(6), Some(13));
        assert_eq!(order_min(17), Some(50));
        // Four rings: the monotone orders are 2 of 24, more than 1 in 20.
        assert_eq!(order_min(4), None);
        assert_eq!(order_min(0), None);
    }

    #[test]
    fn a_rings_few_points_in_a_cap_do_not_make_it_uneven() {
        // 3 of 24 points (an eighth, inside the outer quarter) stand at
        // twice the radius: the radius and the middle half stay the even
        // ring's, the whole range would be a full radius.
        let (r, spread) = square_radius(&ring(24, 0.03, 3, 0.06), Vec3::ZERO, Vec3::Y);
        assert!((r - 0.03).abs() < 1e-6, "{r}");
        assert!(spread < 1e-6, "{spread}");
        // A ring squashed to an ellipse (a slanted cut of a wider tube):
        // half its points lie between the quartiles, so the spread is read.
        let squashed: Vec<Vec3> =
            ring(24, 0.03, 0, 0.0).iter().map(|p| Vec3::new(p.x * 1.5, 0.0, p.z)).collect();
        let (_, spread) = square_radius(&squashed, Vec3::ZERO, Vec3::Y);
        assert!(spread > 0.005, "{spread}");
    }
}
