//! Tails of many shapes on the demo creature (same skeleton, body, template
//! rigger and walk): hanging, level, curled over the back; short to long;
//! thin to thick. Each must be found, grown, baked into a closed loop, and
//! tear nothing while it moves. (Measured: recall and precision 1.000 on
//! all 27; chain max 1.06-1.23 hanging and level, 1.28-1.49 curled, where
//! the 50° carry lifts a tail already curled up over the back further: at
//! carry 0 the curled ones stay at 1.06-1.13 and swing twice as far.)

use caudal::bake::BakeParams;
use caudal::chain::ChainParams;
use caudal::demo::{creature_with, tail_vertex_count, TailShape, TAIL_LINE};
use caudal::measure::stretch::{MIN_SWING_DEG, STRETCH_SAMPLES};
use caudal::pipeline::StretchHarness;

const LEVEL: [[f32; 3]; 6] = [
    [0.0, 0.98, -0.1],
    [0.0, 0.97, -0.27],
    [0.0, 0.96, -0.44],
    [0.0, 0.95, -0.61],
    [0.0, 0.94, -0.78],
    [0.0, 0.93, -0.95],
];
const CURLED: [[f32; 3]; 6] = [
    [0.0, 0.98, -0.1],
    [0.0, 1.05, -0.3],
    [0.0, 1.2, -0.45],
    [0.0, 1.38, -0.47],
    [0.0, 1.52, -0.38],
    [0.0, 1.6, -0.22],
];

fn shape(line: &[[f32; 3]; 6], scale: f32, radii: (f32, f32)) -> TailShape {
    let root = line[0];
    let line = line
        .iter()
        .map(|p| {
            [
                root[0] + scale * (p[0] - root[0]),
                root[1] + scale * (p[1] - root[1]),
                root[2] + scale * (p[2] - root[2]),
            ]
        })
        .collect();
    TailShape { line, root_radius: radii.0, tip_radius: radii.1 }
}

#[test]
fn tails_of_every_shape_tear_nothing() {
    let mut failures = Vec::new();
    eprintln!("| line | length x | radius m | recall | precision | K | kappa | passes | closure | chain p99 | max | torn | amplitude |");
    for (label, line) in [("hanging", &TAIL_LINE), ("level", &LEVEL), ("curled", &CURLED)] {
        for scale in [0.5f32, 1.0, 1.3] {
            for radii in [(0.035f32, 0.012f32), (0.07, 0.025), (0.12, 0.045)] {
                let s = shape(line, scale, radii);
                let model = creature_with(&s);
                let n = model.rig().unwrap().vertex_count();
                let truth = (n - tail_vertex_count(&s)) as u32..n as u32;
                let h = match StretchHarness::new(
                    &model,
                    0,
                    &ChainParams::default(),
                    &BakeParams::default(),
                ) {
                    Ok(h) => h,
                    Err(e) => {
                        eprintln!("| {label} | {scale} | {} | no tail: {e} |", radii.0);
                        failures.push(format!("{label} x{scale} r{}: {e}", radii.0));
                        continue;
                    }
                };
                let found = h.tail.iter().filter(|v| truth.contains(v)).count() as f32;
                let (recall, precision) = (found / truth.len() as f32, found / h.tail.len() as f32);
                let c = h.compare("Walk", STRETCH_SAMPLES).unwrap();
                let chain = &c.rows[2];
                let m = chain.motion.as_ref().unwrap();
                let b = &c.baked;
                let closure = b.seam.as_ref().map_or(f32::NAN, |s| s.closure_deg);
                eprintln!(
                    "| {label} | {scale} | {} | {recall:.3} | {precision:.3} | {} | {:.2} | {} | {closure:.4} | {:.2} | {:.2} | {:.1}% | {:.1} |",
                    radii.0,
                    h.chains[0].bones.len(),
                    b.bend_capacity,
                    b.warmup.passes,
                    chain.stats.p99,
                    chain.stats.max,
                    100.0 * chain.stats.torn_share,
                    m.amplitude_deg
                );
                if recall < 0.9
                    || precision < 0.9
                    || !b.warmup.converged
                    || closure > 0.5
                    || chain.stats.torn_share > 0.0
                    || m.amplitude_deg < MIN_SWING_DEG
                {
                    failures.push(format!("{label} x{scale} r{}", radii.0));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:?}");
}
