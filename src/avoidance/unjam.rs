//! Units that avoidance has held still too long: they back out a step, as
//! a driver does, or look for another way.

use bevy::prelude::*;
use kerb_crowd::{Choice, Preferred};
use kerb_navmesh::NavMesh;

use super::Avoiding;
use crate::components::UnitPose;
use crate::state::{Goal, Intent, Motion, Pending};
use crate::systems::reverse_out::reverse_out;

/// How long, in seconds, avoidance holds a unit still that wants to move
/// before it backs out a step.
const HOLD_LIMIT: f32 = 1.0;

/// Ticks of holding that a tick of moving while making way takes off the
/// count.
const HELD_RELIEF: u16 = 4;

/// Below this share of the speed it wants, a unit counts as held still.
const CRAWL: f32 = 0.05;

/// A unit as the choice lands on it.
pub(super) struct Landing<'a> {
    pub pose: &'a UnitPose,
    pub turn_radius: f32,
    pub motion: &'a mut Motion,
    pub intent: &'a mut Intent,
    pub avoiding: &'a mut Avoiding,
    pub wanders: bool,
    /// How near its goal the unit may come: see [`Avoiding`].
    pub arrive_within: f32,
}

/// Stores this tick's `choice` for the unit, counting the ticks it is held
/// still while it wants to move. Held a second (face to face with someone,
/// too close to turn away), it backs out a step along an arc that fits;
/// if backing is what is held up, or no step back fits, it plans afresh
/// from where it stands.
pub(super) fn land(
    unit: Landing,
    choice: Option<Choice>,
    preferred: Option<Preferred>,
    mesh: Option<&NavMesh>,
    clearance: f32,
    dt: f32,
) {
    if unit.avoiding.arrive_within != unit.arrive_within {
        unit.avoiding.arrive_within = unit.arrive_within;
    }
    // Creeping at a crawl, as two units face to face may, is held too.
    let held = match (choice, preferred) {
        (Some(choice), Some(preferred)) => {
            preferred.speed > 0.0 && choice.speed <= CRAWL * preferred.speed
        }
        _ => false,
    };
    // A tick of creeping between ticks held (inching along, then stopped
    // again) only wears the count down: it does not free the unit.
    let held_for = if held {
        unit.avoiding.held.saturating_add(1)
    } else if choice.is_some_and(|choice| choice.avoiding) {
        unit.avoiding.held.saturating_sub(HELD_RELIEF)
    } else {
        0
    };
    let hold_limit = (HOLD_LIMIT / dt.max(f32::MIN_POSITIVE)).ceil() as u16;
    if held_for < hold_limit {
        if unit.avoiding.held != held_for {
            unit.avoiding.held = held_for;
        }
        if unit.avoiding.choice != choice {
            unit.avoiding.choice = choice;
        }
        // Keeping the path's curvature, only slower: on along the path.
        let along_path = match (choice, preferred) {
            (Some(choice), Some(preferred)) => {
                choice.avoiding && choice.curvature == preferred.curvature
            }
            _ => false,
        };
        if unit.avoiding.along_path != along_path {
            unit.avoiding.along_path = along_path;
        }
        return;
    }
    let step_back = if unit.motion.is_reversing() {
        None
    } else {
        mesh.and_then(|mesh| reverse_out(mesh, unit.pose.to_pose(), unit.turn_radius, clearance))
    };
    if let Some(path) = step_back {
        // Backing starts next tick, once avoidance has seen it.
        unit.motion.back_along(path);
        *unit.avoiding = Avoiding {
            choice,
            arrive_within: unit.arrive_within,
            ..default()
        };
    } else {
        unit.motion.stand_at(*unit.pose);
        unit.motion.reversing = false;
        unit.intent.desired = *unit.pose;
        if unit.motion.goal != Goal::None {
            unit.intent.pending = Pending::Rejoin;
        } else if unit.wanders {
            unit.intent.pending = Pending::NewTarget;
        }
        *unit.avoiding = Avoiding {
            arrive_within: unit.arrive_within,
            ..default()
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kerb_navmesh::generate::grid_world;
    use kerb_turning::TurningPath;

    /// A unit that avoidance holds still, but lets inch along for one tick
    /// in every second, still counts as held: it backs out.
    #[test]
    fn inching_between_holds_does_not_free_a_unit() {
        let mesh = grid_world(10, 10, 2.0, |_, _| false)
            .validate()
            .expect("a plain grid is valid")
            .navmesh;
        let dt = 1.0 / 30.0;
        let pose = UnitPose {
            position: Vec2::new(10.0, 10.0),
            heading: 0.0,
        };
        let mut motion = Motion::default();
        motion.drive(TurningPath::straight(pose.position, Vec2::new(16.0, 10.0)));
        let mut intent = Intent::default();
        let mut avoiding = Avoiding::default();
        let preferred = Preferred {
            speed: 1.4,
            curvature: 0.0,
        };
        let backed_out = (0..60).any(|tick| {
            let inch = if tick % 30 == 29 { 0.15 } else { 0.0 };
            let choice = Choice {
                speed: inch,
                curvature: 0.0,
                avoiding: true,
            };
            let unit = Landing {
                pose: &pose,
                turn_radius: 0.8,
                motion: &mut motion,
                intent: &mut intent,
                avoiding: &mut avoiding,
                wanders: false,
                arrive_within: 0.0,
            };
            land(unit, Some(choice), Some(preferred), Some(&mesh), 0.0, dt);
            motion.is_reversing()
        });
        assert!(backed_out);
    }
}
