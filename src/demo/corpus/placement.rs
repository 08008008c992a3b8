//! Where model space lands: the core's space (what the loader must read:
//! Y-up, possibly turned and in centimetres) and the file's bind space
//! under an armature node (Z-up, scaled), as exporters write them.

use glam::{Mat4, Quat, Vec3};

use super::spec::{CaseSpec, Units};

#[derive(Clone, Debug)]
pub struct Placement {
    /// Model space (metres, Y-up) to the core's space, per character.
    pub core_from_model: Vec<Mat4>,
    /// The core's space to the file's bind space.
    pub file_from_core: Mat4,
    /// The armature node's transform (file to core), when the exporter
    /// writes one: (rotation, uniform scale).
    pub node: Option<(Quat, f32)>,
    /// Core units per model metre.
    pub units_per_metre: f32,
}

/// Characters stand side by side, this many times the taller one's height apart.
const SPACING: f32 = 1.6;

pub fn place(spec: &CaseSpec) -> Placement {
    let (units_per_metre, rotation, scale) = match spec.units {
        Units::MetresYUp => (1.0, None, 1.0),
        Units::ZUpCentimetresNode => (1.0, Some(-std::f32::consts::FRAC_PI_2), 0.01),
        Units::CentimetresYUp => (100.0, None, 1.0),
        Units::ScaledNode => (1.0, None, 40.0),
        Units::ZUpNode => (1.0, Some(-std::f32::consts::FRAC_PI_2), 1.0),
    };
    let node_rot = rotation.map_or(Quat::IDENTITY, Quat::from_rotation_x);
    let node = (rotation.is_some() || scale != 1.0).then_some((node_rot, scale));
    let turn = Quat::from_rotation_y(spec.yaw_deg.to_radians())
        * Quat::from_rotation_x(spec.pitch_deg.to_radians());
    let tallest = spec.characters.iter().map(|c| c.height).fold(0.0, f32::max);
    let core_from_model = (0..spec.characters.len())
        .map(|i| {
            let offset = Vec3::X * SPACING * tallest * i as f32;
            Mat4::from_scale(Vec3::splat(units_per_metre))
                * Mat4::from_quat(turn)
                * Mat4::from_translation(offset)
        })
        .collect();
    let core_from_file = Mat4::from_quat(node_rot) * Mat4::from_scale(Vec3::splat(scale));
    Placement { core_from_model, file_from_core: core_from_file.inverse(), node, units_per_metre }
}
