//! f_body, c(t), L_raw(t); the pelvis lifted by L_raw and the body checked
//! again after the lift (the reported lift is the difference of final pelvis
//! tracks, SPEC G).

use glam::{Mat4, Vec3};

use super::support::{support_points, GroundParams, SupportPoints};
use crate::error::{CaudalError, Result};
use crate::rig::{skin_matrices, world_matrices, Clip, Rig, Trs};

/// Lifts smaller than this share of the model height are rounding noise of
/// the posed skin (a planted foot rebuilt by IK lands within ~1e-7 of where
/// it stood), not contact: they are dropped, so a body standing on its floor
/// gets exactly no lift.
pub const LIFT_NOISE_RATIO: f32 = 1e-6;

/// Heights (along `up`) of the support points under joint locals `locals`.
fn heights(rig: &Rig, locals: &[Trs], sp: &SupportPoints, up: Vec3) -> Vec<f32> {
    let worlds = world_matrices(rig.parents(), rig.topological_order(), locals);
    let skins = skin_matrices(rig, &worlds);
    sp.vertices
        .iter()
        .map(|&v| {
            let p = rig.vertices()[v as usize];
            let (js, ws) = rig.influences().of(v as usize);
            let q: Vec3 =
                js.iter().zip(ws).map(|(&j, &w)| w * skins[j as usize].transform_point3(p)).sum();
            q.dot(up)
        })
        .collect()
}

fn min_where(h: &[f32], keep: impl Fn(usize) -> bool) -> Option<f32> {
    h.iter().enumerate().filter(|(i, _)| keep(*i)).map(|(_, &y)| y).min_by(f32::total_cmp)
}

fn up_of(params: &GroundParams) -> Result<Vec3> {
    let up = params.up.normalize_or_zero();
    if !up.is_finite() || up == Vec3::ZERO {
        return Err(CaudalError::param("up", "must be a finite non-zero vector"));
    }
    Ok(up)
}

fn floor_of(rig: &Rig, sp: &SupportPoints, params: &GroundParams, up: Vec3) -> Result<f32> {
    let calibration = match &params.calibration {
        Some(c) if c.len() != rig.joint_count() => {
            return Err(CaudalError::shape(
                "calibration",
                format!("{} locals for {} joints", c.len(), rig.joint_count()),
            ))
        }
        Some(c) => c.clone(),
        None => rig.bind_locals(),
    };
    let h0 = heights(rig, &calibration, sp, up);
    min_where(&h0, |i| !(params.exclude_tail && sp.tail[i])).ok_or_else(|| {
        CaudalError::not_found("support", "no body skin left once the tail is excluded")
    })
}

/// `f_body`: the lowest body point at calibration, tail points excluded
/// (unless `exclude_tail` is off).
pub fn body_floor(rig: &Rig, params: &GroundParams) -> Result<f32> {
    let up = up_of(params)?;
    let sp = support_points(rig, params)?;
    floor_of(rig, &sp, params, up)
}

/// How far to move the model along `up` so its body (not its tail) stands on
/// `floor` in the pose `locals`. Camera framing should still use the whole mesh.
pub fn placement_offset(
    rig: &Rig,
    locals: &[Trs],
    floor: f32,
    params: &GroundParams,
) -> Result<f32> {
    if locals.len() != rig.joint_count() {
        return Err(CaudalError::shape(
            "locals",
            format!("{} locals for {} joints", locals.len(), rig.joint_count()),
        ));
    }
    if !floor.is_finite() {
        return Err(CaudalError::param("floor", "must be finite"));
    }
    let up = up_of(params)?;
    let sp = support_points(rig, params)?;
    let h = heights(rig, locals, &sp, up);
    let low = min_where(&h, |i| !(params.exclude_tail && sp.tail[i])).ok_or_else(|| {
        CaudalError::not_found("support", "no body skin left once the tail is excluded")
    })?;
    Ok(floor - low)
}

/// Everything the grounding pass computed, per frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Grounding {
    /// Reference floor `f_body`.
    pub body_floor: f32,
    /// `c(t)`: clearance of the body above the reference floor.
    pub clearance: Vec<f32>,
    /// `L_raw(t)`.
    pub lift: Vec<f32>,
    /// Pelvis height from the clip (world, along up).
    pub pelvis_height: Vec<f32>,
    /// Pelvis height after the lift (world, along up).
    pub pelvis_height_lifted: Vec<f32>,
    /// `c(t)` again after the pelvis was lifted: the body check.
    pub body_check: Vec<f32>,
    /// Support points sampled.
    pub support_points: usize,
    /// Support points in `T` (the tail's).
    pub tail_points: usize,
    /// Support points in `E` (owned by the limbs' contact solvers).
    pub contact_points: usize,
}

/// `locals` with the pelvis moved `lift` along world `up`.
fn lifted(rig: &Rig, locals: &[Trs], pelvis: usize, up: Vec3, lift: f32) -> Vec<Trs> {
    let mut out = locals.to_vec();
    if lift != 0.0 {
        let parent = match rig.parents()[pelvis] {
            Some(_) => {
                let worlds = world_matrices(rig.parents(), rig.topological_order(), locals);
                worlds[rig.parents()[pelvis].unwrap()]
            }
            None => Mat4::IDENTITY,
        };
        out[pelvis].translation += parent.inverse().transform_vector3(up * lift);
    }
    out
}

/// The body-grounding pass over `clip`: the lift the pelvis needs so the
/// body does not sink below the reference floor (more than `a(t)` allows).
pub fn pelvis_lift(
    rig: &Rig,
    clip: &Clip,
    pelvis: usize,
    params: &GroundParams,
) -> Result<Grounding> {
    clip.check_joints(rig)?;
    rig.check_joints("pelvis", &[pelvis])?;
    let frames = clip.frame_count();
    if let Some(a) = &params.allowed_sink {
        if a.len() != frames {
            return Err(CaudalError::shape(
                "allowed_sink",
                format!("{} values for {frames} frames", a.len()),
            ));
        }
        if let Some(i) = a.iter().position(|x| !(x.is_finite() && *x <= 0.0)) {
            return Err(CaudalError::param(
                "allowed_sink",
                format!("a(t) must be finite and <= 0, got {} at frame {i}", a[i]),
            ));
        }
    }
    let up = up_of(params)?;
    let sp = support_points(rig, params)?;
    let f_body = floor_of(rig, &sp, params, up)?;
    let noise = LIFT_NOISE_RATIO * rig.height();
    let counted = |i: usize| !((params.exclude_tail && sp.tail[i]) || sp.contact[i]);
    if !(0..sp.vertices.len()).any(counted) {
        return Err(CaudalError::not_found(
            "support",
            "no body skin left once tail and contact points are excluded",
        ));
    }
    let pelvis_y = |locals: &[Trs]| {
        let worlds = world_matrices(rig.parents(), rig.topological_order(), locals);
        worlds[pelvis].w_axis.truncate().dot(up)
    };
    let mut g = Grounding {
        body_floor: f_body,
        clearance: Vec::with_capacity(frames),
        lift: Vec::with_capacity(frames),
        pelvis_height: Vec::with_capacity(frames),
        pelvis_height_lifted: Vec::with_capacity(frames),
        body_check: Vec::with_capacity(frames),
        support_points: sp.vertices.len(),
        tail_points: sp.tail.iter().filter(|&&t| t).count(),
        contact_points: sp.contact.iter().filter(|&&c| c).count(),
    };
    for f in 0..frames {
        let locals = clip.frame(f);
        let h = heights(rig, locals, &sp, up);
        let c = min_where(&h, counted).expect("checked non-empty") - f_body;
        let a = params.allowed_sink.as_ref().map_or(0.0, |a| a[f]);
        let raw = (a - c).max(0.0);
        let l = if raw < noise { 0.0 } else { raw };
        let after = lifted(rig, locals, pelvis, up, l);
        let h_after = heights(rig, &after, &sp, up);
        g.clearance.push(c);
        g.lift.push(l);
        g.pelvis_height.push(pelvis_y(locals));
        g.pelvis_height_lifted.push(pelvis_y(&after));
        g.body_check.push(min_where(&h_after, counted).expect("checked non-empty") - f_body);
    }
    Ok(g)
}
