//! Crowd avoidance in the plugin: [`crate::KerbSystems::Avoid`] chooses,
//! for each unit, a speed and a turn among the arcs it can drive
//! ([`kerb_crowd::choose`]) that keep its [`Body`] clear of its neighbours.
//!
//! Every choice reads only the poses and motions the last tick left, so the
//! order in which units are visited cannot change a run. After the units
//! have moved, any move that brought two bodies into contact is taken back
//! (`take_back`).

mod among;
mod choose;
mod snapshot;
mod standing;
mod take_back;
mod unjam;

pub(crate) use among::way_among;
pub(crate) use choose::choose_motions;
pub(crate) use snapshot::Crowd;
pub(crate) use take_back::take_back_contacts;

use bevy::prelude::*;
use kerb_crowd::Choice;

/// A unit's body: the disc, `radius` across from its centre, that no other
/// unit's may overlap.
///
/// It is separate from the [`crate::TurningRadius`] (how tightly it turns) and
/// from [`crate::KerbSettings::clearance`] (how far paths keep from walls):
/// walls see the clearance, other units see the body. A heavier body makes
/// way less: units share the avoiding by the area of their bodies, so a
/// pedestrian (0.3 m) does nearly all of it for a tank (2.5 m).
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Default, Debug)]
pub struct Body {
    /// Radius of the disc, in metres.
    pub radius: f32,
}

impl Default for Body {
    /// A pedestrian's body, 0.3 m.
    fn default() -> Self {
        Self { radius: 0.3 }
    }
}

/// Opts a unit out of avoidance: it follows its path as if it were alone.
/// Others still see it and keep clear.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Default, Debug)]
pub struct NoAvoidance;

/// How units avoid each other.
#[derive(Resource, Reflect, Clone, Debug, PartialEq)]
#[reflect(Resource, Default, Debug)]
pub struct AvoidanceSettings {
    /// Whether units avoid each other at all (off by default for now).
    /// Turned on, bodies never touch, but in a dense crowd a unit can
    /// still stand jammed for several seconds (see `BENCHMARKS.md`).
    pub enabled: bool,
    /// How far ahead, in seconds, a meeting counts (1.5 s by default):
    /// longer makes units swerve earlier and wider, and a dense crowd jam
    /// more.
    pub horizon: f32,
    /// How many of the nearest neighbours each unit looks at (at most
    /// [`kerb_crowd::MAX_NEIGHBOURS`]).
    pub neighbours: usize,
    /// How far away, in metres, a neighbour is seen.
    pub range: f32,
}

impl Default for AvoidanceSettings {
    fn default() -> Self {
        Self {
            enabled: false,
            horizon: 1.5,
            neighbours: 8,
            range: 10.0,
        }
    }
}

/// What avoidance chose for a unit this tick, and whether it has left its
/// path and must rejoin it.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Default, Debug)]
pub struct Avoiding {
    #[reflect(ignore)]
    pub(crate) choice: Option<Choice>,
    pub(crate) off_path: bool,
    /// Whether the choice keeps to the path's curvature: the unit goes on
    /// along its path, only slower (a tank waiting for a crowd to part).
    pub(crate) along_path: bool,
    /// Ticks in a row that avoidance has held the unit still while it
    /// wanted to move.
    pub(crate) held: u16,
    /// How near its destination point the unit may come where others stand
    /// on it (the sum of their radii), and so counts as arrived; zero
    /// where the point is free.
    pub(crate) arrive_within: f32,
}

impl Avoiding {
    /// The speed and curvature chosen this tick, when it differs from the
    /// unit's path.
    pub fn choice(&self) -> Option<Choice> {
        self.choice.filter(|choice| choice.avoiding)
    }

    /// The arc a unit making way drives off its path this tick, if any: not
    /// for one backing up (`in_reverse`) or one keeping to its path slower.
    pub(crate) fn swerve(&self, in_reverse: bool) -> Option<Choice> {
        self.choice().filter(|_| !in_reverse && !self.along_path)
    }

    /// For a unit at top speed `top` that keeps to its path (all but one
    /// that swerves): the share of its speed avoidance lets it go along
    /// the path at this tick, or `None` when it must wait.
    pub(crate) fn path_share(&self, in_reverse: bool, top: f32) -> Option<f32> {
        match self.choice() {
            Some(choice) if in_reverse || self.along_path => {
                (choice.speed > 0.0 && top > 0.0).then(|| (choice.speed / top).min(1.0))
            }
            _ => Some(1.0),
        }
    }

    /// Whether the unit has left its path to keep clear, and will plan a
    /// fresh one back once the way is clear.
    pub fn is_off_path(&self) -> bool {
        self.off_path
    }
}

#[cfg(test)]
mod tests {
    use bevy::math::Vec2;
    use kerb_crowd::Agent;

    /// A pedestrian standing at `position`, facing `heading`.
    pub(super) fn pedestrian(position: Vec2, heading: f32) -> Agent {
        Agent {
            position,
            heading,
            speed: 0.0,
            max_speed: 1.4,
            turn_radius: 0.8,
            body_radius: 0.3,
            priority: 1.0,
        }
    }
}
