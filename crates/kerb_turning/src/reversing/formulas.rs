//! The eight base formulas of Reeds and Shepp's paper (8.1 to 8.11), in the
//! form OMPL's `ReedsSheppStateSpace` uses, each in `f64`.
//!
//! Each works in radii from a start at the origin facing +x, to the goal
//! `(x, y)` facing `phi`, and gives the signed piece lengths `t, u, v` of
//! its word (negative is reverse), or `None` where the word does not reach.
//! Those given `shorter_than` also give `None` as soon as a part of their
//! length alone rules them out, before the costlier angles.
//! The other words follow by symmetry (see [`super::words`]).

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

impl Goal {
    /// The goal as the time-flipped word sees it: mirrored front to back.
    #[inline(always)]
    pub(super) fn timeflip(self) -> Goal {
        Goal {
            x: -self.x,
            phi: -self.phi,
            sin: -self.sin,
            ..self
        }
    }

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

    #[inline(always)]
    fn non_negative(&self, value: f64) -> bool {
        value >= -TOLERANCE
    }

    #[inline(always)]
    fn non_positive(&self, value: f64) -> bool {
        value <= TOLERANCE
    }
}

/// Wraps an angle within two turns of zero into `(-π, π]`, by selects
/// rather than a rounding call (no `round` instruction on baseline x86-64).
#[inline(always)]
fn wrap(angle: f64) -> f64 {
    let once = angle - select_unpredictable(angle > PI, TAU, 0.0)
        + select_unpredictable(angle <= -PI, TAU, 0.0);
    once - select_unpredictable(once > PI, TAU, 0.0) + select_unpredictable(once <= -PI, TAU, 0.0)
}

#[inline(always)]
fn polar(x: f64, y: f64) -> (f64, f64) {
    ((x * x + y * y).sqrt(), fast_atan2(y, x))
}

/// Left forward, straight forward, left forward (8.1).
#[inline(always)]
pub(super) fn lp_sp_lp(g: Goal, shorter_than: f64) -> Option<[f64; 3]> {
    let (xi, eta) = (g.x - g.sin, g.y - 1.0 + g.cos);
    // `t` is the angle of (xi, eta), which must not be negative: eta
    // tells before the arctangent does.
    let u = (xi * xi + eta * eta).sqrt();
    if u >= shorter_than || eta < -TOLERANCE * u {
        return None;
    }
    let t = fast_atan2(eta, xi);
    let v = wrap(g.phi - t);
    (g.non_negative(t) && g.non_negative(v)).then_some([t, u, v])
}

/// Left forward, straight forward, right forward (8.2).
#[inline(always)]
pub(super) fn lp_sp_rp(g: Goal, shorter_than: f64) -> Option<[f64; 3]> {
    let (xi, eta) = (g.x + g.sin, g.y - 1.0 - g.cos);
    let u_sq = xi * xi + eta * eta - 4.0;
    if u_sq < 0.0 {
        return None;
    }
    let u = u_sq.sqrt();
    if u >= shorter_than {
        return None;
    }
    let t = wrap(fast_atan2(eta, xi) + fast_atan2(2.0, u));
    let v = wrap(t - g.phi);
    (g.non_negative(t) && g.non_negative(v)).then_some([t, u, v])
}

/// Left forward, right reverse, left either way (8.3, 8.4: C|C|C and C|CC).
#[inline(always)]
pub(super) fn lp_rm_l(g: Goal) -> Option<[f64; 3]> {
    let (xi, eta) = (g.x - g.sin, g.y - 1.0 + g.cos);
    if xi * xi + eta * eta > 16.0 {
        return None;
    }
    let (rho, theta) = polar(xi, eta);
    let quarter = 0.25 * rho;
    // -2 asin(rho / 4), from the arctangent.
    let u = -2.0 * fast_atan2(quarter, (1.0 - quarter * quarter).max(0.0).sqrt());
    let t = wrap(theta + 0.5 * u + PI);
    let v = wrap(g.phi - t + u);
    (g.non_negative(t) && g.non_positive(u)).then_some([t, u, v])
}

/// The first and last turns of the four-turn words, from the middle turns
/// `u` and `v` (Reeds and Shepp's τ and ω).
#[inline(always)]
fn tau_omega(u: f64, v: f64, xi: f64, eta: f64, phi: f64) -> (f64, f64) {
    let delta = wrap(u - v);
    let (sin_u, cos_u) = fast_sin_cos(u);
    let (sin_d, cos_d) = fast_sin_cos(delta);
    let cos_v = if u == v { cos_u } else { fast_sin_cos(v).1 };
    let a = sin_u - sin_d;
    let b = cos_u - cos_d - 1.0;
    let t1 = fast_atan2(eta * a - xi * b, xi * a + eta * b);
    let t2 = 2.0 * (cos_d - cos_v - cos_u) + 3.0;
    let tau = if t2 < 0.0 { wrap(t1 + PI) } else { wrap(t1) };
    (tau, wrap(tau - u + v - phi))
}

/// Left forward, right forward by `u`, left reverse by `u`, right reverse
/// (8.7: CCu|CuC).
#[inline(always)]
pub(super) fn lp_rup_lum_rm(g: Goal) -> Option<[f64; 3]> {
    let (xi, eta) = (g.x + g.sin, g.y - 1.0 - g.cos);
    let rho = 0.25 * (2.0 + (xi * xi + eta * eta).sqrt());
    if rho > 1.0 {
        return None;
    }
    let u = fast_acos(rho);
    let (t, v) = tau_omega(u, -u, xi, eta, g.phi);
    (g.non_negative(t) && g.non_positive(v)).then_some([t, u, v])
}

/// Left forward, right reverse by `u`, left reverse by `u`, right forward
/// (8.8: C|CuCu|C).
#[inline(always)]
pub(super) fn lp_rum_lum_rp(g: Goal) -> Option<[f64; 3]> {
    let (xi, eta) = (g.x + g.sin, g.y - 1.0 - g.cos);
    let rho = (20.0 - xi * xi - eta * eta) / 16.0;
    if !(0.0..=1.0).contains(&rho) {
        return None;
    }
    let u = -fast_acos(rho);
    if u < -FRAC_PI_2 {
        return None;
    }
    let (t, v) = tau_omega(u, u, xi, eta, g.phi);
    (g.non_negative(t) && g.non_negative(v)).then_some([t, u, v])
}

/// Left forward, a quarter right reverse, straight reverse, left reverse
/// (8.9: C|C(π/2)SC).
#[inline(always)]
pub(super) fn lp_rm_sm_lm(g: Goal, shorter_than: f64) -> Option<[f64; 3]> {
    let (xi, eta) = (g.x - g.sin, g.y - 1.0 + g.cos);
    let rho_sq = xi * xi + eta * eta;
    if rho_sq < 4.0 {
        return None;
    }
    let r = (rho_sq - 4.0).sqrt();
    let u = 2.0 - r;
    // The quarter turn and the straight alone.
    if FRAC_PI_2 - u >= shorter_than {
        return None;
    }
    let t = wrap(fast_atan2(eta, xi) + fast_atan2(r, -2.0));
    let v = wrap(g.phi - FRAC_PI_2 - t);
    (g.non_negative(t) && g.non_positive(u) && g.non_positive(v)).then_some([t, u, v])
}

/// Left forward, a quarter right reverse, straight reverse, right reverse
/// (8.10: C|C(π/2)SC).
#[inline(always)]
pub(super) fn lp_rm_sm_rm(g: Goal, shorter_than: f64) -> Option<[f64; 3]> {
    let (xi, eta) = (-(g.y - 1.0 - g.cos), g.x + g.sin);
    let rho = (xi * xi + eta * eta).sqrt();
    let u = 2.0 - rho;
    // As in `lp_sp_lp`, `t` must not be negative.
    if rho < 2.0 || FRAC_PI_2 - u >= shorter_than || eta < -TOLERANCE * rho {
        return None;
    }
    let t = fast_atan2(eta, xi);
    let v = wrap(t + FRAC_PI_2 - g.phi);
    (g.non_negative(t) && g.non_positive(u) && g.non_positive(v)).then_some([t, u, v])
}

/// Left forward, a quarter right reverse, straight reverse, a quarter left
/// reverse, right forward (8.11: C|C(π/2)SC(π/2)|C).
#[inline(always)]
pub(super) fn lp_rm_s_lm_rp(g: Goal, shorter_than: f64) -> Option<[f64; 3]> {
    let (xi, eta) = (g.x + g.sin, g.y - 1.0 - g.cos);
    let rho_sq = xi * xi + eta * eta;
    if rho_sq < 4.0 {
        return None;
    }
    let u = 4.0 - (rho_sq - 4.0).sqrt();
    // Two quarter turns and the straight alone.
    if !g.non_positive(u) || PI - u >= shorter_than {
        return None;
    }
    let t = wrap(fast_atan2(
        (4.0 - u) * xi - 2.0 * eta,
        -2.0 * xi + (u - 4.0) * eta,
    ));
    let v = wrap(t - g.phi);
    (g.non_negative(t) && g.non_negative(v)).then_some([t, u, v])
}
