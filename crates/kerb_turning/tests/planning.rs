//! Hand-computed cases, degenerate inputs and properties of both planners.

use std::f32::consts::{FRAC_PI_2, PI, TAU};

use glam::Vec2;
use kerb_turning::{
    PathWord, PlanError, Pose, TurnDirection, TurningPath, candidates_to_point, candidates_to_pose,
    plan_to_point, plan_to_pose, turn_geometry, wrap_signed,
};
use proptest::prelude::*;

mod common;

use common::{arb_pose, assert_drivable, assert_well_formed, pose, scale};

#[test]
fn seed_geometry_by_hand() {
    // Facing +x at the origin, radius 5, destination (10, 10), turning left:
    // P = (0, 5), h = sqrt(125), d = 10, theta = acos(5 / sqrt(125)),
    // Q = P + 5 (0.8, -0.6) = (4, 2).
    let geometry = turn_geometry(
        pose(0.0, 0.0, 0.0),
        Vec2::new(10.0, 10.0),
        5.0,
        TurnDirection::Left,
    )
    .unwrap()
    .unwrap();
    assert!(geometry.center.distance(Vec2::new(0.0, 5.0)) < 1e-6);
    assert!((geometry.center_distance - 125f32.sqrt()).abs() < 1e-5);
    assert!((geometry.straight_length - 10.0).abs() < 1e-5);
    assert!((geometry.theta - (5.0 / 125f32.sqrt()).acos()).abs() < 1e-6);
    assert!(geometry.exit_point.distance(Vec2::new(4.0, 2.0)) < 1e-5);
    assert!((geometry.arc_angle - 0.6f32.acos()).abs() < 1e-6);

    let path = plan_to_point(pose(0.0, 0.0, 0.0), Vec2::new(10.0, 10.0), 5.0).unwrap();
    assert_eq!(path.word(), PathWord::Ls);
    assert!((path.length() - (5.0 * 0.6f32.acos() + 10.0)).abs() < 1e-4);
    assert!(
        path.sample(5.0 * 0.6f32.acos())
            .position
            .distance(Vec2::new(4.0, 2.0))
            < 1e-5
    );
    assert!(path.end().position.distance(Vec2::new(10.0, 10.0)) < 1e-5);
}

#[test]
fn seed_gives_up_inside_the_circle_but_we_do_not() {
    let start = pose(0.0, 0.0, 0.0);
    let goal = Vec2::new(0.0, 3.0); // inside the left circle of radius 5
    assert_eq!(
        turn_geometry(start, goal, 5.0, TurnDirection::Left).unwrap(),
        None
    );
    let path = plan_to_point(start, goal, 5.0).unwrap();
    assert_eq!(path.word(), PathWord::Rl);
    assert!(path.end().position.distance(goal) < 1e-4);
    assert_well_formed(&path, start, 5.0);
    assert_drivable(&path, 5.0);
}

#[test]
fn straight_ahead_and_u_turn_by_hand() {
    let straight = plan_to_pose(pose(0.0, 0.0, 0.0), pose(10.0, 0.0, 0.0), 3.0).unwrap();
    assert!((straight.length() - 10.0).abs() < 1e-5);
    assert_eq!(straight.segments().len(), 1, "zero-length arcs are dropped");

    // To a point dead ahead, or off the line by less than the turn can
    // hold, the same: one straight, never an empty arc.
    for (heading, goal) in [
        (0.0, Vec2::new(10.0, 0.0)),
        (0.0, Vec2::new(100.0, 1e-44)),
        (0.0, Vec2::new(100.0, -1e-44)),
    ] {
        let straight = plan_to_point(pose(0.0, 0.0, heading), goal, 3.0).unwrap();
        assert_eq!(straight.segments().len(), 1, "{goal}: {straight:#?}");
        assert!((straight.length() - goal.length()).abs() < 1e-5);
    }

    let u_turn = plan_to_pose(pose(0.0, 0.0, 0.0), pose(0.0, 10.0, PI), 5.0).unwrap();
    assert!((u_turn.length() - 5.0 * PI).abs() < 1e-4, "{u_turn:#?}");
    assert_eq!(u_turn.segments().len(), 1);
    assert_eq!(
        u_turn.segments()[0].turn_direction(),
        Some(TurnDirection::Left)
    );
}

#[test]
fn start_equal_to_goal_is_an_empty_path() {
    let start = pose(3.0, -2.0, 1.0);
    let to_point = plan_to_point(start, start.position, 4.0).unwrap();
    assert_eq!(to_point.length(), 0.0);
    assert!(to_point.segments().is_empty());
    let to_pose = plan_to_pose(start, start, 4.0).unwrap();
    assert_eq!(to_pose.length(), 0.0);
    assert_eq!(to_pose.end(), start);
}

#[test]
fn headings_outside_the_principal_range() {
    for turns in [-3.0, -1.0, 1.0, 7.0, 1000.0] {
        let start = pose(1.0, 1.0, 0.3 + turns * TAU);
        let goal = pose(20.0, 5.0, -0.7 - turns * TAU);
        let reference = plan_to_pose(pose(1.0, 1.0, 0.3), pose(20.0, 5.0, -0.7), 2.0).unwrap();
        let path = plan_to_pose(start, goal, 2.0).unwrap();
        assert!((path.length() - reference.length()).abs() < 1e-2, "{turns}");
        assert!(path.end().position.distance(goal.position) < 1e-3);
    }
}

#[test]
fn goal_on_the_turning_circle_needs_no_loop() {
    let radius = 5.0;
    let start = pose(0.0, 0.0, 0.0);
    for angle in [0.1f32, 0.5, 1.0, 2.0, 3.0, 4.0, 5.5, 6.2] {
        // Points on the left circle, nudged by one ulp either way.
        let on = Vec2::new(0.0, radius) + radius * Vec2::from_angle(angle - FRAC_PI_2);
        for goal in [on, on * (1.0 + f32::EPSILON), on * (1.0 - f32::EPSILON)] {
            let path = plan_to_point(start, goal, radius).unwrap();
            assert!(
                (path.length() - radius * angle).abs() < 1e-3,
                "angle {angle}: {path:#?}"
            );
            assert!(path.end().position.distance(goal) < 1e-3);
        }
    }
}

#[test]
fn goal_pose_sampled_from_an_arc_is_one_arc() {
    let radius = 3.0;
    let start = pose(2.0, 1.0, 0.4);
    let arc = plan_to_pose(start, pose(2.0, 7.0, 0.4 + PI), radius).unwrap();
    for fraction in [0.1, 0.25, 0.5, 0.9] {
        let goal = arc.sample(arc.length() * fraction);
        let path = plan_to_pose(start, goal, radius).unwrap();
        assert!(
            (path.length() - arc.length() * fraction).abs() < 1e-3,
            "{fraction}: {path:#?}"
        );
    }
}

#[test]
fn collinear_start_and_goal() {
    let ahead = plan_to_point(pose(0.0, 0.0, 0.0), Vec2::new(50.0, 0.0), 10.0).unwrap();
    assert!((ahead.length() - 50.0).abs() < 1e-4);
    let behind = plan_to_point(pose(0.0, 0.0, 0.0), Vec2::new(-50.0, 0.0), 10.0).unwrap();
    assert!(behind.length() > 50.0 && behind.end().position.distance(Vec2::new(-50.0, 0.0)) < 1e-3);
    let reversed = plan_to_pose(pose(0.0, 0.0, 0.0), pose(50.0, 0.0, PI), 10.0).unwrap();
    assert_well_formed(&reversed, pose(0.0, 0.0, 0.0), 10.0);
}

#[test]
fn tiny_and_huge_radii() {
    let start = pose(0.0, 0.0, 0.0);
    let tiny = plan_to_point(start, Vec2::new(-30.0, 40.0), 1e-4).unwrap();
    assert!((tiny.length() - 50.0).abs() < 1e-2);
    let ahead = plan_to_point(start, Vec2::new(10.0, 0.0), 1e6).unwrap();
    assert!((ahead.length() - 10.0).abs() < 1e-4, "{ahead:#?}");
    // Five metres inside a circle of a thousand kilometres: swing out and back.
    let inside = plan_to_point(start, Vec2::new(10.0, 5.0), 1e6).unwrap();
    assert_well_formed(&inside, start, 1e6);
    assert!(inside.end().position.distance(Vec2::new(10.0, 5.0)) < 1e-4 * inside.length());
    let huge_pose = plan_to_pose(start, pose(10.0, 0.0, 0.0), 1e6).unwrap();
    assert!((huge_pose.length() - 10.0).abs() < 1e-3);
    let tiny_pose = plan_to_pose(start, pose(10.0, 10.0, 2.0), 1e-5).unwrap();
    assert!((tiny_pose.length() - 200f32.sqrt()).abs() < 1e-2);
}

/// A radius far larger than the distance: a goal outside the circle (or on
/// it, to rounding) is then nearly straight ahead, the turn is tiny and the
/// path is as long as the distance. Worked out as the sum of two angles
/// near a right angle, such a turn once kept only their absolute precision,
/// which a radius of 1e20 turned into a path of length zero.
#[test]
fn a_huge_radius_keeps_a_nearly_straight_length() {
    for radius in [1e6f32, 1e10, 1e14, 1e20, 1e30] {
        for heading in [0.0f32, 0.3, 2.0, 4.5] {
            for (ahead, aside) in [
                (10.0f32, 0.0f32),
                (10.0, 1e-6),
                (10.0, -1e-6),
                (7.0, 0.0),
                (3.0, 1e-7),
            ] {
                let (sin, cos) = heading.sin_cos();
                let goal = Vec2::new(ahead * cos - aside * sin, ahead * sin + aside * cos);
                let path = plan_to_point(pose(0.0, 0.0, heading), goal, radius).unwrap();
                let distance = goal.length();
                assert!(
                    (path.length() - distance).abs() <= 1e-5 * distance,
                    "radius {radius}, heading {heading}, goal {goal}: {path:#?}"
                );
            }
        }
    }
}

/// A radius whose square overflows `f32`: a goal a few metres away needs
/// three turns round such circles, and once came back as a path of NaNs.
/// (Larger radii plan as well, but this test's own `f32` distances would
/// overflow.)
#[test]
fn radii_whose_squares_overflow_f32() {
    for radius in [2e19, 1e20, 1e22] {
        for step in 0..50 {
            let angle = step as f32 * 0.37;
            let start = pose(0.0, 0.0, 0.3 * step as f32);
            let goal = pose(
                angle.cos() * (1.0 + step as f32),
                angle.sin() * (1.0 + step as f32),
                angle * 1.7,
            );
            let case = format!("{start:?} -> {goal:?}, radius {radius}");
            let to_pose = plan_to_pose(start, goal, radius).unwrap();
            let to_point = plan_to_point(start, goal.position, radius).unwrap();
            for path in [to_pose, to_point] {
                assert!(path.length().is_finite(), "{case}: {path:#?}");
                assert_well_formed(&path, start, radius);
                let miss = path.end().position.distance(goal.position);
                assert!(miss <= 1e-4 * scale(&path, radius), "{case}: {path:#?}");
            }
        }
    }
}

#[test]
fn invalid_input_is_a_typed_error() {
    let start = pose(0.0, 0.0, 0.0);
    for radius in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        assert!(matches!(
            plan_to_point(start, Vec2::ONE, radius),
            Err(PlanError::InvalidRadius(_))
        ));
        assert!(matches!(
            plan_to_pose(start, start, radius),
            Err(PlanError::InvalidRadius(_))
        ));
    }
    assert_eq!(
        plan_to_point(start, Vec2::new(f32::NAN, 0.0), 1.0),
        Err(PlanError::NonFinite { what: "goal point" })
    );
    assert_eq!(
        plan_to_pose(pose(0.0, 0.0, f32::INFINITY), start, 1.0),
        Err(PlanError::NonFinite { what: "start pose" })
    );
    assert_eq!(
        candidates_to_pose(start, pose(0.0, f32::NEG_INFINITY, 0.0), 1.0).map(|c| c.len()),
        Err(PlanError::NonFinite { what: "goal pose" })
    );
    let message = PlanError::InvalidRadius(-1.0).to_string();
    assert!(message.contains("-1"), "{message}");
}

/// Where the exact build counts an opposite-direction word's straight as
/// none (its square a little below zero, by up to four times its snapping,
/// which grows with the coordinates over the radius), the planner must not
/// call that word infeasible from its estimate. Found by the navmesh's
/// property test: far from the origin, LSR with arcs that all but touch.
#[test]
fn a_word_whose_arcs_all_but_touch_far_from_the_origin_is_kept() {
    let position = Vec2::new(426.85013, 15.221478);
    let start = pose(position.x, position.y, 1.823_975_1);
    let goal_position = position + Vec2::new(-0.199_226_11, 0.396_636_87) * 3.610_774_3;
    let goal = pose(goal_position.x, goal_position.y, 1.815_379_1);
    let radius = 1.864_886_5;
    let planned = plan_to_pose(start, goal, radius).unwrap();
    let candidates = candidates_to_pose(start, goal, radius).unwrap();
    let shortest = candidates.shortest().unwrap();
    assert_eq!(shortest.word(), PathWord::Lsr);
    assert!(
        planned.same_route(shortest),
        "{planned:#?} against {shortest:#?}"
    );
}

/// A path's headings continue from the start heading as given within a
/// turn either way, from both planners and both of pose to point's builds
/// (a goal clear of the circles, one inside, one on an edge); beyond a
/// turn, from the heading wrapped into `[0, 2π)`.
#[test]
fn paths_start_from_the_heading_as_given_within_a_turn() {
    let goals = [
        Vec2::new(30.0, 20.0),
        Vec2::new(1.0, 2.0),
        Vec2::new(-20.0, -3.0),
    ];
    for heading in [-TAU, -6.0, -PI, -0.5, -0.0, 0.0, 1.0, PI, 6.0, TAU] {
        let start = pose(1.0, 2.0, heading);
        // Goals relative to the heading, so that each kind of goal is met
        // whatever the heading: clear, inside the left circle, and on the
        // right circle's edge.
        let forward = Vec2::from_angle(heading);
        let right_edge = start.position + (forward - forward.perp()) * 4.0;
        for goal in goals
            .map(|goal| start.position + forward * goal.x + forward.perp() * goal.y)
            .into_iter()
            .chain([right_edge])
        {
            let to_point = plan_to_point(start, goal, 4.0).unwrap();
            let to_pose = plan_to_pose(start, pose(goal.x, goal.y, 2.0), 4.0).unwrap();
            for path in [to_point, to_pose] {
                let first = path.sample(0.0).heading;
                assert!((first - heading).abs() <= 1e-6, "{heading} {goal}: {first}");
                let wiggle = path.sample(1e-3).heading - heading;
                assert!(wiggle.abs() < 1e-3, "{heading} {goal}: {wiggle}");
            }
        }
    }
    for heading in [-100.0, 7.0, 1e4] {
        let start = pose(0.0, 0.0, heading);
        let expected = heading.rem_euclid(TAU);
        for path in [
            plan_to_point(start, Vec2::new(30.0, 20.0), 4.0).unwrap(),
            plan_to_point(
                start,
                Vec2::new(30.0 * expected.cos(), 30.0 * expected.sin())
                    + Vec2::from_angle(expected).perp() * 4.0,
                4.0,
            )
            .unwrap(),
            plan_to_pose(start, pose(30.0, 20.0, 2.0), 4.0).unwrap(),
        ] {
            let first = path.sample(0.0).heading;
            assert!((0.0..TAU).contains(&first), "{heading}: {first}");
            assert!(
                wrap_signed(first - expected).abs() <= 1e-3,
                "{heading}: {first}"
            );
        }
    }
}

/// Pose to point checks its input only on the way to its general build:
/// every NaN, infinity or radius not above zero must still be named,
/// whatever kind of query it spoils (a goal clear of both circles, inside
/// one, near an edge, at the start, far away) and in whichever input.
#[test]
fn every_invalid_input_to_point_is_named_whatever_the_query() {
    let queries = [
        (pose(0.0, 0.0, 0.0), Vec2::new(30.0, 20.0), 3.0),
        (pose(1.0, -2.0, 2.5), Vec2::new(1.5, 0.0), 4.0),
        (pose(0.0, 0.0, 0.0), Vec2::new(5.0, 5.0), 5.0),
        (pose(0.0, 0.0, -1.0), Vec2::ZERO, 1.0),
        (pose(-1e18, 2e18, 9.0), Vec2::new(2e18, -1e18), 1e-3),
        (pose(3.0, 4.0, 1e5), Vec2::new(-60.0, 2.0), 0.5),
    ];
    let bad_values = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY];
    let bad_radii = [
        0.0,
        -0.0,
        -1.0,
        -1e-45,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
    ];
    let mut checked = 0;
    for (start, goal, radius) in queries {
        let values = [
            start.position.x,
            start.position.y,
            start.heading,
            goal.x,
            goal.y,
        ];
        for slot in 0..values.len() {
            for bad in bad_values {
                let mut spoiled = values;
                spoiled[slot] = bad;
                let [x, y, heading, goal_x, goal_y] = spoiled;
                let what = if slot < 3 { "start pose" } else { "goal point" };
                let result = plan_to_point(pose(x, y, heading), Vec2::new(goal_x, goal_y), radius);
                assert_eq!(result, Err(PlanError::NonFinite { what }), "{spoiled:?}");
                // A bad radius is named first.
                for bad_radius in bad_radii {
                    let result =
                        plan_to_point(pose(x, y, heading), Vec2::new(goal_x, goal_y), bad_radius);
                    assert!(
                        matches!(result, Err(PlanError::InvalidRadius(_))),
                        "{spoiled:?} {bad_radius}: {result:?}"
                    );
                }
                checked += 1;
            }
        }
        for bad_radius in bad_radii {
            assert!(
                matches!(
                    plan_to_point(start, goal, bad_radius),
                    Err(PlanError::InvalidRadius(_))
                ),
                "{start:?} {goal} {bad_radius}"
            );
        }
        // And the query itself, unspoiled, is planned.
        assert!(plan_to_point(start, goal, radius).is_ok());
    }
    assert_eq!(checked, 6 * 5 * 3);
}

/// Independent reference: the `dubins_paths` crate in `f64`.
fn reference_pose_length(start: Pose, goal: Pose, radius: f32) -> f64 {
    use dubins_paths::f64::{DubinsPath, PosRot};
    let q0 = PosRot::from_floats(
        f64::from(start.position.x),
        f64::from(start.position.y),
        f64::from(start.heading),
    );
    let q1 = PosRot::from_floats(
        f64::from(goal.position.x),
        f64::from(goal.position.y),
        f64::from(goal.heading),
    );
    DubinsPath::shortest_from(q0, q1, f64::from(radius)).map_or(f64::INFINITY, |p| p.length())
}

/// The candidates of one query are different routes from each other; the
/// planned path is the same route as one of them.
#[test]
fn same_route_tells_candidates_apart() {
    let start = pose(0.0, 0.0, 0.0);
    let goal = pose(12.0, 5.0, 2.0);
    let candidates = candidates_to_pose(start, goal, 3.0).unwrap();
    assert!(candidates.len() >= 4);
    for (index, path) in candidates.iter().enumerate() {
        for (other_index, other) in candidates.iter().enumerate() {
            assert_eq!(path.same_route(other), index == other_index);
        }
    }
    let planned = plan_to_pose(start, goal, 3.0).unwrap();
    assert!(planned.same_route(candidates.shortest().unwrap()));
    assert!(!planned.same_route(&plan_to_pose(start, goal, 3.1).unwrap()));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn point_paths_are_well_formed(start in arb_pose(), goal in arb_pose(), radius in 0.05f32..40.0) {
        let path = plan_to_point(start, goal.position, radius).unwrap();
        assert_well_formed(&path, start, radius);
        assert_drivable(&path, radius);
        let tolerance = 1e-4 * scale(&path, radius);
        prop_assert!(path.end().position.distance(goal.position) <= tolerance, "{path:#?}");
        prop_assert!(path.length() + tolerance >= start.position.distance(goal.position));
        let candidates = candidates_to_point(start, goal.position, radius).unwrap();
        prop_assert!(candidates.iter().any(|candidate| candidate.same_route(&path)), "{path:#?}");
        for candidate in &candidates {
            assert_well_formed(candidate, start, radius);
            prop_assert!(candidate.end().position.distance(goal.position) <= 1e-4 * scale(candidate, radius));
            prop_assert!(path.length() <= candidate.length() + tolerance);
        }
    }

    #[test]
    fn pose_paths_are_well_formed(start in arb_pose(), goal in arb_pose(), radius in 0.05f32..40.0) {
        let path = plan_to_pose(start, goal, radius).unwrap();
        assert_well_formed(&path, start, radius);
        assert_drivable(&path, radius);
        let tolerance = 1e-4 * scale(&path, radius);
        let end = path.end();
        prop_assert!(end.position.distance(goal.position) <= tolerance, "{path:#?}");
        prop_assert!(wrap_signed(end.heading - goal.heading).abs() <= 1e-3);
        prop_assert!(path.length() + tolerance >= start.position.distance(goal.position));
        let candidates = candidates_to_pose(start, goal, radius).unwrap();
        prop_assert!(candidates.len() >= 2, "LSL and RSR always exist");
        prop_assert!((candidates.shortest().unwrap().length() - path.length()).abs() <= tolerance);
        prop_assert!(candidates.iter().any(|candidate| candidate.same_route(&path)), "{path:#?}");
        for candidate in &candidates {
            assert_well_formed(candidate, start, radius);
            prop_assert!(candidate.end().position.distance(goal.position) <= 1e-4 * scale(candidate, radius));
        }
    }

    /// One input of a random query spoiled, by a NaN, an infinity or a
    /// radius not above zero: a typed error naming it, never a path.
    #[test]
    fn a_spoiled_point_query_is_named(
        start in arb_pose(),
        goal in arb_pose(),
        radius in 0.05f32..40.0,
        slot in 0usize..6,
        bad in prop::sample::select(vec![f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 0.0, -0.0, -3.0]),
    ) {
        let mut values = [start.position.x, start.position.y, start.heading, goal.position.x, goal.position.y, radius];
        values[slot] = bad;
        let [x, y, heading, goal_x, goal_y, radius] = values;
        let result = plan_to_point(pose(x, y, heading), Vec2::new(goal_x, goal_y), radius);
        if slot == 5 {
            prop_assert!(matches!(result, Err(PlanError::InvalidRadius(_))), "{result:?}");
        } else if !bad.is_finite() {
            let what = if slot < 3 { "start pose" } else { "goal point" };
            prop_assert_eq!(result, Err(PlanError::NonFinite { what }));
        } else {
            prop_assert!(result.is_ok());
        }
    }

    #[test]
    fn pose_length_matches_independent_reference(start in arb_pose(), goal in arb_pose(), radius in 0.5f32..30.0) {
        let path = plan_to_pose(start, goal, radius).unwrap();
        let reference = reference_pose_length(start, goal, radius);
        let tolerance = 1e-4 * f64::from(scale(&path, radius));
        prop_assert!((f64::from(path.length()) - reference).abs() <= tolerance,
            "ours {} reference {reference}", path.length());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The shortest path to a point is the shortest path to the best pose at
    /// that point: search the final heading densely with the reference.
    #[test]
    fn point_length_matches_dense_search(start in arb_pose(), goal in (-30.0f32..30.0, -30.0f32..30.0), radius in 1.0f32..15.0) {
        let goal = Vec2::new(goal.0, goal.1);
        let path = plan_to_point(start, goal, radius).unwrap();
        let samples = 3600;
        let best = (0..samples)
            .map(|i| reference_pose_length(start, Pose::new(goal, i as f32 * TAU / samples as f32), radius))
            .fold(f64::INFINITY, f64::min);
        let ours = f64::from(path.length());
        let tolerance = 1e-4 * f64::from(scale(&path, radius));
        prop_assert!(ours <= best + tolerance, "ours {ours} beaten by {best}");
        let grid = f64::from(radius) * f64::from(TAU) / f64::from(samples as f32) * 4.0;
        prop_assert!(best <= ours + grid + tolerance, "ours {ours} far below search {best}");
    }
}

#[test]
fn straight_paths() {
    let path = TurningPath::straight(Vec2::new(1.0, 2.0), Vec2::new(4.0, 6.0));
    assert_eq!(path.word(), PathWord::S);
    assert_eq!(path.length(), 5.0);
    assert_eq!(path.start().position, Vec2::new(1.0, 2.0));
    assert!((path.start().heading - (4.0f32).atan2(3.0)).abs() < 1e-6);
    assert!(path.end().position.distance(Vec2::new(4.0, 6.0)) < 1e-6);
    assert!(path.sample(2.5).position.distance(Vec2::new(2.5, 4.0)) < 1e-6);
    // A point to itself stands still.
    let still = TurningPath::straight(Vec2::ONE, Vec2::ONE);
    assert_eq!(still.length(), 0.0);
    assert_eq!(still.word(), PathWord::Empty);
    assert_eq!(still.end().position, Vec2::ONE);
}
