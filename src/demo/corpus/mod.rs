//! A seeded generator of rigged creatures with known answers (issue 12's
//! corpus): quadrupeds, bipeds and dinosaurs under six naming conventions
//! with decoy joints; tails from 5% to 130% of the height, thin to thick,
//! hanging, level or curled, welded, furred or a separate shell; capes,
//! skirts, ears and quivers; a template rigger's tail weights (on the legs,
//! the nearest bone, the pelvis or the spine); turned binds, Z-up and
//! centimetre files, unwelded soups and two characters in one file.
//!
//! [`case`] gives, for any seed, the degraded GLB (tail joints removed, the
//! rigger's weights: what caudal is asked to repair), the artist's GLB (the
//! same meshes in the same vertex order, with tail joints and smooth
//! weights) and the [`CaseTruth`]. Both files carry a looping walk and a
//! crouch that presses a hanging tail onto the floor. Everything is
//! deterministic per seed: its own PRNG, no clocks, no hash-map order.
//!
//! Seeds map to cases by [`CaseSpec::from_seed`]: every feature is drawn,
//! then one class is imposed round robin ([`FailureClass::of_seed`]), so
//! any 33 consecutive seeds impose each class once. [`case_forced`] imposes
//! any class on any seed (one test per class).

mod assemble;
mod body;
mod character;
mod classes;
mod glb;
mod mesh;
mod motion;
mod naming;
mod placement;
mod rigger;
mod rng;
mod skeleton;
mod spec;
mod tail;
mod truth;

pub use classes::FailureClass;
pub use motion::{CROUCH_DEPTH, CROUCH_DURATION, RATE, WALK_DURATION};
pub use spec::{
    CaseSpec, CharacterSpec, Layout, Naming, Rigger, TailMesh, TailShape, TailSpec, Units,
    LONG_TAIL, SHORT_TAIL, THICK_TAIL, THIN_TAIL,
};
pub use tail::FUR_SCALE;
pub use truth::{
    CaseTruth, CharacterTruth, DecoyTruth, PartTruth, PrimVertices, PrimitiveTruth, RolesTruth,
    TailTruth, FORMAT, TAIL_SHARE,
};

/// One generated case.
pub struct CorpusCase {
    /// The degraded file: what a template rigger delivers.
    pub glb: Vec<u8>,
    /// The artist's file: same meshes and vertex order, tail joints present.
    pub artist_glb: Vec<u8>,
    /// What the case holds, for the harness to check against.
    pub truth: CaseTruth,
}

/// The case of `seed` (its round-robin class imposed).
pub fn case(seed: u64) -> CorpusCase {
    build(&CaseSpec::from_seed(seed))
}

/// The case of `seed` with `class` imposed instead of the round-robin one.
pub fn case_forced(seed: u64, class: FailureClass) -> CorpusCase {
    build(&CaseSpec::forced(seed, class))
}

/// Builds any spec (tests construct some by hand).
pub fn build(spec: &CaseSpec) -> CorpusCase {
    let characters: Vec<character::Character> =
        spec.characters.iter().map(|c| character::build(c, spec.seams)).collect();
    let placement = placement::place(spec);
    let meshes: Vec<Vec<assemble::MeshAsm>> =
        characters.iter().map(|ch| assemble::assemble(ch, spec.tail_mesh, spec.unwelded)).collect();
    let motions: Vec<Vec<motion::Motion>> =
        characters.iter().map(|ch| vec![motion::walk(ch), motion::crouch(ch)]).collect();
    let degraded: Vec<Vec<Vec<mesh::Weights>>> = characters.iter().map(rigger::degrade).collect();
    let scene = glb::Scene {
        characters: &characters,
        placement: &placement,
        meshes: &meshes,
        motions: &motions,
        degraded: &degraded,
    };
    let glb_bytes = glb::write(&scene, false);
    let artist_glb = glb::write(&scene, true);
    let mut used = spec.clone();
    used.characters = characters.iter().map(|c| c.spec.clone()).collect();
    let mut mesh_base = 0;
    let truths = characters
        .iter()
        .enumerate()
        .map(|(i, ch)| {
            let t = truth::character_truth(
                ch,
                i,
                &meshes[i],
                mesh_base,
                &placement.core_from_model[i],
                placement.units_per_metre,
            );
            mesh_base += meshes[i].len();
            t
        })
        .collect();
    CorpusCase {
        glb: glb_bytes,
        artist_glb,
        truth: truth::case_truth(&used, truths, placement.units_per_metre),
    }
}
