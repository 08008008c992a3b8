//! Scoring a transfer the way a player shows it, against a known answer:
//! the solved clip played (LINEAR keys) at given times, and the target's
//! own mesh skinned by the *source's* joints at the same times (the exact
//! answer when the target's weights came from the source, as on the
//! repository's re-meshed targets). Used by the tests, the examples and the
//! tables of docs/solve.md; also what a user with such a target can check a transfer
//! with.

use std::collections::HashMap;
use std::path::Path;

use glam::DVec3;

use super::frames::{play, skin_points, skinning64, worlds64};
use crate::error::{CaudalError, Result};
use crate::rig::{Clip, Rig};

/// Quality and worst vertex of played poses against wanted ones.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Score {
    /// `1 - sum |got - want| / sum |want - rest|` (the transfer quality
    /// formula, against the known answer).
    pub quality: f64,
    /// Mean vertex error, fraction of the target's diagonal.
    pub mean: f64,
    /// Largest vertex error, fraction of the target's diagonal.
    pub worst: f64,
}

/// For each target joint, the source joint of the same name, after
/// `rename` (target name to source name; names it lacks are kept).
pub fn joint_map(
    source: &Rig,
    target: &Rig,
    rename: impl Fn(&str) -> Option<String>,
) -> Result<Vec<usize>> {
    target
        .joint_names()
        .iter()
        .map(|n| {
            let original = rename(n).unwrap_or_else(|| n.clone());
            source.joint_index(&original).ok_or_else(|| CaudalError::UnknownJoint {
                field: "target joint names".into(),
                name: original,
            })
        })
        .collect()
}

/// The joint renames recorded in a re-meshed target's truth file
/// (`<Name>_<kind>.truth.json` beside the target, written by
/// scripts/make_remeshed_targets.py): target joint name to source joint
/// name, as [`joint_map`]'s `rename` reads them.
pub fn truth_renames(path: &Path) -> Result<HashMap<String, String>> {
    let text = std::fs::read_to_string(path).map_err(|e| CaudalError::io(path, e))?;
    let label = path.display().to_string();
    let bad = |m: String| CaudalError::param("truth", format!("{label}: {m}"));
    let truth: serde_json::Value = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
    let names = truth["joint_names"].as_object().ok_or_else(|| bad("no joint_names".into()))?;
    names
        .iter()
        .map(|(k, v)| match v.as_str() {
            Some(v) => Ok((k.clone(), v.to_string())),
            None => Err(bad(format!("joint_names.{k} is not a name"))),
        })
        .collect()
}

/// The target's mesh skinned by the source's joints (through `map`) at each
/// frame of `source_clip`.
pub fn exact(source: &Rig, source_clip: &Clip, target: &Rig, map: &[usize]) -> Vec<Vec<DVec3>> {
    (0..source_clip.frame_count())
        .map(|f| {
            let s = skinning64(source, &worlds64(source, source_clip.frame(f)));
            let mapped: Vec<_> = map.iter().map(|&k| s[k]).collect();
            let mut out = Vec::new();
            skin_points(target, &mapped, &mut out);
            out
        })
        .collect()
}

/// `clip` played on `rig` at each of `times`.
pub fn played(rig: &Rig, clip: &Clip, times: &[f32]) -> Vec<Vec<DVec3>> {
    times
        .iter()
        .map(|&t| {
            let mut out = Vec::new();
            skin_points(rig, &skinning64(rig, &worlds64(rig, &play(clip, t))), &mut out);
            out
        })
        .collect()
}

/// Transfer quality, mean and worst vertex error (fractions of the
/// diagonal) of the poses `got` against `want` on `rig`.
pub fn score(rig: &Rig, got: &[Vec<DVec3>], want: &[Vec<DVec3>]) -> Score {
    let rest = rig.vertices();
    let diag = (rig.diagonal() as f64).max(f64::MIN_POSITIVE);
    let (mut err, mut motion, mut worst, mut count) = (0.0, 0.0, 0.0f64, 0usize);
    for (g, w) in got.iter().zip(want) {
        for v in 0..rest.len() {
            let e = (g[v] - w[v]).length();
            err += e;
            worst = worst.max(e);
            motion += (w[v] - rest[v].as_dvec3()).length();
            count += 1;
        }
    }
    let quality = if motion > 0.0 {
        1.0 - err / motion
    } else if err == 0.0 {
        1.0
    } else {
        0.0
    };
    Score { quality, mean: err / count.max(1) as f64 / diag, worst: worst / diag }
}
