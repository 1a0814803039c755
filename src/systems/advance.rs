//! [`crate::KerbSystems::Advance`]: drive along the paths, sampling each
//! pose exactly.

use bevy::prelude::*;
use bevy::utils::Parallel;

use super::small_batches;
use crate::avoidance::{Avoiding, Body};
use crate::components::{Destination, ReverseGear, Speed, Unit, UnitPose, Wander};
use crate::messages::Arrived;
use crate::settings::KerbStats;
use crate::state::{FollowedRoute, Goal, Intent, Motion, Pending};

/// Drives each unit along its path by speed × time, sampling the pose
/// exactly from the path (Listing 2 of Pinter's article). On a route, distance left
/// over at the end of one leg carries on along the next.
///
/// A unit that avoidance sent off its path drives the arc it chose
/// instead; once the way is clear, it plans a fresh path to its goal from
/// where it is.
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
            &Body,
            Option<&ReverseGear>,
            &mut Intent,
            &mut Motion,
            &mut Avoiding,
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
                body,
                reverse_gear,
                mut intent,
                mut motion,
                mut avoiding,
                mut followed,
                wanders,
                has_destination,
            )| {
                // Whether a unit is backing up matters only to one avoidance
                // has a choice for: most units skip looking at their gear.
                let in_reverse = avoiding.choice().is_some() && motion.in_reverse();
                // A unit bound for a point has arrived where others stand
                // on the point and it comes as near as they let it, and,
                // off its path, where its body comes over the point: a
                // fresh path would only loop back to it.
                let goal = match motion.goal {
                    Goal::Point(goal) if has_destination => Some(goal),
                    _ => None,
                };
                let taken = avoiding.arrive_within;
                let near_enough = |at: Vec2, off_path: bool| {
                    let reach = if off_path {
                        body.radius.max(taken)
                    } else {
                        taken
                    };
                    goal.is_some_and(|goal| at.distance(goal) <= reach)
                };
                // Backing up towards someone, or heavy among a crowd: slower
                // along the path, or wait.
                let Some(path_share) = avoiding.path_share(in_reverse, speed.0) else {
                    intent.desired = *pose;
                    if near_enough(pose.position, avoiding.off_path) {
                        arrive(*pose, &mut motion, &mut avoiding, followed.as_deref_mut());
                        arrived.borrow_local_mut().push(entity);
                    }
                    return;
                };
                if let Some(choice) = avoiding.swerve(in_reverse) {
                    let (position, heading) =
                        kerb_crowd::drive(pose.position, pose.heading, choice, dt);
                    intent.desired = UnitPose { position, heading };
                    avoiding.off_path = true;
                    if near_enough(position, true) {
                        let at = intent.desired;
                        arrive(at, &mut motion, &mut avoiding, followed.as_deref_mut());
                        arrived.borrow_local_mut().push(entity);
                    }
                    return;
                }
                if avoiding.off_path {
                    intent.desired = *pose;
                    motion.stand_at(*pose);
                    if near_enough(pose.position, true) {
                        arrive(*pose, &mut motion, &mut avoiding, followed.as_deref_mut());
                        arrived.borrow_local_mut().push(entity);
                        return;
                    }
                    // Clear again: a destination is planned for afresh from
                    // here; a wanderer, which had no place it must reach,
                    // wanders on from here.
                    avoiding.off_path = false;
                    if has_destination && motion.goal != Goal::None {
                        intent.pending = Pending::Rejoin;
                    } else if wanders {
                        intent.pending = Pending::NewTarget;
                    }
                    return;
                }
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
                let reverse_speed = reverse_gear.map_or(speed.0, |gear| gear.speed);
                let mut travelled =
                    motion.travelled_after(speed.0 * path_share, reverse_speed * path_share, dt);
                // A step out of a jam is not a leg of the route.
                while travelled > motion.path.length()
                    && !motion.stepping_out()
                    && let Some(next) = followed.as_deref().and_then(FollowedRoute::next_leg)
                {
                    // At a cusp between legs the unit stops: the rest of
                    // the tick's distance was in the other gear.
                    let cusp = motion.cusp_before(next);
                    travelled = if cusp {
                        0.0
                    } else {
                        travelled - motion.path.length()
                    };
                    motion.path = *next;
                    if let Some(followed) = followed.as_mut() {
                        followed.leg += 1;
                    }
                    if cusp {
                        break;
                    }
                }
                let travelled = travelled.min(motion.path.length());
                motion.travelled = travelled;
                intent.desired = motion.unit_pose_at(motion.path.sample(travelled));
                if !motion.reversing && near_enough(intent.desired.position, false) {
                    let at = intent.desired;
                    arrive(at, &mut motion, &mut avoiding, followed.as_deref_mut());
                    arrived.borrow_local_mut().push(entity);
                    return;
                }
                if travelled >= motion.path.length() {
                    let backed_up = motion.stepping_out();
                    motion.reversing = false;
                    motion.pulling_out = false;
                    if let Some(followed) = followed.as_mut() {
                        followed.clear();
                    }
                    if backed_up && has_destination {
                        // Stepped out of a jam: now the way on can be planned.
                        intent.pending = Pending::Rejoin;
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

/// Ends a unit's way short of the end of its path: it stands `at`, with
/// nowhere left to go.
fn arrive(
    at: UnitPose,
    motion: &mut Motion,
    avoiding: &mut Avoiding,
    followed: Option<&mut FollowedRoute>,
) {
    motion.stand_at(at);
    avoiding.off_path = false;
    motion.goal = Goal::None;
    if let Some(followed) = followed {
        followed.clear();
    }
}
