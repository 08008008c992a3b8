//! Joint roles (pelvis, spine, neck, head, thighs, shins) found by name
//! patterns of the common riggers, with a topological fallback, and user
//! overrides by joint name. Every role says which rule found it.

use glam::Vec3;

use super::Rig;
use crate::error::Result;

/// How a role was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoleRule {
    /// Named by the user.
    Override,
    /// A name pattern matched; the string names the pattern.
    Name(String),
    /// Found from the shape of the skeleton; the string says how.
    Topology(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct RoleSource {
    pub role: String,
    pub joint: usize,
    pub rule: RoleRule,
}

/// User overrides by joint name; unknown names are errors.
#[derive(Clone, Debug, Default)]
pub struct RoleOverrides {
    pub pelvis: Option<String>,
    pub spine: Option<Vec<String>>,
    pub neck: Option<String>,
    pub head: Option<String>,
    /// Left, right.
    pub thighs: [Option<String>; 2],
    pub shins: [Option<String>; 2],
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct JointRoles {
    pub pelvis: Option<usize>,
    /// From the pelvis upwards (pelvis excluded), up to the neck.
    pub spine: Vec<usize>,
    pub neck: Option<usize>,
    pub head: Option<usize>,
    /// Left, right (left is +X in the core's space, as in glTF).
    pub thighs: [Option<usize>; 2],
    pub shins: [Option<usize>; 2],
    /// One entry per role found, with the rule that found it.
    pub sources: Vec<RoleSource>,
}

/// Lower-case base name without rigger prefixes and numbering suffixes:
/// `mixamorig:LeftUpLeg` -> `leftupleg`, `b_Hip_01` -> `hip`,
/// `DEF-thigh.L` -> `thigh.l`.
pub fn base_name(name: &str) -> String {
    let mut s = name.rsplit(':').next().unwrap_or(name).to_ascii_lowercase();
    for prefix in ["def-", "org-", "mch-", "def_", "b_", "bip01_", "bip01 ", "bip001 ", "j_", "jnt_", "bn_"] {
        if let Some(rest) = s.strip_prefix(prefix) {
            s = rest.to_string();
        }
    }
    // Trailing "_01" / "_012" / ".001" numbering.
    loop {
        let trimmed = s.trim_end_matches(|c: char| c.is_ascii_digit());
        if trimmed.len() < s.len() && (trimmed.ends_with('_') || trimmed.ends_with('.')) && trimmed.len() > 1 {
            s = trimmed[..trimmed.len() - 1].to_string();
        } else {
            break;
        }
    }
    s
}

/// Side from the name: Some(0) left, Some(1) right.
pub fn name_side(name: &str) -> Option<usize> {
    let b = base_name(name);
    let l = b.starts_with("left") || b.ends_with(".l") || b.ends_with("_l") || b.starts_with("l_") || b.ends_with(" l") || b.contains("_l_");
    let r = b.starts_with("right") || b.ends_with(".r") || b.ends_with("_r") || b.starts_with("r_") || b.ends_with(" r") || b.contains("_r_");
    match (l, r) {
        (true, false) => Some(0),
        (false, true) => Some(1),
        _ => None,
    }
}

/// The name without side tokens, for pattern matching.
fn unsided(name: &str) -> String {
    let b = base_name(name);
    let b = b.strip_prefix("left").or_else(|| b.strip_prefix("right")).unwrap_or(&b).to_string();
    let b = b.trim_end_matches(".l").trim_end_matches(".r").trim_end_matches("_l").trim_end_matches("_r").to_string();
    b.trim_start_matches("l_").trim_start_matches("r_").trim_matches(|c| c == '_' || c == '.' || c == ' ').to_string()
}

const PELVIS_NAMES: &[&str] = &["hips", "hip", "pelvis", "root_hips", "hips_jnt"];
const NECK_NAMES: &[&str] = &["neck", "neck1", "neck_01", "neck01"];
const HEAD_NAMES: &[&str] = &["head"];
const THIGH_NAMES: &[&str] = &["upleg", "upperleg", "thigh", "leg01", "upper_leg", "thigh_twist"];
const SHIN_NAMES: &[&str] = &["leg", "lowerleg", "shin", "calf", "leg02", "lower_leg", "knee"];
/// Rigify's deform pelvis is the first spine bone.
const RIGIFY_PELVIS: &str = "DEF-spine";
/// Quaternius' animal rig: hind legs and tail hang from `Back`.
const ANIMAL_PELVIS: &str = "back";

impl JointRoles {
    pub fn find(rig: &Rig, overrides: &RoleOverrides) -> Result<JointRoles> {
        let mut roles = JointRoles::default();
        let names = rig.joint_names();
        let heads = rig.bind_heads();
        let descendants = descendant_counts(rig);

        // Pelvis
        if let Some(n) = &overrides.pelvis {
            let j = rig.require_joint("roles.pelvis", n)?;
            roles.set_pelvis(j, RoleRule::Override);
        } else if let Some(j) = names.iter().position(|n| PELVIS_NAMES.contains(&base_name(n).as_str())) {
            roles.set_pelvis(j, RoleRule::Name(format!("hips/pelvis name ({})", names[j])));
        } else if let Some(j) = names.iter().position(|n| n.eq_ignore_ascii_case(RIGIFY_PELVIS)) {
            roles.set_pelvis(j, RoleRule::Name(format!("Rigify pelvis ({})", names[j])));
        } else if let Some(j) = names.iter().position(|n| {
            base_name(n) == ANIMAL_PELVIS
        }) .filter(|&j| rig.children(j).any(|c| { let u = unsided(&names[c]); u.contains("leg") || u.contains("shoulder") }))
        {
            roles.set_pelvis(j, RoleRule::Name("Quaternius animal `Back` with hind legs".into()));
        } else if let Some(j) = topological_pelvis(rig, &heads, &descendants) {
            roles.set_pelvis(j, RoleRule::Topology("joint where two leg chains and the spine meet".into()));
        }

        // Legs: names first, then the chains that go down from the pelvis.
        for side in 0..2 {
            if let Some(n) = &overrides.thighs[side] {
                roles.thighs[side] = Some(rig.require_joint(if side == 0 { "roles.thighs[0]" } else { "roles.thighs[1]" }, n)?);
                roles.push_source(if side == 0 { "thigh.L" } else { "thigh.R" }, roles.thighs[side].unwrap(), RoleRule::Override);
            }
            if let Some(n) = &overrides.shins[side] {
                roles.shins[side] = Some(rig.require_joint(if side == 0 { "roles.shins[0]" } else { "roles.shins[1]" }, n)?);
                roles.push_source(if side == 0 { "shin.L" } else { "shin.R" }, roles.shins[side].unwrap(), RoleRule::Override);
            }
        }
        if let Some(pelvis) = roles.pelvis {
            let legs = leg_chains(rig, pelvis, &heads);
            for (side, chain) in legs.iter().enumerate() {
                let Some(chain) = chain else { continue };
                let label_t = if side == 0 { "thigh.L" } else { "thigh.R" };
                let label_s = if side == 0 { "shin.L" } else { "shin.R" };
                if roles.thighs[side].is_none() {
                    let named = chain.iter().position(|&j| THIGH_NAMES.contains(&unsided(&names[j]).as_str()));
                    let (k, rule) = match named {
                        Some(k) => (k, RoleRule::Name(format!("thigh name ({})", names[chain[k]]))),
                        None => (0, RoleRule::Topology("first downward segment of a leg chain below the pelvis".into())),
                    };
                    roles.thighs[side] = Some(chain[k]);
                    roles.push_source(label_t, chain[k], rule);
                }
                if roles.shins[side].is_none() {
                    let t = roles.thighs[side].unwrap();
                    let after = chain.iter().position(|&j| j == t).map(|k| k + 1).unwrap_or(1);
                    let named = chain.iter().skip(after).position(|&j| SHIN_NAMES.contains(&unsided(&names[j]).as_str()));
                    let (j, rule) = match named {
                        Some(k) => (chain[after + k], RoleRule::Name(format!("shin name ({})", names[chain[after + k]]))),
                        None => match chain.get(after) {
                            Some(&j) => (j, RoleRule::Topology("joint below the thigh".into())),
                            None => continue,
                        },
                    };
                    roles.shins[side] = Some(j);
                    roles.push_source(label_s, j, rule);
                }
            }
        }

        // Neck and head
        if let Some(n) = &overrides.neck {
            let j = rig.require_joint("roles.neck", n)?;
            roles.neck = Some(j);
            roles.push_source("neck", j, RoleRule::Override);
        }
        if let Some(n) = &overrides.head {
            let j = rig.require_joint("roles.head", n)?;
            roles.head = Some(j);
            roles.push_source("head", j, RoleRule::Override);
        }
        let pelvis_found = roles.pelvis;
        let in_body = |j: usize| pelvis_found.is_none_or(|p| is_descendant(rig, j, p) || Some(j) == rig.parents()[p]);
        if roles.neck.is_none() {
            if let Some(j) = (0..names.len()).find(|&j| NECK_NAMES.contains(&base_name(&names[j]).as_str()) && in_body(j)) {
                roles.neck = Some(j);
                roles.push_source("neck", j, RoleRule::Name(format!("neck name ({})", names[j])));
            }
        }
        if roles.head.is_none() {
            if let Some(j) = (0..names.len()).find(|&j| HEAD_NAMES.contains(&base_name(&names[j]).as_str()) && in_body(j)) {
                roles.head = Some(j);
                roles.push_source("head", j, RoleRule::Name(format!("head name ({})", names[j])));
            }
        }

        // Spine: from the pelvis towards the head (or the deepest non-leg chain).
        if let Some(pelvis) = roles.pelvis {
            if let Some(ov) = &overrides.spine {
                for n in ov {
                    roles.spine.push(rig.require_joint("roles.spine", n)?);
                }
                for &j in &roles.spine.clone() {
                    roles.push_source("spine", j, RoleRule::Override);
                }
            } else {
                let target = roles.neck.or(roles.head);
                let path = match target {
                    Some(t) if is_descendant(rig, t, pelvis) => {
                        let mut p = Vec::new();
                        let mut j = rig.parents()[t];
                        while let Some(k) = j {
                            if k == pelvis {
                                break;
                            }
                            p.push(k);
                            j = rig.parents()[k];
                        }
                        p.reverse();
                        (p, RoleRule::Name("joints between pelvis and neck/head".into()))
                    }
                    _ => (upward_chain(rig, pelvis, &heads, &descendants, &roles), RoleRule::Topology("upward chain from the pelvis".into())),
                };
                roles.spine = path.0;
                for &j in &roles.spine.clone() {
                    roles.push_source("spine", j, path.1.clone());
                }
                if roles.neck.is_none() || roles.head.is_none() {
                    // Continue the spine to its end: the last joint is the
                    // head, the one before the neck.
                    let top = |c: usize| main_chain(rig, c, &descendants).iter().map(|&k| heads[k].y).fold(f32::NEG_INFINITY, f32::max);
                    let mut chain = roles.spine.clone();
                    let mut j = *chain.last().unwrap_or(&pelvis);
                    // The head is the highest end: follow the child whose chain climbs highest.
                    while let Some(c) = rig.children(j).max_by(|&a, &b| top(a).total_cmp(&top(b))) {
                        chain.push(c);
                        j = c;
                    }
                    if roles.head.is_none() {
                        if let Some(&h) = chain.last() {
                            roles.head = Some(h);
                            roles.push_source("head", h, RoleRule::Topology("end of the spine chain".into()));
                        }
                    }
                    if roles.neck.is_none() && chain.len() >= 3 {
                        let n = chain[chain.len() - 2];
                        roles.neck = Some(n);
                        roles.push_source("neck", n, RoleRule::Topology("joint before the head".into()));
                    }
                }
            }
        }

        // A chain found by shape runs through the neck to the head: those are
        // not spine.
        let (neck, head) = (roles.neck, roles.head);
        roles.spine.retain(|&j| Some(j) != neck && Some(j) != head);
        roles.sources.retain(|s| s.role != "spine" || (Some(s.joint) != neck && Some(s.joint) != head));
        Ok(roles)
    }

    fn set_pelvis(&mut self, j: usize, rule: RoleRule) {
        self.pelvis = Some(j);
        self.push_source("pelvis", j, rule);
    }

    fn push_source(&mut self, role: &str, joint: usize, rule: RoleRule) {
        self.sources.push(RoleSource { role: role.into(), joint, rule });
    }

    /// Pelvis, spine and thighs: the joints whose skin is "the body" for
    /// the attachment bias of SPEC T3.
    pub fn trunk_or_thigh(&self, j: usize) -> bool {
        Some(j) == self.pelvis || self.spine.contains(&j) || self.thighs.contains(&Some(j))
    }
}

fn descendant_counts(rig: &Rig) -> Vec<usize> {
    let mut count = vec![0usize; rig.joint_count()];
    for &j in rig.topological_order().iter().rev() {
        if let Some(p) = rig.parents()[j] {
            count[p] += count[j] + 1;
        }
    }
    count
}

pub fn is_descendant(rig: &Rig, j: usize, ancestor: usize) -> bool {
    let mut k = rig.parents()[j];
    while let Some(p) = k {
        if p == ancestor {
            return true;
        }
        k = rig.parents()[p];
    }
    false
}

/// Deepest-first chain below `j`, following the child with most descendants.
fn main_chain(rig: &Rig, j: usize, descendants: &[usize]) -> Vec<usize> {
    let mut out = vec![j];
    let mut k = j;
    while let Some(c) = rig.children(k).max_by_key(|&c| descendants[c]) {
        out.push(c);
        k = c;
    }
    out
}

/// A leg drops at least this share of the model height from its first joint
/// to its last (a humanoid thigh alone is about 0.14 H).
const LEG_MIN_DROP: f32 = 0.08;

/// A child chain that ends well below where it starts: a leg candidate.
fn is_leg_chain(chain: &[usize], heads: &[Vec3], height: f32) -> bool {
    chain.len() >= 2 && heads[chain[0]].y - heads[*chain.last().unwrap()].y > LEG_MIN_DROP * height
}

fn horizontal(v: Vec3) -> Vec3 {
    Vec3::new(v.x, 0.0, v.z)
}

/// Among downward chains hanging from `hub`, the pair that mirrors best
/// across the hub (opposite horizontal offsets, similar depth).
fn mirrored_pair(chains: &[Vec<usize>], hub: Vec3, heads: &[Vec3]) -> Option<(usize, usize)> {
    let mut best: Option<(usize, usize, f32)> = None;
    for a in 0..chains.len() {
        for b in a + 1..chains.len() {
            let oa = horizontal(heads[chains[a][0]] - hub);
            let ob = horizontal(heads[chains[b][0]] - hub);
            if oa.dot(ob) >= 0.0 || oa.length() < 1e-6 || ob.length() < 1e-6 {
                continue;
            }
            let ea = heads[*chains[a].last().unwrap()];
            let eb = heads[*chains[b].last().unwrap()];
            let score = (oa + ob).length() / (oa.length() + ob.length()) + (ea.y - eb.y).abs() / (oa.length() + ob.length());
            if best.is_none_or(|x| score < x.2) {
                best = Some((a, b, score));
            }
        }
    }
    best.map(|(a, b, _)| (a, b))
}

/// Facing direction from the feet: the last segment of each leg points
/// forward when it is mostly horizontal; glTF's +Z otherwise.
fn facing(chains: &[&Vec<usize>], heads: &[Vec3]) -> Vec3 {
    let mut f = Vec3::ZERO;
    for c in chains {
        if c.len() >= 2 {
            let d = heads[c[c.len() - 1]] - heads[c[c.len() - 2]];
            let h = horizontal(d);
            if h.length() > d.y.abs() {
                f += h.normalize();
            }
        }
    }
    if f.length() > 1e-3 { f.normalize() } else { Vec3::Z }
}

/// Left and right leg chains hanging from the pelvis (or from its parent,
/// as in Quaternius' humanoids where legs are siblings of `Hips`). Short
/// sideways connectors (an animal's hip "shoulder") are skipped.
fn leg_chains(rig: &Rig, pelvis: usize, heads: &[Vec3]) -> [Option<Vec<usize>>; 2] {
    let descendants = descendant_counts(rig);
    let (lo, hi) = rig.bounds();
    let height = (hi.y - lo.y).max(1e-6);
    let mut candidates: Vec<usize> = rig.children(pelvis).collect();
    if let Some(p) = rig.parents()[pelvis] {
        candidates.extend(rig.children(p).filter(|&c| c != pelvis));
    }
    let mut chains: Vec<Vec<usize>> = candidates
        .into_iter()
        .map(|c| main_chain(rig, c, &descendants))
        .filter(|c| is_leg_chain(c, heads, height))
        .collect();
    for chain in &mut chains {
        // Skip sideways connectors: a segment that goes out more than down.
        while chain.len() >= 3 {
            let d = heads[chain[1]] - heads[chain[0]];
            if horizontal(d).length() > -d.y {
                chain.remove(0);
            } else {
                break;
            }
        }
    }
    let Some((a, b)) = mirrored_pair(&chains, heads[pelvis], heads) else { return [None, None] };
    let names = rig.joint_names();
    let (sa, sb) = match (name_side(&names[chains[a][0]]), name_side(&names[chains[b][0]])) {
        (Some(x), Some(y)) if x != y => (x, y),
        _ => {
            let left = Vec3::Y.cross(facing(&[&chains[a], &chains[b]], heads));
            if (heads[chains[a][0]] - heads[pelvis]).dot(left) >= 0.0 { (0, 1) } else { (1, 0) }
        }
    };
    let mut out: [Option<Vec<usize>>; 2] = [None, None];
    out[sa] = Some(chains[a].clone());
    out[sb] = Some(chains[b].clone());
    out
}

/// The joint with a mirrored pair of downward chains and a third child
/// subtree (the spine); the largest such third subtree wins.
fn topological_pelvis(rig: &Rig, heads: &[Vec3], descendants: &[usize]) -> Option<usize> {
    let (lo, hi) = rig.bounds();
    let height = (hi.y - lo.y).max(1e-6);
    let mut best: Option<(usize, usize)> = None;
    for &j in rig.topological_order() {
        let kids: Vec<usize> = rig.children(j).collect();
        if kids.len() < 3 {
            continue;
        }
        let legs: Vec<usize> = kids.iter().copied().filter(|&c| is_leg_chain(&main_chain(rig, c, descendants), heads, height)).collect();
        let chains: Vec<Vec<usize>> = legs.iter().map(|&c| main_chain(rig, c, descendants)).collect();
        let Some((a, b)) = mirrored_pair(&chains, heads[j], heads) else { continue };
        let others = kids.iter().filter(|&&c| c != legs[a] && c != legs[b]).map(|&c| descendants[c] + 1).max().unwrap_or(0);
        if others > 0 && best.is_none_or(|(_, s)| others > s) {
            best = Some((j, others));
        }
    }
    best.map(|b| b.0)
}

/// The pelvis child subtree that is neither a leg nor the tail: the spine.
fn upward_chain(rig: &Rig, pelvis: usize, heads: &[Vec3], descendants: &[usize], roles: &JointRoles) -> Vec<usize> {
    let legs: Vec<usize> = roles.thighs.iter().chain(&roles.shins).flatten().copied().collect();
    let child = rig
        .children(pelvis)
        .filter(|&c| !legs.iter().any(|&l| l == c || is_descendant(rig, l, c)))
        .max_by(|&a, &b| descendants[a].cmp(&descendants[b]).then(heads[a].y.total_cmp(&heads[b].y)));
    let Some(c) = child else { return Vec::new() };
    // Up to the first branching joint with two or more children (the chest).
    let mut out = vec![c];
    let mut k = c;
    loop {
        let kids: Vec<usize> = rig.children(k).collect();
        if kids.len() != 1 {
            break;
        }
        k = kids[0];
        out.push(k);
    }
    out
}
