//! Wander targets for [`crate::KerbSystems::Plan`]: where each wanderer
//! heads next, on the walkable area and with room for its body.

use bevy::prelude::*;
use kerb_crowd::Agent;
use kerb_navmesh::{NavMesh, closest_point_on_segment};

use crate::avoidance::{Body, Crowd};
use crate::components::{UnitPose, Wander};
use crate::state::WanderMemory;

/// What every wander target this tick is chosen with.
#[derive(Clone, Copy)]
pub(super) struct WanderClock {
    /// Seconds on the schedule's clock.
    pub now: f64,
    /// The run's seed, which seeds each unit's stream.
    pub seed: u64,
    /// How far targets pulled back from a wall are kept from it.
    pub wall_margin: f32,
}

/// Gives a wanderer a new, walkable wander target, first letting its wander
/// angle wander for the time since it last did, and keeps its `body` off
/// the walls there (see [`off_the_walls`]) and, where avoidance is on, off
/// the way of heavier bodies in the `crowd` (see [`out_of_the_way`]) and
/// round any body on its way (see [`round_the_body_ahead`]).
#[allow(clippy::too_many_arguments)]
pub(super) fn choose_wander_target(
    mesh: &NavMesh,
    crowd: Option<&Crowd>,
    clock: WanderClock,
    entity: Entity,
    pose: &UnitPose,
    body: &Body,
    turn_radius: f32,
    wander: &Wander,
    memory: &mut WanderMemory,
) -> Vec2 {
    // Seeded on the first target rather than on placement, so that a unit
    // told to wander later gets its own stream too.
    let state = memory.state.get_or_insert_with(|| {
        memory.wandered_until = clock.now;
        kerb_steering::WanderState::new(clock.seed, entity.to_bits())
    });
    let params = wander.params();
    let wandered = (clock.now - memory.wandered_until) as f32;
    memory.wandered_until = clock.now;
    state.advance(&params, wandered);
    let target = state.walkable_target(
        &params,
        pose.position,
        pose.heading,
        mesh,
        clock.wall_margin,
    );
    let target = off_the_walls(mesh, target, body.radius, turn_radius);
    let target = out_of_the_loop(mesh, pose, target, body.radius, turn_radius);
    match crowd {
        Some(crowd) => {
            let target = out_of_the_way(mesh, crowd, pose, target, body.radius, turn_radius);
            round_the_body_ahead(mesh, crowd, entity, pose, target, body.radius, turn_radius)
        }
        None => target,
    }
}

/// How many turning radii off a wander target close behind a unit is
/// moved to (see [`out_of_the_loop`]).
const LOOP_REACH: f32 = 3.0;

/// A wander `target` that lies in a turning circle of a unit standing at
/// `pose`, or behind it nearer than [`LOOP_REACH`] turning radii, moved on
/// along the same bearing to that distance, where a body has room there.
/// The way to a point close behind is a whole loop that ends facing the
/// way the unit came: in a corner, where each target ahead is pulled back
/// off the walls to that same spot, a unit loops there for good. Heading
/// further off, it turns about once and out.
fn out_of_the_loop(
    mesh: &NavMesh,
    pose: &UnitPose,
    target: Vec2,
    body_radius: f32,
    turn_radius: f32,
) -> Vec2 {
    let from = pose.position;
    let forward = Vec2::from_angle(pose.heading);
    let offset = target - from;
    let local = Vec2::new(forward.dot(offset), forward.perp_dot(offset));
    let reach = LOOP_REACH * turn_radius;
    let centre = Vec2::new(0.0, turn_radius);
    let in_a_circle = local.distance(centre) < turn_radius || local.distance(-centre) < turn_radius;
    let close_behind = local.x < 0.0 && local.length() < reach;
    if !(in_a_circle || close_behind) {
        return target;
    }
    let bearing = offset.normalize_or(-forward);
    first_aside(
        mesh,
        from,
        [bearing],
        reach,
        body_radius,
        turn_radius,
        |_| true,
    )
    .unwrap_or(target)
}

/// Room, in metres, a wanderer's way to its target keeps from the bodies
/// of others, beyond the sum of their radii.
const BODY_ROOM: f32 = 0.1;

/// A wander `target` for the wanderer `entity`, of `body_radius`, standing
/// at `pose`, turned off the body of another in the `crowd` that stands on
/// its straight way there: square to that body, on the target's side, else
/// on the other, as far as the target was. Two wanderers face to face
/// whose targets lie through each other circle on the spot for seconds;
/// heading beside each other they part.
fn round_the_body_ahead(
    mesh: &NavMesh,
    crowd: &Crowd,
    entity: Entity,
    pose: &UnitPose,
    target: Vec2,
    body_radius: f32,
    turn_radius: f32,
) -> Vec2 {
    let from = pose.position;
    let Some(ahead) = body_ahead(crowd, entity, from, target, body_radius) else {
        return target;
    };
    let towards = (crowd.agents[ahead as usize].position - from).normalize_or_zero();
    let side = if towards.perp_dot(target - from) >= 0.0 {
        1.0
    } else {
        -1.0
    };
    let directions = [side, -side].map(|side| towards.perp() * side);
    let reach = from.distance(target);
    first_aside(
        mesh,
        from,
        directions,
        reach,
        body_radius,
        turn_radius,
        |aside| {
            heavier_across(crowd, from, aside, body_radius).is_none()
                && body_ahead(crowd, entity, from, aside, body_radius).is_none()
        },
    )
    .unwrap_or(target)
}

/// The first of the points `reach` from `from` in each of `directions`,
/// moved in off the walls (see [`off_the_walls`]), that is walkable, has
/// room for a body of `body_radius` and is `clear`: where a wanderer turns
/// its target aside to.
fn first_aside(
    mesh: &NavMesh,
    from: Vec2,
    directions: impl IntoIterator<Item = Vec2>,
    reach: f32,
    body_radius: f32,
    turn_radius: f32,
    clear: impl Fn(Vec2) -> bool,
) -> Option<Vec2> {
    directions
        .into_iter()
        .map(|direction| off_the_walls(mesh, from + direction * reach, body_radius, turn_radius))
        .find(|&aside| {
            mesh.locate(aside).is_some() && mesh.has_room(aside, body_radius) && clear(aside)
        })
}

/// The index of a body in the `crowd`, other than `entity`'s own, that the
/// straight way from `from` to `to` passes within [`BODY_ROOM`] of, nearer
/// than `to` and ahead: a body beside or behind `from` is not in the way.
fn body_ahead(
    crowd: &Crowd,
    entity: Entity,
    from: Vec2,
    to: Vec2,
    body_radius: f32,
) -> Option<u32> {
    let mut found = None;
    let reach = from.distance(to);
    crowd.grid.visit_bodies_within(from, reach, |index| {
        let other = &crowd.agents[index as usize];
        if found.is_some() || crowd.entities[index as usize] == entity {
            return;
        }
        let apart = distance_to_segment(other.position, from, to);
        let near = from.distance(other.position);
        if apart < other.body_radius + body_radius + BODY_ROOM
            && apart < near - 1e-3
            && near < reach
        {
            found = Some(index);
        }
    });
    found
}

/// How far ahead, in seconds, a wanderer looks along the way of a heavier
/// body when it picks a target.
const LOOK_AHEAD: f32 = 3.0;

/// Room, in metres, a wanderer's way to its target keeps from a heavier
/// body's way, beyond the sum of their radii.
const WAY_ROOM: f32 = 0.5;

/// A body this many times a wanderer's radius, or more, counts as heavier:
/// the wanderer keeps out of its way rather than cross it.
const HEAVIER: f32 = 2.0;

/// A wander `target` for a body of `body_radius` standing at `pose`,
/// moved out of the way of heavier bodies in the `crowd`: where the
/// straight way to it crosses where one of them drives in the next
/// [`LOOK_AHEAD`] seconds, the wanderer heads square off that body's way,
/// on its own side, or straight away from it, as far as it would have
/// gone. A pedestrian wandering across a tank's way stands in it, held,
/// pinned to a wall beside it; stepping aside it lets the tank by.
fn out_of_the_way(
    mesh: &NavMesh,
    crowd: &Crowd,
    pose: &UnitPose,
    target: Vec2,
    body_radius: f32,
    turn_radius: f32,
) -> Vec2 {
    let from = pose.position;
    let Some(blocker) = heavier_across(crowd, from, target, body_radius) else {
        return target;
    };
    let other = &crowd.agents[blocker as usize];
    let way = way_ahead(other);
    let lateral = way.normalize_or_zero().perp_dot(from - other.position);
    let side = if lateral >= 0.0 { 1.0 } else { -1.0 };
    let room = other.body_radius + body_radius + WAY_ROOM;
    // Far enough to stand clear of its way, if it is further than the
    // target was.
    let reach = from
        .distance(target)
        .max(room - lateral.abs() + body_radius);
    let square = way.normalize_or_zero().perp() * side;
    let away = (from - other.position).normalize_or(square);
    first_aside(
        mesh,
        from,
        [square, away],
        reach,
        body_radius,
        turn_radius,
        |aside| heavier_across(crowd, from, aside, body_radius).is_none(),
    )
    .unwrap_or(target)
}

/// The index of a body in the `crowd` heavier than one of `body_radius`
/// (see [`HEAVIER`]) whose way over the next [`LOOK_AHEAD`] seconds the
/// straight way from `from` to `to` comes nearer than both the sum of
/// their radii and [`WAY_ROOM`] and where it starts, if any: a way leading
/// off from beside one is not across it.
fn heavier_across(crowd: &Crowd, from: Vec2, to: Vec2, body_radius: f32) -> Option<u32> {
    let mut found = None;
    let middle = (from + to) / 2.0;
    // A heavier body further off may still drive into the way in time.
    let reach = from.distance(to) / 2.0 + WAY_ROOM + body_radius + crowd.fastest * LOOK_AHEAD;
    crowd.grid.visit_bodies_within(middle, reach, |index| {
        let other = &crowd.agents[index as usize];
        if found.is_some() || other.body_radius < HEAVIER * body_radius {
            return;
        }
        let room = other.body_radius + body_radius + WAY_ROOM;
        let ahead = other.position + way_ahead(other);
        let nearest = segments_apart(from, to, other.position, ahead);
        if nearest < room && nearest < distance_to_segment(from, other.position, ahead) - 1e-3 {
            found = Some(index);
        }
    });
    found
}

/// The distance between the segments from `a` to `b` and from `c` to `d`.
fn segments_apart(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> f32 {
    let side = |p: Vec2, q: Vec2, r: Vec2| (q - p).perp_dot(r - p);
    let crossing = side(a, b, c) * side(a, b, d) < 0.0 && side(c, d, a) * side(c, d, b) < 0.0;
    if crossing {
        return 0.0;
    }
    distance_to_segment(a, c, d)
        .min(distance_to_segment(b, c, d))
        .min(distance_to_segment(c, a, b))
        .min(distance_to_segment(d, a, b))
}

/// The distance from `p` to the segment from `a` to `b`.
fn distance_to_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    p.distance(closest_point_on_segment(a, b, p))
}

/// Where `agent` drives over the next [`LOOK_AHEAD`] seconds at its top
/// speed, from where it stands.
fn way_ahead(agent: &Agent) -> Vec2 {
    Vec2::from_angle(agent.heading) * agent.max_speed * LOOK_AHEAD
}

/// A wander `target` moved in from the nearest wall, for a unit of
/// `body_radius` that turns no tighter than `turn_radius`: to a turning
/// circle and a body from every wall, where there is that room, so that
/// one arriving there facing the wall can still turn about; else, where
/// the target is nearer a wall than twice `body_radius`, to that distance,
/// where a body has room there. A target against a wall is where a unit's
/// body would overlap the wall, and avoidance keeps it off: it stands short
/// of the target, in the way of those passing along the wall (a tank whose
/// path runs along it pins a pedestrian there).
fn off_the_walls(mesh: &NavMesh, target: Vec2, body_radius: f32, turn_radius: f32) -> Vec2 {
    let turn_room = turn_radius + body_radius;
    pushed_off(mesh, target, turn_room, turn_room)
        .or_else(|| pushed_off(mesh, target, 2.0 * body_radius, body_radius))
        .unwrap_or(target)
}

/// `target` moved straight in from its nearest wall to `keep` from it,
/// where that is nearer than `keep` and the point moved to is `room` from
/// every wall; `target` itself where no wall is nearer than `keep`.
fn pushed_off(mesh: &NavMesh, target: Vec2, keep: f32, room: f32) -> Option<Vec2> {
    let Some(wall) = mesh.nearest_wall_point(target, keep) else {
        return Some(target);
    };
    let inward = (target - wall).normalize_or_zero();
    let pushed = wall + inward * keep;
    (inward != Vec2::ZERO && mesh.has_room(pushed, room * 0.999)).then_some(pushed)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A crowd of one tank at `position`, heading `heading` at its top
    /// speed, as the snapshot leaves it.
    fn a_tank(position: Vec2, heading: f32) -> Crowd {
        let mut crowd = Crowd::default();
        crowd.agents = vec![Agent {
            position,
            heading,
            speed: 4.5,
            max_speed: 4.5,
            turn_radius: 11.0,
            body_radius: 2.5,
            priority: 6.25,
        }];
        crowd.at_rest = vec![false];
        crowd.fastest = 4.5;
        crowd.grid = kerb_crowd::NeighbourGrid::new(2.0);
        crowd.grid.rebuild_bodies(&[position], &[2.5]);
        crowd
    }

    /// A pedestrian beside a tank's way whose target lies across it heads
    /// square off the way instead, on its own side, to a spot clear of
    /// where the tank drives; one whose target is clear of the way keeps
    /// it, and so does one behind a tank driving away from it.
    #[test]
    fn a_wanderer_keeps_out_of_a_tanks_way() {
        let open = kerb_navmesh::generate::grid_world(40, 40, 2.0, |_, _| false)
            .validate()
            .expect("a plain grid is valid")
            .navmesh;
        // The tank at (40, 30) drives north along x = 40.
        let crowd = a_tank(Vec2::new(40.0, 30.0), std::f32::consts::FRAC_PI_2);
        let pose = UnitPose {
            position: Vec2::new(37.0, 36.0),
            heading: 0.0,
        };
        let across = Vec2::new(41.0, 36.5);
        let aside = out_of_the_way(&open, &crowd, &pose, across, 0.3, 0.8);
        assert!(aside.x < 40.0 - 3.3, "{aside}");
        assert!(heavier_across(&crowd, pose.position, aside, 0.3).is_none());
        let clear = Vec2::new(35.0, 37.0);
        assert_eq!(out_of_the_way(&open, &crowd, &pose, clear, 0.3, 0.8), clear);
        let behind = UnitPose {
            position: Vec2::new(37.0, 24.0),
            heading: 0.0,
        };
        let across_behind = Vec2::new(43.0, 24.0);
        assert_eq!(
            out_of_the_way(&open, &crowd, &behind, across_behind, 0.3, 0.8),
            across_behind
        );
    }

    /// Two pedestrians face to face: one whose target lies through the
    /// other heads square off it, on the target's side, to a target as far
    /// off with nobody on the way; a target clear of the other is kept.
    #[test]
    fn a_wanderer_heads_round_a_body_on_its_way() {
        let open = kerb_navmesh::generate::grid_world(30, 30, 2.0, |_, _| false)
            .validate()
            .expect("a plain grid is valid")
            .navmesh;
        let mut world = World::new();
        let (us, them) = (world.spawn_empty().id(), world.spawn_empty().id());
        let pedestrian = |position: Vec2, heading: f32| Agent {
            position,
            heading,
            speed: 1.4,
            max_speed: 1.4,
            turn_radius: 0.8,
            body_radius: 0.3,
            priority: 0.09,
        };
        let (here, there) = (Vec2::new(30.0, 30.0), Vec2::new(30.9, 30.0));
        let mut crowd = Crowd::default();
        crowd.entities = vec![us, them];
        crowd.agents = vec![
            pedestrian(here, 0.0),
            pedestrian(there, std::f32::consts::PI),
        ];
        crowd.at_rest = vec![false, false];
        crowd.fastest = 1.4;
        crowd.grid = kerb_crowd::NeighbourGrid::new(2.0);
        crowd.grid.rebuild_bodies(&[here, there], &[0.3, 0.3]);
        let pose = UnitPose {
            position: here,
            heading: 0.0,
        };
        let through = Vec2::new(33.0, 30.2);
        assert_eq!(body_ahead(&crowd, us, here, through, 0.3), Some(1));
        let round = round_the_body_ahead(&open, &crowd, us, &pose, through, 0.3, 0.8);
        assert!(round.y > 32.5 && (round.x - 30.0).abs() < 0.5, "{round}");
        assert!(body_ahead(&crowd, us, here, round, 0.3).is_none());
        let clear = Vec2::new(29.0, 33.0);
        assert_eq!(
            round_the_body_ahead(&open, &crowd, us, &pose, clear, 0.3, 0.8),
            clear
        );
    }

    /// A pedestrian facing into a corner whose target lies just behind it,
    /// or in a turning circle, heads three turning radii off along the
    /// same bearing instead, out of the corner; a target ahead is kept, and
    /// so is one behind already that far off.
    #[test]
    fn a_wanderer_in_a_corner_turns_about_rather_than_loop() {
        let open = kerb_navmesh::generate::grid_world(20, 20, 2.0, |_, _| false)
            .validate()
            .expect("a plain grid is valid")
            .navmesh;
        let pose = UnitPose {
            position: Vec2::new(1.6, 1.6),
            heading: -3.0 * std::f32::consts::FRAC_PI_4,
        };
        let in_the_open = UnitPose {
            position: Vec2::new(20.0, 20.0),
            heading: 0.0,
        };
        let in_a_circle = Vec2::new(20.4, 20.6);
        for (pose, close) in [
            (&pose, Vec2::new(2.1, 2.0)),
            (&pose, Vec2::new(2.2, 1.9)),
            (&in_the_open, in_a_circle),
        ] {
            let moved = out_of_the_loop(&open, pose, close, 0.3, 0.8);
            let bearing = (close - pose.position).normalize();
            let expected = pose.position + bearing * 2.4;
            assert!(moved.distance(expected) < 1e-4, "{close} went to {moved}");
        }
        let ahead = Vec2::new(1.2, 0.9);
        assert_eq!(out_of_the_loop(&open, &pose, ahead, 0.3, 0.8), ahead);
        let far_behind = Vec2::new(4.0, 4.0);
        assert_eq!(
            out_of_the_loop(&open, &pose, far_behind, 0.3, 0.8),
            far_behind
        );
    }

    /// Crossing segments are 0 apart; others by their nearest ends.
    #[test]
    fn segments_apart_by_crossings_and_ends() {
        let (a, b) = (Vec2::new(0.0, 0.0), Vec2::new(4.0, 0.0));
        assert_eq!(
            segments_apart(a, b, Vec2::new(2.0, -1.0), Vec2::new(2.0, 1.0)),
            0.0
        );
        let beside = segments_apart(a, b, Vec2::new(2.0, 1.0), Vec2::new(2.0, 3.0));
        assert!((beside - 1.0).abs() < 1e-6);
        let beyond = segments_apart(a, b, Vec2::new(7.0, 4.0), Vec2::new(9.0, 4.0));
        assert!((beyond - 5.0).abs() < 1e-6);
    }

    /// A wander target against a wall moves in to a turning circle and a
    /// body from it where there is that room all round (a pedestrian's
    /// 1.1 m, a tank's 13.5 m in the open), else to twice the body's
    /// radius (a tank's 5 m in a 16 m street); one in the open stays, and
    /// so does one in a passage too narrow to move it in.
    #[test]
    fn wander_targets_keep_a_body_off_the_walls() {
        let open = kerb_navmesh::generate::grid_world(20, 20, 2.0, |_, _| false)
            .validate()
            .expect("a plain grid is valid")
            .navmesh;
        let moved = off_the_walls(&open, Vec2::new(0.2, 20.0), 0.3, 0.8);
        assert!(moved.distance(Vec2::new(1.1, 20.0)) < 1e-4, "{moved}");
        let moved = off_the_walls(&open, Vec2::new(39.0, 20.0), 2.5, 11.0);
        assert!(moved.distance(Vec2::new(26.5, 20.0)) < 1e-4, "{moved}");
        let middle = Vec2::new(20.0, 20.0);
        assert_eq!(off_the_walls(&open, middle, 2.5, 11.0), middle);
        // A street 16 m wide, from y = 2 to y = 18.
        let street = kerb_navmesh::generate::grid_world(20, 10, 2.0, |_, y| y == 0 || y == 9)
            .validate()
            .expect("a street is valid")
            .navmesh;
        let moved = off_the_walls(&street, Vec2::new(20.0, 3.0), 2.5, 11.0);
        assert!(moved.distance(Vec2::new(20.0, 7.0)) < 1e-4, "{moved}");
        // A passage one 2 m cell wide, along y = 1.
        let passage = kerb_navmesh::generate::grid_world(20, 3, 2.0, |_, y| y != 1)
            .validate()
            .expect("a passage is valid")
            .navmesh;
        let in_passage = Vec2::new(20.0, 2.5);
        assert_eq!(off_the_walls(&passage, in_passage, 1.2, 0.8), in_passage);
    }
}
