#![doc = include_str!("../README.md")]

mod avoidance;
mod components;
#[cfg(feature = "debug")]
mod debug;
mod drawing;
#[cfg(feature = "egui")]
mod egui_panel;
mod groups;
mod messages;
mod plugin;
mod presets;
mod settings;
mod state;
mod systems;
mod world_asset;

pub use avoidance::{AvoidanceSettings, Avoiding, Body, NoAvoidance};
pub use components::{
    Destination, NavLocation, ReverseGear, Speed, Teleport, TurningRadius, Unit, UnitPose, Wander,
};
#[cfg(feature = "debug")]
pub use debug::{KerbDebugPlugin, KerbDebugSettings, KerbGizmos, Selected};
#[cfg(feature = "egui")]
pub use egui_panel::{KerbEguiPlugin, PanelState};
pub use groups::{GroupMember, GroupSettings, RestartGroups, UnitGroups, UnitGroupsPlugin};
pub use messages::{Arrived, BlockReason, Blocked};
pub use plugin::{KerbPlugin, KerbSystems};
pub use presets::UnitPreset;
pub use settings::{KerbSettings, KerbStats};
pub use state::{FollowedRoute, Goal, Intent, Motion, Pending, WanderMemory};
pub use world_asset::{KerbWorld, WorldAsset, WorldAssetLoader, WorldLoadError};

pub use kerb_crowd;
pub use kerb_navmesh;
pub use kerb_steering;
pub use kerb_turning;

/// Everything a game usually needs: `use bevy_kerb::prelude::*;`.
pub mod prelude {
    #[cfg(feature = "egui")]
    pub use crate::KerbEguiPlugin;
    pub use crate::{
        Arrived, AvoidanceSettings, Avoiding, BlockReason, Blocked, Body, Destination,
        FollowedRoute, GroupMember, GroupSettings, KerbPlugin, KerbSettings, KerbStats,
        KerbSystems, KerbWorld, Motion, NavLocation, NoAvoidance, ReverseGear, Speed, Teleport,
        TurningRadius, Unit, UnitGroups, UnitGroupsPlugin, UnitPose, UnitPreset, Wander,
        WorldAsset,
    };
    #[cfg(feature = "debug")]
    pub use crate::{KerbDebugPlugin, KerbDebugSettings, Selected};
}
