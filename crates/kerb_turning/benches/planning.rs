//! Pose-to-pose planning against the `dubins_paths` crate on the same
//! queries in the same run, pose-to-point planning on its own, and both
//! with each query waiting on the one before (latency, not throughput).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::Vec2;
use kerb_turning::Pose;

#[path = "common/queries.rs"]
mod queries;

use queries::{
    QUERIES, pose_to_point_length, pose_to_pose_length, pose_to_pose_reversing_length, queries,
};

fn planning(c: &mut Criterion) {
    let queries = queries();
    let mut group = c.benchmark_group("pose_to_pose_10k");
    group.throughput(Throughput::Elements(QUERIES as u64));
    group.bench_function("kerb_turning", |b| {
        b.iter(|| sum_lengths::<false>(&queries, pose_to_pose_length))
    });
    group.bench_function("dubins_paths", |b| {
        use dubins_paths::f32::{DubinsPath, PosRot};
        b.iter(|| {
            sum_lengths::<false>(&queries, |start: Pose, goal: Pose, radius| {
                let q0 = PosRot::from_floats(start.position.x, start.position.y, start.heading);
                let q1 = PosRot::from_floats(goal.position.x, goal.position.y, goal.heading);
                DubinsPath::shortest_from(black_box(q0), black_box(q1), black_box(radius))
                    .map_or(0.0, |path| path.length())
            })
        })
    });
    group.finish();

    // Reeds–Shepp against the `reeds_shepp` crate, with kerb's Dubins
    // beside them for the cost of reverse gear.
    let mut group = c.benchmark_group("reversing_10k");
    group.throughput(Throughput::Elements(QUERIES as u64));
    group.bench_function("kerb_turning", |b| {
        b.iter(|| sum_lengths::<false>(&queries, pose_to_pose_reversing_length))
    });
    group.bench_function("reeds_shepp", |b| {
        b.iter(|| {
            sum_lengths::<false>(&queries, |start: Pose, goal: Pose, radius| {
                // The crate plans at radius 1 with headings in degrees.
                let r = f64::from(radius);
                let to_crate = |p: Pose| reeds_shepp_lib::Pose {
                    x: f64::from(p.position.x) / r,
                    y: f64::from(p.position.y) / r,
                    theta_degree: f64::from(p.heading).to_degrees(),
                };
                reeds_shepp_lib::get_optimal_path(
                    black_box(to_crate(start)),
                    black_box(to_crate(goal)),
                )
                .map_or(0.0, |path| (reeds_shepp_lib::path_length(&path) * r) as f32)
            })
        })
    });
    group.bench_function("kerb_turning_dubins", |b| {
        b.iter(|| sum_lengths::<false>(&queries, pose_to_pose_length))
    });
    group.finish();

    let mut group = c.benchmark_group("pose_to_point_10k");
    group.throughput(Throughput::Elements(QUERIES as u64));
    group.bench_function("kerb_turning", |b| {
        b.iter(|| sum_lengths::<false>(&queries, pose_to_point_length))
    });
    group.finish();

    // Each query waits on the one before, so the processor cannot overlap
    // them: this is the time one plan takes from its inputs to its length,
    // which a single query in a frame sees, where the groups above measure
    // throughput.
    let mut group = c.benchmark_group("chained_10k");
    group.throughput(Throughput::Elements(QUERIES as u64));
    group.bench_function("pose_to_pose", |b| {
        b.iter(|| sum_lengths::<true>(&queries, pose_to_pose_length))
    });
    group.bench_function("pose_to_point", |b| {
        b.iter(|| sum_lengths::<true>(&queries, pose_to_point_length))
    });
    group.finish();
}

/// The sum of the lengths `plan` gives for every query (`plan` hides its
/// inputs from the optimiser, as each contender takes them in its own
/// form). With `CHAINED`,
/// each query's start is moved by the sum so far times zero: the same
/// start, which cannot be known before the query before it is done (a
/// float times zero is not folded away, as it is NaN for an infinite sum).
#[inline(always)]
fn sum_lengths<const CHAINED: bool>(
    queries: &[(Pose, Pose, f32)],
    plan: impl Fn(Pose, Pose, f32) -> f32,
) -> f32 {
    let mut total = 0.0;
    for &(start, goal, radius) in queries {
        let start = if CHAINED {
            Pose::new(start.position + Vec2::splat(total * 0.0), start.heading)
        } else {
            start
        };
        total += plan(start, goal, radius);
    }
    total
}

criterion_group!(benches, planning);
criterion_main!(benches);
