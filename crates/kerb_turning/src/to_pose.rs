//! Pose to pose: arrive at a point with a required heading (Dubins paths).
//!
//! All six words are considered: the four arc-line-arc words of Pinter's
//! article and the two arc-arc-arc words that win when start and goal are
//! close. Notation follows Shkel and Lumelsky (2001): distances are in
//! radii, `alpha` and `beta` are the headings relative to the line from
//! start to goal.
//!
//! The shortest is found from `f32` estimates of all six lengths
//! ([`crate::word_estimates`]); only the words within rounding of the
//! shortest estimate are worked out exactly, so the choice is the one that
//! trying every word exactly would make.

use std::f64::consts::TAU;

use glam::DVec2;

use crate::angle::{SNAP, Turn, fast_acos, fast_atan2, fast_sin_cos, normalize, wrap_positive};
use crate::error::{check_pose, check_radius};
use crate::path::PathBuilder;
use crate::word_estimates::{ccc_lengths, csc_lengths};
use crate::{Candidates, PathWord, PlanError, Pose, TurnDirection, TurningPath};

use TurnDirection::{Left as L, Right as R};

/// One word worked out, in radii: enough to rank it by `length` and to
/// build it without more trigonometry.
#[derive(Clone, Copy)]
struct Word {
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
struct Setup {
    d: f64,
    a: DVec2,
    b: DVec2,
    radius: f64,
    start_heading: f64,
    start_forward: DVec2,
    /// Straights shorter than this (in radii) are rounding noise: their
    /// direction is meaningless, so it must not decide the turn angles.
    negligible_straight: f64,
}

impl Setup {
    fn new(start: Pose, goal: Pose, radius: f32) -> Self {
        let offset = (goal.position - start.position).as_dvec2();
        let radius = f64::from(radius);
        let distance = offset.length();
        let axis = if distance > 0.0 {
            offset / distance
        } else {
            DVec2::X
        };
        let start_heading = normalize(f64::from(start.heading));
        let (sin_h0, cos_h0) = fast_sin_cos(start_heading);
        let (sin_h1, cos_h1) = fast_sin_cos(normalize(f64::from(goal.heading)));
        let start_forward = DVec2::new(cos_h0, sin_h0);
        let coordinate_scale = start.position.abs().max(goal.position.abs()).max_element();
        // Rotating by the conjugate of `axis` expresses a heading relative to
        // the start-goal line without computing that line's angle.
        let to_line = DVec2::new(axis.x, -axis.y);
        let a = to_line.rotate(start_forward);
        let b = to_line.rotate(DVec2::new(cos_h1, sin_h1));
        Self {
            d: distance / radius,
            a,
            b,
            radius,
            start_heading,
            start_forward,
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

    /// The shortest word, exactly as trying all six in order and keeping
    /// the first strictly shorter one would choose ([`Setup::exhaustive`]),
    /// but working out exactly only the words whose estimate is within
    /// rounding of the shortest.
    fn shortest(&self) -> Option<Word> {
        let Some(csc) = csc_lengths(self.d, self.a, self.b) else {
            return self.exhaustive();
        };
        let ccc = if self.d < 4.0 {
            let Some(ccc) = ccc_lengths(self.d, self.a, self.b) else {
                return self.exhaustive();
            };
            ccc
        } else {
            [f32::INFINITY; 2]
        };
        let estimates = [csc.x, csc.y, csc.z, csc.w, ccc[0], ccc[1]];
        let shortest = estimates.iter().copied().fold(f32::INFINITY, f32::min);
        let cutoff = f64::from(shortest) + ESTIMATE_MARGIN * (1.0 + self.d);
        // A plain loop: an iterator chain here measured 20% slower overall.
        let mut best: Option<Word> = None;
        for (index, estimate) in estimates.into_iter().enumerate() {
            if f64::from(estimate) <= cutoff
                && let Some(word) = self.word(index)
                && best.is_none_or(|best| word.length < best.length)
            {
                best = Some(word);
            }
        }
        best
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

    /// Every feasible word, worked out exactly, in [`Setup::word`]'s order.
    fn words(&self) -> impl Iterator<Item = Word> + '_ {
        (0..WORDS).filter_map(|index| self.word(index))
    }

    fn build(&self, start: Pose, word: Word) -> TurningPath {
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

/// The angle turned in `direction` from heading `from` to heading `to`.
#[inline(always)]
fn turn_angle(direction: TurnDirection, from: DVec2, to: DVec2) -> f64 {
    let angle = fast_atan2(from.perp_dot(to), from.dot(to));
    wrap_positive(f64::from(direction.sign()) * angle)
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

fn check(start: &Pose, goal: &Pose, radius: f32) -> Result<(), PlanError> {
    check_radius(radius)?;
    check_pose(start, "start pose")?;
    check_pose(goal, "goal pose")
}

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
    check(&start, &goal, radius)?;
    let setup = Setup::new(start, goal, radius);
    // LSL and RSR are always feasible, so there is always a shortest.
    Ok(setup
        .shortest()
        .map_or(TurningPath::stationary(start), |word| {
            setup.build(start, word)
        }))
}

/// Every feasible Dubins path from `start` to `goal`, shortest first.
pub fn candidates_to_pose(start: Pose, goal: Pose, radius: f32) -> Result<Candidates, PlanError> {
    check(&start, &goal, radius)?;
    let setup = Setup::new(start, goal, radius);
    let mut candidates = Candidates::default();
    setup
        .words()
        .for_each(|word| candidates.push(setup.build(start, word)));
    candidates.sort();
    Ok(candidates)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    fn assert_same_choice(start: Pose, goal: Pose, radius: f32) {
        let setup = Setup::new(start, goal, radius);
        let (fast, slow) = (setup.shortest(), setup.exhaustive());
        let describe = |word: Option<Word>| word.map(|word| (word.word, word.length.to_bits()));
        assert_eq!(
            describe(fast),
            describe(slow),
            "{start:?} -> {goal:?}, radius {radius}"
        );
    }

    #[test]
    fn estimates_choose_exactly_what_trying_every_word_chooses() {
        use std::f32::consts::{FRAC_PI_2, TAU};
        // A Weyl sequence: dimension `i` of case `k` is the fractional part
        // of `k` times the square root of the `i`-th prime, which fills the
        // unit cube evenly without a random generator.
        const ROOTS: [f64; 7] = [
            std::f64::consts::SQRT_2,
            1.732_050_807_568_877_2,
            2.236_067_977_499_79,
            2.645_751_311_064_590_6,
            3.316_624_790_355_4,
            3.605_551_275_463_989,
            4.123_105_625_617_661,
        ];
        for case in 0..400_000u32 {
            let unit = |dimension: usize| (f64::from(case) * ROOTS[dimension]).fract() as f32;
            // Every other case is degenerate on purpose: headings on right
            // angles, points on a coarse grid (collinear, coincident, on
            // turning circles), radii from tiny to huge.
            let coarse = case % 2 == 1;
            let coordinate = |dimension: usize| {
                let value = unit(dimension) * 8.0 - 4.0;
                if coarse { value.round() } else { value }
            };
            let heading = |dimension: usize| {
                let heading = unit(dimension) * TAU;
                if coarse {
                    (heading / FRAC_PI_2).round() * FRAC_PI_2
                } else {
                    heading
                }
            };
            let radius = if coarse {
                [0.5, 1.0, 2.0, 1e-4, 1e4][case as usize / 2 % 5]
            } else {
                0.01 + unit(6) * 10.0
            };
            assert_same_choice(
                Pose::new(Vec2::new(coordinate(0), coordinate(1)), heading(4)),
                Pose::new(Vec2::new(coordinate(2), coordinate(3)), heading(5)),
                radius,
            );
        }
    }
}
