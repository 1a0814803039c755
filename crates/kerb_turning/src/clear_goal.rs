//! Pose to point's common case: a goal clear of both turning circles, nine
//! queries in ten. The unit turns towards the goal's side at full lock,
//! then drives straight (Bui, Souères and Boissonnat's synthesis).
//!
//! Worked in `f32` from the turn's half angle. The general build in
//! [`crate::to_point`] works in `f64` so that rounding never decides between
//! a short turn and a full circle. A goal clear of the circles by a margin
//! leaves rounding nothing to decide, and the path is stored in `f32`
//! anyway. The `f64` build's sine and cosine of the heading, with the
//! conversions to `f64` and back, stood at the head of every plan, and
//! every later step waited on them.

use std::f32::consts::{FRAC_PI_2, TAU};
use std::hint::select_unpredictable;

use glam::Vec2;

use crate::angle32::{atan2_upper, sin_cos};
use crate::{PathWord, Pose, Segment, TurningPath};

/// How far clear of its circle a goal must be for this build: the square
/// of the straight at least this share of `d² + r²` (`d` the distance to
/// the goal, `r` the radius). Rounding `d² - 2r·lateral` to `f32` errs by a
/// few ulps of that sum, which moves the straight's end by that error over
/// twice the straight: at this share, under `1e-6` of the query's scale.
/// About one query in two hundred of the benchmark's is clear of its circle
/// but within this margin.
const CLEAR_SHARE: f32 = 0.03;

/// The shortest path from `start` to a `goal` clear of both turning
/// circles, by [`CLEAR_SHARE`], if it is; `None` otherwise, and where a
/// radius or a distance squared overflows. The input is finite and the
/// radius positive.
#[inline(always)]
pub(crate) fn plan_to_clear_goal(start: Pose, goal: Vec2, radius: f32) -> Option<TurningPath> {
    // The sine and cosine take the heading as it is where they can: they
    // stand at the head of everything else, and wrapping it first would
    // stand in front of them.
    let (sin, cos) = if start.heading.abs() < SIN_COS_RANGE {
        sin_cos(start.heading)
    } else {
        sin_cos(wrap_heading(start.heading))
    };
    let heading = principal_heading(start.heading);
    let forward = Vec2::new(cos, sin);
    let left = forward.perp();
    let to_goal = goal - start.position;
    let ahead = to_goal.dot(forward);
    let lateral_signed = to_goal.dot(left);
    // Left for a goal on the line ahead or behind, as the general build.
    let side = usize::from(lateral_signed < 0.0);
    let sign = [1.0, -1.0][side];
    // In the unit's frame mirrored so that the turn is to the left.
    let lateral = lateral_signed.abs();
    // From the offset, not the frame, so that it waits on no sine.
    let distance_sq = to_goal.length_squared();
    let r = radius;
    // h² - r², h the distance from the circle's centre to the goal.
    let straight_sq = distance_sq - 2.0 * r * lateral;
    // Also false for a sum that overflows, or a NaN from one.
    let clear = straight_sq > CLEAR_SHARE * (distance_sq + r * r);
    if !clear {
        return None;
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
    // the margin makes at least 0.17r; the turn stays 0.17 rad short.
    let turn = 2.0 * atan2_upper(half_y, half_x);
    // The straight's direction from the half angle's vector.
    let half_sq = half_x * half_x + half_y * half_y;
    let per_half_sq = half_sq.recip();
    let exit_cos = (half_x * half_x - half_y * half_y) * per_half_sq;
    let exit_sin = 2.0 * half_x * half_y * per_half_sq;
    let direction = forward * exit_cos + left * (sign * exit_sin);
    let center = start.position + left * (sign * r);
    let sweep = turn * sign;
    let arc = Segment::Arc {
        center,
        radius: r,
        start_angle: heading - FRAC_PI_2 * sign,
        sweep,
    };
    let line = Segment::Line {
        start: center - direction.perp() * (sign * r),
        direction,
        length: straight,
        heading: heading + sweep,
    };
    const WORDS: [PathWord; 2] = [PathWord::Ls, PathWord::Rs];
    Some(TurningPath::from_two(
        start,
        WORDS[side],
        [(arc, turn > 0.0), (line, true)],
        turn * r + straight,
    ))
}

/// Headings below this size, either way, go to [`sin_cos`] as they are:
/// it splits them into whole sectors exactly up to about 3,200 rad.
const SIN_COS_RANGE: f32 = 3000.0;

/// The heading in `[0, 2π]`. One in `[-2π, 0)`, which a game that keeps
/// its headings in `(-π, π]` passes half the time, is wrapped by one
/// select; one further out is wrapped in `f64`, out of line.
#[inline(always)]
fn principal_heading(heading: f32) -> f32 {
    let wrapped = heading + select_unpredictable(heading < 0.0, TAU, 0.0);
    if (0.0..=TAU).contains(&wrapped) {
        wrapped
    } else {
        wrap_heading(heading)
    }
}

/// [`principal_heading`] for a heading beyond a turn either way.
#[cold]
#[inline(never)]
fn wrap_heading(heading: f32) -> f32 {
    crate::angle::normalize(f64::from(heading)) as f32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::candidates_to_point;

    /// The `f32` build's path against the general `f64` build's shortest
    /// candidate: the same route, ending at the goal, to within `tolerance`
    /// of the query's scale. `None` where the goal is not clear.
    fn compare(start: Pose, goal: Vec2, radius: f32, tolerance: f32) -> Option<()> {
        let ours = plan_to_clear_goal(start, goal, radius)?;
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
                // × sin(angle - heading); solve d² - 2r·lateral = share (d² + r²).
                let sin = (angle - heading).sin();
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

    /// Headings beyond the principal range, either way, and far beyond it,
    /// are the same headings.
    #[test]
    fn headings_beyond_a_turn_are_wrapped() {
        let goal = Vec2::new(30.0, 20.0);
        for heading in [0.5f32, 2.0, 4.0, 6.0] {
            let expected =
                plan_to_clear_goal(Pose::new(Vec2::ZERO, heading), goal, 3.0).expect("clear goal");
            for turns in [-1000.0f32, -3.0, -1.0, 1.0, 2.0, 1e5] {
                let wrapped = heading + turns * TAU;
                let start = Pose::new(Vec2::ZERO, wrapped);
                compare(start, goal, 3.0, 1e-6).expect("clear goal");
                // Near the principal range, the heading is itself to
                // within its rounding, and so is the path.
                if turns.abs() <= 3.0 {
                    let path = plan_to_clear_goal(start, goal, 3.0).expect("clear goal");
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
        ] {
            assert_eq!(
                plan_to_clear_goal(start, goal, radius),
                None,
                "{goal} {radius}"
            );
        }
        for (goal, radius) in [
            (Vec2::new(100.0, 1.0), 5.0),
            (Vec2::new(-3e18, 1e18), 1e-30),
        ] {
            compare(start, goal, radius, 1e-6).expect("clear goal");
        }
    }
}
