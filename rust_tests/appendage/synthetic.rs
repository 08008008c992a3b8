//! Synthetic cases with known answers (issue 3, "must show").

use std::ops::Range;

use caudal::appendage::{find_appendages, BroadPolicy, Decision, DetectParams, Kind, Region};
use caudal::chain::{grow_chains, ChainParams, TailFix};
use caudal::measure::weighted_bone_distance;
use caudal::CaudalError;
use glam::Vec3;

use super::checks::{chains, check_chain, check_pose, check_rest_unchanged, polyline_distance};
use super::synth::{tail_path, Builder};

const TAIL_R0: f32 = 0.05;
const TAIL_R1: f32 = 0.02;

fn with_tail() -> (Builder, Range<usize>) {
    let mut b = Builder::humanoid();
    let tail = b.add_tube(&tail_path(1.0), TAIL_R0, TAIL_R1, 40, 12, 1);
    b.weight_like_template_rigger(tail.clone());
    (b, tail)
}

fn range_vec(r: &Range<usize>) -> Vec<u32> {
    r.clone().map(|v| v as u32).collect()
}

/// Share of the part inside the true range, and of the true range found.
fn precision_recall(found: &[u32], truth: &Range<usize>) -> (f32, f32) {
    let hit = found.iter().filter(|&&v| truth.contains(&(v as usize))).count() as f32;
    (hit / found.len().max(1) as f32, hit / truth.len() as f32)
}

#[test]
fn plain_body_has_no_far_skin() {
    let rig = Builder::humanoid().build();
    let report = find_appendages(&rig, &DetectParams::default()).unwrap();
    assert!(report.parts.is_empty(), "{:#?}", report.parts);
    let (out, _) = grow_chains(&rig, &ChainParams::default()).unwrap();
    assert_eq!(out, rig);
}

#[test]
fn tube_tail_on_box_body_grows_one_chain() {
    let (b, tail) = with_tail();
    let rig = b.build();
    let before = rig.clone();
    let (out, report) = grow_chains(&rig, &ChainParams::default()).unwrap();
    assert_eq!(rig, before, "input never mutated");
    let found = chains(&report);
    assert_eq!(found.len(), 1, "{}", report.to_json());
    let part = found[0];
    assert_eq!(part.kind, Kind::Tail);
    assert_eq!(part.attachment.as_deref(), Some("Hips"));
    assert_eq!(part.region, Region::Pelvis);
    let (precision, recall) = precision_recall(&part.vertices, &tail);
    assert_eq!(precision, 1.0);
    assert!(recall >= 0.8, "recall {recall}");
    // Tail about 0.9 long on a 1.98 tall body: L / 0.1H rounds to 4.
    assert!((part.length - 0.78).abs() < 0.1, "length {}", part.length);
    assert_eq!(part.bone_count, 4);
    assert!(part.tests.elongation > 2.0 && part.tests.centroid_ratio >= 0.4);
    check_chain(&rig, &out, part, "Hips");
    check_rest_unchanged(&rig, &out, &part.vertices);
    check_pose(&out, "Hips", part);
    let hips = rig.joint_index("Hips").unwrap() as u32;
    assert!(
        part.vertices.iter().any(|&v| out.influences().of(v as usize).0.contains(&hips)),
        "the root segment blends into the pelvis"
    );
    // Every joint inside the tube.
    let path = tail_path(1.0);
    for name in part.bones.iter().cloned().chain(["Tail_End".to_string()]) {
        let head = out.bind_heads()[out.joint_index(&name).unwrap()];
        let (d, t) = polyline_distance(head, &path);
        assert!(
            d <= TAIL_R0 + (TAIL_R1 - TAIL_R0) * t + 1e-3,
            "{name} is {d} off the centre line at t={t}"
        );
    }
    // T10: bone distance falls by more than half.
    let truth = range_vec(&tail);
    let (d0, d1) = (
        weighted_bone_distance(&rig, &truth).unwrap(),
        weighted_bone_distance(&out, &truth).unwrap(),
    );
    assert!(d1 < 0.5 * d0, "bone distance {d0} -> {d1}");
    assert_eq!(part.bone_distance_before, weighted_bone_distance(&rig, &part.vertices).unwrap());
    assert!(part.bone_distance_after.unwrap() < 0.5 * part.bone_distance_before);
}

#[test]
fn rigid_tail_on_request_goes_to_the_pelvis() {
    let (b, _) = with_tail();
    let rig = b.build();
    let params = ChainParams { tail_fix: TailFix::Rigid, ..Default::default() };
    let (out, report) = grow_chains(&rig, &params).unwrap();
    assert_eq!(out.joint_count(), rig.joint_count());
    let part = report.parts.iter().find(|p| p.kind == Kind::Tail).unwrap();
    assert_eq!(part.decision, Decision::Rigid);
    let hips = rig.joint_index("Hips").unwrap() as u32;
    for &v in &part.vertices {
        assert_eq!(out.influences().of(v as usize), (&[hips][..], &[1.0f32][..]));
    }
}

#[test]
fn ears_on_a_head_stay_untouched() {
    let mut b = Builder::humanoid();
    for x in [1.0f32, -1.0] {
        b.add_tube(
            &[Vec3::new(0.04 * x, 1.95, 0.0), Vec3::new(0.1 * x, 2.25, 0.0)],
            0.03,
            0.01,
            16,
            8,
            1,
        );
    }
    let rig = b.build();
    let (out, report) = grow_chains(&rig, &ChainParams::default()).unwrap();
    assert_eq!(report.parts.len(), 2, "{}", report.to_json());
    for p in &report.parts {
        assert_eq!(p.kind, Kind::Head, "{}", p.reason);
        assert_eq!(p.decision, Decision::Untouched);
        assert_eq!(p.attachment.as_deref(), Some("Head"));
    }
    assert_eq!(out, rig);
}

fn with_cape() -> (Builder, Range<usize>) {
    let mut b = Builder::humanoid();
    let cape = b.add_sheet(
        Vec3::new(-0.35, 1.72, -0.12),
        Vec3::new(0.7, 0.0, 0.0),
        Vec3::new(0.0, -0.8, -0.13),
        28,
        32,
    );
    (b, cape)
}

#[test]
fn cape_stays_untouched_by_default_and_rigid_on_request() {
    let (b, cape) = with_cape();
    let rig = b.build();
    let (out, report) = grow_chains(&rig, &ChainParams::default()).unwrap();
    let broad: Vec<_> = report.parts.iter().filter(|p| p.kind == Kind::Broad).collect();
    assert_eq!(broad.len(), 1, "{}", report.to_json());
    let part = broad[0];
    assert!(part.vertices.iter().all(|&v| cape.contains(&(v as usize))));
    assert!(!part.tests.elongation_passed && part.tests.centroid_passed, "{:?}", part.tests);
    assert_eq!(part.decision, Decision::Untouched);
    assert!(chains(&report).is_empty());
    assert_eq!(out, rig);

    let params = ChainParams {
        detect: DetectParams { broad: BroadPolicy::Rigid, ..Default::default() },
        ..Default::default()
    };
    let (out, report) = grow_chains(&rig, &params).unwrap();
    let part = report.parts.iter().find(|p| p.kind == Kind::Broad).unwrap();
    assert_eq!(part.decision, Decision::Rigid);
    let j = out.require_joint("rigid", part.rigid_joint.as_deref().unwrap()).unwrap();
    assert!(["Spine", "Chest", "Hips"].contains(&out.joint_names()[j].as_str()));
    for &v in &part.vertices {
        assert_eq!(out.influences().of(v as usize), (&[j as u32][..], &[1.0f32][..]));
    }
    check_rest_unchanged(&rig, &out, &part.vertices);
}

#[test]
fn quiver_along_the_spine_is_rigid_to_the_spine_bone() {
    let mut b = Builder::humanoid();
    let quiver = b.add_tube(
        &[Vec3::new(0.0, 1.55, -0.07), Vec3::new(0.05, 1.5, -0.25), Vec3::new(0.25, 1.0, -0.25)],
        0.04,
        0.04,
        30,
        10,
        1,
    );
    let rig = b.build();
    let (out, report) = grow_chains(&rig, &ChainParams::default()).unwrap();
    assert_eq!(report.parts.len(), 1, "{}", report.to_json());
    let part = &report.parts[0];
    assert_eq!(part.kind, Kind::Carried, "{}", part.reason);
    assert_eq!(part.decision, Decision::Rigid);
    assert_eq!(part.region, Region::Spine);
    assert_eq!(part.rigid_joint.as_deref(), Some("Chest"));
    let chest = rig.joint_index("Chest").unwrap() as u32;
    assert!(part.vertices.iter().all(|&v| quiver.contains(&(v as usize))));
    for &v in &part.vertices {
        assert_eq!(out.influences().of(v as usize), (&[chest][..], &[1.0f32][..]));
    }
    assert_eq!(out.joint_count(), rig.joint_count());
    check_rest_unchanged(&rig, &out, &part.vertices);
}

#[test]
fn tail_in_two_overlapping_shells_is_one_chain() {
    let mut b = Builder::humanoid();
    let fur = b.add_tube(&tail_path(1.0), 0.06, 0.025, 40, 12, 1);
    // The skin shell stops short of the fur's ends, so no cap vertex of the
    // two shells coincides (they must stay unwelded, as in the fox).
    let mut inner = tail_path(1.0);
    let (first, last) = (inner[0], inner[3]);
    inner[0] = first.lerp(inner[1], 0.05);
    inner[3] = last.lerp(inner[2], 0.05);
    let skin = b.add_tube(&inner, 0.035, 0.012, 30, 8, 1);
    b.weight_like_template_rigger(fur.start..skin.end);
    let rig = b.build();
    let (out, report) = grow_chains(&rig, &ChainParams::default()).unwrap();
    assert_eq!(report.parts.len(), 1, "{}", report.to_json());
    let part = &report.parts[0];
    assert_eq!(part.shells, 2);
    assert!(part.vertices.iter().any(|&v| fur.contains(&(v as usize))));
    assert!(part.vertices.iter().any(|&v| skin.contains(&(v as usize))));
    assert_eq!(chains(&report).len(), 1);
    check_chain(&rig, &out, part, "Hips");
}

#[test]
fn tail_split_by_uv_seams_is_one_part() {
    let mut b = Builder::humanoid();
    let tail = b.add_tube(&tail_path(1.0), TAIL_R0, TAIL_R1, 40, 12, 10);
    b.weight_like_template_rigger(tail.clone());
    let rig = b.build();
    // Without welding the tail falls apart into its islands.
    let raw = caudal::geometry::MeshGraph::from_triangles(rig.vertex_count(), rig.triangles());
    let keep: Vec<bool> = (0..rig.vertex_count()).map(|v| tail.contains(&v)).collect();
    assert_eq!(raw.components(&keep).1, 10);
    let (out, report) = grow_chains(&rig, &ChainParams::default()).unwrap();
    assert_eq!(report.parts.len(), 1, "{}", report.to_json());
    let part = &report.parts[0];
    assert_eq!(part.shells, 1);
    assert!(
        part.vertex_count > part.welded_vertex_count,
        "seam copies are written back per original vertex"
    );
    let (precision, recall) = precision_recall(&part.vertices, &tail);
    assert_eq!(precision, 1.0);
    assert!(recall >= 0.8);
    check_chain(&rig, &out, part, "Hips");
    // Seam copies of one position get identical weights.
    for &v in &part.vertices {
        for &w in &part.vertices {
            if v < w && rig.vertices()[v as usize] == rig.vertices()[w as usize] {
                assert_eq!(out.influences().of(v as usize), out.influences().of(w as usize));
            }
        }
    }
}

#[test]
fn bind_rotations_that_are_not_identity() {
    let (mut b, tail) = with_tail();
    b.rotate_binds();
    let rig = b.build();
    assert!(rig.bind_world()[rig.joint_index("Hips").unwrap()].x_axis.x < 0.99);
    let (out, report) = grow_chains(&rig, &ChainParams::default()).unwrap();
    let found = chains(&report);
    assert_eq!(found.len(), 1);
    check_chain(&rig, &out, found[0], "Hips");
    check_pose(&out, "Hips", found[0]);
    // Same detection as with identity binds: the bind frames do not matter.
    let (plain, plain_report) =
        grow_chains(&with_tail().0.build(), &ChainParams::default()).unwrap();
    assert_eq!(plain_report.parts[0].vertices, found[0].vertices);
    for name in &found[0].bones {
        let (a, c) = (
            out.bind_heads()[out.joint_index(name).unwrap()],
            plain.bind_heads()[plain.joint_index(name).unwrap()],
        );
        assert!(a.distance(c) < 1e-4, "{name}");
    }
    let truth = range_vec(&tail);
    assert!(
        weighted_bone_distance(&out, &truth).unwrap()
            < 0.5 * weighted_bone_distance(&rig, &truth).unwrap()
    );
}

/// A bird's feathers or a pair of wings: two long tubes leaving the back of
/// the hips in a mirrored pair, each root well off the midline, beside a
/// tail on the midline. Each is long, on the pelvis and passes every shape
/// test; only where it leaves the trunk tells it from a tail (issue 12, the
/// phoenix: two chains on feathers, none on the tail).
#[test]
fn a_mirrored_pair_beside_a_midline_tail_gets_no_chain() {
    let mut b = Builder::humanoid();
    // Straight back and down, on the midline.
    let tail = b.add_tube(&tail_path(0.0), TAIL_R0, TAIL_R1, 40, 12, 1);
    let mut wings = Vec::new();
    for side in [1.0f32, -1.0] {
        let path = [
            Vec3::new(0.07 * side, 1.02, -0.06),
            Vec3::new(0.25 * side, 1.0, -0.3),
            Vec3::new(0.45 * side, 0.95, -0.55),
        ];
        wings.push(b.add_tube(&path, 0.03, 0.015, 30, 10, 1));
    }
    b.weight_like_template_rigger(tail.start..wings[1].end);
    let rig = b.build();
    let report = find_appendages(&rig, &DetectParams::default()).unwrap();
    let found = chains(&report);
    assert_eq!(found.len(), 1, "{}", report.to_json());
    let (precision, recall) = precision_recall(&found[0].vertices, &tail);
    assert!(precision >= 0.95 && recall >= 0.8, "precision {precision} recall {recall}");
    for wing in &wings {
        let part = report
            .parts
            .iter()
            .find(|p| p.vertices.iter().filter(|&&v| wing.contains(&(v as usize))).count() > 20)
            .unwrap_or_else(|| panic!("no part on the wing: {}", report.to_json()));
        assert_eq!(part.kind, Kind::Paired, "{}", part.reason);
        assert_eq!(part.decision, Decision::Untouched);
    }
}

/// A long thin ribbon of a tail, two heights long, whose rings crowd at its
/// root (ring `k` of 48 at `(k / 47)^3` of its length, as feathers packed
/// by the rump). Its vertex centroid sits near the root, under 0.4 of its
/// reach off the skeleton (the T4a bar): counted by vertex it reads as far
/// skin wrapping a bone (main: `body`, centroid ratio 0.36). Counted by
/// length (the centroid of its geodesic bands) it passes, and it is one
/// tail on the pelvis.
#[test]
fn a_long_ribbon_crowded_at_its_root_is_a_tail() {
    let mut b = Builder::humanoid();
    let path = [
        Vec3::new(0.0, 1.0, -0.06),
        Vec3::new(0.0, 0.97, -0.8),
        Vec3::new(0.0, 0.85, -2.2),
        Vec3::new(0.0, 0.6, -4.0),
    ];
    let at: Vec<f32> = (0..48).map(|k| (k as f32 / 47.0).powi(3)).collect();
    let ribbon = b.add_tube_at(&path, (0.04, 0.01), &at, 8, 1);
    b.weight_like_template_rigger(ribbon.clone());
    let rig = b.build();
    let params = DetectParams::default();
    let report = find_appendages(&rig, &params).unwrap();
    let found = chains(&report);
    assert_eq!(found.len(), 1, "{}", report.to_json());
    let part = found[0];
    assert_eq!(part.kind, Kind::Tail);
    assert_eq!(part.attachment.as_deref(), Some("Hips"));
    let (precision, recall) = precision_recall(&part.vertices, &ribbon);
    assert_eq!(precision, 1.0);
    assert!(recall >= 0.8, "recall {recall}");
    // The crowding is real: by vertex the part fails T4a.
    let field = caudal::geometry::SkeletonField::new(&rig, params.leaf_stub_ratio);
    let points = part.vertices.iter().map(|&v| rig.vertices()[v as usize]);
    let n = part.vertices.len() as f32;
    let by_vertex = points.fold(Vec3::ZERO, |acc, p| acc + p) / n;
    let ratio = field.distance(by_vertex) / part.reach;
    assert!(ratio < params.min_centroid_ratio, "vertex centroid ratio {ratio}");
    assert!(part.tests.centroid_ratio >= params.min_centroid_ratio);
}

/// A lone tube off the midline (a tail swept to one side, an asymmetric
/// creature) is still a tail: only a mirror twin makes a pair.
#[test]
fn a_lone_part_off_the_midline_stays_a_tail() {
    let mut b = Builder::humanoid();
    let path =
        [Vec3::new(0.07, 1.02, -0.06), Vec3::new(0.25, 1.0, -0.3), Vec3::new(0.45, 0.95, -0.55)];
    let lone = b.add_tube(&path, 0.03, 0.015, 30, 10, 1);
    b.weight_like_template_rigger(lone.clone());
    let report = find_appendages(&b.build(), &DetectParams::default()).unwrap();
    assert_eq!(chains(&report).len(), 1, "{}", report.to_json());
}

#[test]
fn two_tails_get_two_chains() {
    let mut b = Builder::humanoid();
    let long = b.add_tube(&tail_path(1.0), TAIL_R0, TAIL_R1, 40, 12, 1);
    // Its own root point, so no cap vertex of the two tubes is welded.
    let mut short_path: Vec<Vec3> = tail_path(-1.0).iter().take(3).copied().collect();
    short_path[0].x -= 0.03;
    let short = b.add_tube(&short_path, TAIL_R0, TAIL_R1, 30, 12, 1);
    b.weight_like_template_rigger(long.start..short.end);
    let rig = b.build();
    let (out, report) = grow_chains(&rig, &ChainParams::default()).unwrap();
    let found = chains(&report);
    assert_eq!(found.len(), 2, "{}", report.to_json());
    let names: Vec<_> = found.iter().map(|p| p.bones.clone()).collect();
    let main = found.iter().find(|p| p.bones[0] == "Tail_1").expect("Tail_1");
    let second =
        found.iter().find(|p| p.bones[0] == "Tail2_1").unwrap_or_else(|| panic!("{names:?}"));
    assert!(main.length > second.length, "the longest tail is Tail_*");
    assert!(main.vertices.iter().all(|&v| long.contains(&(v as usize))));
    assert!(second.vertices.iter().all(|&v| short.contains(&(v as usize))));
    for p in [main, second] {
        check_chain(&rig, &out, p, "Hips");
    }
    assert!(out.joint_index("Tail_End").is_some() && out.joint_index("Tail2_End").is_some());
}

/// Two tails of their own shells forked from one root behind the hips: the
/// two shells' collars (each one's root end, nearest the bones) have their
/// centres 0.007 apart against ring radii of 0.029 and 0.032, but no edge
/// runs between the shells, so they are not one tube cut across
/// (`merge_shells`): each keeps its own part. Without that guard the two
/// were one part.
#[test]
fn two_shells_whose_collars_meet_are_not_one_tube_cut_across() {
    let mut b = Builder::humanoid();
    let fork = |side: f32, lift: f32| -> Vec<Vec3> {
        let root = Vec3::new(0.0, 1.0 + lift, -0.14);
        [(0.0, 0.0, 0.0), (0.0, -0.02, -0.1), (0.15, -0.1, -0.35), (0.35, -0.25, -0.6)]
            .iter()
            .map(|&(x, y, z)| root + Vec3::new(x * side, y, z))
            .collect()
    };
    // Their own root points and radii, so no vertex of the two is welded.
    let left = b.add_tube(&fork(1.0, 0.0), TAIL_R0, TAIL_R1, 40, 12, 1);
    let right = b.add_tube(&fork(-1.0, 0.004), 0.9 * TAIL_R0, TAIL_R1, 40, 12, 1);
    b.weight_like_template_rigger(left.start..right.end);
    let report = find_appendages(&b.build(), &DetectParams::default()).unwrap();
    for tube in [&left, &right] {
        assert!(
            report.parts.iter().any(|p| p.vertices.iter().any(|&v| tube.contains(&(v as usize)))),
            "a tube in no part: {}",
            report.to_json()
        );
    }
    for part in &report.parts {
        let on = |t: &Range<usize>| part.vertices.iter().any(|&v| t.contains(&(v as usize)));
        assert!(!(on(&left) && on(&right)), "both tubes in one part: {}", report.to_json());
    }
}

#[test]
fn bad_parameters_name_their_field() {
    let rig = with_tail().0.build();
    let bad = DetectParams { far_ratio: f32::NAN, ..Default::default() };
    match find_appendages(&rig, &bad) {
        Err(CaudalError::Parameter { field, .. }) => assert_eq!(field, "far_ratio"),
        other => panic!("{other:?}"),
    }
    let bad = ChainParams { max_bones: 2, ..Default::default() };
    match grow_chains(&rig, &bad) {
        Err(CaudalError::Parameter { field, .. }) => assert_eq!(field, "max_bones"),
        other => panic!("{other:?}"),
    }
    match weighted_bone_distance(&rig, &[rig.vertex_count() as u32]) {
        Err(CaudalError::IndexOutOfRange { field, .. }) => assert_eq!(field, "vertices"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn same_result_on_one_and_two_threads() {
    let rig = {
        let mut b = Builder::humanoid();
        b.add_tube(&tail_path(1.0), 0.06, 0.025, 40, 12, 3);
        b.add_tube(&tail_path(1.0), 0.035, 0.012, 30, 8, 1);
        b.build()
    };
    let run = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| grow_chains(&rig, &ChainParams::default()).unwrap())
    };
    let (a, ra) = run(1);
    let (b, rb) = run(2);
    assert_eq!(a, b);
    assert_eq!(ra, rb);
}

/// A grid strip of `rows` x `cols` unit cells' corners (vertex
/// `r * cols + c`), cut between rows `cut - 1` and `cut` when given (two
/// shells).
fn strip(rows: usize, cols: usize, cut: Option<usize>) -> (caudal::geometry::MeshGraph, Vec<Vec3>) {
    let (positions, tris) = strip_mesh(rows, cols, cut);
    (caudal::geometry::MeshGraph::from_triangles(positions.len(), &tris), positions)
}

/// [`strip`]'s positions and triangles, for a test that joins more to it.
fn strip_mesh(rows: usize, cols: usize, cut: Option<usize>) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let positions: Vec<Vec3> =
        (0..rows * cols).map(|i| Vec3::new((i % cols) as f32, (i / cols) as f32, 0.0)).collect();
    let mut tris = Vec::new();
    for r in (0..rows - 1).filter(|&r| Some(r + 1) != cut) {
        for c in 0..cols - 1 {
            let (a, b, d, e) =
                (r * cols + c, r * cols + c + 1, (r + 1) * cols + c, (r + 1) * cols + c + 1);
            tris.push([a as u32, b as u32, e as u32]);
            tris.push([a as u32, e as u32, d as u32]);
        }
    }
    (positions, tris)
}

#[test]
fn root_collar_drops_the_ring_where_the_far_end_rests() {
    use caudal::appendage::root_collar;
    let (rows, cols) = (11, 4);
    let row = |r: usize| (r * cols..(r + 1) * cols).map(|v| v as u32).collect::<Vec<u32>>();
    let (graph, positions) = strip(rows, cols, None);
    let part: Vec<u32> = (1..rows - 1).flat_map(row).collect();
    // Root ring (row 0) and the far end resting on the body (last row):
    // the far ring is no root, and comes back as the contact.
    let mut collar: Vec<u32> = row(0).into_iter().chain(row(rows - 1)).collect();
    collar.sort_unstable();
    let (ring, contact) = root_collar(&graph, &positions, &part, &collar);
    assert_eq!(ring, row(0));
    assert_eq!(contact, row(rows - 1));
    // One root ring broken in two by a gap stays whole: its pieces lie a
    // ring's width apart, not far along the part.
    let broken: Vec<u32> = vec![0, 1, 3];
    assert_eq!(root_collar(&graph, &positions, &part, &broken), (broken.clone(), Vec::new()));
    // Two shells (fur over skin), each with its own root ring at its own
    // end: the other shell's ring is never reached, so never a contact.
    let (graph2, positions2) = strip(2 * rows, cols, Some(rows));
    let part2: Vec<u32> = (1..rows).chain(rows..2 * rows - 1).flat_map(row).collect();
    let mut collar2: Vec<u32> = row(0).into_iter().chain(row(2 * rows - 1)).collect();
    collar2.sort_unstable();
    assert_eq!(root_collar(&graph2, &positions2, &part2, &collar2), (collar2.clone(), Vec::new()));
}

#[test]
fn root_collar_roots_where_the_body_goes_on_not_at_the_tubes_own_cap() {
    use caudal::appendage::root_collar;
    // Rows 0..=19 are body, 20..=25 the part, 26..=29 the tube's tip cap
    // the part has not taken. The ring at the cap (a whole row) has more
    // edges into the part than the two vertices where it meets the body
    // (the rest of that row held by another part, as a peel's remainder
    // holds a tail's root): it is the cap's, and past it lies only the cap.
    let (rows, cols) = (30, 4);
    let row = |r: usize| (r * cols..(r + 1) * cols).map(|v| v as u32).collect::<Vec<u32>>();
    let (graph, positions) = strip(rows, cols, None);
    let part: Vec<u32> = (20..26).flat_map(row).collect();
    let at_body: Vec<u32> = vec![19 * cols as u32 + 1, 19 * cols as u32 + 2];
    let mut collar: Vec<u32> = at_body.iter().copied().chain(row(26)).collect();
    collar.sort_unstable();
    let (ring, contact) = root_collar(&graph, &positions, &part, &collar);
    assert_eq!(ring, at_body);
    assert_eq!(contact, row(26));
    // Where both rings open onto more skin than the part holds, the most
    // edges decide, as before.
    let middle: Vec<u32> = (10..16).flat_map(row).collect();
    let mut collar2: Vec<u32> = vec![9 * cols as u32 + 1, 9 * cols as u32 + 2];
    collar2.extend(row(16));
    let (ring2, contact2) = root_collar(&graph, &positions, &middle, &collar2);
    assert_eq!(ring2, row(16));
    assert_eq!(contact2, vec![9 * cols as u32 + 1, 9 * cols as u32 + 2]);
}

#[test]
fn root_collar_reads_a_closed_ring_in_the_far_half_as_the_tubes_own_tip() {
    use caudal::appendage::root_collar;
    // Rows 0..=24 are body, 25..=44 the part, which closes round one vertex
    // at row 35 (reached 11 rows from the root ring of a part 20 long: 0.55,
    // under the resting share but in its far half, where a tail walked from
    // its root to its tip leaves its tip cap) and one at row 29 (0.25, a
    // pocket of the root ring).
    let (rows, cols) = (45, 5);
    let at = |r: usize, c: usize| (r * cols + c) as u32;
    let (graph, positions) = strip(rows, cols, None);
    let (tip, pocket) = (at(35, 2), at(29, 2));
    let part: Vec<u32> =
        (at(25, 0)..at(rows - 1, cols - 1) + 1).filter(|&v| v != tip && v != pocket).collect();
    let root_row: Vec<u32> = (0..cols).map(|c| at(24, c)).collect();
    let mut collar: Vec<u32> = root_row.iter().copied().chain([pocket, tip]).collect();
    collar.sort_unstable();
    let (ring, contact) = root_collar(&graph, &positions, &part, &collar);
    let mut root_ring = root_row.clone();
    root_ring.push(pocket);
    root_ring.sort_unstable();
    assert_eq!(ring, root_ring);
    assert_eq!(contact, vec![tip]);
    // The same vertex opening onto more body (a second sheet of skin joined
    // to it alone, as the rest of the body lies past a ring where the part
    // leaves it) is no tip cap: it stays root ring.
    let (positions2, mut tris2) = strip_mesh(2 * rows, cols, Some(rows));
    tris2.push([tip, at(rows, 0), at(rows, 1)]);
    let graph2 = caudal::geometry::MeshGraph::from_triangles(positions2.len(), &tris2);
    let (ring2, contact2) = root_collar(&graph2, &positions2, &part, &collar);
    assert!(ring2.contains(&tip) && contact2.is_empty(), "{ring2:?} {contact2:?}");
}

/// The tube tail's rings (12 vertices each, ring 0 at the body) that the
/// detected tail holds, with the rigger's weights set by `weigh`.
fn tail_rings(weigh: impl Fn(&mut Builder, Range<usize>)) -> (Vec<usize>, Range<usize>, usize) {
    let mut b = Builder::humanoid();
    let tail = b.add_tube(&tail_path(1.0), TAIL_R0, TAIL_R1, 40, 12, 1);
    weigh(&mut b, tail.clone());
    let rig = b.build();
    let report = find_appendages(&rig, &DetectParams::default()).unwrap();
    let part = report.parts.iter().find(|p| p.kind == Kind::Tail).expect("a tail");
    assert!(part.vertices.iter().all(|&v| tail.contains(&(v as usize))), "only tube skin");
    let mut found: Vec<usize> =
        part.vertices.iter().map(|&v| v as usize - tail.start).filter(|&i| i < 40 * 12).collect();
    found.sort_unstable();
    (found, tail, part.root_vertices)
}

#[test]
fn tail_root_follows_the_riggers_weights() {
    let ring_complete =
        |found: &[usize], r: usize| (r * 12..(r + 1) * 12).all(|i| found.binary_search(&i).is_ok());
    let ring_empty = |found: &[usize], r: usize| {
        (r * 12..(r + 1) * 12).all(|i| found.binary_search(&i).is_err())
    };
    // The whole tube on the legs: every ring is tail, down to the ring
    // that enters the body box.
    let (all_legs, _, _) = tail_rings(|b, t| b.weight_like_template_rigger(t));
    assert!(
        (1..40).all(|r| ring_complete(&all_legs, r)),
        "missing {:?}",
        (0..480).filter(|i| all_legs.binary_search(i).is_err()).collect::<Vec<_>>()
    );
    // The rigger graded the tube's first six rings, most of each vertex
    // on the pelvis and some on a tail bone: it drew the tail's edge there.
    // The close (not far) ones stay body; the far ones are tail by geometry.
    let (kept, _, _) = tail_rings(|b, t| {
        b.weight_like_template_rigger(t.clone());
        b.weight_shared(t.start..t.start + 6 * 12, &[("Hips", 0.7), ("LeftLeg", 0.3)]);
    });
    assert!((0..3).all(|r| ring_empty(&kept, r)), "{:?}", &kept[..12]);
    assert!((6..40).all(|r| ring_complete(&kept, r)));
    // Those rings wholly on the pelvis, no weight on a tail bone, are what
    // a nearest-bone rigger does: that says only which bone was nearest
    // (`TailWeights::is_silent`), and the tube's next rings are taken to
    // the body (`take_neck_rings`).
    let (silent, _, _) = tail_rings(|b, t| {
        b.weight_like_template_rigger(t.clone());
        b.weight_to(t.start..t.start + 6 * 12, "Hips");
    });
    assert!(
        (1..40).all(|r| ring_complete(&silent, r)),
        "missing {:?}",
        (0..480).filter(|i| silent.binary_search(i).is_err()).collect::<Vec<_>>()
    );
    // No pattern in the weights (all on the pelvis): geometry alone, which
    // follows the tube over its surface to where it enters the body, the
    // same rings as the legs' pattern (the axis extension alone stopped
    // one root radius back, inside ring 1).
    let (no_pattern, _, root_vertices) = tail_rings(|b, t| b.weight_to(t, "Hips"));
    assert!(root_vertices > 0);
    assert!(
        (1..40).all(|r| ring_complete(&no_pattern, r)),
        "missing {:?}",
        (0..480).filter(|i| no_pattern.binary_search(i).is_err()).collect::<Vec<_>>()
    );
    assert!(all_legs.len() >= no_pattern.len() && no_pattern.len() > kept.len());
}

/// A stub tail: a short tube off the back of the hips, about as long past
/// the far cut as it is thick, so neither its covariance nor its tube ratio
/// calls it long. Its tip stands well off the skeleton, so it is a tail.
fn with_stub_tail() -> (Builder, Range<usize>) {
    let mut b = Builder::humanoid();
    let path =
        [Vec3::new(0.0, 1.0, -0.06), Vec3::new(0.0, 0.97, -0.15), Vec3::new(0.0, 0.94, -0.24)];
    let tail = b.add_tube(&path, 0.07, 0.05, 16, 12, 1);
    b.weight_like_template_rigger(tail.clone());
    (b, tail)
}

#[test]
fn a_stub_tail_on_the_pelvis_gets_a_chain() {
    let (b, tail) = with_stub_tail();
    let rig = b.build();
    let report = find_appendages(&rig, &DetectParams::default()).unwrap();
    let part = report
        .parts
        .iter()
        .max_by_key(|p| p.vertices.iter().filter(|&&v| tail.contains(&(v as usize))).count())
        .unwrap();
    assert!(!part.tests.long, "the stub is not long: {:?}", part.tests);
    assert_eq!((part.kind, part.decision), (Kind::Tail, Decision::Chain), "{}", part.reason);
    assert_eq!(part.region, Region::Pelvis);
    let (precision, recall) = precision_recall(&part.vertices, &tail);
    assert!(precision >= 0.95 && recall >= 0.8, "precision {precision} recall {recall}");
    // Without the stub rule the same part is a broad trunk part, untouched
    // (what detection did before it). The rule is switched off by its
    // standoff bar, which every stub must meet (its reach bar has an
    // alternative for thin stubs, `STUB_RISE_RADII`).
    let off = DetectParams { min_stub_standoff: 1e3, ..Default::default() };
    let before = find_appendages(&rig, &off).unwrap();
    assert!(before.parts.iter().all(|p| p.decision != Decision::Chain), "{}", before.to_json());
    let (out, report) = grow_chains(&rig, &ChainParams::default()).unwrap();
    let found = chains(&report);
    assert_eq!(found.len(), 1, "{}", report.to_json());
    check_chain(&rig, &out, found[0], "Hips");
}

/// The same stub, but the rigger gave it a bone of its own that the skin
/// follows, its head just inside the hips (as a bulky or remeshed tail's
/// first bone can sit): it is rigged, no chain.
#[test]
fn a_stub_with_a_bone_of_its_own_is_left_alone() {
    let (mut b, tail) = with_stub_tail();
    b.add_joint("TailStub", Some("Hips"), Vec3::new(0.0, 1.0, -0.005));
    b.weight_to(tail.clone(), "TailStub");
    let rig = b.build();
    let report = find_appendages(&rig, &DetectParams::default()).unwrap();
    assert!(report.parts.iter().all(|p| p.decision != Decision::Chain), "{}", report.to_json());
    let part = report
        .parts
        .iter()
        .max_by_key(|p| p.vertices.iter().filter(|&&v| tail.contains(&(v as usize))).count())
        .unwrap();
    assert!(part.reason.contains("TailStub, a bone of its own"), "{}", part.reason);
}

#[test]
fn the_hand_over_starts_from_the_riggers_off_body_share() {
    use caudal::chain::{pelvis_share, pelvis_share_from, starting_share};
    // The dragon's root skin: the rigger gave 0.03-0.45 of it to the legs,
    // the tail past the band wholly (median 1): the chain starts there.
    assert_eq!(starting_share(0.03, 1.0), 0.03);
    assert_eq!(starting_share(0.45, 1.0), 0.45);
    // Never more than the band's half.
    assert_eq!(starting_share(0.9, 1.0), 0.5);
    // Read against the tail's own off-body share (a rigger that split it).
    assert_eq!(starting_share(0.1, 0.5), 0.2);
    // A tail the rigger left on the body shows no fade: half, as before.
    assert_eq!(starting_share(0.0, 0.0), 0.5);
    // A vertex the rigger left wholly on the body shows none either (a
    // nearest-bone rigger's root skin on the pelvis): half.
    assert_eq!(starting_share(0.0, 1.0), 0.5);
    // On the ring the pelvis holds the rest; at the band's end nothing.
    assert!((pelvis_share_from(0.0, 2.0, 0.2) - 0.8).abs() < 1e-6);
    assert_eq!(pelvis_share_from(2.0, 2.0, 0.2), 0.0);
    assert!((pelvis_share_from(1.0, 2.0, 0.2) - 0.4).abs() < 1e-6);
    // Half is the old band.
    for d in [0.0, 0.3, 1.0, 1.7, 2.0] {
        assert_eq!(pelvis_share_from(d, 2.0, 0.5), pelvis_share(d, 2.0));
    }
    // The chain's share never falls along the tail for one start.
    let mut last = 0.0;
    for i in 0..=20 {
        let chain = 1.0 - pelvis_share_from(i as f32 * 0.1, 2.0, 0.1);
        assert!(chain >= last);
        last = chain;
    }
}

/// A tail on the midline with a mirrored pair of plume chains (three bones
/// each, off the hips) running inside its root, each moving only a small
/// feather sheet of its own beside the tail, none of the tail's skin (the
/// phoenix's hair chains, `assets/phoenix_bird`). The plumes make the
/// tail's root near skin and cut its far skin where they end, so the far
/// part's nearest bone is a plume's, a limb joint: on main it hangs from
/// `Plume2L` and "follows its limb", no chain. The bones that move its skin
/// (the template rigger's shin and thigh, carried by the hips) say where it
/// hangs: one chain on the hips, only tail skin.
#[test]
fn a_tail_hangs_from_the_bones_that_move_it_not_from_plumes_inside_it() {
    let mut b = Builder::humanoid();
    let tail = b.add_tube(&tail_path(0.0), TAIL_R0, TAIL_R1, 40, 12, 1);
    b.weight_like_template_rigger(tail.clone());
    for (side, x) in [("L", 1.0f32), ("R", -1.0)] {
        let names = [format!("Plume0{side}"), format!("Plume1{side}"), format!("Plume2{side}")];
        let heads = [
            Vec3::new(0.015 * x, 1.0, -0.08),
            Vec3::new(0.015 * x, 0.97, -0.25),
            Vec3::new(0.015 * x, 0.92, -0.4),
        ];
        b.add_joint(&names[0], Some("Hips"), heads[0]);
        b.add_joint(&names[1], Some(&names[0]), heads[1]);
        b.add_joint(&names[2], Some(&names[1]), heads[2]);
        let sheet = b.add_sheet(
            Vec3::new(0.06 * x, 0.93, -0.3),
            Vec3::new(0.05 * x, 0.0, 0.0),
            Vec3::new(0.0, -0.02, -0.1),
            3,
            4,
        );
        b.weight_to(sheet, &names[2]);
    }
    let rig = b.build();
    let report = find_appendages(&rig, &DetectParams::default()).unwrap();
    let found = chains(&report);
    assert_eq!(found.len(), 1, "{}", report.to_json());
    let part = found[0];
    assert_eq!(part.attachment.as_deref(), Some("Hips"), "{}", part.reason);
    let (precision, recall) = precision_recall(&part.vertices, &tail);
    assert_eq!(precision, 1.0);
    assert!(recall >= 0.8, "recall {recall}");
}
