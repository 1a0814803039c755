#![doc = include_str!("../README.md")]

mod components;
mod messages;
mod plugin;
mod settings;
mod systems;
mod world_asset;

pub use components::{
    Destination, Goal, Motion, NavLocation, Pending, Speed, TurningRadius, Unit, UnitPose, Wander,
    WanderMemory,
};
pub use messages::{Arrived, Blocked};
pub use plugin::{KerbPlugin, KerbSystems};
pub use settings::{KerbSettings, KerbStats};
pub use world_asset::{KerbWorld, WorldAsset, WorldAssetLoader, WorldLoadError};

pub use kerb_navmesh;
pub use kerb_steering;
pub use kerb_turning;

/// Everything a game usually needs: `use bevy_kerb::prelude::*;`.
pub mod prelude {
    pub use crate::{
        Arrived, Blocked, Destination, KerbPlugin, KerbSettings, KerbStats, KerbSystems, KerbWorld,
        Motion, NavLocation, Speed, TurningRadius, Unit, UnitPose, Wander, WorldAsset,
    };
}
