//! Routes across the whole town, smoothing included, against `polyanya`'s
//! any-angle search alone between the same points on the same polygons.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use glam::Vec2;
use kerb_navmesh::generate::Random;
use kerb_navmesh::{NavMesh, RouteGoal, ValidWorld};
use kerb_turning::Pose;

#[path = "support/polyanya_mesh.rs"]
mod polyanya_mesh;
use polyanya_mesh::{polyanya_mesh, to_polyanya};

const TOWN: &str = include_str!("../../../assets/worlds/town.world.ron");

/// Query pairs per run; each timed query takes the next pair.
const QUERIES: usize = 64;

/// Start poses and goals in the middle of town polygons, at least 60% of
/// the town's diagonal apart (so across town), from a fixed seed.
fn queries(mesh: &NavMesh) -> Vec<(Pose, Vec2)> {
    let bounds = mesh.bounds();
    let diagonal = bounds.min.distance(bounds.max);
    let mut random = Random::new(7);
    let point = |random: &mut Random| {
        let p = bounds.min + (bounds.max - bounds.min) * Vec2::new(random.unit(), random.unit());
        mesh.nearest_point(p)
            .map(|(_, polygon)| mesh.centroid(polygon))
    };
    let mut pairs = Vec::with_capacity(QUERIES);
    while pairs.len() < QUERIES {
        let (Some(start), Some(goal)) = (point(&mut random), point(&mut random)) else {
            continue;
        };
        if start.distance(goal) >= 0.6 * diagonal {
            let heading = random.unit() * std::f32::consts::TAU;
            pairs.push((Pose::new(start, heading), goal));
        }
    }
    pairs
}

fn routes(c: &mut Criterion) {
    let mesh = ValidWorld::from_ron(TOWN)
        .expect("the town is valid")
        .navmesh;
    // Both search the same strips.
    let baseline = polyanya_mesh(&mesh);
    let pairs = queries(&mesh);
    // Timing failed searches would flatter polyanya; and how much longer
    // kerb's pedestrian polyline is than polyanya's optimal path.
    let mut found = 0;
    let mut excess = Vec::new();
    for (start, goal) in &pairs {
        let Some(optimal) = baseline.path(to_polyanya(start.position), to_polyanya(*goal)) else {
            continue;
        };
        found += 1;
        if let Ok(route) = mesh.plan_route(*start, RouteGoal::Point(*goal), 0.8, 0.3) {
            excess.push(route.polyline_length() / optimal.length - 1.0);
        }
    }
    assert_eq!(
        found,
        pairs.len(),
        "polyanya finds {found} of {} paths",
        pairs.len()
    );
    excess.sort_by(f32::total_cmp);
    if let (Some(worst), false) = (excess.last(), excess.is_empty()) {
        println!(
            "kerb's polyline (pedestrian, clearance 0.3 m) against polyanya's optimum over {} pairs: median {:+.2}%, worst {:+.2}%",
            excess.len(),
            100.0 * excess[excess.len() / 2],
            100.0 * worst
        );
    }
    let mut group = c.benchmark_group("route_across_town");
    group.measurement_time(Duration::from_secs(4));
    group.warm_up_time(Duration::from_secs(1));
    for (name, radius, clearance) in [("pedestrian", 0.8, 0.3), ("tank", 11.0, 1.5)] {
        group.bench_function(BenchmarkId::new("kerb_route", name), |b| {
            let mut next = 0;
            b.iter(|| {
                let (start, goal) = pairs[next % pairs.len()];
                next += 1;
                black_box(mesh.plan_route(start, RouteGoal::Point(goal), radius, clearance))
            })
        });
    }
    // A tank that may reverse, at twice the cost of driving forwards.
    group.bench_function(BenchmarkId::new("kerb_route_reversing", "tank"), |b| {
        let mut next = 0;
        b.iter(|| {
            let (start, goal) = pairs[next % pairs.len()];
            next += 1;
            black_box(mesh.plan_route_reversing(start, RouteGoal::Point(goal), 11.0, 1.5, 2.0))
        })
    });
    group.bench_function(BenchmarkId::new("polyanya_search", "point"), |b| {
        let mut next = 0;
        b.iter(|| {
            let (start, goal) = pairs[next % pairs.len()];
            next += 1;
            black_box(baseline.path(to_polyanya(start.position), to_polyanya(goal)))
        })
    });
    group.finish();
}

criterion_group!(benches, routes);
criterion_main!(benches);
