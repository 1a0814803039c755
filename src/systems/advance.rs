//! [`crate::KerbSystems::Advance`]: drive along the paths, sampling each
//! pose exactly.

use bevy::prelude::*;
use bevy::utils::Parallel;

use super::small_batches;
use crate::components::{Destination, Speed, Unit, UnitPose, Wander};
use crate::messages::Arrived;
use crate::settings::KerbStats;
use crate::state::{FollowedRoute, Goal, Intent, Motion, Pending};

/// Drives each unit along its path by speed × time, sampling the pose
/// exactly from the path (Listing 2 of Pinter's article). On a route, distance left
/// over at the end of one leg carries on along the next.
pub(crate) fn advance_along_paths(
    time: Res<Time>,
    mut stats: ResMut<KerbStats>,
    mut commands: Commands,
    mut arrived_messages: MessageWriter<Arrived>,
    mut arrived: Local<Parallel<Vec<Entity>>>,
    mut units: Query<
        (
            Entity,
            &UnitPose,
            &Speed,
            &mut Intent,
            &mut Motion,
            Option<&mut FollowedRoute>,
            Has<Wander>,
            Has<Destination>,
        ),
        With<Unit>,
    >,
) {
    let dt = time.delta_secs();
    units
        .par_iter_mut()
        .batching_strategy(small_batches())
        .for_each(
            |(
                entity,
                pose,
                speed,
                mut intent,
                mut motion,
                mut followed,
                wanders,
                has_destination,
            )| {
                if intent.pending != Pending::Nothing || !motion.is_moving() {
                    if intent.desired != *pose {
                        intent.desired = *pose;
                    }
                    // A wanderer whose path is done (even one of length zero) wants
                    // the next target.
                    if intent.pending == Pending::Nothing && wanders && !has_destination {
                        intent.pending = Pending::NewTarget;
                    }
                    return;
                }
                let mut travelled = motion.travelled + speed.0.max(0.0) * dt;
                while travelled > motion.path.length()
                    && let Some(next) = followed.as_deref().and_then(FollowedRoute::next_leg)
                {
                    travelled -= motion.path.length();
                    motion.path = *next;
                    if let Some(followed) = followed.as_mut() {
                        followed.leg += 1;
                    }
                }
                let travelled = travelled.min(motion.path.length());
                motion.travelled = travelled;
                intent.desired = motion.unit_pose_at(motion.path.sample(travelled));
                if travelled >= motion.path.length() {
                    let backed_up = std::mem::take(&mut motion.reversing);
                    if let Some(followed) = followed.as_mut() {
                        followed.clear();
                    }
                    if backed_up && has_destination {
                        // Turned round: now the way on can be planned.
                        intent.pending = Pending::Plan;
                    } else if has_destination {
                        motion.goal = Goal::None;
                        arrived.borrow_local_mut().push(entity);
                    } else if wanders {
                        intent.pending = Pending::NewTarget;
                    }
                }
            },
        );
    for entity in arrived.drain() {
        stats.arrived_total += 1;
        arrived_messages.write(Arrived { entity });
        commands.trigger(Arrived { entity });
        commands.entity(entity).remove::<Destination>();
    }
}
