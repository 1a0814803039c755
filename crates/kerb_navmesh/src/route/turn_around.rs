//! Backing up to turn round: the first half of a three-point turn, for a
//! unit whose turning circle is too wide for the street it faces the wrong
//! way in.

use std::f32::consts::PI;

use glam::Vec2;
use kerb_turning::{Pose, TurningPath, plan_to_point};

use crate::mesh::NavMesh;
use crate::route::RouteGoal;

/// How far back the unit aims, in turning radii.
const REVERSE_DISTANCES: [f32; 5] = [1.0, 1.6, 2.2, 0.6, 0.3];

/// How far round, from straight back, the point it backs towards lies.
const REVERSE_ANGLES: [f32; 4] = [PI / 3.0, PI / 6.0, PI / 2.0, 2.0 * PI / 3.0];

impl NavMesh {
    /// A path to drive backwards (reversing, facing the other way) from
    /// `start`, turning no tighter than `radius` and keeping `clearance`,
    /// after which [`NavMesh::plan_route`] to `goal` succeeds; `None` if no
    /// such path is found. A unit whose route is
    /// [`crate::RouteError::Undrivable`] because it faces the wrong way in a
    /// narrow street backs along this path, then plans again: a driver's
    /// three-point turn.
    ///
    /// The path is given as the pose moves: its headings point backwards,
    /// so the unit faces `heading + π` along it.
    pub fn plan_turn_around(
        &self,
        start: Pose,
        goal: RouteGoal,
        radius: f32,
        clearance: f32,
    ) -> Option<TurningPath> {
        let backwards = Pose::new(start.position, start.heading + PI);
        let behind = backwards.forward();
        // Backing towards the side the goal is on swings the nose away
        // from it less; try that side first.
        let towards_goal = behind.perp_dot(goal.position() - start.position).signum();
        let mut fallback = None;
        for distance in REVERSE_DISTANCES {
            for angle in REVERSE_ANGLES {
                for side in [towards_goal, -towards_goal] {
                    let direction = Vec2::from_angle(side * angle).rotate(behind);
                    let target = start.position + direction * (distance * radius);
                    let Ok(path) = plan_to_point(backwards, target, radius) else {
                        continue;
                    };
                    if path.length() == 0.0 || !self.is_walkable(&path, clearance) {
                        continue;
                    }
                    let end = path.end();
                    let facing = Pose::new(end.position, end.heading + PI);
                    if self.plan_route(facing, goal, radius, clearance).is_ok() {
                        return Some(path);
                    }
                    // Backing up at all can open a way on the next try.
                    fallback.get_or_insert(path);
                }
            }
        }
        fallback
    }
}
