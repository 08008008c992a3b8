//! Surface solver (SPEC X): exact pieces on known answers, control runs on
//! generated rigs, the rotation-only variant, noise and bad input.

use caudal::solve::eigen4::symmetric_eigen4;
use caudal::solve::horn::fit_rotation;
use caudal::solve::quality::{heat_colour, skin_clip};
use caudal::solve::synthetic::{clip, creature, Lcg};
use caudal::solve::{solve_surface, SolveMode, SolveParams};
use caudal::CaudalError;
use glam::Vec3;
use nalgebra::{Matrix3, Rotation3, Vector3};

#[test]
fn jacobi_eigen4_reconstructs_symmetric_matrices() {
    let mut rng = Lcg(7);
    for case in 0..200 {
        let mut a = [[0.0f64; 4]; 4];
        for i in 0..4 {
            for j in i..4 {
                let x = rng.signed() as f64 * 10.0;
                a[i][j] = x;
                a[j][i] = x;
            }
        }
        if case % 7 == 0 {
            // Repeated eigenvalues: a multiple of the identity plus rank one.
            a = [[2.0, 0.0, 0.0, 0.0], [0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 2.0, 0.0], [0.0, 0.0, 0.0, 5.0]];
        }
        let (vals, vecs) = symmetric_eigen4(&a);
        for k in 1..4 {
            assert!(vals[k] >= vals[k - 1]);
        }
        for k in 0..4 {
            let v = vecs[k];
            let norm: f64 = v.iter().map(|x| x * x).sum();
            assert!((norm - 1.0).abs() < 1e-12);
            for i in 0..4 {
                let av: f64 = (0..4).map(|j| a[i][j] * v[j]).sum();
                assert!((av - vals[k] * v[i]).abs() < 1e-10 * (1.0 + vals[k].abs()), "case {case}: A v != l v");
            }
        }
    }
}

#[test]
fn horn_recovers_a_rotation_to_machine_precision() {
    let mut rng = Lcg(3);
    for _ in 0..100 {
        let axis = rng.unit_vec();
        let angle = rng.signed() as f64 * 3.1;
        let rot = Rotation3::from_axis_angle(&nalgebra::Unit::new_normalize(Vector3::new(axis.x as f64, axis.y as f64, axis.z as f64)), angle);
        let mut h = Matrix3::zeros();
        for _ in 0..5 {
            let p = Vector3::new(rng.signed() as f64, rng.signed() as f64, rng.signed() as f64);
            h += (rot * p) * p.transpose();
        }
        let got = fit_rotation(&h).to_rotation_matrix();
        let err = (got.into_inner() - rot.into_inner()).norm();
        assert!(err < 1e-12, "rotation error {err}");
    }
}

#[test]
fn heat_colours_run_blue_to_red() {
    assert_eq!(heat_colour(0.0, 1.0, 0.03), [0.0, 0.0, 1.0]);
    assert_eq!(heat_colour(0.03, 1.0, 0.03), [1.0, 0.0, 0.0]);
    assert_eq!(heat_colour(1.0, 1.0, 0.03), [1.0, 0.0, 0.0]);
    assert_eq!(heat_colour(0.015, 1.0, 0.03), [0.0, 1.0, 0.0]);
}

fn surfaces_of(rig: &caudal::Rig, c: &caudal::Clip) -> Vec<Vec3> {
    skin_clip(rig, c)
}

#[test]
fn control_run_on_a_generated_rig_is_exact() {
    let rig = creature(30, 3000, 11).unwrap();
    let c = clip(&rig, 24, 0.6, true, 5).unwrap();
    let surf = surfaces_of(&rig, &c);
    let solved = solve_surface(&rig, &surf, "walk", 24.0, &SolveParams::default()).unwrap();
    let q = &solved.report.quality;
    assert!(q.mean_error < 0.008e-2, "mean {}", q.mean_error);
    assert!(q.worst_error < 0.08e-2, "worst {}", q.worst_error);
    assert!(q.quality > 0.998, "quality {}", q.quality);
    assert_eq!(solved.clip.frame_count(), 24);
    assert_eq!(q.errors.len(), 24 * rig.vertex_count());
    // Stretching joints: the rigid answer must change bone lengths.
    assert!(solved.report.bone_length_change > 1e-3);
}

#[test]
fn control_run_without_the_affine_seed_still_converges() {
    // The article's plain scheme: warm start + block descent only.
    let rig = creature(12, 1200, 2).unwrap();
    let c = clip(&rig, 8, 0.4, true, 9).unwrap();
    let surf = surfaces_of(&rig, &c);
    let params = SolveParams { affine_seed: false, max_sweeps: 2000, ..SolveParams::default() };
    let solved = solve_surface(&rig, &surf, "walk", 24.0, &params).unwrap();
    assert_eq!(solved.report.seeded_frames, 0);
    let q = &solved.report.quality;
    assert!(q.mean_error < 0.008e-2, "mean {}", q.mean_error);
    assert!(q.quality > 0.998, "quality {}", q.quality);
}

#[test]
fn rotation_only_keeps_bone_lengths_and_is_exact_on_a_rotation_clip() {
    let rig = creature(20, 2000, 4).unwrap();
    let c = clip(&rig, 12, 0.5, false, 8).unwrap();
    let surf = surfaces_of(&rig, &c);
    let params = SolveParams { mode: SolveMode::RotationOnly, ..SolveParams::default() };
    let solved = solve_surface(&rig, &surf, "walk", 24.0, &params).unwrap();
    assert_eq!(solved.report.bone_length_change, 0.0);
    let q = &solved.report.quality;
    assert!(q.mean_error < 0.008e-2, "mean {}", q.mean_error);
    assert!(q.quality > 0.998, "quality {}", q.quality);
}

#[test]
fn rotation_only_prices_stretching_joints() {
    let rig = creature(20, 2000, 4).unwrap();
    let c = clip(&rig, 12, 0.5, true, 8).unwrap();
    let surf = surfaces_of(&rig, &c);
    let rigid = solve_surface(&rig, &surf, "s", 24.0, &SolveParams::default()).unwrap();
    let rot = solve_surface(&rig, &surf, "s", 24.0, &SolveParams { mode: SolveMode::RotationOnly, ..SolveParams::default() }).unwrap();
    assert_eq!(rot.report.bone_length_change, 0.0);
    assert!(rot.report.quality.quality < rigid.report.quality.quality - 1e-3);
    assert!(rot.report.quality.quality > 0.5, "rotation-only still carries most of it: {}", rot.report.quality.quality);
}

#[test]
fn noisy_targets_degrade_gracefully() {
    let rig = creature(30, 3000, 11).unwrap();
    let c = clip(&rig, 12, 0.6, true, 5).unwrap();
    let mut surf = surfaces_of(&rig, &c);
    let diag = rig.diagonal();
    let mut rng = Lcg(1);
    for p in surf.iter_mut() {
        *p += rng.unit_vec() * (0.001 * diag);
    }
    let solved = solve_surface(&rig, &surf, "n", 24.0, &SolveParams::default()).unwrap();
    let q = &solved.report.quality;
    // The noise itself is 0.1% of the diagonal per vertex: the fit can not
    // be much better than that, and must not be much worse.
    assert!(q.mean_error > 0.0005 && q.mean_error < 0.0015, "mean {}", q.mean_error);
    assert!(q.quality > 0.95, "quality {}", q.quality);
    assert!(solved.clip.locals().iter().all(|t| t.is_finite()));
}

#[test]
fn same_answer_on_one_thread_and_many() {
    let rig = creature(16, 1500, 3).unwrap();
    let c = clip(&rig, 6, 0.5, true, 2).unwrap();
    let surf = surfaces_of(&rig, &c);
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let a = one.install(|| solve_surface(&rig, &surf, "x", 24.0, &SolveParams::default()).unwrap());
    let b = solve_surface(&rig, &surf, "x", 24.0, &SolveParams::default()).unwrap();
    assert_eq!(a.clip, b.clip);
    assert_eq!(a.report, b.report);
}

#[test]
fn bad_input_names_the_field() {
    let rig = creature(6, 400, 1).unwrap();
    let n = rig.vertex_count();
    let err = solve_surface(&rig, &vec![Vec3::ZERO; n + 1], "x", 24.0, &SolveParams::default()).unwrap_err();
    assert!(matches!(err, CaudalError::Shape { ref field, .. } if field == "surfaces"), "{err}");
    let mut bad = vec![Vec3::ZERO; n];
    bad[3] = Vec3::NAN;
    let err = solve_surface(&rig, &bad, "x", 24.0, &SolveParams::default()).unwrap_err();
    assert!(matches!(err, CaudalError::NonFinite { ref field, index: 3 } if field == "surfaces"), "{err}");
    let err = solve_surface(&rig, rig.vertices(), "x", 0.0, &SolveParams::default()).unwrap_err();
    assert!(matches!(err, CaudalError::Parameter { ref field, .. } if field == "rate"), "{err}");
    let err = solve_surface(&rig, rig.vertices(), "x", 24.0, &SolveParams { max_sweeps: 0, ..SolveParams::default() }).unwrap_err();
    assert!(matches!(err, CaudalError::Parameter { ref field, .. } if field == "max_sweeps"), "{err}");
}
