//! Global settings and measurements.

use std::time::{Duration, Instant};

use bevy::prelude::*;

/// Settings shared by every unit.
#[derive(Resource, Reflect, Clone, Debug, PartialEq)]
#[reflect(Resource, Default, Debug)]
pub struct KerbSettings {
    /// The run's random seed: with the same seed and the same spawns, a run
    /// replays bit for bit.
    pub seed: u64,
    /// How far wander targets pulled back from a wall are kept from it, in metres.
    pub wall_margin: f32,
    /// How close paths may come to walls, in metres (a unit's half width).
    /// Zero treats units as points; confinement keeps them on the mesh anyway.
    /// Routes to far destinations keep at least 5 cm, so that they never
    /// bend exactly on a wall corner.
    pub clearance: f32,
}

impl Default for KerbSettings {
    fn default() -> Self {
        Self {
            seed: 0x6B65_7262,
            wall_margin: 1.5,
            clearance: 0.0,
        }
    }
}

/// What the last tick cost and did, for counters and profiling.
#[derive(Resource, Reflect, Clone, Debug, Default)]
#[reflect(Resource, Default, Debug)]
pub struct KerbStats {
    /// Wall-clock time kerb's systems took in the last tick.
    pub last_tick: Duration,
    /// Paths planned in the last tick.
    pub planned_last_tick: u32,
    /// Paths planned since start.
    pub planned_total: u64,
    /// [`crate::Arrived`] messages sent since start.
    pub arrived_total: u64,
    /// [`crate::Blocked`] messages sent since start.
    pub blocked_total: u64,
    #[reflect(ignore)]
    pub(crate) tick_started: Option<Instant>,
}
