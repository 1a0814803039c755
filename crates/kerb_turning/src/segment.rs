//! The two pieces every turning path is made of.

use glam::Vec2;
use std::f32::consts::FRAC_PI_2;

use crate::{Pose, TurnDirection};

/// Which way a unit travels along a segment. Its heading is always the way
/// it faces, so a unit in reverse moves against its heading.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Gear {
    /// Travelling the way the unit faces.
    #[default]
    Forward,
    /// Backing up: travelling against the way the unit faces.
    Reverse,
}

impl Gear {
    /// `+1` forward, `-1` in reverse: the sign of the speed along the heading.
    #[inline]
    pub const fn sign(self) -> f32 {
        match self {
            Gear::Forward => 1.0,
            Gear::Reverse => -1.0,
        }
    }

    /// The other gear.
    #[inline]
    pub const fn opposite(self) -> Self {
        match self {
            Gear::Forward => Gear::Reverse,
            Gear::Reverse => Gear::Forward,
        }
    }
}

/// One piece of a turning path: an arc at the unit's radius, or a straight
/// line, driven forwards or in reverse.
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
        /// zero sweep keeps its sign (`-0.0` for clockwise) so the heading is
        /// right. The heading turns by exactly `sweep`, in either gear.
        sweep: f32,
        /// Forwards, or in reverse.
        gear: Gear,
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
        /// The heading the unit faces, in radians: along the line from
        /// `start` to `end`, or against it in reverse. Kept so that
        /// sampling, which units do every tick, needs no arctangent.
        /// [`Segment::line`] fills it in; a path builder passes the heading it
        /// carries, which continues its arcs' headings without a jump of a
        /// full turn.
        heading: f32,
        /// Forwards, or in reverse.
        gear: Gear,
    },
}

impl Segment {
    /// A straight line driven forwards from `start` along the unit vector
    /// `direction`.
    #[inline]
    pub fn line(start: Vec2, direction: Vec2, length: f32) -> Segment {
        Segment::Line {
            start,
            end: start + direction * length,
            length,
            heading: direction.to_angle(),
            gear: Gear::Forward,
        }
    }

    /// Forwards or in reverse.
    #[inline]
    pub fn gear(&self) -> Gear {
        match *self {
            Segment::Arc { gear, .. } | Segment::Line { gear, .. } => gear,
        }
    }

    /// The unit direction of travel at the segment's start: along a line,
    /// or along the tangent of an arc, against the heading in reverse. Taken
    /// from the heading, which stays exact where a line is so short that its
    /// ends' rounding is most of it.
    #[inline]
    pub fn start_direction(&self) -> Vec2 {
        Vec2::from_angle(self.start_pose().heading) * self.gear().sign()
    }

    /// Length travelled along the segment.
    #[inline]
    pub fn length(&self) -> f32 {
        match *self {
            Segment::Arc { radius, sweep, .. } => radius * sweep.abs(),
            Segment::Line { length, .. } => length,
        }
    }

    /// Which way an arc steers, or `None` for a line. In reverse, steering
    /// left turns the heading clockwise: the centre is still on the left.
    #[inline]
    pub fn turn_direction(&self) -> Option<TurnDirection> {
        match *self {
            Segment::Arc { sweep, gear, .. } => {
                let counter_clockwise = sweep.is_sign_positive();
                Some(if counter_clockwise == (gear == Gear::Forward) {
                    TurnDirection::Left
                } else {
                    TurnDirection::Right
                })
            }
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
                gear,
            } => {
                let covered = (distance / radius)
                    .max(0.0)
                    .min(sweep.abs())
                    .copysign(sweep);
                let angle = start_angle + covered;
                // The tangent of travel, turned round in reverse.
                let heading = angle + FRAC_PI_2.copysign(sweep) * gear.sign();
                Pose::new(center + radius * Vec2::from_angle(angle), heading)
            }
            Segment::Line {
                start,
                end,
                length,
                heading,
                ..
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
            gear: Gear::Forward,
        };
        let line = Segment::line(Vec2::ZERO, Vec2::X, f32::NAN);
        for segment in [arc, line] {
            let _ = segment.sample(1.0);
            let _ = segment.end_pose();
        }
    }
}
