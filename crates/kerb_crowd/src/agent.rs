//! What avoidance knows of a unit.

use glam::Vec2;
use kerb_turning::heading_vector;

/// A unit as avoidance sees it: where it is, how it moves now and what it
/// can do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Agent {
    /// Position of the body's centre.
    pub position: Vec2,
    /// Facing, in radians; units drive forwards along it.
    pub heading: f32,
    /// Speed now, in units a second (never below zero).
    pub speed: f32,
    /// Top speed.
    pub max_speed: f32,
    /// Tightest turning radius.
    pub turn_radius: f32,
    /// Radius of the body's disc, which must not overlap another's.
    pub body_radius: f32,
    /// How much others make way: of two units about to meet, each does
    /// the other's share of `priority` of the avoiding (equals half each,
    /// a pedestrian of priority 1 nearly all of it for a tank of 10).
    pub priority: f32,
}

impl Agent {
    /// Whether every value is finite: a unit that is not is left out.
    pub fn is_finite(&self) -> bool {
        self.position.is_finite()
            && self.heading.is_finite()
            && self.speed.is_finite()
            && self.max_speed.is_finite()
            && self.turn_radius.is_finite()
            && self.body_radius.is_finite()
            && self.priority.is_finite()
    }

    /// The unit vector of the heading.
    #[inline]
    pub fn facing(&self) -> Vec2 {
        heading_vector(self.heading)
    }

    /// Velocity now.
    #[inline]
    pub fn velocity(&self) -> Vec2 {
        self.facing() * self.speed
    }
}

/// The motion a unit wants this tick, to follow its path: a speed and a
/// signed curvature (positive turns left, at most `1 / turn_radius`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Preferred {
    /// Speed along the path.
    pub speed: f32,
    /// The path's curvature where the unit is.
    pub curvature: f32,
}
