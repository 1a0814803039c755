//! Where a unit is and which way it faces.

use glam::Vec2;

/// A position and a heading.
///
/// The heading is in radians, counter-clockwise from +x, and may be any
/// finite angle: the planners take it modulo a turn, and their paths
/// continue from it as given where it is within a turn either way (see
/// [`crate::TurningPath`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pose {
    /// Position in world units (metres in kerb's worlds).
    pub position: Vec2,
    /// Heading in radians, counter-clockwise from +x.
    pub heading: f32,
}

impl Pose {
    /// A pose at `position` facing `heading` radians counter-clockwise from +x.
    #[inline]
    pub const fn new(position: Vec2, heading: f32) -> Self {
        Self { position, heading }
    }

    /// The unit vector the pose faces.
    #[inline]
    pub fn forward(&self) -> Vec2 {
        Vec2::from_angle(self.heading)
    }

    /// Whether the position and heading are all finite.
    #[inline]
    pub fn is_finite(&self) -> bool {
        self.position.is_finite() && self.heading.is_finite()
    }
}

/// Which way a unit turns at full lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TurnDirection {
    /// Counter-clockwise.
    Left,
    /// Clockwise.
    Right,
}

impl TurnDirection {
    /// `+1` for left (counter-clockwise), `-1` for right.
    #[inline]
    pub const fn sign(self) -> f32 {
        match self {
            TurnDirection::Left => 1.0,
            TurnDirection::Right => -1.0,
        }
    }

    /// The other direction.
    #[inline]
    pub const fn opposite(self) -> Self {
        match self {
            TurnDirection::Left => TurnDirection::Right,
            TurnDirection::Right => TurnDirection::Left,
        }
    }
}
