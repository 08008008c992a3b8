//! One-shots, loop modes, private copies (SPEC R), determinism, bad input.

use caudal::bake::{
    anchor_worlds, bake_clip, bake_model, check_loop, extend_clip, BakeParams, LoopMode,
};
use caudal::rig::RigParts;
use caudal::{CaudalError, Rig};
use glam::{Quat, Vec3};

use super::fixtures::{alpaca, demo, fox, shiba, wolf};

#[test]
fn one_shots_settle_from_the_first_pose() {
    let g = wolf();
    let clip = extend_clip(&g.model.sample_clip(0, "Death", 30.0).unwrap(), &g.rig).unwrap();
    let b = bake_clip(&g.rig, &clip, &g.chains[0], LoopMode::Auto, &BakeParams::default()).unwrap();
    assert!(!b.looping, "Death does not end where it starts: {:?}", b.loop_check);
    assert!(b.seam.is_none());
    // Settled within the tolerance. Held in Death's first pose the Wolf's
    // 3-bone chain rests its tip link on the elastic stop while the coupling
    // pulls the bend back inside: the stop must leave the velocity that
    // balances the coupling, or the link cycles (it did: 3.0° residual).
    assert!(b.warmup.converged && b.warmup.seconds > 0.0, "{:?}", b.warmup);
    // Settled: the first key barely differs from the rest pose the spring
    // holds under the first frame.
    let k = b.track.joints.len();
    let first_step = (0..k)
        .map(|i| b.track.rotations[i].angle_between(b.track.rotations[k + i]))
        .fold(0.0, f32::max);
    let cold = BakeParams { max_settle: 0.0, ..BakeParams::default() };
    let c = bake_clip(&g.rig, &clip, &g.chains[0], LoopMode::Auto, &cold).unwrap();
    let cold_step = (0..k)
        .map(|i| c.track.rotations[i].angle_between(c.track.rotations[k + i]))
        .fold(0.0, f32::max);
    eprintln!(
        "Death first step: settled {:.4}°, cold {:.4}°",
        first_step.to_degrees(),
        cold_step.to_degrees()
    );
    assert!(first_step < cold_step, "settling must calm the start");
    // Every one-shot of the Wolf settles (Jump_ToIdle also held its tip on
    // the stop).
    let all = bake_model(&g.model, 0, &g.rig, &g.chains, None, &BakeParams::default()).unwrap();
    let mut one_shots = 0;
    for (name, per_chain) in all.clip_names.iter().zip(&all.clips) {
        for c in per_chain.iter().filter(|c| !c.looping) {
            one_shots += 1;
            assert!(c.warmup.converged, "{name}: {:?}", c.warmup);
        }
    }
    assert!(one_shots >= 2, "only {one_shots} one-shots");
}

#[test]
fn loop_detection_and_forced_modes() {
    let g = demo();
    let clip = extend_clip(&g.model.sample_clip(0, "Walk", 30.0).unwrap(), &g.rig).unwrap();
    let params = BakeParams::default();
    let anchors = anchor_worlds(&g.rig, &clip, g.chains[0].anchor);
    let check = check_loop(&g.rig, &clip, &anchors, &g.chains[0].bones, &params, Vec3::Y);
    assert!(check.loops && check.angle_deg < 1e-3, "{check:?}");
    let once = bake_clip(&g.rig, &clip, &g.chains[0], LoopMode::Once, &params).unwrap();
    assert!(!once.looping && once.seam.is_none());
    // A clip cut short (first 20 of 31 frames) no longer loops...
    let n = clip.joint_count();
    let cut =
        caudal::Clip::new("cut", clip.rate, 19.0 / clip.rate, n, clip.locals()[..20 * n].to_vec())
            .unwrap();
    let anchors = anchor_worlds(&g.rig, &cut, g.chains[0].anchor);
    let c = check_loop(&g.rig, &cut, &anchors, &g.chains[0].bones, &params, Vec3::Y);
    assert!(!c.loops && c.angle_deg > 5.0, "{c:?}");
    // ...unless the caller says it does.
    let forced = bake_clip(&g.rig, &cut, &g.chains[0], LoopMode::Loop, &params).unwrap();
    assert!(forced.looping && forced.seam.is_some());
    let p = BakeParams { loops: vec![("Walk".into(), LoopMode::Once)], ..BakeParams::default() };
    assert_eq!(p.loop_mode("Walk"), LoopMode::Once);
    assert_eq!(p.loop_mode("Run"), LoopMode::Auto);
    assert_eq!(LoopMode::parse("loop", "yes").unwrap(), LoopMode::Loop);
    assert!(
        matches!(LoopMode::parse("loops", "sometimes"), Err(CaudalError::Parameter { field, .. }) if field == "loops")
    );
}

#[test]
fn private_copies_a_moved_live_pose_changes_nothing() {
    // SPEC R: move and rotate the live hips (the rig's loaded pose) between
    // clips; the baked tracks must equal a clean run, and inputs stay as they were.
    let g = demo();
    let names = vec!["Walk".to_string()];
    let clean =
        bake_model(&g.model, 0, &g.rig, &g.chains, Some(&names), &BakeParams::default()).unwrap();
    let before = g.rig.clone();
    let mut parts: RigParts = g.rig.to_parts();
    let pelvis = g.chains[0].anchor;
    let mut posed = parts.rest_local.clone().unwrap();
    posed[pelvis].translation += Vec3::new(0.3, -0.2, 0.5);
    posed[pelvis].rotation = Quat::from_rotation_y(1.0) * posed[pelvis].rotation;
    parts.rest_local = Some(posed);
    let live = Rig::new(parts).unwrap();
    let again =
        bake_model(&g.model, 0, &live, &g.chains, Some(&names), &BakeParams::default()).unwrap();
    assert_eq!(clean.clips[0][0].track, again.clips[0][0].track);
    assert_eq!(g.rig.rest_local(), before.rest_local());
    // Baking another clip first does not change this one.
    let both = bake_model(&g.model, 0, &g.rig, &g.chains, None, &BakeParams::default()).unwrap();
    let i = both.clip_names.iter().position(|n| n == "Walk").unwrap();
    assert_eq!(both.clips[i][0].track, clean.clips[0][0].track);
}

#[test]
fn same_keys_on_one_thread_and_many() {
    let g = wolf();
    let names: Vec<String> = ["Walk", "Gallop", "Idle"].iter().map(|s| s.to_string()).collect();
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| {
            bake_model(&g.model, 0, &g.rig, &g.chains, Some(&names), &BakeParams::default())
                .unwrap()
        })
    };
    let (a, b) = (run(1), run(3));
    for (x, y) in a.clips.iter().zip(&b.clips) {
        assert_eq!(x[0].track.rotations, y[0].track.rotations);
    }
}

#[test]
fn bad_input_names_the_field() {
    let g = demo();
    let clip = g.model.sample_clip(0, "Walk", 30.0).unwrap();
    // The file's clip lacks the grown joints: padded by extend_clip, refused raw.
    match bake_clip(&g.rig, &clip, &g.chains[0], LoopMode::Auto, &BakeParams::default()) {
        Err(CaudalError::Shape { field, .. }) => assert_eq!(field, "clip"),
        other => panic!("{other:?}"),
    }
    let clip = extend_clip(&clip, &g.rig).unwrap();
    for (p, field) in [
        (BakeParams { rate: 0.0, ..BakeParams::default() }, "rate"),
        (
            BakeParams { state_tolerance_deg: f32::NAN, ..BakeParams::default() },
            "state_tolerance_deg",
        ),
        (BakeParams { max_warmup_passes: 0, ..BakeParams::default() }, "max_warmup_passes"),
        (BakeParams { max_settle: -1.0, ..BakeParams::default() }, "max_settle"),
    ] {
        match bake_clip(&g.rig, &clip, &g.chains[0], LoopMode::Auto, &p) {
            Err(CaudalError::Parameter { field: f, .. }) => assert_eq!(f, field),
            other => panic!("{field}: {other:?}"),
        }
    }
    let other = super::fixtures::fox();
    assert!(
        matches!(bake_model(&g.model, 0, &other.rig, &other.chains, None, &BakeParams::default()), Err(CaudalError::Shape { field, .. }) if field == "rig")
    );
    let names = vec!["NoSuchClip".to_string()];
    assert!(matches!(
        bake_model(&g.model, 0, &g.rig, &g.chains, Some(&names), &BakeParams::default()),
        Err(CaudalError::NotFound { .. })
    ));
    assert!(
        matches!(caudal::bake::find_chains(g.model.rig().unwrap()), Err(CaudalError::NotFound { field, .. }) if field == "chains")
    );
}

#[test]
fn root_motion_is_carried_across_the_seam() {
    // The demo walk moved forward 1.2 m per cycle (root motion on the hips,
    // the root joint): the loop is still detected, the warm-up carries the
    // travel instead of jumping back (which would be a teleport), and the
    // keys close as well as in place.
    let g = demo();
    let clip = extend_clip(&g.model.sample_clip(0, "Walk", 30.0).unwrap(), &g.rig).unwrap();
    let n = clip.joint_count();
    let hips = g.chains[0].anchor;
    assert!(g.rig.parents()[hips].is_none());
    let frames = clip.frame_count();
    let mut locals = clip.locals().to_vec();
    for f in 0..frames {
        locals[f * n + hips].translation.z += 1.2 * f as f32 / (frames - 1) as f32;
    }
    let moving = caudal::Clip::new("Walk", clip.rate, clip.duration, n, locals).unwrap();
    let params = BakeParams::default();
    let in_place = bake_clip(&g.rig, &clip, &g.chains[0], LoopMode::Auto, &params).unwrap();
    let b = bake_clip(&g.rig, &moving, &g.chains[0], LoopMode::Auto, &params).unwrap();
    assert!(b.looping, "{:?}", b.loop_check);
    assert!(
        (b.loop_check.travel - Vec3::new(0.0, 0.0, 1.2)).length() < 1e-4,
        "{:?}",
        b.loop_check.travel
    );
    let (s, s0) = (b.seam.unwrap(), in_place.seam.unwrap());
    assert!(b.warmup.converged && s.closure_deg < 0.5, "{:?} {s:?}", b.warmup);
    assert!(s.local_ratio() < 1.5, "{s:?}");
    // Walking forward drags the tail back: not the in-place keys.
    assert_ne!(b.track.rotations, in_place.track.rotations);
    eprintln!(
        "root motion: closure {:.4}° (in place {:.4}°), seam/neighbours {:.2}",
        s.closure_deg,
        s0.closure_deg,
        s.local_ratio()
    );
}

#[test]
fn bend_capacity_is_reported_per_chain() {
    // Bones of 0.48x (the Shiba's curl: 0.33x while its joints sat on the
    // chords of segment-long bands, which cut the curl's corner and so
    // measured its skin thicker) and 0.38x (the Alpaca's stub: the root's
    // hand-over moves its thickness measure) their skin's thickness bend
    // less; the others are slender enough. The Shiba's 0.960 became 0.922
    // when the axis extension measured its root ring by the median radius:
    // the same 337 vertices, but the root ring moved and the tail's
    // geodesic length fell 1.51 -> 1.35, so its bones are shorter against
    // the same skin. It is 0.960 again since its peeled part's slanted ring
    // is also walked back across the tube (`walk_across_tube`): that walk
    // adds 2 welded root vertices (10 of the file's, true tail, which the
    // rigger's root growth took anyway: the same 337 vertices, precision
    // 0.961, recall 1), the root ring moves to them, and the length is 1.51.
    for (g, want) in
        [(demo(), 1.0), (fox(), 1.0), (wolf(), 1.0), (shiba(), 0.960), (alpaca(), 0.764)]
    {
        let clip = extend_clip(
            &g.model.sample_clip(0, &g.model.animations[0].name, 30.0).unwrap(),
            &g.rig,
        )
        .unwrap();
        let b =
            bake_clip(&g.rig, &clip, &g.chains[0], LoopMode::Auto, &BakeParams::default()).unwrap();
        assert!(
            (b.bend_capacity - want).abs() < 0.005,
            "{}: capacity {}, want {want}",
            g.model.label,
            b.bend_capacity
        );
    }
}
