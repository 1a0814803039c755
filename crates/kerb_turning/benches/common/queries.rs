//! The planning benchmark's queries and how each planner is asked them,
//! shared with the `planning_loop` example that counts instructions on them.

use std::hint::black_box;

use glam::Vec2;
use kerb_turning::{Pose, plan_to_point, plan_to_pose, plan_to_pose_reversing};
use rand::{Rng, SeedableRng};
use rand_xoshiro::SplitMix64;

/// How many queries there are.
pub const QUERIES: usize = 10_000;

/// A fixed stream of queries (`rand_xoshiro`'s SplitMix64), so every run
/// and every contender sees the same inputs: start, goal and radius.
pub fn queries() -> Vec<(Pose, Pose, f32)> {
    let mut stream = SplitMix64::seed_from_u64(0x9E37_79B9_7F4A_7C15);
    let mut next = move || (stream.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
    (0..QUERIES)
        .map(|_| {
            let mut pose = |span: f32| {
                Pose::new(
                    Vec2::new(next() * span - span / 2.0, next() * span - span / 2.0),
                    next() * std::f32::consts::TAU,
                )
            };
            let start = pose(100.0);
            let goal = pose(100.0);
            let radius = 1.0 + next() * 19.0;
            (start, goal, radius)
        })
        .collect()
}

/// One pose-to-pose query as the benchmark asks it: the inputs hidden from
/// the optimiser, the length out (0 for an error).
#[inline(always)]
pub fn pose_to_pose_length(start: Pose, goal: Pose, radius: f32) -> f32 {
    plan_to_pose(black_box(start), black_box(goal), black_box(radius))
        .map_or(0.0, |path| path.length())
}

/// One pose-to-pose query for a unit that may reverse.
#[inline(always)]
pub fn pose_to_pose_reversing_length(start: Pose, goal: Pose, radius: f32) -> f32 {
    plan_to_pose_reversing(black_box(start), black_box(goal), black_box(radius))
        .map_or(0.0, |path| path.length())
}

/// One pose-to-point query, to `goal`'s position, as the benchmark asks it.
#[inline(always)]
pub fn pose_to_point_length(start: Pose, goal: Pose, radius: f32) -> f32 {
    plan_to_point(
        black_box(start),
        black_box(goal.position),
        black_box(radius),
    )
    .map_or(0.0, |path| path.length())
}
