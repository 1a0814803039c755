//! Destinations and routes: units sent somewhere arrive on their turning radius, or are blocked with a reason.

mod support;

use bevy::prelude::*;
use bevy_kerb::kerb_navmesh::{RouteError, RouteGoal};
use bevy_kerb::kerb_turning::{Segment, wrap_signed};
use bevy_kerb::prelude::*;
use support::*;

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
        for segment in motion.path().segments() {
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
        matches!(followed.last_error(), Some(RouteError::Unreachable { .. })),
        "{:?}",
        followed.last_error()
    );
}

#[test]
fn a_far_destination_is_reached_along_a_route() {
    let town = town();
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
        .route()
        .cloned()
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
        let travelled: f32 = route.legs()[..app.world().get::<FollowedRoute>(unit).unwrap().leg()]
            .iter()
            .map(|leg| leg.length())
            .sum::<f32>()
            + app.world().get::<Motion>(unit).unwrap().travelled();
        if app.world().get::<Destination>(unit).is_some() {
            assert!(
                route.sample(travelled).position.distance(pose.position) < 1e-3,
                "off the route at {}",
                pose.position
            );
            legs_seen.push(app.world().get::<FollowedRoute>(unit).unwrap().leg());
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
    assert!(followed.route().is_none(), "forgotten on arrival");
}

/// A tank in the 16 m bottom street facing west-south-west, away from its
/// goal: a 22 m turning circle cannot turn round without backing up.
const WRONG_WAY: (kerb_turning::Pose, Vec2) = (
    kerb_turning::Pose::new(Vec2::new(40.0, 6.0), 3.6),
    Vec2::new(66.0, 120.0),
);

/// Spawns the [`WRONG_WAY`] tank, sent to its goal.
fn spawn_wrong_way_tank(app: &mut App) -> Entity {
    let (start, goal) = WRONG_WAY;
    app.world_mut()
        .spawn((
            Unit,
            TurningRadius(11.0),
            Speed(8.0),
            Destination::Point(goal),
            Transform::from_translation(start.position.extend(0.0))
                .with_rotation(Quat::from_rotation_z(start.heading)),
        ))
        .id()
}

#[test]
fn a_tank_with_reverse_gear_facing_the_wrong_way_turns_round_on_its_route() {
    let mut app = app_with(town(), 30, 1);
    let mesh = navmesh(&app);
    let (start, goal) = WRONG_WAY;
    assert!(matches!(
        mesh.plan_route(start, RouteGoal::Point(goal), 11.0, 0.05),
        Err(RouteError::Undrivable { .. })
    ));
    let unit = spawn_wrong_way_tank(&mut app);
    app.world_mut()
        .entity_mut(unit)
        .insert(ReverseGear::default());
    let mut backed_up = false;
    let mut arrived = false;
    for _ in 0..30 * 90 {
        app.update();
        assert_on_mesh(&mut app, &mesh);
        backed_up |= app.world().get::<Motion>(unit).unwrap().in_reverse();
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
            app.world().get::<FollowedRoute>(unit).unwrap().last_error()
        );
    }
    assert!(backed_up, "never backed up");
    assert!(arrived, "never arrived");
    let pose = app.world().get::<UnitPose>(unit).unwrap();
    assert!(pose.position.distance(goal) < 1e-2, "{}", pose.position);
}

/// Reversing is opt-in: the same tank without a reverse gear never backs
/// up to follow a route, and says why it cannot go.
#[test]
fn a_tank_without_reverse_gear_facing_the_wrong_way_is_blocked() {
    let mut app = app_with(town(), 30, 1);
    let unit = spawn_wrong_way_tank(&mut app);
    let mut blocked = None;
    for _ in 0..30 {
        app.update();
        assert!(!app.world().get::<Motion>(unit).unwrap().in_reverse());
        if let Some(message) = read_messages::<Blocked>(&mut app)
            .into_iter()
            .find(|m| m.entity == unit)
        {
            blocked = Some(message);
            break;
        }
    }
    let blocked = blocked.expect("blocked");
    assert!(matches!(
        blocked.reason,
        BlockReason::Route(RouteError::Undrivable { .. })
    ));
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
    assert!(
        followed.route().is_none(),
        "the next polygon needs no route"
    );
    let motion = app.world().get::<Motion>(unit).unwrap();
    assert!(motion.path().end().position.distance(Vec2::new(15.0, 5.0)) < 1e-4);
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
            .path()
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

/// What an observer on one unit saw.
#[derive(Resource, Default)]
struct Observed {
    arrived: Vec<Entity>,
    blocked: Vec<(Entity, BlockReason)>,
}

#[test]
fn observers_on_a_unit_see_it_arrive_or_be_blocked_and_why() {
    let mut app = app_with(small(), 60, 1);
    app.init_resource::<Observed>();
    let arriving = send(
        &mut app,
        2.0,
        5.0,
        5.0,
        Destination::Point(Vec2::new(9.0, 5.0)),
    );
    let stranded = send(
        &mut app,
        2.0,
        5.0,
        5.0,
        Destination::Point(Vec2::new(42.0, 41.0)),
    );
    for unit in [arriving, stranded] {
        app.world_mut()
            .entity_mut(unit)
            .observe(|arrived: On<Arrived>, mut seen: ResMut<Observed>| {
                seen.arrived.push(arrived.entity);
            })
            .observe(|blocked: On<Blocked>, mut seen: ResMut<Observed>| {
                seen.blocked.push((blocked.entity, blocked.reason));
            });
    }
    for _ in 0..600 {
        app.update();
    }
    let seen = app.world().resource::<Observed>();
    assert_eq!(seen.arrived, vec![arriving]);
    assert_eq!(seen.blocked.len(), 1, "{:?}", seen.blocked);
    let (entity, reason) = seen.blocked[0];
    assert_eq!(entity, stranded);
    assert!(
        matches!(reason, BlockReason::Route(RouteError::Unreachable { .. })),
        "{reason:?}"
    );
    assert!(reason.to_string().contains("reach"), "{reason}");
}
