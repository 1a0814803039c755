//! Ready-made kinds of unit, shared by the demo, the stress run and the
//! tests, and a starting point for a game's own.

use bevy::prelude::*;

use crate::avoidance::Body;
use crate::components::{Speed, TurningRadius, Unit, Wander};

/// How one kind of unit moves: its turning radius, speed and wander.
#[derive(Reflect, Clone, Copy, Debug, PartialEq)]
pub struct UnitPreset {
    /// Turning radius, in metres.
    pub turning_radius: f32,
    /// Speed, in metres per second.
    pub speed: f32,
    /// Radius of its body, in metres: what other units keep clear of.
    pub body_radius: f32,
    /// How it roams when it has nowhere to go.
    pub wander: Wander,
}

impl UnitPreset {
    /// A tank: wide turns (11 m), 4.5 m/s, a body 2.5 m across, long lazy
    /// wander.
    pub const TANK: Self = Self {
        turning_radius: 11.0,
        speed: 4.5,
        body_radius: 2.5,
        wander: Wander {
            offset: 22.0,
            radius: 9.0,
            rate: 0.5,
        },
    };

    /// A pedestrian: tight turns (0.8 m), walking pace, a body 0.3 m across,
    /// twitchy wander.
    pub const PEDESTRIAN: Self = Self {
        turning_radius: 0.8,
        speed: 1.4,
        body_radius: 0.3,
        wander: Wander {
            offset: 3.0,
            radius: 1.5,
            rate: 1.2,
        },
    };

    /// A wandering unit of this kind: spawn it with a [`Transform`].
    pub fn wanderer(&self) -> impl Bundle {
        (self.unit(), self.wander)
    }

    /// A wandering unit of this kind at `position` (on the ground plane)
    /// facing `heading`, radians counter-clockwise from +x.
    pub fn wanderer_at(&self, position: Vec2, heading: f32) -> impl Bundle {
        (
            self.wanderer(),
            Transform::from_translation(position.extend(0.0))
                .with_rotation(Quat::from_rotation_z(heading)),
        )
    }

    /// A unit of this kind that stands until it is given a
    /// [`crate::Destination`].
    pub fn unit(&self) -> impl Bundle {
        (
            Unit,
            TurningRadius(self.turning_radius),
            Speed(self.speed),
            Body {
                radius: self.body_radius,
            },
        )
    }
}
