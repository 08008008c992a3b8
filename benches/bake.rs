//! Bake throughput: `cargo bench --bench bake`. Every clip of the Wolf
//! (degraded fixture, chain grown by caudal) baked on one thread, with
//! warm-up; target < 50 ms for all 12 clips. Prints a markdown table.

mod common;
use common::{asset, best_of};

use caudal::bake::{bake_clip, bake_model, extend_clip, find_chains, BakeParams};
use caudal::chain::{grow_chains, ChainParams};
use caudal::gltf_io;

fn main() {
    let model = gltf_io::load(&asset("quaternius_wolf/Wolf_notail.glb")).expect("Wolf_notail");
    let (rig, _) = grow_chains(model.rig().unwrap(), &ChainParams::default()).expect("grow");
    let chains = find_chains(&rig).expect("chain");
    let params = BakeParams::default();
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    println!(
        "Wolf_notail, chain of {} bones, {} fps keys, one thread (best of 5)\n",
        chains[0].bones.len(),
        params.rate
    );
    println!("| clip | duration s | loop | warm-up passes | simulated s | bake ms |");
    println!("|---|---|---|---|---|---|");
    let mut simulated = 0.0f32;
    for a in &model.animations {
        let clip = extend_clip(&model.sample_clip(0, &a.name, params.rate).unwrap(), &rig).unwrap();
        let b = bake_clip(&rig, &clip, &chains[0], params.loop_mode(&a.name), &params).unwrap();
        let t = one.install(|| {
            best_of(5, || {
                bake_clip(&rig, &clip, &chains[0], params.loop_mode(&a.name), &params).unwrap()
            })
        });
        let sim = b.warmup.seconds + a.duration;
        simulated += sim;
        println!(
            "| {} | {:.3} | {} | {} | {:.1} | {:.2} |",
            a.name,
            a.duration,
            if b.looping { "yes" } else { "no" },
            b.warmup.passes,
            sim,
            1e3 * t
        );
    }
    let sampling = one.install(|| {
        best_of(5, || {
            model
                .animations
                .iter()
                .map(|a| {
                    extend_clip(&model.sample_clip(0, &a.name, params.rate).unwrap(), &rig).unwrap()
                })
                .collect::<Vec<_>>()
        })
    });
    let all_one =
        one.install(|| best_of(5, || bake_model(&model, 0, &rig, &chains, None, &params).unwrap()));
    let all_pool = best_of(5, || bake_model(&model, 0, &rig, &chains, None, &params).unwrap());
    println!(
        "| **all {} clips** (sampling included), 1 thread | | | | {:.1} | **{:.1}** |",
        model.animations.len(),
        simulated,
        1e3 * all_one
    );
    println!(
        "| all clips, {} threads | | | | | {:.1} |",
        rayon::current_num_threads(),
        1e3 * all_pool
    );
    println!(
        "| of which sampling the 12 glTF clips at 30 fps (gltf_io), 1 thread | | | | | {:.1} |",
        1e3 * sampling
    );
    println!("\ntarget: all 12 clips < 50 ms on one core");
}
