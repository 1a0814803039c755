//! Units and those who stand: one at rest makes room for one held up in
//! its way, and one whose goal someone stands on arrives beside them.

use bevy::prelude::*;
use kerb_crowd::{Agent, Nearest, Preferred, in_contact};

use super::snapshot::Crowd;

/// How near its `goal` point `agent` counts as there when others stand on
/// it: where a body among `nearest` stands still so close to the goal that
/// the unit could not stand there, anywhere against that body (its
/// distance from the goal and the sum of their radii, with twice the
/// `margin`, a share of that sum, that avoidance keeps between bodies),
/// for the farthest such reach; zero where the goal is free. Counted from
/// the goal alone, a unit that came at it past the body standing on it
/// had to go round that body, and with a turning radius could circle it
/// for ever.
pub(super) fn taken_reach(
    agent: &Agent,
    goal: Vec2,
    agents: &[Agent],
    nearest: &Nearest,
    margin: f32,
) -> f32 {
    nearest
        .indices()
        .map(|other| &agents[other as usize])
        .filter(|other| other.speed == 0.0)
        .map(|other| (other.position, agent.body_radius + other.body_radius))
        .filter(|&(at, bodies)| at.distance(goal) < bodies)
        .fold(0.0, |most, (at, bodies)| {
            most.max(at.distance(goal) + bodies * (1.0 + 2.0 * margin))
        })
}

/// How long, in seconds, a unit must be held still before a settled unit
/// in its way makes room for it: soon, for a held unit backs out after
/// `unjam`'s hold limit (0.3 s), and those standing step aside only while
/// it is held, so each step aside is that difference long.
const MAKE_ROOM_AFTER: f32 = 0.05;

/// How many ticks of `dt` a unit must be held still before a settled unit
/// in its way makes room for it: at least one.
pub(super) fn make_room_after(dt: f32) -> u16 {
    ((MAKE_ROOM_AFTER / dt.max(f32::MIN_POSITIVE)).ceil() as u16).max(1)
}

/// For a unit at rest (arrived, or standing with nowhere to go): if its
/// body overlaps another's, the motion that steps out of it
/// ([`stepping_apart`]); else, if a neighbour held still while it wants to
/// move has it in its way, the motion that steps aside from that
/// neighbour's line, at half speed, as a person standing makes room for
/// one who wants by.
pub(super) fn making_room(
    crowd: &Crowd,
    index: u32,
    nearest: &Nearest,
    held_limit: u16,
) -> Option<Preferred> {
    let me = &crowd.agents[index as usize];
    if let Some(apart) = stepping_apart(crowd, index, nearest) {
        return Some(apart);
    }
    let wants_by = nearest.indices().find_map(|other| {
        let other_index = other as usize;
        // Only a unit that wants to move counts as held: one on its way,
        // or one at rest stepping out of someone or making room itself.
        if crowd.held[other_index] < held_limit {
            return None;
        }
        let them = &crowd.agents[other_index];
        let way = Vec2::from_angle(them.heading);
        let offset = me.position - them.position;
        let bodies = me.body_radius + them.body_radius;
        let ahead = offset.dot(way);
        let aside = way.perp_dot(offset);
        (ahead > 0.0 && ahead <= 2.0 * bodies && aside.abs() < bodies).then_some((way, aside))
    })?;
    let (way, aside) = wants_by;
    // Away from its line, on the side the unit already stands.
    let away = way.perp() * if aside >= 0.0 { 1.0 } else { -1.0 };
    let local = Vec2::from_angle(-me.heading).rotate(away);
    let most = 1.0 / me.turn_radius.max(f32::MIN_POSITIVE);
    Some(Preferred {
        speed: 0.5 * me.max_speed,
        curvature: if local.y >= 0.0 { most } else { -most },
    })
}

/// Bodies nearer each other than this share of the sum of their radii
/// stand on the same spot: the way between them is rounding, not a
/// direction to part in.
const SAME_SPOT: f32 = 1e-3;

/// For a unit whose body overlaps others' (spawned on them, or put there
/// by the game): the motion, at half speed, that leads out of them, away
/// from the deepest overlaps. Where the way out lies behind, the unit
/// turns away as hard as it can. Of bodies on the same spot, which no
/// direction parts, the one of the lowest entity index goes ahead and the
/// rest wait their turn. `None` where it overlaps no one.
fn stepping_apart(crowd: &Crowd, index: u32, nearest: &Nearest) -> Option<Preferred> {
    let me = &crowd.agents[index as usize];
    // Bevy's order of entities is opaque: the index is the spawn order.
    let rank = |index: u32| {
        let entity = crowd.entities[index as usize];
        (entity.index_u32(), entity.generation().to_bits())
    };
    let mine = rank(index);
    let mut away = Vec2::ZERO;
    for other in nearest.indices() {
        let them = &crowd.agents[other as usize];
        if !in_contact(me, them) {
            continue;
        }
        let offset = me.position - them.position;
        let bodies = me.body_radius + them.body_radius;
        let overlap = bodies - offset.length();
        if offset.length() > SAME_SPOT * bodies {
            away += offset.normalize_or_zero() * overlap;
        } else if rank(other) < mine {
            return Some(Preferred::default());
        } else {
            away += Vec2::from_angle(me.heading) * overlap;
        }
    }
    if away == Vec2::ZERO || !away.is_finite() {
        return None;
    }
    let local = Vec2::from_angle(-me.heading).rotate(away);
    let most = 1.0 / me.turn_radius.max(f32::MIN_POSITIVE);
    // Steer towards the way out, as hard as needed to face it within a
    // turning radius's drive.
    let bend = local.y.atan2(local.x).clamp(-1.0, 1.0);
    let curvature = if local.x > 0.0 {
        most * bend
    } else {
        most.copysign(local.y)
    };
    Some(Preferred {
        speed: 0.5 * me.max_speed,
        curvature,
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::pedestrian;
    use super::*;

    /// A crowd of two entities, the first of the lower index, to fill in.
    fn two_entities() -> Crowd {
        let entity = |index| Entity::from_raw_u32(index).expect("a valid index");
        let mut crowd = Crowd::default();
        crowd.entities = vec![entity(1), entity(2)];
        crowd
    }

    /// A crowd of two: a unit held up for `held` ticks at the origin,
    /// facing +x and wanting to go on, and one at rest at `rest`, facing
    /// `rest_heading`. Returns what the one at rest does.
    fn at_rest_beside_held(rest: Vec2, rest_heading: f32, held: u16) -> Option<Preferred> {
        let mut crowd = two_entities();
        crowd.agents = vec![pedestrian(Vec2::ZERO, 0.0), pedestrian(rest, rest_heading)];
        crowd.preferred = vec![
            Some(Preferred {
                speed: 1.4,
                curvature: 0.0,
            }),
            Some(Preferred::default()),
        ];
        crowd.held = vec![held, 0];
        crowd.at_rest = vec![false, true];
        let mut nearest = Nearest::new(8);
        nearest.offer(rest.length_squared(), rest, 0);
        making_room(&crowd, 1, &nearest, 15)
    }

    #[test]
    fn a_unit_at_rest_steps_aside_for_one_held_up_behind_it() {
        // In its way, a hair to its left, facing the same way: it steps
        // off to the left (a left turn) at half speed.
        let room = at_rest_beside_held(Vec2::new(0.7, 0.1), 0.0, 15).expect("makes room");
        assert!(room.speed > 0.0 && room.curvature > 0.0, "{room:?}");
        // A hair to its right, facing north across its way: away from the
        // line is south, on its right, so it turns right.
        let room = at_rest_beside_held(Vec2::new(0.7, -0.1), 1.5, 15).expect("makes room");
        assert!(room.curvature < 0.0, "{room:?}");
        // Not held long enough yet, beside its way, behind it or too far
        // ahead: it stays where it is.
        assert_eq!(at_rest_beside_held(Vec2::new(0.7, 0.1), 0.0, 14), None);
        assert_eq!(at_rest_beside_held(Vec2::new(0.7, 0.8), 0.0, 15), None);
        assert_eq!(at_rest_beside_held(Vec2::new(-0.7, 0.0), 0.0, 15), None);
        assert_eq!(at_rest_beside_held(Vec2::new(1.5, 0.0), 0.0, 15), None);
    }

    /// Two pedestrians at rest, the first at the origin facing `heading`,
    /// the other at `other`, facing +x: what the first does to part from
    /// the second. The first has the lower entity index.
    fn parting(heading: f32, other: Vec2) -> Option<Preferred> {
        let mut crowd = two_entities();
        crowd.agents = vec![pedestrian(Vec2::ZERO, heading), pedestrian(other, 0.0)];
        let mut nearest = Nearest::new(8);
        nearest.offer(other.length_squared(), other, 1);
        stepping_apart(&crowd, 0, &nearest)
    }

    #[test]
    fn a_unit_at_rest_steps_out_of_a_body_it_overlaps() {
        // The other stands half a body behind and to the right: it walks
        // on, turning left, away from it.
        let apart = parting(0.0, Vec2::new(-0.1, -0.2)).expect("steps apart");
        assert!(apart.speed > 0.0 && apart.curvature > 0.0, "{apart:?}");
        // The other stands ahead: the way out lies behind, so it turns
        // away as hard as its radius allows.
        let apart = parting(0.0, Vec2::new(0.2, 0.05)).expect("steps apart");
        assert_eq!(apart.curvature, -1.0 / 0.8, "{apart:?}");
        // On the same spot the lower index goes ahead and the other waits.
        let apart = parting(0.0, Vec2::ZERO).expect("the first steps apart");
        assert!(apart.speed > 0.0 && apart.curvature == 0.0, "{apart:?}");
        // Clear of each other, it stays where it is.
        assert_eq!(parting(0.0, Vec2::new(0.7, 0.0)), None);
    }

    #[test]
    fn of_two_on_the_same_spot_the_higher_index_waits() {
        let mut crowd = two_entities();
        crowd.agents = vec![pedestrian(Vec2::ZERO, 0.0), pedestrian(Vec2::ZERO, 0.0)];
        let mut nearest = Nearest::new(8);
        nearest.offer(0.0, Vec2::ZERO, 0);
        assert_eq!(
            stepping_apart(&crowd, 1, &nearest),
            Some(Preferred::default())
        );
    }
}
