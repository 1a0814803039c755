//! The Reeds–Shepp planner: cases by hand, degenerate inputs, properties
//! and a brute-force search on small cases.

use std::collections::BinaryHeap;
use std::f32::consts::{FRAC_PI_2, PI};

use glam::Vec2;
use kerb_turning::{
    Gear, PlanError, Pose, TurningPath, candidates_to_pose_reversing, plan_to_pose,
    plan_to_pose_reversing, wrap_signed,
};
use proptest::prelude::*;

mod common;

use common::{arb_pose, assert_drivable, assert_well_formed, pose, scale};

/// Checks a reversing path to `goal`: well formed, drivable, ending at the
/// goal's position facing its heading.
fn assert_reaches(path: &TurningPath, start: Pose, goal: Pose, radius: f32) {
    assert_well_formed(path, start, radius);
    assert_drivable(path, radius);
    let end = path.end();
    let tolerance = 1e-4 * scale(path, radius).max(start.position.abs().max_element());
    assert!(
        end.position.distance(goal.position) <= tolerance,
        "ends at {end:?}, not {goal:?}: {path:#?}"
    );
    assert!(
        wrap_signed(end.heading - goal.heading).abs() <= 1e-3,
        "ends facing {}, not {}: {path:#?}",
        end.heading,
        goal.heading
    );
}

#[test]
fn backing_into_a_space_behind_is_one_reverse_straight() {
    let start = pose(0.0, 0.0, 0.0);
    let goal = pose(-6.0, 0.0, 0.0);
    let path = plan_to_pose_reversing(start, goal, 5.0).unwrap();
    assert_reaches(&path, start, goal, 5.0);
    assert_eq!(path.segments().len(), 1);
    assert_eq!(path.segments()[0].gear(), Gear::Reverse);
    assert!((path.length() - 6.0).abs() < 1e-5);
    // Facing forwards all the way, while moving back.
    assert_eq!(path.sample(3.0).heading, 0.0);
    assert!(path.sample(3.0).position.distance(Vec2::new(-3.0, 0.0)) < 1e-5);
    assert_eq!(path.sample_with_gear(3.0).1, Gear::Reverse);
    assert_eq!(path.cusps(), 0);
}

/// A reverse arc steering left turns the heading clockwise about a centre
/// on the unit's left.
#[test]
fn a_reverse_left_turn_by_hand() {
    let start = pose(0.0, 0.0, 0.0);
    // A quarter circle reversing round (0, 1): ends at (-1, 1) facing -π/2.
    let goal = pose(-1.0, 1.0, -FRAC_PI_2);
    let path = plan_to_pose_reversing(start, goal, 1.0).unwrap();
    assert_reaches(&path, start, goal, 1.0);
    assert!((path.length() - FRAC_PI_2).abs() < 1e-5, "{path:#?}");
    let arc = path.segments()[0];
    assert_eq!(arc.gear(), Gear::Reverse);
    assert_eq!(
        arc.turn_direction(),
        Some(kerb_turning::TurnDirection::Left)
    );
    // Moving backwards: the first step goes towards -x.
    assert!(arc.start_direction().x < -0.99);
}

/// Turning round in place needs cusps; forward-only needs a loop.
#[test]
fn turning_round_on_the_spot_reverses() {
    let start = pose(0.0, 0.0, 0.0);
    let goal = pose(0.0, 0.0, PI);
    let path = plan_to_pose_reversing(start, goal, 1.0).unwrap();
    assert_reaches(&path, start, goal, 1.0);
    assert!(path.cusps() >= 1, "{path:#?}");
    let forward = plan_to_pose(start, goal, 1.0).unwrap();
    assert!(path.length() < forward.length() - 1.0);
}

#[test]
fn degenerate_queries() {
    // Already there, far from the origin too.
    for at in [pose(0.0, 0.0, 0.0), pose(1e5, -3e4, 2.0)] {
        let path = plan_to_pose_reversing(at, at, 2.0).unwrap();
        assert_eq!(path.length(), 0.0);
        assert!(path.segments().is_empty());
    }
    let cases = [
        // Goals on the start's turning circles, either gear.
        (pose(0.0, 0.0, 0.0), pose(2.0, 2.0, FRAC_PI_2), 2.0),
        (pose(0.0, 0.0, 0.0), pose(-2.0, 2.0, -FRAC_PI_2), 2.0),
        (pose(0.0, 0.0, 0.0), pose(0.0, -4.0, PI), 2.0),
        // Huge and tiny radii.
        (pose(0.0, 0.0, 0.0), pose(3.0, 1.0, 0.5), 1e6),
        (pose(0.0, 0.0, 0.3), pose(3.0, 1.0, -2.5), 1e-4),
        // Far from the origin.
        (pose(1e5, 1e5, 1.0), pose(1e5 + 7.0, 1e5 - 3.0, -2.0), 4.0),
        (pose(-4e4, 2e4, 0.0), pose(-4e4, 2e4 + 1.0, 0.0), 3.0),
        // Headings many turns out.
        (pose(0.0, 0.0, 100.0), pose(5.0, 5.0, -77.0), 2.0),
        // A hair off dead ahead and dead behind.
        (pose(0.0, 0.0, 0.0), pose(10.0, 1e-6, 0.0), 2.0),
        (pose(0.0, 0.0, 0.0), pose(-10.0, -1e-6, 1e-7), 2.0),
    ];
    for (start, goal, radius) in cases {
        let path = plan_to_pose_reversing(start, goal, radius).unwrap();
        assert_reaches(&path, start, goal, radius);
        let forward = plan_to_pose(start, goal, radius).unwrap();
        assert!(path.length() <= forward.length() * (1.0 + 1e-5) + 1e-4);
    }
    // Straight on a hair off the line is no reverse sliver.
    let path = plan_to_pose_reversing(pose(0.0, 0.0, 0.0), pose(10.0, 1e-6, 0.0), 2.0).unwrap();
    assert_eq!(path.cusps(), 0, "{path:#?}");
}

#[test]
fn invalid_input_is_a_typed_error() {
    let start = pose(0.0, 0.0, 0.0);
    let goal = pose(3.0, 1.0, 0.0);
    assert_eq!(
        plan_to_pose_reversing(pose(f32::NAN, 0.0, 0.0), goal, 1.0),
        Err(PlanError::NonFinite { what: "start pose" })
    );
    assert_eq!(
        plan_to_pose_reversing(start, pose(0.0, 0.0, f32::INFINITY), 1.0),
        Err(PlanError::NonFinite { what: "goal pose" })
    );
    for radius in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        assert!(matches!(
            plan_to_pose_reversing(start, goal, radius),
            Err(PlanError::InvalidRadius(_))
        ));
        assert!(candidates_to_pose_reversing(start, goal, radius).is_err());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn reversing_paths_are_shortest_and_reach_the_goal(
        start in arb_pose(),
        goal in arb_pose(),
        radius in 0.05f32..40.0,
    ) {
        let path = plan_to_pose_reversing(start, goal, radius).unwrap();
        assert_reaches(&path, start, goal, radius);
        let tolerance = 1e-4 * scale(&path, radius);
        prop_assert!(path.length() + tolerance >= start.position.distance(goal.position));
        let forward = plan_to_pose(start, goal, radius).unwrap();
        prop_assert!(path.length() <= forward.length() + tolerance, "longer than Dubins: {path:#?}");
        let candidates = candidates_to_pose_reversing(start, goal, radius).unwrap();
        let shortest = candidates.shortest().unwrap();
        prop_assert!((shortest.length() - path.length()).abs() <= tolerance);
        for candidate in &candidates {
            assert_reaches(candidate, start, goal, radius);
        }
        // Backwards from the goal to the start is as long.
        let back = plan_to_pose_reversing(goal, start, radius).unwrap();
        prop_assert!((back.length() - path.length()).abs() <= tolerance);
    }
}

/// The shortest path on a lattice of small forward and reverse moves
/// (Hybrid A*: the first arrival in each cell and heading is kept), from
/// the origin facing +x at radius 1, to within `reach` of `goal`.
fn lattice_length(goal: Pose, reach: f32) -> f32 {
    const HEADINGS: usize = 72;
    const CELL: f32 = 0.1;
    const HALF: i32 = 40;
    let step = std::f32::consts::TAU / HEADINGS as f32;
    let side = (2 * HALF) as usize;
    let index = |p: Vec2, h: usize| -> Option<usize> {
        let (x, y) = (
            (p.x / CELL).floor() as i32 + HALF,
            (p.y / CELL).floor() as i32 + HALF,
        );
        ((0..2 * HALF).contains(&x) && (0..2 * HALF).contains(&y))
            .then(|| (y as usize * side + x as usize) * HEADINGS + h)
    };
    let goal_heading =
        (goal.heading.rem_euclid(std::f32::consts::TAU) / step).round() as usize % HEADINGS;
    let mut done = vec![false; side * side * HEADINGS];
    // Costs in millionths, so the heap orders integers.
    let mut open = BinaryHeap::new();
    open.push((std::cmp::Reverse(0u64), 0usize, [0u32; 2]));
    // Positions go on the heap as bits, which order but do not matter.
    while let Some((std::cmp::Reverse(cost), h, [x, y])) = open.pop() {
        let p = Vec2::new(f32::from_bits(x), f32::from_bits(y));
        let Some(slot) = index(p, h) else { continue };
        if std::mem::replace(&mut done[slot], true) {
            continue;
        }
        if h == goal_heading && p.distance(goal.position) <= reach {
            return cost as f32 * 1e-6;
        }
        let heading = h as f32 * step;
        for gear in [1.0f32, -1.0] {
            for turn in [-1i32, 0, 1] {
                let (next, next_h) = if turn == 0 {
                    (p + Vec2::from_angle(heading) * step * gear, h)
                } else {
                    let side = turn as f32;
                    let center = p + Vec2::from_angle(heading + side * FRAC_PI_2);
                    let next_heading = heading + side * gear * step;
                    let next = center - Vec2::from_angle(next_heading + side * FRAC_PI_2);
                    let next_h =
                        (h as i32 + turn * gear as i32).rem_euclid(HEADINGS as i32) as usize;
                    (next, next_h)
                };
                let bits = [next.x.to_bits(), next.y.to_bits()];
                open.push((std::cmp::Reverse(cost + (step * 1e6) as u64), next_h, bits));
            }
        }
    }
    f32::INFINITY
}

/// No lattice path is notably shorter than the planned one, on goals within
/// three radii, where the words with cusps win.
#[test]
fn no_brute_force_path_is_shorter() {
    const REACH: f32 = 0.12;
    let step = std::f32::consts::TAU / 72.0;
    let goals = [
        pose(0.0, 0.0, 36.0 * step),
        pose(0.5, 0.0, 18.0 * step),
        pose(0.0, 1.0, 0.0),
        pose(-1.0, 0.5, 54.0 * step),
        pose(1.5, -1.5, 40.0 * step),
        pose(-2.0, -1.0, 10.0 * step),
        pose(0.3, 2.2, 60.0 * step),
        pose(-0.7, -2.5, 30.0 * step),
    ];
    let start = pose(0.0, 0.0, 0.0);
    for goal in goals {
        let planned = plan_to_pose_reversing(start, goal, 1.0).unwrap().length();
        let lattice = lattice_length(goal, REACH);
        // Stopping within `REACH` saves the lattice at most that much, and
        // a heading bin's half, driven on an arc, about as much again.
        assert!(
            planned <= lattice + 2.0 * REACH + step,
            "{goal:?}: planned {planned}, lattice {lattice}"
        );
        assert!(
            lattice <= planned * 1.5 + 1.0,
            "the lattice search found a path"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    /// Any input at all, extreme finite values included: a path exactly
    /// when the input is valid, a typed error otherwise, never a panic.
    #[test]
    fn any_input_plans_or_errs(
        values in prop::array::uniform7(prop_oneof![
            any::<f32>(),
            -1e6f32..1e6,
            Just(0.0f32),
            Just(f32::MAX),
            Just(f32::MIN_POSITIVE),
            Just(1e-30f32),
        ]),
    ) {
        let [x0, y0, h0, x1, y1, h1, radius] = values;
        let result = plan_to_pose_reversing(pose(x0, y0, h0), pose(x1, y1, h1), radius);
        let all_finite = values.iter().all(|v| v.is_finite()) && radius > 0.0;
        prop_assert_eq!(result.is_ok(), all_finite, "{:?}", result);
        let candidates = candidates_to_pose_reversing(pose(x0, y0, h0), pose(x1, y1, h1), radius);
        prop_assert_eq!(candidates.is_ok(), all_finite);
    }
}
