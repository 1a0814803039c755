//! The plugin, headless: `MinimalPlugins`, manual time, asserting on the world.

use std::time::Duration;

use crate::prelude::*;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use kerb_navmesh::generate::grid_world;
use kerb_navmesh::{NavMesh, PolygonId, World as KerbWorldData};
use kerb_turning::{Segment, wrap_signed};

const SMALL: &str = include_str!("../assets/worlds/small.world.ron");
const TOWN: &str = include_str!("../assets/worlds/town.world.ron");

/// A headless app ticking `hz` times a simulated second, one fixed tick per update.
fn app_with(world: KerbWorldData, hz: u32, seed: u64) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin::default(),
        KerbPlugin::default(),
    ));
    let tick = Duration::from_nanos(1_000_000_000 / u64::from(hz));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(tick));
    app.insert_resource(Time::<Fixed>::from_duration(tick));
    app.insert_resource(KerbSettings { seed, ..default() });
    let kerb_world = KerbWorld::from_built(
        world,
        &mut app.world_mut().resource_mut::<Assets<WorldAsset>>(),
    );
    app.insert_resource(kerb_world);
    // The first update only starts the clock.
    app.update();
    app
}

fn small() -> KerbWorldData {
    KerbWorldData::from_ron(SMALL).unwrap()
}

fn navmesh(app: &App) -> NavMesh {
    let world = app.world();
    let handle = &world.resource::<KerbWorld>().handle;
    world
        .resource::<Assets<WorldAsset>>()
        .get(handle)
        .unwrap()
        .world
        .navmesh
        .clone()
}

/// Spawns a unit of `radius` at `(x, y)` facing +x, sent to `destination`.
fn send(app: &mut App, radius: f32, x: f32, y: f32, destination: Destination) -> Entity {
    app.world_mut()
        .spawn((
            Unit,
            TurningRadius(radius),
            destination,
            Transform::from_xyz(x, y, 0.0),
        ))
        .id()
}

fn read_messages<M: Message + Copy>(app: &mut App) -> Vec<M> {
    let messages = app.world().resource::<Messages<M>>();
    messages.iter_current_update_messages().copied().collect()
}

fn assert_on_mesh(app: &mut App, mesh: &NavMesh) {
    let mut query = app.world_mut().query::<(Entity, &UnitPose, &NavLocation)>();
    for (entity, pose, location) in query.iter(app.world()) {
        let polygon = PolygonId(location.polygon.expect("placed"));
        assert!(
            mesh.contains_closed(polygon, pose.position),
            "{entity} at {} is outside polygon {polygon:?}",
            pose.position
        );
    }
}

#[test]
fn a_unit_reaches_a_destination_behind_a_turn_on_its_radius() {
    let mut app = app_with(small(), 60, 1);
    let mesh = navmesh(&app);
    let radius = 2.0;
    let goal = Vec2::new(15.0, 15.0);
    let unit = app
        .world_mut()
        .spawn((
            Unit,
            TurningRadius(radius),
            Speed(4.0),
            Destination::Point(goal),
            Transform::from_xyz(5.0, 3.0, 0.0)
                .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2)),
        ))
        .id();
    let mut arrived = false;
    let mut previous: Option<UnitPose> = None;
    for _ in 0..600 {
        app.update();
        assert_on_mesh(&mut app, &mesh);
        let motion = *app.world().get::<Motion>(unit).unwrap();
        for segment in motion.path.segments() {
            if let Segment::Arc { radius: r, .. } = segment {
                assert_eq!(*r, radius);
            }
        }
        let pose = *app.world().get::<UnitPose>(unit).unwrap();
        if let Some(previous) = previous {
            let moved = pose.position.distance(previous.position);
            let turned = wrap_signed(pose.heading - previous.heading).abs();
            assert!(
                turned <= moved / radius + 1e-3,
                "turned {turned} over {moved} m"
            );
        }
        previous = Some(pose);
        if read_messages::<Arrived>(&mut app)
            .iter()
            .any(|m| m.entity == unit)
        {
            arrived = true;
            break;
        }
    }
    assert!(arrived, "never arrived");
    let pose = app.world().get::<UnitPose>(unit).unwrap();
    assert!(pose.position.distance(goal) < 1e-2, "{}", pose.position);
    assert!(
        app.world().get::<Destination>(unit).is_none(),
        "removed on arrival"
    );
    // The transform follows the pose.
    let transform = app.world().get::<Transform>(unit).unwrap();
    assert!(transform.translation.truncate().distance(pose.position) < 1e-6);
}

#[test]
fn a_pose_destination_arrives_facing_the_heading() {
    let mut app = app_with(small(), 60, 1);
    let unit = app
        .world_mut()
        .spawn((
            Unit,
            TurningRadius(2.0),
            Speed(5.0),
            Destination::Pose {
                position: Vec2::new(25.0, 5.0),
                heading: std::f32::consts::PI,
            },
            Transform::from_xyz(3.0, 5.0, 0.0),
        ))
        .id();
    for _ in 0..600 {
        app.update();
        if app.world().get::<Destination>(unit).is_none() {
            break;
        }
    }
    let pose = app.world().get::<UnitPose>(unit).unwrap();
    assert!(
        pose.position.distance(Vec2::new(25.0, 5.0)) < 1e-2,
        "{}",
        pose.position
    );
    assert!(
        wrap_signed(pose.heading - std::f32::consts::PI).abs() < 1e-3,
        "{}",
        pose.heading
    );
}

#[test]
fn unreachable_destinations_are_blocked() {
    let mut app = app_with(small(), 60, 1);
    let unit = send(
        &mut app,
        2.0,
        5.0,
        5.0,
        Destination::Point(Vec2::new(42.0, 41.0)),
    );
    let mut blocked = false;
    for _ in 0..5 {
        app.update();
        blocked |= read_messages::<Blocked>(&mut app)
            .iter()
            .any(|m| m.entity == unit);
    }
    assert!(blocked);
    assert!(app.world().get::<Destination>(unit).is_none());
    assert_eq!(app.world().resource::<KerbStats>().blocked_total, 1);
    // The island is another piece of walkable area: the route says so.
    let followed = app.world().get::<FollowedRoute>(unit).unwrap();
    assert!(
        matches!(
            followed.last_error,
            Some(kerb_navmesh::RouteError::Unreachable { .. })
        ),
        "{:?}",
        followed.last_error
    );
}

#[test]
fn a_far_destination_is_reached_along_a_route() {
    let town = KerbWorldData::from_ron(TOWN).unwrap();
    // 20 Hz: large steps, so legs end mid-tick and the rest carries on.
    let mut app = app_with(town, 20, 1);
    let mesh = navmesh(&app);
    let radius = 11.0;
    let goal = Vec2::new(66.0, 120.0);
    let unit = app
        .world_mut()
        .spawn((
            Unit,
            TurningRadius(radius),
            Speed(8.0),
            Destination::Point(goal),
            Transform::from_xyz(20.0, 6.0, 0.0),
        ))
        .id();
    app.update();
    let followed = app.world().get::<FollowedRoute>(unit).unwrap();
    let route = followed
        .route
        .clone()
        .expect("a far destination gets a route");
    assert!(route.legs().len() > 1, "{} legs", route.legs().len());
    assert!(route.end().position.distance(goal) < 1e-3);
    let mut previous = *app.world().get::<UnitPose>(unit).unwrap();
    let mut legs_seen = vec![0];
    let mut arrived = false;
    for _ in 0..20 * 60 {
        app.update();
        assert_on_mesh(&mut app, &mesh);
        let pose = *app.world().get::<UnitPose>(unit).unwrap();
        let moved = pose.position.distance(previous.position);
        let turned = wrap_signed(pose.heading - previous.heading).abs();
        assert!(
            turned <= moved / radius + 1e-3,
            "turned {turned} over {moved} m"
        );
        // Exactly where the route puts it: no confinement was needed.
        let travelled: f32 = route.legs()[..app.world().get::<FollowedRoute>(unit).unwrap().leg]
            .iter()
            .map(|leg| leg.length())
            .sum::<f32>()
            + app.world().get::<Motion>(unit).unwrap().travelled;
        if app.world().get::<Destination>(unit).is_some() {
            assert!(
                route.sample(travelled).position.distance(pose.position) < 1e-3,
                "off the route at {}",
                pose.position
            );
            legs_seen.push(app.world().get::<FollowedRoute>(unit).unwrap().leg);
        }
        previous = pose;
        if read_messages::<Arrived>(&mut app)
            .iter()
            .any(|m| m.entity == unit)
        {
            arrived = true;
            break;
        }
    }
    assert!(arrived, "never arrived; at {}", previous.position);
    assert!(previous.position.distance(goal) < 1e-2);
    legs_seen.dedup();
    assert_eq!(legs_seen, (0..route.legs().len()).collect::<Vec<_>>());
    let followed = app.world().get::<FollowedRoute>(unit).unwrap();
    assert!(followed.route.is_none(), "forgotten on arrival");
}

#[test]
fn a_tank_facing_the_wrong_way_backs_round_then_follows_its_route() {
    let town = KerbWorldData::from_ron(TOWN).unwrap();
    let mut app = app_with(town, 30, 1);
    let mesh = navmesh(&app);
    let goal = Vec2::new(66.0, 120.0);
    // In the 16 m bottom street facing west-south-west, away from the goal:
    // a 22 m turning circle cannot turn round without backing up.
    let heading = 3.6;
    let start = kerb_turning::Pose::new(Vec2::new(40.0, 6.0), heading);
    assert!(matches!(
        mesh.plan_route(start, kerb_navmesh::RouteGoal::Point(goal), 11.0, 0.05),
        Err(kerb_navmesh::RouteError::Undrivable { .. })
    ));
    let unit = app
        .world_mut()
        .spawn((
            Unit,
            TurningRadius(11.0),
            Speed(8.0),
            Destination::Point(goal),
            Transform::from_xyz(40.0, 6.0, 0.0).with_rotation(Quat::from_rotation_z(heading)),
        ))
        .id();
    let mut backed_up = false;
    let mut arrived = false;
    for _ in 0..30 * 90 {
        app.update();
        assert_on_mesh(&mut app, &mesh);
        backed_up |= app.world().get::<Motion>(unit).unwrap().reversing;
        if read_messages::<Arrived>(&mut app)
            .iter()
            .any(|m| m.entity == unit)
        {
            arrived = true;
            break;
        }
        assert!(
            read_messages::<Blocked>(&mut app).is_empty(),
            "gave up: {:?}",
            app.world().get::<FollowedRoute>(unit).unwrap().last_error
        );
    }
    assert!(backed_up, "never backed up");
    assert!(arrived, "never arrived");
    let pose = app.world().get::<UnitPose>(unit).unwrap();
    assert!(pose.position.distance(goal) < 1e-2, "{}", pose.position);
}

#[test]
fn a_near_destination_is_one_turning_path() {
    let mut app = app_with(small(), 60, 1);
    let unit = send(
        &mut app,
        1.0,
        5.0,
        5.0,
        Destination::Point(Vec2::new(15.0, 5.0)),
    );
    app.update();
    let followed = app.world().get::<FollowedRoute>(unit).unwrap();
    assert!(followed.route.is_none(), "the next polygon needs no route");
    let motion = app.world().get::<Motion>(unit).unwrap();
    assert!(motion.path.end().position.distance(Vec2::new(15.0, 5.0)) < 1e-4);
}

#[test]
fn units_spawned_off_the_walkable_area_are_snapped_onto_it() {
    let mut app = app_with(small(), 60, 1);
    let mesh = navmesh(&app);
    let unit = app
        .world_mut()
        .spawn((Unit, Transform::from_xyz(-20.0, 5.0, 0.0)))
        .id();
    app.update();
    let pose = app.world().get::<UnitPose>(unit).unwrap();
    assert_eq!(pose.position, Vec2::new(0.0, 5.0));
    assert_on_mesh(&mut app, &mesh);
}

#[test]
fn a_unit_spawned_at_nan_stays_unplaced_and_the_rest_carry_on() {
    let mut app = app_with(small(), 60, 1);
    let lost = app
        .world_mut()
        .spawn((Unit, Transform::from_xyz(f32::NAN, 5.0, 0.0)))
        .id();
    let sent = send_with(&mut app, 1.0, 20.0, Quat::IDENTITY);
    for _ in 0..120 {
        app.update();
    }
    assert_eq!(app.world().get::<NavLocation>(lost).unwrap().polygon, None);
    assert_eq!(app.world().get::<Motion>(lost).unwrap().path.length(), 0.0);
    // kerb leaves the transform as the game set it.
    let transform = app.world().get::<Transform>(lost).unwrap();
    assert!(transform.translation.x.is_nan() && transform.translation.y == 5.0);
    assert!(app.world().get::<Destination>(sent).is_none(), "arrived");
}

#[test]
fn changing_the_turning_radius_replans() {
    let mut app = app_with(small(), 60, 1);
    let unit = app
        .world_mut()
        .spawn((
            Unit,
            TurningRadius(1.0),
            Speed(1.0),
            Destination::Point(Vec2::new(25.0, 8.0)),
            Transform::from_xyz(3.0, 2.0, 0.0),
        ))
        .id();
    for _ in 0..10 {
        app.update();
    }
    let arc_radii = |app: &App| -> Vec<f32> {
        app.world()
            .get::<Motion>(unit)
            .unwrap()
            .path
            .segments()
            .iter()
            .filter_map(|s| match s {
                Segment::Arc { radius, .. } => Some(*radius),
                Segment::Line { .. } => None,
            })
            .collect()
    };
    assert!(arc_radii(&app).iter().all(|&r| r == 1.0));
    app.world_mut().get_mut::<TurningRadius>(unit).unwrap().0 = 3.0;
    app.update();
    let radii = arc_radii(&app);
    assert!(
        !radii.is_empty() && radii.iter().all(|&r| r == 3.0),
        "{radii:?}"
    );
}

fn spawn_wanderers(app: &mut App, count: usize, mesh: &NavMesh) {
    let polygons = mesh.polygon_count();
    for i in 0..count {
        let polygon = PolygonId(((i * 7919) % polygons) as u32);
        let position = mesh.centroid(polygon);
        let tank = i % 3 == 0;
        app.world_mut().spawn((
            Unit,
            TurningRadius(if tank { 9.0 } else { 1.0 }),
            Speed(if tank { 4.0 } else { 1.4 }),
            Wander {
                offset: if tank { 14.0 } else { 4.0 },
                radius: if tank { 6.0 } else { 2.0 },
                rate: 1.0,
            },
            Transform::from_translation(position.extend(0.0))
                .with_rotation(Quat::from_rotation_z(i as f32)),
        ));
    }
}

fn positions(app: &mut App) -> Vec<(Entity, [u32; 3])> {
    let mut query = app.world_mut().query::<(Entity, &UnitPose)>();
    let mut all: Vec<_> = query
        .iter(app.world())
        .map(|(e, p)| {
            (
                e,
                [
                    p.position.x.to_bits(),
                    p.position.y.to_bits(),
                    p.heading.to_bits(),
                ],
            )
        })
        .collect();
    all.sort();
    all
}

#[test]
fn the_same_seed_replays_bit_for_bit() {
    let run = |seed| {
        let mut app = app_with(KerbWorldData::from_ron(TOWN).unwrap(), 60, seed);
        let mesh = navmesh(&app);
        spawn_wanderers(&mut app, 60, &mesh);
        for _ in 0..600 {
            app.update();
        }
        positions(&mut app)
    };
    let first = run(5);
    assert_eq!(first, run(5));
    assert_ne!(first, run(6));
}

#[test]
fn a_thousand_wanderers_stay_on_the_town_and_never_stick() {
    let mut app = app_with(KerbWorldData::from_ron(TOWN).unwrap(), 60, 11);
    let mesh = navmesh(&app);
    spawn_wanderers(&mut app, 1000, &mesh);
    app.update();
    let stuck_after = 5 * 60; // ticks
    // For each unit: where it was when it last moved a metre, and when.
    let mut anchors: Vec<(Entity, Vec2, u32)> = Vec::new();
    for tick in 0..10_000u32 {
        app.update();
        let mut query = app.world_mut().query::<(Entity, &UnitPose, &NavLocation)>();
        let states: Vec<(Entity, Vec2, u32)> = query
            .iter(app.world())
            .map(|(e, p, l)| (e, p.position, l.polygon.unwrap()))
            .collect();
        if anchors.is_empty() {
            anchors = states.iter().map(|&(e, p, _)| (e, p, tick)).collect();
        }
        for ((entity, position, polygon), anchor) in states.into_iter().zip(anchors.iter_mut()) {
            assert_eq!(entity, anchor.0);
            assert!(
                mesh.contains_closed(PolygonId(polygon), position),
                "tick {tick}: {entity} left the mesh at {position}"
            );
            if position.distance(anchor.1) > 1.0 {
                *anchor = (entity, position, tick);
            }
            if tick - anchor.2 >= stuck_after {
                let motion = app.world().get::<Motion>(entity).unwrap();
                let intent = app.world().get::<crate::Intent>(entity).unwrap();
                let memory = app.world().get::<crate::WanderMemory>(entity);
                panic!(
                    "tick {tick}: {entity} stuck at {position} for 5 s: {motion:?} {intent:?} {memory:?}"
                );
            }
        }
    }
}

/// Mean absolute heading change over one-second windows.
fn mean_turn_per_second(hz: u32) -> f32 {
    let open = grid_world(60, 60, 5.0, |_, _| false).validate().unwrap();
    let mut app = app_with(open, hz, 3);
    let mesh = navmesh(&app);
    for i in 0..300 {
        let position = mesh.centroid(PolygonId(((i * 37) % mesh.polygon_count()) as u32));
        app.world_mut().spawn((
            Unit,
            TurningRadius(2.0),
            Speed(2.0),
            Wander {
                offset: 6.0,
                radius: 3.0,
                rate: 1.0,
            },
            Transform::from_translation(position.extend(0.0)),
        ));
    }
    let mut total = 0.0;
    let mut samples = 0;
    let mut query = app.world_mut().query::<&UnitPose>();
    let mut headings: Vec<f32> = Vec::new();
    let mut turned: Vec<f32> = Vec::new();
    for second in 0..30 {
        for _ in 0..hz {
            app.update();
            let now: Vec<f32> = query.iter(app.world()).map(|p| p.heading).collect();
            if headings.len() == now.len() {
                if turned.len() != now.len() {
                    turned = vec![0.0; now.len()];
                }
                for ((t, a), b) in turned.iter_mut().zip(&headings).zip(&now) {
                    *t += wrap_signed(b - a);
                }
            }
            headings = now;
        }
        if second >= 5 {
            total += turned.iter().map(|t| t.abs()).sum::<f32>();
            samples += turned.len();
        }
        turned.iter_mut().for_each(|t| *t = 0.0);
    }
    total / samples as f32
}

#[test]
fn wander_turn_rates_match_at_30_and_120_hz() {
    let slow = mean_turn_per_second(30);
    let fast = mean_turn_per_second(120);
    assert!(slow > 0.05, "units turn at all: {slow}");
    assert!(
        (slow / fast - 1.0).abs() < 0.15,
        "{slow} rad/s at 30 Hz, {fast} at 120 Hz"
    );
}

#[test]
fn reloading_the_world_relocates_every_unit() {
    let mut app = app_with(small(), 60, 1);
    let units: Vec<Entity> = [(5.0, 5.0), (15.0, 15.0), (25.0, 5.0)]
        .into_iter()
        .map(|(x, y)| {
            app.world_mut()
                .spawn((Unit, Wander::default(), Transform::from_xyz(x, y, 0.0)))
                .id()
        })
        .collect();
    for _ in 0..30 {
        app.update();
    }
    // The new world keeps only a strip along the bottom: y in [0, 3].
    let strip = KerbWorldData::from_ron(
        "World(models: [Model(kind: Walkable, vertices: [(0, 0), (30, 0), (30, 3), (0, 3)], polygons: [[0, 1, 2, 3]])])",
    )
    .unwrap();
    let handle = app.world().resource::<KerbWorld>().handle.clone();
    let _ = app
        .world_mut()
        .resource_mut::<Assets<WorldAsset>>()
        .insert(handle.id(), WorldAsset::new(strip));
    app.update();
    let mesh = navmesh(&app);
    assert_eq!(mesh.polygon_count(), 1);
    for unit in units {
        let pose = app.world().get::<UnitPose>(unit).unwrap();
        let location = app.world().get::<NavLocation>(unit).unwrap();
        assert_eq!(location.polygon, Some(0));
        assert!(pose.position.y <= 3.0 + 1e-4, "{}", pose.position);
    }
    for _ in 0..120 {
        app.update();
        assert_on_mesh(&mut app, &mesh);
    }
}

#[test]
fn an_invalid_world_file_is_an_error_and_the_app_keeps_running() {
    let folder = std::env::temp_dir().join(format!("kerb-invalid-world-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(
        folder.join("bad.world.ron"),
        "World(models: [Model(kind: Walkable, vertices: [(0, 0), (1, 0)], polygons: [[0, 1, 5]])])",
    )
    .unwrap();
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin {
            file_path: folder.to_string_lossy().into_owned(),
            ..default()
        },
        KerbPlugin::new(Update),
    ));
    let handle = app.world().resource::<AssetServer>().load("bad.world.ron");
    app.insert_resource(KerbWorld::new(handle));
    let unit = app.world_mut().spawn((Unit, Wander::default())).id();
    let mut error = None;
    for _ in 0..2000 {
        app.update();
        if let Some(message) = &app.world().resource::<KerbWorld>().last_error {
            error = Some(message.clone());
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let error = error.expect("the load failed with a message");
    assert!(error.contains("vertex index 5"), "{error}");
    for _ in 0..10 {
        app.update();
    }
    assert_eq!(
        app.world().get::<NavLocation>(unit).unwrap().polygon,
        None,
        "waits for a world"
    );
    let _ = std::fs::remove_dir_all(folder);
}

/// Spawns a unit of `radius` and `speed` at (3, 2) with `rotation`, sent to
/// (25, 8) in the small world.
fn send_with(app: &mut App, radius: f32, speed: f32, rotation: Quat) -> Entity {
    let unit = send(app, radius, 3.0, 2.0, Destination::Point(FAR_GOAL));
    let at = Transform::from_xyz(3.0, 2.0, 0.0).with_rotation(rotation);
    app.world_mut().entity_mut(unit).insert((Speed(speed), at));
    unit
}

const FAR_GOAL: Vec2 = Vec2::new(25.0, 8.0);

#[test]
fn values_a_game_gets_wrong_never_panic_or_leave_the_mesh() {
    let mut app = app_with(small(), 60, 1);
    let mesh = navmesh(&app);
    let (nan, inf) = (f32::NAN, f32::INFINITY);
    let bad_radii = [0.0, -3.0, nan, inf].map(|r| send_with(&mut app, r, 2.0, Quat::IDENTITY));
    let huge_radius = send_with(&mut app, 1e30, 2.0, Quat::IDENTITY);
    let tiny_radius = send_with(&mut app, 1e-30, 20.0, Quat::IDENTITY);
    // No speed, or none that makes sense: the unit stands and keeps its
    // destination, as it would at speed zero.
    let standing = [nan, -2.0].map(|v| send_with(&mut app, 1.0, v, Quat::IDENTITY));
    let fast = [inf, 1e30].map(|v| send_with(&mut app, 1.0, v, Quat::IDENTITY));
    let nan_rotation = send_with(&mut app, 1.0, 20.0, Quat::from_xyzw(nan, 0.0, 0.0, 1.0));
    let bad_goals = [
        Destination::Point(Vec2::NAN),
        Destination::Point(Vec2::INFINITY),
        Destination::Point(Vec2::splat(1e30)),
        Destination::Pose {
            position: FAR_GOAL,
            heading: nan,
        },
    ]
    .map(|destination| send(&mut app, 1.0, 3.0, 2.0, destination));
    let wanderers = [nan, inf, -5.0, 1e30].map(|value| {
        let wander = Wander {
            offset: value,
            radius: value,
            rate: value,
        };
        let at = Transform::from_xyz(3.0, 2.0, 0.0);
        app.world_mut()
            .spawn((Unit, TurningRadius(1.0), wander, at))
            .id()
    });

    for _ in 0..300 {
        app.update();
        assert_on_mesh(&mut app, &mesh);
    }

    let world = app.world();
    let error = |unit| world.get::<FollowedRoute>(unit).unwrap().last_error;
    for unit in bad_radii {
        assert!(world.get::<Destination>(unit).is_none());
        assert!(
            matches!(
                error(unit),
                Some(kerb_navmesh::RouteError::Invalid(
                    kerb_turning::PlanError::InvalidRadius(_)
                ))
            ),
            "{:?}",
            error(unit)
        );
    }
    for unit in bad_goals {
        assert!(world.get::<Destination>(unit).is_none());
        assert!(error(unit).is_some());
    }
    // A turning circle wider than the world has no way there.
    assert!(world.get::<Destination>(huge_radius).is_none());
    for unit in standing {
        assert_eq!(
            world.get::<UnitPose>(unit).unwrap().position,
            Vec2::new(3.0, 2.0)
        );
        assert!(world.get::<Destination>(unit).is_some());
    }
    // A rotation that is not finite faces +x and drives like any other.
    for unit in fast.into_iter().chain([tiny_radius, nan_rotation]) {
        let pose = world.get::<UnitPose>(unit).unwrap();
        assert!(
            world.get::<Destination>(unit).is_none() && pose.position.distance(FAR_GOAL) < 1e-3,
            "{unit} did not arrive: {pose:?}"
        );
    }
    let all = bad_radii
        .into_iter()
        .chain(bad_goals)
        .chain(standing)
        .chain(wanderers)
        .chain([huge_radius, nan_rotation]);
    for unit in all {
        let pose = world.get::<UnitPose>(unit).unwrap();
        let transform = world.get::<Transform>(unit).unwrap();
        assert!(
            pose.position.is_finite()
                && pose.heading.is_finite()
                && transform.translation.is_finite()
                && transform.rotation.is_finite(),
            "{unit}: {pose:?} {transform:?}"
        );
    }
}

#[test]
fn settings_a_game_gets_wrong_never_panic_or_leave_the_mesh() {
    let (nan, inf) = (f32::NAN, f32::INFINITY);
    for value in [nan, inf, -1.0, 1e30] {
        for settings in [
            KerbSettings {
                clearance: value,
                ..default()
            },
            KerbSettings {
                wall_margin: value,
                ..default()
            },
        ] {
            let mut app = app_with(small(), 30, 1);
            let mesh = navmesh(&app);
            app.insert_resource(settings.clone());
            spawn_wanderers(&mut app, 20, &mesh);
            let sent = send_with(&mut app, 1.0, 5.0, Quat::IDENTITY);
            for _ in 0..150 {
                app.update();
                assert_on_mesh(&mut app, &mesh);
            }
            let mut poses = app.world_mut().query::<&UnitPose>();
            assert!(
                poses
                    .iter(app.world())
                    .all(|pose| pose.position.is_finite() && pose.heading.is_finite()),
                "{settings:?}"
            );
            // Nothing in the way: only a clearance wider than the street
            // keeps the unit from arriving (a negative one or NaN counts as
            // none, a bad wall margin only moves wander targets).
            let arrived = app.world().get::<Destination>(sent).is_none()
                && app
                    .world()
                    .get::<UnitPose>(sent)
                    .unwrap()
                    .position
                    .distance(FAR_GOAL)
                    < 1e-3;
            let wider_than_the_street = settings.clearance >= 100.0;
            assert_eq!(arrived, !wider_than_the_street, "{settings:?}");
        }
    }
}

#[test]
fn units_changed_and_despawned_every_tick_never_panic_or_leave_the_mesh() {
    let mut app = app_with(KerbWorldData::from_ron(TOWN).unwrap(), 30, 3);
    let mesh = navmesh(&app);
    spawn_wanderers(&mut app, 40, &mesh);
    let mut rng = kerb_steering::UnitRng::new(7, 7);
    // Anywhere in the town's bounds: in a building as often as not.
    let spot = |rng: &mut kerb_steering::UnitRng| {
        let bounds = mesh.bounds();
        bounds.min + (bounds.max - bounds.min) * Vec2::new(rng.next_f32(), rng.next_f32())
    };
    for tick in 0..300 {
        let units: Vec<Entity> = app
            .world_mut()
            .query_filtered::<Entity, With<Unit>>()
            .iter(app.world())
            .collect();
        for (index, &unit) in units.iter().enumerate() {
            let roll = rng.next_u64() % 12;
            let mut entity = app.world_mut().entity_mut(unit);
            match roll {
                0 => {
                    entity.insert(Destination::Point(spot(&mut rng)));
                }
                1 => {
                    entity.insert(Destination::Pose {
                        position: spot(&mut rng),
                        heading: rng.next_signed() * 4.0,
                    });
                }
                2 => {
                    entity.remove::<Destination>();
                }
                3 => {
                    entity.insert(TurningRadius(0.5 + rng.next_f32() * 12.0));
                }
                4 => {
                    entity.insert(Speed(rng.next_f32() * 30.0));
                }
                5 => {
                    entity.remove::<Wander>();
                }
                6 => {
                    entity.insert(Wander::default());
                }
                7 if index % 5 == 0 => {
                    entity.despawn();
                }
                _ => {}
            }
        }
        if tick % 10 == 0 {
            spawn_wanderers(&mut app, 5, &mesh);
        }
        app.update();
        assert_on_mesh(&mut app, &mesh);
    }
    // The churn reached the planner, with goals on the mesh and off it.
    let stats = app.world().resource::<KerbStats>();
    assert!(
        stats.planned_total > 1000 && stats.blocked_total > 0,
        "{stats:?}"
    );
}
