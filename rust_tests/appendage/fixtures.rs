//! The degraded fixtures (tail joints removed, tail weights on the hind
//! legs) against their truth, and the models that need no chain.

use std::collections::HashSet;

use caudal::appendage::{find_appendages, DetectParams, PartReport};
use caudal::chain::{grow_chains, ChainParams};
use caudal::gltf_io::GltfModel;
use caudal::measure::weighted_bone_distance;
use caudal::Rig;
use glam::Vec3;

use super::checks::{chains, check_chain, check_pose, check_rest_unchanged};
use crate::common::{asset, load};

pub struct Truth {
    /// Tail vertices as rig vertex indices.
    pub tail: Vec<u32>,
    /// Along-tail coordinate per rig vertex (-1 off the tail).
    pub tail_u: Vec<f32>,
    pub pelvis: String,
}

/// Reads `<name>_notail.truth.json`, mapping its global vertex indices
/// (primitive vertex_offset + index) onto the loaded rig's.
pub fn truth(model: &GltfModel, rel: &str) -> Truth {
    let text = std::fs::read_to_string(asset(rel)).unwrap();
    let j: serde_json::Value = serde_json::from_str(&text).unwrap();
    let n = model.rig().unwrap().vertex_count();
    // truth global index -> rig index, primitive by primitive.
    let mut map = vec![u32::MAX; j["n_vertices"].as_u64().unwrap() as usize];
    for p in j["primitives"].as_array().unwrap() {
        let (mesh, prim) =
            (p["mesh"].as_u64().unwrap() as usize, p["primitive"].as_u64().unwrap() as usize);
        let ours = model
            .single()
            .unwrap()
            .primitives
            .iter()
            .find(|q| q.mesh == mesh && q.primitive == prim)
            .expect("primitive in rig");
        let (off, count) = (
            p["vertex_offset"].as_u64().unwrap() as usize,
            p["vertex_count"].as_u64().unwrap() as usize,
        );
        assert_eq!(ours.vertex_count, count);
        for i in 0..count {
            map[off + i] = (ours.vertex_offset + i) as u32;
        }
    }
    let tail: Vec<u32> = j["tail_vertices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| map[v.as_u64().unwrap() as usize])
        .collect();
    let mut tail_u = vec![-1.0; n];
    for (t, u) in j["tail_u"].as_array().unwrap().iter().enumerate() {
        tail_u[map[t] as usize] = u.as_f64().unwrap() as f32;
    }
    let pelvis = j["skins"][0]["tail_root_parent"].as_str().unwrap().to_string();
    Truth { tail, tail_u, pelvis }
}

/// The true centre line of the tail: centroids (and mean `tail_u`) of bands
/// of `tail_u`.
pub fn centre_line(
    points: &[Vec3],
    tail: &[u32],
    tail_u: &[f32],
    bands: usize,
) -> Vec<(Vec3, f32)> {
    let mut out = Vec::new();
    for b in 0..bands {
        let lo = b as f32 / bands as f32;
        let hi = if b + 1 == bands { f32::INFINITY } else { (b + 1) as f32 / bands as f32 };
        let band: Vec<u32> = tail
            .iter()
            .copied()
            .filter(|&v| tail_u[v as usize] >= lo && tail_u[v as usize] < hi)
            .collect();
        if band.is_empty() {
            continue;
        }
        let c = band.iter().map(|&v| points[v as usize]).sum::<Vec3>() / band.len() as f32;
        let u = band.iter().map(|&v| tail_u[v as usize]).sum::<f32>() / band.len() as f32;
        out.push((c, u));
    }
    out
}

/// Nearest point of the centre line: distance and the `tail_u` there.
fn nearest_on_line(p: Vec3, line: &[(Vec3, f32)]) -> (f32, f32) {
    let mut best = (f32::INFINITY, 0.0);
    for w in line.windows(2) {
        let (a, b) = (w[0].0, w[1].0);
        let ab = b - a;
        let t = if ab.length_squared() > 0.0 {
            ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let d = p.distance(a + t * ab);
        if d < best.0 {
            best = (d, w[0].1 + t * (w[1].1 - w[0].1));
        }
    }
    best
}

/// Distance of `p` from the true centre line and the local tail radius
/// there: the largest distance from the centre line of the tail skin within
/// 0.1 of `p`'s position along the tail.
pub fn off_centre(
    p: Vec3,
    line: &[(Vec3, f32)],
    points: &[Vec3],
    tail: &[u32],
    tail_u: &[f32],
) -> (f32, f32) {
    let (d, u) = nearest_on_line(p, line);
    let r = tail
        .iter()
        .filter(|&&v| (tail_u[v as usize] - u).abs() <= 0.1)
        .map(|&v| nearest_on_line(points[v as usize], line).0)
        .fold(0.0f32, f32::max);
    (d, r)
}

/// Per fixture: glb, truth, and the floors asserted (precision, recall,
/// worst joint offset in local tail radii): the bar, 0.95 / 0.90 /
/// 1.0, on every fixture. Geometry alone left the Wolf at recall 0.81 (its
/// artist weights carry the tail one to two rings past the neck where the
/// tube flares into the rump, the Fox's stop at it) and the Alpaca at
/// precision 0.91 (following its thick tail a full root radius back takes
/// three welded vertices of rump skin); the rigger's weights round the
/// root settle both (src/appendage/rigger_root.rs).
const DEGRADED: &[(&str, &str, f32, f32, f32)] = &[
    ("fox/Fox_notail.glb", "fox/Fox_notail.truth.json", 0.95, 0.90, 1.0),
    ("quaternius_wolf/Wolf_notail.glb", "quaternius_wolf/Wolf_notail.truth.json", 0.95, 0.90, 1.0),
    (
        "quaternius_shiba_inu/ShibaInu_notail.glb",
        "quaternius_shiba_inu/ShibaInu_notail.truth.json",
        0.95,
        0.90,
        1.0,
    ),
    (
        "quaternius_alpaca/Alpaca_notail.glb",
        "quaternius_alpaca/Alpaca_notail.truth.json",
        0.95,
        0.90,
        1.0,
    ),
];

#[test]
fn degraded_fixtures_get_one_chain_on_the_pelvis() {
    let mut failures = Vec::new();
    for &(glb, json, min_precision, min_recall, max_offset) in DEGRADED {
        let model = load(glb);
        let rig = model.rig().unwrap();
        let truth = truth(&model, json);
        let (out, report) = grow_chains(rig, &ChainParams::default()).unwrap();
        let found = chains(&report);
        eprintln!("{glb}: H {:.3}, parts:", report.height);
        for p in &report.parts {
            eprintln!(
                "  #{} {:?}/{:?} {} at {:?} n={} welded={} root+{} shells={} L={:.3} reach={:.3} ratio={:.2} elong={:.2} tube={:.2} collar_r={:.3} K={} d {:.3}->{:?} | {}",
                p.index, p.kind, p.decision, p.origin, p.attachment, p.vertex_count, p.welded_vertex_count, p.root_vertices, p.shells, p.length, p.reach,
                p.tests.centroid_ratio, p.tests.elongation, p.tests.tube_ratio, p.collar_radius, p.bone_count, p.bone_distance_before, p.bone_distance_after, p.reason
            );
        }
        assert_eq!(found.len(), 1, "{glb}: exactly one chain");
        let part = found[0];
        assert_eq!(
            part.attachment.as_deref(),
            Some(truth.pelvis.as_str()),
            "{glb}: attached to the pelvis"
        );
        let truth_set: HashSet<u32> = truth.tail.iter().copied().collect();
        let hit = part.vertices.iter().filter(|v| truth_set.contains(v)).count() as f32;
        let (precision, recall) = (hit / part.vertices.len() as f32, hit / truth.tail.len() as f32);
        let line = centre_line(rig.vertices(), &truth.tail, &truth.tail_u, 10);
        let mut worst: f32 = 0.0;
        for name in part
            .bones
            .iter()
            .cloned()
            .chain([format!("{}_End", part.bones[0].trim_end_matches("_1"))])
        {
            let head = out.bind_heads()[out.joint_index(&name).unwrap()];
            let (d, r) = off_centre(head, &line, rig.vertices(), &truth.tail, &truth.tail_u);
            eprintln!("    {name}: {d:.3} off the centre line, local radius {r:.3}");
            worst = worst.max(d / r);
        }
        let (d0, d1) = (
            weighted_bone_distance(rig, &truth.tail).unwrap(),
            weighted_bone_distance(&out, &truth.tail).unwrap(),
        );
        eprintln!(
            "  => precision {precision:.3} recall {recall:.3} K {} worst joint offset {:.2} of local radius, bone distance {d0:.3} -> {d1:.3} ({:.0}% less)",
            part.bone_count,
            worst,
            100.0 * (1.0 - d1 / d0)
        );
        // Every fixture is measured before any assert fails, so one run
        // shows the whole table.
        if !(precision >= min_precision && recall >= min_recall) {
            failures.push(format!("{glb}: precision {precision}, recall {recall}"));
        }
        if !(3..=8).contains(&part.bone_count) {
            failures.push(format!("{glb}: K = {}", part.bone_count));
        }
        if worst > max_offset {
            failures.push(format!(
                "{glb}: a grown joint lies outside the tail ({worst:.2} local radii off)"
            ));
        }
        if d1 > 0.5 * d0 {
            failures.push(format!("{glb}: bone distance {d0} -> {d1}"));
        }
        check_chain(rig, &out, part, &truth.pelvis);
        check_rest_unchanged(rig, &out, &part.vertices);
        check_pose(&out, &truth.pelvis, part);
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn no_chain_where_none_is_needed() {
    for glb in [
        "cesium_man/CesiumMan.glb",
        "robot_expressive/RobotExpressive.glb",
        "fox/Fox.glb",
        "quaternius_wolf/Wolf.gltf",
        "quaternius_shiba_inu/ShibaInu.gltf",
        "quaternius_alpaca/Alpaca.gltf",
        "quaternius_monkroose/Monkroose.glb",
    ] {
        let model = load(glb);
        let report = find_appendages(model.rig().unwrap(), &DetectParams::default()).unwrap();
        eprintln!("{glb}: H {:.3}, pelvis {:?}", report.height, report.pelvis);
        for p in &report.parts {
            eprintln!(
                "  #{} {:?}/{:?} at {:?} n={} welded={} shells={} L={:.3} reach={:.3} ratio={:.2} elong={:.2} tube={:.2} collar_r={:.3} c={:?} | {}",
                p.index, p.kind, p.decision, p.attachment, p.vertex_count, p.welded_vertex_count, p.shells, p.length, p.reach,
                p.tests.centroid_ratio, p.tests.elongation, p.tests.tube_ratio, p.collar_radius, p.centroid, p.reason
            );
        }
        assert_eq!(chains(&report).len(), 0, "{glb}");
        assert!(
            report.parts.iter().all(|p| p.decision == caudal::appendage::Decision::Untouched),
            "{glb}: nothing to fix"
        );
        if glb.contains("Monkroose") {
            // The stub tail: the backmost vertex at hip height. It stands
            // about 0.25 proud of the back, less than min_protrusion (0.1 H
            // = 0.3) above the body skin it grows from, so it stays in that
            // body skin, untouched, on the Hips/Abdomen weights it has.
            let v = model.rig().unwrap().vertices();
            let tip = (0..v.len())
                .filter(|&i| (0.8..1.2).contains(&v[i].y) && v[i].x.abs() < 0.2)
                .min_by(|&a, &b| v[a].z.total_cmp(&v[b].z))
                .unwrap() as u32;
            assert!(v[tip as usize].z < -0.7, "stub tip at {:?}", v[tip as usize]);
            let holder = report
                .parts
                .iter()
                .find(|p| p.vertices.contains(&tip))
                .expect("the stub is far skin");
            assert_eq!(holder.kind, caudal::appendage::Kind::Body, "{}", holder.reason);
        }
    }
}

/// The four originals of `assets/MORE.md` (already rigged by their artists:
/// the snake's and koi's bodies are their own chains, the fox and elephant
/// have tail joints): none gets a new chain, and every role their names let
/// a reader judge is the one the names say. A snake and a fish have no legs,
/// hence no pelvis.
#[test]
fn the_originals_get_no_chain_and_their_named_roles() {
    use caudal::rig::roles::{JointRoles, RoleOverrides};
    // (file, pelvis, neck, head, [thigh.L, thigh.R]); "" where there is none.
    let originals = [
        ("snake/Snake.glb", "", "", "", ["", ""]),
        ("koi_fish/Koi.glb", "", "", "", ["", ""]),
        ("fox_wildmesh/fox.glb", "Pelvis_00", "Neck1_05", "Head_08", ["LegBL1_087", "LegBR1_094"]),
        (
            "elephant_meshopt/elephant.glb",
            "Root_M_01",
            "Neck_M_018",
            "Head_M_021",
            ["backRump_L_053", "backRump_R_02"],
        ),
    ];
    for (glb, pelvis, neck, head, thighs) in originals {
        let model = load(glb);
        let rig = model.rig().unwrap();
        let report = find_appendages(rig, &DetectParams::default()).unwrap();
        assert_eq!(chains(&report).len(), 0, "{glb}: {:#?}", report.parts);
        let roles = JointRoles::find(rig, &RoleOverrides::default()).unwrap();
        let name = |j: Option<usize>| j.map_or("", |j| rig.joint_names()[j].as_str());
        assert_eq!(name(roles.pelvis), pelvis, "{glb} pelvis");
        assert_eq!(name(roles.neck), neck, "{glb} neck");
        assert_eq!(name(roles.head), head, "{glb} head");
        assert_eq!(roles.thighs.map(name), thighs, "{glb} thighs");
    }
}

/// Issue 12's measure (`scripts/fixture_recall.py`): a vertex is taken by
/// the chain when at least 45% of its weight in `out` is on its bones;
/// precision and recall of the taken vertices against `tail`.
fn taken_precision_recall(out: &Rig, part: &PartReport, tail: &[u32]) -> (f32, f32) {
    let bones: HashSet<usize> = part.bones.iter().map(|b| out.joint_index(b).unwrap()).collect();
    let on_chain = |v: usize| -> f32 {
        let (js, ws) = out.influences().of(v);
        js.iter().zip(ws).filter(|(j, _)| bones.contains(&(**j as usize))).map(|(_, w)| w).sum()
    };
    let taken: HashSet<u32> =
        (0..out.vertex_count()).filter(|&v| on_chain(v) >= 0.45).map(|v| v as u32).collect();
    let hit = tail.iter().filter(|v| taken.contains(v)).count() as f32;
    (hit / taken.len() as f32, hit / tail.len() as f32)
}

/// The zebra's rump round its tail, which its artist weighted to the first
/// tail bone, lies in a far part judged body (far skin wrapping a bone)
/// that is decided before the tail. The degraded file gives that skin the
/// rigger's tail pattern (the thighs), and it lies nearer the tail's root
/// than any bone, so the rigger's root claims it
/// (`Surface::owned_at_root`). Before, the body part kept it and the chain
/// held 45% or more of only 55% of the tail's vertices (issue 12's
/// measure, as in `scripts/fixture_recall.py`).
#[test]
fn the_zebras_rump_skin_in_a_body_part_joins_the_tails_root() {
    let model = load("zebra/zebra_notail.glb");
    let rig = model.rig().unwrap();
    let truth = truth(&model, "zebra/zebra_notail.truth.json");
    let (out, report) = grow_chains(rig, &ChainParams::default()).unwrap();
    let found = chains(&report);
    assert_eq!(found.len(), 1, "exactly one chain");
    let (precision, recall) = taken_precision_recall(&out, found[0], &truth.tail);
    eprintln!("zebra: precision {precision:.3} recall {recall:.3}");
    assert!(recall >= 0.95 && precision >= 0.95, "precision {precision}, recall {recall}");
}

/// The phoenix's tail is a sparse ribbon with mirrored hair chains off the
/// pelvis (`B_Hair_22..33`) running through its root and others beside it,
/// none moving any of its skin. Read by every bone, its far skin came in
/// two pieces hanging from hair joints (limbs: "follows its limb") and the
/// larger failed T4a at centroid ratio 0.18 against the hair chains beside
/// it. Read by the bones that move it (the degrader's thighs and shin,
/// carried by the pelvis), the pieces hang from the pelvis, are one part
/// and stand off those bones: one chain on its tail, issue 12's bars by
/// `scripts/fixture_recall.py`'s measure.
#[test]
fn the_phoenixs_ribbon_hangs_from_the_bones_that_move_it() {
    let model = load("phoenix_bird/phoenix_bird_notail.glb");
    let rig = model.rig().unwrap();
    let truth = truth(&model, "phoenix_bird/phoenix_bird_notail.truth.json");
    let (out, report) = grow_chains(rig, &ChainParams::default()).unwrap();
    let found = chains(&report);
    assert_eq!(found.len(), 1, "exactly one chain: {:#?}", report.parts);
    assert_eq!(found[0].attachment.as_deref(), Some(truth.pelvis.as_str()));
    let (precision, recall) = taken_precision_recall(&out, found[0], &truth.tail);
    eprintln!("phoenix: precision {precision:.3} recall {recall:.3}");
    assert!(recall >= 0.95 && precision >= 0.95, "precision {precision}, recall {recall}");
}

/// Every degraded fixture (`files.rs`'s list): the chain holding most of
/// the true tail runs along it. Each joint (`Tail_1` .. `Tail_End`) is placed on the true centre line (its
/// `tail_u` there), and the joints come in order from root to tip: none
/// lies more than one band of the centre line (0.1 of `tail_u`, the line's
/// resolution) behind the joint before it, and `Tail_End` lies in the
/// tail's far third. Precision and recall cannot see a chain folded back on
/// itself over the skin it holds: a trial rule that kept the zebra's 121
/// vertices while its `Tail_End` came to lie above `Tail_3` passed them.
/// `tail_u` runs from the removed root joint; a Rigify tail's chain runs
/// from its tip to the hips (the field mouse), so the line is read from the
/// end nearer the chain's parent. The weighted bone distance over the true
/// tail halves at least (issue 12's bar, asserted for the first four in
/// `degraded_fixtures_get_one_chain_on_the_pelvis`).
#[test]
fn degraded_fixtures_chains_run_root_to_tip_along_the_tail() {
    const BAND: f32 = 0.1;
    let mut failures = Vec::new();
    for &(glb, json) in crate::files::TRUTHS {
        let model = load(glb);
        let rig = model.rig().unwrap();
        let truth = truth(&model, json);
        let (out, report) = grow_chains(rig, &ChainParams::default()).unwrap();
        let tail: HashSet<u32> = truth.tail.iter().copied().collect();
        let Some(part) = chains(&report)
            .into_iter()
            .max_by_key(|p| p.vertices.iter().filter(|v| tail.contains(v)).count())
        else {
            failures.push(format!("{glb}: no chain"));
            continue;
        };
        let mut line = centre_line(rig.vertices(), &truth.tail, &truth.tail_u, 10);
        let parent =
            out.bind_heads()[out.joint_index(part.attachment.as_deref().unwrap()).unwrap()];
        if parent.distance(line[0].0) > parent.distance(line[line.len() - 1].0) {
            line.reverse();
            line.iter_mut().for_each(|(_, u)| *u = 1.0 - *u);
        }
        let prefix = part.bones[0].strip_suffix("_1").unwrap();
        let along: Vec<f32> = part
            .bones
            .iter()
            .cloned()
            .chain([format!("{prefix}_End")])
            .map(|name| nearest_on_line(out.bind_heads()[out.joint_index(&name).unwrap()], &line).1)
            .collect();
        eprintln!("{glb}: joints at tail_u {along:.2?}");
        if along.windows(2).any(|w| w[1] < w[0] - BAND) {
            failures.push(format!("{glb}: joints out of order along the tail {along:.2?}"));
        }
        if along[along.len() - 1] < 2.0 / 3.0 {
            failures.push(format!("{glb}: Tail_End short of the tail's far third {along:.2?}"));
        }
        let (d0, d1) = (
            weighted_bone_distance(rig, &truth.tail).unwrap(),
            weighted_bone_distance(&out, &truth.tail).unwrap(),
        );
        eprintln!("    bone distance {d0:.4} -> {d1:.4}");
        if d1 > 0.5 * d0 {
            failures.push(format!("{glb}: bone distance {d0} -> {d1}"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// A report lists each vertex in one part at most: skin a tail's root
/// claims leaves the body part that held it (the zebra's rump, 57 vertices,
/// and four of the Alpaca's were listed by both).
#[test]
fn no_vertex_is_listed_by_two_parts() {
    for &(glb, _) in crate::files::TRUTHS {
        let model = load(glb);
        let report = find_appendages(model.rig().unwrap(), &DetectParams::default()).unwrap();
        let twice =
            crate::common::vertex_listed_twice(&report, model.rig().unwrap().vertex_count());
        assert!(twice.is_none(), "{glb}: {}", twice.unwrap_or_default());
    }
}

/// Every part's bone distance after the fix is the one measured afresh on
/// the grown rig, to the bit, where a vertex whose row and bones stay reads
/// the distance detection measured (a chain, and rigid tails that replace
/// rows but grow no bones). (Not so before: skin a tail's root claims
/// leaves a body part after its distance was measured, the Shiba Inu's.)
#[test]
fn bone_distances_read_again_are_the_ones_measured_afresh() {
    let rigid = ChainParams { tail_fix: caudal::chain::TailFix::Rigid, ..Default::default() };
    // Parts whose distance the fix moved and parts it left (read again).
    let (mut moved, mut kept) = (0, 0);
    for &(glb, _) in crate::files::TRUTHS {
        let model = load(glb);
        let rig = model.rig().unwrap();
        for params in [&ChainParams::default(), &rigid] {
            let (out, report) = grow_chains(rig, params).unwrap();
            for p in &report.parts {
                let before = weighted_bone_distance(rig, &p.vertices).unwrap();
                let after = weighted_bone_distance(&out, &p.vertices).unwrap();
                assert_eq!(
                    p.bone_distance_after.map(f32::to_bits),
                    Some(after.to_bits()),
                    "{glb} #{} {:?} {:?}",
                    p.index,
                    p.decision,
                    params.tail_fix
                );
                if before == after {
                    kept += 1;
                } else {
                    moved += 1;
                }
            }
        }
    }
    assert!(moved >= crate::files::TRUTHS.len() && kept > moved, "{moved} moved, {kept} kept");
}

/// A part's bone distance before the fix is measured over the vertices it
/// lists, to the bit, as its distance after is. Skin a tail's root claims
/// leaves a body part after that part's distance was measured; until stop
/// 47 the report kept the distance of the longer list.
#[test]
fn bone_distances_before_are_of_the_vertices_listed() {
    let mut failures = Vec::new();
    for &(glb, _) in crate::files::TRUTHS {
        let model = load(glb);
        let rig = model.rig().unwrap();
        let report = find_appendages(rig, &DetectParams::default()).unwrap();
        for p in &report.parts {
            let listed = weighted_bone_distance(rig, &p.vertices).unwrap();
            if p.bone_distance_before.to_bits() != listed.to_bits() {
                failures.push(format!(
                    "{glb} #{} ({:?}, {} vertices): reported {}, listed {listed}",
                    p.index, p.kind, p.vertex_count, p.bone_distance_before
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
