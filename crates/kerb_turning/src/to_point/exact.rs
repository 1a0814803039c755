//! Pose to point in `f64`: every arc-line and arc-arc candidate, and the
//! goals the `f32` build in [`super::fast`] leaves (on or near a turning
//! circle's edge, where rounding decides between a short turn and a full
//! circle).

use std::f64::consts::FRAC_PI_2;

use glam::{DVec2, Vec4};

use super::on_circle;
use crate::angle::{Turn, fast_sin_cos, positive_atan2, positive_atan2_x4, within_a_turn};
use crate::path::PathBuilder;
use crate::{Candidates, Gear, PathWord, Pose, Segment, TurnDirection, TurningPath};

pub(super) struct Setup {
    start: Pose,
    position: DVec2,
    heading: f64,
    forward: DVec2,
    goal: DVec2,
    pub(super) radius: f64,
}

impl Setup {
    #[inline(always)]
    pub(super) fn new(start: Pose, goal: glam::Vec2, radius: f32) -> Self {
        let heading = within_a_turn(start.heading);
        let (sin, cos) = fast_sin_cos(heading);
        Self {
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
    pub(super) fn arc_line(&self, direction: TurnDirection) -> Option<(Turn, f64, DVec2, DVec2)> {
        let sign = f64::from(direction.sign());
        let r = self.radius;
        let normal = self.to_center(direction);
        let excess = self.excess(usize::from(direction == TurnDirection::Right));
        if self.is_inside(excess) {
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

    /// Which side the goal is on: 0 for left (or on the line ahead or
    /// behind, where left comes first, as in the candidate lists), 1 for
    /// right.
    #[inline(always)]
    fn goal_side(&self) -> usize {
        usize::from((self.goal - self.position).dot(self.forward.perp()) < 0.0)
    }

    /// h² - r² for the circle on `side`: the square of the straight from
    /// it to the goal. Expanded so that it does not cancel when r is huge.
    #[inline(always)]
    fn excess(&self, side: usize) -> f64 {
        let to_goal = self.goal - self.position;
        let lateral = to_goal.dot(self.forward.perp());
        to_goal.length_squared() - 2.0 * SIDE_SIGNS[side] * self.radius * lateral
    }

    /// Whether a goal with this [`Setup::excess`] (h² - r² for its circle)
    /// is inside the circle. Only a goal inside by the numbers (one in
    /// fifteen) needs the tolerance worked out.
    #[inline(always)]
    fn is_inside(&self, excess: f64) -> bool {
        excess < 0.0 && excess < -2.0 * self.radius * self.on_circle()
    }

    /// How far inside a circle a goal may be and still count as on it.
    fn on_circle(&self) -> f64 {
        let goal = self.goal.as_vec2();
        f64::from(on_circle(self.start.position, goal, self.radius as f32))
    }

    /// The shortest path when the goal is inside neither turning circle:
    /// then it turns towards the goal's side and drives straight (Bui,
    /// Souères and Boissonnat's synthesis; the choice test checks it against
    /// trying every candidate). `None` when the goal is inside that side's
    /// circle, or at its centre.
    #[inline(always)]
    fn arc_line_towards_goal(&self) -> Option<ArcLine> {
        self.arc_line_on(self.goal_side())
    }

    /// The arc-line path turning to `side` (0 left, 1 right): one square
    /// root and one arctangent, of the straight's direction, which gives the
    /// turn to its own relative precision however little it turns. `None`
    /// when the goal is inside that circle, or at its centre.
    #[inline(always)]
    fn arc_line_on(&self, side: usize) -> Option<ArcLine> {
        let r = self.radius;
        let sign = SIDE_SIGNS[side];
        let excess = self.excess(side);
        if self.is_inside(excess) {
            return None;
        }
        // The goal from the circle's centre, in the unit's frame mirrored
        // so that the turn is to the left: forward, then towards the turn.
        let to_goal = self.goal - self.position;
        let left = self.forward.perp();
        let ahead = to_goal.dot(self.forward);
        let lateral = sign * to_goal.dot(left);
        let straight = excess.max(0.0).sqrt();
        let from_center = DVec2::new(ahead, lateral - r);
        // The straight's direction, scaled by h²: `from_center` is the
        // straight plus a radius square to it, towards the turn's outside.
        // Its angle is the turn.
        let exit = from_center * straight + from_center.perp() * r;
        let turn = positive_atan2(exit.y, exit.x);
        // `f32` input squared stays far inside `f64`'s range, so this is
        // finite, and zero only for a goal at the centre of a circle
        // smaller than rounding, which has no direction to leave in. It is
        // h², the square of `from_center`, from the excess it is r² above.
        let h_sq = excess + r * r;
        let world_exit = self.forward * exit.x + left * (sign * exit.y);
        (h_sq > 0.0).then(|| ArcLine {
            side,
            turn,
            straight,
            exit: world_exit * h_sq.recip(),
        })
    }

    /// The shortest path when the goal is inside the turning circle on its
    /// side: the other side's arc-line path, or one of the two arc-arc paths
    /// that swing out that way and come back round a circle touching the
    /// first and passing through the goal. The circles are placed with one
    /// square root; only the turns need arctangents. `None` when the goal is
    /// not inside, or no arc-line path the other way can be built.
    #[inline(always)]
    fn around_inside(&self) -> Option<TurningPath> {
        let inside = self.goal_side();
        if !self.is_inside(self.excess(inside)) {
            return None;
        }
        let side = 1 - inside;
        let outside = self.arc_line_on(side)?;
        let sign = SIDE_SIGNS[side];
        let r = self.radius;
        let center = self.circle_center(sign);
        let to_goal = self.goal - center;
        let distance_sq = to_goal.length_squared();
        let distance = distance_sq.sqrt();
        // The second circle's centre is 2r from the first's and r from the
        // goal: `along` the line to the goal, then `across` it either way.
        let along = (distance_sq + 3.0 * r * r) / (2.0 * distance);
        let across = (4.0 * r * r - along * along).max(0.0).sqrt();
        let axis = to_goal / distance;
        let from = self.position - center;
        // The first turn runs to where the circles touch, the second the
        // other way from there to the goal. All four turns come from one
        // four-lane arctangent, in radii squared so that `f32` holds them
        // whatever the radius: as exact as the `f32` path that stores them.
        let second_center = |way: f64| center + axis * along + axis.perp() * (across * way);
        let second_centers = [second_center(1.0), second_center(-1.0)];
        // Per lane: the sine and cosine of a turn, times the vectors' lengths.
        let per_radius_sq = (r * r).recip();
        let turn_vectors = |second_center: DVec2| {
            let touch = second_center - center;
            let to_goal = self.goal - second_center;
            [
                sign * from.perp_dot(touch),
                from.dot(touch),
                sign * touch.perp_dot(to_goal),
                -touch.dot(to_goal),
            ]
            .map(|value| (per_radius_sq * value) as f32)
        };
        let [y0, x0, y1, x1] = turn_vectors(second_centers[0]);
        let [y2, x2, y3, x3] = turn_vectors(second_centers[1]);
        let turns = positive_atan2_x4(Vec4::new(y0, y1, y2, y3), Vec4::new(x0, x1, x2, x3))
            .to_array()
            .map(f64::from);
        let mut best = None;
        let mut best_length = outside.turn * r + outside.straight;
        // In the order the candidate lists use, the first strictly shorter.
        for (second_center, [first_turn, second_turn]) in second_centers
            .into_iter()
            .zip([[turns[0], turns[1]], [turns[2], turns[3]]])
        {
            let length = (first_turn + second_turn) * r;
            if length < best_length && second_center.is_finite() {
                best = Some((first_turn, second_turn, second_center));
                best_length = length;
            }
        }
        let Some((first_turn, second_turn, second_center)) = best else {
            return Some(self.build_arc_line(outside));
        };
        let first_sweep = first_turn * sign;
        let (_, first) = self.first_arc(sign, first_sweep);
        let second = Segment::Arc {
            gear: Gear::Forward,
            center: second_center.as_vec2(),
            radius: r as f32,
            start_angle: (self.heading + first_sweep + FRAC_PI_2 * sign) as f32,
            sweep: (-second_turn * sign) as f32,
        };
        let word = [PathWord::Lr, PathWord::Rl][side];
        let length = best_length as f32;
        Some(TurningPath::from_two(
            self.start,
            word,
            [(first, first_turn > 0.0), (second, second_turn > 0.0)],
            length,
        ))
    }

    /// The centre of the turning circle on the side `sign` (1 left, -1
    /// right).
    #[inline(always)]
    fn circle_center(&self, sign: f64) -> DVec2 {
        self.position + self.forward.perp() * (sign * self.radius)
    }

    /// The arc at full lock from the start, turning `sign` (1 left, -1
    /// right) through `sweep`, and its centre.
    #[inline(always)]
    fn first_arc(&self, sign: f64, sweep: f64) -> (DVec2, Segment) {
        let center = self.circle_center(sign);
        let arc = Segment::Arc {
            gear: Gear::Forward,
            center: center.as_vec2(),
            radius: self.radius as f32,
            start_angle: (self.heading - FRAC_PI_2 * sign) as f32,
            sweep: sweep as f32,
        };
        (center, arc)
    }

    /// Builds the arc-line path [`Setup::arc_line_towards_goal`] chose,
    /// leaving out a turn or a straight of nothing.
    #[inline(always)]
    fn build_arc_line(&self, chosen: ArcLine) -> TurningPath {
        let (word, arc, line, length) = self.arc_line_pieces(chosen);
        TurningPath::from_two(
            self.start,
            word,
            [(arc, chosen.turn > 0.0), (line, chosen.straight > 0.0)],
            length,
        )
    }

    /// The word, the arc, the straight and the length of an arc-line path.
    #[inline(always)]
    fn arc_line_pieces(&self, chosen: ArcLine) -> (PathWord, Segment, Segment, f32) {
        const WORDS: [PathWord; 2] = [PathWord::Ls, PathWord::Rs];
        let sign = SIDE_SIGNS[chosen.side];
        let r = self.radius;
        let sweep = chosen.turn * sign;
        let (center, arc) = self.first_arc(sign, sweep);
        let line = Segment::Line {
            gear: Gear::Forward,
            start: (center - chosen.exit.perp() * (sign * r)).as_vec2(),
            end: self.goal.as_vec2(),
            length: chosen.straight as f32,
            heading: (self.heading + sweep) as f32,
        };
        let length = (chosen.turn * r + chosen.straight) as f32;
        (WORDS[chosen.side], arc, line, length)
    }

    /// Every feasible candidate, shortest first.
    pub(super) fn candidates(&self) -> Candidates {
        let mut candidates = Candidates::default();
        self.each_spec(false, |spec| candidates.push(self.build(spec)));
        candidates.sort();
        candidates
    }

    /// The shortest candidate, every family tried.
    fn shortest(&self) -> TurningPath {
        let mut best: Option<Spec> = None;
        self.each_spec(true, |spec| {
            if best.is_none_or(|best| spec.length < best.length) {
                best = Some(spec);
            }
        });
        // Some arc-line or arc-arc path always exists for finite input; the
        // fallback only guards against overflow in absurd coordinates.
        best.map_or(TurningPath::stationary(self.start), |spec| self.build(spec))
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

/// The sign of a turn to side 0 (left) and side 1 (right).
const SIDE_SIGNS: [f64; 2] = [1.0, -1.0];

/// An arc-line candidate from [`Setup::arc_line_on`].
#[derive(Clone, Copy)]
struct ArcLine {
    /// 0 for left, 1 for right.
    side: usize,
    /// The arc's turn, in `[0, 2π)`.
    turn: f64,
    /// The straight's length.
    straight: f64,
    /// The straight's unit direction.
    exit: DVec2,
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

/// The shortest path for a goal [`super::fast::plan`] leaves: round the
/// circle it is inside; for one on a circle or within a margin of it, the
/// arc-line path worked out in `f64`; for one at the centre of a circle
/// smaller than rounding, the general search. Out of line, so that the
/// common case keeps nothing aside for it.
#[cold]
#[inline(never)]
pub(super) fn near_a_circle(start: Pose, goal: glam::Vec2, radius: f32) -> TurningPath {
    let setup = Setup::new(start, goal, radius);
    if let Some(around) = setup.around_inside() {
        return around;
    }
    match setup.arc_line_towards_goal() {
        Some(chosen) => setup.build_arc_line(chosen),
        None => setup.shortest(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::angle::SNAP;

    /// Turning towards the goal's side where it is inside neither turning
    /// circle, and the paths round a goal inside one, are what trying every
    /// candidate chooses, to within `f32` rounding (on a tie in length,
    /// either).
    #[test]
    fn turning_towards_the_goal_is_what_trying_every_candidate_chooses() {
        let (mut chosen, mut around, mut clear) = (0, 0, 0);
        for (start, goal, radius) in crate::test_cases::queries(400_000) {
            let setup = Setup::new(start, goal.position, radius);
            let (fast, inside) = match setup.arc_line_towards_goal() {
                Some(towards_goal) => {
                    chosen += 1;
                    (setup.build_arc_line(towards_goal), false)
                }
                None => {
                    around += 1;
                    let around = setup
                        .around_inside()
                        .expect("finite queries are inside a circle if not outside both");
                    (around, true)
                }
            };
            // The planner takes these steps for a goal near a circle, and
            // the same route in `f32` for the rest.
            let planned = crate::plan_to_point(start, goal.position, radius).expect("finite query");
            if crate::to_point::fast::f32_build(start, goal.position, radius).is_some() {
                clear += 1;
                assert!(
                    planned.same_route(&fast),
                    "{start:?} -> {:?}, radius {radius}: {planned:#?} against {fast:#?}",
                    goal.position
                );
            } else {
                assert_eq!(planned, fast, "{start:?} -> {:?}", goal.position);
            }
            let exact = setup.shortest();
            let case = format!("{start:?} -> {:?}, radius {radius}", goal.position);
            let scale = exact.length()
                + radius
                + start.position.abs().max(goal.position.abs()).max_element();
            // A turn within `SNAP` of none is dropped, which moves a join by
            // up to that much arc: where that happens round a goal inside a
            // circle, the general search keeps the start and misses the goal
            // by as much, and these paths reach the goal and start as far
            // from the start.
            let snapping = if inside {
                2.0 * SNAP as f32 * radius
            } else {
                0.0
            };
            let tolerance = 2e-6 * scale + snapping;
            assert!(
                (fast.length() - exact.length()).abs() <= tolerance,
                "{case}: {fast:#?} against {exact:#?}"
            );
            if fast.word() != exact.word() {
                continue;
            }
            // A turn or straight of a rounding error may be kept by one and
            // dropped by the other.
            let pieces = |path: &TurningPath| {
                path.segments()
                    .iter()
                    .copied()
                    .filter(|segment| segment.length() > tolerance)
                    .collect::<Vec<_>>()
            };
            crate::test_cases::assert_same_segments(
                &pieces(&fast),
                &pieces(&exact),
                tolerance,
                &case,
            );
        }
        // Most queries turn towards the goal; the rest are inside a circle.
        // Those clear of both by the margin take the `f32` build.
        assert!(chosen > 200_000 && around > 20_000, "{chosen} {around}");
        assert!(clear > 150_000, "{clear}");
    }
}
