//! [`crate::KerbSystems::Prepare`]: follow the world asset, place new
//! units, and turn changed parameters and destinations into replanning.

use bevy::asset::AssetLoadFailedEvent;
use bevy::prelude::*;

use super::navmesh;
use crate::components::{
    Destination, NavLocation, Teleport, TurningRadius, Unit, UnitPose, Wander,
};
use crate::state::{FollowedRoute, Goal, Intent, Motion, Pending};
use crate::world_asset::{KerbWorld, WorldAsset};

/// Follows the world asset: logs failed loads, and re-locates every unit
/// when the world is (re)loaded, snapping it onto the new navmesh.
pub(crate) fn track_world_asset(
    mut world: ResMut<KerbWorld>,
    assets: Res<Assets<WorldAsset>>,
    mut events: MessageReader<AssetEvent<WorldAsset>>,
    mut failures: MessageReader<AssetLoadFailedEvent<WorldAsset>>,
    mut units: Query<(&mut UnitPose, &mut NavLocation, &mut Motion, &mut Intent), With<Unit>>,
) {
    for failure in failures.read() {
        if failure.id == world.handle.id() {
            let message = format!("world {} failed to load: {}", failure.path, failure.error);
            error!("{message}; keeping the previous world");
            world.last_error = Some(message);
        }
    }
    let changed = events.read().any(|event| match event {
        AssetEvent::Added { id }
        | AssetEvent::Modified { id }
        | AssetEvent::LoadedWithDependencies { id } => *id == world.handle.id(),
        _ => false,
    });
    if !changed {
        return;
    }
    world.last_error = None;
    let Some(mesh) = navmesh(&world, &assets) else {
        return;
    };
    for (mut pose, mut location, mut motion, mut intent) in &mut units {
        if location.polygon.is_none() {
            continue; // not placed yet: `place_units` reads its transform
        }
        if let Some((position, polygon)) = mesh.nearest_point(pose.position) {
            pose.position = position;
            location.polygon = Some(polygon);
        }
        // Paths were checked against the old walls.
        stand_still(&mut motion, &mut intent, *pose);
        intent.pending = match motion.goal {
            Goal::None => Pending::NewTarget,
            _ => Pending::Plan,
        };
    }
}

/// Drops the unit's path and has it stand at `pose`, where it also means
/// to be this tick (goal and pending work unchanged).
fn stand_still(motion: &mut Motion, intent: &mut Intent, pose: UnitPose) {
    motion.stand_at(pose);
    intent.desired = pose;
}

/// Units added since [`place_units`] last ran, queued by an observer so
/// that placing new units never scans the whole crowd.
#[derive(Resource, Default)]
pub(crate) struct UnitsToPlace(Vec<Entity>);

pub(crate) fn queue_new_unit(add: On<Add, Unit>, mut queue: ResMut<UnitsToPlace>) {
    queue.0.push(add.entity);
}

/// Puts new units (and units waiting for a world) on the navmesh: reads the
/// pose from the transform and snaps it onto the walkable area. Only the
/// queued new units are visited, except on the tick a world first becomes
/// ready, when every unit waiting for it is.
pub(crate) fn place_units(
    world: Res<KerbWorld>,
    assets: Res<Assets<WorldAsset>>,
    mut ready_world: Local<Option<AssetId<WorldAsset>>>,
    mut queue: ResMut<UnitsToPlace>,
    mut units: Query<PlacementData, With<Unit>>,
) {
    let Some(mesh) = navmesh(&world, &assets) else {
        return; // keep the queue until there is a world
    };
    let place =
        |(entity, transform, mut pose, mut location, mut motion, mut intent): PlacementItem| {
            if location.polygon.is_some() {
                return;
            }
            let forward = transform.rotation * Vec3::X;
            let wanted = transform.translation.truncate();
            let Some((position, polygon)) = mesh.nearest_point(wanted) else {
                // Once: the queue is drained, and only a world reload visits
                // an unplaced unit again.
                warn!("unit {entity} stays unplaced: its translation {wanted} is not a number");
                return;
            };
            // A rotation that is not finite faces +x, as a position off the
            // walkable area is snapped onto it: a NaN heading would stop every
            // plan and be written back into the transform.
            let heading = forward.y.atan2(forward.x);
            *pose = UnitPose {
                position,
                heading: if heading.is_finite() { heading } else { 0.0 },
            };
            location.polygon = Some(polygon);
            stand_still(&mut motion, &mut intent, *pose);
            if intent.pending == Pending::Nothing {
                intent.pending = Pending::NewTarget;
            }
        };
    let id = world.handle.id();
    if *ready_world != Some(id) {
        *ready_world = Some(id);
        queue.0.clear();
        units.iter_mut().for_each(place);
    } else {
        for entity in queue.0.drain(..) {
            if let Ok(unit) = units.get_mut(entity) {
                place(unit);
            }
        }
    }
}

type PlacementData = (
    Entity,
    &'static Transform,
    &'static mut UnitPose,
    &'static mut NavLocation,
    &'static mut Motion,
    &'static mut Intent,
);

type PlacementItem<'a> = (
    Entity,
    &'a Transform,
    Mut<'a, UnitPose>,
    Mut<'a, NavLocation>,
    Mut<'a, Motion>,
    Mut<'a, Intent>,
);

/// Turns parameter and destination changes into replanning on this tick.
pub(crate) fn react_to_changes(
    mut removed: RemovedComponents<Destination>,
    mut queries: ParamSet<(
        Query<
            (
                Option<Ref<Destination>>,
                &mut Motion,
                &mut Intent,
                Ref<TurningRadius>,
                Option<Ref<Wander>>,
            ),
            (
                With<Unit>,
                Or<(
                    Changed<Destination>,
                    Changed<TurningRadius>,
                    Changed<Wander>,
                )>,
            ),
        >,
        Query<
            (
                &mut Motion,
                &mut Intent,
                Option<&mut FollowedRoute>,
                Has<Wander>,
                Has<Destination>,
            ),
            With<Unit>,
        >,
    )>,
) {
    for (destination, mut motion, mut intent, radius, wander) in &mut queries.p0() {
        if let Some(destination) = destination.filter(|d| d.is_changed()) {
            motion.goal = match *destination {
                Destination::Point(point) => Goal::Point(point),
                Destination::Pose { position, heading } => Goal::Pose(position, heading),
            };
            intent.pending = Pending::Plan;
        } else if wander.is_some_and(|w| w.is_changed() && !w.is_added()) {
            intent.pending = Pending::NewTarget;
        } else if radius.is_changed() && !radius.is_added() && motion.goal != Goal::None {
            intent.pending = Pending::Plan;
        }
    }
    let mut motions = queries.p1();
    for entity in removed.read() {
        if let Ok((mut motion, mut intent, followed, wanders, has_destination)) =
            motions.get_mut(entity)
            && !has_destination
        {
            if let Some(mut followed) = followed {
                followed.clear();
            }
            motion.goal = Goal::None;
            intent.pending = if wanders {
                Pending::NewTarget
            } else {
                Pending::Nothing
            };
            if !wanders {
                motion.stop_where_it_is();
            }
        }
    }
}

/// Moves units given a [`Teleport`] to its place at once: snapped onto the
/// walkable area, standing, and planning afresh from there. The transform
/// is written too, so that the unit is drawn there on this frame.
pub(crate) fn teleport_units(
    mut commands: Commands,
    world: Res<KerbWorld>,
    assets: Res<Assets<WorldAsset>>,
    mut units: Query<
        (
            Entity,
            &Teleport,
            &mut UnitPose,
            &mut NavLocation,
            &mut Motion,
            &mut Intent,
            &mut Transform,
        ),
        With<Unit>,
    >,
) {
    let Some(mesh) = navmesh(&world, &assets) else {
        return; // kept until there is a world to place the unit on
    };
    for (entity, teleport, mut pose, mut location, mut motion, mut intent, mut transform) in
        &mut units
    {
        commands.entity(entity).remove::<Teleport>();
        let Some((position, polygon)) = mesh.nearest_point(teleport.position) else {
            warn!(
                "unit {entity} stays put: its teleport target {} is not a number",
                teleport.position
            );
            continue;
        };
        let heading = if teleport.heading.is_finite() {
            teleport.heading
        } else {
            pose.heading
        };
        *pose = UnitPose { position, heading };
        location.polygon = Some(polygon);
        stand_still(&mut motion, &mut intent, *pose);
        intent.pending = match motion.goal {
            Goal::None => Pending::NewTarget,
            _ => Pending::Plan,
        };
        pose.write_to(&mut transform);
    }
}
