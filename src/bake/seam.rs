//! Loop closure, measured on the baked keys (SPEC C: "clean loop closure
//! after warm-up").

use glam::Quat;

/// How cleanly a baked loop closes.
#[derive(Clone, Debug, PartialEq)]
pub struct Seam {
    /// Largest tail rotation difference between the first and the last key
    /// (the same instant of the cycle), degrees.
    pub closure_deg: f32,
    /// The step a player shows across the loop point: from the last key
    /// before the end to the first key, largest over bones, degrees.
    pub seam_step_deg: f32,
    /// Median over the clip of the per-frame step (largest over bones), degrees.
    pub median_step_deg: f32,
    /// Mean of the steps just before and just after the loop point, degrees:
    /// what a continuous motion would show there.
    pub neighbour_step_deg: f32,
}

impl Seam {
    /// `seam_step / median_step`: 1 is a seam like any other frame.
    pub fn ratio(&self) -> f32 {
        ratio(self.seam_step_deg, self.median_step_deg)
    }
    /// `seam_step / neighbour_step`: a jump is a spike against the steps
    /// around it; a tail that simply moves fastest at the loop point is not.
    pub fn local_ratio(&self) -> f32 {
        ratio(self.seam_step_deg, self.neighbour_step_deg)
    }
}

/// Steps at or below this are still (degrees): ratios of them are noise.
pub const STILL_STEP_DEG: f32 = 1e-3;

fn ratio(a: f32, b: f32) -> f32 {
    if a <= STILL_STEP_DEG {
        if b <= STILL_STEP_DEG {
            1.0
        } else {
            a / b
        }
    } else if b > 0.0 {
        a / b
    } else {
        f32::INFINITY
    }
}

/// Rotation angle between two unit quaternions, accurate for tiny angles
/// (`acos` of a dot product in f32 cannot resolve below about 0.04°).
pub fn angle_between(a: Quat, b: Quat) -> f32 {
    let d = a.conjugate() * b;
    2.0 * d.xyz().length().atan2(d.w.abs())
}

fn step(a: &[Quat], b: &[Quat]) -> f32 {
    a.iter().zip(b).map(|(p, q)| angle_between(*p, *q)).fold(0.0, f32::max).to_degrees()
}

/// Frame-major rotations of `bones` bones over `frames >= 3` frames.
pub fn measure(rotations: &[Quat], bones: usize, frames: usize) -> Seam {
    let frame = |f: usize| &rotations[f * bones..(f + 1) * bones];
    let mut steps: Vec<f32> = (0..frames - 1).map(|f| step(frame(f), frame(f + 1))).collect();
    // The step into frame F-2 and the step out of frame 0 (F-1 is frame 0).
    let neighbour = 0.5 * (steps[frames.saturating_sub(3)] + steps[0]);
    steps.sort_by(f32::total_cmp);
    let median = if steps.len() % 2 == 1 {
        steps[steps.len() / 2]
    } else {
        0.5 * (steps[steps.len() / 2 - 1] + steps[steps.len() / 2])
    };
    Seam {
        closure_deg: step(frame(0), frame(frames - 1)),
        seam_step_deg: step(frame(frames - 2), frame(0)),
        median_step_deg: median,
        neighbour_step_deg: neighbour,
    }
}

/// Closes a recorded cycle whose warm-up did not converge: some tails answer
/// a clip with a motion that repeats only every second or third cycle (a
/// spring pressed onto the floor by a low carry, for one), so no pass ends
/// where it began. The difference `d_b = last_b⁻¹ first_b` of every bone is
/// spread over the cycle, key `f` of `F` turned by `slerp(I, d_b, f/(F-1))`
/// in the bone's own frame: the last key becomes the first, and the extra
/// turn per frame is the closure over the cycle's length (constant, so no
/// key jumps). Returns the closure removed, degrees.
pub fn close_loop(rotations: &mut [Quat], bones: usize, frames: usize) -> f32 {
    if frames < 2 {
        return 0.0;
    }
    let last = (frames - 1) * bones;
    let deltas: Vec<Quat> = (0..bones)
        .map(|b| {
            let d = rotations[last + b].conjugate() * rotations[b];
            if d.w < 0.0 {
                -d
            } else {
                d
            }
        })
        .collect();
    let removed = step(&rotations[last..last + bones], &rotations[..bones]);
    for f in 1..frames {
        let w = f as f32 / (frames - 1) as f32;
        for (b, d) in deltas.iter().enumerate() {
            let i = f * bones + b;
            rotations[i] = (rotations[i] * crate::spring::slerp(Quat::IDENTITY, *d, w)).normalize();
        }
    }
    removed
}
