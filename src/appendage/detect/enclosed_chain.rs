//! A part that a chain part encloses (another chain part, or any part not
//! judged body) is a piece of that tail: their shells are one part, judged
//! and grown again as one.

use super::merge::classes;
use super::surface::neighbour_collar;
use super::PartGeometry;
use crate::geometry::MeshGraph;

/// The groups of `groups` with every enclosed part's group joined to its
/// host's, each with how many of `groups` it joins (1: none), or `None` when no
/// part is enclosed. Parts are in group order (`parts[i]` is made of
/// `groups[i]`). A join whose shells (sorted) are in `refused` is not made:
/// judged as one, those shells got no chain.
///
/// A part is enclosed when its whole collar (the skin next to it) is one
/// chain part's skin, and it is a chain part or `carried` (any part not
/// judged body). Such a part meets the body nowhere: it is
/// skin of the host's tube, or something the tube carries (a spike or fin
/// on the tail), and moves with it. Grown as its own chain it hangs a
/// second chain inside the first tail, from the wrong end. Where the peel
/// leaves one (traced on the look windows, stop 50):
/// - a tail under a fur shell: the skin and the fur's far half are one
///   part, cut where the fur leaves the far threshold half way along the
///   tail, and the fur's root half is a far part of its own whose only
///   collar is that cut, mid-tail (seeds 40729, 41547, 48855, 52054,
///   52246: 120-216 welded vertices, all tail, collars of 10-28 vertices
///   all in the host; recall 0.48-0.70, two chains);
/// - a short tail hanging round the end of the pelvis bone, whose skeleton
///   distance barely changes from root to tip: the peel cuts it lengthwise,
///   and the far half of every ring is enclosed by the near half's part
///   (42433, 48839, 53944);
/// - a short thick hanging tail peeled twice, its tip a piece of its own:
///   rooted where it leaves the rump, the host grows down the tube to the
///   tip piece, which alone is too short for a chain (stop 58, look seed
///   52544: 33 welded vertices, all tail, left untouched, recall 0.863).
///   Enclosed skin moves with the tube whatever its own verdict.
///
/// Joined, the host's shells and the piece's are judged and grown as one
/// part, to where their union meets the body: one tail, one chain. Where
/// the joined part is then no chain, the join is refused and the two
/// chains stay (40945, 42662: the two half tubes of a short hanging tail,
/// judged as one, are no tail). No number: a collar is inside the host or
/// it is not. A collar shared by two chain parts, or touching body skin,
/// leaves both as they are.
pub(super) fn join_enclosed_chains(
    groups: &[Vec<usize>],
    parts: &[PartGeometry],
    chain: &[bool],
    carried: &[bool],
    graph: &MeshGraph,
    refused: &[Vec<usize>],
) -> Option<(Vec<Vec<usize>>, Vec<usize>)> {
    let chains: Vec<usize> = (0..parts.len()).filter(|&i| chain[i]).collect();
    let mut host_of: Vec<usize> = (0..groups.len()).collect();
    let mut joined = false;
    for piece in (0..parts.len()).filter(|&i| chain[i] || carried[i]) {
        let collar = neighbour_collar(&parts[piece].welded, graph);
        if collar.is_empty() {
            continue;
        }
        let host = chains.iter().copied().find(|&h| {
            h != piece && collar.iter().all(|v| parts[h].welded.binary_search(v).is_ok())
        });
        if let Some(h) = host {
            host_of[piece] = h;
            joined = true;
        }
    }
    if !joined {
        return None;
    }
    // One class per host and the parts it encloses: two parts enclosing
    // each other (a shell cut in two) are one class too. Each class's shells
    // go in group order, led by its first group that no other part encloses
    // (its shells decide the joined part's origin).
    let members = classes(groups.len(), host_of.iter().copied().enumerate());
    let mut out = Vec::new();
    let mut joins = Vec::new();
    for gs in members {
        let mut shells: Vec<usize> = gs.iter().flat_map(|&g| groups[g].iter().copied()).collect();
        shells.sort_unstable();
        if gs.len() > 1 && refused.contains(&shells) {
            out.extend(gs.iter().map(|&g| groups[g].clone()));
            joins.extend(gs.iter().map(|_| 1));
            continue;
        }
        let lead = gs.iter().copied().find(|&g| host_of[g] == g).unwrap_or(gs[0]);
        let mut group = groups[lead].clone();
        for &g in gs.iter().filter(|&&g| g != lead) {
            group.extend(groups[g].iter().copied());
        }
        out.push(group);
        joins.push(gs.len());
    }
    joins.iter().any(|&n| n > 1).then_some((out, joins))
}

/// The shells (sorted) of each joined group whose part got no chain.
pub(super) fn lost_chains(
    groups: &[Vec<usize>],
    joins: &[usize],
    chain: &[bool],
) -> Vec<Vec<usize>> {
    (0..groups.len())
        .filter(|&g| joins[g] > 1 && !chain[g])
        .map(|g| {
            let mut shells = groups[g].clone();
            shells.sort_unstable();
            shells
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::*;

    /// A grid `w` vertices wide and `h` rows high, two triangles a cell.
    fn grid(w: u32, h: u32) -> MeshGraph {
        let mut triangles = Vec::new();
        for r in 0..h - 1 {
            for c in 0..w - 1 {
                let v = r * w + c;
                triangles.push([v, v + 1, v + w]);
                triangles.push([v + 1, v + w + 1, v + w]);
            }
        }
        MeshGraph::from_triangles((w * h) as usize, &triangles)
    }

    fn part(welded: Vec<u32>) -> PartGeometry {
        let n = welded.len();
        PartGeometry {
            welded,
            collar: Vec::new(),
            geodesic: vec![0.0; n],
            length: 1.0,
            attachment: None,
            root: Vec3::ZERO,
            root_at_cut: true,
        }
    }

    /// A 4 x 6 grid: rows 0-1 body, rows 2-5 a chain part, and `piece`
    /// (cut out of the chain part) a part of its own.
    fn split(piece: &[u32]) -> (MeshGraph, Vec<PartGeometry>) {
        let body = part((0..8).collect());
        let host = part((8..24).filter(|v| !piece.contains(v)).collect());
        (grid(4, 6), vec![body, host, part(piece.to_vec())])
    }

    #[test]
    fn a_chain_part_inside_another_joins_it() {
        // Vertices 13, 14, 17, 18: every neighbour is the host's.
        let (graph, parts) = split(&[13, 14, 17, 18]);
        let groups = vec![vec![0], vec![1, 3], vec![2]];
        let chain = [false, true, true];
        let (joined, joins) =
            join_enclosed_chains(&groups, &parts, &chain, &chain, &graph, &[]).expect("joined");
        assert_eq!(joined, vec![vec![0], vec![1, 3, 2]]);
        assert_eq!(joins, vec![1, 2]);
        // Judged as one and no chain: refused, and not offered again.
        let lost = lost_chains(&joined, &joins, &[false, false]);
        assert_eq!(lost, vec![vec![1, 2, 3]]);
        assert!(join_enclosed_chains(&groups, &parts, &chain, &chain, &graph, &lost).is_none());
        assert!(lost_chains(&joined, &joins, &[false, true]).is_empty());
    }

    #[test]
    fn a_chain_part_touching_the_body_or_no_chain_stays_apart() {
        let groups = vec![vec![0], vec![1], vec![2]];
        let none_joined = |graph: &MeshGraph, parts: &[PartGeometry], chain: [bool; 3]| {
            join_enclosed_chains(&groups, parts, &chain, &[false; 3], graph, &[]).is_none()
        };
        // 9 and 10 border the body's row 1.
        let (graph, parts) = split(&[9, 10, 13, 14]);
        assert!(none_joined(&graph, &parts, [false, true, true]));
        // Enclosed, but the host got no chain (or the piece none).
        let (graph, parts) = split(&[13, 14, 17, 18]);
        assert!(none_joined(&graph, &parts, [false, false, true]));
        assert!(none_joined(&graph, &parts, [false, true, false]));
        // A piece without a chain, not judged body, moves with its host.
        let carried = [false, true, true];
        let (joined, _) =
            join_enclosed_chains(&groups, &parts, &[false, true, false], &carried, &graph, &[])
                .expect("joined");
        assert_eq!(joined, vec![vec![0], vec![1, 2]]);
    }
}
