//! Artist clip onto the degraded (`*_notail`) rigs, overall and on the tail:
//! `cargo run --release --example solve_notail`.
use caudal::gltf_io::load;
use caudal::solve::{
    carried_surfaces, quality_over, skin_clip, transfer_clip, SolveMode, SolveParams,
};
fn main() {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/assets"));
    for (file, notail, truth) in [
        ("fox/Fox.glb", "fox/Fox_notail.glb", "fox/Fox_notail.truth.json"),
        (
            "quaternius_wolf/Wolf.gltf",
            "quaternius_wolf/Wolf_notail.glb",
            "quaternius_wolf/Wolf_notail.truth.json",
        ),
    ] {
        let src = load(&root.join(file)).unwrap();
        let dst = load(&root.join(notail)).unwrap();
        let t: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(root.join(truth)).unwrap()).unwrap();
        let tail: Vec<usize> = t["tail_vertices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as usize)
            .collect();
        let name = "Walk";
        let info = &src.animations[src.animation_index(name).unwrap()];
        let clip = src.sample_clip(0, name, 23.0 / info.duration).unwrap();
        for mode in [SolveMode::Rigid, SolveMode::RotationOnly] {
            let tm = std::time::Instant::now();
            let tr = transfer_clip(
                src.rig().unwrap(),
                &clip,
                dst.rig().unwrap(),
                &SolveParams { mode, ..Default::default() },
            )
            .unwrap();
            let r = &tr.solved.report;
            let skinned = skin_clip(dst.rig().unwrap(), &tr.solved.clip);
            let targets = carried_surfaces(src.rig().unwrap(), &clip, &tr.correspondence).unwrap();
            let body: Vec<usize> =
                (0..dst.rig().unwrap().vertex_count()).filter(|v| !tail.contains(v)).collect();
            println!("{file} -> notail {mode:?}: {:.0} ms q {:.4} tail {:.4} body {:.4} mean {:.4}% worst {:.3}% gap {:.2e}",
                tm.elapsed().as_secs_f64()*1e3, r.quality().quality, quality_over(dst.rig().unwrap(), &skinned, &targets, &tail), quality_over(dst.rig().unwrap(), &skinned, &targets, &body), r.quality().mean_error*100.0, r.quality().worst_error*100.0, tr.correspondence.gap_summary().1);
        }
    }
}
