//! The systems behind [`crate::KerbSystems`]: prepare, plan, advance, confine.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Instant;

use bevy::asset::AssetLoadFailedEvent;
use bevy::ecs::batching::BatchingStrategy;
use bevy::ecs::entity::EntityHashSet;
use bevy::prelude::*;
use bevy::utils::Parallel;
use kerb_navmesh::{NavMesh, PolygonId, Route, RouteError, RouteGoal, WalkablePlan};
use kerb_turning::{Pose, TurningPath};

use crate::Speed;
use crate::components::{
    Destination, FollowedRoute, Goal, Intent, Motion, NavLocation, Pending, TurningRadius, Unit,
    UnitPose, Wander, WanderMemory,
};
use crate::messages::{Arrived, Blocked};
use crate::settings::{KerbSettings, KerbStats};
use crate::world_asset::{KerbWorld, WorldAsset};

/// Moves smaller than this are not a deviation from the path.
const DEVIATION: f32 = 1e-3;

/// How many times in a row a unit with a destination backs up to turn
/// round before it gives up.
const MAX_TURN_AROUNDS: u8 = 3;

/// The least clearance a route keeps from wall corners, in metres. A route
/// with none bends exactly at corners, where rounding in sampling it can
/// put a unit a hair inside the wall and make confinement push it off the
/// route.
const ROUTE_CLEARANCE_FLOOR: f32 = 0.05;

fn navmesh<'a>(world: &KerbWorld, assets: &'a Assets<WorldAsset>) -> Option<&'a NavMesh> {
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
fn small_batches() -> BatchingStrategy {
    BatchingStrategy::new().batches_per_thread(4)
}

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
            location.polygon = Some(polygon.0);
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
            location.polygon = Some(polygon.0);
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
                motion.path = TurningPath::stationary(motion.path.sample(motion.travelled));
                motion.travelled = 0.0;
            }
        }
    }
}

/// Gives a wanderer a new, walkable wander target, first letting its wander
/// angle wander for the time since it last did.
fn choose_wander_target(
    mesh: &NavMesh,
    (now, seed, margin): (f64, u64, f32),
    entity: Entity,
    pose: &UnitPose,
    wander: &Wander,
    memory: &mut WanderMemory,
) -> Vec2 {
    if !memory.seeded {
        // On the first target rather than on placement, so that a unit told
        // to wander later gets its own stream too.
        memory.state = kerb_steering::WanderState::new(seed, entity.to_bits());
        memory.seeded = true;
        memory.wandered_until = now;
    }
    let params = wander.params();
    let wandered = (now - memory.wandered_until) as f32;
    memory.wandered_until = now;
    memory.state.advance(&params, wandered);
    memory
        .state
        .walkable_target(&params, pose.position, pose.heading, mesh, margin)
}

/// Gives every wanderer that needs one a new wander target, then plans the
/// shortest walkable turning path for every unit that needs one, or a route
/// across the navmesh for a far destination.
///
/// Most units need neither, so a narrow pass first picks out the few that
/// do: fetching every component the planning needs for every unit cost
/// several times what the planning itself did.
pub(crate) fn plan_paths(
    time: Res<Time>,
    settings: Res<KerbSettings>,
    world: Res<KerbWorld>,
    assets: Res<Assets<WorldAsset>>,
    mut stats: ResMut<KerbStats>,
    mut commands: Commands,
    mut blocked_messages: MessageWriter<Blocked>,
    mut blocked: Local<Parallel<Vec<(Entity, bool)>>>,
    mut needing_found: Local<Parallel<Vec<Entity>>>,
    mut needing: Local<EntityHashSet>,
    mut units: ParamSet<(
        Query<(Entity, &Intent, &NavLocation, Has<Wander>, Has<Destination>), With<Unit>>,
        Query<PlanningData, With<Unit>>,
    )>,
) {
    let Some(mesh) = navmesh(&world, &assets) else {
        return;
    };
    let wandering = (time.elapsed_secs_f64(), settings.seed, settings.wall_margin);
    let planned = AtomicU32::new(0);
    let clearance = settings.clearance;
    let route_clearance = clearance.max(ROUTE_CLEARANCE_FLOOR);
    units
        .p0()
        .par_iter()
        .batching_strategy(small_batches())
        .for_each(|(entity, intent, location, wanders, has_destination)| {
            let needs_target = intent.pending == Pending::NewTarget && wanders && !has_destination;
            if (intent.pending == Pending::Plan || needs_target) && location.polygon.is_some() {
                needing_found.borrow_local_mut().push(entity);
            }
        });
    needing.clear();
    needing.extend(needing_found.drain());
    units
        .p1()
        .par_iter_many_unique_mut(&*needing)
        .batching_strategy(small_batches())
        .for_each(
            |(
                entity,
                pose,
                radius,
                location,
                mut intent,
                mut motion,
                wander,
                mut memory,
                mut followed,
                has_destination,
            )| {
                let Some(polygon) = location.polygon else {
                    return;
                };
                if intent.pending == Pending::NewTarget {
                    let (Some(wander), Some(memory)) = (wander, memory.as_deref_mut()) else {
                        return;
                    };
                    let target =
                        choose_wander_target(mesh, wandering, entity, pose, wander, memory);
                    motion.goal = Goal::Point(target);
                    intent.pending = Pending::Plan;
                }
                planned.fetch_add(1, Ordering::Relaxed);
                let start = pose.to_pose();
                let goal = match motion.goal {
                    Goal::None => None,
                    Goal::Point(point) => Some(RouteGoal::Point(point)),
                    Goal::Pose(position, heading) => {
                        Some(RouteGoal::Pose(Pose::new(position, heading)))
                    }
                };
                let may_route = has_destination && followed.is_some();
                let plan = goal.map_or(Planned::Path(TurningPath::stationary(start)), |goal| {
                    plan_to(
                        mesh,
                        start,
                        PolygonId(polygon),
                        goal,
                        radius.0,
                        (clearance, route_clearance),
                        may_route,
                    )
                });
                motion.travelled = 0.0;
                intent.desired = *pose;
                motion.reversing = false;
                if let Some(followed) = followed.as_mut() {
                    followed.clear();
                }
                match plan {
                    Planned::Path(path) => {
                        motion.path = path;
                        intent.pending = Pending::Nothing;
                        motion.blocked_streak = 0;
                    }
                    Planned::Route(route) => {
                        motion.path = route.legs()[0];
                        intent.pending = Pending::Nothing;
                        motion.blocked_streak = 0;
                        if let Some(followed) = followed.as_mut() {
                            followed.route = Some(route);
                            followed.last_error = None;
                        }
                    }
                    // A unit facing the wrong way in a street narrower than its
                    // turning circle backs round (a three-point turn), then
                    // plans again.
                    Planned::Blocked(Some(RouteError::Undrivable { .. }))
                        if has_destination
                            && motion.blocked_streak < MAX_TURN_AROUNDS
                            && let Some(goal) = goal
                            && let Some(path) =
                                mesh.plan_turn_around(start, goal, radius.0, route_clearance) =>
                    {
                        motion.path = path;
                        motion.reversing = true;
                        intent.pending = Pending::Nothing;
                        motion.blocked_streak += 1;
                    }
                    // A wanderer boxed in by walls closer than its turning circle
                    // backs out a step, along an arc if one fits, as a driver
                    // would.
                    Planned::Blocked(_)
                        if memory.is_some()
                            && motion.blocked_streak >= 2
                            && let Some(path) = reverse_out(mesh, start, radius.0, clearance) =>
                    {
                        motion.path = path;
                        motion.reversing = true;
                        intent.pending = Pending::Nothing;
                        motion.blocked_streak = 0;
                    }
                    Planned::Blocked(why) => {
                        motion.path = TurningPath::stationary(start);
                        motion.blocked_streak = motion.blocked_streak.saturating_add(1);
                        if let Some(followed) = followed.as_mut() {
                            followed.last_error = why;
                        }
                        if let Some(mut memory) = memory {
                            // Turn the wander angle round so the next target lies
                            // elsewhere instead of behind the same wall.
                            memory.state.angle += std::f32::consts::PI;
                            intent.pending = Pending::NewTarget;
                        } else {
                            intent.pending = Pending::Nothing;
                            motion.goal = Goal::None;
                        }
                        blocked.borrow_local_mut().push((entity, has_destination));
                    }
                }
            },
        );
    let planned = planned.into_inner();
    stats.planned_last_tick = planned;
    stats.planned_total += u64::from(planned);
    for (entity, has_destination) in blocked.drain() {
        stats.blocked_total += 1;
        blocked_messages.write(Blocked { entity });
        if has_destination {
            commands.entity(entity).remove::<Destination>();
        }
    }
}

type PlanningData = (
    Entity,
    &'static UnitPose,
    &'static TurningRadius,
    &'static NavLocation,
    &'static mut Intent,
    &'static mut Motion,
    Option<&'static Wander>,
    Option<&'static mut WanderMemory>,
    Option<&'static mut FollowedRoute>,
    Has<Destination>,
);

/// How a unit's goal will be reached.
enum Planned {
    Path(TurningPath),
    Route(Route),
    /// No way found; for a route, why.
    Blocked(Option<RouteError>),
}

/// The way from `start` (in `polygon`) to `goal`: one walkable turning path
/// when the goal is in this polygon or the next, otherwise (or when that
/// path is blocked) a route, if `may_route`. The path keeps the first
/// clearance, the route the second.
fn plan_to(
    mesh: &NavMesh,
    start: Pose,
    polygon: PolygonId,
    goal: RouteGoal,
    radius: f32,
    (clearance, route_clearance): (f32, f32),
    may_route: bool,
) -> Planned {
    let near = !may_route
        || mesh.locate(goal.position()).is_some_and(|goal_polygon| {
            goal_polygon == polygon || mesh.neighbors(polygon).any(|n| n == goal_polygon)
        });
    if near {
        let direct = match goal {
            RouteGoal::Point(point) => mesh.plan_walkable_to_point(start, point, radius, clearance),
            RouteGoal::Pose(pose) => mesh.plan_walkable_to_pose(start, pose, radius, clearance),
        };
        match direct {
            Ok(WalkablePlan::Path(path)) => return Planned::Path(path),
            // A radius that is not positive, or a NaN goal, is as
            // undrivable as a wall in the way.
            Err(error) => return Planned::Blocked(Some(error.into())),
            Ok(WalkablePlan::Blocked) if !may_route => return Planned::Blocked(None),
            Ok(WalkablePlan::Blocked) => {}
        }
    }
    match mesh.plan_route(start, goal, radius, route_clearance) {
        Ok(route) => Planned::Route(route),
        Err(error) => Planned::Blocked(Some(error)),
    }
}

/// A short path backwards from `start`, as long as the walls allow, up to
/// one turning radius: an arc at full lock if one fits, so that the unit
/// faces a new way when it drives on (backing out of a dead end a step at a
/// time, as a driver does), else a straight line.
///
/// The longest step that fits wins. Between equally long ones the arc that
/// swings the front left comes first, then the right, then the straight
/// line, so that in open space successive steps keep turning the same way
/// instead of undoing each other.
fn reverse_out(mesh: &NavMesh, start: Pose, radius: f32, clearance: f32) -> Option<TurningPath> {
    let backwards = Pose::new(start.position, start.heading + std::f32::consts::PI);
    // Seen from the backwards pose, a left turn (side 1) swings the unit's
    // front left; side 0 is straight back.
    let steps = [1.0, 0.5, 0.25, 0.1]
        .into_iter()
        .flat_map(|fraction| [1.0, -1.0, 0.0].map(|side| (fraction, side)));
    steps.into_iter().find_map(|(fraction, side)| {
        let length = (radius * fraction).max(0.2);
        let path = if side == 0.0 {
            let goal = backwards.position + backwards.forward() * length;
            TurningPath::straight(backwards.position, goal)
        } else {
            let to_center = backwards.forward().perp() * (side * radius);
            let center = backwards.position + to_center;
            let goal = center - Vec2::from_angle(side * length / radius).rotate(to_center);
            kerb_turning::plan_to_point(backwards, goal, radius).ok()?
        };
        // A goal a hair inside the circle would be reached by a loop.
        (path.length() <= length * 1.01 && mesh.is_walkable(&path, clearance)).then_some(path)
    })
}

/// Drives each unit along its path by speed × time, sampling the pose
/// exactly from the path (the seed's Listing 2). On a route, distance left
/// over at the end of one leg carries on along the next.
pub(crate) fn advance_along_paths(
    time: Res<Time>,
    mut stats: ResMut<KerbStats>,
    mut commands: Commands,
    mut arrived_messages: MessageWriter<Arrived>,
    mut arrived: Local<Parallel<Vec<Entity>>>,
    mut units: Query<
        (
            Entity,
            &UnitPose,
            &Speed,
            &mut Intent,
            &mut Motion,
            Option<&mut FollowedRoute>,
            Has<Wander>,
            Has<Destination>,
        ),
        With<Unit>,
    >,
) {
    let dt = time.delta_secs();
    units
        .par_iter_mut()
        .batching_strategy(small_batches())
        .for_each(
            |(
                entity,
                pose,
                speed,
                mut intent,
                mut motion,
                mut followed,
                wanders,
                has_destination,
            )| {
                if intent.pending != Pending::Nothing || !motion.is_moving() {
                    if intent.desired != *pose {
                        intent.desired = *pose;
                    }
                    // A wanderer whose path is done (even one of length zero) wants
                    // the next target.
                    if intent.pending == Pending::Nothing && wanders && !has_destination {
                        intent.pending = Pending::NewTarget;
                    }
                    return;
                }
                let mut travelled = motion.travelled + speed.0.max(0.0) * dt;
                while travelled > motion.path.length()
                    && let Some(next) = followed.as_deref().and_then(FollowedRoute::next_leg)
                {
                    travelled -= motion.path.length();
                    motion.path = *next;
                    if let Some(followed) = followed.as_mut() {
                        followed.leg += 1;
                    }
                }
                let travelled = travelled.min(motion.path.length());
                motion.travelled = travelled;
                let sampled = motion.path.sample(travelled);
                let facing = if motion.reversing {
                    std::f32::consts::PI
                } else {
                    0.0
                };
                intent.desired = UnitPose {
                    position: sampled.position,
                    heading: sampled.heading + facing,
                };
                if travelled >= motion.path.length() {
                    let backed_up = std::mem::take(&mut motion.reversing);
                    if let Some(followed) = followed.as_mut() {
                        followed.clear();
                    }
                    if backed_up && has_destination {
                        // Turned round: now the way on can be planned.
                        intent.pending = Pending::Plan;
                    } else if has_destination {
                        motion.goal = Goal::None;
                        arrived.borrow_local_mut().push(entity);
                    } else if wanders {
                        intent.pending = Pending::NewTarget;
                    }
                }
            },
        );
    for entity in arrived.drain() {
        stats.arrived_total += 1;
        arrived_messages.write(Arrived { entity });
        commands.entity(entity).remove::<Destination>();
    }
}

/// Moves each unit to where its path wants it, through the navmesh: it
/// never leaves the walkable area, and a unit pushed off its path replans.
pub(crate) fn confine_to_navmesh(
    world: Res<KerbWorld>,
    assets: Res<Assets<WorldAsset>>,
    mut units: Query<
        (
            &mut UnitPose,
            &mut NavLocation,
            &mut Intent,
            &mut Transform,
            Has<Wander>,
        ),
        With<Unit>,
    >,
) {
    let Some(mesh) = navmesh(&world, &assets) else {
        return;
    };
    units
        .par_iter_mut()
        .batching_strategy(small_batches())
        .for_each(
            |(mut pose, mut location, mut intent, mut transform, wanders)| {
                let Some(polygon) = location.polygon else {
                    return;
                };
                let desired = intent.desired;
                if desired.position != pose.position {
                    let result =
                        mesh.move_along(PolygonId(polygon), pose.position, desired.position);
                    if result.position.distance_squared(desired.position) > DEVIATION * DEVIATION
                        && intent.pending == Pending::Nothing
                    {
                        intent.pending = if wanders {
                            Pending::NewTarget
                        } else {
                            Pending::Plan
                        };
                    }
                    // Compared first: writing would mark the location changed.
                    if result.polygon.0 != polygon {
                        location.polygon = Some(result.polygon.0);
                    }
                    pose.position = result.position;
                }
                if pose.heading != desired.heading {
                    pose.heading = desired.heading;
                    transform.rotation = Quat::from_rotation_z(pose.heading);
                }
                // Only touch the transform when the unit moved, so standing
                // units cost transform propagation nothing.
                if transform.translation.x != pose.position.x
                    || transform.translation.y != pose.position.y
                {
                    transform.translation.x = pose.position.x;
                    transform.translation.y = pose.position.y;
                }
            },
        );
}

#[cfg(test)]
mod tests {
    use super::*;
    use kerb_navmesh::generate::grid_world;
    use kerb_turning::Segment;

    fn mesh(columns: u32, rows: u32, cell: f32) -> NavMesh {
        grid_world(columns, rows, cell, |_, _| false)
            .validate()
            .expect("a plain grid is valid")
            .navmesh
    }

    /// The single segment of a backing step, as (sweep, length); a line's
    /// sweep is zero.
    fn step(path: &TurningPath) -> (f32, f32) {
        assert_eq!(path.segments().len(), 1, "one segment: {path:?}");
        match path.segments()[0] {
            Segment::Arc { sweep, .. } => (sweep, path.length()),
            Segment::Line { length, .. } => (0.0, length),
        }
    }

    #[test]
    fn boxed_in_units_back_out_along_an_arc_that_fits() {
        // In the open: a full radius of arc, swinging the front left (a left
        // turn as seen backing up).
        let open = mesh(10, 10, 2.0);
        let start = Pose::new(Vec2::new(10.0, 10.0), 0.0);
        let (sweep, length) = step(&reverse_out(&open, start, 1.0, 0.0).expect("open space"));
        assert!(
            sweep > 0.9 && (length - 1.0).abs() < 1e-3,
            "{sweep} {length}"
        );

        // Backing up westwards, a left turn swings south: with the wall 0.3 m
        // to the south only the right arc fits.
        let beside_wall = Pose::new(Vec2::new(10.0, 0.3), 0.0);
        let (sweep, length) = step(&reverse_out(&open, beside_wall, 1.0, 0.0).expect("room"));
        assert!(
            sweep < -0.9 && (length - 1.0).abs() < 1e-3,
            "{sweep} {length}"
        );

        // In a lane 0.4 m wide no arc of a radius fits, but a straight line
        // of that length does, and the longest step wins.
        let lane = mesh(25, 1, 0.4);
        let in_lane = Pose::new(Vec2::new(5.0, 0.2), 0.0);
        let (sweep, length) = step(&reverse_out(&lane, in_lane, 1.0, 0.0).expect("the lane"));
        assert!(
            sweep == 0.0 && (length - 1.0).abs() < 1e-3,
            "{sweep} {length}"
        );

        // Against the lane's end there is no step at all.
        let at_end = Pose::new(Vec2::new(0.05, 0.2), 0.0);
        assert!(reverse_out(&lane, at_end, 1.0, 0.0).is_none());
    }
}
