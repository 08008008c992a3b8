//! The model-space skeleton of one character (metres, Y up, facing +Z, its
//! own left at +X, feet on y = 0): joints by role, placed by layout. Names
//! come later (naming.rs); geometry hangs off these heads (body.rs).

use glam::Vec3;

use super::spec::{trunk_aspect, CharacterSpec, Layout, Naming};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    Left,
    Right,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::Left, Side::Right];
    /// +1 for the character's left (+X), -1 for its right.
    pub fn x(self) -> f32 {
        match self {
            Side::Left => 1.0,
            Side::Right => -1.0,
        }
    }
}

/// What a joint is. Decoys are never weighted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// Unweighted root on the floor (Rigify `root`, generic `joint0`).
    Root,
    /// Maya/Sketchfab wrappers at the origin: `_rootJoint` (0), `Global_Ctrl` (1).
    Wrapper(u8),
    /// Unweighted joint at the pelvis above it (Biped `Bip001`, Maya
    /// `*_ROOTSHJnt`, Quaternius `Body`).
    Hub,
    /// Where the hind legs, the spine and the tail meet.
    Pelvis,
    /// Decoy-`Hips` layouts: the torso root (named `Hips`) between the
    /// pelvis (named `Body`) and the spine.
    TorsoRoot,
    /// Spine joints above the pelvis; the last is the chest.
    Spine(u8),
    Neck(u8),
    Head,
    HeadNub,
    /// Quaternius' short sideways hip connector before the thigh.
    HipConnector(Side),
    Thigh(Side),
    Shin(Side),
    Foot(Side),
    Toe(Side),
    ToeNub(Side),
    /// Arms, or a quadruped's front legs.
    Clavicle(Side),
    UpperArm(Side),
    ForeArm(Side),
    Hand(Side),
    HandNub(Side),
    Tail(u8),
    TailEnd,
    // Helpers carried in the skin.
    /// Weighted: shares the thigh's lower half.
    ThighTwist(Side),
    /// Rigify's `DEF-pelvis.L`: weighted, sideways and down from the pelvis.
    PelvisFlap(Side),
    /// 3ds Max `Bip001 Footsteps`: unweighted, on the floor.
    Footsteps,
    // Decoys (unweighted).
    IkFoot(Side),
    Pole(Side),
    /// Beside the tail root, with a child below it: shaped like a thigh.
    TailControl,
    TailControlEnd,
    /// Near the tail's tip.
    TailIk,
    /// Rigify's control bones `torso`, `hips`, `chest`.
    Control(u8),
    /// Rigify's `ORG-*` (0) and `MCH-*` (1) copies of joint `of`.
    Copy(u8, u16),
    /// Small unweighted face bones (Rigify has hundreds: joint indices pass 255).
    Face(u16),
}

impl Role {
    /// Unweighted joints that must never be taken for a limb or the pelvis.
    pub fn decoy_kind(self) -> Option<&'static str> {
        Some(match self {
            Role::Root => "root",
            Role::Wrapper(_) => "wrapper",
            Role::Hub => "hub",
            Role::HeadNub | Role::ToeNub(_) | Role::HandNub(_) => "nub",
            Role::Footsteps => "helper",
            Role::ThighTwist(_) | Role::PelvisFlap(_) => "weighted_helper",
            Role::IkFoot(_) => "ik",
            Role::Pole(_) => "pole",
            Role::TailControl | Role::TailControlEnd => "tail_control_thigh_shaped",
            Role::TailIk => "tail_control",
            Role::Control(_) => "control",
            Role::Copy(0, _) => "org_copy",
            Role::Copy(_, _) => "mch_copy",
            Role::Face(_) => "face",
            Role::TorsoRoot => "decoy_hips",
            _ => return None,
        })
    }

    pub fn is_tail(self) -> bool {
        matches!(self, Role::Tail(_) | Role::TailEnd)
    }
}

#[derive(Clone, Debug)]
pub struct Joint {
    pub role: Role,
    pub parent: Option<usize>,
    pub head: Vec3,
}

#[derive(Clone, Debug)]
pub struct Skeleton {
    pub joints: Vec<Joint>,
    pub height: f32,
    pub hip_y: f32,
    /// The trunk's centre line from behind the pelvis to in front of the
    /// chest (or from the crotch to the shoulders).
    pub trunk_line: Vec<Vec3>,
    /// Trunk half-width (x) and half-depth at its middle.
    pub trunk_radius: Vec3,
    /// Joints along the trunk, pelvis first, chest last.
    pub trunk_chain: Vec<usize>,
}

impl Skeleton {
    pub fn find(&self, role: Role) -> Option<usize> {
        self.joints.iter().position(|j| j.role == role)
    }

    pub fn get(&self, role: Role) -> usize {
        self.find(role).unwrap_or_else(|| panic!("corpus skeleton has no {role:?}"))
    }

    pub fn head(&self, role: Role) -> Vec3 {
        self.joints[self.get(role)].head
    }

    pub fn children(&self, j: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.joints.len()).filter(move |&c| self.joints[c].parent == Some(j))
    }

    fn add(&mut self, role: Role, parent: Option<usize>, head: Vec3) -> usize {
        self.joints.push(Joint { role, parent, head });
        self.joints.len() - 1
    }

    fn add_under(&mut self, role: Role, parent: Role, head: Vec3) -> usize {
        let p = self.get(parent);
        self.add(role, Some(p), head)
    }

    /// The first joint above the pelvis on the way to the neck.
    pub fn first_above_pelvis(&self) -> usize {
        self.find(Role::TorsoRoot).unwrap_or_else(|| self.get(Role::Spine(0)))
    }

    pub fn chest(&self) -> usize {
        *self.trunk_chain.last().unwrap()
    }

    pub fn spine_count(&self) -> u8 {
        self.joints.iter().filter(|j| matches!(j.role, Role::Spine(_))).count() as u8
    }

    pub fn neck_count(&self) -> u8 {
        self.joints.iter().filter(|j| matches!(j.role, Role::Neck(_))).count() as u8
    }
}

fn v(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

/// Body joints (pelvis, spine, neck, head, legs, arms) of the layout, plus
/// the trunk's centre line. Proportions are shares of the height `h`.
pub fn body(spec: &CharacterSpec) -> Skeleton {
    let h = spec.height;
    let hip_y = spec.hip_share * h;
    let tr = spec.trunk_share * h;
    let aspect = trunk_aspect(spec.layout);
    let mut s = Skeleton {
        joints: Vec::new(),
        height: h,
        hip_y,
        trunk_line: Vec::new(),
        trunk_radius: Vec3::ZERO,
        trunk_chain: Vec::new(),
    };
    let ns = spec.spine_joints;
    let nn = spec.neck_joints;
    // Pelvis, spine to chest, neck to head, head nub: per layout.
    let (pelvis, chest, neck_base, head, nub, trunk_rear, trunk_front, radius);
    match spec.layout {
        Layout::Biped => {
            pelvis = v(0.0, hip_y, 0.0);
            chest = v(0.0, 0.74 * h, 0.0);
            neck_base = v(0.0, 0.82 * h, 0.0);
            head = v(0.0, 0.88 * h, 0.01 * h);
            nub = v(0.0, 0.995 * h, 0.015 * h);
            trunk_rear = v(0.0, hip_y - 0.1 * h, 0.0);
            trunk_front = v(0.0, 0.84 * h, 0.0);
            radius = v(aspect.0 * tr, 0.0, aspect.1 * tr);
        }
        Layout::Quadruped => {
            let half = 0.5 * spec.body_share * h;
            pelvis = v(0.0, hip_y, -half);
            chest = v(0.0, hip_y + 0.02 * h, half);
            neck_base = v(0.0, hip_y + 0.08 * h, half + 0.08 * h);
            head = v(0.0, 0.86 * h, half + 0.25 * h);
            nub = v(0.0, 0.8 * h, half + 0.45 * h);
            trunk_rear = v(0.0, hip_y + 0.01 * h, -half - 0.12 * h);
            trunk_front = v(0.0, hip_y + 0.03 * h, half + 0.14 * h);
            radius = v(aspect.0 * tr, aspect.1 * tr, 0.0);
        }
        Layout::Dinosaur => {
            let body = spec.body_share * h;
            pelvis = v(0.0, hip_y, 0.0);
            chest = v(0.0, hip_y + 0.05 * h, body);
            neck_base = v(0.0, hip_y + 0.1 * h, body + 0.08 * h);
            head = v(0.0, 0.9 * h, body + 0.28 * h);
            nub = v(0.0, 0.88 * h, body + 0.48 * h);
            trunk_rear = v(0.0, hip_y + 0.02 * h, -0.15 * h);
            trunk_front = v(0.0, hip_y + 0.08 * h, body + 0.12 * h);
            radius = v(aspect.0 * tr, aspect.1 * tr, 0.0);
        }
    }
    s.trunk_radius = radius;
    let p = s.add(Role::Pelvis, None, pelvis);
    s.trunk_chain.push(p);
    let mut prev = p;
    if spec.decoy_hips {
        let t = s.add(Role::TorsoRoot, Some(prev), pelvis.lerp(chest, 0.2));
        s.trunk_chain.push(t);
        prev = t;
    }
    let start = if spec.decoy_hips { pelvis.lerp(chest, 0.2) } else { pelvis };
    for i in 0..ns {
        let k = (i + 1) as f32 / ns as f32;
        let j = s.add(
            Role::Spine(i as u8),
            Some(prev),
            start.lerp(chest, if spec.decoy_hips { 0.25 + 0.75 * k } else { k }),
        );
        s.trunk_chain.push(j);
        prev = j;
    }
    for i in 0..nn {
        let k = i as f32 / nn as f32;
        prev = s.add(Role::Neck(i as u8), Some(prev), neck_base.lerp(head, 0.85 * k));
    }
    let hj = s.add(Role::Head, Some(prev), head);
    s.add(Role::HeadNub, Some(hj), nub);
    s.trunk_line = vec![trunk_rear, pelvis, chest, trunk_front];

    // Hind legs (thigh, shin, foot, toe, nub) and arms/front legs.
    for side in Side::BOTH {
        let x = side.x();
        let leg_parent = if spec.naming == Naming::Quaternius {
            s.add(Role::HipConnector(side), Some(p), pelvis + v(0.05 * x * h, -0.01 * h, 0.0))
        } else {
            p
        };
        let (thigh, shin, foot, toe, toe_nub) = match spec.layout {
            Layout::Biped => (
                v(0.09 * x * h, hip_y - 0.03 * h, 0.0),
                v(0.09 * x * h, 0.27 * h, 0.012 * h),
                v(0.09 * x * h, 0.045 * h, -0.01 * h),
                v(0.09 * x * h, 0.02 * h, 0.07 * h),
                v(0.09 * x * h, 0.02 * h, 0.12 * h),
            ),
            Layout::Quadruped => {
                let z = pelvis.z;
                (
                    v(0.1 * x * h, hip_y - 0.05 * h, z),
                    v(0.1 * x * h, 0.55 * hip_y, z + 0.07 * h),
                    v(0.1 * x * h, 0.24 * hip_y, z - 0.05 * h),
                    v(0.1 * x * h, 0.03 * h, z - 0.01 * h),
                    v(0.1 * x * h, 0.02 * h, z + 0.05 * h),
                )
            }
            Layout::Dinosaur => (
                v(0.1 * x * h, hip_y - 0.03 * h, 0.0),
                v(0.11 * x * h, 0.5 * hip_y, 0.08 * h),
                v(0.11 * x * h, 0.1 * h, -0.04 * h),
                v(0.11 * x * h, 0.02 * h, 0.08 * h),
                v(0.11 * x * h, 0.02 * h, 0.16 * h),
            ),
        };
        let t = s.add(Role::Thigh(side), Some(leg_parent), thigh);
        let sh = s.add(Role::Shin(side), Some(t), shin);
        let f = s.add(Role::Foot(side), Some(sh), foot);
        let to = s.add(Role::Toe(side), Some(f), toe);
        s.add(Role::ToeNub(side), Some(to), toe_nub);

        let c = s.chest();
        let cz = s.joints[c].head.z;
        let cy = s.joints[c].head.y;
        let (clav, upper, fore, hand, hand_nub) = match spec.layout {
            Layout::Biped => (
                v(0.03 * x * h, 0.8 * h, 0.0),
                v(0.12 * x * h, 0.8 * h, 0.0),
                v(0.16 * x * h, 0.63 * h, -0.01 * h),
                v(0.18 * x * h, 0.48 * h, 0.02 * h),
                v(0.185 * x * h, 0.42 * h, 0.03 * h),
            ),
            Layout::Quadruped => (
                v(0.05 * x * h, cy, cz),
                v(0.1 * x * h, cy - 0.08 * h, cz + 0.01 * h),
                v(0.1 * x * h, 0.5 * hip_y, cz - 0.04 * h),
                v(0.1 * x * h, 0.12 * h, cz),
                v(0.1 * x * h, 0.02 * h, cz + 0.05 * h),
            ),
            Layout::Dinosaur => (
                v(0.05 * x * h, cy, cz - 0.02 * h),
                v(0.1 * x * h, cy - 0.04 * h, cz),
                v(0.11 * x * h, cy - 0.14 * h, cz + 0.05 * h),
                v(0.11 * x * h, cy - 0.2 * h, cz + 0.1 * h),
                v(0.11 * x * h, cy - 0.23 * h, cz + 0.13 * h),
            ),
        };
        let cl = s.add(Role::Clavicle(side), Some(c), clav);
        let u = s.add(Role::UpperArm(side), Some(cl), upper);
        let fo = s.add(Role::ForeArm(side), Some(u), fore);
        let ha = s.add(Role::Hand(side), Some(fo), hand);
        s.add(Role::HandNub(side), Some(ha), hand_nub);
    }
    s
}

/// Adds the scheme's roots and wrappers above the pelvis.
pub fn add_roots(s: &mut Skeleton, spec: &CharacterSpec) {
    let pelvis = s.get(Role::Pelvis);
    let at_pelvis = s.joints[pelvis].head;
    let mut chain: Vec<(Role, Vec3)> = Vec::new();
    match spec.naming {
        Naming::Mixamo => {}
        Naming::Rigify | Naming::Generic => chain.push((Role::Root, Vec3::ZERO)),
        Naming::MaxBiped => chain.push((Role::Hub, at_pelvis + v(0.0, 0.01 * s.height, 0.0))),
        Naming::Maya => chain.extend([
            (Role::Wrapper(0), Vec3::ZERO),
            (Role::Wrapper(1), Vec3::ZERO),
            (Role::Hub, at_pelvis),
        ]),
        Naming::Quaternius if !spec.decoy_hips => chain.push((Role::Hub, at_pelvis)),
        Naming::Quaternius => chain.push((Role::Root, Vec3::ZERO)),
    }
    let mut parent = None;
    for (role, head) in chain {
        let j = s.add(role, parent, head);
        parent = Some(j);
    }
    if let Some(p) = parent {
        s.joints[pelvis].parent = Some(p);
    }
}

/// The artist's tail joints along the centre line (`heads`, root first,
/// the last is the end joint), hanging from the pelvis.
pub fn add_tail(s: &mut Skeleton, heads: &[Vec3]) {
    let mut parent = s.get(Role::Pelvis);
    for (i, &h) in heads.iter().enumerate() {
        let role = if i + 1 == heads.len() { Role::TailEnd } else { Role::Tail(i as u8) };
        parent = s.add(role, Some(parent), h);
    }
}

/// Helper bones and unweighted decoys as the spec asks; `tail_root` and
/// `tail_tip` place the controls near the tail.
pub fn add_extras(s: &mut Skeleton, spec: &CharacterSpec, tail_root: Vec3, tail_tip: Vec3) {
    let h = s.height;
    let top = s.joints.iter().position(|j| j.parent.is_none()).unwrap();
    if spec.helper_bones {
        for side in Side::BOTH {
            let (a, b) = (s.head(Role::Thigh(side)), s.head(Role::Shin(side)));
            s.add_under(Role::ThighTwist(side), Role::Thigh(side), a.lerp(b, 0.5));
            if spec.naming == Naming::Rigify {
                let p = s.head(Role::Pelvis);
                s.add_under(
                    Role::PelvisFlap(side),
                    Role::Pelvis,
                    p + v(0.02 * side.x() * h, 0.0, 0.01 * h),
                );
            }
        }
        if spec.naming == Naming::MaxBiped {
            s.add(Role::Footsteps, None, Vec3::ZERO);
        }
    }
    if spec.decoy_controls {
        for side in Side::BOTH {
            let foot = s.head(Role::Foot(side));
            s.add(Role::IkFoot(side), Some(top), foot);
            let knee = s.head(Role::Shin(side));
            s.add(Role::Pole(side), Some(top), knee + v(0.0, 0.0, 0.3 * h));
        }
        // Beside the tail root, reaching down like a thigh.
        let c =
            s.add_under(Role::TailControl, Role::Pelvis, tail_root + v(0.0, -0.02 * h, -0.03 * h));
        let below = s.joints[c].head - v(0.0, 0.2 * h, 0.0);
        s.add(Role::TailControlEnd, Some(c), below);
        s.add(Role::TailIk, Some(top), tail_tip);
        if spec.naming == Naming::Rigify {
            let p = s.head(Role::Pelvis);
            let torso = s.add(Role::Control(0), Some(top), p);
            s.add(Role::Control(1), Some(torso), p - v(0.0, 0.02 * h, 0.0));
            let chest = s.joints[s.chest()].head;
            s.add(Role::Control(2), Some(torso), chest);
            // Enough face bones to push joint indices past 255.
            let head = s.head(Role::Head);
            let mut prev = s.get(Role::Head);
            for i in 0..220u16 {
                let a = i as f32 * 0.61;
                let offset = v(
                    0.04 * h * a.cos(),
                    0.02 * h * ((i % 7) as f32 / 7.0),
                    0.04 * h * a.sin() + 0.02 * h,
                );
                let parent = if i % 12 == 0 { s.get(Role::Head) } else { prev };
                let j = s.add(Role::Face(i), Some(parent), head + offset);
                prev = j;
            }
        }
    }
    if spec.naming == Naming::Rigify {
        // ORG copies of every deform joint, in their own tree under the
        // root, and a few MCH copies of the legs.
        let deform: Vec<usize> =
            (0..s.joints.len()).filter(|&j| is_deform_role(s.joints[j].role)).collect();
        let mut copy_of = vec![None; s.joints.len()];
        for &j in &deform {
            let parent = s.joints[j].parent.and_then(|p| copy_of[p]).unwrap_or(top);
            let c = s.add(Role::Copy(0, j as u16), Some(parent), s.joints[j].head);
            copy_of[j] = Some(c);
        }
        for side in Side::BOTH {
            for role in [Role::Thigh(side), Role::Shin(side)] {
                let j = s.get(role);
                let head = s.joints[j].head;
                s.add(Role::Copy(1, j as u16), Some(top), head);
            }
        }
    }
}

/// Joints a Rigify deform (`DEF-*`) bone stands for.
pub fn is_deform_role(r: Role) -> bool {
    !matches!(
        r,
        Role::Root
            | Role::Wrapper(_)
            | Role::Hub
            | Role::Footsteps
            | Role::IkFoot(_)
            | Role::Pole(_)
            | Role::TailControl
            | Role::TailControlEnd
            | Role::TailIk
            | Role::Control(_)
            | Role::Copy(..)
            | Role::Face(_)
    )
}
