use caudal::gltf_io::load;
use caudal::solve::constraints::{subsample, Constraints};
use caudal::solve::rigid::{compose, solve_frame, AffineSeed, FrameSettings};
use caudal::solve::{skin_clip, solve_surface, SolveParams};
use std::time::Instant;
fn main() {
    let model = load(std::path::Path::new("../shared/assets/quaternius_wolf/Wolf.gltf")).unwrap();
    let rig = &model.rig;
    let d = model.animations[model.animation_index("Walk").unwrap()].duration;
    let clip = model.sample_clip("Walk", 23.0 / d).unwrap();
    let surf = skin_clip(rig, &clip);
    let n = rig.vertex_count();
    let reps = 20;
    let t = Instant::now();
    for _ in 0..reps { let _ = solve_surface(rig, &surf, "w", clip.rate, &SolveParams::default()).unwrap(); }
    println!("solve_surface {:.2} ms", t.elapsed().as_secs_f64() * 1e3 / reps as f64);
    let t = Instant::now();
    for _ in 0..reps { let _ = Constraints::new(rig, subsample(rig, 5000)); }
    println!("constraints {:.2} ms", t.elapsed().as_secs_f64() * 1e3 / reps as f64);
    let cons = Constraints::new(rig, subsample(rig, 5000));
    let t = Instant::now();
    for _ in 0..reps { let _ = AffineSeed::new(&cons, 1e-7, rig.topological_order()); }
    println!("seed factor {:.2} ms", t.elapsed().as_secs_f64() * 1e3 / reps as f64);
    let seed = AffineSeed::new(&cons, 1e-7, rig.topological_order());
    let diag = rig.diagonal() as f64;
    let set = FrameSettings { max_sweeps: 200, progress: 1e-9 * diag, floor: 1e-7 * diag, proximal: 1e-9 };
    let order: Vec<usize> = rig.topological_order().iter().copied().filter(|&j| cons.active[j]).collect();
    let b = rig.joint_count();
    let t = Instant::now();
    let mut y = vec![nalgebra::Matrix3x4::zeros(); b];
    let (mut tm, mut ts, mut te) = (0.0, 0.0, 0.0);
    for _ in 0..reps {
        let mut m = vec![compose(&nalgebra::Matrix3::identity(), &nalgebra::Vector3::zeros()); b];
        for f in 0..24 {
            let a = Instant::now();
            let targets = cons.targets(&surf[f * n..(f + 1) * n]);
            cons.target_moments(&targets, &mut y);
            tm += a.elapsed().as_secs_f64();
            let a = Instant::now();
            let _ = cons.energy(&m, &targets);
            te += a.elapsed().as_secs_f64();
            let a = Instant::now();
            solve_frame(&cons, seed.as_ref(), &order, &targets, &y, &mut m, &set);
            ts += a.elapsed().as_secs_f64();
        }
    }
    println!("frames total {:.2} ms: moments {:.2} solve_frame {:.2} one energy/frame {:.2}", t.elapsed().as_secs_f64() * 1e3 / reps as f64, tm * 1e3 / reps as f64, ts * 1e3 / reps as f64, te * 1e3 / reps as f64);
    let targets = cons.targets(&surf[5 * n..6 * n]);
    cons.target_moments(&targets, &mut y);
    let m = vec![compose(&nalgebra::Matrix3::identity(), &nalgebra::Vector3::zeros()); b];
    let s = seed.as_ref().unwrap();
    println!("factor blocks {} of {}", s.factor_blocks(), order.len() * order.len());
    let t = Instant::now();
    for _ in 0..reps * 24 { let _ = s.seed(&cons, &y, &m); }
    println!("seed per frame {:.1} us", t.elapsed().as_secs_f64() * 1e6 / (reps * 24) as f64);
    let mut mm = s.seed(&cons, &y, &m);
    let t = Instant::now();
    for _ in 0..reps * 24 { let _ = caudal::solve::rigid::sweep(&cons, &y, &mut mm, &order, 1e-9); }
    println!("sweep {:.1} us", t.elapsed().as_secs_f64() * 1e6 / (reps * 24) as f64);
    let t = Instant::now();
    for _ in 0..reps * 24 { let _ = cons.moment_energy(&mm, &y, 1.0); }
    println!("moment energy {:.1} us", t.elapsed().as_secs_f64() * 1e6 / (reps * 24) as f64);
    let h = nalgebra::Matrix3::new(0.9, 0.1, 0.05, -0.1, 0.95, 0.02, 0.03, -0.02, 1.0);
    let t = Instant::now();
    let mut acc = 0.0;
    for k in 0..100000 { acc += caudal::solve::horn::fit_rotation(&(h * (1.0 + k as f64 * 1e-9))).w; }
    println!("horn {:.3} us ({acc})", t.elapsed().as_secs_f64() * 1e6 / 100000.0);
    let t = Instant::now();
    for _ in 0..reps { let _ = skin_clip(rig, &clip); }
    println!("skin_clip {:.2} ms", t.elapsed().as_secs_f64() * 1e3 / reps as f64);
}
