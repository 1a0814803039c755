//! Confined movement on meshes of 100, 10,000 and 1,000,000 polygons against
//! the path-polygon thesis's baseline (test the desired position against every polygon),
//! and loading a 1,000,000-polygon world: parsing against validation.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use glam::Vec2;
use kerb_navmesh::generate::{Random, grid_world};
use kerb_navmesh::{NavMesh, PolygonId, WorldFile};

/// Units moving together in one measured batch.
const UNITS: usize = 1024;

#[derive(Clone)]
struct Unit {
    polygon: PolygonId,
    position: Vec2,
    step: Vec2,
}

/// Units spread over a `side`-metre square of the mesh, each moving 8 cm a
/// step (5 m/s at 60 Hz) in its own direction (SplitMix64, fixed seed).
fn units(mesh: &NavMesh, side: f32) -> Vec<Unit> {
    let mut random = Random::new(42);
    let mut next = move || random.unit();
    (0..UNITS)
        .map(|_| {
            let position = Vec2::new(next(), next()) * side;
            let polygon = mesh.locate(position).unwrap_or(PolygonId(0));
            Unit {
                polygon,
                position,
                step: Vec2::from_angle(next() * std::f32::consts::TAU) * 0.083,
            }
        })
        .collect()
}

/// The path-polygon thesis: accept the desired position if some polygon holds it.
fn seed_step(mesh: &NavMesh, unit: &mut Unit) {
    let desired = unit.position + unit.step;
    if let Some(polygon) = mesh
        .polygon_ids()
        .find(|&id| mesh.contains_closed(id, desired))
    {
        unit.position = desired;
        unit.polygon = polygon;
    } else {
        unit.step = -unit.step;
    }
}

fn kerb_step(mesh: &NavMesh, unit: &mut Unit) {
    let result = mesh.move_along(unit.polygon, unit.position, unit.position + unit.step);
    if result.hit_wall {
        unit.step = -unit.step;
    }
    unit.position = result.position;
    unit.polygon = result.polygon;
}

fn movement(c: &mut Criterion) {
    let mut group = c.benchmark_group("move_step");
    group.throughput(Throughput::Elements(UNITS as u64));
    for side in [10u32, 100, 1000] {
        let mesh = grid_world(side, side, 1.0, |_, _| false)
            .validate()
            .expect("valid grid")
            .navmesh;
        let polygons = mesh.polygon_count();
        let mut kerb_units = units(&mesh, side as f32);
        group.bench_with_input(
            BenchmarkId::new("kerb_move_along", polygons),
            &mesh,
            |b, mesh| {
                b.iter(|| {
                    for unit in kerb_units.iter_mut() {
                        kerb_step(black_box(mesh), unit);
                    }
                })
            },
        );
        if polygons > 10_000 {
            // The same units on the same 100 polygons' worth of ground (a
            // 10 m square) of the big mesh: the 100-polygon case's work and
            // cache footprint, so any difference is the mesh's size itself.
            // Each batch starts from the cluster again, so the units cannot
            // drift apart over the run.
            let clustered = units(&mesh, 10.0);
            group.bench_with_input(
                BenchmarkId::new("kerb_move_along_clustered", polygons),
                &mesh,
                |b, mesh| {
                    b.iter_batched_ref(
                        || clustered.clone(),
                        |units| {
                            for unit in units.iter_mut() {
                                kerb_step(black_box(mesh), unit);
                            }
                        },
                        BatchSize::SmallInput,
                    )
                },
            );
        }
        if polygons <= 10_000 {
            let mut seed_units = units(&mesh, side as f32);
            group.bench_with_input(
                BenchmarkId::new("seed_full_scan", polygons),
                &mesh,
                |b, mesh| {
                    b.iter(|| {
                        for unit in seed_units.iter_mut() {
                            seed_step(black_box(mesh), unit);
                        }
                    })
                },
            );
        }
    }
    group.finish();
}

fn loading(c: &mut Criterion) {
    let file = grid_world(1000, 1000, 1.0, |_, _| false);
    let text = file.to_ron();
    let mut group = c.benchmark_group("load_1m_polygons");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    group.bench_function("parse_ron", |b| {
        b.iter(|| WorldFile::from_ron(black_box(&text)).map(|f| f.models.len()))
    });
    group.bench_function("validate_adjacency_index", |b| {
        b.iter(|| {
            black_box(&file)
                .validate()
                .map(|w| w.navmesh.polygon_count())
        })
    });
    group.finish();
}

criterion_group!(benches, movement, loading);
criterion_main!(benches);
