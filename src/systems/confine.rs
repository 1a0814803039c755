//! [`crate::KerbSystems::Confine`]: keep units on the walkable area and
//! write their transforms.

use bevy::prelude::*;

use super::{navmesh, small_batches};
use crate::components::{NavLocation, Unit, UnitPose, Wander};
use crate::state::Intent;
use crate::world_asset::{KerbWorld, WorldAsset};

/// Moves smaller than this are not a deviation from the path.
const DEVIATION: f32 = 1e-3;

/// Moves each unit to where its path wants it, through the navmesh: it
/// never leaves the walkable area, and a unit pushed off its path replans.
pub(crate) fn confine_to_navmesh(
    world: Res<KerbWorld>,
    assets: Res<Assets<WorldAsset>>,
    mut units: Query<
        (
            &mut UnitPose,
            &mut NavLocation,
            &mut Intent,
            &mut Transform,
            Has<Wander>,
        ),
        With<Unit>,
    >,
) {
    let Some(mesh) = navmesh(&world, &assets) else {
        return;
    };
    units
        .par_iter_mut()
        .batching_strategy(small_batches())
        .for_each(
            |(mut pose, mut location, mut intent, mut transform, wanders)| {
                let Some(polygon) = location.polygon else {
                    return;
                };
                let desired = intent.desired;
                if desired.position != pose.position {
                    let result = mesh.move_along(polygon, pose.position, desired.position);
                    if result.position.distance_squared(desired.position) > DEVIATION * DEVIATION {
                        intent.plan_on_from_here(wanders);
                    }
                    // Compared first: writing would mark the location changed.
                    if result.polygon != polygon {
                        location.polygon = Some(result.polygon);
                    }
                    pose.position = result.position;
                }
                if pose.heading != desired.heading {
                    pose.heading = desired.heading;
                    transform.rotation = Quat::from_rotation_z(pose.heading);
                }
                // Only touch the transform when the unit moved, so standing
                // units cost transform propagation nothing.
                if transform.translation.x != pose.position.x
                    || transform.translation.y != pose.position.y
                {
                    transform.translation.x = pose.position.x;
                    transform.translation.y = pose.position.y;
                }
            },
        );
}
