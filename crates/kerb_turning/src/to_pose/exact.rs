//! Pose to pose: arrive at a point with a required heading (Dubins paths).
//!
//! All six words are considered: the four arc-line-arc words of Pinter's
//! article and the two arc-arc-arc words that win when start and goal are
//! close. Notation follows Shkel and Lumelsky (2001): distances are in
//! radii, `alpha` and `beta` are the headings relative to the line from
//! start to goal.
//!
//! The shortest is found from `f32` estimates of all six lengths
//! ([`super::estimates`]), so the choice is the one that trying every
//! word exactly would make. A word clearly shorter than the rest (nearly
//! every query) is built from its estimate, with
//! its straight redone in `f64`; otherwise only the words within rounding
//! of the shortest are worked out exactly. Near the configurations where
//! words snap (a turn or straight of nearly nothing) there are no estimates
//! and every word is worked out exactly.

use std::f64::consts::{FRAC_PI_2, TAU};

use glam::{DVec2, Vec4};

use super::estimates::{CscLane, Query, ccc_lengths, csc_estimates};
use crate::angle::{
    SNAP, Turn, fast_acos, fast_atan2, fast_atan2_x4, fast_sin_cos, is_within_a_turn, normalize,
    positive_atan2, positive_turn, wrap_positive,
};
use crate::path::PathBuilder;
use crate::{Gear, PathWord, Pose, Segment, TurnDirection, TurningPath};

use TurnDirection::{Left as L, Right as R};

/// One word worked out, in radii: enough to rank it by `length` and to
/// build it without more trigonometry.
#[derive(Clone, Copy)]
pub(super) struct Word {
    word: PathWord,
    /// First turn angle.
    t: f64,
    /// The straight's length, or the middle turn's angle.
    p: f64,
    /// Last turn angle.
    q: f64,
    /// The straight's unit direction, for words that have one.
    straight: DVec2,
    length: f64,
}

/// The quantities shared by all six words, in the frame whose +x axis runs
/// from start to goal: `a` and `b` are the start and goal headings there.
pub(super) struct Setup {
    d: f64,
    a: DVec2,
    b: DVec2,
    radius: f64,
    start_heading: f64,
    start_forward: DVec2,
    goal_forward: DVec2,
    /// The goal heading less the start heading, in `[0, 2π)`.
    turn: f64,
    /// Unit vector from start to goal (+x when they coincide).
    axis: DVec2,
    /// Straights shorter than this (in radii) are rounding noise: their
    /// direction is meaningless, so it must not decide the turn angles.
    negligible_straight: f64,
}

impl Setup {
    #[inline(always)]
    pub(super) fn new(start: Pose, goal: Pose, radius: f32) -> Self {
        let offset = (goal.position - start.position).as_dvec2();
        let radius = f64::from(radius);
        let distance = offset.length();
        // One division, not one per coordinate: divisions are slow and
        // this one is on the way to every estimate.
        let axis = if distance > 0.0 {
            offset * distance.recip()
        } else {
            DVec2::X
        };
        let start_heading = normalize(f64::from(start.heading));
        let (sin_h0, cos_h0) = fast_sin_cos(start_heading);
        let goal_heading = normalize(f64::from(goal.heading));
        let (sin_h1, cos_h1) = fast_sin_cos(goal_heading);
        let turn = goal_heading - start_heading;
        // The path's headings start from the heading as given, within a
        // turn (see `angle::within_a_turn`), though the words are chosen
        // from it wrapped: a select, not a second branch on the heading's
        // size, which was slower (see BENCHMARKS.md).
        let start_heading = std::hint::select_unpredictable(
            is_within_a_turn(start.heading),
            f64::from(start.heading),
            start_heading,
        );
        let start_forward = DVec2::new(cos_h0, sin_h0);
        let goal_forward = DVec2::new(cos_h1, sin_h1);
        let coordinate_scale = start.position.abs().max(goal.position.abs()).max_element();
        // Rotating by the conjugate of `axis` expresses a heading relative to
        // the start-goal line without computing that line's angle.
        let to_line = DVec2::new(axis.x, -axis.y);
        let a = to_line.rotate(start_forward);
        let b = to_line.rotate(goal_forward);
        Self {
            d: distance / radius,
            a,
            b,
            radius,
            start_heading,
            start_forward,
            goal_forward,
            turn: if turn < 0.0 { turn + TAU } else { turn },
            axis,
            negligible_straight: SNAP + 8.0 * f64::from(f32::EPSILON * coordinate_scale) / radius,
        }
    }

    /// The counter-clockwise turn from `a` to `b`.
    fn left_turn(&self) -> f64 {
        turn_angle(L, self.a, self.b)
    }

    /// Left-straight-left.
    fn lsl(&self) -> Word {
        let f = DVec2::new(self.d + self.a.y - self.b.y, self.b.x - self.a.x);
        self.same_direction(PathWord::Lsl, f, self.left_turn())
    }

    /// Right-straight-right.
    fn rsr(&self) -> Word {
        let f = DVec2::new(self.d - self.a.y + self.b.y, self.a.x - self.b.x);
        self.same_direction(PathWord::Rsr, f, wrap_positive(-self.left_turn()))
    }

    /// The two same-direction words, whose two turns add up to the total
    /// turn from `a` to `b` (plus a loop if the straight points backwards).
    /// When the straight vanishes the arcs merge into one, so any split of
    /// the turn is right; putting it all in the first avoids a spurious loop
    /// decided by a noise direction.
    #[inline(always)]
    fn same_direction(&self, word: PathWord, f: DVec2, total_turn: f64) -> Word {
        let p = f.length();
        let (t, q, straight) = if p <= self.negligible_straight {
            (total_turn, 0.0, self.b)
        } else {
            let direction = if word == PathWord::Lsl { L } else { R };
            let t = turn_angle(direction, self.a, f);
            (t, wrap_positive(total_turn - t), f / p)
        };
        Word {
            word,
            t,
            p,
            q,
            straight,
            length: t + p + q,
        }
    }

    /// The straight of an opposite-direction word from its square. A square a
    /// rounding error below zero is a straight of length zero: the arcs touch.
    #[inline(always)]
    fn cross_straight(&self, p_sq: f64) -> Option<f64> {
        if p_sq >= 0.0 {
            Some(p_sq.sqrt())
        } else if p_sq >= -4.0 * self.negligible_straight {
            Some(0.0)
        } else {
            None
        }
    }

    /// Left-straight-right.
    fn lsr(&self) -> Option<Word> {
        let u = DVec2::new(self.d + self.a.y + self.b.y, -self.a.x - self.b.x);
        let p = self.cross_straight(u.length_squared() - 4.0)?;
        // The straight's direction: `u` turned back by the angle of (p, -2).
        let f = DVec2::new(p, 2.0).rotate(u);
        Some(self.opposite_directions(PathWord::Lsr, L, f, p))
    }

    /// Right-straight-left.
    fn rsl(&self) -> Option<Word> {
        let u = DVec2::new(self.d - self.a.y - self.b.y, self.a.x + self.b.x);
        let p = self.cross_straight(u.length_squared() - 4.0)?;
        let f = DVec2::new(p, -2.0).rotate(u);
        Some(self.opposite_directions(PathWord::Rsl, R, f, p))
    }

    #[inline(always)]
    fn opposite_directions(&self, word: PathWord, first: TurnDirection, f: DVec2, p: f64) -> Word {
        let t = turn_angle(first, self.a, f);
        let q = turn_angle(first.opposite(), f, self.b);
        Word {
            word,
            t,
            p,
            q,
            straight: f,
            length: t + p + q,
        }
    }

    /// The cosine of an arc-arc-arc word's middle turn: `side` is 1 for
    /// RLR, -1 for LRL.
    #[inline(always)]
    fn middle_turn_cos(&self, side: f64) -> f64 {
        let (a, b) = (self.a, self.b);
        (6.0 - self.d * self.d + 2.0 * a.dot(b) + 2.0 * side * self.d * (a.y - b.y)) / 8.0
    }

    fn rlr(&self) -> Option<Word> {
        let (sa, ca, sb, cb) = (self.a.y, self.a.x, self.b.y, self.b.x);
        let p = middle_turn(self.middle_turn_cos(1.0))?;
        let alpha = fast_atan2(sa, ca);
        let beta = fast_atan2(sb, cb);
        let phi = fast_atan2(ca - cb, self.d - sa + sb);
        let t = wrap_positive(alpha - phi + p / 2.0);
        let q = wrap_positive(alpha - beta - t + p);
        Some(three_turns(PathWord::Rlr, t, p, q))
    }

    fn lrl(&self) -> Option<Word> {
        let (sa, ca, sb, cb) = (self.a.y, self.a.x, self.b.y, self.b.x);
        let p = middle_turn(self.middle_turn_cos(-1.0))?;
        let alpha = fast_atan2(sa, ca);
        let beta = fast_atan2(sb, cb);
        let phi = fast_atan2(ca - cb, self.d + sa - sb);
        let t = wrap_positive(-alpha - phi + p / 2.0);
        let q = wrap_positive(beta - alpha - t + p);
        Some(three_turns(PathWord::Lrl, t, p, q))
    }

    /// The word at `index` (LSL, RSR, LSR, RSL, RLR, LRL), worked out
    /// exactly, if it is feasible. The arc-arc-arc words need start and goal
    /// within four radii, so they are skipped cheaply beyond.
    fn word(&self, index: usize) -> Option<Word> {
        match index {
            0 => Some(self.lsl()),
            1 => Some(self.rsr()),
            2 => self.lsr(),
            3 => self.rsl(),
            4 if self.d < 4.0 => self.rlr(),
            5 if self.d < 4.0 => self.lrl(),
            _ => None,
        }
    }

    /// The shortest word, the one trying all six in order and keeping the
    /// first strictly shorter one would choose ([`Setup::exhaustive`]).
    ///
    /// When one word's estimate is shorter than every other by more than the
    /// estimates' error, that word is the answer and is built without being
    /// worked out again: away from the configurations where words snap (the
    /// estimates decline those), `f32` turns are as exact as the `f32` path
    /// that stores them. Otherwise only the words whose estimates are within
    /// rounding of the shortest are worked out exactly.
    // Inlined into the planner's entry, as when they shared a module.
    #[inline]
    pub(super) fn shortest(&self) -> Shortest {
        let Some(query) = Query::new(self.d, self.a, self.b, self.turn) else {
            return Shortest::Exact(self.exhaustive());
        };
        // The exact words count an opposite-direction straight whose square
        // is this far below zero as none: an estimate in that band would
        // call the word infeasible where the exact build keeps it (found by
        // the navmesh's property test, with coordinates of 430 and a radius
        // of 1.9 widening the band to 9e-4).
        let exact_snap_sq = (4.0 * self.negligible_straight) as f32;
        let Some(csc) = csc_estimates(query, exact_snap_sq) else {
            return Shortest::Exact(self.exhaustive());
        };
        let ccc = if self.d < 4.0 {
            let Some(ccc) = ccc_lengths(query) else {
                return Shortest::Exact(self.exhaustive());
            };
            ccc
        } else {
            [f32::INFINITY; 2]
        };
        let lengths = csc.lengths;
        let shortest = lengths.min_element().min(ccc[0]).min(ccc[1]);
        let cutoff = shortest + (ESTIMATE_MARGIN * (1.0 + self.d)) as f32;
        // Bit `i` is set when word `i` (in `Setup::word`'s order) is close.
        let close = lengths.cmple(Vec4::splat(cutoff)).bitmask()
            | u32::from(ccc[0] <= cutoff) << 4
            | u32::from(ccc[1] <= cutoff) << 5;
        if close.count_ones() == 1 {
            return match close.trailing_zeros() {
                4 => Shortest::ThreeTurns(PathWord::Rlr),
                5 => Shortest::ThreeTurns(PathWord::Lrl),
                lane => Shortest::Csc(csc.lane(lane as usize)),
            };
        }
        let mut best: Option<Word> = None;
        let mut remaining = close;
        while remaining != 0 {
            let index = remaining.trailing_zeros() as usize;
            remaining &= remaining - 1;
            if let Some(word) = self.word(index)
                && best.is_none_or(|best| word.length < best.length)
            {
                best = Some(word);
            }
        }
        Shortest::Exact(best)
    }

    /// Builds an arc-line-arc word from its estimate.
    ///
    /// The straight is worked out again in `f64` (a square root, no
    /// trigonometry), and the estimated turns are corrected by the small
    /// angle between the estimated straight and the exact one, so the turns
    /// are as exact as the arctangent that estimated them. Each circle is
    /// placed from its own end's pose, so the path ends exactly at the goal.
    #[inline(always)]
    pub(super) fn build_estimated(&self, start: Pose, goal: Pose, lane: CscLane) -> TurningPath {
        const WORDS: [PathWord; 4] = [PathWord::Lsl, PathWord::Rsr, PathWord::Lsr, PathWord::Rsl];
        const FIRST_SIGN: [f64; 4] = [1.0, -1.0, 1.0, -1.0];
        const LAST_SIGN: [f64; 4] = [1.0, -1.0, -1.0, 1.0];
        // 1 where the turns go opposite ways and the straight crosses
        // between the circles, 0 where it runs along their common side.
        const CROSSING: [f64; 4] = [0.0, 0.0, 1.0, 1.0];
        let first_sign = FIRST_SIGN[lane.index];
        let last_sign = LAST_SIGN[lane.index];
        let crossing = CROSSING[lane.index];
        let (a, b) = (self.a, self.b);
        // Centre to centre, in radii, in the start-goal frame (as the estimates).
        let between = DVec2::new(
            self.d + first_sign * a.y - last_sign * b.y,
            last_sign * b.x - first_sign * a.x,
        );
        let between_sq = between.length_squared();
        let straight = (between_sq - 4.0 * crossing).max(0.0).sqrt();
        // A crossing straight is `between` turned back by the angle of
        // (straight, 2), and `between_sq` long before normalising.
        let along = 1.0 + crossing * (straight - 1.0);
        let across = 2.0 * first_sign * crossing;
        let norm = straight + crossing * (between_sq - straight);
        let exact = DVec2::new(
            along * between.x - across * between.y,
            along * between.y + across * between.x,
        ) * norm.recip();
        let correction = lane.direction.as_dvec2().perp_dot(exact);
        let first_turn = f64::from(lane.first) + first_sign * correction;
        // The turns add up to the total turn (each taken in its direction).
        let last_turn = wrap_turn(last_sign * (self.turn - first_sign * first_turn));
        let direction = self.axis.rotate(exact);

        let r = self.radius;
        let (first_center, last_center) = self.outer_centers(start, goal, (first_sign, last_sign));
        let first_sweep = first_turn * first_sign;
        let straight_heading = self.start_heading + first_sweep;
        let straight_length = straight * r;
        let segments = [
            Segment::Arc {
                gear: Gear::Forward,
                center: first_center.as_vec2(),
                radius: r as f32,
                start_angle: (self.start_heading - first_sign * FRAC_PI_2) as f32,
                sweep: first_sweep as f32,
            },
            Segment::Line {
                gear: Gear::Forward,
                start: (first_center - direction.perp() * (first_sign * r)).as_vec2(),
                end: (last_center - direction.perp() * (last_sign * r)).as_vec2(),
                length: straight_length as f32,
                heading: straight_heading as f32,
            },
            Segment::Arc {
                gear: Gear::Forward,
                center: last_center.as_vec2(),
                radius: r as f32,
                start_angle: (straight_heading - last_sign * FRAC_PI_2) as f32,
                sweep: (last_turn * last_sign) as f32,
            },
        ];
        let length = (first_turn + last_turn) * r + straight_length;
        TurningPath::from_segments(start, WORDS[lane.index], segments, 3, length as f32)
    }

    /// The shortest word, every one worked out exactly, the first strictly
    /// shortest kept.
    fn exhaustive(&self) -> Option<Word> {
        self.words().fold(None, |best: Option<Word>, word| {
            if best.is_none_or(|best| word.length < best.length) {
                Some(word)
            } else {
                best
            }
        })
    }

    /// The centres of the first and last turning circles, turning `signs`
    /// (1 left, -1 right): each placed from its own end's pose, so that a
    /// path round them starts and ends exactly there.
    #[inline(always)]
    fn outer_centers(&self, start: Pose, goal: Pose, signs: (f64, f64)) -> (DVec2, DVec2) {
        let r = self.radius;
        (
            start.position.as_dvec2() + self.start_forward.perp() * (signs.0 * r),
            goal.position.as_dvec2() + self.goal_forward.perp() * (signs.1 * r),
        )
    }

    /// Builds RLR or LRL, the estimates having found it clearly shortest.
    ///
    /// The first and last circles are placed from the start and goal poses
    /// and the middle one where it touches both (a square root, on the side
    /// the word swings out to), so only the three turns need angles. Those
    /// come from one four-lane arctangent of the exact vectors, as exact as
    /// the `f32` path that stores them; the estimates declined every case
    /// where a turn is near none or a full circle, so none can wrap.
    #[inline(always)]
    pub(super) fn build_three_turns(&self, start: Pose, goal: Pose, word: PathWord) -> TurningPath {
        let first_sign = if word == PathWord::Rlr { -1.0 } else { 1.0 };
        let r = self.radius;
        let (first_center, last_center) = self.outer_centers(start, goal, (first_sign, first_sign));
        let half = (last_center - first_center) * 0.5;
        let half_length = half.length();
        let out = (4.0 * r * r - half_length * half_length).max(0.0).sqrt() / half_length;
        // RLR's middle circle lies to the right of the line between the
        // outer two, LRL's to the left.
        let middle_center = first_center + half + half.perp() * (first_sign * out);
        let turns = [
            (
                first_sign,
                start.position.as_dvec2() - first_center,
                middle_center - first_center,
            ),
            (
                -first_sign,
                first_center - middle_center,
                last_center - middle_center,
            ),
            (
                first_sign,
                middle_center - last_center,
                goal.position.as_dvec2() - last_center,
            ),
        ];
        // Every vector is one or two radii long: in radii squared, the
        // products fit `f32` whatever the radius.
        let per_radius_sq = (r * r).recip();
        let cross = turns.map(|(sign, from, to)| (sign * per_radius_sq * from.perp_dot(to)) as f32);
        let dot = turns.map(|(_, from, to)| (per_radius_sq * from.dot(to)) as f32);
        let angles = fast_atan2_x4(
            Vec4::new(cross[0], cross[1], cross[2], 0.0),
            Vec4::new(dot[0], dot[1], dot[2], 1.0),
        );
        let [first_turn, middle_turn, last_turn, _] =
            positive_turn(angles).to_array().map(f64::from);
        let first_sweep = first_sign * first_turn;
        let middle_heading = self.start_heading + first_sweep;
        let middle_sweep = -first_sign * middle_turn;
        let last_heading = middle_heading + middle_sweep;
        let arc = |center: DVec2, heading: f64, sweep: f64| Segment::Arc {
            gear: Gear::Forward,
            center: center.as_vec2(),
            radius: r as f32,
            // The centre lies a quarter turn from the heading, towards the turn.
            start_angle: (heading - FRAC_PI_2.copysign(sweep)) as f32,
            sweep: sweep as f32,
        };
        let segments = [
            arc(first_center, self.start_heading, first_sweep),
            arc(middle_center, middle_heading, middle_sweep),
            arc(last_center, last_heading, first_sign * last_turn),
        ];
        let length = (first_turn + middle_turn + last_turn) * r;
        TurningPath::from_segments(start, word, segments, 3, length as f32)
    }

    /// Every feasible word, worked out exactly, in [`Setup::word`]'s order.
    pub(super) fn words(&self) -> impl Iterator<Item = Word> + '_ {
        (0..WORDS).filter_map(|index| self.word(index))
    }

    pub(super) fn build(&self, start: Pose, word: Word) -> TurningPath {
        use PathWord::{Lrl, Lsl, Lsr, Rlr, Rsl};
        let first = if matches!(word.word, Lsl | Lsr | Lrl) {
            L
        } else {
            R
        };
        let last = match word.word {
            Lsr => R,
            Rsl => L,
            _ => first,
        };
        let mut builder = PathBuilder::new(
            start,
            self.start_heading,
            self.start_forward,
            self.radius,
            word.word,
        );
        if matches!(word.word, Rlr | Lrl) {
            builder
                .turn(first, Turn::from_angle(word.t))
                .turn(first.opposite(), Turn::from_angle(word.p))
                .turn(last, Turn::from_angle(word.q));
        } else {
            // The turns' sines and cosines come from the directions they join.
            let straight = word.straight.normalize_or(self.b);
            debug_assert!(straight.is_finite());
            builder
                .turn(first, Turn::between(first, word.t, self.a, straight))
                .straight(word.p * self.radius)
                .turn(last, Turn::between(last, word.q, straight, self.b));
        }
        builder.finish()
    }
}

/// The shortest word, as [`Setup::shortest`] found it.
pub(super) enum Shortest {
    /// An arc-line-arc word clearly shorter than the rest, as estimated.
    Csc(CscLane),
    /// RLR or LRL, clearly shorter than the rest.
    ThreeTurns(PathWord),
    /// Worked out exactly; `None` only when no word is feasible, which
    /// overflow alone can cause.
    Exact(Option<Word>),
}

/// How far apart (per radius of distance, in radii) two words' estimated
/// lengths must be for the longer to be skipped unexamined: the estimates
/// are good to about `1e-5 * (1 + d)`.
const ESTIMATE_MARGIN: f64 = 1e-4;

/// How many Dubins words there are.
const WORDS: usize = 6;

fn three_turns(word: PathWord, t: f64, p: f64, q: f64) -> Word {
    Word {
        word,
        t,
        p,
        q,
        straight: DVec2::ZERO,
        length: t + p + q,
    }
}

/// An angle within two turns of `[0, 2π)`, wrapped into it without
/// branches (the words' signs are random, so branches would mispredict).
#[inline(always)]
fn wrap_turn(angle: f64) -> f64 {
    let below = |angle: f64| if angle < 0.0 { TAU } else { 0.0 };
    let above = |angle: f64| if angle >= TAU { TAU } else { 0.0 };
    let angle = angle + below(angle);
    let angle = angle + below(angle);
    let angle = angle - above(angle);
    angle - above(angle)
}

/// The angle turned in `direction` from heading `from` to heading `to`.
#[inline(always)]
fn turn_angle(direction: TurnDirection, from: DVec2, to: DVec2) -> f64 {
    let sign = f64::from(direction.sign());
    positive_atan2(sign * from.perp_dot(to), from.dot(to))
}

/// The middle turn of an arc-arc-arc word, from its cosine. `None` when
/// infeasible, or when it would be a full loop that a shorter word avoids.
#[inline]
fn middle_turn(cos_p: f64) -> Option<f64> {
    if cos_p.abs() > 1.0 + 1e-12 {
        return None;
    }
    let p = TAU - fast_acos(cos_p);
    (p < TAU - SNAP).then_some(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shortest word, whether taken from its estimate or worked out
    /// exactly, is the one trying every word exactly chooses. Taken from its
    /// estimate, it is the same path to within `f32` rounding.
    fn assert_same_choice(start: Pose, goal: Pose, radius: f32) {
        let setup = Setup::new(start, goal, radius);
        let slow = setup.exhaustive();
        let case = format!("{start:?} -> {goal:?}, radius {radius}");
        let estimated = match setup.shortest() {
            Shortest::Exact(fast) => {
                let describe =
                    |word: Option<Word>| word.map(|word| (word.word, word.length.to_bits()));
                assert_eq!(describe(fast), describe(slow), "{case}");
                return;
            }
            Shortest::Csc(lane) => setup.build_estimated(start, goal, lane),
            Shortest::ThreeTurns(word) => setup.build_three_turns(start, goal, word),
        };
        let exact = setup.build(start, slow.expect("LSL is always feasible"));
        assert_eq!(estimated.word(), exact.word(), "{case}");
        let scale =
            exact.length() + radius + start.position.abs().max(goal.position.abs()).max_element();
        let tolerance = 2e-6 * scale;
        assert!(
            (estimated.length() - exact.length()).abs() <= tolerance,
            "{case}"
        );
        crate::test_cases::assert_same_segments(
            estimated.segments(),
            exact.segments(),
            tolerance,
            &case,
        );
    }

    #[test]
    fn estimates_choose_exactly_what_trying_every_word_chooses() {
        for (start, goal, radius) in crate::test_cases::queries(400_000) {
            assert_same_choice(start, goal, radius);
        }
    }
}
