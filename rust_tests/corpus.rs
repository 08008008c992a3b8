//! The generated corpus (issue 12 item 5): seeded rigged creatures with
//! known answers (src/demo/corpus/), checked for consistency, and today's
//! detection measured against them by failure class.

#[path = "corpus/back_strip.rs"]
mod back_strip;
#[path = "corpus/buried_start.rs"]
mod buried_start;
#[path = "corpus/caught_skin.rs"]
mod caught_skin;
#[path = "corpus/coarse_rings.rs"]
mod coarse_rings;
#[path = "corpus/collar_pelvis.rs"]
mod collar_pelvis;
#[path = "corpus/consistency.rs"]
mod consistency;
#[path = "corpus/cut_across.rs"]
mod cut_across;
#[path = "corpus/density.rs"]
mod density;
#[path = "corpus/enclosed_cap.rs"]
mod enclosed_cap;
#[path = "corpus/enclosed_chain.rs"]
mod enclosed_chain;
#[path = "corpus/flat_patch.rs"]
mod flat_patch;
#[path = "corpus/garments.rs"]
mod garments;
#[path = "corpus/generator.rs"]
mod generator;
#[path = "corpus/grown_roles.rs"]
mod grown_roles;
#[path = "corpus/hanging_tails.rs"]
mod hanging_tails;
#[path = "corpus/harness.rs"]
pub mod harness;
#[path = "corpus/held_strip.rs"]
mod held_strip;
#[path = "corpus/landing_arc.rs"]
mod landing_arc;
#[path = "corpus/last_ring.rs"]
mod last_ring;
#[path = "corpus/layers.rs"]
mod layers;
#[path = "corpus/outside_trace.rs"]
mod outside_trace;
#[path = "corpus/own_tube.rs"]
mod own_tube;
#[path = "corpus/peel_trace.rs"]
mod peel_trace;
#[path = "corpus/peeled_tip.rs"]
mod peeled_tip;
#[path = "corpus/precision.rs"]
mod precision;
#[path = "corpus/protrusion.rs"]
mod protrusion;
#[path = "corpus/rear_cap.rs"]
mod rear_cap;
#[path = "corpus/recall.rs"]
mod recall;
mod reversed_chain;
#[path = "corpus/ridge_band.rs"]
mod ridge_band;
#[path = "corpus/rigger_bones.rs"]
mod rigger_bones;
#[path = "corpus/ring_low_side.rs"]
mod ring_low_side;
#[path = "corpus/roles_only.rs"]
mod roles_only;
#[path = "corpus/runs.rs"]
mod runs;
#[path = "corpus/slanted_flare.rs"]
mod slanted_flare;
mod slim_trunk;
#[path = "corpus/spring_up.rs"]
mod spring_up;
#[path = "corpus/stub_core.rs"]
mod stub_core;
#[path = "corpus/tapering_tails.rs"]
mod tapering_tails;
#[path = "corpus/thin_stubs.rs"]
mod thin_stubs;
