//! Local avoidance for units with a turning radius, free of any engine.
//!
//! Each tick, every unit chooses a speed (from standing still to its own)
//! and a turn no tighter than its radius ([`choose`]). The choice follows
//! the motion the unit wants (its path) as closely as it can, while keeping
//! its body clear of its neighbours over a time horizon. Unlike velocity
//! obstacles (RVO2, ORCA, DetourCrowd), which pick any velocity, the
//! candidates here are arcs the unit can drive, so avoiding never turns it
//! tighter than its radius.
//!
//! Neighbours come from a [`NeighbourGrid`], rebuilt every tick in O(N)
//! with no allocation once its buffers have grown. Every choice reads only
//! the previous tick's state, so the order in which units choose, and the
//! number of threads, cannot change the result.
//!
//! Where avoidance alone cannot get a unit to its place, among others who
//! stand at theirs, [`path_among`] searches a way in along the gaps.

mod agent;
mod among;
mod arc;
mod choice;
mod contact;
mod grid;
mod lanes;
mod meetings;
mod nearest;
mod orca;

pub use agent::{Agent, Preferred};
pub use among::{AmongParams, Standing, clear_of, path_among};
pub use arc::drive;
pub use choice::{
    AvoidanceParams, Choice, MAX_WALLS, choose, choose_within, keep_to_path, keeps_clear,
};
pub use contact::{CONTACT_OVERLAP, in_contact, moves_into_contact};
pub use grid::NeighbourGrid;
pub use nearest::{MAX_NEIGHBOURS, Nearest};
