//! Joint names per rigging convention. The roles stay the generator's; the
//! names are what a file would carry, decoys included.

use super::skeleton::{Role, Side, Skeleton};
use super::spec::{CharacterSpec, Layout, Naming};

fn lr(side: Side) -> (&'static str, &'static str, &'static str) {
    // (Mixamo word, Rigify/Quaternius suffix, Biped/Maya letter)
    match side {
        Side::Left => ("Left", ".L", "L"),
        Side::Right => ("Right", ".R", "R"),
    }
}

fn numbered(base: &str, i: u8) -> String {
    if i == 0 {
        base.to_string()
    } else {
        format!("{base}{i}")
    }
}

fn mixamo(role: Role, decoy_hips: bool) -> String {
    let body = match role {
        Role::Pelvis if decoy_hips => "Body".into(),
        Role::Pelvis | Role::TorsoRoot => "Hips".into(),
        Role::Spine(i) => numbered("Spine", i),
        Role::Neck(i) => numbered("Neck", i),
        Role::Head => "Head".into(),
        Role::HeadNub => "HeadTop_End".into(),
        Role::Thigh(s) => format!("{}UpLeg", lr(s).0),
        Role::Shin(s) => format!("{}Leg", lr(s).0),
        Role::Foot(s) => format!("{}Foot", lr(s).0),
        Role::Toe(s) => format!("{}ToeBase", lr(s).0),
        Role::ToeNub(s) => format!("{}Toe_End", lr(s).0),
        Role::Clavicle(s) => format!("{}Shoulder", lr(s).0),
        Role::UpperArm(s) => format!("{}Arm", lr(s).0),
        Role::ForeArm(s) => format!("{}ForeArm", lr(s).0),
        Role::Hand(s) => format!("{}Hand", lr(s).0),
        Role::HandNub(s) => format!("{}Hand_End", lr(s).0),
        Role::Tail(i) => numbered("Tail", i),
        Role::TailEnd => "Tail_End".into(),
        Role::ThighTwist(s) => format!("{}UpLegTwist", lr(s).0),
        Role::IkFoot(s) => format!("{}FootIK", lr(s).0),
        Role::Pole(s) => format!("{}KneePole", lr(s).0),
        Role::TailControl => "TailCtrl".into(),
        Role::TailControlEnd => "TailCtrl_End".into(),
        Role::TailIk => "TailIK".into(),
        other => return fallback(other),
    };
    format!("mixamorig:{body}")
}

fn rigify(role: Role, s: &Skeleton, names_so_far: &[String]) -> String {
    let (ns, nn) = (s.spine_count(), s.neck_count());
    let side = |x: Side| lr(x).1;
    match role {
        Role::Root => "root".into(),
        Role::Pelvis => "DEF-spine".into(),
        Role::Spine(i) => format!("DEF-spine.{:03}", i + 1),
        Role::Neck(i) => format!("DEF-spine.{:03}", ns + 1 + i),
        Role::Head => format!("DEF-spine.{:03}", ns + nn + 1),
        Role::HeadNub => format!("DEF-spine.{:03}_end", ns + nn + 1),
        Role::Thigh(x) => format!("DEF-thigh{}", side(x)),
        Role::Shin(x) => format!("DEF-shin{}", side(x)),
        Role::Foot(x) => format!("DEF-foot{}", side(x)),
        Role::Toe(x) => format!("DEF-toe{}", side(x)),
        Role::ToeNub(x) => format!("DEF-toe{}_end", side(x)),
        Role::Clavicle(x) => format!("DEF-shoulder{}", side(x)),
        Role::UpperArm(x) => format!("DEF-upper_arm{}", side(x)),
        Role::ForeArm(x) => format!("DEF-forearm{}", side(x)),
        Role::Hand(x) => format!("DEF-hand{}", side(x)),
        Role::HandNub(x) => format!("DEF-hand{}_end", side(x)),
        Role::Tail(i) => format!("DEF-tail.{:03}", i + 1),
        Role::TailEnd => "DEF-tail_end".into(),
        // Rigify splits the thigh: the lower half is `DEF-thigh.L.001`.
        Role::ThighTwist(x) => format!("DEF-thigh{}.001", side(x)),
        Role::PelvisFlap(x) => format!("DEF-pelvis{}", side(x)),
        Role::IkFoot(x) => format!("foot_ik{}", side(x)),
        Role::Pole(x) => format!("thigh_ik_target{}", side(x)),
        Role::TailControl => "tail_master".into(),
        Role::TailControlEnd => "tail_master_end".into(),
        Role::TailIk => "tail_tweak".into(),
        Role::Control(0) => "torso".into(),
        Role::Control(1) => "hips".into(),
        Role::Control(_) => "chest".into(),
        Role::Face(i) => format!("ORG-face.{i:03}"),
        Role::Copy(kind, of) => {
            let def = &names_so_far[of as usize];
            let stem = def.strip_prefix("DEF-").unwrap_or(def);
            if kind == 0 {
                format!("ORG-{stem}")
            } else {
                let (base, sfx) = stem
                    .rsplit_once('.')
                    .map(|(b, s)| (b.to_string(), format!(".{s}")))
                    .unwrap_or((stem.to_string(), String::new()));
                format!("MCH-{base}_parent{sfx}")
            }
        }
        other => fallback(other),
    }
}

fn max_biped(role: Role) -> String {
    let b = "Bip001";
    match role {
        Role::Hub => b.into(),
        Role::Pelvis => format!("{b} Pelvis"),
        Role::Spine(i) => format!("{b} {}", numbered("Spine", i)),
        Role::Neck(i) => format!("{b} {}", numbered("Neck", i)),
        Role::Head => format!("{b} Head"),
        Role::HeadNub => format!("{b} HeadNub"),
        Role::Thigh(s) => format!("{b} {} Thigh", lr(s).2),
        Role::Shin(s) => format!("{b} {} Calf", lr(s).2),
        Role::Foot(s) => format!("{b} {} Foot", lr(s).2),
        Role::Toe(s) => format!("{b} {} Toe0", lr(s).2),
        Role::ToeNub(s) => format!("{b} {} Toe0Nub", lr(s).2),
        Role::Clavicle(s) => format!("{b} {} Clavicle", lr(s).2),
        Role::UpperArm(s) => format!("{b} {} UpperArm", lr(s).2),
        Role::ForeArm(s) => format!("{b} {} Forearm", lr(s).2),
        Role::Hand(s) => format!("{b} {} Hand", lr(s).2),
        Role::HandNub(s) => format!("{b} {} Finger0Nub", lr(s).2),
        Role::Tail(i) => format!("{b} {}", numbered("Tail", i)),
        Role::TailEnd => format!("{b} TailNub"),
        Role::ThighTwist(s) => format!("{b} {}ThighTwist", lr(s).2),
        Role::Footsteps => format!("{b} Footsteps"),
        Role::IkFoot(s) => format!("IK Chain {}", lr(s).2),
        Role::Pole(s) => format!("Point {} Knee", lr(s).2),
        Role::TailControl => "Dummy Tail".into(),
        Role::TailControlEnd => "Dummy Tail Nub".into(),
        Role::TailIk => "Point Tail".into(),
        other => fallback(other),
    }
}

fn maya(role: Role, n: &str) -> String {
    let l = |s: Side| lr(s).2.to_ascii_lowercase();
    match role {
        Role::Wrapper(0) => "_rootJoint".into(),
        Role::Wrapper(_) => "Global_Ctrl".into(),
        Role::Hub => format!("{n}_ROOTSHJnt"),
        Role::Pelvis => format!("{n}_MAINSHJnt"),
        Role::Spine(i) => format!("{n}_Spine_{:02}SHJnt", i + 1),
        Role::Neck(i) => format!("{n}_Neck_{:02}SHJnt", i + 1),
        Role::Head => format!("{n}_Head_JNTSHJnt"),
        Role::HeadNub => format!("{n}_Head_TopSHJnt"),
        Role::Thigh(s) => format!("{n}_{}_Leg_HipSHJnt", l(s)),
        Role::Shin(s) => format!("{n}_{}_Leg_KneeSHJnt", l(s)),
        Role::Foot(s) => format!("{n}_{}_Leg_AnkleSHJnt", l(s)),
        Role::Toe(s) => format!("{n}_{}_Leg_BallSHJnt", l(s)),
        Role::ToeNub(s) => format!("{n}_{}_Leg_ToeSHJnt", l(s)),
        Role::Clavicle(s) => format!("{n}_{}_Arm_ClavicleSHJnt", l(s)),
        Role::UpperArm(s) => format!("{n}_{}_Arm_ShoulderSHJnt", l(s)),
        Role::ForeArm(s) => format!("{n}_{}_Arm_ElbowSHJnt", l(s)),
        Role::Hand(s) => format!("{n}_{}_Arm_WristSHJnt", l(s)),
        Role::HandNub(s) => format!("{n}_{}_Arm_HandEndSHJnt", l(s)),
        Role::Tail(i) => format!("{n}_Tail_{:02}SHJnt", i + 1),
        Role::TailEnd => format!("{n}_Tail_EndSHJnt"),
        Role::ThighTwist(s) => format!("{n}_{}_Leg_HipTwistSHJnt", l(s)),
        Role::IkFoot(s) => format!("{n}_{}_Leg_IK_Ctrl", l(s)),
        Role::Pole(s) => format!("{n}_{}_Leg_PoleVector_Ctrl", l(s)),
        Role::TailControl => format!("{n}_Tail_Ctrl"),
        Role::TailControlEnd => format!("{n}_Tail_Ctrl_End"),
        Role::TailIk => format!("{n}_Tail_IK_Ctrl"),
        other => fallback(other),
    }
}

fn quaternius(role: Role, spec: &CharacterSpec) -> String {
    let animal = spec.layout == Layout::Quadruped;
    let biped = spec.layout == Layout::Biped;
    let sx = |s: Side| lr(s).1;
    match role {
        Role::Root => "Root".into(),
        Role::Hub => "Body".into(),
        Role::Pelvis if spec.decoy_hips => "Body".into(),
        Role::Pelvis if biped => "Hips".into(),
        Role::Pelvis => "Back".into(),
        Role::TorsoRoot => "Hips".into(),
        Role::Spine(0) if biped => "Abdomen".into(),
        Role::Spine(i) => numbered("Torso", if i == 0 { 0 } else { i + 1 }),
        Role::Neck(i) => format!("Neck{}", i + 1),
        Role::Head => "Head".into(),
        Role::HeadNub => "Head_end".into(),
        Role::HipConnector(s) => format!("{}{}", if biped { "Hip" } else { "BackShoulder" }, sx(s)),
        Role::Thigh(s) => format!("{}{}", if biped { "UpperLeg" } else { "BackLeg" }, sx(s)),
        Role::Shin(s) => format!("{}{}", if biped { "LowerLeg" } else { "BackUpperLeg" }, sx(s)),
        Role::Foot(s) => format!("{}{}", if biped { "Foot" } else { "BackFoot" }, sx(s)),
        Role::Toe(s) => format!("{}{}", if biped { "Toe" } else { "BackToe" }, sx(s)),
        Role::ToeNub(s) => format!("{}{}_end", if biped { "Toe" } else { "BackToe" }, sx(s)),
        Role::Clavicle(s) => {
            format!("{}{}", if animal { "FrontShoulder" } else { "Shoulder" }, sx(s))
        }
        Role::UpperArm(s) => format!("{}{}", if animal { "FrontLeg" } else { "UpperArm" }, sx(s)),
        Role::ForeArm(s) => {
            format!("{}{}", if animal { "FrontUpperLeg" } else { "LowerArm" }, sx(s))
        }
        Role::Hand(s) => format!("{}{}", if animal { "FrontFoot" } else { "Palm" }, sx(s)),
        Role::HandNub(s) => format!("{}{}_end", if animal { "FrontFoot" } else { "Palm" }, sx(s)),
        Role::Tail(i) => format!("Tail{}", i + 1),
        Role::TailEnd => "Tail_end".into(),
        Role::ThighTwist(s) => format!("UpperLegTwist{}", sx(s)),
        Role::IkFoot(s) => format!("{}{}", if biped { "IKLeg" } else { "IKBackLeg" }, sx(s)),
        Role::Pole(s) => format!("PoleTarget{}", sx(s)),
        Role::TailControl => "TailPole".into(),
        Role::TailControlEnd => "TailPole_end".into(),
        Role::TailIk => "IKTail".into(),
        other => fallback(other),
    }
}

/// Names no scheme above has a word for (never reached by the layouts the
/// spec can draw, but total so a new role cannot panic).
fn fallback(role: Role) -> String {
    format!("{role:?}").replace(['(', ')', ' ', ','], "_")
}

/// One name per joint of `s`, unique within the character.
pub fn names(s: &Skeleton, spec: &CharacterSpec) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(s.joints.len());
    if spec.naming == Naming::Generic {
        // Depth-first numbering from the roots, as a converter that lost
        // the names writes them; only a decoy `Hips` keeps its word.
        let mut order = Vec::new();
        let mut stack: Vec<usize> =
            (0..s.joints.len()).filter(|&j| s.joints[j].parent.is_none()).rev().collect();
        while let Some(j) = stack.pop() {
            order.push(j);
            let kids: Vec<usize> = s.children(j).collect();
            stack.extend(kids.into_iter().rev());
        }
        let mut numbered = vec![String::new(); s.joints.len()];
        for (k, &j) in order.iter().enumerate() {
            numbered[j] = match s.joints[j].role {
                Role::Pelvis if spec.decoy_hips => "Body".into(),
                Role::TorsoRoot => "Hips".into(),
                _ => format!("joint{k}"),
            };
        }
        return numbered;
    }
    for j in &s.joints {
        let name = match spec.naming {
            Naming::Mixamo => mixamo(j.role, spec.decoy_hips),
            Naming::Rigify => rigify(j.role, s, &out),
            Naming::MaxBiped => max_biped(j.role),
            Naming::Maya => maya(j.role, &spec.name),
            Naming::Quaternius => quaternius(j.role, spec),
            Naming::Generic => unreachable!(),
        };
        out.push(name);
    }
    debug_assert!({
        let mut sorted = out.clone();
        sorted.sort();
        sorted.windows(2).all(|w| w[0] != w[1])
    });
    out
}

/// The armature node's name as the convention's exporter writes it.
pub fn armature_name(naming: Naming) -> &'static str {
    match naming {
        Naming::Mixamo | Naming::Generic => "Armature",
        Naming::Rigify => "rig",
        Naming::MaxBiped => "Bip001_Scene",
        Naming::Maya => "RootNode",
        Naming::Quaternius => "CharacterArmature",
    }
}
