//! Garments on the corpus: a cape, skirt or blanket lies on the body and is
//! never a tail or a carried part (src/appendage/decide.rs, `lies_on_body`),
//! and a tail under a blanket is not merged with it. The diagnostic prints
//! every part detection finds, with what the truth says it is and the
//! figures that tell a garment from a tail: `CAUDAL_GARMENT_SEEDS=0..200
//! cargo test --release --test rust_tests corpus_garment_figures -- --ignored
//! --nocapture`.

use std::collections::{HashMap, HashSet};

use caudal::appendage::{detect, DetectParams};
use caudal::demo::corpus;
use caudal::gltf_io;

use super::harness::{character, measure, rig_vertices};

/// Seeds 0..200 that showed each way a garment was mis-decided before the
/// rule: a blanket over the back grown a chain (37), a second chain on a
/// blanket beside the tail (87), a biped's cape made rigid on a spine joint
/// (59), a curled tail merged with the blanket over it (187: precision
/// 0.625) and a skirt merged with a tail (24: no chain).
const GARMENT_SEEDS: [u64; 5] = [37, 87, 59, 187, 24];

#[test]
fn garments_get_no_chain_and_are_not_made_rigid() {
    for seed in GARMENT_SEEDS {
        let m = measure(&corpus::case(seed));
        let wrong: Vec<&String> = m
            .details
            .iter()
            .filter(|d| {
                d.starts_with("rigid_garment")
                    || d.starts_with("no_chain")
                    || (d.starts_with("false_chain")
                        && ["cape", "skirt", "blanket"].iter().any(|g| d.contains(g)))
            })
            .collect();
        assert!(wrong.is_empty(), "seed {seed}: {wrong:?}");
    }
}

fn seeds() -> std::ops::Range<u64> {
    let s = std::env::var("CAUDAL_GARMENT_SEEDS").unwrap_or_else(|_| "0..200".into());
    let (a, b) = s.split_once("..").expect("a..b");
    a.parse().unwrap()..b.parse().unwrap()
}

#[test]
#[ignore = "diagnostic (prints each part's garment figures): --ignored --nocapture"]
fn corpus_garment_figures() {
    use rayon::prelude::*;
    let lines: Vec<String> = seeds()
        .into_par_iter()
        .flat_map(|seed| {
            let case = corpus::case(seed);
            let model = gltf_io::load_bytes(&case.glb, None, "corpus").unwrap();
            let mut out = Vec::new();
            for truth in &case.truth.characters {
                let ch = character(&model, truth);
                let rig = &ch.rig;
                let det = detect(rig, &DetectParams::default()).unwrap();
                let mut label: HashMap<u32, String> = HashMap::new();
                for (i, t) in truth.tails.iter().enumerate() {
                    for v in rig_vertices(ch, &t.vertices) {
                        label.insert(v, format!("tail{i}"));
                    }
                }
                for o in &truth.others {
                    for v in rig_vertices(ch, &o.vertices) {
                        label.insert(v, o.kind.to_string());
                    }
                }
                // Mesh boundary: welded edges used by one triangle.
                let tris = det.weld.triangles(rig.triangles());
                let mut edges: HashMap<(u32, u32), u32> = HashMap::new();
                for t in &tris {
                    for k in 0..3 {
                        let (a, b) = (t[k], t[(k + 1) % 3]);
                        *edges.entry((a.min(b), a.max(b))).or_default() += 1;
                    }
                }
                let mut boundary = HashSet::new();
                for (&(a, b), &n) in &edges {
                    if n == 1 {
                        boundary.insert(a);
                        boundary.insert(b);
                    }
                }
                for (p, g) in det.report.parts.iter().zip(&det.parts) {
                    if p.welded_vertex_count < 6 {
                        continue;
                    }
                    let mut count: HashMap<&str, usize> = HashMap::new();
                    for v in &p.vertices {
                        *count.entry(label.get(v).map_or("body", |s| s.as_str())).or_default() +=
                            1;
                    }
                    let what = count.iter().max_by_key(|x| x.1).map(|x| *x.0).unwrap_or("-");
                    let nb = g.welded.iter().filter(|v| boundary.contains(v)).count();
                    let len = g.length.max(1e-9);
                    let bands: usize = (0..8)
                        .filter(|&b| {
                            let (lo, hi) = (b as f32 * len / 8.0, (b + 1) as f32 * len / 8.0);
                            g.welded.iter().zip(&g.geodesic).any(|(v, &x)| {
                                x >= lo && x < hi.max(lo + 1e-9) && boundary.contains(v)
                            })
                        })
                        .count();
                    let h = rig.height();
                    let width = if p.tests.tube_ratio > 0.0 { len / p.tests.tube_ratio } else { 0.0 };
                    out.push(format!(
                        "seed {seed:>4} part {:>2} {:<10} {:<9} {:<9} {:<8} {:<9} len {:.3} reach {:.3} cr {:.2} el {:.2} tube {:.2} standoff {:.2} bshare {:.2} bbands {} n {} | {}",
                        p.index,
                        what,
                        format!("{:?}", p.kind),
                        format!("{:?}", p.decision),
                        p.origin,
                        format!("{:?}", p.region),
                        p.length_ratio,
                        p.reach / h,
                        p.tests.centroid_ratio,
                        p.tests.elongation,
                        p.tests.tube_ratio,
                        if width > 0.0 { p.reach / width } else { 0.0 },
                        nb as f32 / g.welded.len() as f32,
                        bands,
                        g.welded.len(),
                        p.reason,
                    ));
                }
            }
            out
        })
        .collect();
    for l in lines {
        eprintln!("{l}");
    }
}
