//! Angle arithmetic for the planners: the `f64` helpers every planner
//! uses, and the `f32` ones of pose to point's fast build, side by side.

pub(crate) mod f32_math;
mod f64_math;

pub use f64_math::wrap_signed;
pub(crate) use f64_math::*;

use glam::Vec2;

/// Headings further than this from zero, in radians, go to the platform's
/// sine and cosine: [`f32_math::sin_cos`] is exact only up to about 6,400.
const FAR_HEADING: f32 = 6_000.0;

/// The unit vector of `heading` (radians counter-clockwise from +x), to
/// within `3e-7` for headings up to a thousand turns either way, and as
/// the platform's `sin_cos` beyond: a table and a short series, inlined,
/// where avoidance needs one for every neighbour of every unit each tick.
/// Not finite for a heading that is not.
#[inline]
pub fn heading_vector(heading: f32) -> Vec2 {
    if heading.abs() <= FAR_HEADING {
        let (sin, cos) = f32_math::sin_cos(heading);
        Vec2::new(cos, sin)
    } else {
        Vec2::from_angle(heading)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heading_vectors_match_std_near_and_far() {
        let mut worst: f64 = 0.0;
        for i in -200_000..=200_000 {
            for scale in [1e-3f32, 1.0, 30.0] {
                let heading = i as f32 * scale * 1e-3;
                let ours = heading_vector(heading);
                let exact = f64::from(heading);
                let ulp = f64::from(heading.abs() * f32::EPSILON);
                let error = (f64::from(ours.x) - exact.cos())
                    .abs()
                    .max((f64::from(ours.y) - exact.sin()).abs());
                worst = worst.max(error - 2.0 * ulp);
            }
        }
        assert!(worst < 3e-7, "worst error beyond rounding: {worst}");
        // Past the table's range, the platform's own.
        for heading in [-1e5f32, 6_001.0, 1e9] {
            assert_eq!(heading_vector(heading), Vec2::from_angle(heading));
        }
        assert!(!heading_vector(f32::NAN).is_finite());
        assert!(!heading_vector(f32::INFINITY).is_finite());
    }
}
