//! Crowd avoidance in the plugin: [`crate::KerbSystems::Avoid`] chooses,
//! for each unit, a speed and a turn among the arcs it can drive
//! ([`kerb_crowd::choose`]) that keep its [`Body`] clear of its neighbours.
//!
//! Every choice reads only the poses and motions the last tick left, so the
//! order in which units are visited cannot change a run.

use bevy::prelude::*;
use bevy::tasks::{ComputeTaskPool, ParallelSlice, TaskPool};
use kerb_crowd::{
    Agent, AvoidanceParams, CONTACT_OVERLAP, Choice, Nearest, NeighbourGrid, Preferred,
    choose_within, keeps_clear,
};
use kerb_turning::Segment;

use crate::components::{NavLocation, Speed, TurningRadius, Unit, UnitPose, Wander};
use crate::settings::{KerbSettings, KerbStats};
use crate::state::{Goal, Intent, Motion, Pending};
use crate::systems::navmesh;
use crate::systems::reverse_out::reverse_out;
use crate::world_asset::{KerbWorld, WorldAsset};

/// A unit's body: the disc, `radius` across from its centre, that no other
/// unit's may overlap.
///
/// It is separate from the [`TurningRadius`] (how tightly it turns) and
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
    /// Whether units avoid each other at all. Off by default for now:
    /// bodies then never touch, but in the demo's crowd on the town a third
    /// of the units stand jammed for more than 5 s (see `CHANGELOG.md`).
    pub enabled: bool,
    /// How far ahead, in seconds, a meeting counts.
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
            horizon: 2.0,
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
    /// Ticks in a row that avoidance has held the unit still while it
    /// wanted to move.
    pub(crate) held: u16,
}

impl Avoiding {
    /// The speed and curvature chosen this tick, when it differs from the
    /// unit's path.
    pub fn choice(&self) -> Option<Choice> {
        self.choice.filter(|choice| choice.avoiding)
    }

    /// Whether the unit has left its path to keep clear, and will plan a
    /// fresh one back once the way is clear.
    pub fn is_off_path(&self) -> bool {
        self.off_path
    }
}

/// A settled unit (arrived or idle) makes way this many times less, so that
/// a settled group is not pushed about for ever.
const SETTLED_WEIGHT: f32 = 4.0;

/// How long, in seconds, avoidance holds a unit still that wants to move
/// before it backs out a step.
const HOLD_LIMIT: f32 = 1.0;

/// Cells of the neighbour grid, in metres: small enough that a query in a
/// dense crowd stops after a ring or two.
const GRID_CELL: f32 = 2.0;

/// How far ahead, in seconds, a unit backing up makes sure it keeps clear:
/// it cannot swerve, and those behind it may not see it coming.
const REVERSING_LOOK: f32 = 0.5;

/// The crowd as the last tick left it, kept between ticks so that its
/// buffers are not allocated again.
#[derive(Default)]
pub(crate) struct Crowd {
    entities: Vec<Entity>,
    /// Units left out (not placed) that still hold a choice to forget.
    unplaced: Vec<Entity>,
    /// Whether each unit is backing up along its path: it may only go on
    /// or wait.
    reversing: Vec<bool>,
    agents: Vec<Agent>,
    preferred: Vec<Option<Preferred>>,
    positions: Vec<Vec2>,
    grid: NeighbourGrid,
    choices: Vec<Option<Choice>>,
}

/// [`crate::KerbSystems::Avoid`]: each unit's speed and turn for this tick.
pub(crate) fn choose_motions(
    time: Res<Time>,
    settings: Res<AvoidanceSettings>,
    kerb_settings: Res<KerbSettings>,
    world: Res<KerbWorld>,
    assets: Res<Assets<WorldAsset>>,
    mut stats: ResMut<KerbStats>,
    mut crowd: Local<Crowd>,
    mut units: Query<
        (
            Entity,
            &UnitPose,
            &Speed,
            &TurningRadius,
            &Body,
            &mut Motion,
            &mut Intent,
            &NavLocation,
            &mut Avoiding,
            Has<NoAvoidance>,
            Has<Wander>,
        ),
        With<Unit>,
    >,
) {
    if !settings.enabled {
        for (.., mut avoiding, _, _) in &mut units {
            if avoiding.choice.is_some() {
                avoiding.choice = None;
            }
        }
        return;
    }
    let crowd = &mut *crowd;
    crowd.entities.clear();
    crowd.unplaced.clear();
    crowd.reversing.clear();
    crowd.agents.clear();
    crowd.preferred.clear();
    for (entity, pose, speed, radius, body, motion, _, location, avoiding, opted_out, _) in
        units.iter()
    {
        // A unit not yet placed on the mesh (or placed at a point that is
        // not finite) is nowhere others could meet it.
        if location.polygon().is_none() || !pose.position.is_finite() || !pose.heading.is_finite() {
            if avoiding.choice.is_some() {
                crowd.unplaced.push(entity);
            }
            continue;
        }
        let top = if speed.0.is_finite() {
            speed.0.max(0.0)
        } else {
            0.0
        };
        let moving = motion.is_moving();
        let reversing = moving && motion.is_reversing();
        let now = match avoiding.choice() {
            Some(choice) => choice.speed,
            None if moving => top,
            None => 0.0,
        };
        let settled = !moving && !avoiding.off_path;
        let weight = body.radius * body.radius * if settled { SETTLED_WEIGHT } else { 1.0 };
        crowd.entities.push(entity);
        crowd.reversing.push(reversing);
        crowd.agents.push(Agent {
            position: pose.position,
            // A unit backing up moves, for the others, as if it faced the
            // way it goes.
            heading: if reversing {
                pose.heading + std::f32::consts::PI
            } else {
                pose.heading
            }
            .rem_euclid(std::f32::consts::TAU),
            speed: now,
            max_speed: top,
            turn_radius: radius.0,
            body_radius: body.radius.max(0.0),
            priority: weight,
        });
        crowd.preferred.push((!opted_out).then(|| {
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
    crowd.positions.clear();
    crowd
        .positions
        .extend(crowd.agents.iter().map(|agent| agent.position));
    let range = settings.range.max(0.0);
    if crowd.grid.cell_size() == 0.0 {
        crowd.grid = NeighbourGrid::new(GRID_CELL);
    }
    crowd.grid.rebuild(&crowd.positions);
    let params = AvoidanceParams {
        horizon: settings.horizon.max(0.0),
        ..AvoidanceParams::default()
    };
    let dt = time.delta_secs();
    let mesh = navmesh(&world, &assets);
    // Each choice reads only the snapshot, so chunks run in parallel and
    // the result does not depend on how the crowd is split.
    let pool = ComputeTaskPool::get_or_init(TaskPool::default);
    let chunk = (crowd.agents.len() / (4 * pool.thread_num().max(1))).max(64);
    let shared = &*crowd;
    let chunks = shared
        .agents
        .par_chunk_map(pool, chunk, |chunk_index, agents| {
            let mut nearest = Nearest::new(settings.neighbours);
            let mut contacts = 0;
            let choices: Vec<Option<Choice>> = agents
                .iter()
                .enumerate()
                .map(|(offset, agent)| {
                    let index = chunk_index * chunk + offset;
                    shared
                        .grid
                        .nearest(agent.position, range, index as u32, &mut nearest);
                    contacts += nearest
                        .indices()
                        .filter(|&other| (other as usize) > index)
                        .filter(|&other| in_contact(agent, &shared.agents[other as usize]))
                        .count();
                    shared.preferred[index].map(|preferred| {
                        let neighbours = nearest
                            .indices()
                            .map(|other| &shared.agents[other as usize]);
                        // Making way keeps the body on the walkable area.
                        let room = |p: Vec2| {
                            mesh.is_some_and(|mesh| {
                                mesh.locate(p).is_some()
                                    && mesh.distance_to_wall(p, agent.body_radius)
                                        >= agent.body_radius
                            })
                        };
                        if shared.reversing[index] {
                            // Backing up goes on while it keeps clear for a
                            // while ahead, and waits otherwise.
                            let clear = keeps_clear(
                                agent,
                                preferred.speed,
                                preferred.curvature,
                                neighbours,
                                params.margin,
                                dt.max(REVERSING_LOOK),
                            );
                            return Choice {
                                speed: if clear { preferred.speed } else { 0.0 },
                                curvature: preferred.curvature,
                                avoiding: !clear,
                            };
                        }
                        choose_within(agent, preferred, neighbours, &params, dt, room)
                    })
                })
                .collect();
            (choices, contacts)
        });
    crowd.choices.clear();
    let mut contacts = 0;
    for (choices, found) in chunks {
        crowd.choices.extend(choices);
        contacts += found;
    }
    stats.contacts_last_tick = contacts as u32;
    stats.contacts_total += contacts as u64;
    let forget = crowd.unplaced.iter().map(|entity| (entity, &None, &None));
    let hold_limit = (HOLD_LIMIT / dt.max(f32::MIN_POSITIVE)).ceil() as u16;
    let known = crowd
        .entities
        .iter()
        .zip(&crowd.choices)
        .zip(&crowd.preferred)
        .map(|((entity, choice), preferred)| (entity, choice, preferred));
    for (entity, choice, preferred) in known.chain(forget) {
        let Ok((_, pose, _, radius, _, mut motion, mut intent, _, mut avoiding, _, wanders)) =
            units.get_mut(*entity)
        else {
            continue;
        };
        let held = choice.is_some_and(|choice| choice.speed == 0.0)
            && preferred.is_some_and(|preferred| preferred.speed > 0.0);
        let held_for = if held {
            avoiding.held.saturating_add(1)
        } else {
            0
        };
        if held_for >= hold_limit {
            // Held still too long (face to face with someone, too close to
            // turn away): back out a step, as a driver would, then go on;
            // if backing is what is held up, or no step back fits, look for
            // another way from here.
            let step_back = if motion.is_reversing() {
                None
            } else {
                mesh.and_then(|mesh| {
                    reverse_out(mesh, pose.to_pose(), radius.0, kerb_settings.clearance)
                })
            };
            if let Some(path) = step_back {
                // Backing starts next tick, once avoidance has seen it.
                motion.back_along(path);
                *avoiding = Avoiding {
                    choice: *choice,
                    ..default()
                };
            } else {
                motion.stand_at(*pose);
                motion.reversing = false;
                intent.desired = *pose;
                if motion.goal != Goal::None {
                    intent.pending = Pending::Plan;
                } else if wanders {
                    intent.pending = Pending::NewTarget;
                }
                *avoiding = Avoiding::default();
            }
            continue;
        }
        if avoiding.held != held_for {
            avoiding.held = held_for;
        }
        if avoiding.choice != *choice {
            avoiding.choice = *choice;
        }
    }
}

/// Whether two bodies overlap by more than [`CONTACT_OVERLAP`] of the sum
/// of their radii.
fn in_contact(a: &Agent, b: &Agent) -> bool {
    let reach = a.body_radius + b.body_radius;
    a.position.distance(b.position) < reach * (1.0 - CONTACT_OVERLAP)
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
