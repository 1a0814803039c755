//! Pose-to-pose planning against the `dubins_paths` crate on the same
//! queries in the same run, and pose-to-point planning on its own.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::Vec2;
use kerb_turning::{Pose, plan_to_point, plan_to_pose};

const QUERIES: usize = 10_000;

/// A fixed, dependency-free stream of queries (SplitMix64), so every run and
/// every contender sees the same inputs.
fn queries() -> Vec<(Pose, Pose, f32)> {
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 40) as f32 / (1u64 << 24) as f32
    };
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
