//! Exact eigen-decomposition of a symmetric 4x4 matrix by cyclic Jacobi
//! rotations.
//!
//! Why not power iteration: Horn's matrix needs a spectral shift to make
//! power iteration converge, and that shift also squashes the eigenvalue gap
//! the iteration tracks, so it stalls near a thousandth of a degree (SPEC X4,
//! article 001). Jacobi rotations converge quadratically to machine precision
//! for any symmetric 4x4, repeated eigenvalues included.

#![allow(clippy::needless_range_loop)] // index loops read as the 4x4 maths they implement

/// Sweeps after which Jacobi stops even if the off-diagonal is not yet zero.
/// Quadratic convergence reaches f64 precision in 5-8 sweeps on 4x4.
pub const JACOBI_MAX_SWEEPS: usize = 32;

/// Eigenvalues (ascending) and matching unit eigenvectors (`vectors[k]` goes
/// with `values[k]`) of the symmetric matrix `a` (only its upper triangle and
/// diagonal are read).
pub fn symmetric_eigen4(a: &[[f64; 4]; 4]) -> ([f64; 4], [[f64; 4]; 4]) {
    let mut m = *a;
    for i in 0..4 {
        for j in 0..i {
            m[i][j] = m[j][i];
        }
    }
    // v holds eigenvectors as columns: v[row][col].
    let mut v =
        [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]];
    for _ in 0..JACOBI_MAX_SWEEPS {
        let mut rotated = false;
        for p in 0..3 {
            for q in (p + 1)..4 {
                let apq = m[p][q];
                // Classic negligibility test: an off-diagonal entry too small
                // to change either diagonal entry in f64 is zero.
                if apq == 0.0 || apq.abs() <= 1e-18 * (m[p][p].abs() + m[q][q].abs()) {
                    m[p][q] = 0.0;
                    m[q][p] = 0.0;
                    continue;
                }
                rotated = true;
                // Rotation angle that zeroes m[p][q] (Golub & Van Loan 8.4.2).
                let theta = (m[q][q] - m[p][p]) / (2.0 * apq);
                let t = if theta == 0.0 {
                    1.0
                } else {
                    theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt())
                };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for row in m.iter_mut() {
                    let (mkp, mkq) = (row[p], row[q]);
                    row[p] = c * mkp - s * mkq;
                    row[q] = s * mkp + c * mkq;
                }
                for k in 0..4 {
                    let (mpk, mqk) = (m[p][k], m[q][k]);
                    m[p][k] = c * mpk - s * mqk;
                    m[q][k] = s * mpk + c * mqk;
                }
                for row in v.iter_mut() {
                    let (vp, vq) = (row[p], row[q]);
                    row[p] = c * vp - s * vq;
                    row[q] = s * vp + c * vq;
                }
            }
        }
        if !rotated {
            break;
        }
    }
    let mut idx = [0usize, 1, 2, 3];
    idx.sort_by(|&a, &b| m[a][a].total_cmp(&m[b][b]));
    let mut values = [0.0; 4];
    let mut vectors = [[0.0; 4]; 4];
    for (k, &i) in idx.iter().enumerate() {
        values[k] = m[i][i];
        for r in 0..4 {
            vectors[k][r] = v[r][i];
        }
    }
    (values, vectors)
}

/// The unit eigenvector of the largest eigenvalue, with its eigenvalue.
pub fn top_eigenvector4(a: &[[f64; 4]; 4]) -> (f64, [f64; 4]) {
    let (values, vectors) = symmetric_eigen4(a);
    (values[3], vectors[3])
}
