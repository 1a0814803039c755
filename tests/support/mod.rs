//! What the plugin's headless tests share: an app with `MinimalPlugins`
//! and manual time, the worlds, and assertions on the world.
#![allow(dead_code)] // each test file uses its own share of these

use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_kerb::kerb_navmesh::{NavMesh, PolygonId, ValidWorld};
use bevy_kerb::prelude::*;

pub const SMALL: &str = include_str!("../../assets/worlds/small.world.ron");
pub const TOWN: &str = include_str!("../../assets/worlds/town.world.ron");

/// A headless app ticking `hz` times a simulated second, one fixed tick per update.
pub fn app_with(world: ValidWorld, hz: u32, seed: u64) -> App {
    app_rendering_at(world, hz, hz, seed)
}

/// A headless app ticking `tick_hz` times a simulated second, with
/// `frame_hz` updates (frames) a simulated second.
pub fn app_rendering_at(world: ValidWorld, tick_hz: u32, frame_hz: u32, seed: u64) -> App {
    let mut app = App::new();
    // A test run in a process of its own may fix the number of threads.
    let task_pool_options = std::env::var("KERB_TEST_THREADS")
        .ok()
        .and_then(|threads| threads.parse().ok())
        .map_or_else(TaskPoolOptions::default, TaskPoolOptions::with_num_threads);
    app.add_plugins((
        MinimalPlugins.set(TaskPoolPlugin { task_pool_options }),
        AssetPlugin::default(),
        KerbPlugin::default(),
    ));
    let period = |hz: u32| Duration::from_nanos(1_000_000_000 / u64::from(hz));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(period(frame_hz)));
    // Bevy clamps a frame to a quarter of a second: at fewer frames a
    // second, an update would then not always run a tick.
    let mut virtual_time = app.world_mut().resource_mut::<Time<Virtual>>();
    let max_delta = virtual_time.max_delta().max(period(frame_hz));
    virtual_time.set_max_delta(max_delta);
    app.insert_resource(Time::<Fixed>::from_duration(period(tick_hz)));
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

pub fn small() -> ValidWorld {
    ValidWorld::from_ron(SMALL).unwrap()
}

pub fn town() -> ValidWorld {
    ValidWorld::from_ron(TOWN).unwrap()
}

pub fn navmesh(app: &App) -> NavMesh {
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
pub fn send(app: &mut App, radius: f32, x: f32, y: f32, destination: Destination) -> Entity {
    app.world_mut()
        .spawn((
            Unit,
            TurningRadius(radius),
            destination,
            Transform::from_xyz(x, y, 0.0),
        ))
        .id()
}

/// Spawns a pedestrian at `from` facing `heading`, sent to the point `to`.
pub fn send_pedestrian(app: &mut App, from: Vec2, heading: f32, to: Vec2) -> Entity {
    app.world_mut()
        .spawn((
            UnitPreset::PEDESTRIAN.unit(),
            Destination::Point(to),
            Transform::from_translation(from.extend(0.0))
                .with_rotation(Quat::from_rotation_z(heading)),
        ))
        .id()
}

pub fn read_messages<M: Message + Copy>(app: &mut App) -> Vec<M> {
    let messages = app.world().resource::<Messages<M>>();
    messages.iter_current_update_messages().copied().collect()
}

pub fn assert_on_mesh(app: &mut App, mesh: &NavMesh) {
    let mut query = app.world_mut().query::<(Entity, &UnitPose, &NavLocation)>();
    for (entity, pose, location) in query.iter(app.world()) {
        let polygon = location.polygon().expect("placed");
        assert!(
            mesh.contains_closed(polygon, pose.position),
            "{entity} at {} is outside polygon {polygon:?}",
            pose.position
        );
    }
}

/// Spawns `count` wanderers over the mesh, one in three a tank.
pub fn spawn_wanderers(app: &mut App, count: usize, mesh: &NavMesh) {
    let polygons = mesh.polygon_count();
    for i in 0..count {
        let polygon = PolygonId(((i * 7919) % polygons) as u32);
        let position = mesh.centroid(polygon);
        let preset = if i % 3 == 0 {
            UnitPreset::TANK
        } else {
            UnitPreset::PEDESTRIAN
        };
        app.world_mut()
            .spawn(preset.wanderer_at(position, i as f32));
    }
}

/// The pairs of bodies in contact (overlapping by more than 5% of the sum
/// of their radii), among the units `counted` picks.
pub fn pairs_in_contact(
    app: &mut App,
    counted: impl Fn(Entity) -> bool,
) -> std::collections::BTreeSet<(Entity, Entity)> {
    let mut query = app.world_mut().query::<(Entity, &UnitPose, &Body)>();
    let bodies: Vec<(Entity, Vec2, f32)> = query
        .iter(app.world())
        .filter(|(entity, ..)| counted(*entity))
        .map(|(entity, pose, body)| (entity, pose.position, body.radius))
        .collect();
    let mut pairs = std::collections::BTreeSet::new();
    for (i, &(a, p, r)) in bodies.iter().enumerate() {
        for &(b, q, s) in &bodies[i + 1..] {
            if p.distance(q) < 0.95 * (r + s) {
                pairs.insert((a.min(b), a.max(b)));
            }
        }
    }
    pairs
}

/// Every unit's pose, bit for bit, by entity: for comparing replays.
pub fn positions(app: &mut App) -> Vec<(Entity, [u32; 3])> {
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

/// An open square 40 m across.
pub fn open_square() -> ValidWorld {
    bevy_kerb::kerb_navmesh::generate::grid_world(20, 20, 2.0, |_, _| false)
        .validate()
        .unwrap()
}

/// Switches avoidance on or off.
pub fn with_avoidance(app: &mut App, enabled: bool) {
    app.world_mut().resource_mut::<AvoidanceSettings>().enabled = enabled;
}

/// Pairs of bodies overlapping by more than 5% of the sum of their radii.
pub fn contacts(app: &mut App) -> usize {
    pairs_in_contact(app, |_| true).len()
}
