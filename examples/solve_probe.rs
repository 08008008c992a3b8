use caudal::solve::quality::skin_clip;
use caudal::solve::synthetic::{clip, creature};
use caudal::solve::{solve_surface, SolveMode, SolveParams};
fn main() {
    let rig = creature(60, 5000, 11).unwrap();
    for (stretch, mode, seed) in [(true, SolveMode::Rigid, true), (true, SolveMode::Rigid, false), (false, SolveMode::RotationOnly, true), (true, SolveMode::RotationOnly, true)] {
        let c = clip(&rig, 24, 0.6, stretch, 5).unwrap();
        let surf = skin_clip(&rig, &c);
        let t = std::time::Instant::now();
        let s = solve_surface(&rig, &surf, "w", 24.0, &SolveParams { mode, affine_seed: seed, ..Default::default() }).unwrap();
        let r = &s.report;
        println!("stretch {stretch} {mode:?} seed {seed}: {:.1} ms q {:.6} mean {:.3e} worst {:.3e} sweeps {:?} seeded {} len {:.2e} cons {}",
            t.elapsed().as_secs_f64()*1e3, r.quality.quality, r.quality.mean_error, r.quality.worst_error, r.sweeps, r.seeded_frames, r.bone_length_change, r.constraint_vertices);
    }
}
