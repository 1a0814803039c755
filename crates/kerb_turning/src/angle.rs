//! Angle arithmetic shared by the planners.
//!
//! The planners work in `f64` so that rounding never decides between a short
//! turn and a needless full circle, and use a polynomial `atan2` because the
//! platform one dominates the cost of planning.

use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, PI, TAU};
use std::hint::select_unpredictable;

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
        angle
    } else {
        normalize_far(angle)
    }
}

/// [`normalize`] for an angle outside `[0, 2π)`: out of line, so that the
/// planners do not save their registers around a call they rarely make.
#[cold]
#[inline(never)]
fn normalize_far(angle: f64) -> f64 {
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

/// The arctangent's Taylor series, `(-1)^k / (2k + 1)`, as constants (a
/// division by a literal stays a division): [`fast_atan2_x4`] takes its
/// first seven terms.
const ATAN_SERIES: [f64; 7] = [
    1.0,
    -1.0 / 3.0,
    1.0 / 5.0,
    -1.0 / 7.0,
    1.0 / 9.0,
    -1.0 / 11.0,
    1.0 / 13.0,
];

/// `atan(x)` for `|x| <= tan(π/8)`, as `x + x³ P(x²)` with `P` the cubic
/// that minimises the largest error over that range (by the Remez
/// exchange): the error is below `5e-9`, a tenth of an `f32` ulp of any
/// angle we store. The Taylor series needs nine terms to come near.
#[inline(always)]
fn atan_small(x: f64) -> f64 {
    const P: [f64; 4] = [
        -0.333_327_562_499_175_17,
        0.199_718_643_237_223_83,
        -0.138_242_962_536_269_1,
        0.079_020_922_438_485_42,
    ];
    let x2 = x * x;
    x + x * x2 * cubic(x2, P)
}

/// `c₀ + c₁t + c₂t² + c₃t³` by Estrin's scheme: the terms pair up so that
/// the dependency chain is short.
#[inline(always)]
fn cubic(t: f64, [c0, c1, c2, c3]: [f64; 4]) -> f64 {
    (c0 + t * c1) + (t * t) * (c2 + t * c3)
}

/// Four-quadrant arctangent with the same conventions as [`f64::atan2`]
/// (`fast_atan2(0, 0) == 0`), accurate to about `5e-9`.
///
/// Written without data-dependent branches: the planners feed it angles in
/// random octants, where each mispredicted branch costs more than the
/// arithmetic. Every choice is a comparison feeding a mask or a table index.
#[inline(always)]
pub(crate) fn fast_atan2(y: f64, x: f64) -> f64 {
    let (ax, ay) = (x.abs(), y.abs());
    // Comparisons rather than `f64::min` and `max`, whose NaN handling
    // costs a dozen instructions; a NaN input gives a NaN out either way.
    let steep = ay > ax;
    let small = if steep { ax } else { ay };
    let large = if steep { ay } else { ax };
    // Reduce atan(small / large) in [0, π/4] to within π/8 of 0 or π/4:
    // above tan(π/8), atan(s / l) = π/4 + atan((s - l) / (s + l)).
    // Whether it is above comes from a sign bit and weighs by a product
    // with 0 or 1, which is exact: from a comparison, every form of this
    // select (masks, `select_unpredictable`, a bool as a float) compiled to
    // a branch, as SSE2 has no blend, and random octants mispredict it.
    let upper = (TAN_PI_8 * large - small).to_bits() >> 63;
    let upper_weight = upper as f64;
    let numerator = small - large * upper_weight;
    let denominator = large + small * upper_weight;
    // Only 0 / 0 needs the floor, and then the ratio is 0 as it should be.
    let denominator = if denominator > f64::MIN_POSITIVE {
        denominator
    } else {
        f64::MIN_POSITIVE
    };
    let series = atan_small(numerator / denominator);
    // The octant, the swap of x and y and the sign of x fold into one
    // offset and one sign: the angle is offset ± series, then y's sign.
    // By the sign bit, so that -0.0 counts as negative, as in `f64::atan2`.
    let negative_x = x.is_sign_negative();
    let index = upper as usize | usize::from(steep) << 1 | usize::from(negative_x) << 2;
    let flip = u64::from(steep ^ negative_x) << 63;
    (ATAN2_OFFSETS[index] + f64::from_bits(series.to_bits() ^ flip)).copysign(y)
}

/// The counter-clockwise angle from +x to `(x, y)` in `[0, 2π)`, snapped
/// as by [`wrap_positive`]: [`fast_atan2`] wrapped by one masked add, since
/// `wrap_positive`'s loop is a branch that random turns mispredict.
#[inline(always)]
pub(crate) fn positive_atan2(y: f64, x: f64) -> f64 {
    let angle = fast_atan2(y, x);
    let angle = angle + select_unpredictable(angle < 0.0, TAU, 0.0);
    // Written so that a NaN stays NaN.
    if angle > TAU - SNAP { 0.0 } else { angle }
}

/// [`fast_atan2`]'s offsets by `upper | steep << 1 | negative_x << 2`: the
/// octant's base (0 or π/4), reflected about π/4 where |y| > |x| and about
/// π/2 where x < 0.
const ATAN2_OFFSETS: [f64; 8] = {
    let mut offsets = [0.0; 8];
    let mut index = 0;
    while index < 8 {
        let base = if index & 1 == 1 { FRAC_PI_4 } else { 0.0 };
        let quadrant = if index & 2 == 2 {
            FRAC_PI_2 - base
        } else {
            base
        };
        offsets[index] = if index & 4 == 4 {
            PI - quadrant
        } else {
            quadrant
        };
        index += 1;
    }
    offsets
};

/// `(sin x, cos x)` for `x` in `[0, 2π)` (and a little beyond), to about
/// `2e-9`: the platform `sin_cos` is a call with branches on the argument's
/// size, and planning needs one or two per query.
#[inline(always)]
pub(crate) fn fast_sin_cos(x: f64) -> (f64, f64) {
    // x = quadrant * π/2 + r with |r| <= π/4. For x within a turn, the
    // rounding of π/2 moves r by under 3e-16, far below the polynomials'
    // error, so π/2 need not be split into two parts.
    // Adding 1.5 * 2^52 rounds to the nearest integer, which then sits in
    // the low bits: shorter than a round trip through an integer register.
    const ROUNDER: f64 = 6_755_399_441_055_744.0;
    let rounded = x * std::f64::consts::FRAC_2_PI + ROUNDER;
    let quadrant = rounded.to_bits();
    let whole = rounded - ROUNDER;
    let r = x - whole * FRAC_PI_2;
    // `r + r³ S(r²)` and `1 + r² C(r²)`, with `S` and `C` the polynomials
    // that minimise the largest error for |r| <= π/4 (by the Remez
    // exchange): below 2e-9 and 6e-11, sixty times finer than an `f32`
    // heading can be given, two terms shorter than the Taylor series, and
    // exact at zero.
    const S: [f64; 3] = [
        -0.166_666_506_597_34,
        0.008_331_978_124_209_29,
        -0.000_194_955_676_735_505_84,
    ];
    const C: [f64; 4] = [
        -0.499_999_997_248_889_44,
        0.041_666_623_298_435_35,
        -0.001_388_676_294_861_983_5,
        0.000_024_390_369_103_943_006,
    ];
    let r2 = r * r;
    let sin = r + r * r2 * ((S[0] + r2 * S[1]) + (r2 * r2) * S[2]);
    let cos = 1.0 + r2 * cubic(r2, C);
    // Rotating by the quadrant's quarter turns, whose cosine and sine are
    // 0 or ±1, is exact and needs no branch: written as `if`s, the swaps
    // compiled to branches, which a crowd's random headings mispredict
    // half the time, and as bit masks they took two dozen instructions.
    const QUARTER_TURNS: [(f64, f64); 4] = [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)];
    let (turn_cos, turn_sin) = QUARTER_TURNS[(quadrant & 3) as usize];
    (
        sin * turn_cos + cos * turn_sin,
        cos * turn_cos - sin * turn_sin,
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

/// Angles from [`fast_atan2_x4`], in `(-π, π]`, wrapped into `[0, 2π)`.
#[inline(always)]
pub(crate) fn positive_turn(angle: Vec4) -> Vec4 {
    Vec4::select(angle.cmplt(Vec4::ZERO), angle + TAU as f32, angle)
}

/// [`positive_atan2`] on four `f32` lanes: [`fast_atan2_x4`] wrapped into
/// `[0, 2π)`, with angles within [`SNAP`] of a full turn snapped to zero.
#[inline(always)]
pub(crate) fn positive_atan2_x4(y: Vec4, x: Vec4) -> Vec4 {
    let angle = positive_turn(fast_atan2_x4(y, x));
    Vec4::select(
        angle.cmpgt(Vec4::splat((TAU - SNAP) as f32)),
        Vec4::ZERO,
        angle,
    )
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
        let angle = positive_atan2(sin, cos);
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
        assert!(worst < 6e-9, "worst error {worst}");
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
            assert!((fast_acos(x) - x.acos()).abs() < 6e-9, "{x}");
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
