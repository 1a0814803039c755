#![doc = include_str!("../README.md")]

mod components;
#[cfg(feature = "debug")]
mod debug;
#[cfg(feature = "egui")]
mod egui_panel;
mod groups;
#[cfg(test)]
mod headless_tests;
mod messages;
mod plugin;
mod settings;
mod systems;
mod world_asset;

pub use components::{
    Destination, FollowedRoute, Goal, Intent, Motion, NavLocation, Pending, Speed, TurningRadius,
    Unit, UnitPose, Wander, WanderMemory,
};
#[cfg(feature = "debug")]
pub use debug::{KerbDebugPlugin, KerbDebugSettings, KerbGizmos, Selected};
#[cfg(feature = "egui")]
pub use egui_panel::{KerbEguiPlugin, PanelState};
pub use groups::{GroupMember, GroupSettings, RestartGroups, UnitGroups, UnitGroupsPlugin};
pub use messages::{Arrived, Blocked};
pub use plugin::{KerbPlugin, KerbSystems};
pub use settings::{KerbSettings, KerbStats};
pub use world_asset::{KerbWorld, WorldAsset, WorldAssetLoader, WorldLoadError};

pub use kerb_navmesh;
pub use kerb_steering;
pub use kerb_turning;

/// Everything a game usually needs: `use bevy_kerb::prelude::*;`.
pub mod prelude {
    #[cfg(feature = "egui")]
    pub use crate::KerbEguiPlugin;
    pub use crate::{
        Arrived, Blocked, Destination, FollowedRoute, GroupMember, GroupSettings, KerbPlugin,
        KerbSettings, KerbStats, KerbSystems, KerbWorld, Motion, NavLocation, Speed, TurningRadius,
        Unit, UnitGroups, UnitGroupsPlugin, UnitPose, Wander, WorldAsset,
    };
    #[cfg(feature = "debug")]
    pub use crate::{KerbDebugPlugin, KerbDebugSettings, Selected};
}
