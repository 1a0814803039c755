//! The components a unit is made of.
//!
//! Spawning [`Unit`] brings every other required component with sensible
//! defaults; add [`Wander`] to make it roam, or [`Destination`] to send it
//! somewhere.

use bevy::prelude::*;
use kerb_steering::{WanderParams, WanderState};
use kerb_turning::TurningPath;

/// A ground unit that turns no tighter than its [`TurningRadius`], moves at
/// its [`Speed`] and stays on the walkable area.
///
/// Its starting pose is read from its [`Transform`] (x, y, and rotation
/// about z) on the first tick; afterwards kerb writes the transform. A
/// position off the walkable area is moved to the nearest point on it, and
/// a rotation that is not finite faces +x. A translation that is not a
/// number leaves the unit unplaced, with a warning in the log, until the
/// world is reloaded.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Default, Debug)]
#[require(TurningRadius, Speed, UnitPose, NavLocation, Motion, Intent, Transform)]
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
/// counter-clockwise from +x). kerb's source of truth; [`Transform`] follows it.
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
}

/// The navmesh polygon the unit stands in, `None` until it is placed.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Default, Debug)]
pub struct NavLocation {
    /// Index of the polygon in the active world's navmesh.
    pub polygon: Option<u32>,
}

/// Roam at random, as in the seed: aim at a point on a circle of `radius`
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

/// A wandering unit's memory: its wander angle and random stream, seeded
/// from [`crate::KerbSettings::seed`] and the entity when the unit first
/// needs a wander target.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Default, Debug)]
pub struct WanderMemory {
    /// The wander state (angle and stream).
    #[reflect(ignore)]
    pub state: WanderState,
    /// Whether the stream has been seeded.
    pub seeded: bool,
    /// The time (seconds on the schedule's clock) up to which the angle has
    /// wandered. The angle's change over `t` seconds is one normal draw with
    /// variance `rate² t`, so applying it only when a target is picked is
    /// exact in distribution, and an idle tick neither draws nor writes.
    pub wandered_until: f64,
}

/// Where to go. Insert it to send a unit; kerb removes it on arrival
/// (sending [`crate::Arrived`]) or when no walkable path exists (sending
/// [`crate::Blocked`]).
///
/// A destination in the unit's polygon or a neighbouring one is reached
/// with one turning path; anything further, or anything the direct path
/// cannot reach, with a [`FollowedRoute`] across the navmesh.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Debug)]
#[require(FollowedRoute)]
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

/// The route a unit with a far [`Destination`] follows: turning paths
/// ("legs") driven one after another, exactly as a single path is.
#[derive(Component, Reflect, Clone, Debug, Default, PartialEq)]
#[reflect(Component, Default, Debug)]
pub struct FollowedRoute {
    /// The route being driven, if any.
    #[reflect(ignore)]
    pub route: Option<kerb_navmesh::Route>,
    /// Index of the leg in [`Motion::path`] within `route.legs()`.
    pub leg: usize,
    /// Why the last route asked for could not be found, if it could not.
    #[reflect(ignore)]
    pub last_error: Option<kerb_navmesh::RouteError>,
}

impl FollowedRoute {
    /// The leg after the current one, if there is one.
    pub fn next_leg(&self) -> Option<&TurningPath> {
        self.route.as_ref()?.legs().get(self.leg + 1)
    }

    /// Forgets the route.
    pub fn clear(&mut self) {
        self.route = None;
        self.leg = 0;
    }
}

/// What the unit is doing: its goal, its turning path and how far along it
/// it has driven.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Default, Debug)]
pub struct Motion {
    /// The path being followed, sampled exactly each tick.
    #[reflect(ignore)]
    pub path: TurningPath,
    /// Distance driven along `path`.
    pub travelled: f32,
    /// The current goal.
    pub goal: Goal,
    /// Whether the unit is backing along `path` (facing the other way), which
    /// a boxed-in wanderer does to get out: it never turns tighter instead.
    pub reversing: bool,
    /// How many plans in a row found no walkable path.
    pub blocked_streak: u8,
}

impl Motion {
    /// Whether the unit has a path it has not finished.
    pub fn is_moving(&self) -> bool {
        self.travelled < self.path.length()
    }

    /// Drops the path and stands at `pose` (goal unchanged).
    pub fn stand_at(&mut self, pose: UnitPose) {
        self.path = TurningPath::stationary(pose.to_pose());
        self.travelled = 0.0;
    }
}

/// What a unit means to do this tick: where its path wants it, before
/// confinement, and what it needs from kerb next.
///
/// Kept apart from [`Motion`], and small, because every pass of every tick
/// reads it for every unit, while most units need nothing but the next
/// sample of their path: the passes that only look here read a few bytes
/// per unit instead of the whole path.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Default, Debug)]
pub struct Intent {
    /// Where the path wants the unit this tick, before confinement.
    pub desired: UnitPose,
    /// What kerb must do for this unit next.
    pub pending: Pending,
}

/// A unit's current goal.
#[derive(Reflect, Clone, Copy, Debug, Default, PartialEq)]
pub enum Goal {
    /// Nothing to reach: stand still.
    #[default]
    None,
    /// Reach a point (a wander target or a [`Destination::Point`]).
    Point(Vec2),
    /// Reach a pose ([`Destination::Pose`]).
    Pose(Vec2, f32),
}

/// What a unit needs from kerb before it can keep moving.
#[derive(Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pending {
    /// Nothing: keep following the path.
    #[default]
    Nothing,
    /// A wanderer needs a new wander target.
    NewTarget,
    /// The goal is set; a path must be planned to it.
    Plan,
}
