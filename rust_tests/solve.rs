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
#[allow(clippy::needless_range_loop)]
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
            a = [
                [2.0, 0.0, 0.0, 0.0],
                [0.0, 2.0, 0.0, 0.0],
                [0.0, 0.0, 2.0, 0.0],
                [0.0, 0.0, 0.0, 5.0],
            ];
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
                assert!(
                    (av - vals[k] * v[i]).abs() < 1e-10 * (1.0 + vals[k].abs()),
                    "case {case}: A v != l v"
                );
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
        let rot = Rotation3::from_axis_angle(
            &nalgebra::Unit::new_normalize(Vector3::new(
                axis.x as f64,
                axis.y as f64,
                axis.z as f64,
            )),
            angle,
        );
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
    let q = solved.report.quality();
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
    let q = solved.report.quality();
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
    let q = solved.report.quality();
    assert!(q.mean_error < 0.008e-2, "mean {}", q.mean_error);
    assert!(q.quality > 0.998, "quality {}", q.quality);
}

#[test]
fn rotation_only_prices_stretching_joints() {
    let rig = creature(20, 2000, 4).unwrap();
    let c = clip(&rig, 12, 0.5, true, 8).unwrap();
    let surf = surfaces_of(&rig, &c);
    let rigid = solve_surface(&rig, &surf, "s", 24.0, &SolveParams::default()).unwrap();
    let rot = solve_surface(
        &rig,
        &surf,
        "s",
        24.0,
        &SolveParams { mode: SolveMode::RotationOnly, ..SolveParams::default() },
    )
    .unwrap();
    assert_eq!(rot.report.bone_length_change, 0.0);
    assert!(rot.report.quality().quality < rigid.report.quality().quality - 1e-3);
    assert!(
        rot.report.quality().quality > 0.5,
        "rotation-only still carries most of it: {}",
        rot.report.quality().quality
    );
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
    let q = solved.report.quality();
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
    let err = solve_surface(&rig, &vec![Vec3::ZERO; n + 1], "x", 24.0, &SolveParams::default())
        .unwrap_err();
    assert!(matches!(err, CaudalError::Shape { ref field, .. } if field == "surfaces"), "{err}");
    let mut bad = vec![Vec3::ZERO; n];
    bad[3] = Vec3::NAN;
    let err = solve_surface(&rig, &bad, "x", 24.0, &SolveParams::default()).unwrap_err();
    assert!(
        matches!(err, CaudalError::NonFinite { ref field, index: 3 } if field == "surfaces"),
        "{err}"
    );
    let err = solve_surface(&rig, rig.vertices(), "x", 0.0, &SolveParams::default()).unwrap_err();
    assert!(matches!(err, CaudalError::Parameter { ref field, .. } if field == "rate"), "{err}");
    let err = solve_surface(
        &rig,
        rig.vertices(),
        "x",
        24.0,
        &SolveParams { max_sweeps: 0, ..SolveParams::default() },
    )
    .unwrap_err();
    assert!(
        matches!(err, CaudalError::Parameter { ref field, .. } if field == "max_sweeps"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------
// Real data: the shared animals (assets/).

use crate::common::{assert_control_run, load};
use caudal::solve::{carried_surfaces, quality_over, transfer_clip};

/// The article's sample: 24 frames per clip.
fn clip24(model: &caudal::gltf_io::GltfModel, name: &str) -> caudal::Clip {
    let info = &model.animations[model.animation_index(name).unwrap()];
    let c = model.sample_clip(0, name, 23.0 / info.duration).unwrap();
    assert_eq!(c.frame_count(), 24);
    c
}

const CONTROL: &[(&str, &[&str])] = &[
    ("fox/Fox.glb", &["Walk", "Run", "Survey"]),
    ("quaternius_wolf/Wolf.gltf", &["Walk", "Gallop"]),
    ("quaternius_shiba_inu/ShibaInu.gltf", &["Walk", "Gallop"]),
    ("quaternius_alpaca/Alpaca.gltf", &["Walk", "Gallop"]),
];

#[test]
fn control_run_every_shared_animal_against_its_own_clips() {
    // SPEC X4: the artist rig solved against its own clip, where a perfect
    // answer exists. Bars: mean <= 0.008%, worst <= 0.08% of the diagonal,
    // transfer quality >= 99.8%.
    for (file, clips) in CONTROL {
        let model = load(file);
        for name in *clips {
            let clip = clip24(&model, name);
            let surf = skin_clip(model.rig().unwrap(), &clip);
            let s = solve_surface(
                model.rig().unwrap(),
                &surf,
                name,
                clip.rate,
                &SolveParams::default(),
            )
            .unwrap();
            assert_control_run(&format!("control {file} {name}"), s.report.quality());
            assert_eq!(s.clip.name, *name);
            assert_eq!(s.clip.joint_count(), model.rig().unwrap().joint_count());
        }
    }
}

#[test]
fn control_run_rotation_only_keeps_bone_lengths() {
    for (file, name) in [("fox/Fox.glb", "Walk"), ("quaternius_wolf/Wolf.gltf", "Walk")] {
        let model = load(file);
        let clip = clip24(&model, name);
        let surf = skin_clip(model.rig().unwrap(), &clip);
        let params = SolveParams { mode: SolveMode::RotationOnly, ..SolveParams::default() };
        let s = solve_surface(model.rig().unwrap(), &surf, name, clip.rate, &params).unwrap();
        let q = s.report.quality();
        eprintln!(
            "rotation-only control {file} {name}: quality {:.6} mean {:.2e}%",
            q.quality,
            q.mean_error * 100.0
        );
        assert_eq!(s.report.bone_length_change, 0.0);
        // These walks only rotate joints, so the rotation-only answer is exact too.
        assert!(
            q.quality >= 0.998 && q.mean_error <= 0.008e-2,
            "{file} {name}: {} {}",
            q.quality,
            q.mean_error
        );
    }
}

#[test]
fn gallop_needs_translating_joints_rotation_only_prices_them() {
    let model = load("quaternius_shiba_inu/ShibaInu.gltf");
    let clip = clip24(&model, "Gallop");
    let surf: Vec<Vec3> =
        skin_clip(model.rig().unwrap(), &clip)[..6 * model.rig().unwrap().vertex_count()].to_vec();
    let rigid = solve_surface(model.rig().unwrap(), &surf, "g", clip.rate, &SolveParams::default())
        .unwrap();
    let rot = solve_surface(
        model.rig().unwrap(),
        &surf,
        "g",
        clip.rate,
        &SolveParams { mode: SolveMode::RotationOnly, ..SolveParams::default() },
    )
    .unwrap();
    assert!(rigid.report.bone_length_change > 1e-3, "the artist's gallop stretches bones");
    assert_eq!(rot.report.bone_length_change, 0.0);
    let (qr, qo) = (rigid.report.quality().quality, rot.report.quality().quality);
    assert!(qr >= 0.998 && qo < qr && qo > 0.95, "rigid {qr} rotation-only {qo}");
}

#[test]
fn noisy_control_run_on_the_wolf_degrades_gracefully() {
    let model = load("quaternius_wolf/Wolf.gltf");
    let clip = clip24(&model, "Walk");
    let mut surf = skin_clip(model.rig().unwrap(), &clip);
    let exact = surf.clone();
    let diag = model.rig().unwrap().diagonal();
    let mut rng = Lcg(42);
    for p in surf.iter_mut() {
        *p += rng.unit_vec() * (0.001 * diag);
    }
    let s = solve_surface(model.rig().unwrap(), &surf, "Walk", clip.rate, &SolveParams::default())
        .unwrap();
    assert!(
        s.report.sweeps.iter().all(|&k| k < SolveParams::default().max_sweeps),
        "every frame converged"
    );
    // Against the noise-free surface the solve lands far closer than the
    // noise itself: least squares averages it out.
    let skinned = skin_clip(model.rig().unwrap(), &s.clip);
    let clean = caudal::solve::measure(model.rig().unwrap(), &skinned, &exact);
    eprintln!(
        "noisy wolf: quality vs noisy {:.5}, vs clean {:.5}, clean mean {:.2e}%",
        s.report.quality().quality,
        clean.quality,
        clean.mean_error * 100.0
    );
    assert!(clean.mean_error < 0.0005, "clean mean {}", clean.mean_error);
    assert!(clean.quality > 0.99, "clean quality {}", clean.quality);
    assert!(s.report.quality().quality > 0.9, "noisy quality {}", s.report.quality().quality);
}

fn tail_vertices(truth: &str) -> Vec<usize> {
    let text = std::fs::read_to_string(crate::common::asset(truth)).unwrap();
    let t: serde_json::Value = serde_json::from_str(&text).unwrap();
    t["tail_vertices"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as usize).collect()
}

#[test]
fn artist_clip_onto_the_degraded_rig_loses_the_tail() {
    let src = load("fox/Fox.glb");
    let dst = load("fox/Fox_notail.glb");
    let tail = tail_vertices("fox/Fox_notail.truth.json");
    let clip = clip24(&src, "Walk");
    let tr = transfer_clip(src.rig().unwrap(), &clip, dst.rig().unwrap(), &SolveParams::default())
        .unwrap();
    // Same mesh: the correspondence is exact.
    assert_eq!(tr.correspondence.gap_summary().1, 0.0);
    let targets = carried_surfaces(src.rig().unwrap(), &clip, &tr.correspondence).unwrap();
    let skinned = skin_clip(dst.rig().unwrap(), &tr.solved.clip);
    let q_tail = quality_over(dst.rig().unwrap(), &skinned, &targets, &tail);
    let body: Vec<usize> =
        (0..dst.rig().unwrap().vertex_count()).filter(|v| tail.binary_search(v).is_err()).collect();
    let q_body = quality_over(dst.rig().unwrap(), &skinned, &targets, &body);
    let q = tr.solved.report.quality().quality;
    eprintln!("Fox Walk onto Fox_notail: quality {q:.4}, tail {q_tail:.4}, body {q_body:.4}");
    // A tail skinned to the legs can not follow the artist's tail ...
    assert!(q_tail < 0.8, "tail {q_tail}");
    // ... and the legs pay for trying.
    assert!(q < 0.95 && q > 0.5, "overall {q}");
    assert!(q_body > q_tail);
}

#[test]
fn transfer_onto_a_scaled_moved_copy_is_exact() {
    // Correspondence aligns bounding-box centres and diagonals: a rig that is
    // the source scaled by 2.5 and moved must receive the clip exactly.
    use caudal::rig::RigParts;
    use glam::{Mat4, Vec3 as V};
    let src = creature(14, 1400, 21).unwrap();
    let (s, off) = (2.5f32, V::new(3.0, -1.0, 7.0));
    let mut parts: RigParts = src.to_parts();
    parts.vertices = src.vertices().iter().map(|p| *p * s + off).collect();
    parts.bind_world = Some(
        src.bind_world()
            .iter()
            .map(|m| {
                let (_, r, t) = m.to_scale_rotation_translation();
                Mat4::from_rotation_translation(r, t * s + off)
            })
            .collect(),
    );
    parts.inverse_bind = None;
    parts.rest_local = None;
    let dst = caudal::Rig::new(parts).unwrap();
    let c = clip(&src, 12, 0.5, true, 4).unwrap();
    let t = transfer_clip(&src, &c, &dst, &SolveParams::default()).unwrap();
    assert!(
        (t.correspondence.alignment.scale - 2.5).abs() < 1e-5,
        "scale {}",
        t.correspondence.alignment.scale
    );
    assert!(t.correspondence.gap_summary().1 < 1e-6);
    let q = t.solved.report.quality();
    assert!(q.quality > 0.998 && q.mean_error < 0.008e-2, "{} {}", q.quality, q.mean_error);
}

#[test]
fn solved_clip_round_trips_through_the_gltf_writer() {
    use caudal::gltf_io::{encode, load_bytes};
    use caudal::solve::clip_tracks;
    let src = load("fox/Fox.glb");
    let dst = load("fox/Fox_notail.glb");
    let clip = clip24(&src, "Run");
    let solved =
        transfer_clip(src.rig().unwrap(), &clip, dst.rig().unwrap(), &SolveParams::default())
            .unwrap()
            .solved;
    let tracks = clip_tracks(&dst, 0, &solved.clip, "Run").unwrap();
    assert_eq!(tracks.len(), 3 * dst.rig().unwrap().joint_count());
    let bytes = encode(&dst, &[dst.rig().unwrap()], &tracks, false).unwrap();
    let back = load_bytes(&bytes, None, "written").unwrap();
    let replay = back.sample_clip(0, "Run", solved.clip.rate).unwrap();
    assert_eq!(replay.frame_count(), solved.clip.frame_count());
    let (a, b) =
        (skin_clip(back.rig().unwrap(), &replay), skin_clip(dst.rig().unwrap(), &solved.clip));
    let worst = a.iter().zip(&b).map(|(p, q)| (*p - *q).length()).fold(0.0f32, f32::max);
    assert!(worst < 1e-5 * dst.rig().unwrap().diagonal(), "worst {worst}");
}

#[test]
fn the_repaired_rig_carries_the_artist_tail_better_than_the_degraded_one() {
    // Issue 6: the artist clip onto the degraded rig and onto that rig after
    // tail repair; the repaired rig must score higher on the tail.
    for (artist, degraded, truth, clip_name) in [
        ("fox/Fox.glb", "fox/Fox_notail.glb", "fox/Fox_notail.truth.json", "Walk"),
        (
            "quaternius_wolf/Wolf.gltf",
            "quaternius_wolf/Wolf_notail.glb",
            "quaternius_wolf/Wolf_notail.truth.json",
            "Walk",
        ),
    ] {
        let src = load(artist);
        let dst = load(degraded);
        let tail = tail_vertices(truth);
        let (repaired, _) =
            caudal::chain::grow_chains(dst.rig().unwrap(), &caudal::chain::ChainParams::default())
                .unwrap();
        assert!(
            repaired.joint_count() > dst.rig().unwrap().joint_count(),
            "{degraded}: a chain was grown"
        );
        let clip = clip24(&src, clip_name);
        let mut scores = Vec::new();
        for target in [dst.rig().unwrap(), &repaired] {
            let tr =
                transfer_clip(src.rig().unwrap(), &clip, target, &SolveParams::default()).unwrap();
            let targets = carried_surfaces(src.rig().unwrap(), &clip, &tr.correspondence).unwrap();
            let skinned = skin_clip(target, &tr.solved.clip);
            scores.push((
                tr.solved.report.quality().quality,
                quality_over(target, &skinned, &targets, &tail),
            ));
        }
        eprintln!(
            "{artist} {clip_name}: degraded {:.4} (tail {:.4}), repaired {:.4} (tail {:.4})",
            scores[0].0, scores[0].1, scores[1].0, scores[1].1
        );
        assert!(scores[1].1 > scores[0].1 + 0.1, "{degraded}: tail quality {:?}", scores);
        assert!(scores[1].0 > scores[0].0, "{degraded}: overall quality {:?}", scores);
    }
}
