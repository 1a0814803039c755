//! Angle arithmetic shared by the planners.
//!
//! The planners work in `f64` so that rounding never decides between a short
//! turn and a needless full circle, and use a polynomial `atan2` because the
//! platform one dominates the cost of planning.

use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, PI, TAU};

use glam::{DVec2, Vec4};

/// Turns closer than this to a full circle are treated as no turn at all.
///
/// Inputs are `f32`, so two headings that "should" be equal routinely differ
/// by a few ulps. Without snapping, `wrap(-1e-7)` is a full circle.
pub(crate) const SNAP: f64 = 1e-5;

/// Wraps an angle already within a few turns of `[0, 2π)` into `[0, 2π)`,
/// snapping values within [`SNAP`] of a full turn to zero.
#[inline]
pub(crate) fn wrap_positive(mut angle: f64) -> f64 {
    while angle < 0.0 {
        angle += TAU;
    }
    while angle >= TAU {
        angle -= TAU;
    }
    if angle > TAU - SNAP { 0.0 } else { angle }
}

/// Wraps any finite angle into `[0, 2π)`; used on user input, which may be
/// many turns away from the principal range.
#[inline]
pub(crate) fn normalize(angle: f64) -> f64 {
    if (0.0..TAU).contains(&angle) {
        return angle;
    }
    let wrapped = angle.rem_euclid(TAU);
    if wrapped >= TAU { 0.0 } else { wrapped }
}

/// Wraps an angle into `(-π, π]`.
#[inline]
pub fn wrap_signed(angle: f32) -> f32 {
    let wrapped =
        (angle + std::f32::consts::PI).rem_euclid(std::f32::consts::TAU) - std::f32::consts::PI;
    if wrapped <= -std::f32::consts::PI {
        wrapped + std::f32::consts::TAU
    } else {
        wrapped
    }
}

const TAN_PI_8: f64 = 0.414_213_562_373_095_1;

/// The arctangent series' coefficients, `(-1)^k / (2k + 1)`, as constants: a division
/// by a literal stays a division.
const ATAN_SERIES: [f64; 9] = [
    1.0,
    -1.0 / 3.0,
    1.0 / 5.0,
    -1.0 / 7.0,
    1.0 / 9.0,
    -1.0 / 11.0,
    1.0 / 13.0,
    -1.0 / 15.0,
    1.0 / 17.0,
];

/// `atan(x)` for `|x| <= tan(π/8)`, by its Taylor series to `x^17`: the
/// remainder is below `2e-8`, under half an `f32` ulp of any angle we store.
#[inline(always)]
fn atan_small(x: f64) -> f64 {
    const C: [f64; 9] = ATAN_SERIES;
    // Estrin's scheme: the terms pair up so the dependency chain is short.
    let x2 = x * x;
    let x4 = x2 * x2;
    let x8 = x4 * x4;
    let a = (C[0] + x2 * C[1]) + x4 * (C[2] + x2 * C[3]);
    let b = (C[4] + x2 * C[5]) + x4 * (C[6] + x2 * C[7]);
    x * (a + x8 * (b + x8 * C[8]))
}

/// Four-quadrant arctangent with the same conventions as [`f64::atan2`]
/// (`fast_atan2(0, 0) == 0`), accurate to about `2e-8`.
///
/// Written without data-dependent branches (every choice is a select), since
/// the planners feed it angles in random octants and mispredictions would
/// cost more than the arithmetic.
#[inline(always)]
pub(crate) fn fast_atan2(y: f64, x: f64) -> f64 {
    let (ax, ay) = (x.abs(), y.abs());
    let small = ax.min(ay);
    let large = ax.max(ay);
    // Reduce atan(small / large) in [0, π/4] to within π/8 of 0 or π/4.
    let upper = small > TAN_PI_8 * large;
    let numerator = if upper { small - large } else { small };
    let denominator = if upper { small + large } else { large };
    let base = if upper { FRAC_PI_4 } else { 0.0 };
    let ratio = if denominator > 0.0 {
        numerator / denominator
    } else {
        0.0
    };
    let octant_angle = base + atan_small(ratio);
    let quadrant_angle = if ay > ax {
        FRAC_PI_2 - octant_angle
    } else {
        octant_angle
    };
    let angle = if x.is_sign_negative() {
        PI - quadrant_angle
    } else {
        quadrant_angle
    };
    angle.copysign(y)
}

/// `(sin x, cos x)` for `x` in `[0, 2π)` (and a little beyond), to about
/// `2e-9`: the platform `sin_cos` is a call with branches on the argument's
/// size, and planning needs one or two per query.
#[inline(always)]
pub(crate) fn fast_sin_cos(x: f64) -> (f64, f64) {
    // x = quadrant * π/2 + r with |r| <= π/4; π/2 in two parts keeps r exact.
    const HALF_PI_HIGH: f64 = FRAC_PI_2;
    const HALF_PI_LOW: f64 = 6.123_233_995_736_766e-17;
    // Adding 1.5 * 2^52 rounds to the nearest integer, which then sits in
    // the low bits: shorter than a round trip through an integer register.
    const ROUNDER: f64 = 6_755_399_441_055_744.0;
    let rounded = x * std::f64::consts::FRAC_2_PI + ROUNDER;
    let quadrant = rounded.to_bits();
    let whole = rounded - ROUNDER;
    let r = (x - whole * HALF_PI_HIGH) - whole * HALF_PI_LOW;
    let r2 = r * r;
    let r4 = r2 * r2;
    // Taylor series to r^9 and r^10: the remainders are below 2e-9, sixty
    // times finer than an `f32` heading can be given.
    const S: [f64; 5] = [
        1.0,
        -1.0 / 6.0,
        1.0 / 120.0,
        -1.0 / 5_040.0,
        1.0 / 362_880.0,
    ];
    const C: [f64; 6] = [
        1.0,
        -1.0 / 2.0,
        1.0 / 24.0,
        -1.0 / 720.0,
        1.0 / 40_320.0,
        -1.0 / 3_628_800.0,
    ];
    let r8 = r4 * r4;
    let sin = r * ((S[0] + r2 * S[1]) + r4 * (S[2] + r2 * S[3]) + r8 * S[4]);
    let cos = (C[0] + r2 * C[1]) + r4 * (C[2] + r2 * C[3]) + r8 * (C[4] + r2 * C[5]);
    // The quadrant swaps and negates the two by bit masks: written as `if`s,
    // these compiled to branches, which the random headings of a crowd
    // mispredict half the time.
    let swap = 0u64.wrapping_sub(quadrant & 1);
    let (sin_bits, cos_bits) = (sin.to_bits(), cos.to_bits());
    let sin_negated = (quadrant & 2) << 62;
    let cos_negated = (quadrant.wrapping_add(1) & 2) << 62;
    (
        f64::from_bits(((sin_bits & !swap) | (cos_bits & swap)) ^ sin_negated),
        f64::from_bits(((cos_bits & !swap) | (sin_bits & swap)) ^ cos_negated),
    )
}

/// [`fast_atan2`] on four `f32` lanes at once, accurate to about `3e-7`:
/// enough to rank candidate paths and to build the winner's turns.
#[inline(always)]
pub(crate) fn fast_atan2_x4(y: Vec4, x: Vec4) -> Vec4 {
    // The first seven terms of the same series.
    const C: [f32; 7] = {
        let mut terms = [0.0; 7];
        let mut k = 0;
        while k < terms.len() {
            terms[k] = ATAN_SERIES[k] as f32;
            k += 1;
        }
        terms
    };
    let (ax, ay) = (x.abs(), y.abs());
    let small = ax.min(ay);
    let large = ax.max(ay);
    let upper = small.cmpgt(large * TAN_PI_8 as f32);
    let numerator = Vec4::select(upper, small - large, small);
    let denominator = Vec4::select(upper, small + large, large);
    let base = Vec4::select(upper, Vec4::splat(FRAC_PI_4 as f32), Vec4::ZERO);
    let ratio = Vec4::select(
        denominator.cmpgt(Vec4::ZERO),
        numerator / denominator,
        Vec4::ZERO,
    );
    // Taylor series to x^13 for |x| <= tan(π/8): the remainder is below
    // 1.2e-7, under `f32`'s own rounding of any angle above a quarter turn.
    let x2 = ratio * ratio;
    let x4 = x2 * x2;
    let series = ratio
        * ((C[0] + x2 * C[1]) + x4 * ((C[2] + x2 * C[3]) + x4 * ((C[4] + x2 * C[5]) + x4 * C[6])));
    let octant_angle = base + series;
    let quadrant_angle = Vec4::select(
        ay.cmpgt(ax),
        Vec4::splat(FRAC_PI_2 as f32) - octant_angle,
        octant_angle,
    );
    // By the sign bit, so that -0.0 counts as negative, as in `f64::atan2`.
    let negative_x = Vec4::ONE.copysign(x).cmplt(Vec4::ZERO);
    let angle = Vec4::select(
        negative_x,
        Vec4::splat(PI as f32) - quadrant_angle,
        quadrant_angle,
    );
    angle.copysign(y)
}

/// `acos(x)` for `x` clamped to `[-1, 1]`.
#[inline]
pub(crate) fn fast_acos(x: f64) -> f64 {
    let x = x.clamp(-1.0, 1.0);
    fast_atan2((1.0 - x * x).max(0.0).sqrt(), x)
}

/// A turn through a non-negative angle, with the cosine and sine of that
/// angle, so a path can be built by rotating vectors instead of calling
/// `sin_cos` again.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Turn {
    pub(crate) angle: f64,
    pub(crate) cos: f64,
    pub(crate) sin: f64,
}

impl Turn {
    pub(crate) const NONE: Turn = Turn {
        angle: 0.0,
        cos: 1.0,
        sin: 0.0,
    };

    /// A turn of `angle` in `direction` between the unit headings `from`
    /// and `to`, taking its cosine and sine from them instead of from `angle`.
    #[inline(always)]
    pub(crate) fn between(
        direction: crate::TurnDirection,
        angle: f64,
        from: DVec2,
        to: DVec2,
    ) -> Turn {
        if angle <= 0.0 {
            return Turn::NONE;
        }
        let sin = f64::from(direction.sign()) * from.perp_dot(to);
        Turn {
            angle,
            cos: from.dot(to),
            sin,
        }
    }

    /// The turn in `direction` from heading `from` to heading `to` (neither
    /// need be unit length), in `[0, 2π)` with snapping.
    #[inline(always)]
    pub(crate) fn towards(direction: crate::TurnDirection, from: DVec2, to: DVec2) -> Turn {
        let sign = f64::from(direction.sign());
        let sin = sign * from.perp_dot(to);
        let cos = from.dot(to);
        let angle = wrap_positive(fast_atan2(sin, cos));
        let norm = (cos * cos + sin * sin).sqrt();
        if angle == 0.0 || norm == 0.0 {
            Turn::NONE
        } else {
            Turn {
                angle,
                cos: cos / norm,
                sin: sin / norm,
            }
        }
    }

    /// A turn through `angle` radians, already in `[0, 2π)`.
    #[inline]
    pub(crate) fn from_angle(angle: f64) -> Turn {
        let (sin, cos) = fast_sin_cos(angle);
        Turn { angle, cos, sin }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_atan2_matches_std_everywhere() {
        let mut worst: f64 = 0.0;
        for i in 0..20_000 {
            let a = i as f64 * TAU / 20_000.0;
            for scale in [1e-30, 1e-3, 1.0, 7.5, 1e20] {
                let (y, x) = (a.sin() * scale, a.cos() * scale);
                worst = worst.max((fast_atan2(y, x) - y.atan2(x)).abs());
            }
        }
        assert!(worst < 3e-8, "worst error {worst}");
        assert_eq!(fast_atan2(0.0, 0.0), 0.0);
        assert_eq!(fast_atan2(0.0, -1.0), PI);
        assert_eq!(fast_atan2(1.0, 0.0), FRAC_PI_2);
    }

    #[test]
    fn fast_sin_cos_matches_std() {
        let mut worst: f64 = 0.0;
        for i in 0..=200_000 {
            let x = i as f64 * (TAU + 0.5) / 200_000.0 - 0.25;
            let (sin, cos) = fast_sin_cos(x);
            worst = worst.max((sin - x.sin()).abs()).max((cos - x.cos()).abs());
        }
        assert!(worst < 2e-9, "worst error {worst}");
        assert_eq!(fast_sin_cos(0.0), (0.0, 1.0));
    }

    #[test]
    fn fast_atan2_x4_matches_std_everywhere() {
        let mut worst: f64 = 0.0;
        for i in 0..20_000 {
            let a = i as f64 * TAU / 20_000.0;
            for scale in [1e-30, 1e-3, 1.0, 7.5, 1e20] {
                let (y, x) = ((a.sin() * scale) as f32, (a.cos() * scale) as f32);
                let lanes = fast_atan2_x4(Vec4::new(y, -y, 0.0, y), Vec4::new(x, x, x, -x));
                for (lane, (y, x)) in [(y, x), (-y, x), (0.0, x), (y, -x)].into_iter().enumerate() {
                    let exact = f64::from(y).atan2(f64::from(x));
                    worst = worst.max((f64::from(lanes[lane]) - exact).abs());
                }
            }
        }
        assert!(worst < 4e-7, "worst error {worst}");
        let special = fast_atan2_x4(
            Vec4::new(0.0, 0.0, 1.0, -1.0),
            Vec4::new(0.0, -1.0, 0.0, 0.0),
        );
        assert_eq!(
            special.to_array(),
            [0.0, PI as f32, FRAC_PI_2 as f32, -FRAC_PI_2 as f32]
        );
    }

    #[test]
    fn fast_acos_matches_std() {
        for i in 0..=2000 {
            let x = -1.0 + i as f64 / 1000.0;
            assert!((fast_acos(x) - x.acos()).abs() < 3e-8, "{x}");
        }
        assert_eq!(fast_acos(2.0), 0.0);
    }

    #[test]
    fn wrapping_snaps_near_full_turns_to_zero() {
        assert_eq!(wrap_positive(-1e-7), 0.0);
        assert_eq!(wrap_positive(TAU), 0.0);
        assert_eq!(wrap_positive(TAU - 1e-9), 0.0);
        assert!((wrap_positive(-1.0) - (TAU - 1.0)).abs() < 1e-12);
        assert!((wrap_positive(3.0 * TAU + 1.0) - 1.0).abs() < 1e-12);
        assert_eq!(normalize(-1e-20), 0.0);
        assert!((normalize(1e6) - 1e6f64.rem_euclid(TAU)).abs() < 1e-9);
        assert!((wrap_signed(3.0 * std::f32::consts::PI) - std::f32::consts::PI).abs() < 1e-5);
        assert!((wrap_signed(-0.5) + 0.5).abs() < 1e-7);
    }
}
