//! The components a unit is made of.
//!
//! Spawning [`Unit`] brings every other required component with sensible
//! defaults; add [`Wander`] to make it roam, or [`Destination`] to send it
//! somewhere.

use crate::avoidance::{Avoiding, Body};
use crate::state::{Intent, Motion, WanderMemory};
use bevy::prelude::*;

use kerb_navmesh::PolygonId;
use kerb_steering::WanderParams;

/// A ground unit that turns no tighter than its [`TurningRadius`], moves at
/// its [`Speed`] and stays on the walkable area.
///
/// Its starting pose is read from its [`Transform`] (x, y, and rotation
/// about z) on the first tick; afterwards kerb writes the transform, which
/// is what is drawn (see [`UnitPose`]), and moves it with [`Teleport`]. A
/// position off the walkable area is moved to the nearest point on it, and
/// a rotation that is not finite faces +x. A translation that is not a
/// number leaves the unit unplaced, with a warning in the log, until the
/// world is reloaded.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Default, Debug)]
#[require(
    TurningRadius,
    Speed,
    Body,
    UnitPose,
    NavLocation,
    Motion,
    Intent,
    Avoiding,
    Transform
)]
pub struct Unit;

/// The tightest circle the unit can turn on, in metres. A tank has a large
/// one, a pedestrian a small one.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Default, Debug)]
pub struct TurningRadius(pub f32);

impl Default for TurningRadius {
    fn default() -> Self {
        Self(4.0)
    }
}

/// Opt-in reverse gear: the unit may back up where driving forwards finds
/// no way (a three-point turn, a corner too tight, parking in a tight
/// spot), along Reeds–Shepp paths. Without it a unit only backs up to get
/// out of a jam.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Default, Debug)]
pub struct ReverseGear {
    /// Speed in reverse, in metres per second.
    pub speed: f32,
    /// What a metre in reverse costs against a metre forwards when paths
    /// are compared: above 1, units prefer driving forwards. Values below
    /// 1 count as 1.
    pub cost: f32,
}

impl Default for ReverseGear {
    fn default() -> Self {
        Self {
            speed: 1.5,
            cost: 2.0,
        }
    }
}

/// Driving speed in metres per second.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Default, Debug)]
pub struct Speed(pub f32);

impl Default for Speed {
    fn default() -> Self {
        Self(3.0)
    }
}

/// Where the unit is on the ground plane and which way it faces (radians,
/// counter-clockwise from +x): the simulation's pose, which gameplay should
/// read. [`Transform`] is what is drawn: with
/// [`crate::KerbSettings::draw_between_ticks`], a moving unit's transform is
/// up to one fixed tick ahead along its path, between ticks.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Default, Debug)]
pub struct UnitPose {
    /// Position in metres.
    pub position: Vec2,
    /// Heading in radians.
    pub heading: f32,
}

impl UnitPose {
    /// The same pose as the planners take it.
    pub fn to_pose(self) -> kerb_turning::Pose {
        kerb_turning::Pose::new(self.position, self.heading)
    }

    /// Puts `transform` at this pose on the ground plane, keeping its height.
    pub(crate) fn write_to(self, transform: &mut Transform) {
        transform.translation.x = self.position.x;
        transform.translation.y = self.position.y;
        transform.rotation = Quat::from_rotation_z(self.heading);
    }
}

/// The navmesh polygon the unit stands in, `None` until it is placed.
/// Written by kerb only.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Default, Debug)]
pub struct NavLocation {
    #[reflect(ignore)]
    pub(crate) polygon: Option<PolygonId>,
}

impl NavLocation {
    /// The polygon of the active world's navmesh the unit stands in, or
    /// `None` until it is placed.
    pub fn polygon(&self) -> Option<PolygonId> {
        self.polygon
    }

    /// Whether the unit stands on the navmesh.
    pub fn is_placed(&self) -> bool {
        self.polygon.is_some()
    }
}

/// Roam at random, as in the Unity cookbook's Wander: aim at a point on a circle of `radius`
/// placed `offset` ahead, whose angle wanders at `rate`.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Default, Debug)]
#[require(WanderMemory)]
pub struct Wander {
    /// Distance from the unit to the wander circle's centre, in metres.
    pub offset: f32,
    /// Radius of the wander circle, in metres.
    pub radius: f32,
    /// Standard deviation of the wander angle's change over one second, in radians.
    pub rate: f32,
}

impl Default for Wander {
    fn default() -> Self {
        let params = WanderParams::default();
        Self {
            offset: params.offset,
            radius: params.radius,
            rate: params.rate,
        }
    }
}

impl Wander {
    pub(crate) fn params(&self) -> WanderParams {
        WanderParams {
            offset: self.offset,
            radius: self.radius,
            rate: self.rate,
        }
        .sanitized()
    }
}

/// Where to go. Insert it to send a unit; kerb removes it on arrival
/// (sending [`crate::Arrived`]) or when no walkable path exists (sending
/// [`crate::Blocked`]).
///
/// With avoidance on, a unit bound for a point has also arrived when,
/// pushed off its path, its body covers the point, or comes within twice
/// its body's radius of a point inside one of its turning circles (which
/// no forward path reaches without a loop), and, where someone stands on
/// the point, when it is as near as they let it come.
///
/// A destination in the unit's polygon or a neighbouring one is reached
/// with one turning path; anything further, or anything the direct path
/// cannot reach, with a [`crate::FollowedRoute`] across the navmesh.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Debug)]
#[require(crate::FollowedRoute)]
pub enum Destination {
    /// Reach a point, facing whichever way the path ends.
    Point(Vec2),
    /// Reach a point facing `heading` (radians, counter-clockwise from +x).
    Pose {
        /// Where to stop.
        position: Vec2,
        /// Which way to face on arrival.
        heading: f32,
    },
}

/// Moves a unit at once: insert it, and on its next tick kerb puts the unit
/// at `position` (snapped onto the walkable area) facing `heading`, drops
/// its path, plans afresh from there and removes this component. The unit
/// is drawn at its new place from that frame, never sliding there.
///
/// A position that is not a number leaves the unit where it is, with a
/// warning in the log; a heading that is not finite keeps its heading.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Debug)]
pub struct Teleport {
    /// Where to, in metres.
    pub position: Vec2,
    /// Which way to face, in radians counter-clockwise from +x.
    pub heading: f32,
}
