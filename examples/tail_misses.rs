//! Which truth tail vertices detection misses or adds on a degraded fixture:
//! `cargo run --release --example tail_misses NOTAIL.glb TRUTH.json`.
//! Per welded vertex near the boundary of the detected tail: hops from the
//! boundary (negative inside), seam copies, truth tail_u and tail_share,
//! skeleton distance / H, the weighted bone distance of its (degraded) skin
//! weights, its share on the tail's bones and on the attachment, distance
//! from the root over the collar radius, distance to the grown chain over
//! the skeleton distance, position and weights.
use std::collections::{HashMap, HashSet, VecDeque};

use caudal::appendage::{detect, Decision, DetectParams};
use caudal::geometry::SkeletonField;
use caudal::measure::weighted_bone_distances;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let m = caudal::gltf_io::load(std::path::Path::new(&args[1])).unwrap();
    let rig = m.rig().unwrap();
    let j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&args[2]).unwrap()).unwrap();
    let mut map = vec![u32::MAX; j["n_vertices"].as_u64().unwrap() as usize];
    for p in j["primitives"].as_array().unwrap() {
        let (mesh, prim) =
            (p["mesh"].as_u64().unwrap() as usize, p["primitive"].as_u64().unwrap() as usize);
        let ours = m
            .single()
            .unwrap()
            .primitives
            .iter()
            .find(|q| q.mesh == mesh && q.primitive == prim)
            .unwrap();
        let off = p["vertex_offset"].as_u64().unwrap() as usize;
        for i in 0..ours.vertex_count {
            map[off + i] = (ours.vertex_offset + i) as u32;
        }
    }
    let n = rig.vertex_count();
    let mut share = vec![0f32; n];
    let mut tail_u = vec![-1f32; n];
    for (t, s) in j["tail_share"].as_array().unwrap().iter().enumerate() {
        share[map[t] as usize] = s.as_f64().unwrap() as f32;
    }
    for (t, s) in j["tail_u"].as_array().unwrap().iter().enumerate() {
        tail_u[map[t] as usize] = s.as_f64().unwrap() as f32;
    }
    let truth: HashSet<u32> = j["tail_vertices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| map[v.as_u64().unwrap() as usize])
        .collect();

    let det = detect(rig, &DetectParams::default()).unwrap();
    let (pi, part) =
        det.report.parts.iter().enumerate().find(|(_, p)| p.decision == Decision::Chain).unwrap();
    let geo = &det.parts[pi];
    let weld = &det.weld;
    let graph = &det.graph;
    let h = det.report.height;
    let field = SkeletonField::new(rig, caudal::geometry::LEAF_STUB_RATIO);
    let wbd = weighted_bone_distances(rig, None).unwrap();
    let names = rig.joint_names();
    let (grown, _) =
        caudal::chain::grow_chains(rig, &caudal::chain::ChainParams::default()).unwrap();
    let heads = grown.bind_heads();
    let chain: Vec<glam::Vec3> = grown
        .joint_names()
        .iter()
        .enumerate()
        .filter(|(_, n)| n.starts_with("Tail_"))
        .map(|(k, _)| heads[k])
        .collect();
    let dchain = |p: glam::Vec3| {
        chain
            .windows(2)
            .map(|w| caudal::geometry::point_segment_distance(p, w[0], w[1]))
            .fold(f32::INFINITY, f32::min)
    };
    let in_part: HashSet<u32> = geo.welded.iter().copied().collect();
    // Truth per welded vertex: any member in truth.
    let wtruth = |w: u32| weld.members_of(w as usize).iter().any(|v| truth.contains(v));
    // Hops from the part's boundary: outside positive, inside negative (0 = part vertex next to the outside).
    let mut hops: HashMap<u32, i32> = HashMap::new();
    let mut q = VecDeque::new();
    for &v in &geo.welded {
        if graph.neighbors_of(v as usize).iter().any(|w| !in_part.contains(w)) {
            hops.insert(v, 0);
            q.push_back(v);
        }
    }
    while let Some(v) = q.pop_front() {
        let hv = hops[&v];
        for &w in graph.neighbors_of(v as usize) {
            if hops.contains_key(&w) {
                continue;
            }
            let inside = in_part.contains(&w);
            let inside_v = in_part.contains(&v);
            if inside != inside_v && hv != 0 {
                continue;
            }
            let hw = if inside { hv.min(0) - 1 } else { hv.max(0) + 1 };
            if hw.abs() > 4 {
                continue;
            }
            hops.insert(w, hw);
            q.push_back(w);
        }
    }
    // The rigger's tail bones: joints holding >= 5% of the part's weight.
    let mut tot = vec![0f64; rig.joint_count()];
    for &v in &part.vertices {
        let (js, ws) = rig.influences().of(v as usize);
        for (&jj, &x) in js.iter().zip(ws) {
            tot[jj as usize] += x as f64;
        }
    }
    let sum: f64 = tot.iter().sum();
    let att = geo.attachment.unwrap();
    let sset: Vec<usize> = (0..tot.len()).filter(|&k| tot[k] >= 0.05 * sum && k != att).collect();
    println!("S = {:?}", sset.iter().map(|&k| (&names[k], tot[k] / sum)).collect::<Vec<_>>());
    let cc = geo.collar.iter().map(|&v| weld.positions[v as usize]).sum::<glam::Vec3>()
        / geo.collar.len() as f32;
    let crad =
        geo.collar.iter().map(|&v| weld.positions[v as usize].distance(cc)).fold(0f32, f32::max);
    println!(
        "part: {} welded, collar {}; root {:?}; H {h:.3}",
        geo.welded.len(),
        geo.collar.len(),
        geo.root
    );
    let mut rows: Vec<(i32, u32)> = hops.iter().map(|(&w, &hh)| (hh, w)).collect();
    rows.sort();
    let (mut miss, mut extra) = (0, 0);
    println!("hops  w     class  tail_u share  skel/H  wbd/H  wbd/skel  S  att  d/r pos | weights");
    for (hh, w) in rows {
        let t = wtruth(w);
        let ip = in_part.contains(&w);
        let class = match (t, ip) {
            (true, true) => "hit",
            (true, false) => {
                miss += weld.members_of(w as usize).len();
                "MISS"
            }
            (false, true) => {
                extra += weld.members_of(w as usize).len();
                "EXTRA"
            }
            (false, false) => "body",
        };
        if class == "body" && hh > 3 {
            continue;
        }
        if class == "hit" && hh < -2 {
            continue;
        }
        let v = weld.members_of(w as usize)[0] as usize;
        let p = weld.positions[w as usize];
        let sd = field.distance(p);
        let (js, ws) = rig.influences().of(v);
        let wt: Vec<String> = js
            .iter()
            .zip(ws)
            .filter(|(_, &x)| x > 0.01)
            .map(|(&jj, &x)| format!("{}:{:.2}", names[jj as usize], x))
            .collect();
        let mx =
            weld.members_of(w as usize).iter().map(|&u| share[u as usize]).fold(0f32, f32::max);
        let tu =
            weld.members_of(w as usize).iter().map(|&u| tail_u[u as usize]).fold(-1f32, f32::max);
        let ss: f32 = js
            .iter()
            .zip(ws)
            .filter(|(&jj, _)| sset.contains(&(jj as usize)))
            .map(|(_, &x)| x)
            .sum();
        let aw: f32 =
            js.iter().zip(ws).filter(|(&jj, _)| jj as usize == att).map(|(_, &x)| x).sum();
        println!(
            "{hh:>3} {w:>5}x{} {class:>6} {tu:>6.3} {mx:>5.2} {:>7.3} {:>6.3} {:>6.2} {ss:.2} {aw:.2} {:.2} dt/ds {:.2} ({:.3},{:.3},{:.3}) | {}",
            weld.members_of(w as usize).len(), sd / h, wbd[v] / h, wbd[v] / sd.max(1e-9), p.distance(geo.root) / crad, dchain(p) / sd, p.x, p.y, p.z, wt.join(" ")
        );
    }
    println!(
        "part vertices {}, missed {miss}, extra {extra}, truth {}",
        part.vertex_count,
        truth.len()
    );
}
