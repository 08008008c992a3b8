//! Horn's closed-form rotation fit (Horn 1987, "Closed-form solution of
//! absolute orientation using unit quaternions").
//!
//! Given the cross-covariance `H = sum_i a_i q_i p_i^T` of centred source
//! points `p` and targets `q`, the rotation maximising `tr(R^T H)` (i.e.
//! minimising `sum a_i |R p_i - q_i|^2`) is the unit quaternion that is the
//! top eigenvector of Horn's symmetric 4x4 matrix built from `H`. The same
//! function gives the nearest rotation to any 3x3 matrix `L` (pass `H = L`),
//! which is how an affine estimate is projected onto the rigid motions.

use nalgebra::{Matrix3, Quaternion, UnitQuaternion};

use super::eigen4::top_eigenvector4;

/// Horn's 4x4 matrix for the cross-covariance `h` (`h[(r, c)] = sum q_r p_c`).
pub fn horn_matrix(h: &Matrix3<f64>) -> [[f64; 4]; 4] {
    // Horn writes S_ab = sum p_a q_b, the transpose of h.
    let s = |a: usize, b: usize| h[(b, a)];
    let (sxx, sxy, sxz) = (s(0, 0), s(0, 1), s(0, 2));
    let (syx, syy, syz) = (s(1, 0), s(1, 1), s(1, 2));
    let (szx, szy, szz) = (s(2, 0), s(2, 1), s(2, 2));
    [
        [sxx + syy + szz, syz - szy, szx - sxz, sxy - syx],
        [syz - szy, sxx - syy - szz, sxy + syx, szx + sxz],
        [szx - sxz, sxy + syx, -sxx + syy - szz, syz + szy],
        [sxy - syx, szx + sxz, syz + szy, -sxx - syy + szz],
    ]
}

/// The rotation maximising `tr(R^T h)`. Exact (Jacobi eigen-solver); for a
/// rank-deficient `h` (collinear points) any maximiser may be returned, so
/// callers add a proximal pull towards the current rotation to `h`.
pub fn fit_rotation(h: &Matrix3<f64>) -> UnitQuaternion<f64> {
    let n = horn_matrix(h);
    let (_, q) = top_eigenvector4(&n);
    let quat = Quaternion::new(q[0], q[1], q[2], q[3]);
    if quat.norm() == 0.0 || !quat.norm().is_finite() {
        return UnitQuaternion::identity();
    }
    UnitQuaternion::from_quaternion(quat)
}

/// Nearest rotation (Frobenius) to a 3x3 matrix: the rotation part of its
/// polar decomposition, for `det > 0`.
pub fn nearest_rotation(l: &Matrix3<f64>) -> Matrix3<f64> {
    fit_rotation(l).to_rotation_matrix().into_inner()
}
