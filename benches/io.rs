//! Load and skinning throughput: `cargo bench --bench io`.
//! Prints a markdown table (its figures are in docs/benchmarks.md, I/O). One thread and all
//! threads are measured side by side in the same run.

mod common;
use common::{asset, best_of};

use caudal::gltf_io;
use caudal::rig::{skin_matrices, skin_vertices_into, world_matrices, Influences, Rig, RigParts};
use glam::{Mat4, Quat, Vec3};

/// Skins every frame; returns vertex-frames.
fn skin_all(rig: &Rig, poses: &[Vec<Mat4>], out: &mut [Vec3]) -> usize {
    for worlds in poses {
        let skin = skin_matrices(rig, worlds);
        skin_vertices_into(rig.vertices(), rig.influences(), &skin, out);
    }
    poses.len() * rig.vertex_count()
}

fn generated(n: usize, joints: usize) -> (Rig, Vec<Vec<Mat4>>) {
    let side = (n as f32).sqrt().ceil() as usize;
    let vertices: Vec<Vec3> = (0..n)
        .map(|i| Vec3::new((i % side) as f32 / side as f32, (i / side) as f32 / side as f32, 0.0))
        .collect();
    let mut inf = Influences { offsets: vec![0], joints: vec![], weights: vec![] };
    for i in 0..n {
        for k in 0..4 {
            inf.joints.push(((i / 97 + k * 3) % joints) as u32);
            inf.weights.push([0.4, 0.3, 0.2, 0.1][k]);
        }
        inf.offsets.push(inf.joints.len() as u32);
    }
    let parents: Vec<Option<usize>> =
        (0..joints).map(|j| if j == 0 { None } else { Some(j - 1) }).collect();
    let bind: Vec<Mat4> =
        (0..joints).map(|j| Mat4::from_translation(Vec3::new(0.0, j as f32 * 0.02, 0.0))).collect();
    let rig = Rig::new(RigParts {
        vertices,
        triangles: vec![[0, 1, 2]],
        influences: inf,
        joint_names: (0..joints).map(|j| format!("j{j}")).collect(),
        parents,
        bind_world: Some(bind.clone()),
        ..Default::default()
    })
    .unwrap();
    let poses = (0..30)
        .map(|f| {
            bind.iter()
                .map(|b| *b * Mat4::from_quat(Quat::from_rotation_z(0.01 * f as f32)))
                .collect()
        })
        .collect();
    (rig, poses)
}

fn main() {
    println!("| measure | data | 1 thread | all threads ({}) |", rayon::current_num_threads());
    println!("|---|---|---|---|");
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();

    // The elephant is meshopt-compressed and quantized (decode included);
    // the field mouse has 363 joints and 16-bit joint indices.
    for rel in [
        "fox/Fox.glb",
        "quaternius_wolf/Wolf.gltf",
        "elephant_meshopt/elephant.glb",
        "fieldmouse_rigify/mouse.glb",
    ] {
        let bytes = std::fs::read(asset(rel)).unwrap();
        let dir = asset(rel).parent().unwrap().to_path_buf();
        let t1 =
            one.install(|| best_of(10, || gltf_io::load_bytes(&bytes, Some(&dir), rel).unwrap()));
        let tn = best_of(10, || gltf_io::load_bytes(&bytes, Some(&dir), rel).unwrap());
        println!(
            "| load (parse + rig table) | {rel} ({:.1} MB) | {:.2} ms | {:.2} ms |",
            bytes.len() as f64 / 1e6,
            t1 * 1e3,
            tn * 1e3
        );
    }

    let fox = gltf_io::load(&asset("fox/Fox.glb")).unwrap();
    let t = best_of(10, || {
        fox.animations
            .iter()
            .map(|a| fox.sample_clip(0, &a.name, 30.0).unwrap().frame_count())
            .sum::<usize>()
    });
    let frames: usize = fox
        .animations
        .iter()
        .map(|a| fox.sample_clip(0, &a.name, 30.0).unwrap().frame_count())
        .sum();
    println!("| sample all clips at 30 fps | Fox ({frames} frames) | {:.3} ms | - |", t * 1e3);

    let mut poses: Vec<Vec<Mat4>> = Vec::new();
    for a in &fox.animations {
        let c = fox.sample_clip(0, &a.name, 30.0).unwrap();
        for f in 0..c.frame_count() {
            poses.push(world_matrices(
                fox.rig().unwrap().parents(),
                fox.rig().unwrap().topological_order(),
                c.frame(f),
            ));
        }
    }
    let mut out = vec![Vec3::ZERO; fox.rig().unwrap().vertex_count()];
    let vf = skin_all(fox.rig().unwrap(), &poses, &mut out);
    let t1 = one.install(|| best_of(20, || skin_all(fox.rig().unwrap(), &poses, &mut out)));
    let tn = best_of(20, || skin_all(fox.rig().unwrap(), &poses, &mut out));
    println!("| skinning, vertex x frames per second | Fox, all clips ({vf} vertex-frames) | {:.1} M/s | {:.1} M/s |", vf as f64 / t1 / 1e6, vf as f64 / tn / 1e6);

    let (big, poses) = generated(200_000, 60);
    let mut out = vec![Vec3::ZERO; big.vertex_count()];
    let vf = skin_all(&big, &poses, &mut out);
    let t1 = one.install(|| best_of(3, || skin_all(&big, &poses, &mut out)));
    let tn = best_of(3, || skin_all(&big, &poses, &mut out));
    println!("| skinning, vertex x frames per second | generated 200k vertices, 60 joints, 4 influences, 30 frames | {:.1} M/s | {:.1} M/s |", vf as f64 / t1 / 1e6, vf as f64 / tn / 1e6);
}
