//! Pose to pose for a unit that may reverse (Reeds–Shepp paths).
//!
//! Reeds and Shepp (1990) showed that the shortest path for a car that
//! drives both ways is one of 48 words of arcs and straights with cusps
//! between them. [`formulas`] holds the eight base formulas and [`words`]
//! the mirror images that give the rest. Every word is worked out in `f64`;
//! only the shortest is built.

mod formulas;
mod words;

use glam::DVec2;

use crate::angle::{fast_sin_cos, normalize, within_a_turn};
use crate::error::check_pose_query;
use crate::path::PathBuilder;
use crate::{Candidates, Gear, PathWord, PlanError, Pose, TurnDirection, TurningPath, angle::Turn};
use formulas::{Goal, TOLERANCE};
pub use words::{ReversingFamily, ReversingWord};
use words::{Steer, for_each_word};

/// Most candidates [`candidates_to_pose_reversing`] gives: every word that
/// can reach a goal.
pub const MAX_REVERSING_CANDIDATES: usize = words::WORD_COUNT;

/// A query in the start's frame, in radii.
struct Setup {
    goal: Goal,
    /// Straights this short (in radii) are the inputs' rounding: left out.
    negligible_straight: f64,
    radius: f64,
    start_heading: f64,
    start_forward: DVec2,
}

impl Setup {
    #[inline(always)]
    fn new(start: Pose, goal: Pose, radius: f32) -> Result<Self, PlanError> {
        check_pose_query(&start, &goal, radius)?;
        let radius = f64::from(radius);
        let start_heading = within_a_turn(start.heading);
        let wrapped_heading = normalize(start_heading);
        let (sin_h, cos_h) = fast_sin_cos(wrapped_heading);
        let start_forward = DVec2::new(cos_h, sin_h);
        let offset = (goal.position.as_dvec2() - start.position.as_dvec2()) / radius;
        let along = DVec2::new(cos_h, -sin_h).rotate(offset);
        let turn = normalize(f64::from(goal.heading) - wrapped_heading);
        let phi = if turn > std::f64::consts::PI {
            turn - std::f64::consts::TAU
        } else {
            turn
        };
        let (sin, cos) = fast_sin_cos(phi);
        // f32 positions carry rounding of a few ulps of their size: a
        // straight that short is nothing, not a sliver with a cusp.
        let scale = start.position.abs().max(goal.position.abs()).max_element();
        Ok(Self {
            goal: Goal {
                x: along.x,
                y: along.y,
                phi,
                sin,
                cos,
            },
            negligible_straight: TOLERANCE + 8.0 * f64::from(f32::EPSILON * scale) / radius,
            radius,
            start_heading,
            start_forward,
        })
    }

    /// The path of `word` with its formula's `t, u, v`. Pieces within the
    /// rounding tolerance of nothing are left out.
    #[inline(always)]
    fn build(&self, start: Pose, word: ReversingWord, solution: [f64; 3]) -> TurningPath {
        let pieces = word.pieces(solution);
        let mut builder = PathBuilder::new(
            start,
            self.start_heading,
            self.start_forward,
            self.radius,
            PathWord::Reversing(word),
        );
        let mut any = false;
        for (&steer, &length) in pieces.steer.iter().zip(&pieces.length).take(pieces.count) {
            let negligible = match steer {
                Steer::Straight => self.negligible_straight,
                Steer::Left | Steer::Right => TOLERANCE,
            };
            if length.abs() <= negligible {
                continue;
            }
            any = true;
            let gear = if length < 0.0 {
                Gear::Reverse
            } else {
                Gear::Forward
            };
            builder.gear(gear);
            match steer {
                Steer::Straight => builder.straight(length.abs() * self.radius),
                Steer::Left => builder.turn(TurnDirection::Left, Turn::from_angle(length.abs())),
                Steer::Right => builder.turn(TurnDirection::Right, Turn::from_angle(length.abs())),
            };
        }
        if any {
            builder.finish()
        } else {
            TurningPath::stationary(start)
        }
    }
}

/// The shortest path from `start` to `goal`'s position facing `goal`'s
/// heading for a unit that may reverse, never turning tighter than
/// `radius`: [`plan_to_pose`](crate::plan_to_pose) with reverse gear.
///
/// Its segments say which gear each is driven in ([`crate::Segment::gear`]),
/// and the headings are always the way the unit faces. It is never longer
/// than the forward-only path, and driving the path from `goal` to `start`
/// backwards is exactly as long.
///
/// ```
/// use kerb_turning::{Gear, Pose, plan_to_pose_reversing};
/// use glam::Vec2;
///
/// // Backing straight into a space behind is a single reverse straight.
/// let start = Pose::new(Vec2::ZERO, 0.0);
/// let goal = Pose::new(Vec2::new(-6.0, 0.0), 0.0);
/// let path = plan_to_pose_reversing(start, goal, 5.0).unwrap();
/// assert!((path.length() - 6.0).abs() < 1e-4);
/// assert_eq!(path.segments()[0].gear(), Gear::Reverse);
/// ```
pub fn plan_to_pose_reversing(
    start: Pose,
    goal: Pose,
    radius: f32,
) -> Result<TurningPath, PlanError> {
    let setup = Setup::new(start, goal, radius)?;
    let mut best: Option<(ReversingWord, [f64; 3], f64)> = None;
    for_each_word(setup.goal, |word, solution, length| {
        if best.is_none_or(|(_, _, shortest)| length < shortest) {
            best = Some((word, solution, length));
        }
        best.map_or(f64::INFINITY, |(_, _, shortest)| shortest)
    });
    // LpSpLp or one of its images always reaches: there is always a best.
    // Each arm returns on its own, so the path is built in place.
    match best {
        Some((word, solution, _)) => Ok(setup.build(start, word, solution)),
        None => Ok(TurningPath::stationary(start)),
    }
}

/// Every Reeds–Shepp path from `start` to `goal`, shortest first, so that a
/// caller can skip those that leave the walkable area.
pub fn candidates_to_pose_reversing(
    start: Pose,
    goal: Pose,
    radius: f32,
) -> Result<Candidates<MAX_REVERSING_CANDIDATES>, PlanError> {
    let setup = Setup::new(start, goal, radius)?;
    let mut candidates = Candidates::default();
    for_each_word(setup.goal, |word, solution, _| {
        candidates.push(setup.build(start, word, solution));
        f64::INFINITY
    });
    candidates.sort();
    Ok(candidates)
}
