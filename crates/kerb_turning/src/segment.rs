//! The two pieces every turning path is made of.

use glam::Vec2;
use std::f32::consts::FRAC_PI_2;

use crate::{Pose, TurnDirection};

/// One piece of a turning path: an arc at the unit's radius, or a straight line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Segment {
    /// A circular arc, travelled from `start_angle` through `sweep` radians.
    Arc {
        /// Centre of the turning circle.
        center: Vec2,
        /// Radius of the turning circle: always the unit's turning radius.
        radius: f32,
        /// Angle of the arc's first point as seen from `center`.
        start_angle: f32,
        /// Signed angle covered: positive turns left (counter-clockwise). A
        /// zero sweep keeps its sign (`-0.0` for right) so the heading is right.
        sweep: f32,
    },
    /// A straight line.
    Line {
        /// First point.
        start: Vec2,
        /// Last point. Kept, not worked out from a direction, so that a
        /// pose sampled near the end is as exact as one near the start: a
        /// unit replanning a hair before its goal sees the goal dead ahead,
        /// not a rounding error to one side (see [`Segment::sample`]).
        end: Vec2,
        /// Length in world units, never negative.
        length: f32,
        /// The heading along `direction`, in radians: kept so that sampling,
        /// which units do every tick, needs no arctangent. [`Segment::line`]
        /// fills it in; a path builder passes the heading it carries, which
        /// continues its arcs' headings without a jump of a full turn.
        heading: f32,
    },
}

impl Segment {
    /// A straight line from `start` along the unit vector `direction`.
    #[inline]
    pub fn line(start: Vec2, direction: Vec2, length: f32) -> Segment {
        Segment::Line {
            start,
            end: start + direction * length,
            length,
            heading: direction.to_angle(),
        }
    }

    /// The unit direction of travel at the segment's start: along a line,
    /// or along the tangent of an arc. Taken from the heading, which stays
    /// exact where a line is so short that its ends' rounding is most of it.
    #[inline]
    pub fn start_direction(&self) -> Vec2 {
        Vec2::from_angle(self.start_pose().heading)
    }

    /// Length travelled along the segment.
    #[inline]
    pub fn length(&self) -> f32 {
        match *self {
            Segment::Arc { radius, sweep, .. } => radius * sweep.abs(),
            Segment::Line { length, .. } => length,
        }
    }

    /// The turn direction of an arc, or `None` for a line.
    #[inline]
    pub fn turn_direction(&self) -> Option<TurnDirection> {
        match *self {
            Segment::Arc { sweep, .. } if sweep.is_sign_negative() => Some(TurnDirection::Right),
            Segment::Arc { .. } => Some(TurnDirection::Left),
            Segment::Line { .. } => None,
        }
    }

    /// The pose `distance` along the segment, clamped to its ends.
    ///
    /// Computed directly from the segment's ends, never by stepping, so it
    /// is exact at joins. A line is sampled from its nearer end: its
    /// rounding grows with the distance from that end, so a pose just
    /// before the end of a long straight has the end dead ahead.
    #[inline]
    pub fn sample(&self, distance: f32) -> Pose {
        match *self {
            Segment::Arc {
                center,
                radius,
                start_angle,
                sweep,
            } => {
                let covered = (distance / radius)
                    .max(0.0)
                    .min(sweep.abs())
                    .copysign(sweep);
                let angle = start_angle + covered;
                let heading = angle + FRAC_PI_2.copysign(sweep);
                Pose::new(center + radius * Vec2::from_angle(angle), heading)
            }
            Segment::Line {
                start,
                end,
                length,
                heading,
            } => {
                let along = distance.max(0.0).min(length);
                let offset = end - start;
                let position = if along * 2.0 <= length {
                    start + offset * (along / length)
                } else {
                    end - offset * ((length - along) / length)
                };
                // A line of length zero stays at its start (0 / 0 above).
                let position = if length > 0.0 { position } else { start };
                Pose::new(position, heading)
            }
        }
    }

    /// The pose at the segment's start.
    #[inline]
    pub fn start_pose(&self) -> Pose {
        self.sample(0.0)
    }

    /// The pose at the segment's end.
    #[inline]
    pub fn end_pose(&self) -> Pose {
        self.sample(f32::INFINITY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Segments are public, so one may hold anything: sampling a NaN one
    /// gives NaN, never a panic.
    #[test]
    fn sampling_a_nan_segment_does_not_panic() {
        let arc = Segment::Arc {
            center: Vec2::ZERO,
            radius: 1.0,
            start_angle: 0.0,
            sweep: f32::NAN,
        };
        let line = Segment::line(Vec2::ZERO, Vec2::X, f32::NAN);
        for segment in [arc, line] {
            let _ = segment.sample(1.0);
            let _ = segment.end_pose();
        }
    }
}
