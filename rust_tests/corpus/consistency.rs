//! What must hold of every generated case whatever detection does: it is
//! deterministic, both files load, and its truth agrees with the files
//! (heights, joints, primitives, the tail where the tube was put, the tail
//! set being exactly the artist's "more than half on tail joints").

use std::collections::HashSet;

use caudal::demo::corpus::{self, CharacterTruth, CorpusCase, FORMAT, TAIL_SHARE};
use caudal::gltf_io::{self, Character};
use glam::Vec3;

use super::harness::{character, rig_vertices, tail_reach_in_radii};

fn check(ok: bool, what: impl FnOnce() -> String, problems: &mut Vec<String>) {
    if !ok {
        problems.push(what());
    }
}

/// Every problem found with one case (empty when consistent).
pub fn problems(seed: u64, case: &CorpusCase) -> Vec<String> {
    let mut p = Vec::new();
    let again = corpus::case(seed);
    check(
        again.glb == case.glb && again.artist_glb == case.artist_glb,
        || "not deterministic: bytes differ".into(),
        &mut p,
    );
    check(
        again.truth.to_json() == case.truth.to_json(),
        || "not deterministic: truth differs".into(),
        &mut p,
    );
    let t = &case.truth;
    check(t.format == FORMAT && t.seed == seed, || "format or seed".into(), &mut p);
    check(
        !t.classes.is_empty() && t.classes == t.spec.classes(),
        || "classes disagree with the spec".into(),
        &mut p,
    );
    for bytes in [&case.glb, &case.artist_glb] {
        if let Err(e) = gltf::Gltf::from_slice(bytes) {
            p.push(format!("not a valid glTF document: {e}"));
        }
    }
    check(
        t.characters.iter().map(|c| c.skin).collect::<Vec<_>>()
            == (0..t.characters.len()).collect::<Vec<_>>(),
        || "skins".into(),
        &mut p,
    );
    let (model, artist) = match (
        gltf_io::load_bytes(&case.glb, None, "corpus"),
        gltf_io::load_bytes(&case.artist_glb, None, "corpus artist"),
    ) {
        (Ok(m), Ok(a)) => (m, a),
        (m, a) => {
            p.push(format!(
                "load: {:?} / {:?}",
                m.err().map(|e| e.to_string()),
                a.err().map(|e| e.to_string())
            ));
            return p;
        }
    };
    check(
        model.characters.len() == t.characters.len()
            && artist.characters.len() == t.characters.len(),
        || "characters read".into(),
        &mut p,
    );
    if p.is_empty() {
        for c in &t.characters {
            consistent_character(c, character(&model, c), character(&artist, c), &mut p);
        }
    }
    p
}

fn consistent_character(
    c: &CharacterTruth,
    model: &Character,
    artist: &Character,
    p: &mut Vec<String>,
) {
    let rig = &model.rig;
    check(
        (rig.height() - c.height).abs() <= 1e-4 * c.height,
        || format!("height {} vs truth {}", rig.height(), c.height),
        p,
    );
    check((artist.rig.height() - c.height).abs() <= 1e-4 * c.height, || "artist height".into(), p);
    check(
        rig.joint_count() == c.joints && artist.rig.joint_count() == c.artist_joints,
        || "joint counts".into(),
        p,
    );
    let r = &c.roles;
    let mut names = vec![
        &c.pelvis,
        &r.pelvis,
        &r.neck,
        &r.head,
        &r.thigh_left,
        &r.thigh_right,
        &r.shin_left,
        &r.shin_right,
    ];
    names.extend(r.spine.iter());
    names.extend(c.decoys.iter().map(|d| &d.joint));
    names.extend(c.tails.iter().map(|t| &t.parent));
    for n in names {
        check(
            rig.joint_index(n).is_some() && artist.rig.joint_index(n).is_some(),
            || format!("joint {n} missing"),
            p,
        );
    }
    check(c.pelvis == r.pelvis, || "pelvis".into(), p);
    let weighted: HashSet<u32> = rig.influences().joints.iter().copied().collect();
    for d in &c.decoys {
        let j = rig.joint_index(&d.joint).map(|j| j as u32);
        check(
            j.is_some_and(|j| weighted.contains(&j)) == d.weighted,
            || format!("decoy {} weighted flag", d.joint),
            p,
        );
    }
    for pt in &c.primitives {
        let found =
            model.primitives.iter().find(|q| q.mesh == pt.mesh && q.primitive == pt.primitive);
        check(
            found.is_some_and(|q| q.vertex_count == pt.vertex_count),
            || format!("primitive {}/{}", pt.mesh, pt.primitive),
            p,
        );
    }
    let total: usize = c.primitives.iter().map(|q| q.vertex_count).sum();
    check(total == rig.vertex_count(), || "primitives do not cover the rig".into(), p);
    for tail in &c.tails {
        check(
            tail.artist_joints
                .iter()
                .all(|n| rig.joint_index(n).is_none() && artist.rig.joint_index(n).is_some()),
            || "tail joints".into(),
            p,
        );
        let vs = rig_vertices(model, &tail.vertices);
        check(vs.len() == tail.vertex_count && !vs.is_empty(), || "tail vertex count".into(), p);
        let us: Vec<f32> = tail.vertices.iter().flat_map(|l| l.tail_u.iter().copied()).collect();
        check(us.len() == vs.len(), || "tail_u per tail vertex".into(), p);
        check(
            us.iter().all(|&u| u >= 0.0) || tail.buried_start.is_some(),
            || "buried vertices without a buried start".into(),
            p,
        );
        let worst = tail_reach_in_radii(model, tail);
        check(
            worst <= tail.fur_scale * 1.03,
            || format!("a tail vertex lies {worst:.2} local radii off the centre line"),
            p,
        );
        // And the truth's fur_scale is what the tail reaches, not a loose bound.
        check(
            worst >= tail.fur_scale / 1.03,
            || format!("the tail reaches only {worst:.2} local radii, short of its fur_scale"),
            p,
        );
        let set: HashSet<u32> = vs.iter().copied().collect();
        let ring = rig_vertices(model, &tail.root_ring);
        check(
            !ring.is_empty() && ring.iter().all(|v| set.contains(v)),
            || "root ring not on the tail".into(),
            p,
        );
        check(
            rig_vertices(model, &tail.collar).iter().all(|v| !set.contains(v)),
            || "collar on the tail".into(),
            p,
        );
        let line: Vec<Vec3> = tail.centre_line.iter().map(|&q| Vec3::from(q)).collect();
        let length: f32 = line.windows(2).map(|w| w[0].distance(w[1])).sum();
        check(
            (length - tail.length).abs() <= 0.02 * tail.length,
            || format!("centre line {length} vs length {}", tail.length),
            p,
        );
        // The truth's rule, read back from the artist's file.
        let tail_joints: Vec<u32> = tail
            .artist_joints
            .iter()
            .filter_map(|n| artist.rig.joint_index(n))
            .map(|j| j as u32)
            .collect();
        for v in 0..artist.rig.vertex_count() {
            let (js, ws) = artist.rig.influences().of(v);
            let share: f32 =
                js.iter().zip(ws).filter(|(j, _)| tail_joints.contains(j)).map(|(_, w)| *w).sum();
            if (share > TAIL_SHARE) != set.contains(&(v as u32)) {
                p.push(format!("vertex {v}: artist tail share {share} disagrees with the truth"));
                break;
            }
        }
        for o in &c.others {
            check(
                rig_vertices(model, &o.vertices).iter().all(|v| !set.contains(v)),
                || format!("{} overlaps the tail", o.kind),
                p,
            );
        }
    }
}

/// The artist's own rig, scored as if it were the repair: the bars are
/// reachable on every case, and the harness measures them right. (Its
/// bone distance meets the bar by construction where the bar falls back
/// on it; elsewhere it halves the rigger's, as it does on 1999 in 2000.)
pub fn artist_meets_the_bars(case: &CorpusCase) -> Result<(), String> {
    use super::harness::{artist_bone_distances, score, Chain, Measured};
    let t = &case.truth;
    let (model, artist) = (
        gltf_io::load_bytes(&case.glb, None, "corpus").unwrap(),
        gltf_io::load_bytes(&case.artist_glb, None, "artist").unwrap(),
    );
    let mut m = Measured {
        seed: t.seed,
        classes: t.classes.clone(),
        tails: Vec::new(),
        failures: Vec::new(),
        details: Vec::new(),
    };
    for c in &t.characters {
        let (model, artist) = (character(&model, c), character(&artist, c));
        let chains: Vec<Chain> = c
            .tails
            .iter()
            .map(|tail| {
                let joints: Vec<usize> =
                    tail.artist_joints.iter().map(|n| artist.rig.joint_index(n).unwrap()).collect();
                let (end, bones) = joints.split_last().unwrap();
                Chain {
                    name: tail.artist_joints[0].clone(),
                    joints: bones.to_vec(),
                    end: Some(*end),
                }
            })
            .collect();
        score(
            &mut m,
            model,
            &artist.rig,
            &chains,
            &[],
            c,
            &artist_bone_distances(model, artist, c),
        );
    }
    if m.passed() {
        Ok(())
    } else {
        Err(format!("seed {}: the artist's rig fails: {}", t.seed, m.details.join("; ")))
    }
}
