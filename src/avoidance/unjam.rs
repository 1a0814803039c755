//! Units that avoidance has held still too long: they back out a step, as
//! a driver does, or look for another way.

use bevy::prelude::*;
use kerb_crowd::{Agent, Choice, Preferred, keeps_clear};
use kerb_navmesh::NavMesh;
use kerb_turning::{Pose, TurningPath};

use super::Avoiding;
use super::standing::make_room_after;
use crate::components::UnitPose;
use crate::state::{Goal, Intent, Motion, Pending};
use crate::systems::reverse_out::reverse_out;

/// How long, in seconds, avoidance holds a unit still that wants to move
/// before it backs out a step: soon, for standing face to face with
/// someone only ends when one of them moves.
const HOLD_LIMIT: f32 = 0.3;

/// Ticks of holding that a tick of moving while making way takes off the
/// count.
const HELD_RELIEF: u16 = 4;

/// At or below this share of the speed it wants, a unit counts as held
/// still: creeping slower, it only closes on whoever holds it up by ever
/// smaller steps.
const CRAWL: f32 = 0.2;

/// How many ticks of `dt` avoidance holds a unit still before it backs
/// out: at least a tick more than those in its way wait before they make
/// room (see [`make_room_after`]), so that at a few ticks a second they
/// still do.
pub(super) fn hold_limit(dt: f32) -> u16 {
    let limit = (HOLD_LIMIT / dt.max(f32::MIN_POSITIVE)).ceil() as u16;
    limit.max(make_room_after(dt).saturating_add(1))
}

/// How a unit held still too long gets out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum WayOut {
    /// Backs along a step, planned from the pose facing backwards.
    Back(TurningPath),
    /// Pulls forward along a step: for one held while backing up.
    Forward(TurningPath),
}

/// The way out for `agent` (facing the way it faces) once it has been held
/// too long: a step back (see [`step_back`]) that turns it towards its
/// `goal`, if it has one, or for one held while
/// backing up (`reversing`), whose way back is what holds it, a step
/// forward clear of the others, as a driver pulls forward to try again.
pub(super) fn way_out<'a>(
    agent: &Agent,
    neighbours: impl Iterator<Item = &'a Agent> + Clone,
    mesh: &NavMesh,
    clearance: f32,
    margin: f32,
    reversing: bool,
    goal: Option<Vec2>,
) -> Option<WayOut> {
    if reversing {
        let ahead = Pose::new(agent.position, agent.heading - std::f32::consts::PI);
        let clear = step_keeps_clear(*agent, neighbours, margin);
        reverse_out(mesh, ahead, agent.turn_radius, clearance, None, clear).map(WayOut::Forward)
    } else {
        step_back(agent, neighbours, mesh, clearance, margin, goal).map(WayOut::Back)
    }
}

/// The step back `agent` (not backing up already) takes once it has been
/// held too long: the longest that the walls allow, `clearance` off them,
/// and that keeps its body clear of `neighbours` on their present courses,
/// checked over the whole step driven in a second. In a jam only those at
/// its edge can back out, and they do, rather than back into the others.
/// Where no step keeps clear, the longest the walls allow. Of steps as
/// long, the one that swings its front towards `goal` comes first: one
/// facing a wall beside its way, swinging the other way, pulled forward
/// into the same spot again.
fn step_back<'a>(
    agent: &Agent,
    neighbours: impl Iterator<Item = &'a Agent> + Clone,
    mesh: &NavMesh,
    clearance: f32,
    margin: f32,
    goal: Option<Vec2>,
) -> Option<TurningPath> {
    let backwards = Agent {
        heading: agent.heading + std::f32::consts::PI,
        ..*agent
    };
    let clear = step_keeps_clear(backwards, neighbours, margin);
    let start = Pose::new(agent.position, agent.heading);
    let radius = agent.turn_radius;
    reverse_out(mesh, start, radius, clearance, goal, clear)
        .or_else(|| reverse_out(mesh, start, radius, clearance, goal, |_, _| true))
}

/// Whether a step of a length and signed curvature, driven in a second by
/// `driver` (facing the way it drives), keeps its body clear of
/// `neighbours` on their present courses: the filter `reverse_out` takes.
fn step_keeps_clear<'a>(
    driver: Agent,
    neighbours: impl Iterator<Item = &'a Agent> + Clone,
    margin: f32,
) -> impl Fn(f32, f32) -> bool {
    move |length, curvature| {
        keeps_clear(&driver, length, curvature, neighbours.clone(), margin, 1.0)
    }
}

/// A unit as the choice lands on it.
pub(super) struct Landing<'a> {
    pub pose: &'a UnitPose,
    pub motion: &'a mut Motion,
    pub intent: &'a mut Intent,
    pub avoiding: &'a mut Avoiding,
    pub wanders: bool,
    /// How near its goal the unit may come: see [`Avoiding`].
    pub arrive_within: f32,
}

/// Stores this tick's `choice` for the unit, counting the ticks it is held
/// still while it wants to move (its `wish`: the motion of its path, its
/// `preferred`, or the step it takes to make room). Held too long (face to face with someone,
/// too close to turn away, or backing towards someone), it takes its
/// `way_out` (see [`way_out`]); where there is none, it plans afresh from
/// where it stands.
pub(super) fn land(
    unit: Landing,
    choice: Option<Choice>,
    preferred: Option<Preferred>,
    wish: Option<Preferred>,
    way_out: Option<WayOut>,
    dt: f32,
) {
    if unit.avoiding.arrive_within != unit.arrive_within {
        unit.avoiding.arrive_within = unit.arrive_within;
    }
    // Creeping at a crawl, as two units face to face may, is held too.
    let held = match (choice, wish) {
        (Some(choice), Some(wish)) => wish.speed > 0.0 && choice.speed <= CRAWL * wish.speed,
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
    if held_for < hold_limit(dt) {
        if unit.avoiding.held != held_for {
            unit.avoiding.held = held_for;
        }
        if unit.avoiding.choice != choice {
            unit.avoiding.choice = choice;
        }
        // Keeping the path's curvature, only slower: on along the path.
        // One standing has no path: any motion chosen for it is a swerve.
        let along_path = match (choice, preferred) {
            (Some(choice), Some(preferred)) => {
                choice.avoiding && preferred.speed > 0.0 && choice.curvature == preferred.curvature
            }
            _ => false,
        };
        if unit.avoiding.along_path != along_path {
            unit.avoiding.along_path = along_path;
        }
        return;
    }
    // A step back is for one not backing up already.
    let way_out =
        way_out.filter(|way| matches!(way, WayOut::Forward(_)) || !unit.motion.is_reversing());
    if let Some(way) = way_out {
        // The step starts next tick, once avoidance has seen it. This tick
        // the unit waits on it: taken for a swerve, the choice that held
        // it would leave it off the step, and the step would be dropped.
        match way {
            WayOut::Back(path) => unit.motion.back_along(path),
            WayOut::Forward(path) => unit.motion.pull_along(path),
        }
        *unit.avoiding = Avoiding {
            choice,
            along_path: true,
            arrive_within: unit.arrive_within,
            ..default()
        };
    } else {
        unit.motion.stand_at(*unit.pose);
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
    use super::super::tests::pedestrian;
    use super::*;
    use kerb_navmesh::generate::grid_world;
    use kerb_turning::TurningPath;

    /// The signed sweep of a one-arc step back; zero for a line.
    fn sweep(path: &TurningPath) -> f32 {
        match path.segments() {
            [kerb_turning::Segment::Arc { sweep, .. }] => *sweep,
            _ => 0.0,
        }
    }

    /// Open ground 20 m across.
    fn open_ground() -> NavMesh {
        grid_world(10, 10, 2.0, |_, _| false)
            .validate()
            .expect("a plain grid is valid")
            .navmesh
    }

    /// Lands a choice of `speed`, straight on, for a pedestrian at `pose`
    /// that wants to walk straight on at 1.4 m/s.
    fn land_going_at(
        speed: f32,
        pose: &UnitPose,
        motion: &mut Motion,
        avoiding: &mut Avoiding,
        way_out: Option<WayOut>,
        dt: f32,
    ) {
        let unit = Landing {
            pose,
            motion,
            intent: &mut Intent::default(),
            avoiding,
            wanders: false,
            arrive_within: 0.0,
        };
        let choice = Choice {
            speed,
            curvature: 0.0,
            avoiding: true,
        };
        let wanted = Preferred {
            speed: 1.4,
            curvature: 0.0,
        };
        land(unit, Some(choice), Some(wanted), Some(wanted), way_out, dt);
    }

    /// A held unit backs out along the step that keeps clear of those
    /// standing round it; where every step would back into someone, it
    /// takes the step the walls allow, as a unit alone does.
    #[test]
    fn a_held_unit_backs_out_where_no_one_stands() {
        let mesh = open_ground();
        let unit = pedestrian(Vec2::new(10.0, 10.0), 0.0);
        let alone = reverse_out(
            &mesh,
            Pose::new(unit.position, 0.0),
            0.8,
            0.0,
            None,
            |_, _| true,
        )
        .expect("open space");
        let back =
            |others: &[Agent]| match way_out(&unit, others.iter(), &mesh, 0.0, 0.1, false, None) {
                Some(WayOut::Back(path)) => path,
                other => panic!("a step back: {other:?}"),
            };
        // Alone it swings its front left, backing towards the south-west.
        assert!(sweep(&back(&[])) > 0.9);
        assert_eq!(back(&[]), alone);
        // Someone stands there: it backs towards the north-west instead,
        // a full radius, and ends clear of them.
        let south_west = pedestrian(Vec2::new(9.3, 9.55), 0.0);
        let step = back(&[south_west]);
        assert!(sweep(&step) < -0.9, "{step:?}");
        assert!((step.length() - 0.8).abs() < 1e-3);
        assert!(step.end().position.distance(south_west.position) > 0.6);
        // Boxed in behind on every side: the step the walls allow.
        let behind = [
            south_west,
            pedestrian(Vec2::new(9.3, 10.45), 0.0),
            pedestrian(Vec2::new(9.2, 10.0), 0.0),
        ];
        assert_eq!(back(&behind), alone);
    }

    /// A unit held facing a wall that runs beside its way backs out
    /// swinging its front towards its goal, whichever side that is: swung
    /// the other way, it pulled forward into the wall again.
    #[test]
    fn a_unit_held_facing_a_wall_backs_out_turning_towards_its_goal() {
        let mesh = open_ground();
        let unit = pedestrian(Vec2::new(10.0, 0.4), -std::f32::consts::FRAC_PI_2);
        for goal_x in [0.0, 20.0] {
            let goal = Vec2::new(goal_x, 1.0);
            let way = way_out(
                &unit,
                std::iter::empty(),
                &mesh,
                0.0,
                0.1,
                false,
                Some(goal),
            );
            let Some(WayOut::Back(path)) = way else {
                panic!("a step back: {way:?}");
            };
            // Planned facing backwards: the front faces the other way.
            let front = -Vec2::from_angle(path.end().heading);
            let towards = (goal - unit.position).normalize();
            assert!(front.dot(towards) > 0.5, "goal {goal}: front {front}");
            assert!((path.length() - 0.8).abs() < 1e-3, "{path:?}");
        }
    }

    /// A unit held while backing up, its way back blocked, pulls forward
    /// along a step clear of the others, from the way it faces; boxed in
    /// ahead too, it has no way out and plans afresh.
    #[test]
    fn a_unit_held_backing_up_pulls_forward() {
        let mesh = open_ground();
        // Facing east, backing west, someone standing right behind it.
        let unit = pedestrian(Vec2::new(10.0, 10.0), 0.0);
        let behind = [pedestrian(Vec2::new(9.35, 10.0), 0.0)];
        let Some(WayOut::Forward(path)) =
            way_out(&unit, behind.iter(), &mesh, 0.0, 0.1, true, None)
        else {
            panic!("a step forward");
        };
        assert_eq!(path.start().position, unit.position);
        assert!(Vec2::from_angle(path.start().heading).x > 1.0 - 1e-6);
        assert!(path.end().position.x > 10.5, "{path:?}");
        // Someone ahead too, on every side: no way out.
        let all_round: Vec<Agent> = (0..8)
            .map(|i| {
                let at = unit.position + Vec2::from_angle(i as f32 * 0.785) * 0.62;
                pedestrian(at, 0.0)
            })
            .collect();
        assert_eq!(
            way_out(&unit, all_round.iter(), &mesh, 0.0, 0.1, true, None),
            None
        );

        // Landing it: the unit pulls out forwards, and at the end of the
        // step plans its way on (`stepping_out`).
        let pose = UnitPose {
            position: unit.position,
            heading: 0.0,
        };
        let mut motion = Motion::default();
        motion.back_along(TurningPath::straight(
            Vec2::new(10.0, 10.0),
            Vec2::new(6.0, 10.0),
        ));
        let mut avoiding = Avoiding {
            held: hold_limit(1.0 / 30.0),
            ..Avoiding::default()
        };
        let way = Some(WayOut::Forward(path));
        land_going_at(0.0, &pose, &mut motion, &mut avoiding, way, 1.0 / 30.0);
        assert_eq!(*motion.path(), path);
        assert!(!motion.is_reversing() && motion.stepping_out());
        // It waits on the step this tick, rather than swerve off it at the
        // speed of the choice that held it.
        assert_eq!(avoiding.swerve(false), None);
        assert_eq!(avoiding.path_share(false, 1.4), None);
    }

    /// A unit that avoidance holds still, but lets inch along for one tick
    /// in every second, still counts as held: it backs out.
    #[test]
    fn inching_between_holds_does_not_free_a_unit() {
        let mesh = open_ground();
        let dt = 1.0 / 30.0;
        let pose = UnitPose {
            position: Vec2::new(10.0, 10.0),
            heading: 0.0,
        };
        let mut motion = Motion::default();
        motion.drive(TurningPath::straight(pose.position, Vec2::new(16.0, 10.0)));
        let mut avoiding = Avoiding::default();
        let agent = pedestrian(pose.position, pose.heading);
        let backed_out = (0..60).any(|tick| {
            let inch = if tick % 30 == 29 { 0.5 } else { 0.0 };
            let back = way_out(&agent, std::iter::empty(), &mesh, 0.0, 0.1, false, None);
            land_going_at(inch, &pose, &mut motion, &mut avoiding, back, dt);
            motion.is_reversing()
        });
        assert!(backed_out);
    }
}
