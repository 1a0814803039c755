//! Replanning from where a unit is along its path: the rest of the path, not
//! a loop. A unit replans from the pose its path puts it at, so rounding in
//! that pose must not put the goal inside a turning circle and cost a full
//! circle.

use glam::Vec2;
use kerb_turning::{Pose, TurningPath, plan_to_point, plan_to_pose};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::SplitMix64;

/// How much longer than the rest of the path a replan may be: 1e-3 of the
/// radius, the issue's bound, plus a few units of `f32` rounding of the
/// coordinates and lengths involved, which no planner in `f32` can beat.
fn allowance(radius: f32, start: Pose, goal: Vec2, length: f32) -> f32 {
    let scale = start
        .position
        .abs()
        .max_element()
        .max(goal.abs().max_element())
        + length;
    1e-3 * radius + 8.0 * f32::EPSILON * scale
}

/// Random queries: coordinates up to `extent`, radii from 0.05 to 200 on a
/// log scale, headings over several turns.
fn random_query(random: &mut SplitMix64, extent: f32) -> (Pose, Pose, f32) {
    let pose = |random: &mut SplitMix64| {
        let position = Vec2::new(
            random.random_range(-extent..extent),
            random.random_range(-extent..extent),
        );
        Pose::new(position, random.random_range(-10.0..10.0))
    };
    let start = pose(random);
    let goal = pose(random);
    let radius = 10f32.powf(random.random_range(-1.3..2.3));
    (start, goal, radius)
}

/// Distances along `path` to replan from: spread over it, and a hair
/// before its end and before each join, where a loop costs the most.
fn replan_points(random: &mut SplitMix64, path: &TurningPath) -> Vec<f32> {
    let mut points: Vec<f32> = (0..4)
        .map(|_| random.random_range(0.0..=1.0) * path.length())
        .collect();
    let mut join = 0.0;
    for segment in path.segments() {
        join += segment.length();
        for _ in 0..3 {
            let before = 10f32.powf(random.random_range(-5.0..-0.5)) * path.length().max(1.0);
            points.push((join - before).max(0.0));
        }
    }
    points
}

/// Replans from every replan point of random paths made by `plan` and
/// returns the worst excess over the rest, as a share of the allowance,
/// with the query that gave it.
fn worst_replan(
    queries: usize,
    extent: f32,
    plan: impl Fn(Pose, Pose, f32) -> TurningPath,
) -> (f32, String) {
    let mut random = SplitMix64::seed_from_u64(19);
    let mut worst = (0.0f32, String::new());
    for _ in 0..queries {
        let (start, goal, radius) = random_query(&mut random, extent);
        let path = plan(start, goal, radius);
        for along in replan_points(&mut random, &path) {
            let from = path.sample(along);
            let replanned = plan(from, goal, radius);
            let left = path.length() - along;
            let excess = (replanned.length() - left)
                / allowance(radius, start, goal.position, path.length());
            if excess > worst.0 {
                worst = (
                    excess,
                    format!(
                        "{start:?} to {goal:?} at radius {radius}, replanned at {along} from {from:?}: {:?} {} for {} left",
                        replanned.word(),
                        replanned.length(),
                        path.length() - along
                    ),
                );
            }
        }
    }
    worst
}

fn to_point(start: Pose, goal: Pose, radius: f32) -> TurningPath {
    plan_to_point(start, goal.position, radius).expect("finite query")
}

fn to_pose(start: Pose, goal: Pose, radius: f32) -> TurningPath {
    plan_to_pose(start, goal, radius).expect("finite query")
}

#[test]
fn the_issues_case_replans_the_rest_of_the_straight() {
    let start = Pose::new(Vec2::new(-28.44725, 69.71994), -0.5513453);
    let goal = Vec2::new(4.0948987, -4.1183105);
    let radius = 3.6000466;
    let path = plan_to_point(start, goal, radius).unwrap();
    let along = 80.821047;
    let replanned = plan_to_point(path.sample(along), goal, radius).unwrap();
    assert!(
        replanned.length() <= path.length() - along + allowance(radius, start, goal, path.length()),
        "{replanned:#?}"
    );
}

/// Replans along 150,000 random paths at each extent (about two million
/// replans in all): the full-circle replan of the issue was one in a few
/// hundred thousand.
fn assert_never_loops(plan: impl Fn(Pose, Pose, f32) -> TurningPath + Copy) {
    for extent in [100.0, 3_000.0] {
        let (worst, case) = worst_replan(150_000, extent, plan);
        println!("worst at {extent} m: {worst} allowances");
        assert!(worst <= 1.0, "{worst} allowances too long: {case}");
    }
}

#[test]
fn replanning_to_a_point_never_loops() {
    assert_never_loops(to_point);
}

#[test]
fn replanning_to_a_pose_never_loops() {
    assert_never_loops(to_pose);
}
