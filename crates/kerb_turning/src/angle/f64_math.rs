//! Angle arithmetic in `f64`, shared by the planners.
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

/// A start heading as the paths carry it: as given within a turn either
/// way, so that a path's angles continue from the heading the unit has
/// (a game that keeps headings in `(-π, π]` sees no jump of a turn at the
/// start); wrapped into `[0, 2π)` beyond, where the heading's own rounding
/// would grow with its size.
///
/// The test is in `f32`, as in the `f32` build, against `f32`'s turn, which
/// is a little over 2π: a heading of `-std::f32::consts::TAU` is as given
/// in both builds.
#[inline(always)]
pub(crate) fn within_a_turn(heading: f32) -> f64 {
    if is_within_a_turn(heading) {
        f64::from(heading)
    } else {
        normalize_far(f64::from(heading))
    }
}

/// Whether [`within_a_turn`] takes `heading` as given.
#[inline(always)]
pub(crate) fn is_within_a_turn(heading: f32) -> bool {
    heading.abs() <= std::f32::consts::TAU
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

/// `atan(t)` for `t` in `[0, 1]`, as `t + t³ Q(t²)` with `Q` the
/// polynomial of degree 8 that minimises the largest error over that range
/// (by the Remez exchange): below `1.2e-9`, a hundredth of an `f32` ulp at
/// one radian. Over the whole of `[0, 1]`, so that no further
/// reduction (a comparison, a select and a second ratio) sits between the
/// division and the series; Estrin's scheme keeps the longer series short in
/// time.
#[inline(always)]
fn atan_unit(t: f64) -> f64 {
    let u = t * t;
    t + (t * u) * atan_series(u)
}

/// [`atan_unit`]'s `Q(u)`.
#[inline(always)]
fn atan_series(u: f64) -> f64 {
    const Q: [f64; 9] = [
        -0.333_332_628_651_760_65,
        0.199_976_199_654_654_94,
        -0.142_554_623_868_181_64,
        0.109_102_752_535_748_2,
        -0.082_897_505_978_950_97,
        0.056_127_195_274_201_69,
        -0.029_446_366_991_476_38,
        0.010_025_555_936_554_93,
        -0.001_602_415_630_075_159_7,
    ];
    let u2 = u * u;
    let u4 = u2 * u2;
    let low = cubic(u, [Q[0], Q[1], Q[2], Q[3]]);
    let high = cubic(u, [Q[4], Q[5], Q[6], Q[7]]) + u4 * Q[8];
    low + u4 * high
}

/// The smaller of two non-negative values over the larger, in `[0, 1]`.
/// By comparisons rather than `f64::min` and `max`, whose NaN handling is
/// extra work here; a NaN input gives a NaN out either way.
#[inline(always)]
fn smaller_over_larger(a: f64, b: f64) -> f64 {
    let (small, large) = if a > b { (b, a) } else { (a, b) };
    // Only 0 / 0 needs the floor, and then the ratio is 0 as it should be.
    let large = if large > f64::MIN_POSITIVE {
        large
    } else {
        f64::MIN_POSITIVE
    };
    small / large
}

/// `c₀ + c₁t + c₂t² + c₃t³` by Estrin's scheme: the terms pair up so that
/// the dependency chain is short.
#[inline(always)]
fn cubic(t: f64, [c0, c1, c2, c3]: [f64; 4]) -> f64 {
    (c0 + t * c1) + (t * t) * (c2 + t * c3)
}

/// Four-quadrant arctangent with the same conventions as [`f64::atan2`]
/// (`fast_atan2(0, 0) == 0`), accurate to about `1.2e-9`.
///
/// Written without data-dependent branches: the planners feed it angles in
/// random octants, where each mispredicted branch costs more than the
/// arithmetic. Every choice is a comparison feeding a mask or a table index.
#[inline(always)]
pub(crate) fn fast_atan2(y: f64, x: f64) -> f64 {
    let (ax, ay) = (x.abs(), y.abs());
    let steep = ay > ax;
    let series = atan_unit(smaller_over_larger(ay, ax));
    // The swap of x and y and the sign of x fold into one offset and one
    // sign: the angle is offset ± series, then y's sign. By the sign bit,
    // so that -0.0 counts as negative, as in `f64::atan2`.
    let negative_x = x.is_sign_negative();
    let index = usize::from(steep) | usize::from(negative_x) << 1;
    let flip = u64::from(steep ^ negative_x) << 63;
    (ATAN2_OFFSETS[index] + f64::from_bits(series.to_bits() ^ flip)).copysign(y)
}

/// The counter-clockwise angle from +x to `(x, y)` in `[0, 2π)`, snapped:
/// [`fast_atan2`] wrapped by [`positive_angle`].
#[inline(always)]
pub(crate) fn positive_atan2(y: f64, x: f64) -> f64 {
    positive_angle(fast_atan2(y, x))
}

/// An angle in `(-π, 2π)` wrapped into `[0, 2π)` by one masked add, and
/// snapped as by [`wrap_positive`], whose loop is a branch that random
/// turns mispredict.
#[inline(always)]
pub(crate) fn positive_angle(angle: f64) -> f64 {
    let angle = angle + select_unpredictable(angle < 0.0, TAU, 0.0);
    // Written so that a NaN stays NaN.
    if angle > TAU - SNAP { 0.0 } else { angle }
}

/// [`fast_atan2`]'s offsets by `steep | negative_x << 1`: the angle of
/// the axis the series is measured from, +x, +y, -x or +y again.
const ATAN2_OFFSETS: [f64; 4] = [0.0, FRAC_PI_2, PI, FRAC_PI_2];

/// `(sin x, cos x)` for `x` within a turn either way (and a few beyond), to
/// about `3e-13`: the platform `sin_cos` is a call with branches on the
/// argument's size, and planning needs one or two per query.
#[inline(always)]
pub(crate) fn fast_sin_cos(x: f64) -> (f64, f64) {
    // x = (sector + f) * 2π / SECTORS with |f| <= 1/2: the table holds the
    // sector's sine and cosine, and short series give those of the rest.
    // Short, because the rest is small: the step from the heading to the
    // unit's frame sits at the head of every plan, so it is kept brief.
    // Adding 1.5 * 2^52 rounds to the nearest integer, which then sits in
    // the low bits: shorter than a round trip through an integer register.
    const ROUNDER: f64 = 6_755_399_441_055_744.0;
    let t = x * (SECTORS as f64 / TAU);
    let rounded = t + ROUNDER;
    let sector = rounded.to_bits() as usize % SECTORS;
    let f = t - (rounded - ROUNDER);
    // Taylor series in `f` with the sector's width folded in; the first
    // terms left out are below 3e-13.
    const STEP: f64 = TAU / SECTORS as f64;
    const S: [f64; 3] = [
        STEP,
        -STEP * STEP * STEP / 6.0,
        STEP * STEP * STEP * STEP * STEP / 120.0,
    ];
    const C: [f64; 2] = [-STEP * STEP / 2.0, STEP * STEP * STEP * STEP / 24.0];
    let f2 = f * f;
    let rest_sin = f * (S[0] + f2 * (S[1] + f2 * S[2]));
    let rest_cos = 1.0 + f2 * (C[0] + f2 * C[1]);
    let (sector_sin, sector_cos) = SECTOR_SIN_COS[sector];
    (
        sector_sin * rest_cos + sector_cos * rest_sin,
        sector_cos * rest_cos - sector_sin * rest_sin,
    )
}

/// How many equal sectors [`fast_sin_cos`]'s table splits a turn into.
const SECTORS: usize = 128;

/// The sine and cosine at the start of each of [`SECTORS`] sectors.
const SECTOR_SIN_COS: [(f64, f64); SECTORS] = sector_sin_cos();

/// The sine and cosine at the start of each of `N` equal sectors of a turn
/// (`N` a multiple of 4), by Taylor series in a constant: the sector
/// within its quarter turn, then the quarter turn by exact swaps and signs,
/// so that 0 is exactly (0, 1).
pub(crate) const fn sector_sin_cos<const N: usize>() -> [(f64, f64); N] {
    let quarter = N / 4;
    let mut table = [(0.0, 0.0); N];
    let mut sector = 0;
    while sector < N {
        let angle = (sector % quarter) as f64 * (TAU / N as f64);
        // Forty terms of each series: for angles below π/2 the last is
        // far below an ulp.
        let (mut sin, mut cos) = (0.0, 0.0);
        let mut term = 1.0;
        let mut power = 0;
        while power < 40 {
            match power % 4 {
                0 => cos += term,
                1 => sin += term,
                2 => cos -= term,
                _ => sin -= term,
            }
            power += 1;
            term *= angle / power as f64;
        }
        table[sector] = match sector / quarter {
            0 => (sin, cos),
            1 => (cos, -sin),
            2 => (-sin, -cos),
            _ => (-cos, sin),
        };
        sector += 1;
    }
    table
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
        assert!(worst < 1.5e-9, "worst error {worst}");
        assert_eq!(fast_atan2(0.0, 0.0), 0.0);
        assert_eq!(fast_atan2(0.0, -1.0), PI);
        assert_eq!(fast_atan2(1.0, 0.0), FRAC_PI_2);
    }

    #[test]
    fn fast_sin_cos_matches_std() {
        let mut worst: f64 = 0.0;
        for i in 0..=200_000 {
            // Within a turn either way, as paths carry their headings.
            let x = i as f64 * (2.0 * TAU + 0.5) / 200_000.0 - TAU - 0.25;
            let (sin, cos) = fast_sin_cos(x);
            worst = worst.max((sin - x.sin()).abs()).max((cos - x.cos()).abs());
        }
        assert!(worst < 5e-13, "worst error {worst}");
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
