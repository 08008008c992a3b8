//! The tail spring chain at run time (SPEC S1-S9, C).
//!
//! Each link's tip is a world-space particle pulled towards where the rest
//! pose puts it under the parent's *current* transform, by a damped spring in
//! physical units (`ω = 2π f`, damping ratio ζ, gravity). After every
//! semi-implicit Euler step the tip goes back onto its length sphere (rope),
//! the bends of neighbouring joints are coupled in the hips frame, an elastic
//! stop limits each bend, and the forward plane and the floor keep the tail
//! behind the legs and above the ground. Bone rotations are the shortest arcs
//! from the bind directions to the particle directions. The body is only
//! ever read: the output is tail-bone local rotations.
//!
//! | file | job |
//! |---|---|
//! | `params` | parameters, defaults, units |
//! | `chain` | which joints, validated |
//! | `rest` | neutral pose from the binds, rest arc, carry |
//! | `capacity` | how far a chain may bend for its skin's thickness |
//! | `coupling` | bend coupling and elastic stop |
//! | `contact` | forward plane and ground circle |
//! | `body` | the body pose a step reads (pelvis today; where a collider goes) |
//! | `anchor` | the pelvis pose and its path over a call |
//! | `state` | a chain's state between calls, and at rest |
//! | `lane`, `lane_geometry` | arithmetic over one chain or four in SIMD lanes |
//! | `solver` | one fixed substep, over lanes |
//! | `group` | chains' borrowed slots gathered into lanes and back |
//! | `clock` | accumulator, substeps, anchor path, teleport |
//! | `tail_spring` | one chain: its constants, state, clock and output |
//! | `batch` | many chains: grouped four to a register, groups in parallel |
//! | `simulate` | a clip through the spring |

mod anchor;
mod batch;
mod body;
mod capacity;
mod chain;
mod clock;
mod contact;
mod coupling;
mod group;
mod lane;
mod lane_geometry;
mod params;
mod rest;
mod simulate;
mod solver;
mod state;
mod tail_spring;

pub use anchor::AnchorPose;
pub use batch::{output_offsets, step_many};
pub use body::BodyPose;
pub use capacity::{bend_capacity, chain_thickness};
pub use chain::TailChain;
pub use contact::{forward_plane, ground};
pub use coupling::{
    bend_angle, coupling_alpha, fast_slerp, half_slerp, neighbour_targets, slerp, swing,
    ElasticStop,
};
pub use params::*;
pub use rest::{bind_ground, bind_ground_along, body_facing, body_frame, body_level, body_up};
pub use simulate::{carry_reference, simulate, TailTrack};
pub use tail_spring::TailSpring;
