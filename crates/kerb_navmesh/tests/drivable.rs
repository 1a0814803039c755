//! `Undrivable` only where no drivable path exists: whenever a single
//! turning path from the start to the goal is walkable, a route is found.

use glam::Vec2;
use kerb_navmesh::generate::grid_world;
use kerb_navmesh::{NavMesh, RouteError, RouteGoal, ValidWorld};
use kerb_turning::{Pose, candidates_to_point, candidates_to_pose};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::SplitMix64;

const TOWN: &str = include_str!("../../../assets/worlds/town.world.ron");

/// Islands of 5 x 5 cells of 2 m, with gaps of two cells between them.
fn islands() -> NavMesh {
    let world = grid_world(26, 26, 2.0, |c, r| c % 7 >= 5 || r % 7 >= 5);
    world.validate().expect("the islands are valid").navmesh
}

/// Rings of 2 m cells round a centre, each ring a wall with one gap, on
/// alternate sides: a corridor that winds round and round inwards.
fn spiral() -> NavMesh {
    let world = grid_world(23, 23, 2.0, |c, r| {
        let (x, y) = (c as i32 - 11, r as i32 - 11);
        let ring = x.abs().max(y.abs());
        let gap = if ring % 4 == 1 { (ring, 0) } else { (-ring, 0) };
        ring % 2 == 1 && (x, y) != gap
    });
    world.validate().expect("the spiral is valid").navmesh
}

/// A round island of radius `size`: a fan of triangles about its centre.
fn round_island(size: f32) -> NavMesh {
    let sides = 24u32;
    let mut vertices = vec![Vec2::ZERO];
    vertices.extend(
        (0..sides)
            .map(|i| Vec2::from_angle(i as f32 / sides as f32 * std::f32::consts::TAU) * size),
    );
    let polygons: Vec<Vec<u32>> = (0..sides)
        .map(|i| vec![0, 1 + i, 1 + (i + 1) % sides])
        .collect();
    NavMesh::from_polygons(&vertices, &polygons).expect("the island is valid")
}

/// A corridor `width` wide winding outwards along an Archimedean spiral,
/// in quads.
fn spiral_corridor(width: f32) -> NavMesh {
    let steps = 160u32;
    let mut vertices = Vec::new();
    for i in 0..=steps {
        let angle = i as f32 * 0.08;
        let inner = 3.0 + angle * 1.6;
        let direction = Vec2::from_angle(angle);
        vertices.extend([direction * inner, direction * (inner + width)]);
    }
    let polygons: Vec<Vec<u32>> = (0..steps)
        .map(|i| vec![2 * i, 2 * i + 2, 2 * i + 3, 2 * i + 1])
        .collect();
    NavMesh::from_polygons(&vertices, &polygons).expect("the spiral corridor is valid")
}

fn town() -> NavMesh {
    ValidWorld::from_ron(TOWN)
        .expect("the town is valid")
        .navmesh
}

/// A walkable point near a random point of the mesh's box: often on a wall.
fn walkable_point(random: &mut SplitMix64, mesh: &NavMesh) -> Vec2 {
    let bounds = mesh.bounds();
    let u = Vec2::new(random.random_range(0.0..1.0), random.random_range(0.0..1.0));
    let p = bounds.min + (bounds.max - bounds.min) * u;
    mesh.nearest_point(p).map_or(p, |(q, _)| q)
}

/// Plans routes between random pairs and counts those refused as
/// `Undrivable` although one of the direct candidates is walkable.
fn refused_with_a_walkable_candidate(
    mesh: &NavMesh,
    radius: f32,
    clearance: f32,
    pairs: usize,
) -> Vec<String> {
    let mut random = SplitMix64::seed_from_u64(21);
    let mut refused = Vec::new();
    for _ in 0..pairs {
        let from = walkable_point(&mut random, mesh);
        let start = Pose::new(from, random.random_range(-4.0..4.0));
        let goal_point = walkable_point(&mut random, mesh);
        let goal = if random.random_range(0..3u8) == 0 {
            RouteGoal::Pose(Pose::new(goal_point, random.random_range(-4.0..4.0)))
        } else {
            RouteGoal::Point(goal_point)
        };
        let candidates = match goal {
            RouteGoal::Point(point) => candidates_to_point(start, point, radius),
            RouteGoal::Pose(pose) => candidates_to_pose(start, pose, radius),
        }
        .expect("a finite query");
        let direct = candidates
            .iter()
            .any(|path| mesh.is_walkable(path, clearance));
        if let Err(RouteError::Undrivable { at }) = mesh.plan_route(start, goal, radius, clearance)
            && direct
        {
            refused.push(format!("{start:?} to {goal:?}: undrivable at {at}"));
        }
    }
    refused
}

#[test]
fn a_walkable_direct_path_is_always_a_route() {
    for (name, mesh) in [
        ("islands", islands()),
        ("spiral", spiral()),
        ("round island", round_island(12.0)),
        ("spiral corridor", spiral_corridor(6.0)),
        ("town", town()),
    ] {
        for (radius, clearance) in [
            (2.0, 0.1),
            (1.0, 0.1),
            (3.0, 0.1),
            (4.0, 0.1),
            (0.05, 0.0),
            (0.8, 0.3),
            (6.0, 0.5),
        ] {
            let refused = refused_with_a_walkable_candidate(&mesh, radius, clearance, 600);
            assert!(
                refused.is_empty(),
                "{name} at radius {radius}: {refused:#?}"
            );
        }
    }
}

/// On the town a near-point unit drives wherever a pedestrian does: its
/// polyline through the wall corners themselves left it only turns that
/// clip them (9 refusals in 500 pairs).
#[test]
fn a_near_point_unit_drives_across_the_town() {
    let mesh = town();
    let mut random = SplitMix64::seed_from_u64(22);
    let mut refused = Vec::new();
    for _ in 0..1000 {
        let (from, goal) = (
            walkable_point(&mut random, &mesh),
            walkable_point(&mut random, &mesh),
        );
        let Ok(corridor) = mesh.find_corridor(from, goal, 0.0) else {
            continue;
        };
        // Facing along the route's first piece, so it has no turning round to do.
        let polyline = mesh.string_pull(from, goal, &corridor, 0.0);
        let along = polyline
            .get(1)
            .map_or(0.0, |next| (*next - from).to_angle());
        let start = Pose::new(from, along);
        if let Err(error) = mesh.plan_route(start, RouteGoal::Point(goal), 0.05, 0.0) {
            refused.push(format!("{start:?} to {goal}: {error}"));
        }
    }
    assert!(refused.is_empty(), "{refused:#?}");
}
