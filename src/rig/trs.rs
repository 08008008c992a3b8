use glam::{Mat4, Quat, Vec3};

/// A local transform as glTF stores it: translation, rotation, scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trs {
    /// Translation, in the parent's space.
    pub translation: Vec3,
    /// Rotation (a unit quaternion).
    pub rotation: Quat,
    /// Scale per axis.
    pub scale: Vec3,
}

impl Default for Trs {
    fn default() -> Self {
        Trs::IDENTITY
    }
}

impl Trs {
    /// No translation, no rotation, unit scale.
    pub const IDENTITY: Trs =
        Trs { translation: Vec3::ZERO, rotation: Quat::IDENTITY, scale: Vec3::ONE };

    /// A transform from its parts.
    pub fn new(translation: Vec3, rotation: Quat, scale: Vec3) -> Self {
        Trs { translation, rotation, scale }
    }

    /// The matrix `T * R * S`.
    pub fn matrix(&self) -> Mat4 {
        Mat4::from_scale_rotation_translation(self.scale, self.rotation, self.translation)
    }

    /// Decomposes an affine matrix. Shear (non-uniform scale under a
    /// rotation) cannot be represented and is dropped, as every DCC does.
    pub fn from_matrix(m: &Mat4) -> Self {
        let (scale, rotation, translation) = m.to_scale_rotation_translation();
        Trs { translation, rotation: rotation.normalize(), scale }
    }

    /// True when every component is finite.
    pub fn is_finite(&self) -> bool {
        self.translation.is_finite() && self.rotation.is_finite() && self.scale.is_finite()
    }
}
