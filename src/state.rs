//! kerb's own bookkeeping on each unit: readable by a game, written only by
//! kerb's systems, so that a game cannot put a unit in a state kerb never
//! would.

use bevy::prelude::*;
use kerb_navmesh::{Route, RouteError};
use kerb_steering::WanderState;
use kerb_turning::{Gear, TurningPath};

use crate::components::UnitPose;

/// A wandering unit's memory: its wander angle and random stream, seeded
/// from [`crate::KerbSettings::seed`] and the entity when the unit first
/// needs a wander target.
#[derive(Component, Reflect, Clone, Debug, Default, PartialEq)]
#[reflect(Component, Default, Debug)]
pub struct WanderMemory {
    #[reflect(ignore)]
    pub(crate) state: Option<WanderState>,
    /// The angle's change over `t` seconds is one normal draw with variance
    /// `rate² t`, so applying it only when a target is picked is exact in
    /// distribution, and an idle tick neither draws nor writes.
    pub(crate) wandered_until: f64,
}

impl WanderMemory {
    /// The wander state (angle and stream), once the unit has needed a
    /// wander target.
    pub fn state(&self) -> Option<&WanderState> {
        self.state.as_ref()
    }

    /// The time (seconds on the schedule's clock) up to which the wander
    /// angle has wandered.
    pub fn wandered_until(&self) -> f64 {
        self.wandered_until
    }
}

/// The route a unit with a far [`crate::Destination`] follows: turning
/// paths ("legs") driven one after another, exactly as a single path is.
#[derive(Component, Reflect, Clone, Debug, Default, PartialEq)]
#[reflect(Component, Default, Debug)]
pub struct FollowedRoute {
    #[reflect(ignore)]
    pub(crate) route: Option<Route>,
    pub(crate) leg: usize,
    #[reflect(ignore)]
    pub(crate) last_error: Option<RouteError>,
}

impl FollowedRoute {
    /// The route being driven, if any.
    pub fn route(&self) -> Option<&Route> {
        self.route.as_ref()
    }

    /// Index of the leg being driven ([`Motion::path`]) within the route's
    /// legs.
    pub fn leg(&self) -> usize {
        self.leg
    }

    /// Why the last route asked for could not be found, if it could not.
    pub fn last_error(&self) -> Option<RouteError> {
        self.last_error
    }

    /// The leg after the current one, if there is one.
    pub fn next_leg(&self) -> Option<&TurningPath> {
        self.route.as_ref()?.legs().get(self.leg + 1)
    }

    /// Forgets the route.
    pub(crate) fn clear(&mut self) {
        self.route = None;
        self.leg = 0;
    }

    /// Starts driving `route` from its first leg.
    pub(crate) fn follow(&mut self, route: Route) {
        self.route = Some(route);
        self.leg = 0;
        self.last_error = None;
    }
}

/// What the unit is doing: its goal, its turning path and how far along it
/// it has driven.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Default, Debug)]
pub struct Motion {
    #[reflect(ignore)]
    pub(crate) path: TurningPath,
    pub(crate) travelled: f32,
    pub(crate) goal: Goal,
    pub(crate) reversing: bool,
    /// Whether the path is a step out of a jam, pulled forward: at its
    /// end the unit plans its way on, as after backing out.
    pub(crate) pulling_out: bool,
    /// Whether the way is one in among others standing at their places
    /// ([`kerb_crowd::path_among`]), planned clear of them: avoidance lets
    /// the unit keep to it past them.
    pub(crate) threading: bool,
    pub(crate) blocked_streak: u8,
}

impl Motion {
    /// The path being followed, sampled exactly each tick.
    pub fn path(&self) -> &TurningPath {
        &self.path
    }

    /// Distance driven along [`Self::path`].
    pub fn travelled(&self) -> f32 {
        self.travelled
    }

    /// The current goal.
    pub fn goal(&self) -> Goal {
        self.goal
    }

    /// Whether the unit is backing along its path (facing the other way),
    /// as a boxed-in wanderer or a tank turning round does: it never turns
    /// tighter instead.
    pub fn is_reversing(&self) -> bool {
        self.reversing
    }

    /// Whether the unit is moving against the way it faces now: backing
    /// out of a jam, or on a reverse segment of its path.
    pub fn in_reverse(&self) -> bool {
        self.reversing
            || (self.is_moving() && self.path.gear_run(self.travelled).0 == Gear::Reverse)
    }

    /// How far along its path the unit will have got after `dt` seconds at
    /// `speed`, or at `reverse_speed` on a reverse segment. It stops at a
    /// cusp within the path (to change gear), and may run past the path's
    /// end onto a route's next leg.
    pub(crate) fn travelled_after(&self, speed: f32, reverse_speed: f32, dt: f32) -> f32 {
        let (gear, run_end) = self.path.gear_run(self.travelled);
        let speed = match gear {
            Gear::Forward => speed,
            Gear::Reverse => reverse_speed,
        };
        let travelled = self.travelled + speed.max(0.0) * dt;
        if run_end < self.path.length() {
            travelled.min(run_end)
        } else {
            travelled
        }
    }

    /// Whether driving on from this path onto `next` (a route's next leg)
    /// changes gear: a cusp between legs, where the unit stops.
    pub(crate) fn cusp_before(&self, next: &TurningPath) -> bool {
        let last = self.path.segments().last().map(|segment| segment.gear());
        let first = next.segments().first().map(|segment| segment.gear());
        last.zip(first).is_some_and(|(last, first)| last != first)
    }

    /// How many plans in a row found no walkable path.
    pub fn blocked_streak(&self) -> u8 {
        self.blocked_streak
    }

    /// The unit's pose at `sampled`, a pose on its path: facing the other
    /// way while it backs along it.
    pub(crate) fn unit_pose_at(&self, sampled: kerb_turning::Pose) -> UnitPose {
        let facing = if self.reversing {
            std::f32::consts::PI
        } else {
            0.0
        };
        UnitPose {
            position: sampled.position,
            heading: sampled.heading + facing,
        }
    }

    /// Whether the unit has a path it has not finished.
    pub fn is_moving(&self) -> bool {
        self.travelled < self.path.length()
    }

    /// Drops the path and stands at `pose` (goal unchanged), no longer
    /// stepping out of a jam.
    pub(crate) fn stand_at(&mut self, pose: UnitPose) {
        self.path = TurningPath::stationary(pose.to_pose());
        self.travelled = 0.0;
        self.reversing = false;
        self.pulling_out = false;
        self.threading = false;
    }

    /// Drops the rest of the path and stands where the unit has got to on it.
    pub(crate) fn stop_where_it_is(&mut self) {
        self.path = TurningPath::stationary(self.path.sample(self.travelled));
        self.travelled = 0.0;
    }

    /// Drives `path` forwards from its start: a plan that found its way.
    pub(crate) fn drive(&mut self, path: TurningPath) {
        self.path = path;
        self.travelled = 0.0;
        self.reversing = false;
        self.pulling_out = false;
        self.threading = false;
        self.blocked_streak = 0;
    }

    /// Backs along `path` from its start, facing the other way.
    pub(crate) fn back_along(&mut self, path: TurningPath) {
        self.path = path;
        self.travelled = 0.0;
        self.reversing = true;
        self.pulling_out = false;
        self.threading = false;
    }

    /// Pulls forward along `path`, a step out of a jam, as a driver whose
    /// way back is blocked does: at its end the unit plans its way on.
    pub(crate) fn pull_along(&mut self, path: TurningPath) {
        self.path = path;
        self.travelled = 0.0;
        self.reversing = false;
        self.pulling_out = true;
        self.threading = false;
    }

    /// Whether the path is a step out of a jam (backing out or pulling
    /// forward), not a way to the goal.
    pub(crate) fn stepping_out(&self) -> bool {
        self.reversing || self.pulling_out
    }

    /// Stands at the start of the path it was on and counts a plan that
    /// found no way.
    pub(crate) fn stop_blocked(&mut self, at: kerb_turning::Pose) {
        self.path = TurningPath::stationary(at);
        self.travelled = 0.0;
        self.reversing = false;
        self.pulling_out = false;
        self.threading = false;
        self.blocked_streak = self.blocked_streak.saturating_add(1);
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
    pub(crate) desired: UnitPose,
    pub(crate) pending: Pending,
}

impl Intent {
    /// Unless something is pending already, asks for a plan on from where
    /// the unit stands, having left its path: a new wander target for a
    /// wanderer, a way back to its goal for any other.
    pub(crate) fn plan_on_from_here(&mut self, wanders: bool) {
        if self.pending == Pending::Nothing {
            self.pending = if wanders {
                Pending::NewTarget
            } else {
                Pending::Rejoin
            };
        }
    }

    /// Where the path wants the unit this tick, before confinement.
    pub fn desired(&self) -> UnitPose {
        self.desired
    }

    /// What kerb must do for this unit next.
    pub fn pending(&self) -> Pending {
        self.pending
    }
}

/// A unit's current goal.
#[derive(Reflect, Clone, Copy, Debug, Default, PartialEq)]
pub enum Goal {
    /// Nothing to reach: stand still.
    #[default]
    None,
    /// Reach a point (a wander target or a [`crate::Destination::Point`]).
    Point(Vec2),
    /// Reach a pose ([`crate::Destination::Pose`]).
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
    /// Avoidance, or a wall it was pushed against, took the unit off its
    /// path: a path must be planned back to its goal from where it was
    /// left, backing out of that spot if it cannot turn onto its way from
    /// there.
    Rejoin,
}
