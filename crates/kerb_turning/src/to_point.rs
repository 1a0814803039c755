//! Pose to point: reach a destination with any final heading.
//!
//! The seed turns at full lock until it faces the destination, then drives
//! straight, and gives up when the destination is inside the turning circle.
//! With a free final heading the shortest path is always arc-line or arc-arc
//! (Bui, Souères and Boissonnat, 1994), so we enumerate both families and a
//! point is always reachable.

use glam::DVec2;

use crate::angle::{Turn, fast_atan2, fast_sin_cos, normalize};
use crate::error::{check_pose, check_radius};
use crate::path::PathBuilder;
use crate::{Candidates, PathWord, PlanError, Pose, TurnDirection, TurningPath};

/// A goal within this many `f32` ulps (of the largest coordinate or the
/// radius) inside a turning circle counts as on it: `f32` inputs put a goal
/// meant to be on the circle a few ulps to either side, and "inside" would
/// send the unit on a needless loop.
const ON_CIRCLE_ULPS: f64 = 8.0;

/// The geometry the seed computes for one turn direction (its Listing 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TurnGeometry {
    /// Centre of the turning circle, the seed's `P`.
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

struct Setup {
    start: Pose,
    position: DVec2,
    heading: f64,
    forward: DVec2,
    goal: DVec2,
    radius: f64,
    /// How far inside a circle a goal may be and still count as on it.
    on_circle: f64,
}

impl Setup {
    fn new(start: Pose, goal: glam::Vec2, radius: f32) -> Self {
        let heading = normalize(f64::from(start.heading));
        let (sin, cos) = fast_sin_cos(heading);
        let coordinate_scale = start.position.abs().max(goal.abs()).max_element();
        Self {
            on_circle: ON_CIRCLE_ULPS * f64::from(f32::EPSILON * (coordinate_scale + radius)),
            start,
            position: start.position.as_dvec2(),
            heading,
            forward: DVec2::new(cos, sin),
            goal: goal.as_dvec2(),
            radius: f64::from(radius),
        }
    }

    /// Unit vector from the unit towards the centre of its turning circle.
    fn to_center(&self, direction: TurnDirection) -> DVec2 {
        self.forward.perp() * f64::from(direction.sign())
    }

    /// Arc then line: the arc's turn, the straight's length and, for
    /// [`turn_geometry`], the centre and exit direction. `None` when the goal
    /// is inside this circle.
    #[inline(always)]
    fn arc_line(&self, direction: TurnDirection) -> Option<(Turn, f64, DVec2, DVec2)> {
        let sign = f64::from(direction.sign());
        let r = self.radius;
        let normal = self.to_center(direction);
        let to_goal = self.goal - self.position;
        // h² - r², expanded so it does not cancel when r is huge.
        let excess = to_goal.length_squared() - 2.0 * r * to_goal.dot(normal);
        if excess < -2.0 * r * self.on_circle {
            return None;
        }
        let straight = excess.max(0.0).sqrt();
        let center = self.position + normal * r;
        let from_center = self.goal - center;
        // Rotating the centre-to-goal direction by theta towards the unit gives
        // the exit point's direction: cos theta = r/h, sin theta = d/h (times h²).
        let exit = DVec2::new(
            from_center.x * r + sign * from_center.y * straight,
            from_center.y * r - sign * from_center.x * straight,
        );
        let turn = Turn::towards(direction, -normal, exit);
        Some((turn, straight, center, exit))
    }

    /// The arc-line candidate turning `direction`, if the goal is not inside
    /// that circle.
    #[inline(always)]
    fn arc_line_spec(&self, direction: TurnDirection) -> Option<Spec> {
        self.arc_line(direction).map(|(turn, straight, _, _)| Spec {
            word: match direction {
                TurnDirection::Left => PathWord::Ls,
                TurnDirection::Right => PathWord::Rs,
            },
            first: direction,
            first_turn: turn,
            second: Second::Straight(straight),
            length: turn.angle * self.radius + straight,
        })
    }

    /// Arc then arc the other way: the second circle touches the first and
    /// passes through the goal. Up to two solutions.
    fn arc_arc_specs(&self, first: TurnDirection, mut emit: impl FnMut(Spec)) {
        let r = self.radius;
        let normal = self.to_center(first);
        let center = self.position + normal * r;
        let to_goal = self.goal - center;
        let a_sq = to_goal.length_squared();
        if a_sq < r * r || a_sq > 9.0 * r * r {
            return;
        }
        let a = a_sq.sqrt();
        // Circle of radius 2r about the first centre meets radius r about the goal.
        let along = (a_sq + 3.0 * r * r) / (2.0 * a);
        let across = (4.0 * r * r - along * along).max(0.0).sqrt();
        let axis = to_goal / a;
        let word = match first {
            TurnDirection::Left => PathWord::Lr,
            TurnDirection::Right => PathWord::Rl,
        };
        let sides: &[f64] = if across > 0.0 { &[1.0, -1.0] } else { &[1.0] };
        for side in sides {
            let second_center = center + axis * along + axis.perp() * (across * side);
            let touch_dir = (second_center - center) / (2.0 * r);
            let first_turn = Turn::towards(first, -normal, touch_dir);
            let second_turn =
                Turn::towards(first.opposite(), -touch_dir, self.goal - second_center);
            emit(Spec {
                word,
                first,
                first_turn,
                second: Second::Turn(second_turn),
                length: (first_turn.angle + second_turn.angle) * r,
            });
        }
    }

    /// Calls `emit` with every feasible candidate. With `only_shortest`,
    /// arc-arc candidates are skipped unless the goal is inside the circle
    /// they swing out from: outside both circles an arc-line path is the
    /// shortest (Bui, Souères and Boissonnat), and the dense-search property
    /// test checks that claim.
    #[inline(always)]
    fn each_spec(&self, only_shortest: bool, mut emit: impl FnMut(Spec)) {
        let left = self.arc_line_spec(TurnDirection::Left);
        let right = self.arc_line_spec(TurnDirection::Right);
        for spec in [left, right].into_iter().flatten() {
            emit(spec);
        }
        if !only_shortest || left.is_none() {
            self.arc_arc_specs(TurnDirection::Right, &mut emit);
        }
        if !only_shortest || right.is_none() {
            self.arc_arc_specs(TurnDirection::Left, &mut emit);
        }
    }

    fn build(&self, spec: Spec) -> TurningPath {
        let mut builder = PathBuilder::new(
            self.start,
            self.heading,
            self.forward,
            self.radius,
            spec.word,
        );
        builder.turn(spec.first, spec.first_turn);
        match spec.second {
            Second::Straight(distance) => builder.straight(distance),
            Second::Turn(turn) => builder.turn(spec.first.opposite(), turn),
        };
        builder.finish()
    }
}

/// What follows the first arc of a candidate.
#[derive(Clone, Copy)]
enum Second {
    Straight(f64),
    Turn(Turn),
}

/// A candidate described by its parameters, cheap to compare before building.
#[derive(Clone, Copy)]
struct Spec {
    word: PathWord,
    first: TurnDirection,
    first_turn: Turn,
    second: Second,
    length: f64,
}

fn check(start: &Pose, goal: glam::Vec2, radius: f32) -> Result<(), PlanError> {
    check_radius(radius)?;
    check_pose(start, "start pose")?;
    if goal.is_finite() {
        Ok(())
    } else {
        Err(PlanError::NonFinite { what: "goal point" })
    }
}

/// The seed's construction for one turn direction: the turning circle, the
/// distances and the exit point. `None` where the seed gives up, with the
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
    let setup = Setup::new(start, goal, radius);
    let mut candidates = Candidates::default();
    setup.each_spec(false, |spec| candidates.push(setup.build(spec)));
    candidates.sort();
    Ok(candidates)
}

/// The shortest path from `start` to `goal` (any final heading) that never
/// turns tighter than `radius`. It never fails on finite input: a goal inside
/// the turning circle is reached by swinging out and back in.
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
    check(&start, goal, radius)?;
    let setup = Setup::new(start, goal, radius);
    let mut best: Option<Spec> = None;
    setup.each_spec(true, |spec| {
        if best.is_none_or(|best| spec.length < best.length) {
            best = Some(spec);
        }
    });
    // Some arc-line or arc-arc path always exists for finite input; the
    // fallback only guards against overflow in absurd coordinates.
    Ok(best.map_or(TurningPath::stationary(start), |spec| setup.build(spec)))
}
