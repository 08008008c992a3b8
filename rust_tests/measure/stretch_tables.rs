//! SPEC M1 on the shared animals: original weights, rigid, chain, body.

use caudal::bake::BakeParams;
use caudal::chain::ChainParams;
use caudal::measure::stretch::{StretchHarness, MIN_SWING_DEG, STRETCH_SAMPLES};

use crate::bake::fixtures::{alpaca, fox, shiba, wolf, Grown};

fn table(g: &Grown, clips: &[&str]) {
    let h = StretchHarness::new(&g.model, &ChainParams::default(), &BakeParams::default()).unwrap();
    for clip in clips {
        let c = h.compare(clip, STRETCH_SAMPLES).unwrap();
        eprintln!("{} {clip}: {} tail edges x {} samples, {} body edges", g.model.label.rsplit('/').next().unwrap(), c.tail_edges, c.samples, c.body_edges);
        for r in &c.rows {
            let m = r.motion.as_ref().map_or("-".to_string(), |m| format!("{:.1}°", m.amplitude_deg));
            eprintln!("  | {:<8} | {:.2} | {:.2} | {:.2} | {:.1}% | {m} |", r.rig, r.stats.p95, r.stats.p99, r.stats.max, 100.0 * r.stats.torn_share);
        }
        let [orig, rigid, chain, body] = [&c.rows[0], &c.rows[1], &c.rows[2], &c.rows[3]];
        let label = format!("{} {clip}", g.model.label);
        // The harness checks itself: rigid is exactly 1 and does not move.
        assert!((rigid.stats.min - 1.0).abs() < 1e-4 && (rigid.stats.max - 1.0).abs() < 1e-4, "{label}: rigid {:?}", rigid.stats);
        assert!(rigid.motion.as_ref().unwrap().amplitude_deg < 0.01, "{label}: rigid moved");
        assert_eq!(chain.stats.torn_share, 0.0, "{label}: chain tears");
        assert!(chain.stats.p99 <= body.stats.p99, "{label}: chain p99 {} > body {}", chain.stats.p99, body.stats.p99);
        let swing = chain.motion.as_ref().unwrap().amplitude_deg;
        assert!(swing >= MIN_SWING_DEG, "{label}: chain barely moves ({swing}°)");
        assert!(orig.stats.torn_share > 0.0, "{label}: original weights should tear");
    }
}

#[test]
fn fox_walk_run_survey() {
    table(fox(), &["Walk", "Run", "Survey"]);
}

#[test]
fn quaternius_walk_gallop() {
    for g in [wolf(), shiba(), alpaca()] {
        table(g, &["Walk", "Gallop"]);
    }
}
