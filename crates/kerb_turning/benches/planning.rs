//! Pose-to-pose planning against the `dubins_paths` crate on the same
//! queries in the same run, and pose-to-point planning on its own.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kerb_turning::{plan_to_point, plan_to_pose};

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
}

criterion_group!(benches, planning);
criterion_main!(benches);
