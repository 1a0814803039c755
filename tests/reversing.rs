//! Units with a reverse gear: three-point turns in a street narrower than
//! their turning circle, parking where driving forwards cannot reach, and
//! the same run from the same seed.

mod support;

use bevy::prelude::*;
use bevy_kerb::kerb_navmesh::{RouteGoal, ValidWorld, WalkablePlan};
use bevy_kerb::kerb_turning::{Pose, wrap_signed};
use bevy_kerb::prelude::*;
use support::*;

/// A street 120 m long and 16 m wide, in three pieces: narrower than a
/// turning circle of 11 m radius.
const STREET: &str = r#"World(
    name: "narrow street",
    models: [Model(
        name: "street",
        kind: Walkable,
        vertices: [(0, 0), (40, 0), (80, 0), (120, 0), (120, 16), (80, 16), (40, 16), (0, 16)],
        polygons: [[0, 1, 6, 7], [1, 2, 5, 6], [2, 3, 4, 5]],
    )],
)"#;

/// A street 10 m wide with a dead-end bay 7 m wide and 14 m deep off its
/// north side: a car of 5 m radius can back into it, not turn round in it.
const BAY: &str = r#"World(
    name: "parking bay",
    models: [Model(
        name: "street and bay",
        kind: Walkable,
        vertices: [(0, 0), (26, 0), (33, 0), (70, 0), (70, 10), (33, 10), (26, 10), (0, 10), (26, 24), (33, 24)],
        polygons: [[0, 1, 6, 7], [1, 2, 5, 6], [2, 3, 4, 5], [6, 5, 9, 8]],
    )],
)"#;

const TANK_RADIUS: f32 = 11.0;

/// Runs `unit` until it arrives (or `ticks` pass), checking every tick that
/// everyone is on the mesh and the unit never turns tighter than `radius`.
/// Returns whether it arrived and how many times it changed direction of
/// travel (its cusps).
fn drive(app: &mut App, unit: Entity, radius: f32, ticks: usize) -> (bool, usize) {
    let mesh = navmesh(app);
    let mut previous = *app.world().get::<UnitPose>(unit).unwrap();
    let mut last_direction = 0.0f32;
    let mut cusps = 0;
    for _ in 0..ticks {
        app.update();
        assert_on_mesh(app, &mesh);
        let pose = *app.world().get::<UnitPose>(unit).unwrap();
        let step = pose.position - previous.position;
        let turned = wrap_signed(pose.heading - previous.heading).abs();
        assert!(
            turned <= step.length() / radius + 1e-3,
            "turned {turned} over {step}"
        );
        let along = step.dot(Vec2::from_angle(previous.heading));
        if along.abs() > 1e-4 {
            if along * last_direction < 0.0 {
                cusps += 1;
            }
            last_direction = along.signum();
        }
        previous = pose;
        if read_messages::<Arrived>(app)
            .iter()
            .any(|m| m.entity == unit)
        {
            return (true, cusps);
        }
    }
    (false, cusps)
}

fn spawn_tank(app: &mut App, at: Vec2, heading: f32, destination: Destination) -> Entity {
    app.world_mut()
        .spawn((
            Unit,
            TurningRadius(TANK_RADIUS),
            Speed(4.0),
            ReverseGear::default(),
            destination,
            Transform::from_translation(at.extend(0.0))
                .with_rotation(Quat::from_rotation_z(heading)),
        ))
        .id()
}

#[test]
fn a_tank_turns_round_in_a_street_narrower_than_its_turning_circle() {
    let mut app = app_with(ValidWorld::from_ron(STREET).unwrap(), 30, 1);
    let goal = Vec2::new(15.0, 8.0);
    let tank = spawn_tank(
        &mut app,
        Vec2::new(100.0, 8.0),
        0.0,
        Destination::Point(goal),
    );
    let (arrived, cusps) = drive(&mut app, tank, TANK_RADIUS, 30 * 120);
    assert!(arrived, "never arrived");
    assert!(cusps >= 2, "turned round with {cusps} cusps");
    let pose = app.world().get::<UnitPose>(tank).unwrap();
    assert!(pose.position.distance(goal) < 0.05, "{}", pose.position);
}

#[test]
fn a_car_backs_into_a_bay_it_cannot_drive_into() {
    let world = ValidWorld::from_ron(BAY).unwrap();
    let mesh = world.navmesh.clone();
    let radius = 5.0;
    let start = Pose::new(Vec2::new(10.0, 5.0), 0.0);
    // Parked at the back of the bay, facing out of it.
    let parked = Pose::new(Vec2::new(29.5, 18.0), -std::f32::consts::FRAC_PI_2);
    // Forwards only, there is no way in.
    assert!(
        mesh.plan_route(start, RouteGoal::Pose(parked), radius, 0.05)
            .is_err()
    );
    assert_eq!(
        mesh.plan_walkable_to_pose(start, parked, radius, 0.05),
        Ok(WalkablePlan::Blocked)
    );
    let mut app = app_with(world, 30, 1);
    let car = app
        .world_mut()
        .spawn((
            Unit,
            TurningRadius(radius),
            Speed(4.0),
            ReverseGear::default(),
            Destination::Pose {
                position: parked.position,
                heading: parked.heading,
            },
            Transform::from_translation(start.position.extend(0.0)),
        ))
        .id();
    let (arrived, cusps) = drive(&mut app, car, radius, 30 * 120);
    assert!(arrived, "never parked");
    assert!(cusps >= 1);
    let pose = *app.world().get::<UnitPose>(car).unwrap();
    assert!(
        pose.position.distance(parked.position) < 0.05,
        "{}",
        pose.position
    );
    assert!(
        wrap_signed(pose.heading - parked.heading).abs() < 1e-2,
        "{}",
        pose.heading
    );
}

#[test]
fn reversing_replays_bit_for_bit() {
    let run = || {
        let mut app = app_with(ValidWorld::from_ron(STREET).unwrap(), 30, 9);
        spawn_tank(
            &mut app,
            Vec2::new(100.0, 8.0),
            0.0,
            Destination::Point(Vec2::new(15.0, 8.0)),
        );
        spawn_tank(
            &mut app,
            Vec2::new(30.0, 8.0),
            std::f32::consts::PI,
            Destination::Pose {
                position: Vec2::new(90.0, 8.0),
                heading: std::f32::consts::PI,
            },
        );
        let mut trace = Vec::new();
        for _ in 0..30 * 60 {
            app.update();
            trace.push(positions(&mut app));
        }
        trace
    };
    assert_eq!(run(), run());
}

/// Reverse gears with values a game can get wrong never panic and never
/// leave the mesh: a speed that is NaN or below zero stands the unit still
/// in reverse, and a cost that is NaN or below 1 counts as 1.
#[test]
fn bad_reverse_gears_never_panic() {
    let mut app = app_with(ValidWorld::from_ron(STREET).unwrap(), 30, 1);
    let mesh = navmesh(&app);
    for (index, (speed, cost)) in [
        (f32::NAN, f32::NAN),
        (-1.0, f32::INFINITY),
        (f32::INFINITY, -3.0),
        (0.0, 0.0),
    ]
    .into_iter()
    .enumerate()
    {
        app.world_mut().spawn((
            Unit,
            TurningRadius(TANK_RADIUS),
            ReverseGear { speed, cost },
            Destination::Point(Vec2::new(15.0, 8.0)),
            Transform::from_xyz(60.0 + 12.0 * index as f32, 8.0, 0.0),
        ));
    }
    for _ in 0..30 * 30 {
        app.update();
        assert_on_mesh(&mut app, &mesh);
    }
}
