//! Finger merging: the finger joints of a rig found by name and hierarchy,
//! and a rig whose finger weights belong to the hands. A rig for a tail
//! (or a crowd, or a game's LOD) often does not want 30 finger bones; the
//! hands then carry the fingers' skin rigidly.

use super::table::{Influences, Rig};
use crate::error::Result;

/// Words that name a digit in the conventions riggers use: Mixamo
/// (`mixamorig:LeftHandIndex1`), Rigify (`DEF-f_index.01.L`,
/// `DEF-thumb.01.L`), Unreal (`index_01_l`), Quaternius (`Index1.L`), plain
/// "finger". Matched anywhere in the name, ignoring case.
pub const FINGER_WORDS: [&str; 9] =
    ["finger", "thumb", "index", "middle", "ring", "pinky", "pinkie", "little", "f_"];

/// Words that name a hand, matched anywhere in the name ignoring case,
/// except when followed by [`NOT_HAND_SUFFIX`].
pub const HAND_WORDS: [&str; 3] = ["hand", "wrist", "palm"];

/// A hand word followed by this is another word ("handle" on a prop bone).
pub const NOT_HAND_SUFFIX: &str = "le";

/// One finger joint and the hand joint that takes its weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FingerMerge {
    /// The finger joint (its weight moves).
    pub finger: usize,
    /// The topmost hand joint above it (it takes the weight).
    pub hand: usize,
}

/// True when the joint name names a digit.
pub fn names_digit(name: &str) -> bool {
    let lower = name.to_lowercase();
    FINGER_WORDS.iter().any(|w| lower.contains(w))
}

/// True when the joint name names a hand (and no digit).
pub fn names_hand(name: &str) -> bool {
    let lower = name.to_lowercase();
    let hand_word = HAND_WORDS.iter().any(|w| {
        lower.match_indices(w).any(|(i, _)| !lower[i + w.len()..].starts_with(NOT_HAND_SUFFIX))
    });
    hand_word && !names_digit(name)
}

impl Rig {
    /// Each finger joint with the hand joint that takes its weight, in joint
    /// order.
    ///
    /// A finger is a joint below a hand (a joint named hand, wrist or palm
    /// and no digit) whose own name, or an ancestor's below the hand, names
    /// a digit. Palms and metacarpals below the hand are fingers too when a
    /// digit hangs from them. The topmost hand above takes the weight, so a
    /// palm under the hand is merged as well. Joints under no hand are
    /// never fingers: a "ring" on a belt stays.
    pub fn finger_merges(&self) -> Vec<FingerMerge> {
        let names = self.joint_names();
        let parents = self.parents();
        let digit: Vec<bool> = names.iter().map(|n| names_digit(n)).collect();
        let hand: Vec<bool> = names.iter().map(|n| names_hand(n)).collect();
        // A joint with a digit anywhere below it.
        let mut digit_below = vec![false; names.len()];
        for j in (0..names.len()).filter(|&j| digit[j]) {
            let mut p = parents[j];
            while let Some(a) = p {
                if digit_below[a] {
                    break;
                }
                digit_below[a] = true;
                p = parents[a];
            }
        }
        let mut merges = Vec::new();
        for j in 0..names.len() {
            let mut top_hand = None;
            let mut named_digit = digit[j];
            let mut p = parents[j];
            while let Some(a) = p {
                if hand[a] {
                    top_hand = Some(a);
                } else if top_hand.is_none() {
                    named_digit |= digit[a];
                }
                p = parents[a];
            }
            if let Some(h) = top_hand {
                if named_digit || digit_below[j] {
                    merges.push(FingerMerge { finger: j, hand: h });
                }
            }
        }
        merges
    }

    /// A new rig whose finger joints' skin weights belong to their hands
    /// ([`Rig::finger_merges`]), with those merges. The joints stay (weightless),
    /// so clips and files of this rig still fit it; a caller that wants the
    /// bones gone removes them. Per vertex, a hand's weight is its own plus
    /// its fingers' in joint order (f32 sums, as a dense table would add them).
    pub fn merge_fingers(&self) -> Result<(Rig, Vec<FingerMerge>)> {
        let merges = self.finger_merges();
        if merges.is_empty() {
            return Ok((self.clone(), merges));
        }
        let mut target: Vec<u32> = (0..self.joint_count() as u32).collect();
        for m in &merges {
            target[m.finger] = m.hand as u32;
        }
        let mut parts = self.to_parts();
        parts.influences = merged_influences(self.influences(), &target);
        Ok((Rig::new(parts)?, merges))
    }
}

/// Influences with every joint's weight moved to `target[joint]`. A row keeps
/// its joints' first-appearance order; weights landing on one joint sum in
/// joint order, the joint's own weight first.
fn merged_influences(inf: &Influences, target: &[u32]) -> Influences {
    let mut out = Influences { offsets: vec![0], ..Default::default() };
    let mut row: Vec<(u32, u32, f32)> = Vec::new();
    for v in 0..inf.vertex_count() {
        let (joints, weights) = inf.of(v);
        row.clear();
        row.extend(joints.iter().zip(weights).map(|(&j, &w)| (target[j as usize], j, w)));
        let start = out.joints.len();
        for &(t, _, _) in &row {
            if !out.joints[start..].contains(&t) {
                out.joints.push(t);
                out.weights.push(0.0);
            }
        }
        // The joint's own weight first, then the merged ones by joint index.
        row.sort_by_key(|&(t, j, _)| (t, j != t, j));
        for &(t, _, w) in &row {
            let slot = start + out.joints[start..].iter().position(|&x| x == t).unwrap_or(0);
            out.weights[slot] += w;
        }
        out.offsets.push(out.joints.len() as u32);
    }
    out
}
