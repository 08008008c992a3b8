use caudal::gltf_io::load;
use caudal::solve::{skin_clip, solve_surface, SolveParams};
fn main() {
    for (file, name) in [("quaternius_wolf/Wolf.gltf", "Walk"), ("quaternius_wolf/Wolf.gltf", "Gallop"), ("fox/Fox.glb", "Run")] {
        let model = load(&std::path::Path::new("../shared/assets").join(file)).unwrap();
        let d = model.animations[model.animation_index(name).unwrap()].duration;
        let clip = model.sample_clip(name, 23.0 / d).unwrap();
        let surf = skin_clip(&model.rig, &clip);
        for seed in [true, false] {
            let t = std::time::Instant::now();
            let s = solve_surface(&model.rig, &surf, name, clip.rate, &SolveParams { affine_seed: seed, max_sweeps: 5000, ..Default::default() }).unwrap();
            let r = &s.report;
            println!("{file} {name} seed {seed}: {:.1} ms mean {:.2e}% worst {:.2e}% sweeps {:?}", t.elapsed().as_secs_f64() * 1e3, r.quality.mean_error * 100.0, r.quality.worst_error * 100.0, r.sweeps);
        }
    }
}
