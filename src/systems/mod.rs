//! The systems behind [`crate::KerbSystems`], one file per set: prepare,
//! plan (with its wander targets), advance, confine.

mod advance;
mod confine;
mod plan;
mod prepare;
pub(crate) mod reverse_out;
mod wander_target;

use std::time::Instant;

use bevy::ecs::batching::BatchingStrategy;
use bevy::prelude::*;
use kerb_navmesh::NavMesh;

use crate::settings::KerbStats;
use crate::world_asset::{KerbWorld, WorldAsset};

pub(crate) use advance::advance_along_paths;
pub(crate) use confine::confine_to_navmesh;
pub(crate) use plan::plan_paths;
pub(crate) use prepare::{
    UnitsToPlace, place_units, queue_new_unit, react_to_changes, teleport_units, track_world_asset,
};

pub(crate) fn navmesh<'a>(
    world: &KerbWorld,
    assets: &'a Assets<WorldAsset>,
) -> Option<&'a NavMesh> {
    world.get(assets).map(|w| &w.navmesh)
}

pub(crate) fn start_tick(mut stats: ResMut<KerbStats>) {
    stats.tick_started = Some(Instant::now());
}

pub(crate) fn end_tick(mut stats: ResMut<KerbStats>) {
    if let Some(started) = stats.tick_started.take() {
        stats.last_tick = started.elapsed();
    }
}

/// How kerb's parallel passes split the crowd: several batches per thread,
/// so that a thread that starts late (waking one costs tens of microseconds)
/// takes what is left instead of holding up the pass with a full share, and
/// so that the few costly plans even out between threads.
pub(crate) fn small_batches() -> BatchingStrategy {
    BatchingStrategy::new().batches_per_thread(4)
}
