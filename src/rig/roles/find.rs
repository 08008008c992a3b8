//! The stages of [`JointRoles::find`]: the pelvis, the user's legs, the
//! trunk with its head, neck and spine, then the pelvis' own legs.

use glam::Vec3;

use super::limbs::LimbPair;
use super::names::names_pelvis;
use super::structure::Structure;
use super::trunk::{Axial, Settled};
use super::{
    leg_sides, side_label, thigh_and_shin, thigh_depth, JointRoles, RoleOverrides, RoleRule,
};
use crate::error::Result;
use crate::rig::Rig;

/// What every stage reads: the rig, the user's overrides and the skeleton's
/// structure, limb pairs and trunk.
pub(super) struct Finder<'a> {
    pub rig: &'a Rig,
    pub overrides: &'a RoleOverrides,
    pub s: &'a Structure,
    pub pairs: &'a [LimbPair],
    pub axial: &'a Axial<'a>,
    /// Where leg pairs hang from the skeleton, each once.
    pub junctions: Vec<usize>,
}

impl<'a> Finder<'a> {
    fn names(&self) -> &[String] {
        self.rig.joint_names()
    }

    /// Pelvis: where the hind legs meet the trunk (or the user's joint, with
    /// what it overruled).
    pub fn pelvis(&self, roles: &mut JointRoles) -> Result<()> {
        let names = self.names();
        let junctions = &self.junctions;
        let found_pelvis = (!junctions.is_empty()).then(|| self.axial.pelvis_of(junctions));
        if let Some(name) = &self.overrides.pelvis {
            let j = self.rig.require_joint("roles.pelvis", name)?;
            let overruled = found_pelvis
                .filter(|&(p, _)| p != j)
                .map(|(p, _)| format!("{} (where the hind legs meet the trunk)", names[p]));
            roles.pelvis = Some(j);
            roles.push("pelvis", j, RoleRule::Override, overruled);
        } else if let Some((p, settled)) = found_pelvis {
            let rule = match (junctions.len(), settled) {
                (1, _) => RoleRule::Topology("the joint the legs hang from".into()),
                (_, Settled::Name) => RoleRule::Name(
                    "of two leg junctions, the one away from the joints named like a head".into(),
                ),
                (_, Settled::Height) => RoleRule::Topology(
                    "of the leg junctions, the one away from the higher trunk end (the head)"
                        .into(),
                ),
                _ => RoleRule::Topology(
                    "of the leg junctions, the one away from the heavier trunk end (the head)"
                        .into(),
                ),
            };
            let named = (0..names.len())
                .find(|&j| j != p && self.s.structural[j] && names_pelvis(&names[j]));
            let overruled = named.map(|j| {
                format!("{} (named like a pelvis, but the hind legs do not hang from it)", names[j])
            });
            roles.pelvis = Some(p);
            roles.push("pelvis", p, rule, overruled);
        }
        Ok(())
    }

    /// The thighs and shins the user named (the rest are chosen once the
    /// head says which of several pairs at one junction is the hind one).
    pub fn named_legs(&self, roles: &mut JointRoles) -> Result<()> {
        const FIELDS: [[&str; 2]; 2] =
            [["roles.thighs[0]", "roles.thighs[1]"], ["roles.shins[0]", "roles.shins[1]"]];
        for side in 0..2 {
            let named = [&self.overrides.thighs[side], &self.overrides.shins[side]];
            for (k, role) in ["thigh", "shin"].into_iter().enumerate() {
                let Some(n) = named[k] else { continue };
                let j = self.rig.require_joint(FIELDS[k][side], n)?;
                let slots = if k == 0 { &mut roles.thighs } else { &mut roles.shins };
                slots[side] = Some(j);
                roles.push(&side_label(role, side), j, RoleRule::Override, None);
            }
        }
        Ok(())
    }

    /// Trunk, head, neck and spine, along the path from the pelvis to the
    /// head.
    pub fn trunk(&self, roles: &mut JointRoles) -> Result<()> {
        let Some(p) = roles.pelvis else { return Ok(()) };
        let (path, _) = self.axial.head_path(p);
        let from = self.shoulders(p, &path).map_or(1, |i| i + 1);
        let head = self.head(roles, &path, from)?;
        roles.head = head;
        let head_at = head.and_then(|h| path.iter().position(|&j| j == h));
        let neck = self.neck(roles, &path, from, head_at)?;
        roles.neck = neck;
        let spine_end =
            neck.or(head).and_then(|j| path.iter().position(|&k| k == j)).unwrap_or(path.len());
        roles.spine = self.spine(roles, &path, spine_end)?;
        // Callers read the trunk in bind space, not the levelled frame.
        let to_bind = self.s.level.inverse();
        roles.trunk_heads = path.iter().map(|&j| to_bind * self.s.heads[j]).collect();
        roles.trunk = path;
        Ok(())
    }

    /// Where the shoulders are on the trunk's `path`: after the last joint
    /// where a pair of front legs hangs, or, for a biped, where its heaviest
    /// pair of limbs (arms, wings) does; ears and hair on the head do not
    /// count.
    fn shoulders(&self, p: usize, path: &[usize]) -> Option<usize> {
        let (s, pairs) = (self.s, self.pairs);
        let front_legs =
            (1..path.len()).rev().find(|&i| pairs.iter().any(|x| x.legs && x.junction == path[i]));
        let arms = || {
            let on_path = |x: &&LimbPair| !x.legs && path[1..].contains(&x.junction);
            let heaviest = pairs.iter().filter(on_path).max_by(|a, b| {
                let m = |x: &LimbPair| x.limbs.iter().map(|l| s.sub_mass[l.root]).sum::<f32>();
                m(a).total_cmp(&m(b))
            })?;
            path.iter().position(|&j| j == heaviest.junction)
        };
        // Front legs that hang off the path (a Rigify rig's controls)
        // mark the shoulders at the path joint nearest their junction.
        let front_off_path = || {
            let front = self.junctions.iter().copied().filter(|&j| j != p).min_by(|&a, &b| {
                s.heads[a]
                    .distance(s.heads[p])
                    .total_cmp(&s.heads[b].distance(s.heads[p]))
                    .then(a.cmp(&b))
            })?;
            (1..path.len()).min_by(|&a, &b| {
                s.heads[path[a]]
                    .distance(s.heads[front])
                    .total_cmp(&s.heads[path[b]].distance(s.heads[front]))
                    .then(a.cmp(&b))
            })
        };
        front_legs.or_else(front_off_path).or_else(arms)
    }

    /// The head: the user's, else the one past the shoulders named like a
    /// head, else the last there carrying a good share of the surface.
    fn head(&self, roles: &mut JointRoles, path: &[usize], from: usize) -> Result<Option<usize>> {
        const HEAD: OnPath = OnPath {
            role: "head",
            field: "roles.head",
            by_name: "of the skinned joints past the shoulders, the one named like a head",
            by_shape: "the last joint past the shoulders carrying a third of the heaviest one's skin surface",
        };
        let found = || self.axial.head_on(path, from, self.names());
        self.on_path(roles, &HEAD, &self.overrides.head, path, found)
    }

    /// The neck: the user's, else the trunk joint between the shoulders and
    /// the head (at `head_at` on the path).
    fn neck(
        &self,
        roles: &mut JointRoles,
        path: &[usize],
        from: usize,
        head_at: Option<usize>,
    ) -> Result<Option<usize>> {
        const NECK: OnPath = OnPath {
            role: "neck",
            field: "roles.neck",
            by_name: "the joint named like a neck between the shoulders and the head",
            by_shape: "the first trunk joint past the shoulders",
        };
        let found = || head_at.and_then(|h| self.axial.neck_on(path, from, h, self.names()));
        self.on_path(roles, &NECK, &self.overrides.neck, path, found)
    }

    /// A role on the trunk's path: the joint the user named (an unknown
    /// name is an error naming the field), else the one `found` at its
    /// index on `path` (and whether a name settled it), with its rule.
    fn on_path(
        &self,
        roles: &mut JointRoles,
        rule: &OnPath,
        named: &Option<String>,
        path: &[usize],
        found: impl FnOnce() -> Option<(usize, bool)>,
    ) -> Result<Option<usize>> {
        if let Some(n) = named {
            let j = self.rig.require_joint(rule.field, n)?;
            roles.push(rule.role, j, RoleRule::Override, None);
            return Ok(Some(j));
        }
        Ok(found().map(|(i, by_name)| {
            let how = if by_name {
                RoleRule::Name(rule.by_name.into())
            } else {
                RoleRule::Topology(rule.by_shape.into())
            };
            roles.push(rule.role, path[i], how, None);
            path[i]
        }))
    }

    /// The spine: the user's joints, else the path between the pelvis and
    /// `spine_end` (the neck, else the head).
    fn spine(
        &self,
        roles: &mut JointRoles,
        path: &[usize],
        spine_end: usize,
    ) -> Result<Vec<usize>> {
        Ok(match &self.overrides.spine {
            Some(ov) => {
                let mut out = Vec::new();
                for n in ov {
                    out.push(self.rig.require_joint("roles.spine", n)?);
                }
                for &j in &out {
                    roles.push("spine", j, RoleRule::Override, None);
                }
                out
            }
            None => {
                let sp: Vec<usize> = path[1..spine_end.max(1)].to_vec();
                for &j in &sp {
                    roles.push(
                        "spine",
                        j,
                        RoleRule::Topology("between the pelvis and the neck".into()),
                        None,
                    );
                }
                sp
            }
        })
    }

    /// The pelvis' hind legs: of the leg pairs at the pelvis, the farthest
    /// from the head (a rat's four legs all hang from `Body`).
    pub fn pelvis_pair(&self, roles: &JointRoles) -> Option<&'a LimbPair> {
        let s = self.s;
        let p = roles.pelvis?;
        let centre = |x: &LimbPair| {
            x.limbs.iter().flat_map(|l| l.chain.iter().map(|&j| s.heads[j])).sum::<Vec3>()
        };
        let away = |x: &LimbPair| {
            let n = x.limbs.iter().map(|l| l.chain.len()).sum::<usize>().max(1) as f32;
            roles.head.map_or(0.0, |h| (centre(x) / n).distance(s.heads[h]))
        };
        self.pairs
            .iter()
            .filter(|x| x.legs && x.junction == p)
            .max_by(|a, b| away(a).total_cmp(&away(b)))
    }

    /// Thighs and shins the user left open, from the pelvis' hind legs
    /// ([`Self::pelvis_pair`]).
    pub fn pelvis_legs(&self, roles: &mut JointRoles) {
        let s = self.s;
        let (Some(p), Some(legs)) = (roles.pelvis, self.pelvis_pair(roles)) else { return };
        let sides = leg_sides(s, self.rig, legs, roles.head, p);
        let depth = thigh_depth(s, legs);
        for (k, limb) in legs.limbs.iter().enumerate() {
            let side = sides.0[k];
            let (thigh, shin) = thigh_and_shin(&limb.chain, depth);
            if roles.thighs[side].is_none() {
                roles.thighs[side] = Some(thigh);
                roles.push(&side_label("thigh", side), thigh, sides.1.clone(), None);
            }
            if roles.shins[side].is_none() {
                if let Some(sh) = shin {
                    roles.shins[side] = Some(sh);
                    roles.push(
                        &side_label("shin", side),
                        sh,
                        RoleRule::Topology("the joint below the thigh".into()),
                        None,
                    );
                }
            }
        }
    }
}

/// How a role on the trunk's path is named and explained.
struct OnPath {
    /// The role, as `RoleSource::role` says it.
    role: &'static str,
    /// The override's field, for errors.
    field: &'static str,
    /// The rule when a name settled it.
    by_name: &'static str,
    /// The rule when the skeleton's shape did.
    by_shape: &'static str,
}
