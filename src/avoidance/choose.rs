//! [`crate::KerbSystems::Avoid`]: each unit's speed and turn for the tick,
//! chosen in parallel from the snapshot.

use std::f32::consts::PI;

use bevy::prelude::*;
use bevy::tasks::{ComputeTaskPool, ParallelSlice, TaskPool};
use kerb_crowd::{
    Agent, AvoidanceParams, Choice, Nearest, Preferred, choose_within, in_contact, keep_to_path,
    keeps_clear,
};
use kerb_navmesh::NavMesh;

use super::snapshot::{Crowd, UnitView};
use super::standing::{make_room_after, making_room, taken_reach};
use super::unjam::{Landing, WayOut, hold_limit, land, way_out};
use super::{AvoidanceSettings, Avoiding, Body, NoAvoidance};
use crate::components::{Destination, NavLocation, Speed, TurningRadius, Unit, UnitPose, Wander};
use crate::settings::{KerbSettings, KerbStats};
use crate::state::{Intent, Motion};
use crate::systems::navmesh;
use crate::world_asset::{KerbWorld, WorldAsset};

type AvoidanceData = (
    Entity,
    &'static UnitPose,
    &'static Speed,
    &'static TurningRadius,
    &'static Body,
    &'static mut Motion,
    &'static mut Intent,
    &'static NavLocation,
    &'static mut Avoiding,
    Has<NoAvoidance>,
    Has<Wander>,
    Has<Destination>,
);

/// [`crate::KerbSystems::Avoid`]: each unit's speed and turn for this tick.
pub(crate) fn choose_motions(
    time: Res<Time>,
    settings: Res<AvoidanceSettings>,
    kerb_settings: Res<KerbSettings>,
    world: Res<KerbWorld>,
    assets: Res<Assets<WorldAsset>>,
    mut stats: ResMut<KerbStats>,
    mut crowd: ResMut<Crowd>,
    mut units: Query<AvoidanceData, With<Unit>>,
) {
    if !settings.enabled {
        for (.., mut avoiding, _, _, _) in &mut units {
            if avoiding.choice.is_some() {
                avoiding.choice = None;
            }
        }
        return;
    }
    let crowd = &mut *crowd;
    crowd.take(units.iter().map(
        |(
            entity,
            pose,
            speed,
            radius,
            body,
            motion,
            _,
            location,
            avoiding,
            opted_out,
            wanders,
            has_destination,
        )| {
            UnitView {
                entity,
                position: pose.position,
                heading: pose.heading,
                speed: speed.0,
                turn_radius: radius.0,
                body_radius: body.radius,
                motion,
                polygon: location.polygon(),
                avoiding,
                opted_out,
                wanders,
                has_destination,
            }
        },
    ));
    let dt = time.delta_secs();
    let mesh = navmesh(&world, &assets);
    let contacts = choose_all(crowd, &settings, mesh, kerb_settings.clearance, dt);
    stats.contacts_last_tick = contacts as u32;
    stats.contacts_total += contacts as u64;

    let forget = crowd
        .unplaced
        .iter()
        .map(|entity| (entity, None, None, None, 0.0, None));
    // The few ways out, in unit order, matched to their units in turn.
    crowd.ways_out.sort_unstable_by_key(|(index, _)| *index);
    let mut backs = crowd.ways_out.drain(..).peekable();
    let known = crowd
        .entities
        .iter()
        .zip(crowd.choices.iter().copied())
        .zip(crowd.preferred.iter().copied())
        .zip(crowd.wishes.iter().copied())
        .zip(crowd.arrive_within.iter().copied())
        .enumerate()
        .map(|(index, ((((entity, choice), preferred), wish), within))| {
            let back = backs
                .next_if(|(at, _)| *at as usize == index)
                .map(|(_, path)| path);
            (entity, choice, preferred, wish, within, back)
        });
    for (entity, choice, preferred, wish, arrive_within, back) in known.chain(forget) {
        let Ok((_, pose, _, _, _, mut motion, mut intent, _, mut avoiding, _, wanders, _)) =
            units.get_mut(*entity)
        else {
            continue;
        };
        let unit = Landing {
            pose,
            motion: &mut motion,
            intent: &mut intent,
            avoiding: &mut avoiding,
            wanders,
            arrive_within,
        };
        land(unit, choice, preferred, wish, back, dt);
    }
}

/// Every unit's choice into `crowd.choices`, and for the units about to
/// have been held too long their ways out (`crowd.ways_out`, paths
/// `clearance` off the walls); returns the pairs of bodies in contact.
/// Each choice reads only the snapshot, so chunks run in parallel and the
/// result does not depend on how the crowd is split.
fn choose_all(
    crowd: &mut Crowd,
    settings: &AvoidanceSettings,
    mesh: Option<&NavMesh>,
    clearance: f32,
    dt: f32,
) -> usize {
    let params = AvoidanceParams {
        horizon: settings.horizon.max(0.0),
        ..AvoidanceParams::default()
    };
    let range = settings.range.max(0.0);
    let held_limit = make_room_after(dt);
    let backs_out_at = hold_limit(dt);
    let pool = ComputeTaskPool::get_or_init(TaskPool::default);
    let chunk = (crowd.agents.len() / (4 * pool.thread_num().max(1))).max(64);
    // Units are visited cell by cell, so that each query finds the
    // neighbours the last one read still in cache.
    crowd.order.clear();
    crowd.order.extend(crowd.grid.order());
    let shared = &*crowd;
    let chunks = shared.order.par_chunk_map(pool, chunk, |_, order| {
        let mut nearest = Nearest::new(settings.neighbours);
        let mut contacts = 0;
        let mut backs: Vec<(u32, WayOut)> = Vec::new();
        let choices: Vec<(u32, Option<Choice>, Option<Preferred>, f32, f32)> = order
            .iter()
            .map(|&index| {
                let agent = &shared.agents[index as usize];
                shared
                    .grid
                    .nearest_bodies(agent.position, range, index, &mut nearest);
                contacts += nearest
                    .indices()
                    .filter(|&other| other > index)
                    .filter(|&other| in_contact(agent, &shared.agents[other as usize]))
                    .count();
                let room = shared.at_rest[index as usize]
                    .then(|| making_room(shared, index, &nearest, held_limit))
                    .flatten();
                let wish =
                    shared.preferred[index as usize].map(|preferred| room.unwrap_or(preferred));
                let choice = wish.map(|wish| {
                    let neighbours = nearest
                        .indices()
                        .map(|other| &shared.agents[other as usize]);
                    let keeping = if shared.reversing[index as usize] {
                        Keeping::Reversing
                    } else if shared.threading[index as usize] {
                        Keeping::Threading
                    } else {
                        Keeping::Free
                    };
                    let choice = choose_one(agent, wish, neighbours, keeping, &params, mesh, dt);
                    // A settled unit stepping aside leaves where it stood.
                    Choice {
                        avoiding: choice.avoiding || (room.is_some() && choice.speed > 0.0),
                        ..choice
                    }
                });
                let within = shared.goals[index as usize].map_or(0.0, |goal| {
                    taken_reach(agent, goal, &shared.agents, &nearest, params.margin)
                });
                // Only a unit that may be held its last tick looks for a
                // way back out, and the step it finds goes unused unless
                // it is.
                let back = mesh
                    .filter(|_| shared.held[index as usize].saturating_add(1) >= backs_out_at)
                    .and_then(|mesh| {
                        let neighbours = nearest
                            .indices()
                            .map(|other| &shared.agents[other as usize]);
                        let reversing = shared.reversing[index as usize];
                        // One backing up is seen facing the way it goes:
                        // its way out starts from the way it faces.
                        let facing = Agent {
                            heading: agent.heading + if reversing { PI } else { 0.0 },
                            ..*agent
                        };
                        way_out(
                            &facing,
                            neighbours,
                            mesh,
                            clearance,
                            params.margin,
                            reversing,
                            shared.goals[index as usize],
                        )
                    });
                backs.extend(back.map(|path| (index, path)));
                let clear_to = nearest.nearest_distance_sq().map_or(range, f32::sqrt);
                (index, choice, wish, within, clear_to)
            })
            .collect();
        (choices, backs, contacts)
    });
    crowd.choices.clear();
    crowd.choices.resize(crowd.agents.len(), None);
    crowd.wishes.clear();
    crowd.wishes.resize(crowd.agents.len(), None);
    crowd.arrive_within.clear();
    crowd.arrive_within.resize(crowd.agents.len(), 0.0);
    crowd.clear_to.clear();
    crowd.clear_to.resize(crowd.agents.len(), 0.0);
    crowd.ways_out.clear();
    let mut contacts = 0;
    for (choices, backs, found) in chunks {
        for (index, choice, wish, within, clear_to) in choices {
            crowd.choices[index as usize] = choice;
            crowd.wishes[index as usize] = wish;
            crowd.arrive_within[index as usize] = within;
            crowd.clear_to[index as usize] = clear_to;
        }
        crowd.ways_out.extend(backs);
        contacts += found;
    }
    contacts
}

/// How a unit holds to its path while avoiding.
#[derive(Clone, Copy)]
enum Keeping {
    /// Backing up: it goes on or waits, never swerves.
    Reversing,
    /// On a way in among others standing, planned clear of them.
    Threading,
    /// Making way as avoidance asks.
    Free,
}

/// How far ahead, in seconds, a unit threading its way among others
/// standing checks that its path keeps clear of everyone.
const THREADING_LOOK: f32 = 0.5;

/// One unit's choice: a unit backing up goes on while it keeps clear for a
/// while ahead and waits otherwise; one threading its way among others
/// standing keeps to it while it keeps clear for a while ahead (avoidance,
/// looking further, would push it off a way planned past them); any other
/// makes way on the walkable area, its body clear of the walls.
fn choose_one<'a>(
    agent: &Agent,
    preferred: Preferred,
    neighbours: impl Iterator<Item = &'a Agent> + Clone,
    keeping: Keeping,
    params: &AvoidanceParams,
    mesh: Option<&NavMesh>,
    dt: f32,
) -> Choice {
    match keeping {
        // Backing up slower needs less room behind: the fastest of a few
        // speeds that keeps clear, as a person steps back carefully.
        Keeping::Reversing => return keep_to_path(agent, preferred, neighbours, params, dt),
        Keeping::Threading
            if keeps_clear(
                agent,
                preferred.speed,
                preferred.curvature,
                neighbours.clone(),
                params.margin,
                dt.max(THREADING_LOOK),
            ) =>
        {
            return Choice {
                speed: preferred.speed,
                curvature: preferred.curvature,
                avoiding: false,
            };
        }
        Keeping::Threading | Keeping::Free => {}
    }
    let room = |p: Vec2| mesh.is_some_and(|mesh| mesh.has_room(p, agent.body_radius));
    // The nearest wall within reach of the wall horizon.
    let reach = agent.body_radius + agent.max_speed * params.wall_horizon;
    let wall = mesh.and_then(|mesh| mesh.nearest_wall_point(agent.position, reach));
    let walls = wall.as_slice();
    choose_within(agent, preferred, neighbours, params, dt, walls, room)
}
