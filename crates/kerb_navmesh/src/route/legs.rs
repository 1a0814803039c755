//! Turning-radius smoothing: driving a string-pulled polyline with turning
//! paths that all have the unit's radius and all stay walkable (Pinter's
//! look-ahead and hit check, done on the navmesh).

use glam::Vec2;
use kerb_turning::{Pose, TurningPath};

use crate::mesh::NavMesh;
use crate::route::RouteError;
use crate::route::gears::{Choices, leg_choices};

/// How many polyline points ahead a single turning path may aim for,
/// skipping the corners between.
const LOOKAHEAD: usize = 3;

/// Waypoints tried for a corner that cannot be driven to directly: pushed
/// away from the inside of the bend (first number) and back along the way
/// in (second), both in turning radii.
const WIDER_APPROACHES: [(f32, f32); 10] = [
    (0.0, 0.0),
    (0.1, 0.0),
    (0.25, 0.0),
    (0.5, 0.0),
    (1.0, 0.0),
    (1.5, 0.0),
    (2.0, 0.0),
    (0.5, 1.0),
    (1.0, 1.0),
    (2.0, 1.0),
];

/// How far a detour passes the wall it goes round, in clearances (or a
/// tenth of the radius, if more).
const DETOUR_PUSHES: [f32; 4] = [1.5, 2.0, 3.0, 5.0];

/// Where a unit that may reverse ends its turn round, in turning radii
/// along the polyline's first piece (or to its end, if nearer).
const TURN_ROUND_ONWARDS: [f32; 4] = [0.0, 0.5, 1.0, 2.0];

/// Where a unit lines up before a goal it could not reach directly, in
/// turning radii back from the goal along the way in.
const GOAL_APPROACHES: [f32; 3] = [1.0, 2.0, 3.0];

/// A turning path to a waypoint, and whether the polyline point it stands
/// for counts as reached.
struct Manoeuvre {
    leg: TurningPath,
    reached: bool,
}

/// One smoothing query: the polyline and how the unit may drive it.
pub(crate) struct Driver<'a> {
    pub(crate) mesh: &'a NavMesh,
    /// Start first, goal last.
    pub(crate) polyline: &'a [Vec2],
    pub(crate) radius: f32,
    pub(crate) clearance: f32,
    /// The clearance for the last leg: no more than the goal's own distance
    /// from the walls, or a goal beside a wall could never be reached.
    pub(crate) goal_clearance: f32,
    pub(crate) final_heading: Option<f32>,
    /// How much a metre in reverse costs against one forwards, for a unit
    /// that may reverse; `None` drives forwards only.
    pub(crate) reverse_cost: Option<f32>,
}

impl Driver<'_> {
    /// Drives the polyline from `start` with legal turning paths, arriving
    /// facing the final heading if there is one.
    pub(crate) fn drive(&self, start: Pose) -> Result<Vec<TurningPath>, RouteError> {
        self.drive_from(start).or_else(|error| {
            // Setting off the wrong way can lead, one greedy leg after
            // another, to where no way round the next corner is left. With
            // room to turn round where it stands, the unit first faces along
            // the polyline and sets off from the same point.
            let turn = self.turn_to_face_polyline(start).ok_or(error)?;
            let mut legs = self.drive_from(turn.end())?;
            legs.insert(0, turn);
            Ok(legs)
        })
    }

    /// [`Driver::drive`] without turning round first.
    fn drive_from(&self, start: Pose) -> Result<Vec<TurningPath>, RouteError> {
        // Skipping corners greedily can leave the unit where the next corner
        // cannot be driven round; taking every corner in turn is the safer
        // second try.
        self.drive_looking_ahead(start, LOOKAHEAD)
            .or_else(|_| self.drive_looking_ahead(start, 1))
    }

    /// The shortest walkable turning path from `start` back to its own
    /// position, facing along the polyline's first piece: a turn on the
    /// spot, which needs about twice the radius of room all round forwards,
    /// and less with reversing (a three-point turn). A unit that may
    /// reverse also tries ending the turn further along that piece.
    fn turn_to_face_polyline(&self, start: Pose) -> Option<TurningPath> {
        let next = *self.polyline.get(1)?;
        let along = (next - start.position).try_normalize()?;
        let room = start.position.distance(next);
        let onwards: &[f32] = if self.reverse_cost.is_some() {
            &TURN_ROUND_ONWARDS
        } else {
            &[0.0]
        };
        onwards
            .iter()
            .map(|&radii| start.position + along * (radii * self.radius).min(room))
            .find_map(|point| {
                let choices = leg_choices(
                    start,
                    point,
                    Some(along.to_angle()),
                    self.radius,
                    self.reverse_cost,
                )?;
                self.mesh
                    .first_walkable(choices.as_slice(), self.clearance)
                    .path()
                    .filter(|turn| turn.length() > 0.0)
            })
    }

    fn drive_looking_ahead(
        &self,
        start: Pose,
        lookahead: usize,
    ) -> Result<Vec<TurningPath>, RouteError> {
        let polyline = self.polyline;
        let last = polyline.len() - 1;
        // Each leg with the pose and polyline index it was planned from, so
        // a leg that leads nowhere can be taken back.
        let mut steps: Vec<(Pose, usize, TurningPath)> = Vec::with_capacity(polyline.len());
        let mut pose = start;
        let mut next = 1.min(last);
        // Each polyline point takes at most a few manoeuvres; the cap stops
        // a corner that keeps being approached and never reached.
        let mut budget = 4 * polyline.len() + 8;
        while next <= last {
            if budget == 0 {
                return Err(RouteError::Undrivable { at: polyline[next] });
            }
            budget -= 1;
            let far = (next + lookahead - 1).min(last);
            // Skipping a corner is tried with the shortest turning path
            // only: the polyline bends round walls, so a longer way past a
            // corner seldom fits where the shortest does not.
            let direct = (next + 1..=far)
                .rev()
                .find_map(|target| self.aim_shortest(pose, target).map(|leg| (target + 1, leg)))
                .or_else(|| self.aim(pose, next).map(|leg| (next + 1, leg)));
            // A point the unit cannot get round is passed by going round the
            // one after it instead.
            let step = direct.or_else(|| {
                (next..=(next + 1).min(last)).find_map(|target| {
                    self.detour(pose, target)
                        .or_else(|| self.manoeuvre(pose, target, false))
                        .map(|m| (target + usize::from(m.reached), m.leg))
                })
            });
            let (following, leg) = match step {
                Some(step) => step,
                None => {
                    // Stuck: the last leg arrived facing where no turn
                    // leads on. Take it again, arriving some other way from
                    // which the next point can be driven to.
                    let (before, index, _) = steps
                        .pop()
                        .ok_or(RouteError::Undrivable { at: polyline[next] })?;
                    let manoeuvre = self
                        .manoeuvre(before, index, true)
                        .ok_or(RouteError::Undrivable { at: polyline[next] })?;
                    (pose, next) = (before, index);
                    (index + usize::from(manoeuvre.reached), manoeuvre.leg)
                }
            };
            steps.push((pose, next, leg));
            pose = leg.end();
            next = following;
        }
        let mut legs: Vec<TurningPath> = steps
            .into_iter()
            .map(|(_, _, leg)| leg)
            .filter(|leg| leg.length() > 0.0)
            .collect();
        if legs.is_empty() {
            legs.push(TurningPath::stationary(start));
        }
        Ok(legs)
    }

    /// The shortest walkable turning path from `pose` to polyline point
    /// `target`.
    fn aim(&self, pose: Pose, target: usize) -> Option<TurningPath> {
        self.leg(pose, self.polyline[target], target, self.heading_at(target))
    }

    /// The shortest turning path from `pose` to polyline point `target`, if
    /// it is walkable.
    fn aim_shortest(&self, pose: Pose, target: usize) -> Option<TurningPath> {
        let point = self.polyline[target];
        let shortest = *self
            .candidates(pose, point, self.heading_at(target))?
            .shortest()?;
        self.mesh
            .is_walkable(&shortest, self.clearance_at(target))
            .then_some(shortest)
    }

    /// Every turning path from `pose` to `point` at the unit's radius,
    /// arriving facing `heading` if given, cheapest first.
    fn candidates(&self, pose: Pose, point: Vec2, heading: Option<f32>) -> Option<Choices> {
        leg_choices(pose, point, heading, self.radius, self.reverse_cost)
    }

    /// The clearance for a leg to polyline point `target`.
    fn clearance_at(&self, target: usize) -> f32 {
        if target + 1 == self.polyline.len() {
            self.goal_clearance
        } else {
            self.clearance
        }
    }

    /// The heading required on reaching polyline point `target`.
    fn heading_at(&self, target: usize) -> Option<f32> {
        if target + 1 == self.polyline.len() {
            self.final_heading
        } else {
            None
        }
    }

    /// The shortest walkable turning path from `pose` to `point`, standing
    /// for polyline point `target`, arriving facing `heading` if given.
    fn leg(
        &self,
        pose: Pose,
        point: Vec2,
        target: usize,
        heading: Option<f32>,
    ) -> Option<TurningPath> {
        let candidates = self.candidates(pose, point, heading)?;
        self.mesh
            .first_walkable(candidates.as_slice(), self.clearance_at(target))
            .path()
    }

    /// A legal way round corner `index` when aiming straight at it failed:
    /// waypoints pushed away from the inside of the bend (a wider approach),
    /// arriving along the way out or the bisector (which lets the multi-arc
    /// words of the pose planner in). Ways from which the next point can be
    /// driven to come first. For the goal itself, a lining-up point back
    /// along the way in.
    fn manoeuvre(&self, pose: Pose, index: usize, onward_only: bool) -> Option<Manoeuvre> {
        let polyline = self.polyline;
        let corner = polyline[index];
        let previous = if index == 0 {
            pose.position
        } else {
            polyline[index - 1]
        };
        let incoming = (corner - previous)
            .try_normalize()
            .unwrap_or(pose.forward());
        let scale = self.radius.max(self.clearance);
        let Some(&following) = polyline.get(index + 1) else {
            return self.line_up_for_goal(pose, index, incoming, scale);
        };
        let outgoing = (following - corner).try_normalize().unwrap_or(incoming);
        // Away from the inside of the bend, where the wall corner is.
        let outward = (incoming - outgoing).try_normalize().unwrap_or(Vec2::ZERO);
        let arrival_headings = [
            Some(outgoing.to_angle()),
            (incoming + outgoing).try_normalize().map(Vec2::to_angle),
        ];
        let mut fallback = None;
        let waypoints = WIDER_APPROACHES
            .iter()
            .map(|&(push, back)| {
                let point = corner + outward * (push * scale) - incoming * (back * scale);
                (point, back == 0.0)
            })
            .filter(|(point, _)| self.mesh.locate(*point).is_some())
            .flat_map(|(point, reached)| {
                [None]
                    .into_iter()
                    .chain(arrival_headings.into_iter().flatten().map(Some))
                    .map(move |heading| (point, heading, reached))
            });
        for (point, heading, reached) in waypoints {
            // Backing off short of the corner does not stand for it.
            let target = if reached {
                index
            } else {
                index.saturating_sub(1)
            };
            let Some(leg) = self.leg(pose, point, target, heading) else {
                continue;
            };
            // Greedily taking the first legal way round can lead nowhere.
            if self.aim(leg.end(), index + 1).is_some() {
                return Some(Manoeuvre { leg, reached });
            }
            if !onward_only {
                fallback.get_or_insert(Manoeuvre { leg, reached });
            }
        }
        fallback
    }

    /// A waypoint beside the wall that the turning path to polyline point
    /// `index` first comes too close to, pushed clear of it. The polyline
    /// can graze a wall corner that is not one of its points (its straight
    /// pieces only keep the clearance from the corners they bend round),
    /// and an arc can clip a wall; this goes round either.
    fn detour(&self, pose: Pose, index: usize) -> Option<Manoeuvre> {
        let scale = self.radius.max(self.clearance);
        let path = *self
            .candidates(pose, self.polyline[index], None)?
            .shortest()?;
        let at = self.mesh.path_violation(&path, self.clearance)?;
        let hit = path.sample(at).position;
        let wall = self.mesh.nearest_wall_point(hit, self.clearance + scale)?;
        let away = (hit - wall)
            .try_normalize()
            .unwrap_or(path.sample(at).forward().perp());
        let margin = self.clearance.max(0.1 * self.radius);
        let mut fallback = None;
        for push in DETOUR_PUSHES {
            let point = wall + away * (margin * push);
            if self.mesh.locate(point).is_none() {
                continue;
            }
            let Some(leg) = self.leg(pose, point, index.saturating_sub(1), None) else {
                continue;
            };
            let manoeuvre = Manoeuvre {
                leg,
                reached: false,
            };
            // A long piece can graze several corners; one detour at a time
            // still makes progress.
            if self.aim(leg.end(), index).is_some() {
                return Some(manoeuvre);
            }
            fallback.get_or_insert(manoeuvre);
        }
        fallback
    }

    /// A point back along the way into the goal, facing it, from which the
    /// goal may be driven to next.
    fn line_up_for_goal(
        &self,
        pose: Pose,
        index: usize,
        incoming: Vec2,
        scale: f32,
    ) -> Option<Manoeuvre> {
        let goal = self.polyline[index];
        let facing = self.final_heading.map_or(incoming, Vec2::from_angle);
        // A unit that may reverse can also line up ahead and back in.
        let sides: &[f32] = if self.reverse_cost.is_some() {
            &[1.0, -1.0]
        } else {
            &[1.0]
        };
        let approaches = sides
            .iter()
            .flat_map(|&side| GOAL_APPROACHES.iter().map(move |&back| side * back));
        approaches.into_iter().find_map(|back| {
            let point = goal - facing * (back * scale);
            self.mesh.locate(point)?;
            let leg = self.leg(
                pose,
                point,
                index.saturating_sub(1),
                Some(facing.to_angle()),
            )?;
            Some(Manoeuvre {
                leg,
                reached: false,
            })
        })
    }
}
