//! Pose to point: reach a destination with any final heading.
//!
//! Pinter's article turns at full lock until it faces the destination, then drives
//! straight, and gives up when the destination is inside the turning circle.
//! With a free final heading the shortest path is always arc-line or arc-arc
//! (Bui, Souères and Boissonnat, 1994), so we enumerate both families and a
//! point is always reachable.

mod exact;
mod fast;

use crate::angle::fast_atan2;
use crate::error::check_query;
use crate::{Candidates, PlanError, Pose, TurnDirection, TurningPath};
use exact::{Setup, near_a_circle};

/// A goal within this many `f32` ulps (of the largest coordinate or the
/// radius) inside a turning circle counts as on it: `f32` inputs put a goal
/// meant to be on the circle a few ulps to either side, and "inside" would
/// send the unit on a needless loop.
const ON_CIRCLE_ULPS: f64 = 4.0;

/// The geometry Pinter's article computes for one turn direction (its
/// Listing 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TurnGeometry {
    /// Centre of the turning circle, the article's `P`.
    pub center: glam::Vec2,
    /// Distance from the centre to the destination, `h`.
    pub center_distance: f32,
    /// Length of the straight part, `d = sqrt(h² - r²)`.
    pub straight_length: f32,
    /// Angle at the centre between the destination and the exit point,
    /// `theta = acos(r / h)`.
    pub theta: f32,
    /// Where the arc ends and the straight begins, `Q`.
    pub exit_point: glam::Vec2,
    /// Angle covered by the arc, in `[0, 2π)`.
    pub arc_angle: f32,
}

/// How far inside a turning circle a goal may be and still count as on
/// it: [`ON_CIRCLE_ULPS`] ulps of the largest coordinate plus the radius.
pub(crate) fn on_circle(start: glam::Vec2, goal: glam::Vec2, radius: f32) -> f32 {
    let coordinate_scale = start.abs().max_element().max(goal.abs().max_element());
    ON_CIRCLE_ULPS as f32 * f32::EPSILON * (coordinate_scale + radius)
}

#[inline(always)]
fn check(start: &Pose, goal: glam::Vec2, radius: f32) -> Result<(), PlanError> {
    let values = [
        start.position.x,
        start.position.y,
        start.heading,
        goal.x,
        goal.y,
    ];
    check_query(values, radius, &[("start pose", 3), ("goal point", 2)])
}

/// Pinter's construction for one turn direction: the turning circle, the
/// distances and the exit point. `None` where the article gives up, with the
/// goal inside the circle; [`plan_to_point`] handles that case too.
pub fn turn_geometry(
    start: Pose,
    goal: glam::Vec2,
    radius: f32,
    direction: TurnDirection,
) -> Result<Option<TurnGeometry>, PlanError> {
    check(&start, goal, radius)?;
    let setup = Setup::new(start, goal, radius);
    Ok(setup
        .arc_line(direction)
        .map(|(turn, straight, center, exit)| {
            let h_sq = straight * straight + setup.radius * setup.radius;
            TurnGeometry {
                center: center.as_vec2(),
                center_distance: h_sq.sqrt() as f32,
                straight_length: straight as f32,
                theta: fast_atan2(straight, setup.radius) as f32,
                exit_point: (center + exit * (setup.radius / h_sq)).as_vec2(),
                arc_angle: turn.angle as f32,
            }
        }))
}

/// Every feasible arc-line and arc-arc path from `start` to `goal`, shortest first.
pub fn candidates_to_point(
    start: Pose,
    goal: glam::Vec2,
    radius: f32,
) -> Result<Candidates, PlanError> {
    check(&start, goal, radius)?;
    Ok(Setup::new(start, goal, radius).candidates())
}

/// The shortest path from `start` to `goal` (any final heading) that never
/// turns tighter than `radius`. It never fails on finite input: a goal inside
/// the turning circle is reached by swinging out and back in.
///
/// A goal clear of the edges of both turning circles is planned in `f32`,
/// one near an edge (where rounding could turn a short turn into a full
/// circle) in `f64`. Both builds agree to within 1e-6 of the query's scale,
/// and the path is the same route as the shortest of
/// [`candidates_to_point`] (see [`TurningPath::same_route`]).
///
/// ```
/// use kerb_turning::{Pose, plan_to_point};
/// use glam::Vec2;
///
/// let start = Pose::new(Vec2::ZERO, 0.0);
/// // Right beside the unit, inside its left turning circle.
/// let path = plan_to_point(start, Vec2::new(0.0, 2.0), 5.0).unwrap();
/// assert!(path.end().position.distance(Vec2::new(0.0, 2.0)) < 1e-4);
/// ```
pub fn plan_to_point(start: Pose, goal: glam::Vec2, radius: f32) -> Result<TurningPath, PlanError> {
    // The `f32` build checks nothing: no NaN or infinite input, nor a
    // radius not above zero, gets past its own test of how far the goal
    // is from the circles. Whatever it leaves comes here and is checked.
    fast::plan(start, goal, radius, |start, goal, radius| {
        check(&start, goal, radius)?;
        Ok(near_a_circle(start, goal, radius))
    })
}
