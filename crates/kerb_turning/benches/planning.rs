//! Pose-to-pose planning against the `dubins_paths` crate on the same
//! queries in the same run, pose-to-point planning on its own, and both
//! with each query waiting on the one before (latency, not throughput).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::Vec2;
use kerb_turning::{Pose, plan_to_point, plan_to_pose};

#[path = "common/queries.rs"]
mod queries;

use queries::{QUERIES, queries};

fn planning(c: &mut Criterion) {
    let queries = queries();
    let mut group = c.benchmark_group("pose_to_pose_10k");
    group.throughput(Throughput::Elements(QUERIES as u64));
    group.bench_function("kerb_turning", |b| {
        b.iter(|| {
            let mut total = 0.0;
            for &(start, goal, radius) in &queries {
                total += plan_to_pose(black_box(start), black_box(goal), black_box(radius))
                    .map_or(0.0, |path| path.length());
            }
            total
        })
    });
    group.bench_function("dubins_paths", |b| {
        use dubins_paths::f32::{DubinsPath, PosRot};
        b.iter(|| {
            let mut total = 0.0;
            for &(start, goal, radius) in &queries {
                let q0 = PosRot::from_floats(start.position.x, start.position.y, start.heading);
                let q1 = PosRot::from_floats(goal.position.x, goal.position.y, goal.heading);
                total += DubinsPath::shortest_from(black_box(q0), black_box(q1), black_box(radius))
                    .map_or(0.0, |path| path.length());
            }
            total
        })
    });
    group.finish();

    let mut group = c.benchmark_group("pose_to_point_10k");
    group.throughput(Throughput::Elements(QUERIES as u64));
    group.bench_function("kerb_turning", |b| {
        b.iter(|| {
            let mut total = 0.0;
            for &(start, goal, radius) in &queries {
                total += plan_to_point(
                    black_box(start),
                    black_box(goal.position),
                    black_box(radius),
                )
                .map_or(0.0, |path| path.length());
            }
            total
        })
    });
    group.finish();

    // Each query waits on the one before (its start moved by the last
    // length times zero), so the processor cannot overlap them: this is
    // the time one plan takes from its inputs to its length, which a single
    // query in a frame sees, where the groups above measure throughput.
    let mut group = c.benchmark_group("chained_10k");
    group.throughput(Throughput::Elements(QUERIES as u64));
    group.bench_function("pose_to_pose", |b| {
        b.iter(|| {
            let mut total = 0.0;
            for &(start, goal, radius) in &queries {
                let start = chained(start, total);
                total += plan_to_pose(black_box(start), black_box(goal), black_box(radius))
                    .map_or(0.0, |path| path.length());
            }
            total
        })
    });
    group.bench_function("pose_to_point", |b| {
        b.iter(|| {
            let mut total = 0.0;
            for &(start, goal, radius) in &queries {
                let start = chained(start, total);
                total += plan_to_point(
                    black_box(start),
                    black_box(goal.position),
                    black_box(radius),
                )
                .map_or(0.0, |path| path.length());
            }
            total
        })
    });
    group.finish();
}

/// `start`, made to wait on `total` without changing it (a float times
/// zero is not folded away, as it is NaN for an infinite total).
fn chained(start: Pose, total: f32) -> Pose {
    Pose::new(start.position + Vec2::splat(total * 0.0), start.heading)
}

criterion_group!(benches, planning);
criterion_main!(benches);
