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
    /// Whether moving units are drawn between fixed ticks where their
    /// paths take them by the frame's share of the next tick, rather than
    /// where the last tick left them. Only when [`crate::KerbPlugin`] runs
    /// in a fixed schedule; the simulation never reads what is drawn.
    pub draw_between_ticks: bool,
}

impl Default for KerbSettings {
    fn default() -> Self {
        Self {
            seed: 0x6B65_7262,
            wall_margin: 1.5,
            clearance: 0.0,
            draw_between_ticks: true,
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
    /// Pairs of [`crate::Body`]s in contact (overlapping by more than 5%
    /// of the sum of their radii) at the start of the last tick, counted
    /// while [`crate::AvoidanceSettings::enabled`].
    pub contacts_last_tick: u32,
    /// [`Self::contacts_last_tick`] summed over every tick: contact-ticks.
    pub contacts_total: u64,
    /// Moves taken back since start, while avoidance is enabled, because
    /// they would have ended a tick with two bodies in contact: the unit
    /// stood where it was instead. Avoidance makes this rare at usual tick
    /// rates; long ticks (a few a second) make it more common.
    pub moves_taken_back_total: u64,
    #[reflect(ignore)]
    pub(crate) tick_started: Option<Instant>,
}
