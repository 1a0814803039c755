//! [`crate::KerbSystems::Plan`]: new wander targets, and turning paths or
//! routes for every unit whose goal changed or whose path ended.

use std::sync::atomic::{AtomicU32, Ordering};

use bevy::ecs::entity::EntityHashSet;
use bevy::prelude::*;
use bevy::utils::Parallel;
use kerb_navmesh::{
    NavMesh, PolygonId, Route, RouteError, RouteGoal, WalkablePlan, weighted_length,
};
use kerb_turning::{Pose, TurningPath};

use super::reverse_out::reverse_out;
use super::wander_target::{WanderClock, choose_wander_target};
use super::{navmesh, small_batches};
use crate::avoidance::{AvoidanceSettings, Avoiding, Body, Crowd, way_among};
use crate::components::{
    Destination, NavLocation, ReverseGear, TurningRadius, Unit, UnitPose, Wander,
};
use crate::messages::{BlockReason, Blocked};
use crate::settings::{KerbSettings, KerbStats};
use crate::state::{FollowedRoute, Goal, Intent, Motion, Pending, WanderMemory};
use crate::world_asset::{KerbWorld, WorldAsset};

/// The least clearance a route keeps from wall corners, in metres. A route
/// with none bends exactly at corners, where rounding in sampling it can
/// put a unit a hair inside the wall and make confinement push it off the
/// route.
const ROUTE_CLEARANCE_FLOOR: f32 = 0.05;

/// How close to walls plans may come.
#[derive(Clone, Copy)]
struct Clearances {
    /// For a single turning path to a near goal.
    path: f32,
    /// For a route across the navmesh.
    route: f32,
}

/// Gives every wanderer that needs one a new wander target, then plans the
/// shortest walkable turning path for every unit that needs one, or a route
/// across the navmesh for a far destination.
///
/// Most units need neither, so a narrow pass first picks out the few that
/// do: fetching every component the planning needs for every unit would
/// cost more than the planning itself.
pub(crate) fn plan_paths(
    time: Res<Time>,
    settings: Res<KerbSettings>,
    world: Res<KerbWorld>,
    assets: Res<Assets<WorldAsset>>,
    mut stats: ResMut<KerbStats>,
    avoidance: Res<AvoidanceSettings>,
    crowd: Res<Crowd>,
    mut commands: Commands,
    mut blocked_messages: MessageWriter<Blocked>,
    mut blocked: Local<Parallel<Vec<(Blocked, bool)>>>,
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
    let clock = WanderClock {
        now: time.elapsed_secs_f64(),
        seed: settings.seed,
        wall_margin: settings.wall_margin,
    };
    // Those standing, as avoidance last saw them.
    let crowd = avoidance.enabled.then_some(&*crowd);
    let planned = AtomicU32::new(0);
    let clearances = Clearances {
        path: settings.clearance,
        route: settings.clearance.max(ROUTE_CLEARANCE_FLOOR),
    };
    units
        .p0()
        .par_iter()
        .batching_strategy(small_batches())
        .for_each(|(entity, intent, location, wanders, has_destination)| {
            let needs_target = intent.pending == Pending::NewTarget && wanders && !has_destination;
            let needs_plan = matches!(intent.pending, Pending::Plan | Pending::Rejoin);
            if (needs_plan || needs_target) && location.polygon.is_some() {
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
                body,
                location,
                mut intent,
                mut motion,
                wander,
                mut memory,
                mut followed,
                reverse_gear,
                avoiding,
                has_destination,
            )| {
                let Some(polygon) = location.polygon else {
                    return;
                };
                // A fresh plan starts the unit on its new path: the swerve
                // that may have asked for it is over. Left standing, the
                // first tick clear of others would drop the new path (a
                // step back out of a wall, say) as if it were the old one.
                if let Some(mut avoiding) = avoiding
                    && avoiding.off_path
                {
                    avoiding.off_path = false;
                }
                if intent.pending == Pending::NewTarget {
                    let (Some(wander), Some(memory)) = (wander, memory.as_deref_mut()) else {
                        return;
                    };
                    let target = choose_wander_target(
                        mesh, crowd, clock, entity, pose, body, radius.0, wander, memory,
                    );
                    motion.goal = Goal::Point(target);
                    intent.pending = Pending::Plan;
                }
                let rejoining = intent.pending == Pending::Rejoin;
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
                let reverse_cost = reverse_gear.map(|gear| gear.cost);
                let plan = goal.map_or(Planned::Path(TurningPath::stationary(start)), |goal| {
                    let gears = Gears {
                        radius: radius.0,
                        clearances,
                        reverse_cost,
                    };
                    // Reversing is opt-in, but one the crowd left where it
                    // cannot turn onto its way backs out of it.
                    let may_back_out = rejoining && has_destination;
                    plan_from(mesh, start, polygon, goal, gears, may_route, may_back_out)
                });
                // Pushed off the way to a place among others standing at
                // theirs: in along the gaps, not through them.
                let among = |legs: &[TurningPath], goal: Vec2, crowd: &Crowd| {
                    way_among(
                        crowd,
                        mesh,
                        legs,
                        goal,
                        radius.0,
                        body.radius,
                        clearances.path,
                    )
                };
                let way_in = match (&plan, motion.goal, crowd) {
                    (Planned::Path(path), Goal::Point(goal), Some(crowd))
                        if rejoining && may_route =>
                    {
                        among(std::slice::from_ref(path), goal, crowd)
                    }
                    (Planned::Route(route), Goal::Point(goal), Some(crowd)) if rejoining => {
                        among(route.legs(), goal, crowd)
                    }
                    _ => None,
                };
                let threading = way_in.is_some();
                let plan = way_in.map_or(plan, Planned::Route);
                intent.desired = *pose;
                intent.pending = Pending::Nothing;
                if let Some(followed) = followed.as_mut() {
                    followed.clear();
                }
                match plan {
                    Planned::Path(path) => motion.drive(path),
                    Planned::Route(route) => {
                        motion.drive(route.legs()[0]);
                        motion.threading = threading;
                        if let Some(followed) = followed.as_mut() {
                            followed.follow(route);
                        }
                    }
                    // A wanderer boxed in by walls closer than its turning circle
                    // backs out a step, along an arc if one fits, as a driver
                    // would.
                    Planned::Blocked(_)
                        if memory.is_some()
                            && motion.blocked_streak >= 2
                            && let Some(path) = reverse_out(
                                mesh,
                                start,
                                radius.0,
                                clearances.path,
                                None,
                                |_, _| true,
                            ) =>
                    {
                        motion.back_along(path);
                        motion.blocked_streak = 0;
                    }
                    Planned::Blocked(why) => {
                        motion.stop_blocked(start);
                        if let Some(followed) = followed.as_mut() {
                            followed.last_error = why;
                        }
                        if let Some(mut memory) = memory {
                            // Turn the wander angle round so the next target lies
                            // elsewhere instead of behind the same wall.
                            if let Some(state) = memory.state.as_mut() {
                                state.angle += std::f32::consts::PI;
                            }
                            intent.pending = Pending::NewTarget;
                        } else {
                            motion.goal = Goal::None;
                        }
                        let blocked_now = Blocked {
                            entity,
                            reason: BlockReason::from(why),
                        };
                        blocked
                            .borrow_local_mut()
                            .push((blocked_now, has_destination));
                    }
                }
            },
        );
    let planned = planned.into_inner();
    stats.planned_last_tick = planned;
    stats.planned_total += u64::from(planned);
    for (event, has_destination) in blocked.drain() {
        stats.blocked_total += 1;
        blocked_messages.write(event);
        commands.trigger(event);
        if has_destination {
            commands.entity(event.entity).remove::<Destination>();
        }
    }
}

/// What a metre in reverse costs a unit without a [`ReverseGear`] that
/// must back out of where it stands to get on its way: dear, so that it
/// backs no more than it must.
const ESCAPE_REVERSE_COST: f32 = 4.0;

/// Whether backing up could help a plan that found no way: the unit cannot
/// turn onto a path from where it stands. A goal off the mesh, on an island
/// or beyond a gap too narrow is there wherever it stands.
fn start_may_be_the_trouble(why: Option<RouteError>) -> bool {
    matches!(why, None | Some(RouteError::Undrivable { .. }))
}

type PlanningData = (
    Entity,
    &'static UnitPose,
    &'static TurningRadius,
    &'static Body,
    &'static NavLocation,
    &'static mut Intent,
    &'static mut Motion,
    Option<&'static Wander>,
    Option<&'static mut WanderMemory>,
    Option<&'static mut FollowedRoute>,
    Option<&'static ReverseGear>,
    Option<&'static mut Avoiding>,
    Has<Destination>,
);

/// How a unit may drive: its radius, its clearances and, with a
/// [`ReverseGear`], what a metre in reverse costs.
#[derive(Clone, Copy)]
struct Gears {
    radius: f32,
    clearances: Clearances,
    reverse_cost: Option<f32>,
}

/// How a unit's goal will be reached.
enum Planned {
    Path(TurningPath),
    Route(Route),
    /// No way found; for a route, why.
    Blocked(Option<RouteError>),
}

/// [`plan_to`], and where it finds no way and `may_back_out`: a unit that
/// the crowd left where it cannot turn onto its way (pressed against a
/// wall) backs out of it, as it backs out of a jam, rather than give up.
fn plan_from(
    mesh: &NavMesh,
    start: Pose,
    polygon: PolygonId,
    goal: RouteGoal,
    gears: Gears,
    may_route: bool,
    may_back_out: bool,
) -> Planned {
    match plan_to(mesh, start, polygon, goal, gears, may_route) {
        Planned::Blocked(why)
            if may_back_out && gears.reverse_cost.is_none() && start_may_be_the_trouble(why) =>
        {
            // A start closer to a wall than the route's clearance breaks it
            // wherever the route goes.
            let clearances = gears.clearances;
            let room = mesh.distance_to_wall(start.position, clearances.route);
            let escape = Gears {
                reverse_cost: Some(ESCAPE_REVERSE_COST),
                clearances: Clearances {
                    path: clearances.path.min(0.5 * room),
                    route: clearances.route.min(0.5 * room),
                },
                ..gears
            };
            plan_to(mesh, start, polygon, goal, escape, may_route)
        }
        plan => plan,
    }
}

/// The way from `start` (in `polygon`) to `goal`: one walkable turning path
/// when the goal is in this polygon or the next, otherwise (or when that
/// path is blocked) a route, if `may_route`. The path keeps the first
/// clearance, the route the second. A unit with a reverse gear may back up
/// on either: to a pose, the direct path is the cheaper of the forward and
/// the Reeds–Shepp ones.
fn plan_to(
    mesh: &NavMesh,
    start: Pose,
    polygon: PolygonId,
    goal: RouteGoal,
    gears: Gears,
    may_route: bool,
) -> Planned {
    let Gears {
        radius,
        clearances,
        reverse_cost,
    } = gears;
    let near = !may_route
        || mesh.locate(goal.position()).is_some_and(|goal_polygon| {
            goal_polygon == polygon || mesh.neighbors(polygon).any(|n| n == goal_polygon)
        });
    if near {
        let direct = match goal {
            RouteGoal::Point(point) => {
                mesh.plan_walkable_to_point(start, point, radius, clearances.path)
            }
            RouteGoal::Pose(pose) => {
                let forward = mesh.plan_walkable_to_pose(start, pose, radius, clearances.path);
                match (forward, reverse_cost) {
                    (Ok(forward), Some(cost)) => {
                        let reversing = mesh
                            .plan_walkable_to_pose_reversing(start, pose, radius, clearances.path)
                            .ok()
                            .and_then(WalkablePlan::path);
                        Ok(cheaper(forward, reversing, cost))
                    }
                    (forward, _) => forward,
                }
            }
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
    let route = match reverse_cost {
        Some(cost) => mesh.plan_route_reversing(start, goal, radius, clearances.route, cost),
        None => mesh.plan_route(start, goal, radius, clearances.route),
    };
    match route {
        Ok(route) => Planned::Route(route),
        Err(error) => Planned::Blocked(Some(error)),
    }
}

/// The cheaper of a forward plan and a path that may reverse, with a metre
/// in reverse costing `cost`.
fn cheaper(forward: WalkablePlan, reversing: Option<TurningPath>, cost: f32) -> WalkablePlan {
    match (forward, reversing) {
        (WalkablePlan::Path(path), Some(reversing))
            if weighted_length(&reversing, cost) >= path.length() =>
        {
            WalkablePlan::Path(path)
        }
        (_, Some(reversing)) => WalkablePlan::Path(reversing),
        (forward, None) => forward,
    }
}

#[cfg(test)]
mod tests {
    use kerb_navmesh::ValidWorld;

    use super::*;

    const TOWN: &str = include_str!("../../assets/worlds/town.world.ron");

    fn forward_only(radius: f32) -> Gears {
        Gears {
            radius,
            clearances: Clearances {
                path: 0.0,
                route: ROUTE_CLEARANCE_FLOOR,
            },
            reverse_cost: None,
        }
    }

    /// A tank left facing the wrong way in a street narrower than its
    /// turning circle: blocked when it set off like that, backing out of
    /// it when the crowd left it there.
    #[test]
    fn only_a_unit_rejoining_backs_out_of_where_it_stands() {
        let world = ValidWorld::from_ron(TOWN).unwrap();
        let mesh = &world.navmesh;
        let start = Pose::new(Vec2::new(40.0, 6.0), 3.6);
        let goal = RouteGoal::Point(Vec2::new(66.0, 120.0));
        let polygon = mesh.locate(start.position).unwrap();
        let tank = forward_only(11.0);
        assert!(matches!(
            plan_from(mesh, start, polygon, goal, tank, true, false),
            Planned::Blocked(Some(RouteError::Undrivable { .. }))
        ));
        let Planned::Route(route) = plan_from(mesh, start, polygon, goal, tank, true, true) else {
            panic!("no way out");
        };
        assert!(route.legs().iter().any(TurningPath::reverses));
    }

    /// Pedestrians pressed 2 cm from a wall and facing it, all over the
    /// town: each that cannot set off from there forwards gets out by
    /// backing, and none of them is blocked by where it stands.
    #[test]
    fn a_unit_pressed_against_a_wall_gets_out() {
        let world = ValidWorld::from_ron(TOWN).unwrap();
        let mesh = &world.navmesh;
        let pedestrian = forward_only(0.8);
        let goal = RouteGoal::Point(mesh.centroid(PolygonId(0)));
        let mut stuck_forwards = 0;
        for polygon in mesh.polygon_ids() {
            let centre = mesh.centroid(polygon);
            let Some(wall) = mesh.nearest_wall_point(centre, 50.0) else {
                continue;
            };
            let towards = (wall - centre).normalize();
            let start = Pose::new(wall - towards * 0.02, towards.to_angle());
            let Some(at) = mesh.locate(start.position) else {
                continue;
            };
            let forwards = plan_from(mesh, start, at, goal, pedestrian, true, false);
            let Planned::Blocked(why) = forwards else {
                continue;
            };
            if !start_may_be_the_trouble(why) {
                continue;
            }
            stuck_forwards += 1;
            let out = plan_from(mesh, start, at, goal, pedestrian, true, true);
            assert!(
                !matches!(out, Planned::Blocked(why) if start_may_be_the_trouble(why)),
                "still stuck at {start:?}"
            );
        }
        assert!(stuck_forwards > 10, "{stuck_forwards}");
    }

    /// A unit told to plan afresh while it swerved (pushed far off its
    /// path, or a wanderer backing out of a wall) sets off on the fresh
    /// path: the first tick clear of others does not drop it as the path
    /// it swerved off, and plan again.
    #[test]
    fn a_fresh_plan_made_while_swerving_is_driven() {
        use std::time::Duration;

        use bevy::time::TimeUpdateStrategy;

        use crate::{Destination, KerbPlugin, KerbWorld, Unit};

        let mut app = App::new();
        app.add_plugins((
            MinimalPlugins,
            bevy::asset::AssetPlugin::default(),
            KerbPlugin::default(),
        ));
        let tick = Duration::from_millis(50);
        app.insert_resource(TimeUpdateStrategy::ManualDuration(tick));
        app.insert_resource(Time::<Fixed>::from_duration(tick));
        let world = kerb_navmesh::generate::grid_world(20, 20, 2.0, |_, _| false)
            .validate()
            .expect("a plain grid is valid");
        let kerb_world = KerbWorld::from_built(
            world,
            &mut app.world_mut().resource_mut::<Assets<WorldAsset>>(),
        );
        app.insert_resource(kerb_world);
        let unit = app
            .world_mut()
            .spawn((
                Unit,
                Destination::Point(Vec2::new(30.0, 20.0)),
                Transform::from_xyz(10.0, 20.0, 0.0),
            ))
            .id();
        for _ in 0..5 {
            app.update();
        }
        let planned = app.world().resource::<KerbStats>().planned_total;
        assert!(
            app.world()
                .get::<Motion>(unit)
                .is_some_and(Motion::is_moving)
        );
        // As avoidance leaves a unit it carried off its path.
        let mut entity = app.world_mut().entity_mut(unit);
        entity.get_mut::<Avoiding>().expect("avoiding").off_path = true;
        entity.get_mut::<Intent>().expect("intent").pending = Pending::Rejoin;
        for _ in 0..3 {
            app.update();
        }
        let world = app.world();
        assert_eq!(world.resource::<KerbStats>().planned_total, planned + 1);
        assert!(world.get::<Motion>(unit).is_some_and(Motion::is_moving));
        assert_eq!(
            world.get::<Intent>(unit).map(Intent::pending),
            Some(Pending::Nothing)
        );
        assert!(
            world
                .get::<Avoiding>(unit)
                .is_some_and(|a| !a.is_off_path())
        );
    }
}
