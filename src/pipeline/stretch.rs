//! The M1 table for a file's clip: the rig as delivered (original weights),
//! the tail rigid on the pelvis (T7, the harness's self-check: exactly 1),
//! the grown chain with its baked spring motion, and the body's own edges as
//! the baseline of ordinary skinning.

use rayon::prelude::*;

use crate::appendage::{Decision, Report};
use crate::bake::{
    apply_track, bake_clip, extend_clip, find_chains, BakeParams, BakedClip, LoopMode,
};
use crate::chain::{grow_chains, ChainParams};
use crate::error::{CaudalError, Result};
use crate::gltf_io::GltfModel;
use crate::measure::ground::crouch_clip;
use crate::measure::stretch::{
    check_samples, collar_band, lowest_point, mesh_stretch, stretch_report, MeshStretch, Played,
    StretchStats, TailMotion, COLLAR_BAND_DIAMETERS,
};
use crate::rig::{Clip, Influences, Rig, Trs};
use crate::spring::{self, carry_reference, TailChain, TailSpring};

/// One line of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct StretchRow {
    /// `original`, `rigid`, `chain`, `body` or `collar`.
    pub rig: String,
    /// Edge stretch ratios over the sampled times (skinned / bind length).
    pub stats: StretchStats,
    /// How much the tail moves (none for the body row).
    pub motion: Option<TailMotion>,
    /// Every sampled ratio, sorted.
    pub ratios: Vec<f32>,
}

/// The M1 table of one clip: rows, the bake behind the chain row, and the
/// whole-mesh view.
#[derive(Clone, Debug)]
pub struct StretchComparison {
    /// The file's clip measured.
    pub clip: String,
    /// Vertices of the detected tail.
    pub tail_vertices: usize,
    /// Edges with both ends on the tail.
    pub tail_edges: usize,
    /// Edges of the body (neither end on the tail).
    pub body_edges: usize,
    /// Edges in the collar band (the tail's root seam).
    pub collar_edges: usize,
    /// Times sampled over the clip.
    pub samples: usize,
    /// original, rigid, chain, body, collar (the chain rig's tail-body seam).
    pub rows: Vec<StretchRow>,
    /// The chain's bake of this clip (first chain).
    pub baked: BakedClip,
    /// Every edge of the mesh: rigid, rigger and repaired rows, what the
    /// repair tore, how far the body drifted.
    pub mesh: MeshStretch,
}

/// Depth of the generated crouch as a share of the model height `H`: a
/// quarter of the height sinks the pelvis of every fixture far enough for a
/// hanging or level tail to reach the floor, while two-bone legs can still
/// keep the feet planted.
pub const CROUCH_DEPTH_SHARE: f32 = 0.25;
/// Length of the generated crouch, seconds (a third going down, the rest held).
pub const CROUCH_SECONDS: f32 = 1.5;

/// The whole-mesh view of a generated crouch (`crouch_clip`) baked as a
/// one-shot: the tail meets the floor while the pelvis sinks.
#[derive(Clone, Debug, serde::Serialize)]
pub struct CrouchCheck {
    /// How far the pelvis sinks, model units ([`CROUCH_DEPTH_SHARE`] of `H`).
    pub depth: f32,
    /// The floor the spring met (world Y): the spring's own, or raised to
    /// half a tail thickness above the lowest point the rigid tail reaches
    /// in the crouch, whichever is higher.
    pub floor: f32,
    /// Every edge over every frame of the crouch.
    pub mesh: MeshStretch,
}

/// Vertices of every part the detection turned into a chain.
pub fn tail_vertices_of(report: &Report) -> Vec<u32> {
    let mut vs: Vec<u32> = report
        .parts
        .iter()
        .filter(|p| p.decision == Decision::Chain)
        .flat_map(|p| p.vertices.iter().copied())
        .collect();
    vs.sort_unstable();
    vs.dedup();
    vs
}

/// `rig` with every `tail` vertex weighted 1.0 on `pelvis` (SPEC T7).
pub fn rigid_rig(rig: &Rig, tail: &[u32], pelvis: usize) -> Result<Rig> {
    let mut rows: Vec<Vec<(u32, f32)>> = (0..rig.vertex_count())
        .map(|v| {
            let (j, w) = rig.influences().of(v);
            j.iter().copied().zip(w.iter().copied()).collect()
        })
        .collect();
    for &v in tail {
        rows[v as usize] = vec![(pelvis as u32, 1.0)];
    }
    let mut parts = rig.to_parts();
    let mut offsets = vec![0u32];
    let (mut joints, mut weights) = (Vec::new(), Vec::new());
    for r in &rows {
        joints.extend(r.iter().map(|p| p.0));
        weights.extend(r.iter().map(|p| p.1));
        offsets.push(joints.len() as u32);
    }
    parts.influences = Influences { offsets, joints, weights };
    Rig::new(parts)
}

/// Everything the table needs that does not depend on the clip: the grown
/// rig and its chains, the rigid variant, the tail's vertices.
pub struct StretchHarness<'a> {
    /// The file, as read.
    pub model: &'a GltfModel,
    /// The file's character measured.
    pub character: usize,
    /// The rig with its grown chains (the repair).
    pub grown: Rig,
    /// The rigger's rig with the tail weighted 1.0 on the anchor (SPEC T7).
    pub rigid: Rig,
    /// The grown chains, found by name.
    pub chains: Vec<TailChain>,
    /// Vertices of every part the detection turned into a chain, sorted.
    pub tail: Vec<u32>,
    /// How each clip is baked (spring parameters included).
    pub bake: BakeParams,
}

impl<'a> StretchHarness<'a> {
    /// Detects and grows the tail of character `character`'s rig (the rig
    /// as a template rigger delivered it).
    pub fn new(
        model: &'a GltfModel,
        character: usize,
        chain: &ChainParams,
        bake: &BakeParams,
    ) -> Result<Self> {
        bake.validate()?;
        let original = &model.character(character)?.rig;
        let (grown, report) = grow_chains(original, chain)?;
        let tail = tail_vertices_of(&report);
        if tail.is_empty() {
            return Err(CaudalError::not_found(
                "tail",
                format!(
                    "{}: no tail was detected on character {character}, nothing to measure",
                    model.label
                ),
            ));
        }
        let chains = find_chains(&grown)?;
        let rigid = rigid_rig(original, &tail, chains[0].anchor)?;
        Ok(StretchHarness { model, character, grown, rigid, chains, tail, bake: bake.clone() })
    }

    /// The table for `clip` at `samples` evenly spaced times, the
    /// whole-mesh rows following the detected tail.
    pub fn compare(&self, clip: &str, samples: usize) -> Result<StretchComparison> {
        self.compare_with(clip, samples, None)
    }

    /// Plays `sampled` (the original rig's joints) on the repaired rig with
    /// every chain baked in `mode`: the played clip, the rigid carry pose
    /// and the bakes.
    fn play(&self, sampled: &Clip, mode: LoopMode) -> Result<(Clip, Vec<Trs>, Vec<BakedClip>)> {
        let extended = extend_clip(sampled, &self.grown)?;
        let baked: Vec<BakedClip> = self
            .chains
            .iter()
            .map(|c| bake_clip(&self.grown, &extended, c, mode, &self.bake))
            .collect::<Result<_>>()?;
        let mut played = extended;
        let mut reference = self.grown.bind_locals();
        for (c, b) in self.chains.iter().zip(&baked) {
            played = apply_track(&played, &b.track)?;
            let carry = carry_reference(&self.grown, c, &self.bake.spring)?;
            for &j in &c.bones {
                reference[j] = carry[j];
            }
        }
        Ok((played, reference, baked))
    }

    /// The whole-mesh view of `sampled` against the rigid baseline and the
    /// rigger's rig, the rows following `truth` (the true tail's vertices)
    /// when given, else the detected tail.
    fn mesh_view(
        &self,
        sampled: &Clip,
        played: &Clip,
        reference: &[Trs],
        truth: Option<&[u32]>,
        samples: usize,
    ) -> Result<MeshStretch> {
        let original = &self.model.characters[self.character].rig;
        mesh_stretch(
            Played { rig: &self.rigid, clip: sampled },
            Played { rig: original, clip: sampled },
            Played { rig: &self.grown, clip: played },
            reference,
            truth.unwrap_or(&self.tail),
            self.chains[0].anchor,
            samples,
        )
    }

    /// The whole-mesh view of a crouch of [`CROUCH_DEPTH_SHARE`] of the
    /// height (every frame sampled): a tail pressing on the floor must bend
    /// at its own joints and leave the body where the rigger's skinning
    /// puts it.
    ///
    /// A level or curled tail never reaches the floor in a crouch its legs
    /// can make, so the floor is raised (SPEC C's "raised floor") to half a
    /// tail-root thickness above the lowest point the rigid tail reaches:
    /// about where the tail's centre line (which the spring keeps above the
    /// floor) runs there, so the tail rests on the floor whatever pose it
    /// was modelled in; a level tail lies along it.
    pub fn crouch(&self, truth: Option<&[u32]>) -> Result<CrouchCheck> {
        let original = &self.model.characters[self.character].rig;
        let depth = CROUCH_DEPTH_SHARE * original.height();
        // The character's own up (the ground it stands on, when its file is
        // pitched): the crouch sinks along it and the floor is raised along
        // it, as the spring's floor lies.
        let (up, forward) = spring::body_frame(&self.grown, &self.bake.spring);
        let sampled = crouch_clip(original, depth, CROUCH_SECONDS, self.bake.rate, up, forward)?;
        let tail = truth.unwrap_or(&self.tail);
        let anchor = self.chains[0].anchor;
        let radius = collar_band(&self.grown, tail, anchor, COLLAR_BAND_DIAMETERS)?.root_radius;
        let rigid_lowest = lowest_point(&self.rigid, &sampled, tail, up);
        let own_spring =
            TailSpring::new(&self.grown, self.chains[0].clone(), self.bake.spring.clone())?;
        let (units, ground) = (own_spring.units_per_metre(), own_spring.ground());
        let spring = &self.bake.spring;
        let own = ground + (spring.floor_height + spring.clearance) * units;
        let floor = own.max(rigid_lowest + radius);
        let raised = self.clone_with_floor((floor - ground) / units - spring.clearance);
        let (played, reference, _) = raised.play(&sampled, LoopMode::Once)?;
        let mesh = self.mesh_view(&sampled, &played, &reference, truth, sampled.frame_count())?;
        Ok(CrouchCheck { depth, floor, mesh })
    }

    fn clone_with_floor(&self, floor_height: f32) -> StretchHarness<'a> {
        let mut bake = self.bake.clone();
        bake.spring.floor_height = floor_height;
        StretchHarness {
            model: self.model,
            character: self.character,
            grown: self.grown.clone(),
            rigid: self.rigid.clone(),
            chains: self.chains.clone(),
            tail: self.tail.clone(),
            bake,
        }
    }

    /// [`Self::compare`], the whole-mesh rows following `truth` (the true
    /// tail's vertex ids) when given.
    pub fn compare_with(
        &self,
        clip: &str,
        samples: usize,
        truth: Option<&[u32]>,
    ) -> Result<StretchComparison> {
        check_samples(samples)?;
        if let Some(t) = truth {
            self.grown.check_vertices("truth", t)?;
            if t.is_empty() {
                return Err(CaudalError::shape("truth", "the true tail has no vertices"));
            }
        }
        let sampled = self.model.sample_clip(self.character, clip, self.bake.rate)?;
        let mode = self.bake.loop_mode(clip);
        let (played, reference, baked) = self.play(&sampled, mode)?;
        let mesh = self.mesh_view(&sampled, &played, &reference, truth, samples)?;
        let anchor = self.chains[0].anchor;
        let jobs: Vec<(&Rig, &Clip, Option<&[Trs]>)> = vec![
            (&self.model.characters[self.character].rig, &sampled, None),
            (&self.rigid, &sampled, None),
            (&self.grown, &played, Some(&reference)),
        ];
        let reports = jobs
            .par_iter()
            .map(|(rig, clip, reference)| {
                stretch_report(rig, clip, &self.tail, anchor, *reference, samples)
            })
            .collect::<Result<Vec<_>>>()?;
        let row = |name: &str, i: usize| StretchRow {
            rig: name.into(),
            stats: reports[i].tail.clone(),
            motion: Some(reports[i].motion.clone()),
            ratios: reports[i].tail_ratios.clone(),
        };
        let rows = vec![
            row("original", 0),
            row("rigid", 1),
            row("chain", 2),
            StretchRow {
                rig: "body".into(),
                stats: reports[2].body.clone(),
                motion: None,
                ratios: reports[2].body_ratios.clone(),
            },
            StretchRow {
                rig: "collar".into(),
                stats: reports[2].collar.clone(),
                motion: None,
                ratios: reports[2].collar_ratios.clone(),
            },
        ];
        Ok(StretchComparison {
            clip: clip.to_string(),
            tail_vertices: self.tail.len(),
            tail_edges: reports[2].tail_edges,
            body_edges: reports[2].body_edges,
            collar_edges: reports[2].collar_edges,
            samples,
            rows,
            baked: baked.into_iter().next().expect("at least one chain"),
            mesh,
        })
    }
}

/// The table for one clip of character `character` of `model` with
/// default detection and bake.
pub fn compare_stretch(
    model: &GltfModel,
    character: usize,
    clip: &str,
    samples: usize,
) -> Result<StretchComparison> {
    StretchHarness::new(model, character, &ChainParams::default(), &BakeParams::default())?
        .compare(clip, samples)
}
