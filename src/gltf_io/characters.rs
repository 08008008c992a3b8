//! Which skins of a file make one character.
//!
//! A character is a skeleton that moves as one: two skins belong to the
//! same character when they share a joint (RobotExpressive's two hands,
//! each skinned over the same 43 joints), or when a joint of one hangs
//! below a joint of the other, even through non-joint nodes (hair or a
//! cape skinned to its own bones under the body's head or spine). All the
//! joints of one skin are always one character, even when they form a
//! forest (the Quaternius animals: `Body` and four IK roots side by side).
//! Skins whose joints meet by none of these rules are separate characters:
//! two armatures with disjoint skeletons are two characters, even under a
//! common scene node (Sketchfab wraps everything in `Sketchfab_model`).
//!
//! Characters are numbered by their first skin, in file order.

/// Union-find over node indices.
struct Sets {
    parent: Vec<usize>,
}

impl Sets {
    fn new(n: usize) -> Self {
        Sets { parent: (0..n).collect() }
    }

    fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }

    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            // The smaller root wins: the result does not depend on the order of unions.
            let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
            self.parent[hi] = lo;
        }
    }
}

/// Groups skins into characters. `node_parent` is the node forest,
/// `skin_joints[s]` the node indices of skin `s`'s joints. Returns, per
/// character, its skins in file order; characters ordered by first skin.
pub fn group_skins(node_parent: &[Option<usize>], skin_joints: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = node_parent.len();
    let mut is_joint = vec![false; n];
    for js in skin_joints {
        for &j in js {
            is_joint[j] = true;
        }
    }
    let mut sets = Sets::new(n);
    for js in skin_joints {
        for w in js.windows(2) {
            sets.union(w[0], w[1]);
        }
    }
    for (j, _) in is_joint.iter().enumerate().filter(|(_, &b)| b) {
        let mut k = node_parent[j];
        while let Some(p) = k {
            if is_joint[p] {
                sets.union(j, p);
                break;
            }
            k = node_parent[p];
        }
    }
    let mut characters: Vec<(usize, Vec<usize>)> = Vec::new();
    for (s, js) in skin_joints.iter().enumerate() {
        let Some(&first) = js.first() else { continue };
        let root = sets.find(first);
        match characters.iter_mut().find(|(r, _)| *r == root) {
            Some((_, skins)) => skins.push(s),
            None => characters.push((root, vec![s])),
        }
    }
    characters.into_iter().map(|(_, skins)| skins).collect()
}
