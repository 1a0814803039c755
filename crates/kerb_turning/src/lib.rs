//! Turning-radius path planning, free of any engine.
//!
//! A unit at a [`Pose`] with a turning radius reaches a point
//! ([`plan_to_point`]) or a pose ([`plan_to_pose`]) along arcs of exactly that
//! radius and straight lines, with a continuous heading. The result is a
//! [`TurningPath`] of at most four [`Segment`]s that can be sampled exactly
//! at any distance ([`TurningPath::sample`]).
//!
//! A unit that may reverse reaches a pose along a Reeds–Shepp path
//! ([`plan_to_pose_reversing`]), whose segments each say which [`Gear`]
//! they are driven in.
//!
//! The planners can also list every feasible path, shortest first
//! ([`candidates_to_point`], [`candidates_to_pose`]), so a caller can skip
//! the ones that leave the walkable area.
//!
//! Invalid input (NaN, infinity, a radius that is not positive) gives a
//! [`PlanError`]; nothing here panics.

mod angle;
mod candidates;
mod error;
mod path;
mod pose;
mod reversing;
mod segment;
#[cfg(test)]
mod test_cases;
mod to_point;
mod to_pose;

pub use angle::{heading_vector, wrap_signed};
pub use candidates::{Candidates, MAX_CANDIDATES};
pub use error::PlanError;
pub use path::{MAX_SEGMENTS, PathWord, TurningPath};
pub use pose::{Pose, TurnDirection};
pub use reversing::{
    MAX_REVERSING_CANDIDATES, ReversingFamily, ReversingWord, candidates_to_pose_reversing,
    plan_to_pose_reversing,
};
pub use segment::{Gear, Segment};
pub use to_point::{TurnGeometry, candidates_to_point, plan_to_point, turn_geometry};
pub use to_pose::{candidates_to_pose, plan_to_pose};
