//! Routes for units that may reverse: tanks wider than the town's streets
//! are for turning round still find a way, with cusps where they must.

use std::sync::LazyLock;
use std::time::Instant;

use glam::Vec2;
use kerb_navmesh::{NavMesh, Route, RouteError, RouteGoal, ValidWorld, generate::Random};
use kerb_turning::{Pose, Segment};

const TOWN: &str = include_str!("../../../assets/worlds/town.world.ron");

static TOWN_MESH: LazyLock<NavMesh> = LazyLock::new(|| {
    ValidWorld::from_ron(TOWN)
        .expect("the town is valid")
        .navmesh
});

const TANK_RADIUS: f32 = 11.0;
const TANK_CLEARANCE: f32 = 1.5;
/// What a metre in reverse costs against one forwards.
const REVERSE_COST: f32 = 2.0;

/// A point on the town nearest to two numbers in [0, 1).
fn town_point(mesh: &NavMesh, u: f32, v: f32) -> Option<Vec2> {
    let bounds = mesh.bounds();
    let p = bounds.min + (bounds.max - bounds.min) * Vec2::new(u, v);
    mesh.nearest_point(p).map(|(q, _)| q)
}

/// Checks a route: legs joined in position and heading, every arc at the
/// radius, every leg on the walkable area with the clearance (the last with
/// the goal's own room), ending at the goal.
fn check_route(mesh: &NavMesh, route: &Route, start: Pose, goal: RouteGoal) {
    let scale = 1.0 + start.position.abs().max_element();
    assert_eq!(route.start(), start);
    let end = route.end();
    assert!(
        end.position.distance(goal.position()) < 1e-3 * scale,
        "ends at {end:?}, not {goal:?}"
    );
    if let Some(heading) = goal.heading() {
        assert!(Vec2::from_angle(end.heading).distance(Vec2::from_angle(heading)) < 1e-3);
    }
    let room = mesh.distance_to_wall(goal.position(), TANK_CLEARANCE) * 0.99;
    let mut previous = start;
    for (index, leg) in route.legs().iter().enumerate() {
        assert!(leg.start().position.distance(previous.position) < 1e-3 * scale);
        let turned =
            Vec2::from_angle(leg.start().heading).distance(Vec2::from_angle(previous.heading));
        assert!(turned < 1e-3, "the heading jumps between legs");
        for segment in leg.segments() {
            if let Segment::Arc { radius, .. } = segment {
                assert!((radius - TANK_RADIUS).abs() <= 1e-4 * TANK_RADIUS);
            }
        }
        let clearance = if index + 1 == route.legs().len() {
            room.min(TANK_CLEARANCE)
        } else {
            TANK_CLEARANCE
        };
        assert!(
            mesh.path_violation(leg, clearance * 0.999).is_none(),
            "leg {index} leaves the walkable area: {leg:#?}"
        );
        previous = leg.end();
    }
}

/// A random tank query: a start in the middle of a polygon (a street or a
/// square, not pressed against a wall, as in `route.rs`'s tank test) facing
/// a random way, and a goal point on the town.
fn tank_query(mesh: &NavMesh, random: &mut Random) -> Option<(Pose, Vec2)> {
    let from = town_point(mesh, random.unit(), random.unit())
        .and_then(|p| mesh.locate(p))
        .map(|polygon| mesh.centroid(polygon));
    let to = town_point(mesh, random.unit(), random.unit());
    let (from, to) = (from?, to?);
    Some((Pose::new(from, random.unit() * std::f32::consts::TAU), to))
}

/// 500 random tank routes across the town, from random points facing
/// random ways, to random points (`with_heading` false) or poses.
fn tank_routes(with_heading: bool) -> (usize, usize, usize, f64, Vec<(Pose, RouteGoal, f32)>) {
    let mesh = &*TOWN_MESH;
    let mut random = Random::new(if with_heading { 11 } else { 5 });
    let (mut drivable, mut undrivable, mut reversing) = (0, 0, 0);
    let mut times = Vec::new();
    let mut stuck = Vec::new();
    while drivable + undrivable < 500 {
        let Some((start, to)) = tank_query(mesh, &mut random) else {
            continue;
        };
        let goal = if with_heading {
            RouteGoal::Pose(Pose::new(to, random.unit() * std::f32::consts::TAU))
        } else {
            RouteGoal::Point(to)
        };
        let clock = Instant::now();
        let route =
            mesh.plan_route_reversing(start, goal, TANK_RADIUS, TANK_CLEARANCE, REVERSE_COST);
        times.push(clock.elapsed().as_secs_f64());
        match route {
            Ok(route) => {
                check_route(mesh, &route, start, goal);
                drivable += 1;
                if route.legs().iter().any(|leg| leg.reverses()) {
                    reversing += 1;
                }
            }
            Err(RouteError::Undrivable { .. }) => {
                undrivable += 1;
                stuck.push((start, goal, mesh.distance_to_wall(goal.position(), 30.0)));
            }
            // No corridor as wide as the tank: not a matter of turning.
            Err(RouteError::TooNarrow { .. } | RouteError::Unreachable { .. }) => {}
            Err(error) => panic!("{error}"),
        }
    }
    times.sort_by(f64::total_cmp);
    (
        drivable,
        undrivable,
        reversing,
        times[times.len() / 2],
        stuck,
    )
}

#[test]
fn tanks_that_reverse_reach_almost_everywhere() {
    for with_heading in [false, true] {
        let (drivable, undrivable, reversing, median, stuck) = tank_routes(with_heading);
        println!(
            "tank routes to {}: {drivable} drivable ({reversing} reversing), {undrivable} undrivable; median {:.3} ms",
            if with_heading { "poses" } else { "points" },
            median * 1e3
        );
        println!("undrivable from {stuck:?}");
        // At most 1%. Measured when written: 1 of 500 either way.
        assert!(undrivable <= 5, "{undrivable} of 500 undrivable");
    }
}

/// Any reverse cost, sensible or not: a checked route or an error, never a
/// panic. NaN and costs below 1 count as 1; an infinite cost still lets a
/// unit reverse where nothing else reaches, and never makes a forward leg
/// look dearer than a reversing one.
#[test]
fn any_reverse_cost_plans_or_errs() {
    let mesh = &*TOWN_MESH;
    let mut random = Random::new(23);
    for cost in [f32::NAN, -1.0, 0.0, 1.0, 1e30, f32::INFINITY] {
        for _ in 0..40 {
            let Some((start, to)) = tank_query(mesh, &mut random) else {
                continue;
            };
            let goal = RouteGoal::Point(to);
            match mesh.plan_route_reversing(start, goal, TANK_RADIUS, TANK_CLEARANCE, cost) {
                Ok(route) => check_route(mesh, &route, start, goal),
                Err(error) => assert!(
                    !matches!(error, RouteError::Invalid(_)),
                    "{error} at cost {cost}"
                ),
            }
            // Where forwards reaches, the route is the forward one.
            if let Ok(forward) = mesh.plan_route(start, goal, TANK_RADIUS, TANK_CLEARANCE) {
                let route = mesh
                    .plan_route_reversing(start, goal, TANK_RADIUS, TANK_CLEARANCE, cost)
                    .expect("forwards reaches");
                assert_eq!(route, forward);
            }
        }
    }
}
