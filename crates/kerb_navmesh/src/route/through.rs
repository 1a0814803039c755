//! Routes of legs planned elsewhere: a way found among obstacles the
//! navmesh does not know of (people standing), held to the same walls.

use kerb_turning::TurningPath;

use super::Route;
use crate::mesh::NavMesh;

/// How far, in metres, one leg may end from where the next starts and
/// still count as joined: rounding, not a gap.
const JOIN: f32 = 1e-2;

impl NavMesh {
    /// A [`Route`] of `legs` driven one after the other, where each stays on
    /// the walkable area with `clearance` and each starts where the last
    /// ended; `None` where one does not, or where there are no legs. Its
    /// corridor is the polygons its legs start and end in, in order, and its
    /// polyline their joints.
    pub fn route_through(&self, legs: Vec<TurningPath>, clearance: f32) -> Option<Route> {
        let first = legs.first()?;
        let joined = legs
            .windows(2)
            .all(|pair| pair[0].end().position.distance(pair[1].start().position) <= JOIN);
        if !joined || !legs.iter().all(|leg| self.is_walkable(leg, clearance)) {
            return None;
        }
        let mut polyline = vec![first.start().position];
        polyline.extend(legs.iter().map(|leg| leg.end().position));
        let mut corridor = Vec::new();
        for &point in &polyline {
            let polygon = self.locate(point)?;
            if corridor.last() != Some(&polygon) {
                corridor.push(polygon);
            }
        }
        Some(Route::new(corridor, polyline, legs))
    }
}

#[cfg(test)]
mod tests {
    use glam::Vec2;
    use kerb_turning::{Pose, plan_to_pose};

    use crate::generate::grid_world;

    /// Legs that join and stay on the ground make a route of them, in
    /// order; a gap between legs, a leg off the ground, or no legs at all
    /// make none.
    #[test]
    fn legs_that_join_on_the_ground_make_a_route() {
        let world = grid_world(10, 10, 2.0, |column, row| column == 5 && row < 8)
            .validate()
            .unwrap();
        let mesh = &world.navmesh;
        let a = Pose::new(Vec2::new(1.0, 1.0), 0.0);
        let b = Pose::new(Vec2::new(4.0, 3.0), 1.0);
        let c = Pose::new(Vec2::new(3.0, 7.0), 2.0);
        let first = plan_to_pose(a, b, 0.8).unwrap();
        let second = plan_to_pose(b, c, 0.8).unwrap();
        let route = mesh
            .route_through(vec![first, second], 0.1)
            .expect("a route");
        assert_eq!(route.legs(), &[first, second]);
        assert!((route.length() - first.length() - second.length()).abs() < 1e-4);
        assert_eq!(route.polyline(), &[a.position, b.position, c.position]);
        assert!(!route.corridor().is_empty());
        assert_eq!(mesh.route_through(vec![first, first], 0.1), None);
        assert_eq!(mesh.route_through(Vec::new(), 0.1), None);
        // Into the hole at column 5.
        let into_the_hole = plan_to_pose(b, Pose::new(Vec2::new(11.0, 3.0), 0.0), 0.8).unwrap();
        assert_eq!(mesh.route_through(vec![first, into_the_hole], 0.1), None);
    }
}
