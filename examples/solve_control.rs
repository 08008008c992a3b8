//! Control runs (SPEC X4) on every shared animal, rigid and rotation-only:
//! `cargo run --release --example solve_control` prints the control rows of
//! docs/solve.md's tables (Measured).
use caudal::gltf_io::load;
use caudal::solve::quality::skin_clip;
use caudal::solve::{solve_surface, SolveMode, SolveParams};
fn main() {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/assets"));
    let cases = [
        ("fox/Fox.glb", &["Walk", "Run", "Survey"][..]),
        ("quaternius_wolf/Wolf.gltf", &["Walk", "Gallop"]),
        ("quaternius_shiba_inu/ShibaInu.gltf", &["Walk", "Gallop"]),
        ("quaternius_alpaca/Alpaca.gltf", &["Walk", "Gallop"]),
    ];
    for (file, clips) in cases {
        let model = load(&root.join(file)).unwrap();
        let rig = model.rig().unwrap();
        for name in clips {
            let info = &model.animations[model.animation_index(name).unwrap()];
            let clip = model.sample_clip(0, name, 23.0 / info.duration).unwrap();
            let surf = skin_clip(rig, &clip);
            for mode in [SolveMode::Rigid, SolveMode::RotationOnly] {
                let t = std::time::Instant::now();
                let s = solve_surface(
                    rig,
                    &surf,
                    name,
                    clip.rate,
                    &SolveParams { mode, ..Default::default() },
                )
                .unwrap();
                let r = &s.report;
                println!("{file} {name} {mode:?} F{} N{} B{}: {:.1} ms q {:.6} mean {:.3e}% worst {:.3e}% sweeps {:?} seeded {} len {:.2e}",
                    clip.frame_count(), rig.vertex_count(), rig.joint_count(),
                    t.elapsed().as_secs_f64()*1e3, r.quality().quality, r.quality().mean_error*100.0, r.quality().worst_error*100.0, r.sweeps, r.seeded_frames, r.bone_length_change);
            }
        }
    }
}
