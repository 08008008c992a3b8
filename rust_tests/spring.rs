//! The tail spring (SPEC S, C): the checks the article's authors run, on
//! synthetic rigs with known answers. Rigs are in metres with absolute units
//! (`Units::PerMetre(1.0)`) unless a test is about scaling.

#[path = "spring/bind_pose.rs"]
mod bind_pose;
#[path = "spring/carry.rs"]
mod carry;
#[path = "spring/clock.rs"]
mod clock;
#[path = "spring/creature.rs"]
mod creature;
#[path = "spring/damping.rs"]
mod damping;
#[path = "spring/fast_hips.rs"]
mod fast_hips;
#[path = "spring/frame_rate.rs"]
mod frame_rate;
#[path = "spring/ground.rs"]
mod ground;
#[path = "spring/mirror.rs"]
mod mirror;
#[path = "spring/placement.rs"]
mod placement;
#[path = "spring/real_models.rs"]
mod real_models;
