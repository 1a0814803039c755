//! Arcs a unit drives: where a speed and a curvature take it.

use glam::Vec2;

use crate::Choice;

/// Where an arc of `curvature` driven at `speed` from heading `heading`
/// is after `time`, relative to its start.
#[inline]
pub(crate) fn arc_offset(speed: f32, curvature: f32, heading: f32, time: f32) -> Vec2 {
    Vec2::from_angle(heading).rotate(local_offset(speed * time, curvature))
}

/// Where `distance` along an arc of `curvature` ends, in the frame of its
/// start (x ahead, y to the left).
#[inline]
pub(crate) fn local_offset(distance: f32, curvature: f32) -> Vec2 {
    let turned = curvature * distance;
    if turned.abs() < 1e-4 {
        Vec2::new(distance, 0.5 * turned * distance)
    } else {
        let (sin, cos) = turned.sin_cos();
        Vec2::new(sin / curvature, (1.0 - cos) / curvature)
    }
}

/// Drives `choice` for `dt` from `position` and `heading` along the exact
/// arc: the new position and heading.
pub fn drive(position: Vec2, heading: f32, choice: Choice, dt: f32) -> (Vec2, f32) {
    let moved = arc_offset(choice.speed, choice.curvature, heading, dt);
    (
        position + moved,
        heading + choice.curvature * choice.speed * dt,
    )
}
