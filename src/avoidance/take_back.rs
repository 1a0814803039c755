//! The last word on contacts: after every unit has moved, a move that
//! brought two bodies into contact is taken back, so that no tick ends
//! with bodies overlapping, however long the tick.
//!
//! Avoidance judges each unit's arc against its neighbours' present
//! courses, and they change course in the same tick. Over a short tick the
//! difference is millimetres; over a long one (a few ticks a second) it
//! can bring two bodies into contact. Standing still is always drivable
//! and always on the walkable area, so a unit whose move is taken back
//! stands where the tick found it and plans its way on from there.

use bevy::prelude::*;
use bevy::tasks::{ComputeTaskPool, ParallelSlice, TaskPool};
use kerb_crowd::moves_into_contact;

use super::AvoidanceSettings;
use super::snapshot::Crowd;
use crate::components::{NavLocation, Unit, UnitPose, Wander};
use crate::settings::KerbStats;
use crate::state::Intent;

type MovedUnit = (
    &'static mut UnitPose,
    &'static mut NavLocation,
    &'static mut Intent,
    &'static mut Transform,
    Has<Wander>,
);

/// Where each unit of the snapshot ended this tick, for [`take_back_contacts`].
#[derive(Default)]
pub(crate) struct Ends {
    /// Each unit's position after its move (its start if taken back).
    positions: Vec<Vec2>,
    /// Units whose move is taken back, by index, in order.
    taken_back: Vec<u32>,
    /// Scratch: the units to check again in a round.
    check: Vec<u32>,
}

/// [`crate::KerbSystems::Confine`], after confinement: takes back every
/// move that brought two bodies into contact (see the module's comment).
pub(crate) fn take_back_contacts(
    settings: Res<AvoidanceSettings>,
    crowd: Res<Crowd>,
    mut stats: ResMut<KerbStats>,
    mut ends: Local<Ends>,
    mut units: Query<MovedUnit, With<Unit>>,
) {
    if !settings.enabled || crowd.entities.is_empty() {
        return;
    }
    let ends = &mut *ends;
    let pool = ComputeTaskPool::get_or_init(TaskPool::default);
    let chunk = chunk_size(crowd.entities.len(), pool);
    let units_now = units.as_readonly();
    let moved = crowd
        .entities
        .par_chunk_map(pool, chunk, |chunk_index, entities| {
            let starts = &crowd.starts[chunk_index * chunk..];
            entities
                .iter()
                .zip(starts)
                .map(|(&entity, (start, _))| {
                    units_now
                        .get(entity)
                        .map_or(start.position, |(pose, ..)| pose.position)
                })
                .collect::<Vec<Vec2>>()
        });
    ends.positions.clear();
    ends.positions.extend(moved.into_iter().flatten());
    find_taken_back(&crowd, ends);
    stats.moves_taken_back_total += ends.taken_back.len() as u64;
    for &index in &ends.taken_back {
        let (start, polygon) = crowd.starts[index as usize];
        let Ok((mut pose, mut location, mut intent, mut transform, wanders)) =
            units.get_mut(crowd.entities[index as usize])
        else {
            continue;
        };
        *pose = start;
        location.polygon = Some(polygon);
        start.write_to(&mut transform);
        // Its path went on without it: it plans its way on from here.
        intent.plan_on_from_here(wanders);
    }
}

/// Fills `ends.taken_back` with the units whose moves must be taken back,
/// setting their end positions back to their starts. Each round reads only
/// the ends the last round left, so the result does not depend on the
/// order units are checked in, nor on how the work is split.
fn find_taken_back(crowd: &Crowd, ends: &mut Ends) {
    ends.taken_back.clear();
    let start = |index: u32| crowd.starts[index as usize].0.position;
    // The furthest any unit moved bounds how near two must have started
    // to meet.
    let furthest = ends
        .positions
        .iter()
        .enumerate()
        .map(|(index, end)| end.distance(start(index as u32)))
        .filter(|moved| moved.is_finite())
        .fold(0.0, f32::max);
    let pool = ComputeTaskPool::get_or_init(TaskPool::default);
    let chunk = chunk_size(crowd.entities.len(), pool);
    let positions = &ends.positions;
    let found = crowd.order.par_chunk_map(pool, chunk, |_, order| {
        order
            .iter()
            .copied()
            .filter(|&index| must_stand(crowd, positions, furthest, index))
            .collect::<Vec<u32>>()
    });
    let mut newly: Vec<u32> = found.into_iter().flatten().collect();
    // Standing where it started, a unit may now be in the way of one that
    // moved where it stood: check those again until none is left.
    while !newly.is_empty() {
        newly.sort_unstable();
        for &index in &newly {
            ends.positions[index as usize] = start(index);
        }
        ends.taken_back.extend_from_slice(&newly);
        ends.check.clear();
        for &index in &newly {
            let agent = &crowd.agents[index as usize];
            let range = agent.body_radius + furthest;
            crowd
                .grid
                .visit_bodies_within(agent.position, range, |other| ends.check.push(other));
        }
        ends.check.sort_unstable();
        ends.check.dedup();
        let positions = &ends.positions;
        newly = ends
            .check
            .iter()
            .copied()
            .filter(|&index| must_stand(crowd, positions, furthest, index))
            .collect();
    }
    ends.taken_back.sort_unstable();
}

/// How many units a parallel task takes: a few tasks per thread.
fn chunk_size(units: usize, pool: &TaskPool) -> usize {
    (units / (4 * pool.thread_num().max(1))).max(256)
}

/// Whether unit `index`'s move (from its start to `ends[index]`) must be
/// taken back: it brings its body into contact with a neighbour that
/// stands, or that moves and is no lighter, or that opted out of
/// avoidance. Of two equals both stand; of two that differ the lighter
/// stands first, and the heavier only if that is still not enough. A unit
/// that opted out, or did not move, never stands for another.
fn must_stand(crowd: &Crowd, ends: &[Vec2], furthest: f32, index: u32) -> bool {
    let i = index as usize;
    let agent = &crowd.agents[i];
    let (from, to) = (agent.position, ends[i]);
    if from == to || crowd.preferred[i].is_none() {
        return false;
    }
    // No other body near enough to meet this tick.
    let range = agent.body_radius + from.distance(to) + furthest;
    if crowd.clear_to.get(i).is_some_and(|&clear| clear > range) {
        return false;
    }
    let mut stands = false;
    crowd.grid.visit_bodies_within(from, range, |other| {
        let j = other as usize;
        if stands || j == i {
            return;
        }
        let them = &crowd.agents[j];
        let bodies = agent.body_radius + them.body_radius;
        if !moves_into_contact(from, to, them.position, ends[j], bodies) {
            return;
        }
        let they_move = ends[j] != them.position;
        stands = !they_move || crowd.preferred[j].is_none() || agent.priority <= them.priority;
    });
    stands
}

#[cfg(test)]
mod tests {
    use kerb_crowd::{Agent, NeighbourGrid, Preferred};
    use kerb_navmesh::PolygonId;

    use super::super::tests::pedestrian;
    use super::*;

    /// Units moving from the first of each pair to the second (a tank if
    /// `tanks` says so, opted out if `opted_out` does): the indices of
    /// those whose moves are taken back.
    fn taken_back(moves: &[(Vec2, Vec2)], tanks: &[usize], opted_out: &[usize]) -> Vec<u32> {
        let mut crowd = Crowd::default();
        crowd.agents = moves
            .iter()
            .enumerate()
            .map(|(index, &(from, _))| {
                let agent = pedestrian(from, 0.0);
                if tanks.contains(&index) {
                    Agent {
                        body_radius: 2.5,
                        priority: 6.25,
                        ..agent
                    }
                } else {
                    Agent {
                        priority: 0.09,
                        ..agent
                    }
                }
            })
            .collect();
        crowd.preferred = (0..moves.len())
            .map(|index| (!opted_out.contains(&index)).then(Preferred::default))
            .collect();
        crowd.starts = moves
            .iter()
            .map(|&(from, _)| {
                let pose = UnitPose {
                    position: from,
                    heading: 0.0,
                };
                (pose, PolygonId(0))
            })
            .collect();
        crowd.entities = vec![Entity::PLACEHOLDER; moves.len()];
        let positions: Vec<Vec2> = moves.iter().map(|&(from, _)| from).collect();
        let radii: Vec<f32> = crowd.agents.iter().map(|a| a.body_radius).collect();
        crowd.grid = NeighbourGrid::new(2.0);
        crowd.grid.rebuild_bodies(&positions, &radii);
        crowd.order = crowd.grid.order().collect();
        let mut ends = Ends {
            positions: moves.iter().map(|&(_, to)| to).collect(),
            ..Ends::default()
        };
        find_taken_back(&crowd, &mut ends);
        ends.taken_back
    }

    fn at(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    #[test]
    fn equals_closing_into_contact_both_stand() {
        let head_on = [(at(0.0, 0.0), at(0.25, 0.0)), (at(1.0, 0.0), at(0.75, 0.0))];
        assert_eq!(taken_back(&head_on, &[], &[]), vec![0, 1]);
        // Side by side, clear of each other: both go on.
        let abreast = [(at(0.0, 0.0), at(1.0, 0.0)), (at(0.0, 0.7), at(1.0, 0.7))];
        assert!(taken_back(&abreast, &[], &[]).is_empty());
    }

    #[test]
    fn the_lighter_stands_first_and_the_heavier_only_if_still_in_contact() {
        // A tank drives on, away from where a pedestrian walking into it
        // started: only the pedestrian stands.
        let past = [(at(0.0, 0.0), at(0.5, 0.0)), (at(3.5, 0.0), at(3.0, 0.0))];
        assert_eq!(taken_back(&past, &[0], &[]), vec![1]);
        // The tank drives onto where the pedestrian stood: both stand.
        let onto = [(at(0.0, 0.0), at(1.0, 0.0)), (at(3.6, 0.0), at(3.3, 0.0))];
        assert_eq!(taken_back(&onto, &[0], &[]), vec![0, 1]);
    }

    #[test]
    fn one_standing_again_stops_the_one_behind_it() {
        // 0 stands; 1 walks into it and must stand where it was; 2, clear
        // of 1's end but not of where 1 stood, must stand too.
        let queue = [
            (at(0.0, 0.0), at(0.0, 0.0)),
            (at(1.0, 0.0), at(0.5, 0.0)),
            (at(2.2, 0.0), at(1.5, 0.0)),
        ];
        assert_eq!(taken_back(&queue, &[], &[]), vec![1, 2]);
    }

    #[test]
    fn a_unit_that_opted_out_goes_on_and_the_others_stand_for_it() {
        let head_on = [(at(0.0, 0.0), at(0.25, 0.0)), (at(1.0, 0.0), at(0.75, 0.0))];
        assert_eq!(taken_back(&head_on, &[], &[0]), vec![1]);
    }
}
