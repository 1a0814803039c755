//! [`crate::KerbSystems::Advance`]: drive along the paths, sampling each
//! pose exactly.

use std::f32::consts::FRAC_PI_2;

use bevy::prelude::*;
use bevy::utils::Parallel;

use super::small_batches;
use crate::avoidance::{Avoiding, Body};
use crate::components::{Destination, ReverseGear, Speed, TurningRadius, Unit, UnitPose, Wander};
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
            &TurningRadius,
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
                turning_radius,
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
                let near_enough = |at: UnitPose, off_path: bool| {
                    goal.is_some_and(|goal| {
                        let reach = if off_path {
                            off_path_reach(at, goal, body.radius, turning_radius.0).max(taken)
                        } else {
                            taken
                        };
                        at.position.distance(goal) <= reach
                    })
                };
                // Backing up towards someone, or heavy among a crowd: slower
                // along the path, or wait.
                let Some(path_share) = avoiding.path_share(in_reverse, speed.0) else {
                    intent.desired = *pose;
                    if near_enough(*pose, avoiding.off_path) {
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
                    if near_enough(intent.desired, true) {
                        let at = intent.desired;
                        arrive(at, &mut motion, &mut avoiding, followed.as_deref_mut());
                        arrived.borrow_local_mut().push(entity);
                    } else if (has_destination || wanders)
                        && motion.goal != Goal::None
                        && (strayed(&motion, intent.desired, body.radius, turning_radius.0)
                            || goal.is_some_and(|goal| {
                                passed_beside(
                                    *pose,
                                    intent.desired,
                                    goal,
                                    body.radius,
                                    turning_radius.0,
                                )
                            }))
                    {
                        // A wanderer, with no place it must reach, wanders
                        // on from here rather than circle back.
                        intent.pending = if has_destination {
                            Pending::Rejoin
                        } else {
                            Pending::NewTarget
                        };
                    }
                    return;
                }
                if avoiding.off_path {
                    intent.desired = *pose;
                    motion.stand_at(*pose);
                    if near_enough(*pose, true) {
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
                // Only a wanderer without a destination is given a target:
                // for any other unit a new target asked for is no plan to
                // wait for (one placed, standing, then backing out a step).
                if intent.pending == Pending::NewTarget && (!wanders || has_destination) {
                    intent.pending = Pending::Nothing;
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
                if !motion.reversing && near_enough(intent.desired, false) {
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

/// How far, in turning circles and bodies, a swerving unit may be carried
/// from where it left its path before it plans afresh.
const CARRIED_OFF: f32 = 4.0;

/// Whether a unit swerving off its path, now `at`, has strayed from it far
/// enough to plan a fresh path from where it is: it faces more than a
/// quarter turn away from the way its path went where it left it, or it has
/// been carried more than [`CARRIED_OFF`] turning circles and bodies from
/// there. Swerving keeps the curvature the path had there, so one the crowd
/// has turned round walked on the wrong way (along a wall, for a minute),
/// and one carried along by a stream crossing its way, or round a ring of
/// people standing, walked on with them, for as long as it swerved.
fn strayed(motion: &Motion, at: UnitPose, body_radius: f32, turn_radius: f32) -> bool {
    let way = motion.unit_pose_at(motion.path().sample(motion.travelled()));
    kerb_turning::wrap_signed(at.heading - way.heading).abs() > FRAC_PI_2
        || at.position.distance(way.position) > CARRIED_OFF * (turn_radius + body_radius)
}

/// Whether a unit swerving from `before` to `after` has just passed its
/// `goal` by, near it: the goal was ahead and is now abeam or behind,
/// within two turning circles and bodies. Swerving on would carry it away
/// (along a row of people standing either side of its place, round and
/// round); a fresh plan from here turns back in.
fn passed_beside(
    before: UnitPose,
    after: UnitPose,
    goal: Vec2,
    body_radius: f32,
    turn_radius: f32,
) -> bool {
    let ahead = |at: UnitPose| (goal - at.position).dot(Vec2::from_angle(at.heading));
    ahead(before) > 0.0
        && ahead(after) <= 0.0
        && after.position.distance(goal) <= 2.0 * (turn_radius + body_radius)
}

/// How near its goal point a unit pushed off its path counts as there: where
/// its body comes over the point, or, where the point lies inside one of
/// its turning circles (no forward path reaches it without a loop, which
/// in a crowd is what pushed it off), within twice its body's radius.
fn off_path_reach(at: UnitPose, goal: Vec2, body_radius: f32, turn_radius: f32) -> f32 {
    let local = Vec2::from_angle(-at.heading).rotate(goal - at.position);
    let centre = Vec2::new(0.0, turn_radius);
    let inside = local.distance(centre) < turn_radius || local.distance(-centre) < turn_radius;
    if inside {
        2.0 * body_radius
    } else {
        body_radius
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kerb_turning::TurningPath;

    /// A pedestrian swerving along +x past its goal 0.7 m to its right
    /// has passed it once the goal falls abeam; one far off, or still
    /// ahead, or already behind before the step, has not.
    #[test]
    fn a_swerving_unit_passes_its_goal_by_once() {
        let at = |x: f32| UnitPose {
            position: Vec2::new(x, 0.0) + Vec2::new(-30_000.0, 7_000.0),
            heading: 0.0,
        };
        let goal = Vec2::new(0.0, -0.7) + Vec2::new(-30_000.0, 7_000.0);
        assert!(passed_beside(at(-0.05), at(0.0), goal, 0.3, 0.8));
        assert!(passed_beside(at(-0.05), at(0.05), goal, 0.3, 0.8));
        assert!(!passed_beside(at(-0.1), at(-0.05), goal, 0.3, 0.8));
        assert!(!passed_beside(at(0.05), at(0.1), goal, 0.3, 0.8));
        let far = goal + Vec2::new(0.0, -3.0);
        assert!(!passed_beside(at(-0.05), at(0.05), far, 0.3, 0.8));
    }

    /// A pedestrian (body 0.3 m, turning radius 0.8 m) swerving off a path
    /// along +x, far from the origin, facing a radian from it: carried 4 m
    /// sideways from where it left the path it has not yet strayed; 4.5 m,
    /// it has, whichever way.
    #[test]
    fn a_swerving_unit_is_carried_off_past_four_turning_circles() {
        let origin = Vec2::new(-30_000.0, 7_000.0);
        let mut motion = Motion::default();
        motion.drive(TurningPath::straight(origin, origin + Vec2::new(50.0, 0.0)));
        let at = |offset: Vec2| UnitPose {
            position: origin + offset,
            heading: 1.0,
        };
        assert!(!strayed(&motion, at(Vec2::new(0.0, 4.0)), 0.3, 0.8));
        assert!(strayed(&motion, at(Vec2::new(0.0, 4.5)), 0.3, 0.8));
        assert!(strayed(&motion, at(Vec2::new(-4.5, 0.0)), 0.3, 0.8));
        assert!(!strayed(&motion, at(Vec2::new(3.0, -2.0)), 0.3, 0.8));
    }

    /// A pedestrian (body 0.3 m, turning radius 0.8 m) facing +x: a point
    /// half a metre to its side lies inside its turning circle, and counts
    /// from 0.6 m; one half a metre ahead does not, and counts only under
    /// its body. Points are given relative to where it stands.
    #[test]
    fn a_point_inside_the_turning_circle_counts_from_further() {
        let at = UnitPose {
            position: Vec2::new(100.0, -40.0),
            heading: 0.0,
        };
        let reach = |local: Vec2| off_path_reach(at, at.position + local, 0.3, 0.8);
        assert_eq!(reach(Vec2::new(0.0, 0.5)), 0.6);
        assert_eq!(reach(Vec2::new(0.1, -0.55)), 0.6);
        assert_eq!(reach(Vec2::new(0.5, 0.0)), 0.3);
        assert_eq!(reach(Vec2::new(-0.5, 0.0)), 0.3);
        // Turned to face +y, the side is -x.
        let turned = UnitPose {
            heading: std::f32::consts::FRAC_PI_2,
            ..at
        };
        assert_eq!(
            off_path_reach(turned, at.position + Vec2::new(-0.5, 0.0), 0.3, 0.8),
            0.6
        );
        // A tight turner has no room inside: everything counts under its body.
        assert_eq!(
            off_path_reach(at, at.position + Vec2::new(0.0, 0.5), 0.3, 0.05),
            0.3
        );
    }
}
