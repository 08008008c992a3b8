//! Loop closure: every looping clip of the shared animals and of the demo.

use caudal::bake::{bake_model, extend_clip, bake_clip, BakeParams, LoopMode, MAX_WARMUP_PASSES};

use super::fixtures::{animals, demo};

/// SPEC C / issue: first and last keys within 0.5°, and the step across the
/// loop point at most 1.5x the clip's median step.
const CLOSURE_DEG: f32 = 0.5;
const SEAM_RATIO: f32 = 1.5;

#[test]
fn every_looping_clip_closes_after_warm_up() {
    let mut looping = 0;
    for g in animals() {
        let bake = bake_model(&g.model, &g.rig, &g.chains, None, &BakeParams::default()).unwrap();
        for (name, per_chain) in bake.clip_names.iter().zip(&bake.clips) {
            for b in per_chain {
                if !b.looping {
                    continue;
                }
                looping += 1;
                let s = b.seam.as_ref().expect("loops carry a seam measure");
                eprintln!(
                    "{:<28} {:<16} passes {:>2} residual {:.4}° closure {:.4}° seam {:.3}° median {:.3}° ratio {:.2}",
                    g.model.label.rsplit('/').next().unwrap(), name, b.warmup.passes, b.warmup.residual_deg, s.closure_deg, s.seam_step_deg, s.median_step_deg, s.ratio()
                );
                assert!(b.warmup.converged, "{}: {name} warm-up did not converge ({:?})", g.model.label, b.warmup);
                assert!(s.closure_deg <= CLOSURE_DEG, "{}: {name} closure {}°", g.model.label, s.closure_deg);
                assert!(s.ratio() <= SEAM_RATIO, "{}: {name} seam {:?}", g.model.label, s);
            }
        }
    }
    // Walk, Run, Survey? and the Quaternius cycles: the check must have run on real loops.
    assert!(looping >= 8, "only {looping} looping clips found");
}

#[test]
fn a_cold_start_does_not_close_and_the_tip_needs_more_than_one_pass() {
    let g = demo();
    let clip = extend_clip(&g.model.sample_clip("Walk", 30.0).unwrap(), &g.rig).unwrap();
    let cold = BakeParams { max_warmup_passes: 1, ..BakeParams::default() };
    let c = bake_clip(&g.rig, &clip, &g.chains[0], LoopMode::Auto, &cold).unwrap();
    let w = bake_clip(&g.rig, &clip, &g.chains[0], LoopMode::Auto, &BakeParams::default()).unwrap();
    let (cs, ws) = (c.seam.unwrap(), w.seam.unwrap());
    eprintln!("cold: closure {:.3}° ratio {:.2}; warm ({} passes): closure {:.4}° ratio {:.2}", cs.closure_deg, cs.ratio(), w.warmup.passes, ws.closure_deg, ws.ratio());
    assert!(!c.warmup.converged);
    assert!(w.warmup.passes > 1 && w.warmup.passes < MAX_WARMUP_PASSES);
    assert!(cs.closure_deg > 10.0 * ws.closure_deg.max(0.01), "warm-up must matter: cold {cs:?}, warm {ws:?}");
}
