//! Pose to point in `f32`, for a goal clear of the edges of both turning
//! circles by a margin: outside both (nine queries in ten), or well inside
//! one.
//!
//! The general build in [`super::exact`] works in `f64` so that rounding
//! never decides between a short turn and a full circle. A goal this far
//! from the circles' edges leaves rounding nothing to decide, and the path
//! is stored in `f32` anyway. The `f64` build's sine and cosine of the
//! heading, with the conversions to `f64` and back, stood at the head of
//! every plan, and every later step waited on them.
//!
//! Everything is worked in the unit's frame mirrored so that the goal is to
//! the left: `ahead` along the heading, `lateral` (not negative) across it.

use std::f32::consts::FRAC_PI_2;

use glam::{Vec2, Vec4};

use crate::angle::f32_math::{atan2_upper, sin_cos};
use crate::angle::positive_atan2_x4;
use crate::{Gear, PathWord, PlanError, Pose, Segment, TurningPath};

/// How far from a circle's edge a goal must be for this build: `h² - r²`
/// (`h` the distance from the circle's centre, `r` the radius), the square
/// of the straight outside, at least this share of `d² + r²` either way
/// (`d` the distance to the goal). Rounding `h² - r²` to `f32` errs by a
/// few ulps of that sum, which moves the straight's end by that error over
/// twice the straight: at this share, under `1e-6` of the query's scale.
/// The tests that hold the two builds to that first fail at a share of
/// 0.006. Inside, it keeps the goal at least 1% of the radius inside.
const CLEAR_SHARE: f32 = 0.02;

/// The sign of a turn to side 0 (left) and side 1 (right).
const SIDE_SIGNS: [f32; 2] = [1.0, -1.0];

/// The largest `d² + r²` this build takes. The half angle's vector is up to
/// twice the distance plus twice the radius long, and its square must stay
/// finite: at a distance of 1e19 it overflowed, and the straight's direction
/// came out NaN (found by a sweep over extreme inputs). Beyond this (a
/// distance or radius above about 2e18), the general build.
const MAX_SCALE_SQ: f32 = f32::MAX / 64.0;

/// The shortest path from `start` to `goal`, built here for a goal clear
/// of the edges of both turning circles by [`CLEAR_SHARE`], and by
/// `general` (the `f64` build, which checks the input first) for the rest,
/// and where a radius or a distance squared overflows.
///
/// Nothing here checks the input, and nothing needs to: a NaN or infinite
/// coordinate or heading makes `d² + r²` infinite or NaN, or `h² - r²`
/// NaN, and either fails both tests of how far the goal is from the
/// circles, as a radius not above zero fails `in_range`. Such a query goes
/// to `general`, which names what is wrong; checking on the way in would
/// cost every clear goal.
///
/// Every way out returns [`plan_to_point`](crate::plan_to_point)'s own
/// result (an error only from `general`), rather than an `Option` or a
/// bare path for the caller to finish: either way the compiler built the
/// common case's path on the stack and copied it out (BENCHMARKS.md has
/// the figures).
#[inline(always)]
pub(super) fn plan(
    start: Pose,
    goal: Vec2,
    radius: f32,
    general: impl Fn(Pose, Vec2, f32) -> Result<TurningPath, PlanError> + Copy,
) -> Result<TurningPath, PlanError> {
    // The sine and cosine take the heading as it is where they can: they
    // stand at the head of everything else, and wrapping it first would
    // stand in front of them.
    let (sin, cos) = if start.heading.abs() < SIN_COS_RANGE {
        sin_cos(start.heading)
    } else {
        sin_cos(within_a_turn(start.heading))
    };
    let frame = Frame {
        start,
        heading: within_a_turn(start.heading),
        forward: Vec2::new(cos, sin),
        radius,
    };
    let to_goal = goal - start.position;
    let ahead = to_goal.dot(frame.forward);
    let lateral_signed = to_goal.dot(frame.forward.perp());
    // Left for a goal on the line ahead or behind, as the general build.
    let side = usize::from(lateral_signed < 0.0);
    let lateral = lateral_signed.abs();
    // From the offset, not the frame, so that it waits on no sine.
    let distance_sq = to_goal.length_squared();
    let r = radius;
    // h² - r² for the circle on the goal's side.
    let straight_sq = distance_sq - 2.0 * r * lateral;
    // Both comparisons are also false for a sum that overflows, or a NaN
    // from one; the bound keeps every square below finite too.
    let scale_sq = distance_sq + r * r;
    let margin = CLEAR_SHARE * scale_sq;
    let in_range = scale_sq < MAX_SCALE_SQ && radius > 0.0;
    let clear = straight_sq > margin && in_range;
    if !clear {
        let inside = -straight_sq > margin && in_range;
        return if inside {
            frame.around_inside(goal, side, [ahead, lateral], straight_sq, general)
        } else {
            general(start, goal, radius)
        };
    }
    let straight = straight_sq.sqrt();
    // tan(turn / 2) = lateral / (ahead + straight), which is
    // (straight - ahead) / (lateral - 2r) (their product is
    // straight² - ahead² over the same). Each form is taken where it adds
    // no numbers of opposite signs: nothing cancels, even for a turn near
    // none or a radius far beyond the distance.
    let (half_y, half_x) = if ahead >= 0.0 {
        (lateral, ahead + straight)
    } else {
        (straight - ahead, lateral - 2.0 * r)
    };
    // No snapping to do: a turn near a full circle needs `half_x` below
    // zero, so at most 2r long, and `half_y` at least the straight, which
    // the margin makes at least 0.14r; the turn stays 0.14 rad short.
    let turn = 2.0 * atan2_upper(half_y, half_x);
    // A goal dead ahead, or so nearly that the turn rounds to nothing, goes
    // the general way, which drops the empty arc: here every path is an
    // arc and a straight, built without a branch on which.
    if turn <= 0.0 {
        return general(start, goal, radius);
    }
    Ok(frame.arc_line(side, turn, [half_y, half_x], straight, goal))
}

/// The start of a query, the heading's unit vector and the radius: what
/// places the pieces of a path.
#[derive(Clone, Copy)]
struct Frame {
    start: Pose,
    /// The heading the path's angles start from: see [`within_a_turn`].
    heading: f32,
    forward: Vec2,
    radius: f32,
}

impl Frame {
    /// The arc-line path that turns to `side` (0 left, 1 right) through
    /// `turn`, above zero, twice the angle of the half angle's vector
    /// `(half_y, half_x)` (in the upper half plane), then drives
    /// `straight`, above zero too, to end on `goal`.
    #[inline(always)]
    fn arc_line(
        &self,
        side: usize,
        turn: f32,
        [half_y, half_x]: [f32; 2],
        straight: f32,
        goal: Vec2,
    ) -> TurningPath {
        let sign = SIDE_SIGNS[side];
        let r = self.radius;
        // The straight's direction from the half angle's vector.
        let half_sq = half_x * half_x + half_y * half_y;
        let per_half_sq = half_sq.recip();
        let exit_cos = (half_x * half_x - half_y * half_y) * per_half_sq;
        let exit_sin = 2.0 * half_x * half_y * per_half_sq;
        let left = self.forward.perp();
        let direction = self.forward * exit_cos + left * (sign * exit_sin);
        let center = self.start.position + left * (sign * r);
        let sweep = turn * sign;
        let arc = self.first_arc(center, sign, sweep);
        let line = Segment::Line {
            gear: Gear::Forward,
            start: center - direction.perp() * (sign * r),
            end: goal,
            length: straight,
            heading: self.heading + sweep,
        };
        const WORDS: [PathWord; 2] = [PathWord::Ls, PathWord::Rs];
        TurningPath::from_segments(self.start, WORDS[side], [arc, line], 2, turn * r + straight)
    }

    /// The arc at full lock from the start about `center`, turning `sign`
    /// (1 left, -1 right) through `sweep`.
    #[inline(always)]
    fn first_arc(&self, center: Vec2, sign: f32, sweep: f32) -> Segment {
        Segment::Arc {
            gear: Gear::Forward,
            center,
            radius: self.radius,
            start_angle: self.heading - FRAC_PI_2 * sign,
            sweep,
        }
    }

    /// The shortest path to a goal well inside the turning circle on its
    /// `side`: turning away from it, then back the other way round a
    /// circle touching the first and passing through the goal (Bui, Souères
    /// and Boissonnat). Of the general build's three candidates there, the
    /// arc-line path turning away and the two arc-arc paths, only the
    /// arc-arc path whose second circle lies on the start's side of the
    /// line from the first circle's centre to the goal is ever the
    /// shortest: `the_nearer_arc_arc_path_is_the_only_one_that_wins_inside`
    /// checks it against the general build. Out of line, so that the
    /// common case keeps nothing aside for it.
    ///
    /// `general` builds it for a radius whose square is outside `f32`'s
    /// normal range, and for a goal the general build counts as on its
    /// circle, which is within rounding of the coordinates, not only of
    /// the radius (twice its band, as `h² - r²` here has rounding of its
    /// own).
    #[cold]
    #[inline(never)]
    fn around_inside(
        self,
        goal: Vec2,
        side: usize,
        [ahead, lateral]: [f32; 2],
        straight_sq: f32,
        general: impl Fn(Pose, Vec2, f32) -> Result<TurningPath, PlanError>,
    ) -> Result<TurningPath, PlanError> {
        let r = self.radius;
        let band = 2.0 * r * super::on_circle(self.start.position, goal, r);
        let inside = -straight_sq > 2.0 * band;
        if !((r * r).is_normal() && inside) {
            return general(self.start, goal, r);
        }
        // In radii, in the goal's mirrored frame, from the centre of the
        // circle turned round first, (0, -1). The margin keeps the goal's
        // squared distance from it, d², between 1.02 and 8.98.
        let per_radius = r.recip();
        let to_goal = Vec2::new(ahead * per_radius, lateral * per_radius + 1.0);
        let distance_sq = to_goal.length_squared();
        // The second circle's centre is 2 from the first's and 1 from the
        // goal. By the law of cosines, the second turn's cosine is
        // (5 - d²) / 4 and its sine minus `across` / 4, with `across`
        // = √((d² - 1)(9 - d²)). The margin keeps each factor at least
        // 0.02, where the goal is nearest the start or the far side of its
        // circle, and the second circle is placed finely enough there.
        let across = ((distance_sq - 1.0) * (9.0 - distance_sq)).sqrt();
        // Where the circles touch, times 2d²: `to_goal` turned through the
        // angle at the first centre (cosine (d² + 3) / 4d, sine `across`
        // / 4d), clockwise, to the start's side.
        let along = distance_sq + 3.0;
        let touch_scaled = Vec2::new(
            to_goal.x * along + to_goal.y * across,
            to_goal.y * along - to_goal.x * across,
        );
        // The first turn is clockwise from the start, straight up from the
        // first centre, to where the circles touch; the second turn is
        // anticlockwise round the second centre, more than half a turn.
        let turns = positive_atan2_x4(
            Vec4::new(touch_scaled.x, -across, 0.0, 0.0),
            Vec4::new(touch_scaled.y, 5.0 - distance_sq, 1.0, 1.0),
        );
        let [first_turn, second_turn] = [turns.x, turns.y];
        // Turning away from the goal's side.
        let sign = -SIDE_SIGNS[side];
        let left = self.forward.perp();
        // Back from the goal's mirrored frame, in radii, to the world.
        let to_world = |point: Vec2| {
            self.start.position + (self.forward * point.x - left * (sign * point.y)) * r
        };
        // Where the circles touch, 2 from the first centre.
        let touch = touch_scaled * (0.5 * distance_sq.recip());
        let first_sweep = first_turn * sign;
        let first = self.first_arc(to_world(Vec2::new(0.0, -1.0)), sign, first_sweep);
        let second = Segment::Arc {
            gear: Gear::Forward,
            center: to_world(Vec2::new(0.0, -1.0) + touch),
            radius: r,
            start_angle: self.heading + first_sweep + FRAC_PI_2 * sign,
            sweep: -second_turn * sign,
        };
        const WORDS: [PathWord; 2] = [PathWord::Rl, PathWord::Lr];
        Ok(TurningPath::from_two(
            self.start,
            WORDS[side],
            [(first, first_turn > 0.0), (second, true)],
            (first_turn + second_turn) * r,
        ))
    }
}

/// Headings below this size, either way, go to [`sin_cos`] as they are:
/// it splits them into whole sectors exactly up to about 6,400 rad.
const SIN_COS_RANGE: f32 = 3000.0;

/// [`crate::angle::within_a_turn`], back in `f32`: the heading as given
/// within a turn either way, one further out wrapped (in `f64`, out of
/// line).
#[inline(always)]
fn within_a_turn(heading: f32) -> f32 {
    crate::angle::within_a_turn(heading) as f32
}

/// This build's path, or `None` where it leaves the query to the general
/// build.
#[cfg(test)]
pub(super) fn f32_build(start: Pose, goal: Vec2, radius: f32) -> Option<TurningPath> {
    let general = std::cell::Cell::new(false);
    let path = plan(start, goal, radius, |start, _, _| {
        general.set(true);
        Ok(TurningPath::stationary(start))
    });
    (!general.get()).then_some(path.expect("never an error"))
}

#[cfg(test)]
mod tests {
    use std::f32::consts::TAU;

    use super::*;
    use crate::candidates_to_point;

    /// The `f32` build's path against the general `f64` build's shortest
    /// candidate: the same route, ending at the goal, to within `tolerance`
    /// of the query's scale. `None` where the goal is not clear.
    fn compare(start: Pose, goal: Vec2, radius: f32, tolerance: f32) -> Option<()> {
        let ours = f32_build(start, goal, radius)?;
        let general = candidates_to_point(start, goal, radius).expect("finite query");
        let theirs = general.as_slice()[0];
        let scale = theirs.length() + radius + start.position.abs().max(goal.abs()).max_element();
        let case = format!("{start:?} -> {goal:?}, radius {radius}");
        assert!(
            ours.same_route(&theirs),
            "{case}: {ours:#?} against {theirs:#?}"
        );
        assert!(
            (ours.length() - theirs.length()).abs() <= tolerance * scale,
            "{case}: length {} against {}",
            ours.length(),
            theirs.length()
        );
        let miss = ours.end().position.distance(goal);
        assert!(miss <= tolerance * scale, "{case}: misses by {miss}");
        Some(())
    }

    /// Just clear of [`CLEAR_SHARE`], where rounding moves the straight's
    /// end the most, the path still ends within 1e-6 of the scale.
    #[test]
    fn goals_just_clear_of_the_margin_are_reached() {
        let mut clear = 0;
        for (start, _, radius) in crate::test_cases::queries(20_000) {
            let heading = start.heading;
            for k in 0..20 {
                // Goals on the curve where the straight's square is a given
                // share of d² + r², round the circle on the left.
                let share = CLEAR_SHARE * (1.0 + k as f32 * 0.05);
                let angle = heading + 0.1 + k as f32 * 0.3;
                // For a goal at `distance` along `angle`, lateral = distance
                // × |sin(angle - heading)|; solve d² - 2r·lateral = share (d² + r²).
                let sin = (angle - heading).sin().abs();
                let (a, b, c) = (1.0 - share, -2.0 * radius * sin, -share * radius * radius);
                let distance = (-b + (b * b - 4.0 * a * c).sqrt()) / (2.0 * a);
                let goal = start.position + Vec2::from_angle(angle) * distance;
                if compare(start, goal, radius, 1e-6).is_some() {
                    clear += 1;
                }
            }
        }
        assert!(clear > 100_000, "{clear}");
    }

    /// Just inside the margin within a circle, where the circles that swing
    /// out and back are placed with the most rounding, the path still ends
    /// within 1e-6 of the scale, and is the one the general build chooses.
    #[test]
    fn goals_just_inside_the_margin_are_reached() {
        let (mut inside, mut swung) = (0, 0);
        for (start, _, radius) in crate::test_cases::queries(20_000) {
            for k in 0..20 {
                // Goals where h² - r² is minus a given share of d² + r²:
                // (1 + share) d² - 2r sin(bearing) d + share r² = 0.
                let share = CLEAR_SHARE * (1.0 + k as f32 * 0.05);
                let bearing = 0.2 + (k / 2) as f32 * 0.28;
                let sin = bearing.sin();
                let discriminant = sin * sin - share * (1.0 + share);
                if discriminant < 0.0 {
                    continue;
                }
                let root = if k % 2 == 0 { 1.0 } else { -1.0 } * discriminant.sqrt();
                let distance = radius * (sin + root) / (1.0 + share);
                let goal = start.position + Vec2::from_angle(start.heading + bearing) * distance;
                if compare(start, goal, radius, 1e-6).is_some() {
                    inside += 1;
                    let path = f32_build(start, goal, radius).expect("inside");
                    swung += usize::from(matches!(path.word(), PathWord::Lr | PathWord::Rl));
                }
            }
        }
        // Most such goals are built here, and both ways round are taken.
        assert!(inside > 100_000 && swung > 10_000, "{inside} {swung}");
    }

    /// For a goal clear inside a circle, the general build compares the
    /// arc-line path turning away and both arc-arc paths; this build only
    /// works out the nearer arc-arc path. Over goals spread evenly inside
    /// either circle, at radii from 1e-3 to 1e3, and over a grid inside the
    /// left circle, the general build chooses that path every time, to
    /// within 1e-6 of the scale.
    #[test]
    fn the_nearer_arc_arc_path_is_the_only_one_that_wins_inside() {
        let mut built = 0;
        for (case, (start, goal, radius)) in crate::test_cases::queries(100_000).enumerate() {
            // A point in the unit disc from the generator's goal, and a
            // radius spread over six decades.
            let unit = goal.position / 4.0;
            let radius = radius.clamp(1e-3, 1e3) * [1.0, 0.01, 100.0][case % 3];
            let side = if goal.heading < std::f32::consts::PI {
                1.0
            } else {
                -1.0
            };
            let center = start.position + Vec2::from_angle(start.heading).perp() * (side * radius);
            let target = center + unit.clamp_length_max(1.0) * radius;
            built += usize::from(compare(start, target, radius, 1e-6).is_some());
        }
        for i in 0..=300 {
            for j in 0..=300 {
                let goal = Vec2::new(i as f32, j as f32) / 150.0 - Vec2::new(1.0, 0.0);
                let start = Pose::new(Vec2::ZERO, 0.0);
                built += usize::from(compare(start, goal, 1.0, 1e-6).is_some());
            }
        }
        assert!(built > 100_000, "{built}");
    }

    /// Near the far side of its circle, where the second circle is placed
    /// with the most rounding (its two placements meet there), a goal just
    /// inside the margin is still reached and the route is the general
    /// build's.
    #[test]
    fn goals_near_the_far_side_of_their_circle_are_reached() {
        let mut built = 0;
        for step in 0..400 {
            let heading = step as f32 * 0.0157;
            let start = Pose::new(Vec2::new(1.3, -2.1), heading);
            let forward = Vec2::from_angle(heading);
            for radius in [0.37f32, 1.0, 3.3, 17.0] {
                for k in 0..50 {
                    // The far side is 2r to the left, where h² - r² is
                    // about -2·depth·r² and d² + r² about 5r²: goals from
                    // just short of the margin's edge to 40% past it, and
                    // a little to either side.
                    let depth = CLEAR_SHARE * (2.45 + k as f32 * 0.02);
                    for aside in [-0.05f32, 0.0, 0.03] {
                        let goal = start.position
                            + (forward * aside + forward.perp() * (2.0 - depth)) * radius;
                        built += usize::from(compare(start, goal, radius, 1e-6).is_some());
                    }
                }
            }
        }
        assert!(built > 100_000, "{built}");
    }

    /// Headings beyond the principal range, either way, and far beyond it,
    /// are the same headings.
    #[test]
    fn headings_beyond_a_turn_are_wrapped() {
        let goal = Vec2::new(30.0, 20.0);
        for heading in [0.5f32, 2.0, 4.0, 6.0] {
            let expected =
                f32_build(Pose::new(Vec2::ZERO, heading), goal, 3.0).expect("clear goal");
            for turns in [-1000.0f32, -3.0, -1.0, 1.0, 2.0, 1e5] {
                let wrapped = heading + turns * TAU;
                let start = Pose::new(Vec2::ZERO, wrapped);
                compare(start, goal, 3.0, 1e-6).expect("clear goal");
                // Near the principal range, the heading is itself to
                // within its rounding, and so is the path.
                if turns.abs() <= 3.0 {
                    let path = f32_build(start, goal, 3.0).expect("clear goal");
                    let tolerance = 1e-6 * (1.0 + turns.abs()) * path.length();
                    assert!(
                        (path.length() - expected.length()).abs() <= tolerance,
                        "{wrapped}"
                    );
                }
            }
        }
    }

    /// A goal on or within rounding of a circle, a huge radius, coordinates
    /// whose squares overflow, and the start itself go the general way.
    #[test]
    fn goals_near_a_circle_and_overflowing_squares_go_the_general_way() {
        let start = Pose::new(Vec2::ZERO, 0.0);
        for (goal, radius) in [
            (Vec2::new(5.0, 5.0), 5.0),
            (Vec2::new(5.0, 5.0 + 1e-5), 5.0),
            (Vec2::new(0.0, 0.0), 1.0),
            (Vec2::new(100.0, 0.5), 1e20),
            (Vec2::new(3e19, 3e19), 1.0),
            // Behind, so that the half angle's vector is twice as long.
            (Vec2::new(-1e19, 1.0), 1.0),
        ] {
            assert_eq!(f32_build(start, goal, radius), None, "{goal} {radius}");
            // And the general build reaches it, where an `f32` arc can
            // (not at a radius of 1e20, whose rounding is 1e13).
            if radius > 1.0 {
                continue;
            }
            let path = crate::plan_to_point(start, goal, radius).expect("finite query");
            let miss = (path.end().position.as_dvec2() - goal.as_dvec2()).length();
            assert!(
                miss <= 1e-6 * f64::from(path.length() + 10.0),
                "{goal}: {path:#?}"
            );
        }
        for (goal, radius) in [
            (Vec2::new(100.0, 1.0), 5.0),
            (Vec2::new(-1.5e18, 5e17), 1e-30),
            (Vec2::new(-2e18, 1.0), 1.0),
        ] {
            compare(start, goal, radius, 1e-6).expect("clear goal");
        }
    }
}
