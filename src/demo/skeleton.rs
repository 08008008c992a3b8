use glam::Vec3;

/// One joint of the demo creature's skeleton.
pub struct DemoJoint {
    /// The joint's name.
    pub name: &'static str,
    /// Index of its parent in [`BONES`] (`None` at the root).
    pub parent: Option<usize>,
    /// Bind-pose head position in metres (Y up, facing +Z, left = +X).
    pub head: [f32; 3],
}

const fn j(name: &'static str, parent: Option<usize>, head: [f32; 3]) -> DemoJoint {
    DemoJoint { name, parent, head }
}

/// The 22 body bones of a Mixamo-style template skeleton (no fingers, no tail).
pub const BONES: [DemoJoint; 22] = [
    j("mixamorig:Hips", None, [0.0, 1.0, 0.0]),
    j("mixamorig:Spine", Some(0), [0.0, 1.1, 0.0]),
    j("mixamorig:Spine1", Some(1), [0.0, 1.22, 0.0]),
    j("mixamorig:Spine2", Some(2), [0.0, 1.34, 0.0]),
    j("mixamorig:Neck", Some(3), [0.0, 1.5, 0.0]),
    j("mixamorig:Head", Some(4), [0.0, 1.6, 0.02]),
    j("mixamorig:LeftShoulder", Some(3), [0.06, 1.45, 0.0]),
    j("mixamorig:LeftArm", Some(6), [0.2, 1.45, 0.0]),
    j("mixamorig:LeftForeArm", Some(7), [0.24, 1.18, 0.0]),
    j("mixamorig:LeftHand", Some(8), [0.26, 0.93, 0.02]),
    j("mixamorig:RightShoulder", Some(3), [-0.06, 1.45, 0.0]),
    j("mixamorig:RightArm", Some(10), [-0.2, 1.45, 0.0]),
    j("mixamorig:RightForeArm", Some(11), [-0.24, 1.18, 0.0]),
    j("mixamorig:RightHand", Some(12), [-0.26, 0.93, 0.02]),
    j("mixamorig:LeftUpLeg", Some(0), [0.1, 0.95, 0.0]),
    j("mixamorig:LeftLeg", Some(14), [0.1, 0.52, 0.01]),
    j("mixamorig:LeftFoot", Some(15), [0.1, 0.09, 0.0]),
    j("mixamorig:LeftToeBase", Some(16), [0.1, 0.03, 0.12]),
    j("mixamorig:RightUpLeg", Some(0), [-0.1, 0.95, 0.0]),
    j("mixamorig:RightLeg", Some(18), [-0.1, 0.52, 0.01]),
    j("mixamorig:RightFoot", Some(19), [-0.1, 0.09, 0.0]),
    j("mixamorig:RightToeBase", Some(20), [-0.1, 0.03, 0.12]),
];

pub const LEFT_THIGH: usize = 14;
pub const LEFT_SHIN: usize = 15;
pub const RIGHT_THIGH: usize = 18;

/// The distal share of the tail a template rigger hands to the left shin
/// (the rest goes to the thigh on each vertex's side), as in the fox the
/// articles start from.
pub const TAIL_LENGTH_SHARE_OF_TAIL_TO_SHIN: f32 = 0.6;

pub fn head(i: usize) -> Vec3 {
    Vec3::from(BONES[i].head)
}

/// Tail centre line from the back of the hips, back and down (about 0.85 m,
/// 47% of the creature's height, like the fox's).
pub const TAIL_LINE: [[f32; 3]; 6] = [
    [0.0, 0.98, -0.1],
    [0.0, 0.93, -0.28],
    [0.0, 0.8, -0.45],
    [0.0, 0.62, -0.58],
    [0.0, 0.42, -0.66],
    [0.0, 0.24, -0.7],
];
