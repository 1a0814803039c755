//! Worlds far from the origin keep every guarantee, to within a few units of
//! `f32` rounding at their coordinates: routes stay on the mesh, the
//! legality check agrees with dense sampling, `nearest_point` is the nearest
//! point and moves never leave the mesh.

use glam::{DVec2, Vec2};
use kerb_navmesh::generate::grid_world;
use kerb_navmesh::{NavMesh, PolygonId, RouteError, RouteGoal};
use kerb_turning::{Pose, TurningPath, plan_to_point, plan_to_pose};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::SplitMix64;

/// Where the test worlds are put: the origin, and the far corners of open
/// worlds.
const OFFSETS: [f64; 3] = [0.0, 1e4, 1e5];

/// A few units of `f32` rounding at `p`'s coordinates (about 0.02 m at
/// 1e5 m): how far off a guarantee may be there.
fn rounding_at(p: Vec2) -> f32 {
    3.0 * f32::EPSILON * (1.0 + p.abs().max_element())
}

/// A walkable strip `width` wide and `length` long, at 30°, starting at
/// `origin`, in `pieces` quads (`pieces` 1 is one quad 10 km long).
fn strip(origin: DVec2, width: f64, length: f64, pieces: u32) -> NavMesh {
    let along = DVec2::from_angle(30f64.to_radians());
    let across = along.perp() * width;
    let mut vertices = Vec::new();
    for i in 0..=pieces {
        let p = origin + along * (f64::from(i) * length / f64::from(pieces));
        vertices.extend([p.as_vec2(), (p + across).as_vec2()]);
    }
    let polygons: Vec<Vec<u32>> = (0..pieces)
        .map(|i| vec![2 * i, 2 * i + 2, 2 * i + 3, 2 * i + 1])
        .collect();
    NavMesh::from_polygons(&vertices, &polygons).expect("a strip is a valid mesh")
}

/// A 20 x 20 grid of 2 m cells with holes, moved to `origin`.
fn holey(origin: DVec2) -> NavMesh {
    let world = grid_world(20, 20, 2.0, |c, r| {
        (c * 7 + r * 3) % 11 == 0 || (c == 10 && r > 3 && r < 16)
    });
    let mesh = world.validate().expect("the grid is valid").navmesh;
    let vertices: Vec<Vec2> = mesh
        .vertices()
        .iter()
        .map(|v| (v.as_dvec2() + origin).as_vec2())
        .collect();
    let polygons: Vec<Vec<u32>> = mesh
        .polygon_ids()
        .map(|id| mesh.polygon_vertex_indices(id).to_vec())
        .collect();
    NavMesh::from_polygons(&vertices, &polygons).expect("a moved grid is valid")
}

/// Every test mesh at every offset: strips narrow and wide, in one long
/// quad or many, and the holey grid.
fn meshes() -> Vec<NavMesh> {
    let mut meshes = Vec::new();
    for offset in OFFSETS {
        let origin = DVec2::splat(offset);
        meshes.push(strip(origin, 0.5, 10_000.0, 1));
        meshes.push(strip(origin, 0.5, 10_000.0, 100));
        meshes.push(strip(origin, 6.0, 2_000.0, 7));
        meshes.push(holey(origin));
    }
    meshes
}

/// How far `p` is off the walkable area, by brute force over every polygon
/// (none where `locate` finds it, which the exact side tests back).
fn off_mesh(mesh: &NavMesh, p: Vec2) -> f32 {
    if mesh.locate(p).is_some() {
        return 0.0;
    }
    mesh.polygon_ids()
        .map(|id| brute_closest(mesh, id, p).distance(p.as_dvec2()) as f32)
        .fold(f32::INFINITY, f32::min)
}

/// The closest point of a polygon to `p`, in `f64`.
fn brute_closest(mesh: &NavMesh, polygon: PolygonId, p: Vec2) -> DVec2 {
    let corners: Vec<DVec2> = mesh.polygon_vertices(polygon).map(Vec2::as_dvec2).collect();
    let p = p.as_dvec2();
    let inside = (0..corners.len()).all(|i| {
        let (a, b) = (corners[i], corners[(i + 1) % corners.len()]);
        (b - a).perp_dot(p - a) >= 0.0
    });
    if inside {
        return p;
    }
    (0..corners.len())
        .map(|i| {
            let (a, b) = (corners[i], corners[(i + 1) % corners.len()]);
            let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
            a + (b - a) * t
        })
        .min_by(|x, y| x.distance(p).total_cmp(&y.distance(p)))
        .unwrap_or(p)
}

/// A random point of the mesh's bounding box, grown by `margin`.
fn point_about(random: &mut SplitMix64, mesh: &NavMesh, margin: f32) -> Vec2 {
    let bounds = mesh.bounds();
    let (min, max) = (bounds.min.as_dvec2(), bounds.max.as_dvec2());
    let u = DVec2::new(random.random_range(0.0..1.0), random.random_range(0.0..1.0));
    let p = min - f64::from(margin) + (max - min + 2.0 * f64::from(margin)) * u;
    p.as_vec2()
}

/// A random walkable point: the nearest to a random point of the box.
fn walkable_point(random: &mut SplitMix64, mesh: &NavMesh) -> Vec2 {
    let p = point_about(random, mesh, 0.0);
    mesh.nearest_point(p).map_or(p, |(q, _)| q)
}

/// A walkable point facing any way.
fn random_start(random: &mut SplitMix64, mesh: &NavMesh) -> Pose {
    Pose::new(walkable_point(random, mesh), random.random_range(-4.0..4.0))
}

#[test]
fn the_issues_strip_has_no_route_off_the_mesh() {
    let mesh = strip(DVec2::splat(1e5), 0.5, 10_000.0, 1);
    let start = Pose::new(Vec2::new(107244.36, 104182.9), 0.160774);
    let goal = Vec2::new(105344.79, 103086.03);
    match mesh.plan_route(start, RouteGoal::Point(goal), 0.3, 0.1) {
        // A turning circle 0.6 m across cannot turn round in 0.5 m.
        Err(RouteError::Undrivable { .. }) => {}
        Ok(route) => {
            for leg in route.legs() {
                assert_leg_on_mesh(&mesh, leg);
            }
        }
        Err(error) => panic!("{error}"),
    }
}

#[test]
fn the_issues_nearest_point_is_the_nearest() {
    let mesh = strip(DVec2::ZERO, 0.5, 10_000.0, 1);
    let p = Vec2::new(3290.645, 1900.4333);
    let (nearest, _) = mesh.nearest_point(p).unwrap();
    let exact = off_mesh(&mesh, p);
    assert!(
        nearest.distance(p) <= exact + rounding_at(p),
        "{} for {exact}",
        nearest.distance(p)
    );
}

/// Dense samples of `leg` are on the mesh, to within rounding.
fn assert_leg_on_mesh(mesh: &NavMesh, leg: &TurningPath) {
    let samples = (leg.length() / 0.02).ceil().min(20_000.0) as usize + 1;
    for i in 0..=samples {
        let p = leg
            .sample(leg.length() * i as f32 / samples as f32)
            .position;
        let off = off_mesh(mesh, p);
        assert!(
            off <= rounding_at(p),
            "{p} is {off} off the mesh {:?} (violation {:?}) on {leg:?}",
            mesh.bounds(),
            mesh.path_violation(leg, 0.0)
        );
    }
}

#[test]
fn nearest_points_are_the_nearest_far_from_the_origin() {
    let mut random = SplitMix64::seed_from_u64(1);
    for mesh in meshes() {
        for _ in 0..400 {
            let p = point_about(&mut random, &mesh, 3.0);
            let (nearest, polygon) = mesh.nearest_point(p).unwrap();
            assert!(mesh.contains_closed(polygon, nearest));
            assert_eq!(mesh.locate(nearest), Some(polygon));
            let exact = off_mesh(&mesh, p);
            assert!(
                nearest.distance(p) <= exact + rounding_at(p),
                "nearest to {p} is {} away, the mesh {exact}",
                nearest.distance(p)
            );
        }
    }
}

#[test]
fn legality_agrees_with_dense_sampling_far_from_the_origin() {
    let mut random = SplitMix64::seed_from_u64(2);
    for mesh in meshes() {
        for _ in 0..1_000 {
            let start = random_start(&mut random, &mesh);
            let goal = point_about(&mut random, &mesh, 1.0);
            let radius = 10f32.powf(random.random_range(-1.0..1.3));
            let path = if random.random_range(0..2u8) == 0 {
                plan_to_point(start, goal, radius).unwrap()
            } else {
                plan_to_pose(
                    start,
                    Pose::new(goal, random.random_range(-4.0..4.0)),
                    radius,
                )
                .unwrap()
            };
            let violation = mesh.path_violation(&path, 0.0);
            assert_eq!(mesh.is_walkable(&path, 0.0), violation.is_none());
            let end = violation.unwrap_or(path.length());
            let samples = 2000;
            for i in 0..=samples {
                let d = end * i as f32 / samples as f32;
                let p = path.sample(d).position;
                if d < end - 2.0 * rounding_at(p) {
                    let off = off_mesh(&mesh, p);
                    assert!(
                        off <= rounding_at(p),
                        "{p}, {d} along, is {off} off the mesh; violation {violation:?} on {path:?} at radius {radius}"
                    );
                }
            }
        }
    }
}

#[test]
fn routes_stay_on_the_mesh_far_from_the_origin() {
    let mut random = SplitMix64::seed_from_u64(3);
    for mesh in meshes() {
        for _ in 0..300 {
            let start = random_start(&mut random, &mesh);
            let goal = walkable_point(&mut random, &mesh);
            let (radius, clearance) =
                [(0.05, 0.0), (0.3, 0.1), (0.8, 0.3), (2.0, 0.1)][random.random_range(0..4usize)];
            match mesh.plan_route(start, RouteGoal::Point(goal), radius, clearance) {
                Ok(route) => route
                    .legs()
                    .iter()
                    .for_each(|leg| assert_leg_on_mesh(&mesh, leg)),
                Err(
                    RouteError::Undrivable { .. }
                    | RouteError::Unreachable { .. }
                    | RouteError::TooNarrow { .. },
                ) => {}
                Err(error) => panic!("{error}"),
            }
        }
    }
}

#[test]
fn moves_stay_on_the_mesh_far_from_the_origin() {
    let mut random = SplitMix64::seed_from_u64(4);
    for mesh in meshes() {
        let mut polygon = PolygonId(0);
        let mut position = mesh.centroid(polygon);
        for _ in 0..20_000 {
            let step =
                Vec2::from_angle(random.random_range(0.0..6.3)) * random.random_range(0.0..40.0);
            let result = mesh.move_along(polygon, position, position + step);
            assert_eq!(mesh.locate(result.position), Some(result.polygon));
            (position, polygon) = (result.position, result.polygon);
        }
    }
}
