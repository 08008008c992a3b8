use caudal::gltf_io::load;
use caudal::solve::quality::skin_clip;
use caudal::solve::{solve_surface, SolveMode, SolveParams};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let model = load(std::path::Path::new(&a[1])).unwrap();
    let rig = &model.rig;
    let name = &a[2];
    let info = &model.animations[model.animation_index(name).unwrap()];
    let clip = model.sample_clip(name, 23.0 / info.duration).unwrap();
    let surf = skin_clip(rig, &clip);
    let frames: usize = a[4].parse().unwrap();
    let surf = &surf[..frames * rig.vertex_count()];
    let t = std::time::Instant::now();
    let s = solve_surface(rig, surf, name, clip.rate, &SolveParams { mode: SolveMode::RotationOnly, max_sweeps: a[3].parse().unwrap(), ..Default::default() }).unwrap();
    let r = &s.report;
    println!("{:.1} ms q {:.6} mean {:.3e}% worst {:.3e}% sweeps {:?} rms {:?}", t.elapsed().as_secs_f64()*1e3, r.quality.quality, r.quality.mean_error*100.0, r.quality.worst_error*100.0, r.sweeps, r.constraint_rms);
}
