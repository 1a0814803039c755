//! [`KerbPlugin`] and its system sets.

use bevy::ecs::schedule::{InternedScheduleLabel, ScheduleLabel};
use bevy::prelude::*;
use bevy::transform::TransformSystems;

use crate::avoidance::{
    AvoidanceSettings, Avoiding, Body, Crowd, NoAvoidance, choose_motions, take_back_contacts,
};
use crate::components::{
    Destination, NavLocation, ReverseGear, Speed, Teleport, TurningRadius, Unit, UnitPose, Wander,
};
use crate::drawing::draw_between_ticks;
use crate::messages::{Arrived, Blocked};
use crate::settings::{KerbSettings, KerbStats};
use crate::state::{FollowedRoute, Goal, Intent, Motion, Pending, WanderMemory};
use crate::systems;
use crate::world_asset::{KerbWorld, WorldAsset, WorldAssetLoader};

/// kerb's systems, run in this order every tick of the plugin's schedule,
/// before transform propagation.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KerbSystems {
    /// Follow the world asset, place new units and react to changed
    /// parameters and destinations.
    Prepare,
    /// Give wanderers whose path ended a new wander target, and plan turning
    /// paths for units whose goal changed or whose path ended.
    Plan,
    /// Choose each unit's speed and turn so that bodies keep clear of each
    /// other ([`crate::AvoidanceSettings`]).
    Avoid,
    /// Drive along the paths, sampling each pose exactly, or along the arc
    /// avoidance chose.
    Advance,
    /// Keep units on the walkable area, take back any move that brought
    /// two bodies into contact, and write their transforms.
    Confine,
}

/// Realistic turns, wander and walkable-area confinement for units.
///
/// Needs Bevy's `AssetPlugin` (part of `DefaultPlugins`). Runs in
/// `FixedUpdate` unless told otherwise:
///
/// ```no_run
/// use bevy::prelude::*;
/// use bevy_kerb::prelude::*;
///
/// App::new()
///     .add_plugins((DefaultPlugins, KerbPlugin::default()))
///     .add_systems(Startup, |mut commands: Commands, assets: Res<AssetServer>| {
///         commands.insert_resource(KerbWorld::new(assets.load("worlds/town.world.ron")));
///         commands.spawn((Unit, TurningRadius(10.0), Speed(4.0), Wander::default(),
///             Transform::from_xyz(20.0, 5.0, 0.0)));
///     })
///     .run();
/// ```
pub struct KerbPlugin {
    schedule: InternedScheduleLabel,
}

impl KerbPlugin {
    /// Runs kerb's systems in `schedule` (for example `Update`, to move
    /// once per frame with the frame's time).
    pub fn new(schedule: impl ScheduleLabel) -> Self {
        Self {
            schedule: schedule.intern(),
        }
    }
}

impl KerbPlugin {
    /// Whether kerb runs in one of Bevy's fixed-timestep schedules, so that
    /// frames fall between its ticks.
    fn is_fixed(&self) -> bool {
        [
            FixedFirst.intern(),
            FixedPreUpdate.intern(),
            FixedUpdate.intern(),
            FixedPostUpdate.intern(),
            FixedLast.intern(),
        ]
        .contains(&self.schedule)
    }
}

impl Default for KerbPlugin {
    fn default() -> Self {
        Self::new(FixedUpdate)
    }
}

impl Plugin for KerbPlugin {
    fn build(&self, app: &mut App) {
        app.init_asset::<WorldAsset>()
            .init_asset_loader::<WorldAssetLoader>()
            .init_resource::<KerbSettings>()
            .init_resource::<KerbStats>()
            .init_resource::<AvoidanceSettings>()
            .init_resource::<Crowd>()
            .init_resource::<KerbWorld>()
            .init_resource::<systems::UnitsToPlace>()
            .add_observer(systems::queue_new_unit)
            .add_message::<Arrived>()
            .add_message::<Blocked>()
            .register_type::<Unit>()
            .register_type::<TurningRadius>()
            .register_type::<Speed>()
            .register_type::<ReverseGear>()
            .register_type::<UnitPose>()
            .register_type::<NavLocation>()
            .register_type::<Wander>()
            .register_type::<WanderMemory>()
            .register_type::<Destination>()
            .register_type::<Teleport>()
            .register_type::<FollowedRoute>()
            .register_type::<Motion>()
            .register_type::<Intent>()
            .register_type::<Goal>()
            .register_type::<Pending>()
            .register_type::<KerbSettings>()
            .register_type::<KerbStats>()
            .register_type::<KerbWorld>()
            .register_type::<AvoidanceSettings>()
            .register_type::<Body>()
            .register_type::<NoAvoidance>()
            .register_type::<Avoiding>()
            .configure_sets(
                self.schedule,
                (
                    KerbSystems::Prepare,
                    KerbSystems::Plan,
                    KerbSystems::Avoid,
                    KerbSystems::Advance,
                    KerbSystems::Confine,
                )
                    .chain(),
            )
            .add_systems(
                self.schedule,
                (
                    (
                        systems::start_tick,
                        systems::track_world_asset,
                        systems::place_units,
                        systems::teleport_units,
                        systems::react_to_changes,
                    )
                        .chain()
                        .in_set(KerbSystems::Prepare),
                    systems::plan_paths.in_set(KerbSystems::Plan),
                    choose_motions.in_set(KerbSystems::Avoid),
                    systems::advance_along_paths.in_set(KerbSystems::Advance),
                    (
                        systems::confine_to_navmesh,
                        take_back_contacts,
                        systems::end_tick,
                    )
                        .chain()
                        .in_set(KerbSystems::Confine),
                ),
            );
        if self.is_fixed() {
            app.add_systems(
                PostUpdate,
                draw_between_ticks
                    .run_if(|settings: Res<KerbSettings>| settings.draw_between_ticks)
                    .before(TransformSystems::Propagate),
            );
        }
    }
}
