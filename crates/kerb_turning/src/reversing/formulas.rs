//! The eight base formulas of Reeds and Shepp's paper (8.1 to 8.11), in the
//! form OMPL's `ReedsSheppStateSpace` uses, each in `f64`.
//!
//! Each works in radii from a start at the origin facing +x, to the goal
//! `(x, y)` facing `phi`, and gives the signed piece lengths `t, u, v` of
//! its word (negative is reverse), or `None` where the word does not reach.
//!
//! Each solves a word and its time flip together: the flip mirrors the goal
//! front to back, which negates `x` and `sin φ`, so both see the same
//! distances between turning circles and angles that differ by a
//! reflection. One square root and, mostly, one arctangent serve both.
//! A `shorter_than` bound rules words out as soon as part of their length
//! alone reaches it, before the costlier angles. The reflected words
//! follow by symmetry (see [`super::words`]).

use std::f64::consts::{FRAC_PI_2, PI, TAU};
use std::hint::select_unpredictable;

use crate::angle::{fast_acos, fast_atan2, fast_sin_cos};

/// A goal in the start's frame, in radii, with its heading's sine and cosine.
#[derive(Clone, Copy, Debug)]
pub(super) struct Goal {
    pub(super) x: f64,
    pub(super) y: f64,
    /// Heading in `(-π, π]`.
    pub(super) phi: f64,
    pub(super) sin: f64,
    pub(super) cos: f64,
}

/// How far past zero a piece that must not change sign may be: a turn of
/// this is below the rounding of an `f32` heading.
pub(super) const TOLERANCE: f64 = 1e-6;

/// A word's `t, u, v` and its time flip's, where each reaches the goal.
pub(super) type Pair = [Option<[f64; 3]>; 2];

impl Goal {
    /// The goal as the reflected word sees it: mirrored left to right.
    #[inline(always)]
    pub(super) fn reflect(self) -> Goal {
        Goal {
            y: -self.y,
            phi: -self.phi,
            sin: -self.sin,
            ..self
        }
    }

    /// The start as seen from the goal, for the words that are the reverse
    /// of another (driven from their last piece to their first).
    #[inline(always)]
    pub(super) fn backwards(self) -> Goal {
        Goal {
            x: self.x * self.cos + self.y * self.sin,
            y: self.x * self.sin - self.y * self.cos,
            ..self
        }
    }

    /// The centre of the goal's left turning circle less that of the
    /// start's, in the frame (xi, eta) of the formulas with like turns.
    #[inline(always)]
    fn like_turns(&self) -> (f64, f64) {
        (self.x - self.sin, self.y - 1.0 + self.cos)
    }

    /// The same for the goal's right circle: formulas with unlike turns.
    #[inline(always)]
    fn unlike_turns(&self) -> (f64, f64) {
        (self.x + self.sin, self.y - 1.0 - self.cos)
    }
}

#[inline(always)]
fn non_negative(value: f64) -> bool {
    value >= -TOLERANCE
}

#[inline(always)]
fn non_positive(value: f64) -> bool {
    value <= TOLERANCE
}

/// Wraps an angle within two turns of zero into `(-π, π]`, by selects
/// rather than a rounding call (no `round` instruction on baseline x86-64).
#[inline(always)]
fn wrap(angle: f64) -> f64 {
    let once = angle - select_unpredictable(angle > PI, TAU, 0.0)
        + select_unpredictable(angle <= -PI, TAU, 0.0);
    once - select_unpredictable(once > PI, TAU, 0.0) + select_unpredictable(once <= -PI, TAU, 0.0)
}

/// `angle` wrapped into `[0, 2π)`.
#[inline(always)]
fn positive(angle: f64) -> f64 {
    let wrapped = wrap(angle);
    wrapped + select_unpredictable(wrapped < 0.0, TAU, 0.0)
}

/// Which of a word and its time flip a lower bound on their lengths leaves
/// in: `turning` is the least the turns must add up to for heading `phi`
/// (the flip's is `-phi`), on top of `rest`. A hair of slack keeps a word
/// that ties.
#[inline(always)]
fn may_win(rest: f64, turning: impl Fn(f64) -> f64, phi: f64, shorter_than: f64) -> [bool; 2] {
    let slack = 1e-9;
    [phi, -phi].map(|phi| rest + turning(phi) - slack < shorter_than)
}

/// The angle of `(xi, eta)` and of its mirror `(-xi, eta)`, from one
/// arctangent (signs as [`f64::atan2`]'s).
#[inline(always)]
fn angle_and_mirror(xi: f64, eta: f64) -> (f64, f64) {
    let theta = fast_atan2(eta, xi);
    (theta, PI.copysign(eta) - theta)
}

/// Left forward, straight forward, left forward (8.1).
#[inline(always)]
pub(super) fn lp_sp_lp(g: Goal, shorter_than: f64) -> Pair {
    let (xi, eta) = g.like_turns();
    let u = (xi * xi + eta * eta).sqrt();
    // `t` is the angle of (±xi, eta), which must not be negative: eta
    // tells before the arctangent does.
    // Both turns go left, through the heading change between them.
    let wins = may_win(u, positive, g.phi, shorter_than);
    if wins == [false; 2] || eta < -TOLERANCE * u {
        return [None; 2];
    }
    let (t, flipped_t) = angle_and_mirror(xi, eta);
    let solve = |t: f64, phi: f64, wins: bool| {
        let v = wrap(phi - t);
        (wins && non_negative(t) && non_negative(v)).then_some([t, u, v])
    };
    [solve(t, g.phi, wins[0]), solve(flipped_t, -g.phi, wins[1])]
}

/// Left forward, straight forward, right forward (8.2).
#[inline(always)]
pub(super) fn lp_sp_rp(g: Goal, shorter_than: f64) -> Pair {
    let (xi, eta) = g.unlike_turns();
    let u_sq = xi * xi + eta * eta - 4.0;
    if u_sq < 0.0 {
        return [None; 2];
    }
    let u = u_sq.sqrt();
    // The turns go opposite ways: they differ by the heading change.
    let wins = may_win(u, |phi| wrap(phi).abs(), g.phi, shorter_than);
    if wins == [false; 2] {
        return [None; 2];
    }
    let (theta, flipped_theta) = angle_and_mirror(xi, eta);
    let tangent = fast_atan2(2.0, u);
    let solve = |theta: f64, phi: f64, wins: bool| {
        let t = wrap(theta + tangent);
        let v = wrap(t - phi);
        (wins && non_negative(t) && non_negative(v)).then_some([t, u, v])
    };
    [
        solve(theta, g.phi, wins[0]),
        solve(flipped_theta, -g.phi, wins[1]),
    ]
}

/// Left forward, right reverse, left either way (8.3, 8.4: C|C|C and C|CC).
#[inline(always)]
pub(super) fn lp_rm_l(g: Goal) -> Pair {
    let (xi, eta) = g.like_turns();
    let rho_sq = xi * xi + eta * eta;
    if rho_sq > 16.0 {
        return [None; 2];
    }
    let quarter = 0.25 * rho_sq.sqrt();
    // -2 asin(rho / 4), from the arctangent.
    let u = -2.0 * fast_atan2(quarter, (1.0 - quarter * quarter).max(0.0).sqrt());
    if !non_positive(u) {
        return [None; 2];
    }
    let (theta, flipped_theta) = angle_and_mirror(xi, eta);
    let solve = |theta: f64, phi: f64| {
        let t = wrap(theta + 0.5 * u + PI);
        let v = wrap(phi - t + u);
        non_negative(t).then_some([t, u, v])
    };
    [solve(theta, g.phi), solve(flipped_theta, -g.phi)]
}

/// What the four-turn words' outer turns (Reeds and Shepp's τ and ω) need
/// of their middle turns `u` and `v`, shared by a word and its time flip.
struct MiddleTurns {
    u: f64,
    v: f64,
    a: f64,
    b: f64,
    flip_tau: bool,
}

impl MiddleTurns {
    #[inline(always)]
    fn new(u: f64, v: f64) -> Self {
        let delta = wrap(u - v);
        let (sin_u, cos_u) = fast_sin_cos(u);
        let (sin_d, cos_d) = fast_sin_cos(delta);
        let cos_v = if u == v { cos_u } else { fast_sin_cos(v).1 };
        Self {
            u,
            v,
            a: sin_u - sin_d,
            b: cos_u - cos_d - 1.0,
            flip_tau: 2.0 * (cos_d - cos_v - cos_u) + 3.0 < 0.0,
        }
    }

    /// The word's `t, u, v` for the offset `(xi, eta)` and heading `phi`,
    /// and its time flip's, where the first turn is forwards and the last
    /// as `last_ok` (its sign test) requires.
    #[inline(always)]
    fn pair(&self, xi: f64, eta: f64, phi: f64, last_ok: fn(f64) -> bool) -> Pair {
        let solve = |xi: f64, phi: f64| {
            let (t, v) = self.outer(xi, eta, phi);
            (non_negative(t) && last_ok(v)).then_some([t, self.u, v])
        };
        [solve(xi, phi), solve(-xi, -phi)]
    }

    /// τ and ω for the offset `(xi, eta)` and heading `phi`.
    #[inline(always)]
    fn outer(&self, xi: f64, eta: f64, phi: f64) -> (f64, f64) {
        let (a, b) = (self.a, self.b);
        let t1 = fast_atan2(eta * a - xi * b, xi * a + eta * b);
        let tau = wrap(t1 + select_unpredictable(self.flip_tau, PI, 0.0));
        (tau, wrap(tau - self.u + self.v - phi))
    }
}

/// Left forward, right forward by `u`, left reverse by `u`, right reverse
/// (8.7: CCu|CuC).
#[inline(always)]
pub(super) fn lp_rup_lum_rm(g: Goal) -> Pair {
    let (xi, eta) = g.unlike_turns();
    let rho = 0.25 * (2.0 + (xi * xi + eta * eta).sqrt());
    if rho > 1.0 {
        return [None; 2];
    }
    let u = fast_acos(rho);
    MiddleTurns::new(u, -u).pair(xi, eta, g.phi, non_positive)
}

/// Left forward, right reverse by `u`, left reverse by `u`, right forward
/// (8.8: C|CuCu|C).
#[inline(always)]
pub(super) fn lp_rum_lum_rp(g: Goal) -> Pair {
    let (xi, eta) = g.unlike_turns();
    let rho = (20.0 - xi * xi - eta * eta) / 16.0;
    if !(0.0..=1.0).contains(&rho) {
        return [None; 2];
    }
    let u = -fast_acos(rho);
    if u < -FRAC_PI_2 {
        return [None; 2];
    }
    MiddleTurns::new(u, u).pair(xi, eta, g.phi, non_negative)
}

/// Left forward, a quarter right reverse, straight reverse, left reverse
/// (8.9: C|C(π/2)SC).
#[inline(always)]
pub(super) fn lp_rm_sm_lm(g: Goal, shorter_than: f64) -> Pair {
    let (xi, eta) = g.like_turns();
    let rho_sq = xi * xi + eta * eta;
    if rho_sq < 4.0 {
        return [None; 2];
    }
    let r = (rho_sq - 4.0).sqrt();
    let u = 2.0 - r;
    // The outer turns turn the heading opposite ways, by what the quarter
    // turn leaves of the heading change.
    let turning = |phi: f64| wrap(phi - FRAC_PI_2).abs();
    let wins = may_win(FRAC_PI_2 - u, turning, g.phi, shorter_than);
    if wins == [false; 2] || !non_positive(u) {
        return [None; 2];
    }
    let (theta, flipped_theta) = angle_and_mirror(xi, eta);
    let tangent = fast_atan2(r, -2.0);
    let solve = |theta: f64, phi: f64, wins: bool| {
        let t = wrap(theta + tangent);
        let v = wrap(phi - FRAC_PI_2 - t);
        (wins && non_negative(t) && non_positive(v)).then_some([t, u, v])
    };
    [
        solve(theta, g.phi, wins[0]),
        solve(flipped_theta, -g.phi, wins[1]),
    ]
}

/// Left forward, a quarter right reverse, straight reverse, right reverse
/// (8.10: C|C(π/2)SC).
#[inline(always)]
pub(super) fn lp_rm_sm_rm(g: Goal, shorter_than: f64) -> Pair {
    let (xi, eta) = g.unlike_turns();
    let rho = (xi * xi + eta * eta).sqrt();
    let u = 2.0 - rho;
    // The outer turns turn the heading the same way, by what the quarter
    // turn leaves of the heading change.
    let turning = |phi: f64| positive(phi - FRAC_PI_2);
    let wins = may_win(FRAC_PI_2 - u, turning, g.phi, shorter_than);
    if rho < 2.0 || wins == [false; 2] {
        return [None; 2];
    }
    // `t` is the angle of (-eta, ±xi), which must not be negative: the
    // sign of xi says which of the pair can reach.
    let solve = |xi: f64, phi: f64, wins: bool| {
        if !wins || xi < -TOLERANCE * rho {
            return None;
        }
        let t = fast_atan2(xi, -eta);
        let v = wrap(t + FRAC_PI_2 - phi);
        (non_negative(t) && non_positive(v)).then_some([t, u, v])
    };
    [solve(xi, g.phi, wins[0]), solve(-xi, -g.phi, wins[1])]
}

/// Left forward, a quarter right reverse, straight reverse, a quarter left
/// reverse, right forward (8.11: C|C(π/2)SC(π/2)|C).
#[inline(always)]
pub(super) fn lp_rm_s_lm_rp(g: Goal, shorter_than: f64) -> Pair {
    let (xi, eta) = g.unlike_turns();
    let rho_sq = xi * xi + eta * eta;
    if rho_sq < 4.0 {
        return [None; 2];
    }
    let u = 4.0 - (rho_sq - 4.0).sqrt();
    // The quarter turns cancel; the outer turns differ by the heading change.
    let wins = may_win(PI - u, |phi| wrap(phi).abs(), g.phi, shorter_than);
    if !non_positive(u) || wins == [false; 2] {
        return [None; 2];
    }
    let solve = |xi: f64, phi: f64, wins: bool| {
        if !wins {
            return None;
        }
        let t = wrap(fast_atan2(
            (4.0 - u) * xi - 2.0 * eta,
            -2.0 * xi + (u - 4.0) * eta,
        ));
        let v = wrap(t - phi);
        (non_negative(t) && non_negative(v)).then_some([t, u, v])
    };
    [solve(xi, g.phi, wins[0]), solve(-xi, -g.phi, wins[1])]
}
