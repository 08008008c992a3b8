//! The root collar of a tail that lies on the body. A curled tail (the
//! Shiba Inu's) touches the back with its far end, so its collar has two
//! rings: where it leaves the body and where its tip rests on it. Measured
//! from both, the geodesic coordinate is small at the tip too and the root
//! joint lands between them, outside the tail. The collar splits into its
//! connected clusters; the widest (its ring's radius) is where the tube
//! leaves the body (a tail tapers: its root ring is the widest contact),
//! unless the part closes round the skin past it (the tube's own
//! tip cap, on a tail found from its tip) while another cluster opens onto
//! the body; every cluster that the part reaches from that ring only after
//! [`FAR_CONTACT_SHARE`] of its length is a resting contact, no root, and
//! so is a tip cap the part closes round in its far half
//! ([`OWN_TIP_SHARE`]).
//!
//! The resting contact itself is the tail's own skin: where the tip lies on
//! the back its skeleton distance dips below the level that cut the part
//! (the Shiba Inu's four tip vertices there, at 0.34-0.38 H-units against a
//! cut at 0.38, are all tail in the artist's weights). It joins the part;
//! the body skin round it does not (it is only claimed once).

use glam::Vec3;

use crate::geometry::{geodesic_from, ring_radius, MeshGraph};

/// A collar cluster reached through the part from the root ring after
/// more than this share of the part's geodesic length is where the tail's
/// far end rests on the body. A second shell's ring (fur over skin) is
/// never reached through the other shell, and the pieces of one root ring
/// lie within a ring's width of each other (the Alpaca's stray root vertex
/// at 0.49 of its short tail, the largest measured); the Shiba Inu's resting
/// tip lies at 0.80 of its tail.
pub const FAR_CONTACT_SHARE: f32 = 0.6;

/// A collar cluster the part closes round (the skin past it, reached
/// without crossing the part, is smaller than the part: [`opens_beyond`])
/// is the tube's own tip cap, not a piece of its root ring, when the part
/// reaches it from the root ring after more than this share of its
/// geodesic length: nearer the part's far end than its root. A short
/// hanging tail whose far field peaks at its root's top is peeled there
/// and walked along its tube to its tip, whose cap the rigger's weights
/// held back; the cap's ring lay at 0.53-0.59 of the part (under
/// [`FAR_CONTACT_SHARE`]), counted as root ring with the ring where the
/// tail leaves the body, and the root joint sat mid tail, the chain hung
/// from the wrong end (corpus look seeds 48481, 52394, 54672:
/// `reversed_chain`). Skin the part closes round near its root is a pocket
/// of the root ring (43197, 52542: single vertices at 0.19 and
/// 0.32-0.36), and a second shell's ring is not reached through the part
/// at all: both stay root ring. No new number: half the part.
pub const OWN_TIP_SHARE: f32 = 0.5;

/// `collar` (sorted) split into the root ring and the resting contacts
/// (the clusters where the far end of the part lies on the body), both
/// sorted.
pub fn root_collar(
    graph: &MeshGraph,
    positions: &[Vec3],
    welded: &[u32],
    collar: &[u32],
) -> (Vec<u32>, Vec<u32>) {
    if collar.len() < 2 {
        return (collar.to_vec(), Vec::new());
    }
    let (cluster, count) = clusters(graph, collar);
    if count < 2 {
        return (collar.to_vec(), Vec::new());
    }
    let rings: Vec<Vec<u32>> = (0..count).map(|c| cluster_members(collar, &cluster, c)).collect();
    let open: Vec<bool> = rings.iter().map(|r| opens_beyond(graph, welded, r)).collect();
    let root = root_cluster(positions, &rings, &open);
    let sources = cluster_members(collar, &cluster, root);
    let mut subset: Vec<u32> = welded.iter().chain(collar).copied().collect();
    subset.sort_unstable();
    subset.dedup();
    let g = geodesic_from(graph, positions, &subset, &sources);
    let at = |v: u32| g[subset.binary_search(&v).unwrap()];
    let length = welded.iter().map(|&v| at(v)).filter(|x| x.is_finite()).fold(0.0f32, f32::max);
    // Nearest approach of each cluster from the root ring, through the part.
    let mut reach = vec![f32::INFINITY; count];
    for (i, &c) in collar.iter().enumerate() {
        reach[cluster[i]] = reach[cluster[i]].min(at(c));
    }
    // The part's far end: where it rests on the body, or its own tube's
    // tip cap (closed round by the part) in its far half.
    let any_open = open.iter().any(|&o| o);
    let far = |c: usize, share: f32| reach[c].is_finite() && reach[c] > share * length;
    let own_tip = |c: usize| any_open && !open[c] && far(c, OWN_TIP_SHARE);
    let resting = |c: usize| far(c, FAR_CONTACT_SHARE) || own_tip(c);
    let (mut root_ring, mut contact) = (Vec::new(), Vec::new());
    for (&v, &c) in collar.iter().zip(&cluster) {
        if resting(c) {
            contact.push(v)
        } else {
            root_ring.push(v)
        }
    }
    (root_ring, contact)
}

/// The collar vertices in cluster `c` (see [`clusters`]), in collar order.
fn cluster_members(collar: &[u32], cluster: &[usize], c: usize) -> Vec<u32> {
    collar.iter().zip(cluster).filter(|(_, &k)| k == c).map(|(&v, _)| v).collect()
}

/// Each collar vertex's cluster (the connected components of the collar on
/// the graph, numbered in order of their lowest vertex) and their count.
fn clusters(graph: &MeshGraph, collar: &[u32]) -> (Vec<usize>, usize) {
    let index = |v: u32| collar.binary_search(&v).ok();
    // Clusters: connected components of the collar on the graph.
    let mut cluster = vec![usize::MAX; collar.len()];
    let mut count = 0;
    for s in 0..collar.len() {
        if cluster[s] != usize::MAX {
            continue;
        }
        cluster[s] = count;
        let mut stack = vec![s];
        while let Some(i) = stack.pop() {
            for &w in graph.neighbors_of(collar[i] as usize) {
                if let Some(k) = index(w) {
                    if cluster[k] == usize::MAX {
                        cluster[k] = count;
                        stack.push(k);
                    }
                }
            }
        }
        count += 1;
    }
    (cluster, count)
}

/// The cluster where the part leaves the body: the widest, by its points'
/// median distance from their centre ([`ring_radius`]; ties: the first),
/// among the clusters that open onto more than the part ([`opens_beyond`])
/// when any does.
///
/// A tail tapers, so its root ring is the widest contact. That was read
/// from each cluster's edges into the part, which counts a ring's vertices
/// rather than its width: a tube's rings have as many vertices along its
/// length, each with two edges into the part, while the rump's ring round a
/// tail's root touches the part by fewer. A short hanging tail whose part
/// was its root end (the far field peaks at the top of its root, its tip
/// hanging by the thighs) has two open clusters, the rump's ring and the
/// tube's next ring mid tail, and the mid-tail ring won by its edges (look
/// seed 53846: 24 edges against 19, radius 0.006 against 0.018; 50288: 22
/// against 19, 2.2 against 5.6); the chain ran from mid tail back to the
/// root, or the part measured under the least tail length and got none.
/// On welded tails walked back to the body the same: 51397 (36 against 35,
/// radius 0.063 against 0.073), 52304 (24 against 22, 0.036 against 0.053).
/// No new number.
fn root_cluster(positions: &[Vec3], rings: &[Vec<u32>], open: &[bool]) -> usize {
    let count = rings.len();
    let width: Vec<f32> = rings.iter().map(|r| ring_radius(positions, r).unwrap_or(0.0)).collect();
    // A cluster the part closes round borders the part's own tube, not the
    // body: never the root, when another cluster opens onto the body.
    let any_open = open.iter().any(|&o| o);
    let candidate = |c: usize| open[c] || !any_open;
    (0..count)
        .filter(|&c| candidate(c))
        .fold(None, |best: Option<usize>, c| match best {
            Some(b) if width[b] >= width[c] => Some(b),
            _ => Some(c),
        })
        .unwrap_or(0)
}

/// Whether the skin beyond `ring` (a cluster of the part's collar), reached
/// without crossing the part, is larger than the part itself: the body
/// goes on past a ring where the part leaves it, while past a ring round
/// the part's own tube (a tail found from its middle or its tip, whose tip
/// cap the part has not taken yet) lies only that cap, which the part
/// closes round. On a short hanging tail peeled at its tip's contact and
/// walked back to its root, the cap's ring (11-12 welded vertices) has more
/// edges into the part than the root's (4, the rest of the root bordered by
/// the peel's remainder), and the chain was hung from the tip (corpus seeds
/// 40326, 40596, 42058). Bounded by the part's size, so cheap.
fn opens_beyond(graph: &MeshGraph, welded: &[u32], ring: &[u32]) -> bool {
    let budget = welded.len();
    let mut seen: std::collections::HashSet<u32> = ring.iter().copied().collect();
    if seen.len() > budget {
        return true;
    }
    let mut stack: Vec<u32> = ring.to_vec();
    while let Some(v) = stack.pop() {
        for &w in graph.neighbors_of(v as usize) {
            if welded.binary_search(&w).is_err() && seen.insert(w) {
                if seen.len() > budget {
                    return true;
                }
                stack.push(w);
            }
        }
    }
    false
}
