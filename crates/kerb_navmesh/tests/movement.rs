//! Confined movement, turn legality and loader robustness, with properties.

use glam::Vec2;
use kerb_navmesh::generate::grid_world;
use kerb_navmesh::{NavMesh, PolygonId, ValidWorld, WorldFile, closest_point_on_segment};
use kerb_turning::{
    Pose, TurningPath, candidates_to_point, candidates_to_pose, plan_to_point, plan_to_pose,
};
use proptest::prelude::*;

mod support;
use support::block_with_pavements;

const SMALL: &str = include_str!("../../../assets/worlds/small.world.ron");
const TOWN: &str = include_str!("../../../assets/worlds/town.world.ron");

fn small() -> NavMesh {
    ValidWorld::from_ron(SMALL).unwrap().navmesh
}

/// A 20 x 20 grid of 2 m cells with a scatter of holes: many walls, concave
/// corners and narrow gaps.
fn holey() -> NavMesh {
    grid_world(20, 20, 2.0, |c, r| {
        (c * 7 + r * 3) % 11 == 0 || (c == 10 && r > 3 && r < 16)
    })
    .validate()
    .unwrap()
    .navmesh
}

/// The path-polygon thesis's baseline, to compare against: scan every polygon.
fn locate_by_scan(mesh: &NavMesh, p: Vec2) -> Option<PolygonId> {
    let owner = mesh.polygon_ids().find(|&id| mesh.owns(id, p));
    owner.or_else(|| mesh.polygon_ids().find(|&id| mesh.contains_closed(id, p)))
}

/// An arc that ends on a hole's edge, a hair inside, and a straight that
/// leaves through that edge from there: the crossing is at the join, where
/// neither piece shows it. It was missed, and the violation found 12 m
/// later (found by `legality_agrees_with_dense_sampling`).
#[test]
fn a_piece_leaving_through_the_wall_the_one_before_ended_on_is_caught() {
    let mesh = holey();
    let start = Pose::new(Vec2::new(31.770157, 25.737173), 2.810512);
    let path = plan_to_point(start, Vec2::new(29.177526, 5.2211413), 3.50671).unwrap();
    let join = path.segments()[0].length();
    let violation = mesh.path_violation(&path, 0.0).unwrap();
    assert!(
        (violation - join).abs() < 1e-3,
        "{violation} against the join at {join}"
    );
    assert!(mesh.locate(path.sample(join + 0.01).position).is_none());
    assert!(!mesh.is_walkable(&path, 0.0));
}

#[test]
fn moving_into_a_wall_slides_along_it() {
    let mesh = small();
    let result = mesh.move_along(PolygonId(0), Vec2::new(5.0, 5.0), Vec2::new(8.0, -5.0));
    assert!(result.hit_wall);
    assert!(
        result.position.distance(Vec2::new(8.0, 0.0)) < 1e-5,
        "{result:?}"
    );
    assert!(mesh.contains_closed(result.polygon, result.position));
    // Straight into the wall: stops on it, no tunnelling, no bounce.
    let result = mesh.move_along(PolygonId(0), Vec2::new(5.0, 5.0), Vec2::new(5.0, -50.0));
    assert!(
        result.position.distance(Vec2::new(5.0, 0.0)) < 1e-5,
        "{result:?}"
    );
}

#[test]
fn sliding_keeps_making_progress_along_a_wall() {
    let mesh = small();
    // Press diagonally into the bottom wall, step after step, from P0 to P3.
    let mut position = Vec2::new(1.0, 1.0);
    let mut polygon = PolygonId(0);
    let mut previous_x = position.x;
    for _ in 0..60 {
        let result = mesh.move_along(polygon, position, position + Vec2::new(0.5, -0.5));
        assert!(
            result.position.x > previous_x,
            "stuck at {}",
            result.position
        );
        assert!(mesh.contains_closed(result.polygon, result.position));
        previous_x = result.position.x;
        position = result.position;
        polygon = result.polygon;
        if position.x > 29.0 {
            break;
        }
    }
    assert!(position.x > 29.0, "reached {position}");
    assert_eq!(polygon, PolygonId(3));
}

#[test]
fn long_moves_cross_every_polygon_and_never_tunnel() {
    let mesh = small();
    // From P0 across P1 and P3 in one move.
    let result = mesh.move_along(PolygonId(0), Vec2::new(1.0, 5.0), Vec2::new(29.0, 5.0));
    assert_eq!(
        (result.position, result.polygon, result.hit_wall),
        (Vec2::new(29.0, 5.0), PolygonId(3), false)
    );
    // Aim through the empty corner above P0 towards P2: it must not cut
    // across the missing area but stop or slide at the concave corner.
    let result = mesh.move_along(PolygonId(0), Vec2::new(5.0, 5.0), Vec2::new(12.0, 19.0));
    assert!(result.hit_wall);
    assert!(
        mesh.contains_closed(result.polygon, result.position),
        "{result:?}"
    );
    // A dt of minutes at speed: still on the mesh.
    let result = mesh.move_along(
        PolygonId(2),
        Vec2::new(15.0, 15.0),
        Vec2::new(-4000.0, 9000.0),
    );
    assert!(
        mesh.contains_closed(result.polygon, result.position),
        "{result:?}"
    );
    // The island is never reached from the mainland.
    let result = mesh.move_along(PolygonId(3), Vec2::new(25.0, 5.0), Vec2::new(42.0, 41.0));
    assert_ne!(result.polygon, PolygonId(5));
}

#[test]
fn a_start_off_its_polygon_is_snapped() {
    let mesh = small();
    let result = mesh.move_along(PolygonId(0), Vec2::new(-3.0, 5.0), Vec2::new(-3.0, 6.0));
    assert!(mesh.contains_closed(result.polygon, result.position));
    let result = mesh.move_along(
        PolygonId(999),
        Vec2::new(5.0, 5.0),
        Vec2::new(f32::NAN, 6.0),
    );
    assert!(mesh.contains_closed(result.polygon, result.position));
}

#[test]
fn legality_of_known_paths() {
    let mesh = small();
    let start = Pose::new(Vec2::new(2.0, 5.0), 0.0);
    // Straight along P0, P1, P3: fine.
    let path = plan_to_point(start, Vec2::new(28.0, 5.0), 3.0).unwrap();
    assert_eq!(mesh.path_violation(&path, 0.0), None);
    // With 6 m of clearance the corridor (10 m wide) is too narrow.
    assert!(mesh.path_violation(&path, 6.0).is_some());
    // Turning left towards (5, 15) leaves through P0's top wall at y = 10.
    let path = plan_to_point(start, Vec2::new(5.0, 15.0), 2.0).unwrap();
    let violation = mesh
        .path_violation(&path, 0.0)
        .expect("it crosses the wall");
    let at = path.sample(violation).position;
    assert!((at.y - 10.0).abs() < 1e-3, "{at}");
    // A start off the mesh is a violation at once.
    let off = plan_to_point(
        Pose::new(Vec2::new(-1.0, 5.0), 0.0),
        Vec2::new(5.0, 5.0),
        1.0,
    )
    .unwrap();
    assert_eq!(mesh.path_violation(&off, 0.0), Some(0.0));
    // A start on a wall heading inwards is fine.
    let on_wall = plan_to_point(
        Pose::new(Vec2::new(5.0, 0.0), 1.0),
        Vec2::new(6.0, 6.0),
        1.0,
    )
    .unwrap();
    assert_eq!(mesh.path_violation(&on_wall, 0.0), None);
}

/// A path that drifts through a wall's middle at a shallow angle leaves the
/// walkable area there. Looking a fixed step past such a crossing stayed
/// within rounding of the wall, so it was once taken for a corner's
/// artefact and the exit missed.
#[test]
fn a_shallow_crossing_of_a_wall_is_an_exit() {
    let mesh = holey();
    // Down the grid, drifting 5.5 mm a metre to the right: it crosses the
    // left wall (x = 10) of the hole in cell (5, 14) near y = 29.7 and
    // comes back out of the hole's bottom at y = 28.
    let path = TurningPath::straight(Vec2::new(9.966, 35.85), Vec2::new(10.116, 8.6));
    let violation = mesh
        .path_violation(&path, 0.0)
        .expect("it drifts into the hole");
    let at = path.sample(violation).position;
    assert!(
        (at.x - 10.0).abs() < 1e-3 && (28.0..30.0).contains(&at.y),
        "{at}"
    );
    assert!(!mesh.is_walkable(&path, 0.0));
}

#[test]
fn shortest_walkable_candidate_skips_blocked_ones() {
    let mesh = small();
    // Facing up next to P0's top wall: the shortest way to a point behind is
    // a left loop through the wall; a walkable candidate turns right.
    let start = Pose::new(Vec2::new(3.0, 8.0), std::f32::consts::FRAC_PI_2);
    let goal = Vec2::new(3.0, 4.0);
    let shortest = plan_to_point(start, goal, 1.5).unwrap();
    let walkable = mesh
        .plan_walkable_to_point(start, goal, 1.5, 0.0)
        .unwrap()
        .path()
        .expect("a walkable candidate exists");
    assert_eq!(mesh.path_violation(&walkable, 0.0), None);
    assert!(walkable.length() >= shortest.length());
    let pose_plan = mesh
        .plan_walkable_to_pose(start, Pose::new(Vec2::new(25.0, 5.0), 0.0), 1.5, 0.0)
        .unwrap();
    assert!(pose_plan.path().is_some());
    // Nothing fits a radius far wider than the corridor.
    let blocked = mesh
        .plan_walkable_to_pose(start, Pose::new(Vec2::new(3.0, 2.0), -1.5), 40.0, 0.0)
        .unwrap();
    assert!(blocked.path().is_none());
}

/// Distance from `p` to the nearest wall, by brute force.
fn wall_distance(mesh: &NavMesh, p: Vec2) -> f32 {
    mesh.walls()
        .map(|(a, b)| closest_point_on_segment(a, b, p).distance(p))
        .fold(f32::INFINITY, f32::min)
}

fn random_walk(mesh: &NavMesh, seed: u64, steps: usize) {
    let mut random = kerb_navmesh::generate::Random::new(seed);
    let mut next = move || random.unit();
    let mut polygon = PolygonId(0);
    let mut position = mesh.centroid(polygon);
    let mut heading: f32 = 0.0;
    for step in 0..steps {
        let dt = next() * 2.0;
        let speed = next() * 20.0;
        heading += (next() - 0.5) * 2.0;
        let target = position + Vec2::from_angle(heading) * speed * dt;
        let result = mesh.move_along(polygon, position, target);
        assert!(
            mesh.contains_closed(result.polygon, result.position),
            "step {step}: {position} -> {target} gave {result:?}"
        );
        assert_eq!(
            mesh.locate(result.position),
            Some(result.polygon),
            "step {step}: {position} -> {target} gave {result:?}"
        );
        position = result.position;
        polygon = result.polygon;
    }
}

#[test]
fn moves_leave_through_the_collinear_edge_that_holds_the_crossing() {
    // The top pavement's bottom side is three collinear edges: a portal to
    // the left pavement, the block's wall, a portal to the right pavement.
    let mesh = block_with_pavements();
    let top = mesh.locate(Vec2::new(-2.0, 0.5)).unwrap();
    let right = mesh.locate(Vec2::new(0.5, -1.0)).unwrap();
    let left = mesh.locate(Vec2::new(-4.5, -1.0)).unwrap();
    let through_right = mesh.move_along(top, Vec2::new(0.5, 0.5), Vec2::new(0.5, -0.5));
    assert_eq!(
        (through_right.polygon, through_right.hit_wall),
        (right, false)
    );
    assert_eq!(through_right.position, Vec2::new(0.5, -0.5));
    let through_left = mesh.move_along(top, Vec2::new(-4.5, 0.5), Vec2::new(-4.5, -0.5));
    assert_eq!((through_left.polygon, through_left.hit_wall), (left, false));
    let into_wall = mesh.move_along(top, Vec2::new(-2.0, 0.5), Vec2::new(-2.0, -0.5));
    assert!(into_wall.hit_wall);
    assert_eq!(into_wall.polygon, top);
    assert!((into_wall.position - Vec2::new(-2.0, 0.0)).length() < 1e-6);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    #[test]
    fn random_walks_never_leave_the_mesh(seed in any::<u64>()) {
        random_walk(&small(), seed, 100_000);
        random_walk(&holey(), seed, 100_000);
    }
}

/// The town, validated once for all the tests that use it.
fn town() -> &'static NavMesh {
    static TOWN_MESH: std::sync::OnceLock<NavMesh> = std::sync::OnceLock::new();
    TOWN_MESH.get_or_init(|| ValidWorld::from_ron(TOWN).unwrap().navmesh)
}

#[test]
fn random_walk_on_the_town() {
    let town = town().clone();
    random_walk(&town, 7, 100_000);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn grid_location_agrees_with_a_full_scan(x in -2.0f32..42.0, y in -2.0f32..42.0, snap in 0u8..4) {
        let mesh = holey();
        // Bias some probes onto edges and vertices, where ties happen.
        let p = match snap {
            0 => Vec2::new(x, y),
            1 => Vec2::new((x / 2.0).round() * 2.0, y),
            2 => Vec2::new(x, (y / 2.0).round() * 2.0),
            _ => (Vec2::new(x, y) / 2.0).round() * 2.0,
        };
        prop_assert_eq!(mesh.locate(p), locate_by_scan(&mesh, p));
        if let Some((nearest, polygon)) = mesh.nearest_point(p) {
            prop_assert!(mesh.contains_closed(polygon, nearest));
            let brute = mesh.polygon_ids()
                .map(|id| mesh.closest_point_in_polygon(id, p).distance(p))
                .fold(f32::INFINITY, f32::min);
            prop_assert!((nearest.distance(p) - brute).abs() < 1e-4);
        }
    }

    #[test]
    fn legality_agrees_with_dense_sampling(
        sx in 1.0f32..39.0, sy in 1.0f32..39.0, heading in -3.2f32..3.2,
        gx in 0.0f32..40.0, gy in 0.0f32..40.0, gh in -3.2f32..3.2,
        radius in 0.5f32..8.0, clearance in prop_oneof![Just(0.0f32), 0.1f32..0.8], to_pose in any::<bool>(),
    ) {
        let mesh = holey();
        let start = Pose::new(Vec2::new(sx, sy), heading);
        prop_assume!(mesh.locate(start.position).is_some());
        prop_assume!(clearance == 0.0 || wall_distance(&mesh, start.position) > clearance + 0.05);
        let path = if to_pose {
            plan_to_pose(start, Pose::new(Vec2::new(gx, gy), gh), radius).unwrap()
        } else {
            plan_to_point(start, Vec2::new(gx, gy), radius).unwrap()
        };
        let violation = mesh.path_violation(&path, clearance);
        prop_assert_eq!(mesh.is_walkable(&path, clearance), violation.is_none());
        let walkable_at = |d: f32| {
            let p = path.sample(d).position;
            let on_mesh = mesh.locate(p).is_some() || mesh.nearest_point(p).is_some_and(|(q, _)| q.distance(p) < 1e-3);
            on_mesh && (clearance == 0.0 || wall_distance(&mesh, p) >= clearance - 1e-3)
        };
        let end = violation.unwrap_or(path.length());
        let samples = 2000;
        for i in 0..=samples {
            let d = end * i as f32 / samples as f32;
            if d < end - 1e-2 {
                prop_assert!(walkable_at(d), "sample at {d} of {} is off the mesh, violation {violation:?}", path.length());
            }
        }
        if let Some(at) = violation {
            let p = path.sample(at).position;
            prop_assert!((wall_distance(&mesh, p) - clearance).abs() < 1e-2,
                "violation at {at} is {} from a wall", wall_distance(&mesh, p));
            // Just past it, the path is off the mesh or too close to a wall.
            let past = (at + 0.05).min(path.length());
            if past > at + 0.01 {
                prop_assert!(!walkable_at(past) || wall_distance(&mesh, path.sample(past).position) < clearance + 0.05);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// The early-out check answers exactly as the earliest-violation one,
    /// on the town's streets, where most paths hit several walls.
    #[test]
    fn walkability_agrees_with_the_earliest_violation(
        start in (0.0f32..1.0, 0.0f32..1.0, -3.2f32..3.2),
        goal in (0.0f32..1.0, 0.0f32..1.0, -3.2f32..3.2),
        span in 0.02f32..1.0,
        radius in prop_oneof![0.5f32..2.0, 8.0f32..12.0],
        clearance in prop_oneof![Just(0.0f32), 0.1f32..2.0],
        to_pose in any::<bool>(),
    ) {
        let town = town();
        let bounds = town.bounds();
        let size = bounds.max - bounds.min;
        let at = |(x, y): (f32, f32)| bounds.min + size * Vec2::new(x, y);
        let start_position = at((start.0, start.1));
        prop_assume!(town.locate(start_position).is_some());
        // Goals from next door to across town.
        let goal_position = start_position + (at((goal.0, goal.1)) - start_position) * span;
        let start = Pose::new(start_position, start.2);
        let path = if to_pose {
            plan_to_pose(start, Pose::new(goal_position, goal.2), radius).unwrap()
        } else {
            plan_to_point(start, goal_position, radius).unwrap()
        };
        prop_assert_eq!(
            town.is_walkable(&path, clearance),
            town.path_violation(&path, clearance).is_none()
        );
    }

    /// Planning checks the shortest path first and enumerates the other
    /// candidates only when it is blocked; the answer is exactly the first
    /// walkable one of all the candidates, shortest first.
    #[test]
    fn walkable_plans_pick_the_first_walkable_candidate(
        start in (0.0f32..1.0, 0.0f32..1.0, -3.2f32..3.2),
        goal in (-1.0f32..1.0, -1.0f32..1.0, -3.2f32..3.2),
        reach in prop_oneof![1.0f32..5.0, 5.0f32..40.0],
        radius in prop_oneof![0.5f32..2.0, 8.0f32..12.0],
        clearance in prop_oneof![Just(0.0f32), 0.1f32..1.0],
        to_pose in any::<bool>(),
    ) {
        let town = town();
        let bounds = town.bounds();
        let start_position = bounds.min + (bounds.max - bounds.min) * Vec2::new(start.0, start.1);
        prop_assume!(town.locate(start_position).is_some());
        // Wander-sized hops, where walls block the shortest path often.
        let goal_position = start_position + Vec2::new(goal.0, goal.1) * reach;
        let start = Pose::new(start_position, start.2);
        let (planned, candidates) = if to_pose {
            let goal = Pose::new(goal_position, goal.2);
            (
                town.plan_walkable_to_pose(start, goal, radius, clearance).unwrap(),
                candidates_to_pose(start, goal, radius).unwrap(),
            )
        } else {
            (
                town.plan_walkable_to_point(start, goal_position, radius, clearance).unwrap(),
                candidates_to_point(start, goal_position, radius).unwrap(),
            )
        };
        let first_walkable = candidates.iter().find(|path| town.is_walkable(path, clearance)).copied();
        // The planner builds its shortest path from its estimates and the
        // candidates are built the general way: the same route, not the
        // same bits.
        match (planned.path(), first_walkable) {
            (Some(planned), Some(first)) => prop_assert!(planned.same_route(&first), "{planned:#?} against {first:#?}"),
            (planned, first) => prop_assert_eq!(planned, first),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn loader_survives_arbitrary_text(text in "\\PC{0,200}") {
        let _ = ValidWorld::from_ron(&text);
    }

    #[test]
    fn loader_survives_mutated_worlds(position in 0usize..1300, replacement in "[-0-9a-zA-Z(),\\[\\]. :]{0,4}", remove in 0usize..4) {
        let mut text = SMALL.to_string();
        let position = position.min(text.len());
        let end = (position + remove).min(text.len());
        if text.is_char_boundary(position) && text.is_char_boundary(end) {
            text.replace_range(position..end, &replacement);
        }
        if let Ok(world) = ValidWorld::from_ron(&text) {
            assert_valid(&world.navmesh);
        }
    }

    #[test]
    fn loader_never_accepts_an_invalid_mesh(
        vertices in prop::collection::vec((-3i8..4, -3i8..4), 3..9),
        polygons in prop::collection::vec(prop::collection::vec(0u32..10, 0..6), 1..5),
    ) {
        let file = WorldFile {
            name: String::new(),
            models: vec![kerb_navmesh::Model {
                name: String::from("random"),
                kind: kerb_navmesh::ModelKind::Walkable,
                vertices: vertices.iter().map(|&(x, y)| (f32::from(x), f32::from(y))).collect(),
                polygons,
            }],
        };
        if let Ok(world) = file.validate() {
            assert_valid(&world.navmesh);
        }
    }
}

/// What validation promises about every navmesh it accepts.
fn assert_valid(mesh: &NavMesh) {
    for polygon in mesh.polygon_ids() {
        let corners: Vec<Vec2> = mesh.polygon_vertices(polygon).collect();
        assert!(corners.len() >= 3);
        let n = corners.len();
        for i in 0..n {
            let (a, b, c) = (corners[i], corners[(i + 1) % n], corners[(i + 2) % n]);
            assert!(
                (b - a).perp_dot(c - b) >= -1e-4,
                "convex, counter-clockwise"
            );
            assert_ne!(a, b);
        }
        assert!(mesh.contains_closed(polygon, mesh.centroid(polygon)));
        for neighbor in mesh.neighbors(polygon) {
            assert!(
                mesh.neighbors(neighbor).any(|p| p == polygon),
                "links are mutual"
            );
        }
    }
}

/// Found by the town route property test at 60,000 cases: a 281 m leg up
/// the west side of the town leaves the walkable area at a shallow angle
/// 227 m from its start and is 1.3 m outside at worst. The check for a
/// real exit stepped past the wall by an amount scaled by the segment's
/// start, which far from it stayed inside the rounding the off-mesh test
/// allows there, so the exit was taken for an artefact and the leg passed.
#[test]
fn a_shallow_exit_far_from_the_start_is_a_violation() {
    let mesh = town();
    let (from, to) = (Vec2::new(6.7993417, 34.76755), Vec2::new(18.215597, 316.0));
    let line = TurningPath::straight(from, to);
    let violation = mesh.path_violation(&line, 0.0).expect("it leaves the area");
    assert!((violation - 226.84).abs() < 0.05, "{violation}");
    assert!(!mesh.is_walkable(&line, 0.0));
}

/// Found by the town route property test at 30,000 cases, after the fix
/// above made the step past a crossing 7% longer here: a tank's arc clips
/// the wall corner at (196, 176) by 6 mm for a few centimetres, and the
/// step landed back inside. The point just past the rounding is tried too.
#[test]
fn an_arc_that_clips_a_wall_corner_is_a_violation() {
    let mesh = town();
    let start = Pose::new(Vec2::new(175.6234, 183.5), 4.5190845);
    let goal = Pose::new(Vec2::new(164.46448, 196.0), 9.267746);
    let candidates = candidates_to_pose(start, goal, 11.0).unwrap();
    let clipping = candidates
        .iter()
        .find(|path| (path.length() - 76.2045).abs() < 0.01)
        .expect("the arc-line candidate that clips the corner");
    let violation = mesh
        .path_violation(clipping, 0.0)
        .expect("it clips the corner");
    assert!((violation - 31.04).abs() < 0.05, "{violation}");
}
