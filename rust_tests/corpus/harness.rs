//! Runs today's pipeline (joint roles, appendage detection, chain growth)
//! on generated cases and measures each against its truth: chains found
//! against tails expected, the joint each chain hangs from, precision and
//! recall of the tail's vertices (a vertex is taken when at least 45% of
//! its weight is on the grown chain), grown joints inside the tail,
//! weighted bone distance, false chains on other parts, and roles. Prints
//! a table by failure class.

use std::collections::{BTreeMap, HashMap, HashSet};

use caudal::appendage::{detect, Decision, DetectParams, Report};
use caudal::chain::{grow_chains, ChainParams};
use caudal::demo::corpus::{
    self, CharacterTruth, CorpusCase, FailureClass, PrimVertices, TailTruth,
};
use caudal::geometry::SkeletonField;
use caudal::gltf_io::{self, Character, GltfModel};
use caudal::measure::weighted_bone_distance;
use caudal::rig::{JointRoles, RoleOverrides};
use caudal::Rig;
use glam::Vec3;

/// A vertex belongs to a chain when at least this share of its weight is on
/// the chain's joints (issue 12).
pub const TAKEN_SHARE: f32 = 0.45;
/// Precision and recall of each tail's vertices (issue 12).
pub const MIN_PRECISION: f32 = 0.95;
pub const MIN_RECALL: f32 = 0.95;
/// Weighted bone distance over the true tail must fall at least this much
/// (issue 12)...
pub const MIN_BONE_DISTANCE_DROP: f32 = 0.5;
/// ...or, where even the artist's own rig cannot halve it (a stubby, thick
/// tail on a rigger bone that already runs near it: 1 case in 2000), come
/// within this factor of the artist's.
pub const ARTIST_BONE_DISTANCE_SLACK: f32 = 1.05;
/// A grown joint lies inside the tail when it is at most this many local
/// skin radii from the true centre line (the shared fixtures' bar).
pub const MAX_JOINT_OFFSET: f32 = 1.0;
/// A chain taking more than this share of a covering's vertices is a false
/// chain on it.
pub const FALSE_CHAIN_SHARE: f32 = 0.1;

#[derive(Clone, Debug, Default)]
pub struct TailResult {
    pub chain: Option<String>,
    pub parent: Option<String>,
    pub precision: f32,
    pub recall: f32,
    pub worst_offset: f32,
    pub bone_distance: (f32, f32),
}

#[derive(Clone, Debug)]
pub struct Measured {
    pub seed: u64,
    pub classes: Vec<FailureClass>,
    pub tails: Vec<TailResult>,
    /// Short failure keys, one per failed bar.
    pub failures: Vec<&'static str>,
    /// Human-readable detail of each failure.
    pub details: Vec<String>,
}

impl Measured {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }

    /// No failure of the given family (`roles_*` or everything else).
    fn clean(&self, roles: bool) -> bool {
        self.failures.iter().all(|f| f.starts_with("roles_") != roles)
    }

    fn fail(&mut self, key: &'static str, detail: String) {
        self.failures.push(key);
        self.details.push(format!("{key}: {detail}"));
    }
}

/// The loaded character a truth character describes (by its skin).
pub fn character<'a>(model: &'a GltfModel, truth: &CharacterTruth) -> &'a Character {
    &model.characters[model.skins[truth.skin].character]
}

/// `f(seed, classes, character, truth)` over every character of `case` (its
/// classes joined by spaces), the results concatenated; nothing when the
/// case does not load. The diagnostics' common walk.
pub fn per_character<T>(
    seed: u64,
    case: &CorpusCase,
    f: impl Fn(u64, &str, &Character, &CharacterTruth) -> Vec<T>,
) -> Vec<T> {
    let Ok(model) = gltf_io::load_bytes(&case.glb, None, "corpus") else {
        return Vec::new();
    };
    let classes: Vec<&str> = case.truth.classes.iter().map(|c| c.name()).collect();
    let classes = classes.join(" ");
    case.truth
        .characters
        .iter()
        .flat_map(|ch| f(seed, &classes, character(&model, ch), ch))
        .collect()
}

/// Where `p` lies for the diagnostics: `far` from every bone, else the
/// role or region of its nearest bone.
pub fn region_near(field: &SkeletonField, roles: Option<&JointRoles>, far: f32, p: Vec3) -> String {
    let (d, s) = field.nearest(p);
    if d >= far {
        return "far".into();
    }
    let j = field.segments[s].joint;
    let Some(r) = roles else { return "?".into() };
    if r.thighs.contains(&Some(j)) {
        "thigh".into()
    } else if r.shins.contains(&Some(j)) {
        "shin".into()
    } else if r.pelvis == Some(j) {
        "pelvis".into()
    } else {
        format!("{:?}", r.regions[j]).to_lowercase()
    }
}

/// Character rig vertex indices of per-primitive lists.
pub fn rig_vertices(model: &Character, lists: &[PrimVertices]) -> Vec<u32> {
    let mut out = Vec::new();
    for l in lists {
        let p = model
            .primitives
            .iter()
            .find(|p| p.mesh == l.mesh && p.primitive == l.primitive)
            .unwrap_or_else(|| panic!("no primitive {}/{} in the loaded rig", l.mesh, l.primitive));
        out.extend(l.vertices.iter().map(|&v| (p.vertex_offset + v as usize) as u32));
    }
    out
}

/// The seeds a trace may look at. 0..600 since the corpus began; 40000..42000
/// from stop 44, when 600..2200 had failures left with no look-window case of
/// their kind (the fur shell's skin left on the body, recall 0.500): a fresh
/// window gave two, and 600..2200 stays held out. 40000..56000 from stop 45,
/// when the round stub's width across its own axis was measured on every
/// candidate part there (the rule was not kept) and the reversed chains were
/// traced.
pub const LOOK_WINDOWS: [std::ops::Range<u64>; 2] = [0..600, 40000..56000];

/// Refuses a diagnostic's seed range that is not inside one look window
/// ([`LOOK_WINDOWS`]), as [`trace_seeds`] refuses a list.
pub fn assert_look_window(seeds: &std::ops::Range<u64>) {
    assert!(
        LOOK_WINDOWS.iter().any(|w| w.start <= seeds.start && seeds.end <= w.end),
        "look windows only ({LOOK_WINDOWS:?})"
    );
}

/// How far the true tail's vertices reach from its centre line, in local
/// radii (the worst of [`offset_in_radii`]): the tail's `fur_scale` when
/// the truth and the mesh agree.
pub fn tail_reach_in_radii(model: &Character, tail: &TailTruth) -> f32 {
    rig_vertices(model, &tail.vertices)
        .iter()
        .map(|&v| offset_in_radii(model.rig.vertices()[v as usize], tail))
        .fold(0.0, f32::max)
}

/// Look-window seeds named in `CAUDAL_TRACE_SEEDS=a,b` for the ignored
/// diagnostics; a held-out seed is refused, so a trace cannot tune on it.
pub fn trace_seeds() -> Vec<u64> {
    let seeds: Vec<u64> = std::env::var("CAUDAL_TRACE_SEEDS")
        .unwrap_or_default()
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    assert!(
        seeds.iter().all(|&s| LOOK_WINDOWS.iter().any(|w| w.contains(&s))),
        "look windows only ({LOOK_WINDOWS:?})"
    );
    seeds
}

/// Each true tail vertex (character rig index) with its share along the
/// tail (`tail_u`: root 0, tip 1; NaN where the truth gives none).
pub fn tail_u_by_vertex(model: &Character, tail: &TailTruth) -> HashMap<u32, f32> {
    let mut u = HashMap::new();
    for l in &tail.vertices {
        let at = rig_vertices(model, std::slice::from_ref(l));
        for (i, v) in at.into_iter().enumerate() {
            u.insert(v, l.tail_u.get(i).copied().unwrap_or(f32::NAN));
        }
    }
    u
}

/// Distance from `p` to the true centre line (a separate shell's buried
/// start included), over the local skin radius.
pub fn offset_in_radii(p: Vec3, tail: &TailTruth) -> f32 {
    let mut line: Vec<(Vec3, f32)> = tail
        .centre_line
        .iter()
        .zip(&tail.centre_radius)
        .map(|(&q, &r)| (Vec3::from(q), r))
        .collect();
    if let Some(b) = tail.buried_start {
        line.insert(0, (Vec3::from(b), tail.root_radius));
    }
    let mut best = f32::INFINITY;
    for w in line.windows(2) {
        let ((a, ra), (b, rb)) = (w[0], w[1]);
        let ab = b - a;
        let t = ((p - a).dot(ab) / ab.length_squared().max(1e-12)).clamp(0.0, 1.0);
        best = best.min(p.distance(a + t * ab) / (ra + t * (rb - ra)));
    }
    best
}

/// Where `p` sits along the true centre line: the arc share of its nearest
/// point (root 0, tip 1; negative inside a separate shell's buried start or
/// behind a welded root, beyond 1 past the tip), for the joint_outside
/// detail.
pub fn arc_share(p: Vec3, tail: &TailTruth) -> f32 {
    let line: Vec<Vec3> = tail.centre_line.iter().map(|&q| Vec3::from(q)).collect();
    let n = line.len() - 1;
    // Arc along the line itself: its steps are only nearly even.
    let total: f32 = line.windows(2).map(|w| w[0].distance(w[1])).sum();
    let (mut best, mut at, mut acc) = (f32::INFINITY, 0.0, 0.0);
    for (i, w) in line.windows(2).enumerate() {
        let ab = w[1] - w[0];
        let t = (p - w[0]).dot(ab) / ab.length_squared().max(1e-12);
        let tc = if i == 0 && t < 0.0 || i == n - 1 && t > 1.0 { t } else { t.clamp(0.0, 1.0) };
        let d = p.distance(w[0] + tc.clamp(0.0, 1.0) * ab);
        if d < best {
            (best, at) = (d, (acc + tc * ab.length()) / total.max(1e-12));
        }
        acc += ab.length();
    }
    at
}

/// Where along the tail (its arc share, [`arc_share`]) a chain's root joint
/// and its end lie, when the root lies nearer the tip than the end does: a
/// chain hung from the wrong end, whose spring would swing the tail's root
/// about its tip. A joint just outside the skin is `joint_outside`; this is
/// worse, and a chain can run backwards with every joint inside the tail.
fn runs_backwards(out: &Rig, chain: &Chain, t: &TailTruth) -> Option<(f32, f32)> {
    let root = *chain.joints.first()?;
    let end = chain.end.or(chain.joints.last().copied())?;
    let (root_u, end_u) =
        (arc_share(out.bind_heads()[root], t), arc_share(out.bind_heads()[end], t));
    (root_u > end_u).then_some((root_u, end_u))
}

fn chain_joints(out: &Rig, bones: &[String]) -> Vec<usize> {
    bones.iter().filter_map(|b| out.joint_index(b)).collect()
}

/// Vertices with at least [`TAKEN_SHARE`] of their weight on `joints`.
fn taken(out: &Rig, joints: &[usize]) -> HashSet<u32> {
    (0..out.vertex_count())
        .filter(|&v| {
            let (js, ws) = out.influences().of(v);
            js.iter()
                .zip(ws)
                .filter(|(j, _)| joints.contains(&(**j as usize)))
                .map(|(_, w)| *w)
                .sum::<f32>()
                >= TAKEN_SHARE
        })
        .map(|v| v as u32)
        .collect()
}

/// The roles bars (`roles_*` failure keys) of one character.
pub fn check_roles(m: &mut Measured, rig: &Rig, truth: &CharacterTruth) {
    let roles = match JointRoles::find(rig, &RoleOverrides::default()) {
        Ok(r) => r,
        Err(e) => return m.fail("roles_pelvis", format!("roles failed: {e}")),
    };
    let name = |j: Option<usize>| j.map_or("-".to_string(), |j| rig.joint_names()[j].clone());
    let r = &truth.roles;
    if name(roles.pelvis) != r.pelvis {
        m.fail("roles_pelvis", format!("pelvis {} (truth {})", name(roles.pelvis), r.pelvis));
    }
    let legs = [
        (name(roles.thighs[0]), &r.thigh_left),
        (name(roles.thighs[1]), &r.thigh_right),
        (name(roles.shins[0]), &r.shin_left),
        (name(roles.shins[1]), &r.shin_right),
    ];
    if legs.iter().any(|(a, b)| a != *b) {
        let got: Vec<&String> = legs.iter().map(|l| &l.0).collect();
        m.fail(
            "roles_legs",
            format!(
                "thighs/shins {got:?} (truth {}, {}, {}, {})",
                r.thigh_left, r.thigh_right, r.shin_left, r.shin_right
            ),
        );
    }
    if name(roles.neck) != r.neck || name(roles.head) != r.head {
        m.fail(
            "roles_neck_head",
            format!(
                "neck {} head {} (truth {} {})",
                name(roles.neck),
                name(roles.head),
                r.neck,
                r.head
            ),
        );
    }
    let spine: Vec<String> = roles.spine.iter().map(|&j| rig.joint_names()[j].clone()).collect();
    if spine != r.spine {
        m.fail("roles_spine", format!("spine {spine:?} (truth {:?})", r.spine));
    }
}

/// A grown chain: its first bone's name, its bones and its end joint.
pub struct Chain {
    pub name: String,
    pub joints: Vec<usize>,
    pub end: Option<usize>,
}

/// Runs today's pipeline on one character's rig and scores it; `artist`
/// is the same character from the artist's file.
pub fn measure_character(
    m: &mut Measured,
    model: &Character,
    artist: &Character,
    truth: &CharacterTruth,
) {
    measure_rig(m, &model.rig, &Truth::of(model, artist, truth));
}

/// A character's truth with its parts as rig vertex lists: what [`score_rig`]
/// scores a repair against, on the loaded rig or on one derived from it
/// (the density diagnostic's subdivided mesh).
pub struct Truth<'a> {
    pub truth: &'a CharacterTruth,
    /// Each true tail's rig vertices.
    pub tails: Vec<HashSet<u32>>,
    /// Each other part's rig vertices (as [`rig_vertices`] lists them).
    pub others: Vec<Vec<u32>>,
    /// The artist's weighted bone distance over each true tail.
    pub artist: Vec<f32>,
}

impl<'a> Truth<'a> {
    /// The truth's parts on the loaded character's rig.
    pub fn of(model: &Character, artist: &Character, truth: &'a CharacterTruth) -> Self {
        Truth::with(model, truth, artist_bone_distances(model, artist, truth))
    }

    /// The truth's parts on the loaded character's rig, with the artist's
    /// bone distances given.
    pub fn with(model: &Character, truth: &'a CharacterTruth, artist: Vec<f32>) -> Self {
        Truth {
            truth,
            tails: truth
                .tails
                .iter()
                .map(|t| rig_vertices(model, &t.vertices).into_iter().collect())
                .collect(),
            others: truth.others.iter().map(|o| rig_vertices(model, &o.vertices)).collect(),
            artist,
        }
    }
}

/// Runs today's pipeline on `rig` (a character's, or one derived from it
/// with `truth`'s parts mapped onto it) and scores it.
pub fn measure_rig(m: &mut Measured, rig: &Rig, truth: &Truth) {
    let t = truth.truth;
    if (rig.height() - t.height).abs() > 1e-3 * t.height {
        m.fail("height", format!("rig height {} (truth {})", rig.height(), t.height));
    }
    check_roles(m, rig, t);
    let (out, report): (Rig, Report) = match grow_chains(rig, &ChainParams::default()) {
        Ok(x) => x,
        Err(e) => return m.fail("grow_error", e.to_string()),
    };
    if let Some(detail) = crate::common::vertex_listed_twice(&report, rig.vertex_count()) {
        m.fail("report_overlap", detail);
    }
    let chains = grown_chains(&out, &report);
    let rigid: Vec<(Option<String>, Vec<u32>)> = report
        .parts
        .iter()
        .filter(|p| p.decision == Decision::Rigid)
        .map(|p| (p.rigid_joint.clone(), p.vertices.clone()))
        .collect();
    score_rig(m, rig, &out, &chains, &rigid, truth);
}

/// The chains `report` grew on `out`, each with its joints root first and
/// its end joint.
pub fn grown_chains(out: &Rig, report: &Report) -> Vec<Chain> {
    report
        .chains()
        .map(|p| {
            let name = p.bones.first().cloned().unwrap_or_default();
            let end = out.joint_index(&format!("{}_End", name.trim_end_matches("_1")));
            Chain { joints: chain_joints(out, &p.bones), name, end }
        })
        .collect()
}

/// The artist's weighted bone distance over each true tail: what a perfect
/// repair reaches.
pub fn artist_bone_distances(
    model: &Character,
    artist: &Character,
    truth: &CharacterTruth,
) -> Vec<f32> {
    truth
        .tails
        .iter()
        .map(|t| {
            weighted_bone_distance(&artist.rig, &rig_vertices(model, &t.vertices))
                .unwrap_or(f32::NAN)
        })
        .collect()
}

/// Scores a repaired rig `out` (same vertices as `model`'s rig) with its
/// `chains` and the parts made `rigid` against the truth's bars; `artist`
/// holds the artist's bone distance per tail.
pub fn score(
    m: &mut Measured,
    model: &Character,
    out: &Rig,
    chains: &[Chain],
    rigid: &[(Option<String>, Vec<u32>)],
    truth: &CharacterTruth,
    artist: &[f32],
) {
    let t = Truth::with(model, truth, artist.to_vec());
    score_rig(m, &model.rig, out, chains, rigid, &t);
}

/// [`score`] on any `rig` the repair `out` was grown from, with the truth's
/// parts given as vertex lists of that rig.
pub fn score_rig(
    m: &mut Measured,
    rig: &Rig,
    out: &Rig,
    chains: &[Chain],
    rigid: &[(Option<String>, Vec<u32>)],
    truth: &Truth,
) {
    let artist = &truth.artist;
    let taken: Vec<HashSet<u32>> = chains.iter().map(|c| taken(out, &c.joints)).collect();
    let tails: Vec<(&HashSet<u32>, &TailTruth)> =
        truth.tails.iter().zip(&truth.truth.tails).collect();
    let mut matched = vec![None; chains.len()];
    for (ti, (set, t)) in tails.iter().enumerate() {
        let mut r = TailResult::default();
        let list: Vec<u32> = set.iter().copied().collect();
        let before = weighted_bone_distance(rig, &list).unwrap_or(f32::NAN);
        let after = weighted_bone_distance(out, &list).unwrap_or(f32::NAN);
        r.bone_distance = (before, after);
        let hits = |c: usize| taken[c].intersection(*set).count();
        let best = (0..chains.len()).max_by_key(|&c| hits(c)).filter(|&c| hits(c) > 0);
        let on_this: Vec<usize> =
            (0..chains.len()).filter(|&c| 2 * hits(c) > taken[c].len()).collect();
        match best {
            None => m.fail(
                "no_chain",
                format!("tail {ti}: no chain takes its vertices ({} chains in all)", chains.len()),
            ),
            Some(c) => {
                matched[c] = Some(ti);
                let chain = &chains[c];
                let hit = hits(c) as f32;
                r.chain = Some(chain.name.clone());
                r.precision = hit / taken[c].len() as f32;
                r.recall = hit / set.len() as f32;
                r.parent = out.parents()[chain.joints[0]].map(|p| out.joint_names()[p].clone());
                r.worst_offset = chain
                    .joints
                    .iter()
                    .chain(chain.end.iter())
                    .map(|&j| offset_in_radii(out.bind_heads()[j], t))
                    .fold(0.0, f32::max);
                if r.parent.as_deref() != Some(t.parent.as_str()) {
                    m.fail(
                        "wrong_parent",
                        format!("tail {ti}: chain hangs from {:?} (truth {})", r.parent, t.parent),
                    );
                }
                if r.precision < MIN_PRECISION {
                    m.fail("precision", format!("tail {ti}: precision {:.3}", r.precision));
                }
                if r.recall < MIN_RECALL {
                    m.fail("recall", format!("tail {ti}: recall {:.3}", r.recall));
                }
                if r.worst_offset > MAX_JOINT_OFFSET {
                    // Each joint, root to end: offset in local radii @ arc share.
                    let each: Vec<String> = chain
                        .joints
                        .iter()
                        .chain(chain.end.iter())
                        .map(|&j| {
                            let p = out.bind_heads()[j];
                            format!("{:.2}@{:.2}", offset_in_radii(p, t), arc_share(p, t))
                        })
                        .collect();
                    m.fail(
                        "joint_outside",
                        format!(
                            "tail {ti}: a grown joint {:.2} local radii off the centre line \
                             (joints {})",
                            r.worst_offset,
                            each.join(" ")
                        ),
                    );
                }
                if let Some((root_u, end_u)) = runs_backwards(out, chain, t) {
                    m.fail(
                        "reversed_chain",
                        format!(
                            "tail {ti}: the chain runs from {root_u:.2} to {end_u:.2} of the tail \
                             (root to tip is 0 to 1): hung from the wrong end"
                        ),
                    );
                }
                let bar = ((1.0 - MIN_BONE_DISTANCE_DROP) * before)
                    .max(ARTIST_BONE_DISTANCE_SLACK * artist[ti]);
                // Written so that a NaN distance fails too.
                #[allow(clippy::neg_cmp_op_on_partial_ord)]
                let too_far = !(after <= bar);
                if too_far {
                    m.fail("bone_distance", format!("tail {ti}: weighted bone distance {before:.4} -> {after:.4} (artist {:.4})", artist[ti]));
                }
                if on_this.len() > 1 {
                    m.fail("split_tail", format!("tail {ti}: {} chains on it", on_this.len()));
                    for &c in &on_this {
                        matched[c] = Some(ti);
                    }
                }
            }
        }
        m.tails.push(r);
    }
    for (c, chain) in chains.iter().enumerate() {
        if matched[c].is_some() {
            continue;
        }
        let set = &taken[c];
        let on = truth
            .others
            .iter()
            .zip(&truth.truth.others)
            .find(|(vs, _)| {
                vs.iter().filter(|v| set.contains(v)).count() as f32
                    > FALSE_CHAIN_SHARE * vs.len() as f32
            })
            .map_or("body", |(_, o)| o.kind);
        m.fail("false_chain", format!("chain {} on the {on} ({} vertices)", chain.name, set.len()));
    }
    for (vs, o) in truth.others.iter().zip(&truth.truth.others) {
        let vs: HashSet<&u32> = vs.iter().collect();
        for (joint, part) in rigid {
            let on = part.iter().filter(|v| vs.contains(v)).count();
            if o.expected == "untouched" && o.rigid_joint.is_none() && 2 * on > vs.len() {
                m.fail("rigid_garment", format!("the {} made rigid on {joint:?}", o.kind));
            }
        }
    }
}

/// Every case of `seeds` meets every bar (the first that does not is named
/// with its failures): what a test holding a fixed set of seeds asserts.
pub fn assert_cases_pass(seeds: &[u64]) {
    for &seed in seeds {
        let measured = measure(&corpus::case(seed));
        assert!(measured.passed(), "seed {seed}: {:?}", measured.details);
    }
}

/// Loads and measures one case, character by character.
pub fn measure(case: &CorpusCase) -> Measured {
    measure_with(case, measure_character)
}

/// Loads one case and measures it with `f(m, model, artist, truth)`,
/// character by character.
pub fn measure_with(
    case: &CorpusCase,
    f: impl Fn(&mut Measured, &Character, &Character, &CharacterTruth),
) -> Measured {
    let truth = &case.truth;
    let mut m = Measured {
        seed: truth.seed,
        classes: truth.classes.clone(),
        tails: Vec::new(),
        failures: Vec::new(),
        details: Vec::new(),
    };
    let (model, artist) = match (
        gltf_io::load_bytes(&case.glb, None, "corpus"),
        gltf_io::load_bytes(&case.artist_glb, None, "corpus artist"),
    ) {
        (Ok(x), Ok(a)) => (x, a),
        (x, a) => {
            m.fail(
                "load",
                format!(
                    "{:?} / {:?}",
                    x.err().map(|e| e.to_string()),
                    a.err().map(|e| e.to_string())
                ),
            );
            return m;
        }
    };
    if model.characters.len() != truth.characters.len() {
        m.fail(
            "characters",
            format!(
                "{} characters read, {} in the file",
                model.characters.len(),
                truth.characters.len()
            ),
        );
        return m;
    }
    for ch in &truth.characters {
        f(&mut m, character(&model, ch), character(&artist, ch), ch);
    }
    m
}

/// The table by failure class, plus an "all" row. "tails ok" counts cases
/// with no failure but of roles, "roles ok" those with no roles failure;
/// min P and min R are over the tails that got a chain.
pub fn table(results: &[Measured]) -> String {
    let mut rows: BTreeMap<(usize, String), Vec<&Measured>> = BTreeMap::new();
    for r in results {
        rows.entry((0, "all".into())).or_default().push(r);
        for c in &r.classes {
            let pos = FailureClass::ALL.iter().position(|x| x == c).unwrap() + 1;
            rows.entry((pos, c.name().into())).or_default().push(r);
        }
    }
    let mut s = format!(
        "{:<17} {:>5} {:>6} {:>8} {:>8} {:>6} {:>6}  {}\n",
        "class",
        "cases",
        "passed",
        "tails ok",
        "roles ok",
        "min P",
        "min R",
        "common failures (cases)"
    );
    for ((_, name), rs) in &rows {
        let measured: Vec<&&Measured> = rs.iter().collect();
        let passed = measured.iter().filter(|r| r.passed()).count();
        // Over the tails that got a chain (missing chains are counted as no_chain).
        let tails = measured.iter().flat_map(|r| r.tails.iter()).filter(|t| t.chain.is_some());
        let (mut min_p, mut min_r) = (f32::INFINITY, f32::INFINITY);
        for t in tails {
            min_p = min_p.min(t.precision);
            min_r = min_r.min(t.recall);
        }
        let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
        for r in &measured {
            let mut keys = r.failures.clone();
            keys.sort();
            keys.dedup();
            for k in keys {
                *reasons.entry(k).or_default() += 1;
            }
        }
        let mut reasons: Vec<(&str, usize)> = reasons.into_iter().collect();
        reasons.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        let common: Vec<String> = reasons.iter().take(4).map(|(k, n)| format!("{k} {n}")).collect();
        let fmt = |x: f32| if x.is_finite() { format!("{x:.3}") } else { "-".into() };
        s += &format!(
            "{:<17} {:>5} {:>6} {:>8} {:>8} {:>6} {:>6}  {}\n",
            name,
            rs.len(),
            passed,
            measured.iter().filter(|r| r.clean(false)).count(),
            measured.iter().filter(|r| r.clean(true)).count(),
            fmt(min_p),
            fmt(min_r),
            common.join(", ")
        );
    }
    // Every failure class of the "all" row, not only the 4 commonest: what
    // a change moved in the classes it was not meant to touch.
    let mut every: BTreeMap<&str, usize> = BTreeMap::new();
    for r in results {
        let mut keys = r.failures.clone();
        keys.sort();
        keys.dedup();
        for k in keys {
            *every.entry(k).or_default() += 1;
        }
    }
    let every: Vec<String> = every.iter().map(|(k, n)| format!("{k} {n}")).collect();
    s += &format!("every failure (cases): {}\n", every.join(", "));
    s
}

/// Every character of seed `seed` gets one chain part per tail, and the
/// case meets every bar: what a rule that mends one class of seeds asks of
/// each of them.
pub fn one_chain_per_tail_and_every_bar(seed: u64) {
    let case = corpus::case(seed);
    let found = per_character(seed, &case, |_, _, model, truth| {
        let d = detect(&model.rig, &DetectParams::default()).expect("detects");
        let chains = d.report.parts.iter().filter(|p| p.decision == Decision::Chain).count();
        vec![(chains, truth.tails.len())]
    });
    assert!(!found.is_empty(), "seed {seed}: no character");
    for (chains, tails) in found {
        assert_eq!(chains, tails, "seed {seed}: {chains} chain parts for {tails} tails");
    }
    let measured = measure(&case);
    assert!(measured.passed(), "seed {seed}: {:?}", measured.details);
}
