//! The template rigger's pass over the tail it had no bone for: each
//! vertex's tail share (its artist weight on tail joints) goes to body
//! bones, the way the spec's rigger does it. Vertices without tail weight
//! keep the artist's weights exactly.

use glam::Vec3;

use super::character::Character;
use super::mesh::{normalize, Weights};
use super::rng::position_share;
use super::skeleton::{Role, Side};
use super::spec::Rigger;

fn segment_distance(p: Vec3, a: Vec3, b: Vec3) -> f32 {
    let ab = b - a;
    let t = if ab.length_squared() > 0.0 {
        ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    p.distance(a + t * ab)
}

/// Bone segments of the joints that carry body weight: head to each child
/// that is not a tail or decoy joint, or a short stub past a leaf.
fn body_bones(ch: &Character) -> Vec<(usize, Vec3, Vec3)> {
    let s = &ch.skel;
    let mut weighted = vec![false; s.joints.len()];
    for (_, m) in &ch.pieces {
        for w in &m.weights {
            for &(j, x) in w {
                if x > 0.0 && !s.joints[j].role.is_tail() {
                    weighted[j] = true;
                }
            }
        }
    }
    let mut out = Vec::new();
    for j in (0..s.joints.len()).filter(|&j| weighted[j]) {
        let a = s.joints[j].head;
        let kids: Vec<usize> = s
            .children(j)
            .filter(|&c| {
                !s.joints[c].role.is_tail()
                    && s.joints[c].role.decoy_kind().is_none_or(|k| k == "nub")
            })
            .collect();
        if kids.is_empty() {
            let dir = s.joints[j]
                .parent
                .map(|p| a - s.joints[p].head)
                .unwrap_or(Vec3::Y * 0.1 * s.height);
            out.push((j, a, a + 0.3 * dir));
        }
        for c in kids {
            out.push((j, a, s.joints[c].head));
        }
    }
    out
}

/// Degraded weights, piece by piece, vertex by vertex.
pub fn degrade(ch: &Character) -> Vec<Vec<Weights>> {
    let s = &ch.skel;
    let bones = body_bones(ch);
    let pelvis = s.get(Role::Pelvis);
    let (thigh_l, thigh_r, shin_l) = (
        s.get(Role::Thigh(Side::Left)),
        s.get(Role::Thigh(Side::Right)),
        s.get(Role::Shin(Side::Left)),
    );
    ch.pieces
        .iter()
        .map(|(_, m)| {
            m.positions
                .iter()
                .zip(&m.weights)
                .zip(&m.tags)
                .map(|((&p, w), tag)| {
                    let share = ch.tail_share(w);
                    if share == 0.0 {
                        return w.clone();
                    }
                    let mut out: Weights =
                        w.iter().copied().filter(|(j, _)| !s.joints[*j].role.is_tail()).collect();
                    match ch.spec.rigger {
                        Rigger::Legs => {
                            let u = if tag.tail_u.is_nan() { 0.0 } else { tag.tail_u };
                            let main = 0.7 + 0.2 * position_share(p, 0x5eed);
                            let (first, second) = if u > ch.spec.rigger_cut {
                                (shin_l, thigh_l)
                            } else if p.x >= 0.0 {
                                (thigh_l, thigh_r)
                            } else {
                                (thigh_r, thigh_l)
                            };
                            out.push((first, share * main));
                            out.push((second, share * (1.0 - main)));
                        }
                        Rigger::Nearest => {
                            let j = bones
                                .iter()
                                .min_by(|a, b| {
                                    segment_distance(p, a.1, a.2)
                                        .total_cmp(&segment_distance(p, b.1, b.2))
                                })
                                .map_or(pelvis, |b| b.0);
                            out.push((j, share));
                        }
                        Rigger::Pelvis => out.push((pelvis, share)),
                        Rigger::Spine => out.push((s.first_above_pelvis(), share)),
                    }
                    normalize(&out)
                })
                .collect()
        })
        .collect()
}
