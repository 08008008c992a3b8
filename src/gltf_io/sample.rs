//! Animation sampling: any glTF animation (STEP, LINEAR, CUBICSPLINE on
//! translation, rotation, scale) into per-frame local TRS of every rig joint.

use std::collections::HashMap;

use glam::{Mat4, Quat, Vec3, Vec4};

use gltf::accessor::Dimensions;

use super::accessor::{self, Source};
use super::budget::Budget;
use super::read::{Character, GltfModel};
use crate::error::{CaudalError, Result};
use crate::rig::{Clip, Trs};

/// Frames per second when the caller does not choose: the rate most DCC
/// tools and the Quaternius clips use.
pub const DEFAULT_SAMPLE_RATE: f32 = 30.0;

/// Most keys per second when a clip is sampled at its own key times
/// ([`GltfModel::sample_clip_at_keys`]): twice the 60 Hz a game draws at,
/// so channels keyed on 24, 30 or 60 Hz grids keep every key, while times
/// closer than 1/120 s (float rounding, two grids almost agreeing) merge.
pub const DEFAULT_MAX_KEY_RATE: f32 = 120.0;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Interp {
    Step,
    Linear,
    Cubic,
}

#[derive(Clone, Debug)]
struct Track {
    times: Vec<f32>,
    /// For CUBICSPLINE: [in-tangent, value, out-tangent] per key.
    values: Vec<Vec4>,
    interp: Interp,
}

impl Track {
    fn key_value(&self, k: usize) -> Vec4 {
        match self.interp {
            Interp::Cubic => self.values[3 * k + 1],
            _ => self.values[k],
        }
    }

    /// Value at time `t`; `rotation` selects slerp for LINEAR.
    fn sample(&self, t: f32, rotation: bool) -> Vec4 {
        let n = self.times.len();
        if n == 1 || t <= self.times[0] {
            return self.key_value(0);
        }
        if t >= self.times[n - 1] {
            return self.key_value(n - 1);
        }
        let k = self.times.partition_point(|&x| x <= t).saturating_sub(1).min(n - 2);
        let (t0, t1) = (self.times[k], self.times[k + 1]);
        let dt = t1 - t0;
        let u = if dt > 0.0 { (t - t0) / dt } else { 0.0 };
        match self.interp {
            Interp::Step => self.key_value(k),
            Interp::Linear => {
                let (a, b) = (self.values[k], self.values[k + 1]);
                if rotation {
                    let qa = Quat::from_vec4(a).normalize();
                    let qb = Quat::from_vec4(b).normalize();
                    Vec4::from(qa.slerp(qb, u))
                } else {
                    a.lerp(b, u)
                }
            }
            Interp::Cubic => {
                let p0 = self.values[3 * k + 1];
                let m0 = self.values[3 * k + 2] * dt;
                let p1 = self.values[3 * (k + 1) + 1];
                let m1 = self.values[3 * (k + 1)] * dt;
                let (u2, u3) = (u * u, u * u * u);
                p0 * (2.0 * u3 - 3.0 * u2 + 1.0)
                    + m0 * (u3 - 2.0 * u2 + u)
                    + p1 * (-2.0 * u3 + 3.0 * u2)
                    + m1 * (u3 - u2)
            }
        }
    }
}

#[derive(Default, Clone, Debug)]
struct NodeTracks {
    translation: Option<Track>,
    rotation: Option<Track>,
    scale: Option<Track>,
}

impl GltfModel {
    fn tracks_of(
        &self,
        animations: &[usize],
        budget: &Budget,
    ) -> Result<(HashMap<usize, NodeTracks>, f32)> {
        let src = Source { buffers: &self.buffers, label: &self.label, budget };
        let mut out: HashMap<usize, NodeTracks> = HashMap::new();
        let mut duration = 0f32;
        for &ai in animations {
            let anim = self
                .doc
                .animations()
                .nth(ai)
                .ok_or_else(|| CaudalError::not_found("clip", format!("no animation {ai}")))?;
            for ch in anim.channels() {
                use gltf::animation::Property;
                let where_ = format!("animation {ai} channel {}", ch.index());
                let property = ch.target().property();
                if property == Property::MorphTargetWeights {
                    continue;
                }
                // Through the checked reader: every offset and count is
                // tested against the file before a byte is read.
                let input = ch.sampler().input();
                accessor::expect_dims(
                    &input,
                    &src,
                    &[Dimensions::Scalar],
                    &format!("{where_} input"),
                )?;
                let times = accessor::floats(&input, &src, &format!("{where_} input"))?;
                if times.is_empty()
                    || times.iter().any(|t| !t.is_finite())
                    || times.windows(2).any(|w| w[1] < w[0])
                {
                    return Err(CaudalError::gltf(
                        &self.label,
                        format!("{where_}: key times must be finite and increasing"),
                    ));
                }
                let interp = match ch.sampler().interpolation() {
                    gltf::animation::Interpolation::Step => Interp::Step,
                    gltf::animation::Interpolation::Linear => Interp::Linear,
                    gltf::animation::Interpolation::CubicSpline => Interp::Cubic,
                };
                let output = ch.sampler().output();
                let what = format!("{where_} output");
                // Rotations may be normalized integers (dequantized by the reader).
                let values: Vec<Vec4> = if property == Property::Rotation {
                    accessor::expect_dims(&output, &src, &[Dimensions::Vec4], &what)?;
                    accessor::floats(&output, &src, &what)?
                        .chunks_exact(4)
                        .map(Vec4::from_slice)
                        .collect()
                } else {
                    accessor::expect_dims(&output, &src, &[Dimensions::Vec3], &what)?;
                    accessor::floats(&output, &src, &what)?
                        .chunks_exact(3)
                        .map(|c| Vec3::from_slice(c).extend(0.0))
                        .collect()
                };
                let per_key = if interp == Interp::Cubic { 3 } else { 1 };
                if values.len() != times.len() * per_key {
                    return Err(CaudalError::gltf(
                        &self.label,
                        format!(
                            "{where_}: {} output values for {} keys",
                            values.len(),
                            times.len()
                        ),
                    ));
                }
                if values.iter().any(|v| !v.is_finite()) {
                    return Err(CaudalError::gltf(
                        &self.label,
                        format!("{where_}: non-finite output value"),
                    ));
                }
                duration = duration.max(*times.last().unwrap());
                let track = Track { times, values, interp };
                let entry = out.entry(ch.target().node().index()).or_default();
                match property {
                    Property::Translation => entry.translation = Some(track),
                    Property::Rotation => entry.rotation = Some(track),
                    Property::Scale => entry.scale = Some(track),
                    Property::MorphTargetWeights => {}
                }
            }
        }
        Ok((out, duration))
    }

    /// Samples one animation by name at about `rate` frames per second,
    /// for character `character`'s joints.
    pub fn sample_clip(&self, character: usize, name: &str, rate: f32) -> Result<Clip> {
        let i = self.animation_index(name)?;
        self.sample_together(character, &[i], rate, name)
    }

    /// Samples several animations played together (CesiumMan stores one
    /// walk as 19 one-joint animations). Frames span exactly
    /// `[0, duration]`: the count is `round(duration * rate) + 1` and the
    /// clip's rate is adjusted so the last frame lands on the end, which
    /// keeps loop ends comparable. The keys read and the frames sampled
    /// are charged to the load's budget ([`super::LoadOptions::max_bytes`]):
    /// a key at 10^7 s or a rate of 10^9 is a `ParameterError` naming the
    /// rate, before the frames are allocated.
    pub fn sample_together(
        &self,
        character: usize,
        animations: &[usize],
        rate: f32,
        name: &str,
    ) -> Result<Clip> {
        let ch = self.character(character)?;
        if !(rate.is_finite() && rate > 0.0) {
            return Err(CaudalError::param(
                "rate",
                format!("sample rate must be positive, got {rate}"),
            ));
        }
        let budget = Budget::new(self.options.max_bytes);
        let (tracks, duration) = self.tracks_of(animations, &budget)?;
        let frames = crate::rig::clip_frames(
            duration,
            rate,
            ch.rig.joint_count(),
            self.options.max_bytes.saturating_sub(budget.used()),
        )?;
        let actual_rate = if frames > 1 { (frames - 1) as f32 / duration } else { rate };
        let times: Vec<f32> = (0..frames)
            .map(|f| if frames > 1 { duration * f as f32 / (frames - 1) as f32 } else { 0.0 })
            .collect();
        Clip::new(
            name,
            actual_rate,
            duration,
            ch.rig.joint_count(),
            self.locals_at(ch, &tracks, &times),
        )
    }

    /// Samples one animation at its own key times, for character
    /// `character`'s joints: the union of every channel's key times,
    /// thinned so that no two keys are closer than `1 / max_key_rate`
    /// seconds (channels keyed on different grids, or times a rounding
    /// apart, would otherwise multiply the keys). Where the source's keys
    /// are LINEAR, a clip keyed at these times and played back linearly is
    /// the source's own motion between keys too.
    pub fn sample_clip_at_keys(
        &self,
        character: usize,
        name: &str,
        max_key_rate: f32,
    ) -> Result<Clip> {
        let ch = self.character(character)?;
        if !(max_key_rate.is_finite() && max_key_rate > 0.0) {
            return Err(CaudalError::param(
                "max_key_rate",
                format!("must be positive, got {max_key_rate}"),
            ));
        }
        let i = self.animation_index(name)?;
        let budget = Budget::new(self.options.max_bytes);
        let (tracks, _) = self.tracks_of(&[i], &budget)?;
        let mut all: Vec<f32> = tracks
            .values()
            .flat_map(|n| [&n.translation, &n.rotation, &n.scale])
            .flatten()
            .flat_map(|t| t.times.iter().copied())
            .collect();
        all.sort_by(f32::total_cmp);
        let times = thin_key_times(&all, 1.0 / max_key_rate);
        let what = format!("{} keys of {} joints", times.len(), ch.rig.joint_count());
        let bytes = crate::limits::bytes_of(
            (times.len() * ch.rig.joint_count()) as f64,
            std::mem::size_of::<Trs>(),
        );
        crate::limits::check_bytes(
            "max_key_rate",
            &what,
            bytes,
            self.options.max_bytes.saturating_sub(budget.used()),
        )?;
        if times.len() < 2 {
            let t = [times.first().copied().unwrap_or(0.0)];
            return Clip::new(
                name,
                1.0,
                0.0,
                ch.rig.joint_count(),
                self.locals_at(ch, &tracks, &t),
            );
        }
        let locals = self.locals_at(ch, &tracks, &times);
        Clip::keyed(name, times, ch.rig.joint_count(), locals)
    }

    /// Local TRS of every joint of `ch` at each of `times`, frame-major.
    fn locals_at(
        &self,
        ch: &Character,
        tracks: &HashMap<usize, NodeTracks>,
        times: &[f32],
    ) -> Vec<Trs> {
        let jn = ch.rig.joint_count();
        let mut locals = Vec::with_capacity(times.len() * jn);
        for &t in times {
            for j in 0..jn {
                let own = self.node_trs_at(tracks, ch.joint_nodes[j], t);
                if ch.folded[j].is_empty() {
                    locals.push(own);
                } else {
                    let m = ch.folded[j].iter().fold(Mat4::IDENTITY, |acc, &n| {
                        acc * self.node_trs_at(tracks, n, t).matrix()
                    }) * own.matrix();
                    locals.push(Trs::from_matrix(&m));
                }
            }
        }
        locals
    }

    fn node_trs_at(&self, tracks: &HashMap<usize, NodeTracks>, node: usize, t: f32) -> Trs {
        let rest = self.node_rest[node];
        let Some(tr) = tracks.get(&node) else { return rest };
        Trs {
            translation: tr
                .translation
                .as_ref()
                .map_or(rest.translation, |k| k.sample(t, false).truncate()),
            rotation: tr
                .rotation
                .as_ref()
                .map_or(rest.rotation, |k| Quat::from_vec4(k.sample(t, true)).normalize()),
            scale: tr.scale.as_ref().map_or(rest.scale, |k| k.sample(t, false).truncate()),
        }
    }
}

/// Sorted key times thinned to at least `min_step` apart: the first time
/// is kept, then every time at least `min_step` after the last kept one;
/// the last time always ends the list (it replaces a kept time closer than
/// `min_step` before it), so the clip keeps its full span.
pub fn thin_key_times(sorted: &[f32], min_step: f32) -> Vec<f32> {
    let Some(&last) = sorted.last() else { return Vec::new() };
    let mut out: Vec<f32> = Vec::new();
    for &t in sorted {
        if out.last().is_none_or(|&k| t - k >= min_step) {
            out.push(t);
        }
    }
    if out.last() != Some(&last) {
        if out.len() > 1 {
            out.pop();
        }
        out.push(last);
    }
    out
}
