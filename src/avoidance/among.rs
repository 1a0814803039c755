//! Rejoining among those who stand: a unit whose place lies inside a block
//! of others standing at theirs plans its way in along the gaps
//! ([`kerb_crowd::path_among`]) rather than the plain path through them,
//! which avoidance would push it off again and again.

use bevy::prelude::*;
use kerb_crowd::{AmongParams, AvoidanceParams, Standing, clear_of, path_among};
use kerb_navmesh::{NavMesh, Route};
use kerb_turning::TurningPath;

use super::snapshot::Crowd;

/// How far, in metres, a unit may be from its place for a way in among
/// those standing to be searched: beyond, the crowd round the place will
/// have moved by the time it gets there.
const AMONG_RANGE: f32 = 15.0;

/// For a unit rejoining its way to the point `goal` along `legs` (a path,
/// or a route's legs, planned for walls alone, `clearance` off them): where
/// a leg comes within reach of someone standing near the goal, the way in
/// among them, if the search finds one. `None` where the legs are clear,
/// nobody stands near, someone stands on the goal itself, or no way is
/// found.
pub(crate) fn way_among(
    crowd: &Crowd,
    mesh: &NavMesh,
    legs: &[TurningPath],
    goal: Vec2,
    turn_radius: f32,
    body_radius: f32,
    clearance: f32,
) -> Option<Route> {
    let start = legs.first()?.start();
    let distance = start.position.distance(goal);
    if distance.is_nan() || distance > AMONG_RANGE {
        return None;
    }
    let margin = AvoidanceParams::default().margin;
    let mut standing = Vec::new();
    let around = 0.5 * distance + 2.0 * turn_radius + 2.0;
    let middle = start.position.midpoint(goal);
    crowd.grid.visit_bodies_within(middle, around, |index| {
        let index = index as usize;
        let other = &crowd.agents[index];
        if crowd.at_rest[index] && other.speed == 0.0 {
            standing.push(Standing {
                position: other.position,
                reach: (body_radius + other.body_radius) * (1.0 + margin),
            });
        }
    });
    let taken = standing
        .iter()
        .any(|other| other.position.distance(goal) < other.reach);
    if standing.is_empty() || taken || legs.iter().all(|leg| clear_of(leg, &standing)) {
        return None;
    }
    let room = |p: Vec2| mesh.has_room(p, clearance);
    let legs = path_among(
        start,
        goal,
        turn_radius,
        &standing,
        &AmongParams::default(),
        room,
    )?;
    mesh.route_through(legs, clearance)
}

#[cfg(test)]
mod tests {
    use kerb_navmesh::generate::grid_world;
    use kerb_navmesh::{NavMesh, WalkablePlan};
    use kerb_turning::Pose;

    use super::super::tests::pedestrian;
    use super::*;

    /// The free place in the middle of the block.
    const PLACE: Vec2 = Vec2::new(24.0, 14.5);

    /// Open ground, 60 m a side.
    fn open_ground() -> NavMesh {
        grid_world(30, 30, 2.0, |_, _| false)
            .validate()
            .unwrap()
            .navmesh
    }

    /// A crowd of pedestrians standing at `places`, in a grid, as the
    /// snapshot leaves them.
    fn standing_at(places: &[Vec2]) -> Crowd {
        let mut crowd = Crowd::default();
        crowd.agents = places.iter().map(|&at| pedestrian(at, 0.0)).collect();
        crowd.at_rest = vec![true; places.len()];
        crowd.grid = kerb_crowd::NeighbourGrid::new(2.0);
        crowd.grid.rebuild_bodies(places, &vec![0.3; places.len()]);
        crowd
    }

    /// People standing in columns 2 m apart and rows 1.5 m apart, but for
    /// the place in the middle.
    fn block() -> Vec<Vec2> {
        (0..5)
            .flat_map(|column| {
                (0..7)
                    .map(move |row| Vec2::new(20.0 + 2.0 * column as f32, 10.0 + 1.5 * row as f32))
            })
            .filter(|&at| at != PLACE)
            .collect()
    }

    /// The way in to [`PLACE`] for a pedestrian on `plain`, among
    /// pedestrians standing at `places`.
    fn way_in_from(mesh: &NavMesh, plain: &TurningPath, places: &[Vec2]) -> Option<Route> {
        way_among(
            &standing_at(places),
            mesh,
            std::slice::from_ref(plain),
            PLACE,
            0.8,
            0.3,
            0.0,
        )
    }

    /// A pedestrian left beside the block, bound for the free place in its
    /// middle: the plain path cuts through the people standing; the way
    /// among them keeps clear of every one, on the ground, to the place.
    #[test]
    fn a_way_into_a_block_keeps_clear_of_everyone_standing() {
        let mesh = open_ground();
        let places = block();
        let start = Pose::new(Vec2::new(17.0, 22.0), -0.3);
        let Ok(WalkablePlan::Path(plain)) = mesh.plan_walkable_to_point(start, PLACE, 0.8, 0.0)
        else {
            panic!("no plain path");
        };
        let route = way_in_from(&mesh, &plain, &places).expect("a way in");
        let reach = 0.6 * (1.0 + AvoidanceParams::default().margin);
        let standing: Vec<Standing> = places
            .iter()
            .map(|&position| Standing { position, reach })
            .collect();
        assert!(!clear_of(&plain, &standing));
        for leg in route.legs() {
            assert!(clear_of(leg, &standing), "{leg:?}");
            assert!(mesh.is_walkable(leg, 0.0));
        }
        assert_eq!(route.legs()[0].start(), start);
        let end = route.legs().last().expect("a leg").end();
        assert!(end.position.distance(PLACE) < 1e-3, "{end:?}");
    }

    /// No search where it cannot help: nobody stands near, the plain path
    /// is clear, or someone stands on the place itself.
    #[test]
    fn no_way_among_where_the_plain_path_will_do_or_nothing_would() {
        let mesh = open_ground();
        let start = Pose::new(Vec2::new(17.0, 22.0), -0.3);
        let plain = mesh
            .plan_walkable_to_point(start, PLACE, 0.8, 0.0)
            .unwrap()
            .path()
            .unwrap();
        let way_among_plain = |standing: &[Vec2]| way_in_from(&mesh, &plain, standing);
        assert_eq!(way_among_plain(&[]), None);
        assert_eq!(way_among_plain(&[Vec2::new(40.0, 40.0)]), None);
        let mut taken = block();
        taken.push(PLACE + Vec2::new(0.1, 0.0));
        assert_eq!(way_among_plain(&taken), None);
    }
}
