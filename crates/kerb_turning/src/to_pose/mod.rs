//! Pose to pose: arrive at a point with a required heading (Dubins paths).
//!
//! [`exact`] works out the six words in `f64`; [`estimates`] ranks them
//! from `f32` estimates first, so that most queries build only the winner.

mod estimates;
mod exact;

use crate::error::check_pose_query;
use crate::{Candidates, PlanError, Pose, TurningPath};
use exact::{Setup, Shortest};

/// The shortest path from `start` that arrives at `goal`'s position facing
/// `goal`'s heading, never turning tighter than `radius`.
///
/// ```
/// use kerb_turning::{Pose, plan_to_pose};
/// use glam::Vec2;
///
/// // A U-turn into the next lane needs a full half circle and more.
/// let start = Pose::new(Vec2::ZERO, 0.0);
/// let goal = Pose::new(Vec2::new(0.0, 4.0), std::f32::consts::PI);
/// let path = plan_to_pose(start, goal, 5.0).unwrap();
/// assert!(path.length() > std::f32::consts::PI * 4.0 / 2.0);
/// assert!(path.end().position.distance(goal.position) < 1e-4);
/// ```
pub fn plan_to_pose(start: Pose, goal: Pose, radius: f32) -> Result<TurningPath, PlanError> {
    check_pose_query(&start, &goal, radius)?;
    let setup = Setup::new(start, goal, radius);
    // Each arm returns on its own so that the path is written straight into
    // the result rather than copied there.
    match setup.shortest() {
        Shortest::Csc(lane) => Ok(setup.build_estimated(start, goal, lane)),
        Shortest::ThreeTurns(word) => Ok(setup.build_three_turns(start, goal, word)),
        // LSL and RSR are always feasible, so there is always a shortest.
        Shortest::Exact(word) => Ok(word.map_or(TurningPath::stationary(start), |word| {
            setup.build(start, word)
        })),
    }
}

/// Every feasible Dubins path from `start` to `goal`, shortest first.
pub fn candidates_to_pose(start: Pose, goal: Pose, radius: f32) -> Result<Candidates, PlanError> {
    check_pose_query(&start, &goal, radius)?;
    let setup = Setup::new(start, goal, radius);
    let mut candidates = Candidates::default();
    setup
        .words()
        .for_each(|word| candidates.push(setup.build(start, word)));
    candidates.sort();
    Ok(candidates)
}
