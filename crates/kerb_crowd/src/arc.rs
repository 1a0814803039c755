//! Arcs a unit drives: where a speed and a curvature take it.

use glam::Vec2;
use kerb_turning::heading_vector;

use crate::Choice;

/// Where an arc of `curvature` driven at `speed` from the heading whose
/// unit vector is `facing` is after `time`, relative to its start.
#[inline]
pub(crate) fn arc_offset(speed: f32, curvature: f32, facing: Vec2, time: f32) -> Vec2 {
    facing.rotate(local_offset(speed * time, curvature))
}

/// Turns, in radians, below which an arc's end comes from the series: the
/// first term left out is below 1e-8 of the sum.
const SERIES_LIMIT: f32 = 0.5;

/// Where `distance` along an arc of `curvature` ends, in the frame of its
/// start (x ahead, y to the left).
#[inline]
pub(crate) fn local_offset(distance: f32, curvature: f32) -> Vec2 {
    let turned = curvature * distance;
    if turned.abs() < SERIES_LIMIT {
        // sin(x) / x and (1 - cos(x)) / x by their series, exact to f32
        // here, and cheaper than a sine and cosine for the short arcs of
        // a tick.
        let x2 = turned * turned;
        let along = 1.0 - x2 / 6.0 * (1.0 - x2 / 20.0 * (1.0 - x2 / 42.0));
        let across = turned / 2.0 * (1.0 - x2 / 12.0 * (1.0 - x2 / 30.0 * (1.0 - x2 / 56.0)));
        Vec2::new(distance * along, distance * across)
    } else {
        let (sin, cos) = turned.sin_cos();
        Vec2::new(sin / curvature, (1.0 - cos) / curvature)
    }
}

/// Drives `choice` for `dt` from `position` and `heading` along the exact
/// arc: the new position and heading. Where the values overflow (a speed
/// of 1e30 on a turning radius of nearly zero), the unit stays where it is.
pub fn drive(position: Vec2, heading: f32, choice: Choice, dt: f32) -> (Vec2, f32) {
    let moved = arc_offset(choice.speed, choice.curvature, heading_vector(heading), dt);
    let to = (
        position + moved,
        heading + choice.curvature * choice.speed * dt,
    );
    if to.0.is_finite() && to.1.is_finite() {
        to
    } else {
        (position, heading)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A choice whose turn overflows leaves the unit where it is.
    #[test]
    fn driving_an_overflowing_choice_stays_put() {
        let choice = Choice {
            speed: 5e29,
            curvature: 1.0 / f32::MIN_POSITIVE,
            avoiding: true,
        };
        let start = Vec2::new(3.0, 2.0);
        assert_eq!(drive(start, 0.5, choice, 1.0 / 60.0), (start, 0.5));
    }

    /// The series and the sine and cosine agree on both sides of the
    /// limit, and the series is exact at zero.
    #[test]
    fn the_series_matches_the_closed_form() {
        for step in 0..=1000 {
            let turned = -0.6 + 1.2 * step as f64 / 1000.0;
            let (distance, curvature) = (2.0f64, turned / 2.0);
            let ours = local_offset(distance as f32, curvature as f32);
            let exact = if turned == 0.0 {
                (distance, 0.0)
            } else {
                (turned.sin() / curvature, (1.0 - turned.cos()) / curvature)
            };
            assert!((f64::from(ours.x) - exact.0).abs() < 1e-6, "{turned}");
            assert!((f64::from(ours.y) - exact.1).abs() < 1e-6, "{turned}");
        }
        assert_eq!(local_offset(3.0, 0.0), Vec2::new(3.0, 0.0));
    }
}
