//! Angle arithmetic in `f32`, for pose to point's `f32` build: goals clear
//! of the edges of the turning circles, where `f32` rounding cannot decide
//! between a short turn and a full circle and the path is stored in `f32`
//! anyway. The planners' `f64` arithmetic is in [`super::f64_math`].

use std::f32::consts::{FRAC_PI_2, PI, TAU};

use crate::angle::sector_sin_cos;

/// `(sin x, cos x)` for `x` in `[0, 2π]`, to within `1.5e-7`. Beyond that
/// range either way, up to `|x|` of about 6,400, where the split into
/// sectors stays exact, the error grows with `x` only as `x`'s own
/// rounding does.
///
/// As [`crate::angle::fast_sin_cos`], which this follows: the nearest of
/// [`SECTORS`] sectors from a table, and short series for the rest. In
/// `f32` the heading needs no conversion to `f64` and back at the head of
/// every plan.
#[inline(always)]
pub(crate) fn sin_cos(x: f32) -> (f32, f32) {
    // Adding 1.5 × 2²³ rounds to the nearest integer, which then sits in
    // the low bits, as two's complement modulo 2²² for a negative one.
    const ROUNDER: f32 = 12_582_912.0;
    let rounded = x * (SECTORS as f32 / TAU) + ROUNDER;
    let sector = rounded.to_bits() as usize % SECTORS;
    // x less the sector's start, in two parts (Cody and Waite): the first
    // product is exact, so the rest keeps its own precision rather than
    // that of x.
    let whole = rounded - ROUNDER;
    let rest = (x - whole * STEP_HIGH) - whole * STEP_LOW;
    // |rest| is at most π / SECTORS: the first terms left out are below
    // 4e-8 for the sine and 6e-11 for the cosine.
    let rest_sin = rest;
    let rest_cos = 1.0 - rest * rest * 0.5;
    let (sector_sin, sector_cos) = SECTOR_SIN_COS_F32[sector];
    (
        sector_sin * rest_cos + sector_cos * rest_sin,
        sector_cos * rest_cos - sector_sin * rest_sin,
    )
}

/// How many equal sectors [`sin_cos`]'s table splits a turn into. At 512,
/// a sector is narrow enough for the sine of the rest to be the rest
/// itself, which saves a multiply-add on every plan. The table
/// is then 4 KiB, 64 cache lines: a plan reads one, as it would from a
/// smaller table, and planning in bulk keeps them all in the first-level
/// cache.
const SECTORS: usize = 512;

/// A sector's width, `2π / SECTORS`, to five significant bits, so that its
/// product with a whole number of sectors below 2¹⁹ (a heading up to about
/// 6,400 rad) is exact.
const STEP_HIGH: f32 = 25.0 / 2048.0;
/// The rest of the sector's width.
const STEP_LOW: f32 = (std::f64::consts::TAU / SECTORS as f64 - STEP_HIGH as f64) as f32;

/// The sine and cosine at each sector's start, rounded to `f32`.
const SECTOR_SIN_COS_F32: [(f32, f32); SECTORS] = {
    let wide: [(f64, f64); SECTORS] = sector_sin_cos();
    let mut table = [(0.0, 0.0); SECTORS];
    let mut sector = 0;
    while sector < SECTORS {
        let (sin, cos) = wide[sector];
        table[sector] = (sin as f32, cos as f32);
        sector += 1;
    }
    table
};

/// `atan2(y, x)` for `y ≥ 0`, in `[0, π]`, to about `3e-7` rad (an ulp at π);
/// `atan2_upper(0, 0) == 0`. The upper half plane is all a half angle
/// needs, and it spares the sign handling of a full arctangent.
///
/// The octant is a select, as in [`crate::angle::fast_atan2`]. The side of
/// the y axis is left to the compiler, which branches: in the planner `x`
/// is known long before the ratio is, and a select measured slower.
#[inline(always)]
pub(crate) fn atan2_upper(y: f32, x: f32) -> f32 {
    let ax = x.abs();
    let steep = y > ax;
    let (small, large) = if steep { (ax, y) } else { (y, ax) };
    // Only 0 / 0 needs the floor, and then the ratio is 0 as it should be.
    let large = if large > f32::MIN_POSITIVE {
        large
    } else {
        f32::MIN_POSITIVE
    };
    let ratio = small / large;
    let octant = ratio + ratio * ATAN_SERIES.evaluate(ratio * ratio);
    let quadrant = if steep { FRAC_PI_2 - octant } else { octant };
    if x.is_sign_negative() {
        PI - quadrant
    } else {
        quadrant
    }
}

/// `(atan(t) - t) / t` over `t` in `[0, 1]`, as `t² Q(t²)`, `Q` of degree 6
/// fitted for the least largest error (Lawson's iteration on 4,000
/// Chebyshev points): `5e-8` in exact arithmetic, `1e-7` evaluated in `f32`.
const ATAN_SERIES: Series = Series([
    -0.333_316_6,
    0.199_627_04,
    -0.139_765_81,
    0.097_942_32,
    -0.057_773_554,
    0.023_040_109,
    -0.004_355_398,
]);

/// `u Q(u)` for a polynomial `Q` of degree 6.
struct Series([f32; 7]);

impl Series {
    /// `u Q(u)`, by Estrin's scheme: the terms pair up, so that the chain of
    /// dependent steps is short.
    #[inline(always)]
    fn evaluate(&self, u: f32) -> f32 {
        let q = &self.0;
        let u2 = u * u;
        let u4 = u2 * u2;
        let low = (q[0] + u * q[1]) + u2 * (q[2] + u * q[3]);
        let high = (q[4] + u * q[5]) + u2 * q[6];
        u * (low + u4 * high)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sin_cos_matches_std_over_a_turn_and_beyond() {
        let mut worst: f64 = 0.0;
        for i in 0..=400_000 {
            let x = i as f32 * (TAU / 400_000.0);
            let (sin, cos) = sin_cos(x);
            let exact = f64::from(x);
            worst = worst
                .max((f64::from(sin) - exact.sin()).abs())
                .max((f64::from(cos) - exact.cos()).abs());
        }
        assert!(worst < 1.5e-7, "worst error over [0, 2π]: {worst}");
        assert_eq!(sin_cos(0.0), (0.0, 1.0));
        // Outside the turn, as good as the argument's own rounding.
        for x in [-3.0f32, -0.1, 7.0, -40.0, 100.0, 1000.0, -4321.0, 6400.0] {
            let (sin, cos) = sin_cos(x);
            let exact = f64::from(x);
            let ulp = f64::from(x.abs() * f32::EPSILON);
            assert!(
                (f64::from(sin) - exact.sin()).abs() < 3e-7 + 2.0 * ulp,
                "{x}"
            );
            assert!(
                (f64::from(cos) - exact.cos()).abs() < 3e-7 + 2.0 * ulp,
                "{x}"
            );
        }
    }

    #[test]
    fn atan2_upper_matches_std_over_the_upper_half() {
        let mut worst: f64 = 0.0;
        for i in 0..=100_000 {
            let angle = f64::from(i) * std::f64::consts::PI / 100_000.0;
            for scale in [1e-30, 1e-3, 1.0, 7.5, 1e20] {
                let (y, x) = ((angle.sin() * scale) as f32, (angle.cos() * scale) as f32);
                let exact = f64::from(y.max(0.0)).atan2(f64::from(x));
                worst = worst.max((f64::from(atan2_upper(y.max(0.0), x)) - exact).abs());
            }
        }
        assert!(worst < 3.5e-7, "worst error {worst}");
        assert_eq!(atan2_upper(0.0, 0.0), 0.0);
        assert_eq!(atan2_upper(0.0, 1.0), 0.0);
        assert_eq!(atan2_upper(0.0, -1.0), PI);
        assert_eq!(atan2_upper(1.0, 0.0), FRAC_PI_2);
    }
}
