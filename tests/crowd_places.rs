//! Units among others standing reach their places: beside one who stands
//! on the point, beyond a row, inside a block, and after the crowd has
//! turned them round. No contact on the way.

mod support;

use bevy::prelude::*;
use bevy_kerb::kerb_navmesh::generate::grid_world;
use bevy_kerb::prelude::*;
use support::*;

/// A unit sent to a point that someone stands on, or stands beside, never
/// loops round it for ever: where the point is taken (closer to a standing
/// body than the sum of the radii) it arrives as near as that body lets
/// it; where it is free, at the point, or where avoidance swerves it past
/// with its body over the point.
#[test]
fn a_unit_arrives_at_a_point_someone_stands_on_or_beside() {
    let pedestrian = UnitPreset::PEDESTRIAN;
    let bodies = 2.0 * pedestrian.body_radius;
    let goal = Vec2::new(20.0, 20.0);
    let cases = [
        (0.45, 0.0),
        (-0.45, 0.0),
        (0.3, 1.0),
        (0.0, 2.0),
        (-0.5, -0.5),
        (0.7, 0.0),
        (-0.75, 3.0),
    ];
    for (offset, heading) in cases {
        let mut app = app_with(open_square(), 30, 1);
        with_avoidance(&mut app, true);
        // Beside the goal, across the way there. It neither moves nor
        // makes room.
        let standing = goal + Vec2::from_angle(heading).perp() * offset;
        app.world_mut().spawn((
            pedestrian.unit(),
            NoAvoidance,
            Transform::from_translation(standing.extend(0.0)),
        ));
        let from = goal - Vec2::from_angle(heading) * 6.0;
        let unit = send_pedestrian(&mut app, from, heading, goal);
        let mut arrived = false;
        for _ in 0..30 * 20 {
            app.update();
            assert_eq!(contacts(&mut app), 0, "offset {offset}");
            if !arrived && !read_messages::<Arrived>(&mut app).is_empty() {
                arrived = true;
                let off = app
                    .world()
                    .get::<UnitPose>(unit)
                    .unwrap()
                    .position
                    .distance(goal);
                // Avoidance keeps a tenth of the sum of the radii between
                // bodies; arriving, up to twice that, anywhere against the
                // body that stands on the point.
                let allowed = if offset.abs() < bodies {
                    offset.abs() + 1.2 * bodies
                } else {
                    pedestrian.body_radius
                };
                assert!(off <= allowed, "offset {offset}: arrived {off} m away");
            }
        }
        assert!(arrived, "offset {offset}: never arrived");
        assert!(app.world().get::<Destination>(unit).is_none());
    }
}

/// A unit bound for a place just beyond a row of people standing 1.5 m
/// apart, walking up beside the row: the gaps are too narrow to turn
/// through, so it goes round the row's end and comes back along the far
/// side. There its place lies inside its turning circle, and a forward
/// path loops into the row: pushed off that path, it arrives beside its
/// place (within twice its body's radius, or beside one of the row who
/// stepped aside onto it) rather than circle the row for ever. 40 starts
/// and places, from either side.
#[test]
fn a_unit_reaches_a_place_beyond_a_row_of_people_standing() {
    let pedestrian = UnitPreset::PEDESTRIAN;
    let mut arrived = 0;
    for case in 0..40u32 {
        let share =
            |turn: u32| (case.wrapping_mul(2_654_435_761).rotate_left(turn) % 1000) as f32 / 1000.0;
        let side = if case % 2 == 0 { 1.0 } else { -1.0 };
        let mut app = app_with(open_square(), 30, 1);
        with_avoidance(&mut app, true);
        for row in 0..13 {
            let at = Vec2::new(20.0, 11.0 + 1.5 * row as f32);
            app.world_mut().spawn((
                pedestrian.unit(),
                Transform::from_translation(at.extend(0.0)),
            ));
        }
        // Beside the row on one side, bound for a place on the other.
        let from = Vec2::new(20.0 - side * (0.8 + 0.8 * share(3)), 8.0);
        let place = Vec2::new(20.0 + side * (0.7 + share(11)), 15.0 + 10.0 * share(19));
        let unit = send_pedestrian(&mut app, from, std::f32::consts::FRAC_PI_2, place);
        for _ in 0..30 * 60 {
            app.update();
            assert_eq!(contacts(&mut app), 0, "case {case}");
            if !read_messages::<Arrived>(&mut app).is_empty() {
                let at = app.world().get::<UnitPose>(unit).unwrap().position;
                // Arriving is judged on the pose the tick means to reach:
                // where that move would touch someone and is taken back,
                // the unit stands up to a tick's walk short of it. Where
                // one of the row stepped aside onto the place, the unit
                // arrives beside them.
                let tick_walk = pedestrian.speed / 30.0;
                let bodies = 2.0 * pedestrian.body_radius;
                let mut others = app.world_mut().query::<(Entity, &UnitPose)>();
                let taken = others
                    .iter(app.world())
                    .any(|(other, pose)| other != unit && pose.position.distance(place) < bodies);
                let beside = if taken { bodies * 1.2 } else { bodies };
                assert!(
                    at.distance(place) <= beside + tick_walk,
                    "case {case}: {at}"
                );
                arrived += 1;
                break;
            }
        }
    }
    // 39 of 40 arrive within a minute (31 before arriving beside a place
    // inside the turning circle).
    assert!(arrived >= 38, "{arrived} of 40 arrived");
}

/// A unit sent along a route to the one free place in the middle of a
/// block of people standing at theirs (columns 2 m apart, rows 1.5 m),
/// from 16 starts round the block: with a turning radius of 0.8 m it
/// cannot turn through the gaps the way a plain route goes, so once the
/// crowd has pushed it off, it searches for a way in among them. The
/// search was only tried for a unit that plans a bare path, never for one
/// that follows a route (every unit with a destination, by default), and
/// units circled such blocks for minutes.
#[test]
fn a_unit_on_a_route_finds_its_way_into_a_block_of_people_standing() {
    let pedestrian = UnitPreset::PEDESTRIAN;
    let place = Vec2::new(24.0, 14.5);
    let mut arrived = 0;
    let mut slowest: f32 = 0.0;
    for case in 0..16u32 {
        let mut app = app_with(open_square(), 30, 1);
        with_avoidance(&mut app, true);
        for column in 0..5 {
            for row in 0..7 {
                let at = Vec2::new(20.0 + 2.0 * column as f32, 10.0 + 1.5 * row as f32);
                if at != place {
                    app.world_mut().spawn((
                        pedestrian.unit(),
                        Transform::from_translation(at.extend(0.0)),
                    ));
                }
            }
        }
        // On a ring round the block, facing across it.
        let around = Vec2::from_angle(case as f32 / 16.0 * std::f32::consts::TAU);
        let from = place + around * Vec2::new(7.0, 6.5);
        let unit = send_pedestrian(&mut app, from, (-around).to_angle(), place);
        for tick in 0..30 * 60 {
            app.update();
            assert_eq!(contacts(&mut app), 0, "case {case}");
            if !read_messages::<Arrived>(&mut app).is_empty() {
                let at = app.world().get::<UnitPose>(unit).unwrap().position;
                assert!(
                    at.distance(place) <= 2.0 * pedestrian.body_radius + 1e-4,
                    "case {case}: {at}"
                );
                arrived += 1;
                slowest = slowest.max(tick as f32 / 30.0);
                break;
            }
        }
    }
    println!("{arrived} of 16 arrived, the slowest in {slowest:.1} s");
    assert_eq!(arrived, 16, "{arrived} of 16 arrived");
}

/// Two groups of 24 walk head on along a street: no unit bound for a
/// place drives off its path facing more than a quarter turn away from the
/// way its path went, beyond the turn of a tick or two, without planning a
/// fresh one from where it is. Swerving keeps the curvature the path had
/// where the unit left it, so one the crowd turned round would otherwise
/// walk on the wrong way for as long as it kept swerving.
#[test]
fn a_unit_turned_round_off_its_path_plans_afresh() {
    let street = grid_world(40, 6, 2.0, |_, _| false).validate().unwrap();
    let hz = 30;
    let mut app = app_with(street, hz, 5);
    with_avoidance(&mut app, true);
    let pedestrian = UnitPreset::PEDESTRIAN;
    let mut units = Vec::new();
    for i in 0..48 {
        let (side, across, along) = (i / 24, (i % 24) % 6, (i % 24) / 6);
        let y = 1.5 + 1.8 * across as f32;
        let x = 4.0 + 1.5 * along as f32;
        let (from, heading, to) = if side == 0 {
            (Vec2::new(x, y), 0.0, Vec2::new(76.0 - x, y))
        } else {
            (
                Vec2::new(80.0 - x, 12.0 - y),
                std::f32::consts::PI,
                Vec2::new(x, 12.0 - y),
            )
        };
        units.push(send_pedestrian(&mut app, from, heading, to));
    }
    // Two ticks of turning as tightly as a pedestrian can.
    let slack = 2.0 * pedestrian.speed / pedestrian.turning_radius / hz as f32;
    let mut most_turned: f32 = 0.0;
    for _ in 0..60 * hz {
        app.update();
        for unit in &units {
            let world = app.world();
            let (Some(avoiding), Some(motion), Some(pose)) = (
                world.get::<Avoiding>(*unit),
                world.get::<Motion>(*unit),
                world.get::<UnitPose>(*unit),
            ) else {
                continue;
            };
            // One backing out of a jam faces against the path it plans.
            let bound = world.get::<Destination>(*unit).is_some() && !motion.is_reversing();
            if !avoiding.is_off_path() || !bound {
                continue;
            }
            let way = motion.path().sample(motion.travelled()).heading;
            let turned = (pose.heading - way + std::f32::consts::PI)
                .rem_euclid(std::f32::consts::TAU)
                - std::f32::consts::PI;
            most_turned = most_turned.max(turned.abs());
        }
    }
    let quarter = std::f32::consts::FRAC_PI_2;
    assert!(
        most_turned <= quarter + slack,
        "turned {most_turned} rad off its path"
    );
    // Units were turned far enough off their paths to need it.
    assert!(most_turned >= 0.5 * quarter, "{most_turned}");
}

/// A wanderer whose wander target falls under a tank standing still never
/// circles the tank for ever: swerving round it, once it faces away from
/// its path or has been carried far from it, it wanders on from where it
/// is, as a unit sent somewhere plans afresh. The wander circle has no
/// radius here, so each target lies straight ahead.
#[test]
fn a_wanderer_whose_target_is_under_a_tank_wanders_on() {
    let tank_at = Vec2::new(20.0, 20.0);
    for heading in [0.0f32, 0.3, -0.3, 1.0] {
        let mut app = app_with(open_square(), 30, 1);
        with_avoidance(&mut app, true);
        let tank = UnitPreset::TANK;
        app.world_mut().spawn((
            tank.unit(),
            Transform::from_translation(tank_at.extend(0.0)),
        ));
        // 8 m short of the tank, facing it: the first target lies 2 m
        // from the tank's centre, inside its body.
        let from = tank_at - Vec2::from_angle(heading) * 8.0;
        let pedestrian = UnitPreset::PEDESTRIAN;
        let wanderer = app
            .world_mut()
            .spawn((
                pedestrian.unit(),
                Wander {
                    offset: 6.0,
                    radius: 0.0,
                    rate: 0.0,
                },
                Transform::from_translation(from.extend(0.0))
                    .with_rotation(Quat::from_rotation_z(heading)),
            ))
            .id();
        let mut left = false;
        for _ in 0..30 * 20 {
            app.update();
            assert_eq!(contacts(&mut app), 0, "heading {heading}");
            let at = app.world().get::<UnitPose>(wanderer).unwrap().position;
            left |= at.distance(tank_at) > 10.0;
        }
        assert!(left, "heading {heading}: the wanderer stayed by the tank");
    }
}
