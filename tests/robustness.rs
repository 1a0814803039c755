//! Robustness: whatever a game gets wrong, kerb never panics and no unit leaves the walkable area.

mod support;

use bevy::prelude::*;
use bevy_kerb::kerb_navmesh::RouteError;
use bevy_kerb::kerb_steering::UnitRng;
use bevy_kerb::prelude::*;
use support::*;

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
    assert_eq!(
        app.world().get::<NavLocation>(lost).unwrap().polygon(),
        None
    );
    assert_eq!(
        app.world().get::<Motion>(lost).unwrap().path().length(),
        0.0
    );
    // kerb leaves the transform as the game set it.
    let transform = app.world().get::<Transform>(lost).unwrap();
    assert!(transform.translation.x.is_nan() && transform.translation.y == 5.0);
    assert!(app.world().get::<Destination>(sent).is_none(), "arrived");
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
    // Every unit starts on one spot: crowds have tests of their own, and
    // here they would only delay the arrivals this test checks.
    app.world_mut().resource_mut::<AvoidanceSettings>().enabled = false;
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
    let error = |unit| world.get::<FollowedRoute>(unit).unwrap().last_error();
    for unit in bad_radii {
        assert!(world.get::<Destination>(unit).is_none());
        assert!(
            matches!(
                error(unit),
                Some(RouteError::Invalid(kerb_turning::PlanError::InvalidRadius(
                    _
                )))
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
            // The arrival checked below is of a unit alone on its way.
            app.world_mut().resource_mut::<AvoidanceSettings>().enabled = false;
            spawn_wanderers(&mut app, 20, &mesh);
            let sent = send_with(&mut app, 1.0, 5.0, Quat::IDENTITY);
            for _ in 0..150 {
                app.update();
                assert_on_mesh(&mut app, &mesh);
            }
            assert!(poses_are_finite(&mut app), "{settings:?}");
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

/// Every tick, units get new destinations on and off the mesh, turning
/// radii, speeds, bodies, reverse gears and teleports, opt in and out of
/// avoidance, start and stop wandering, and are despawned and spawned;
/// now and then avoidance is switched and its settings changed. With
/// avoidance off and on, nothing panics and nobody leaves the mesh.
#[test]
fn units_changed_and_despawned_every_tick_never_panic_or_leave_the_mesh() {
    units_changed_every_tick(false);
    units_changed_every_tick(true);
}

fn units_changed_every_tick(avoid: bool) {
    let mut app = app_with(town(), 30, 3);
    app.world_mut().resource_mut::<AvoidanceSettings>().enabled = avoid;
    let mesh = navmesh(&app);
    spawn_wanderers(&mut app, 40, &mesh);
    let mut rng = UnitRng::new(7, 7);
    // Anywhere in the town's bounds: in a building as often as not.
    let spot = |rng: &mut UnitRng| {
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
            let roll = rng.next_u64() % 18;
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
                8 => {
                    entity.insert(Body {
                        radius: rng.next_f32() * 4.0,
                    });
                }
                9 => {
                    entity.insert(NoAvoidance);
                }
                10 => {
                    entity.remove::<NoAvoidance>();
                }
                11 => {
                    entity.insert(Teleport {
                        position: spot(&mut rng),
                        heading: rng.next_signed() * 4.0,
                    });
                }
                12 => {
                    entity.insert(ReverseGear::default());
                }
                13 => {
                    entity.remove::<ReverseGear>();
                }
                _ => {}
            }
        }
        if tick % 37 == 36 {
            let mut settings = app.world_mut().resource_mut::<AvoidanceSettings>();
            settings.enabled = avoid || !settings.enabled;
            settings.horizon = [0.0, 0.1, 1.5, 30.0][(tick / 37) % 4];
            settings.neighbours = [0, 1, 8, 1000][(tick / 37 + 1) % 4];
            settings.range = [0.0, 0.5, 10.0, 500.0][(tick / 37 + 2) % 4];
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

/// Units with every value a game can get wrong, stacked on one spot, with
/// avoidance on, at 60 and at 2 ticks a second: nothing panics, leaves the
/// mesh or becomes NaN.
#[test]
fn bad_values_in_a_crowd_never_panic_or_leave_the_mesh() {
    for hz in [60, 2] {
        bad_values_in_a_crowd_at(hz);
    }
}

/// [`bad_values_in_a_crowd_never_panic_or_leave_the_mesh`] at `hz` ticks a
/// second.
fn bad_values_in_a_crowd_at(hz: u32) {
    let mut app = app_with(small(), hz, 1);
    app.world_mut().resource_mut::<AvoidanceSettings>().enabled = true;
    let mesh = navmesh(&app);
    let (nan, inf) = (f32::NAN, f32::INFINITY);
    for radius in [0.0, -3.0, nan, inf, 1e30, 1e-30, 1.0] {
        for speed in [nan, -2.0, inf, 1e30, 20.0] {
            send_with(&mut app, radius, speed, Quat::IDENTITY);
        }
    }
    send_with(&mut app, 1.0, 20.0, Quat::from_xyzw(nan, 0.0, 0.0, 1.0));
    for body in [nan, inf, -1.0, 0.0, 1e30] {
        let unit = send_with(&mut app, 1.0, 2.0, Quat::IDENTITY);
        app.world_mut()
            .entity_mut(unit)
            .insert(Body { radius: body });
    }
    for _ in 0..300 {
        app.update();
        assert_on_mesh(&mut app, &mesh);
    }
    assert!(poses_are_finite(&mut app));
}

/// Whether every unit's pose is finite.
fn poses_are_finite(app: &mut App) -> bool {
    let mut poses = app.world_mut().query::<&UnitPose>();
    poses
        .iter(app.world())
        .all(|pose| pose.position.is_finite() && pose.heading.is_finite())
}
