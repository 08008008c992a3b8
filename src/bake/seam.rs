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
}

impl Seam {
    /// `seam_step / median_step`: 1 is a seam like any other frame.
    pub fn ratio(&self) -> f32 {
        if self.median_step_deg > 0.0 {
            self.seam_step_deg / self.median_step_deg
        } else if self.seam_step_deg > 0.0 {
            f32::INFINITY
        } else {
            1.0
        }
    }
}

fn step(a: &[Quat], b: &[Quat]) -> f32 {
    a.iter().zip(b).map(|(p, q)| p.angle_between(*q)).fold(0.0, f32::max).to_degrees()
}

/// Frame-major rotations of `bones` bones over `frames >= 3` frames.
pub fn measure(rotations: &[Quat], bones: usize, frames: usize) -> Seam {
    let frame = |f: usize| &rotations[f * bones..(f + 1) * bones];
    let mut steps: Vec<f32> = (0..frames - 1).map(|f| step(frame(f), frame(f + 1))).collect();
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
    }
}
