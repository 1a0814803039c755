//! The crowd as the last tick left it: each unit as avoidance sees it
//! ([`Agent`]), what it wants ([`Preferred`]), and the neighbour grid.

use bevy::prelude::*;
use kerb_crowd::{Agent, Choice, NeighbourGrid, Preferred};
use kerb_navmesh::PolygonId;
use kerb_turning::Segment;

use super::Avoiding;
use super::unjam::WayOut;
use crate::components::UnitPose;
use crate::state::{Goal, Motion};

/// A settled unit (arrived or idle) makes way this many times less, so that
/// a settled group is not pushed about for ever.
const SETTLED_WEIGHT: f32 = 4.0;

/// Cells of the neighbour grid, in metres: small enough that a query in a
/// dense crowd stops after a ring or two.
const GRID_CELL: f32 = 2.0;

/// The crowd as the last tick left it, kept between ticks so that its
/// buffers are not allocated again.
#[derive(Resource, Default)]
pub(crate) struct Crowd {
    pub entities: Vec<Entity>,
    /// Each unit's pose and polygon before this tick's move, to take the
    /// move back where it would bring two bodies into contact.
    pub starts: Vec<(UnitPose, PolygonId)>,
    /// Units left out (not placed) that still hold a choice to forget.
    pub unplaced: Vec<Entity>,
    /// Whether each unit is backing up along its path: it may only go on
    /// or wait.
    pub reversing: Vec<bool>,
    /// Whether each unit drives a way in among others standing, planned
    /// clear of them (see [`Motion`]'s `threading`).
    pub threading: Vec<bool>,
    /// Ticks in a row each unit has been held still while it wanted to
    /// move: a settled unit in its way makes room.
    pub held: Vec<u16>,
    /// Whether each unit is at rest: arrived, or standing with nowhere to
    /// go (not a wanderer between targets). Such a unit makes room for
    /// one held up behind it.
    pub at_rest: Vec<bool>,
    pub agents: Vec<Agent>,
    /// What each unit wants; `None` for one that opted out.
    pub preferred: Vec<Option<Preferred>>,
    positions: Vec<Vec2>,
    /// Each unit's body radius: neighbours are found by the gap to their
    /// bodies, so a tank is seen over a crowd.
    radii: Vec<f32>,
    pub grid: NeighbourGrid,
    /// The units' indices cell by cell, the order choices are made in.
    pub order: Vec<u32>,
    pub choices: Vec<Option<Choice>>,
    /// The motion each unit asked avoidance for this tick: its path's, or
    /// for one at rest the step it takes to make room.
    pub wishes: Vec<Option<Preferred>>,
    /// The point each unit with a destination is bound for.
    pub goals: Vec<Option<Vec2>>,
    /// How near its goal each unit may come when others stand on it (see
    /// [`Avoiding`]).
    pub arrive_within: Vec<f32>,
    /// How far, at least, each unit stands from the nearest other body
    /// (from its centre to the other's edge): its move needs no check
    /// against the others unless they could meet within that.
    pub clear_to: Vec<f32>,
    /// The units about to have been held still too long, by index, each
    /// with the way out it takes (see `unjam::way_out`): a few a tick, so a
    /// list rather than a slot for every unit.
    pub ways_out: Vec<(u32, WayOut)>,
    /// The highest top speed of any unit: how far a body may drive in a
    /// given time, to bound a search for those that may.
    pub fastest: f32,
}

/// What the snapshot reads of a unit.
pub(crate) struct UnitView<'a> {
    pub entity: Entity,
    pub position: Vec2,
    pub heading: f32,
    /// Top speed, as set.
    pub speed: f32,
    pub turn_radius: f32,
    pub body_radius: f32,
    pub motion: &'a Motion,
    /// Where it stands on the navmesh, `None` until placed.
    pub polygon: Option<PolygonId>,
    pub avoiding: &'a Avoiding,
    pub opted_out: bool,
    /// Whether it wanders: one standing is only between targets.
    pub wanders: bool,
    /// Whether it has a [`crate::Destination`].
    pub has_destination: bool,
}

impl Crowd {
    /// Takes the snapshot of `units` and sorts them into the grid.
    pub fn take<'a>(&mut self, units: impl Iterator<Item = UnitView<'a>>) {
        self.entities.clear();
        self.starts.clear();
        self.unplaced.clear();
        self.reversing.clear();
        self.threading.clear();
        self.held.clear();
        self.at_rest.clear();
        self.goals.clear();
        self.agents.clear();
        self.preferred.clear();
        for unit in units {
            // A unit not yet placed on the mesh (or placed at a point that
            // is not finite) is nowhere others could meet it.
            let placed = unit
                .polygon
                .filter(|_| unit.position.is_finite() && unit.heading.is_finite());
            let Some(polygon) = placed else {
                if unit.avoiding.choice.is_some() {
                    self.unplaced.push(unit.entity);
                }
                continue;
            };
            self.push(&unit, polygon);
        }
        self.positions.clear();
        self.positions
            .extend(self.agents.iter().map(|agent| agent.position));
        self.fastest = self
            .agents
            .iter()
            .fold(0.0, |fastest, agent| fastest.max(agent.max_speed));
        self.radii.clear();
        self.radii
            .extend(self.agents.iter().map(|agent| agent.body_radius));
        if self.grid.cell_size() == 0.0 {
            self.grid = NeighbourGrid::new(GRID_CELL);
        }
        self.grid.rebuild_bodies(&self.positions, &self.radii);
    }

    fn push(&mut self, unit: &UnitView, polygon: PolygonId) {
        let top = if unit.speed.is_finite() {
            unit.speed.max(0.0)
        } else {
            0.0
        };
        let motion = unit.motion;
        let moving = motion.is_moving();
        let reversing = moving && motion.in_reverse();
        let now = match unit.avoiding.choice() {
            Some(choice) => choice.speed,
            None if moving => top,
            None => 0.0,
        };
        let settled = !moving && !unit.avoiding.off_path;
        let body = unit.body_radius.max(0.0);
        let weight = body * body * if settled { SETTLED_WEIGHT } else { 1.0 };
        self.entities.push(unit.entity);
        let pose = UnitPose {
            position: unit.position,
            heading: unit.heading,
        };
        self.starts.push((pose, polygon));
        self.reversing.push(reversing);
        self.threading.push(moving && motion.threading);
        self.held.push(unit.avoiding.held);
        self.goals.push(match motion.goal {
            Goal::Point(goal) if unit.has_destination => Some(goal),
            _ => None,
        });
        // One with nowhere to go stays at rest while it steps aside: it
        // has no path to rejoin.
        self.at_rest
            .push(!moving && !unit.wanders && motion.goal == Goal::None && !unit.opted_out);
        self.agents.push(Agent {
            position: unit.position,
            // A unit backing up moves, for the others, as if it faced the
            // way it goes.
            heading: if reversing {
                unit.heading + std::f32::consts::PI
            } else {
                unit.heading
            }
            .rem_euclid(std::f32::consts::TAU),
            speed: now,
            max_speed: top,
            turn_radius: unit.turn_radius,
            body_radius: body,
            priority: weight,
        });
        self.preferred.push((!unit.opted_out).then(|| {
            if moving {
                // A path backwards is planned from the pose facing the way
                // it goes, as the agent is.
                Preferred {
                    speed: top,
                    curvature: curvature_at(motion),
                }
            } else {
                Preferred::default()
            }
        }));
    }
}

/// The signed curvature of the unit's path where it is.
fn curvature_at(motion: &Motion) -> f32 {
    let mut left = motion.travelled();
    for segment in motion.path().segments() {
        if left <= segment.length() {
            return match *segment {
                Segment::Arc { radius, sweep, .. } => (1.0 / radius).copysign(sweep),
                Segment::Line { .. } => 0.0,
            };
        }
        left -= segment.length();
    }
    0.0
}
