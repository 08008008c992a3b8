//! Diagnostic (peelcut17, after joint14's `corpus_joint_trace`): each part
//! holding tail skin, with its collar, root and the extras (non-tail skin)
//! it holds, by where they sit along the part's geodesic coordinate.
//! `CAUDAL_TRACE_SEEDS=a,b` (look window only).

use caudal::appendage::{detect, DetectParams};
use caudal::demo::corpus;
use glam::Vec3;

use super::harness::{arc_share, offset_in_radii, per_character, tail_u_by_vertex, trace_seeds};

#[test]
#[ignore = "diagnostic: CAUDAL_TRACE_SEEDS=a,b --ignored --nocapture"]
fn corpus_peel_trace() {
    for seed in trace_seeds() {
        let case = corpus::case(seed);
        per_character(seed, &case, |seed, classes, model, truth| {
            eprintln!("seed {seed} [{classes}] {}", truth.name);
            let Ok(d) = detect(&model.rig, &DetectParams::default()) else {
                return Vec::<()>::new();
            };
            let Some(t) = truth.tails.first() else { return Vec::new() };
            let u = tail_u_by_vertex(model, t);
            eprintln!(
                "  tail: root {:?} tip {:?} r {:.4} len {:.3} sep {} fur {} H {:.3}",
                t.root_centre,
                t.centre_line.last(),
                t.root_radius,
                t.length,
                t.separate_shell,
                t.fur_shell,
                d.report.height
            );
            let centre = Vec3::from(t.root_centre);
            let uw = |w: u32| d.weld.members_of(w as usize).iter().find_map(|v| u.get(v).copied());
            let tail_pos: Vec<(Vec3, f32)> = (0..d.weld.count() as u32)
                .filter_map(|w| uw(w).map(|x| (d.weld.positions[w as usize], x)))
                .collect();
            let near_u = |p: Vec3| {
                tail_pos
                    .iter()
                    .min_by(|a, b| a.0.distance(p).total_cmp(&b.0.distance(p)))
                    .map(|x| (x.1, x.0.distance(p) / t.root_radius))
            };
            for (r, g) in d.report.parts.iter().zip(&d.parts) {
                let us: Vec<f32> = g.welded.iter().filter_map(|&w| uw(w)).collect();
                if us.is_empty() && r.decision != caudal::appendage::Decision::Chain {
                    continue;
                }
                let cu: Vec<f32> = g.collar.iter().filter_map(|&w| uw(w)).collect();
                let mm = |x: &[f32]| {
                    (
                        x.iter().cloned().fold(f32::INFINITY, f32::min),
                        x.iter().cloned().fold(f32::NEG_INFINITY, f32::max),
                    )
                };
                eprintln!(
                    "  part {} {:?}/{:?} origin {} cut {:?} welded {} (tail {} u {:?}) collar {} (tail {} u {:?}) root off {:.2}@{:.2} len {:.3} rootv {} contact {} sig {} reason {}",
                    r.index, r.kind, r.decision, r.origin, r.cut_level, g.welded.len(), us.len(), mm(&us),
                    g.collar.len(), cu.len(), mm(&cu), offset_in_radii(g.root, t), arc_share(g.root, t),
                    g.length, r.root_vertices, r.contact_vertices, r.rigger_signature, r.reason
                );
                // Extras by geodesic share of the part's length, with
                // their distance from the true root and nearest tail u.
                let mut bands: [usize; 6] = [0; 6];
                let mut lines = Vec::new();
                for (i, &w) in g.welded.iter().enumerate() {
                    if uw(w).is_some() {
                        continue;
                    }
                    let s = g.geodesic[i] / g.length.max(1e-6);
                    bands[((s * 5.0).floor().clamp(0.0, 5.0)) as usize] += 1;
                    let p = d.weld.positions[w as usize];
                    lines.push((
                        s,
                        (p - centre).length() / t.root_radius,
                        near_u(p),
                        d.weld.members_of(w as usize).len(),
                    ));
                }
                eprintln!("    extras by geodesic fifth (last: >=1): {bands:?}");
                lines.sort_by(|a, b| a.0.total_cmp(&b.0));
                for l in lines.iter().step_by((lines.len() / 12).max(1)) {
                    eprintln!(
                        "      geo {:.2} from root {:.2}r nearest tail u {:?} copies {}",
                        l.0, l.1, l.2, l.3
                    );
                }
                // Tail vertices at geodesic 0 / near the collar.
                let mut tg: Vec<(f32, f32)> = g
                    .welded
                    .iter()
                    .enumerate()
                    .filter_map(|(i, &w)| uw(w).map(|x| (g.geodesic[i] / g.length.max(1e-6), x)))
                    .collect();
                tg.sort_by(|a, b| a.0.total_cmp(&b.0));
                let show: Vec<String> = tg
                    .iter()
                    .step_by((tg.len() / 10).max(1))
                    .map(|(s, x)| format!("{s:.2}:{x:.2}"))
                    .collect();
                eprintln!("    tail geo:u {}", show.join(" "));
            }
            Vec::new()
        });
    }
}
