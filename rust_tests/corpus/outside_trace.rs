//! Diagnostic (outside16): cues at the two ends of a tail part's geodesic
//! diameter, against the truth's `tail_u` (look window only).

use caudal::appendage::{detect, DetectParams};
use caudal::demo::corpus;
use caudal::geometry::{geodesic_from, points_ring_radius, SkeletonField};

use super::harness::{arc_share, offset_in_radii, per_character, tail_u_by_vertex, trace_seeds};

#[test]
#[ignore = "diagnostic"]
fn corpus_outside_trace() {
    for seed in trace_seeds() {
        let case = corpus::case(seed);
        per_character(seed, &case, |seed, classes, model, truth| {
            eprintln!("seed {seed} [{classes}] {}", truth.name);
            let params = DetectParams::default();
            let Ok(d) = detect(&model.rig, &params) else { return Vec::<()>::new() };
            let Some(t) = truth.tails.first() else { return Vec::new() };
            let u = tail_u_by_vertex(model, t);
            eprintln!(
                "  tail r {:.4} len {:.3} buried {:?} sep {} fur {}",
                t.root_radius, t.length, t.buried_start, t.separate_shell, t.fur_shell
            );
            let uw = |w: u32| d.weld.members_of(w as usize).iter().find_map(|v| u.get(v).copied());
            let field = SkeletonField::new(&model.rig, params.leaf_stub_ratio);
            let pos = &d.weld.positions;
            let (sid, count) = d.graph.components(&vec![true; d.graph.vertex_count()]);
            let mut sizes = vec![0usize; count];
            for &s in &sid {
                sizes[s as usize] += 1;
            }
            let names = model.rig.joint_names();
            let roles = &d.roles;
            let trunk_d = |p: glam::Vec3| {
                field
                    .segments
                    .iter()
                    .filter(|s| roles.trunk.contains(&s.joint))
                    .map(|s| caudal::geometry::point_segment_distance(p, s.a, s.b))
                    .fold(f32::INFINITY, f32::min)
            };
            let pelvis_d =
                |p: glam::Vec3| roles.pelvis.map_or(f32::NAN, |j| field.distance_to_joint(p, j));
            for (r, g) in d.report.parts.iter().zip(&d.parts) {
                let us: Vec<f32> = g.welded.iter().filter_map(|&w| uw(w)).collect();
                if g.welded.is_empty()
                    || us.len() * 2 < g.welded.len()
                        && r.decision != caudal::appendage::Decision::Chain
                {
                    continue;
                }
                let shell = sid[g.welded[0] as usize];
                let one_shell = g.welded.iter().all(|&w| sid[w as usize] == shell);
                eprintln!(
                    "  part {} {:?} welded {} tail {} shell {} ({} of {}) one_shell {} collar {} root {:.2}@{:.2} att {:?}",
                    r.index, r.decision, g.welded.len(), us.len(), shell, sizes[shell as usize], count, one_shell,
                    g.collar.len(), offset_in_radii(g.root, t), arc_share(g.root, t), g.attachment.map(|j| names[j].clone())
                );
                // Geodesic diameter over the part.
                let w = &g.welded;
                let far_from = |src: u32| {
                    let gd = geodesic_from(&d.graph, pos, w, &[src]);
                    let i = (0..w.len())
                        .filter(|&i| gd[i].is_finite())
                        .max_by(|&a, &b| gd[a].total_cmp(&gd[b]))
                        .unwrap();
                    (i, gd)
                };
                let (a, _) = far_from(w[0]);
                let (b, ga) = far_from(w[a]);
                let (_, gb) = far_from(w[b]);
                let diam = ga[b];
                for (name, e, ge) in [("A", a, &ga), ("B", b, &gb)] {
                    let ring: Vec<glam::Vec3> = (0..w.len())
                        .filter(|&i| ge[i] >= 0.05 * diam && ge[i] <= 0.1 * diam)
                        .map(|i| pos[w[i] as usize])
                        .collect();
                    let near: Vec<u32> =
                        (0..w.len()).filter(|&i| ge[i] <= 0.1 * diam).map(|i| w[i]).collect();
                    let cen = caudal::appendage::cut_centre(&d.graph, pos, &near, &near);
                    let p = pos[w[e] as usize];
                    let (bd, bs) = field.nearest(p);
                    eprintln!(
                        "    end {name} u {:?} off {:.2}@{:.2} bone {:.4} ({}) trunk {:.4} pelvis {:.4} ring {:?} | cen trunk {:.4} pelvis {:.4} bone {:.4}",
                        uw(w[e]), offset_in_radii(p, t), arc_share(p, t), bd, names[field.segments[bs].joint], trunk_d(p), pelvis_d(p),
                        points_ring_radius(&ring), trunk_d(cen), pelvis_d(cen), field.distance(cen)
                    );
                }
                // Argmin of each cue over the part.
                let argmin = |f: &dyn Fn(glam::Vec3) -> f32| {
                    let i = (0..w.len())
                        .min_by(|&x, &y| f(pos[w[x] as usize]).total_cmp(&f(pos[w[y] as usize])))
                        .unwrap();
                    uw(w[i])
                };
                eprintln!(
                    "    argmin u: bone {:?} trunk {:?} pelvis {:?}; diameter {:.3}",
                    argmin(&|p| field.distance(p)),
                    argmin(&trunk_d),
                    argmin(&pelvis_d),
                    diam
                );
            }
            Vec::new()
        });
    }
}
