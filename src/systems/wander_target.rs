//! Wander targets for [`crate::KerbSystems::Plan`]: where each wanderer
//! heads next, on the walkable area and with room for its body.

use bevy::prelude::*;
use kerb_navmesh::NavMesh;

use crate::avoidance::Body;
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
/// the walls there (see [`off_the_walls`]).
pub(super) fn choose_wander_target(
    mesh: &NavMesh,
    clock: WanderClock,
    entity: Entity,
    pose: &UnitPose,
    body: &Body,
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
    off_the_walls(mesh, target, body.radius)
}

/// A wander `target` moved in from the nearest wall, where it is nearer
/// than twice `body_radius`, to that distance, where a body has room
/// there. A target against a wall is where a unit's body would overlap the
/// wall, and avoidance keeps it off: it stands short of the target, in the
/// way of those passing along the wall (a tank whose path runs along it
/// pins a pedestrian there).
fn off_the_walls(mesh: &NavMesh, target: Vec2, body_radius: f32) -> Vec2 {
    let keep = 2.0 * body_radius;
    let Some(wall) = mesh.nearest_wall_point(target, keep) else {
        return target;
    };
    let inward = (target - wall).normalize_or_zero();
    let pushed = wall + inward * keep;
    if inward != Vec2::ZERO && mesh.has_room(pushed, body_radius) {
        pushed
    } else {
        target
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A wander target against a wall moves in to twice the body's radius
    /// from it, a pedestrian's and a tank's alike; one in the open stays,
    /// and so does one in a passage too narrow to move it in.
    #[test]
    fn wander_targets_keep_a_body_off_the_walls() {
        let open = kerb_navmesh::generate::grid_world(20, 20, 2.0, |_, _| false)
            .validate()
            .expect("a plain grid is valid")
            .navmesh;
        let moved = off_the_walls(&open, Vec2::new(0.2, 20.0), 0.3);
        assert!(moved.distance(Vec2::new(0.6, 20.0)) < 1e-4, "{moved}");
        let moved = off_the_walls(&open, Vec2::new(39.0, 20.0), 2.5);
        assert!(moved.distance(Vec2::new(35.0, 20.0)) < 1e-4, "{moved}");
        let middle = Vec2::new(20.0, 20.0);
        assert_eq!(off_the_walls(&open, middle, 2.5), middle);
        // A passage one 2 m cell wide, along y = 1.
        let passage = kerb_navmesh::generate::grid_world(20, 3, 2.0, |_, y| y != 1)
            .validate()
            .expect("a passage is valid")
            .navmesh;
        let in_passage = Vec2::new(20.0, 2.5);
        assert_eq!(off_the_walls(&passage, in_passage, 1.2), in_passage);
    }
}
