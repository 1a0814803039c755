//! Drawing units between fixed ticks.
//!
//! kerb moves units in a fixed schedule and the display runs at its own
//! rate, so a unit drawn where the last tick left it stands still for some
//! frames and jumps on others. Each frame, a moving unit is drawn instead
//! where its path takes it by the frame's share of the next tick: sampled
//! from the path itself, so exact on arcs, where blending two poses would
//! cut the corner. The simulation never reads what is drawn.

use bevy::prelude::*;

use crate::avoidance::Avoiding;
use crate::components::{NavLocation, ReverseGear, Speed, Unit, UnitPose};
use crate::state::{FollowedRoute, Intent, Motion, Pending};
use crate::systems::{navmesh, small_batches};
use crate::world_asset::{KerbWorld, WorldAsset};

/// How far a drawn position may be from where the path puts it once kept on
/// the walkable area, and still be drawn: rounding, not a wall.
const ON_MESH: f32 = 1e-4;

/// Writes each placed unit's [`Transform`] for this frame: where its path
/// takes it by the frame's share of the next fixed tick if it is driving
/// along its path, where its chosen arc takes it if it is making way for
/// others, its [`UnitPose`] otherwise.
///
/// Never past what the next tick reaches (the overstep is under one
/// timestep, and the path is sampled no further than the unit's speed takes
/// it), never off the path, and never off the walkable area: a drawn point
/// that the navmesh would not take is not drawn, and the unit is drawn where
/// it is.
pub(crate) fn draw_between_ticks(
    fixed: Res<Time<Fixed>>,
    world: Res<KerbWorld>,
    assets: Res<Assets<WorldAsset>>,
    mut units: Query<
        (
            &UnitPose,
            &NavLocation,
            &Speed,
            Option<&ReverseGear>,
            &Motion,
            &Intent,
            &Avoiding,
            Option<&FollowedRoute>,
            &mut Transform,
        ),
        With<Unit>,
    >,
) {
    let Some(mesh) = navmesh(&world, &assets) else {
        return;
    };
    let ahead_time = fixed.overstep().min(fixed.timestep()).as_secs_f32();
    units
        .par_iter_mut()
        .batching_strategy(small_batches())
        .for_each(
            |(
                pose,
                location,
                speed,
                reverse_gear,
                motion,
                intent,
                avoiding,
                followed,
                mut transform,
            )| {
                let Some(polygon) = location.polygon else {
                    return; // not placed yet: drawn where it was spawned
                };
                // Kept if the walkable area takes it from where the unit is.
                let on_mesh = |ahead: UnitPose| {
                    let kept = mesh.move_along(polygon, pose.position, ahead.position);
                    (kept.position.distance_squared(ahead.position) <= ON_MESH * ON_MESH)
                        .then_some(ahead)
                };
                // A unit making way for others goes on along the arc it
                // chose; one backing up, or heavy among a crowd, keeps to its
                // path, slower or not at all. Only a unit with a choice needs
                // its gear looked at.
                let in_reverse = avoiding.choice().is_some() && motion.in_reverse();
                let making_way = avoiding.swerve(in_reverse);
                // Only a unit where its path put it is drawn ahead on the
                // path: one pushed off it by a wall, standing, or waiting for
                // a plan is drawn where it is.
                let path_share = avoiding.path_share(in_reverse, speed.0);
                let driving = intent.pending == Pending::Nothing
                    && motion.is_moving()
                    && !avoiding.is_off_path()
                    && making_way.is_none()
                    && intent.desired == *pose;
                let drawn = if let Some(choice) = making_way {
                    let (position, heading) =
                        kerb_crowd::drive(pose.position, pose.heading, choice, ahead_time);
                    on_mesh(UnitPose { position, heading })
                } else if driving && let Some(share) = path_share {
                    let reverse_speed = reverse_gear.map_or(speed.0, |gear| gear.speed);
                    let ahead =
                        motion.travelled_after(speed.0 * share, reverse_speed * share, ahead_time);
                    on_mesh(motion.unit_pose_at(sample_ahead(motion, followed, ahead)))
                } else {
                    None
                }
                // Drawn ahead on an earlier frame: back to where it is.
                .or_else(|| (transform.translation.truncate() != pose.position).then_some(*pose));
                if let Some(drawn) = drawn {
                    drawn.write_to(&mut transform);
                }
            },
        );
}

/// The pose `distance` along the unit's path, carrying on along the next
/// leg of its route as driving does, and stopping at the end otherwise.
fn sample_ahead(
    motion: &Motion,
    followed: Option<&FollowedRoute>,
    distance: f32,
) -> kerb_turning::Pose {
    let length = motion.path.length();
    match followed.and_then(FollowedRoute::next_leg) {
        // Past a cusp between legs the unit has stopped at the cusp.
        Some(next) if distance > length && !motion.cusp_before(next) => {
            next.sample((distance - length).min(next.length()))
        }
        _ => motion.path.sample(distance.min(length)),
    }
}
