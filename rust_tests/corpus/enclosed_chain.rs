//! A chain part whose whole collar is another chain part's skin is a piece
//! of that tail (issue 12's `split_tail` class): at stop 49 each of these
//! look-window seeds hung two chains in one tail, recall 0.48-0.70. The
//! tail's shells are now judged and grown as one part (`enclosed_chain` in
//! `src/appendage/detect/`): one chain, every bar met.

use caudal::appendage::{detect, Decision, DetectParams};
use caudal::demo::corpus;

use super::harness::{measure, per_character};

#[test]
fn corpus_a_chain_part_another_encloses_is_one_tail_with_it() {
    // Each a hanging tail under fur: the skin and the fur's far half one
    // part, the fur's root half another, its only collar mid-tail. 40729
    // thin, 41547 and 48855 thick, 52054 long, 52246 medium. (41547's
    // second character has a tail of one part.)
    for seed in [40729, 41547, 48855, 52054, 52246] {
        let case = corpus::case(seed);
        let chains = per_character(seed, &case, |_, _, model, truth| {
            let d = detect(&model.rig, &DetectParams::default()).expect("detects");
            let chains: Vec<_> =
                d.report.parts.iter().filter(|p| p.decision == Decision::Chain).collect();
            let joined = chains.iter().any(|p| p.reason.contains("whole collar was its skin"));
            vec![(chains.len(), truth.tails.len(), joined)]
        });
        assert!(chains.iter().any(|c| c.2), "seed {seed}: no chain part joined");
        for (n, tails, _) in chains {
            assert_eq!(n, tails, "seed {seed}: {n} chain parts for {tails} tails");
        }
        let measured = measure(&case);
        assert!(measured.passed(), "seed {seed}: {:?}", measured.details);
    }
}
