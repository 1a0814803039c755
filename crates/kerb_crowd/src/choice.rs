//! Choosing a unit's speed and turn for one tick: the drivable arc that
//! follows its path best while keeping clear of its neighbours.

use glam::Vec2;

use crate::{Agent, Preferred};

/// How avoidance looks ahead and what it tries.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AvoidanceParams {
    /// How far ahead, in seconds, a meeting counts.
    pub horizon: f32,
    /// Speeds tried, as shares of the top speed, besides the preferred
    /// speed and standing still.
    pub speed_samples: u8,
    /// Curvatures tried, evenly from full lock left to full lock right,
    /// besides the preferred one (odd counts include straight ahead).
    pub turn_samples: u8,
    /// Extra room kept between bodies, as a share of the sum of their
    /// radii, so that rounding and the neighbours' own changes of course
    /// do not make contact.
    pub margin: f32,
}

impl Default for AvoidanceParams {
    fn default() -> Self {
        Self {
            horizon: 2.0,
            speed_samples: 3,
            turn_samples: 7,
            margin: 0.1,
        }
    }
}

/// A unit's motion for one tick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Choice {
    /// Speed, from zero to the top speed.
    pub speed: f32,
    /// Signed curvature, at most `1 / turn_radius` either way.
    pub curvature: f32,
    /// Whether this differs from the preferred motion: the unit has left
    /// its path and must rejoin it.
    pub avoiding: bool,
}

/// Pieces each candidate arc is cut into for the time-to-contact test: the
/// arc is replaced by its chords, which stay within `s² κ / 8` of it.
const CHORDS: usize = 4;

/// How much a second of time to contact inside the horizon costs against
/// leaving the preferred motion (both as shares of their whole range).
const CONTACT_WEIGHT: f32 = 2.0;

/// How far ahead, in ticks, a contact is imminent: then a unit does all the
/// avoiding, whatever its priority (a tank stops rather than drive into a
/// pedestrian who cannot get out of the way).
const IMMINENT_TICKS: f32 = 3.0;

/// The speed and turn for `agent` this tick of `dt` seconds: `preferred` if
/// it keeps clear of `neighbours` over the horizon, else the drivable arc
/// that best trades following `preferred` against time to contact, shared
/// with each neighbour by priority. A candidate that would bring two bodies
/// into contact within the tick is never chosen; standing still always
/// remains.
pub fn choose<'a>(
    agent: &Agent,
    preferred: Preferred,
    neighbours: impl Iterator<Item = &'a Agent> + Clone,
    params: &AvoidanceParams,
    dt: f32,
) -> Choice {
    choose_within(agent, preferred, neighbours, params, dt, |_| true)
}

/// [`choose`], keeping to where `room` allows: an arc whose point a second
/// ahead (or the horizon, if shorter) `room` refuses is not tried. The
/// preferred motion (the unit's own path, planned clear of walls) and
/// standing still are always allowed. A game passes its walkable area, so
/// that a unit making way does not steer against a wall.
pub fn choose_within<'a>(
    agent: &Agent,
    preferred: Preferred,
    neighbours: impl Iterator<Item = &'a Agent> + Clone,
    params: &AvoidanceParams,
    dt: f32,
    room: impl Fn(Vec2) -> bool,
) -> Choice {
    let most_curvature = 1.0 / agent.turn_radius.max(f32::MIN_POSITIVE);
    let preferred = Preferred {
        speed: preferred.speed.clamp(0.0, agent.max_speed.max(0.0)),
        curvature: preferred.curvature.clamp(-most_curvature, most_curvature),
    };
    let horizon = params.horizon.max(dt);
    let keep = |speed: f32, curvature: f32| Choice {
        speed,
        curvature,
        avoiding: false,
    };
    let evaluate = |speed: f32, curvature: f32| {
        let mut worst = Risk::default();
        for other in neighbours.clone() {
            worst = worst.max(risk(
                agent,
                other,
                speed,
                curvature,
                horizon,
                dt,
                params.margin,
            ));
        }
        worst
    };
    if !evaluate(preferred.speed, preferred.curvature).any() {
        return keep(preferred.speed, preferred.curvature);
    }
    let top = agent.max_speed.max(0.0);
    let speeds = (1..=params.speed_samples.max(1))
        .map(|i| top * f32::from(i) / f32::from(params.speed_samples.max(1)))
        .chain([preferred.speed]);
    let turns = params.turn_samples.max(1);
    let curvatures = (0..turns)
        .map(|i| {
            let share = if turns == 1 {
                0.0
            } else {
                f32::from(i) / f32::from(turns - 1) * 2.0 - 1.0
            };
            share * most_curvature
        })
        .chain([preferred.curvature]);
    // Standing still first: it wins ties, and it is always allowed.
    let mut best = (f32::INFINITY, keep(0.0, preferred.curvature));
    let still = evaluate(0.0, preferred.curvature);
    if !still.contact_this_tick {
        best.0 = cost(&still, 0.0, preferred.curvature, preferred, agent, horizon);
    }
    let look = horizon.min(1.0);
    for speed in speeds {
        for curvature in curvatures.clone() {
            let own_path = speed == preferred.speed && curvature == preferred.curvature;
            if !own_path
                && !room(agent.position + arc_offset(speed, curvature, agent.heading, look))
            {
                continue;
            }
            let risk = evaluate(speed, curvature);
            if risk.contact_this_tick {
                continue;
            }
            let cost = cost(&risk, speed, curvature, preferred, agent, horizon);
            if cost < best.0 {
                best = (cost, keep(speed, curvature));
            }
        }
    }
    let mut choice = best.1;
    choice.avoiding = choice.speed != preferred.speed || choice.curvature != preferred.curvature;
    choice
}

/// How a candidate fares against the neighbours: how soon the first contact
/// comes, and whether it comes within the tick.
#[derive(Clone, Copy, Debug, Default)]
struct Risk {
    /// The largest of `horizon - time to contact` over the neighbours met
    /// within the horizon: on the shared courses of [`risk`], or on the
    /// real ones where contact is imminent.
    urgency: f32,
    contact_this_tick: bool,
}

impl Risk {
    fn max(self, other: Risk) -> Risk {
        Risk {
            urgency: self.urgency.max(other.urgency),
            contact_this_tick: self.contact_this_tick || other.contact_this_tick,
        }
    }

    /// Whether anything is met within the horizon.
    fn any(&self) -> bool {
        self.urgency > 0.0 || self.contact_this_tick
    }
}

/// Leaving the preferred motion, as shares of the top speed, plus the
/// urgency of the contacts ahead.
fn cost(
    risk: &Risk,
    speed: f32,
    curvature: f32,
    preferred: Preferred,
    agent: &Agent,
    horizon: f32,
) -> f32 {
    // Compared where each would take the unit in a second (or the horizon).
    let look = horizon.min(1.0);
    let ours = arc_offset(speed, curvature, agent.heading, look);
    let wanted = arc_offset(preferred.speed, preferred.curvature, agent.heading, look);
    let scale = (agent.max_speed * look).max(f32::MIN_POSITIVE);
    ours.distance(wanted) / scale + CONTACT_WEIGHT * risk.urgency / horizon
}

/// Where an arc of `curvature` driven at `speed` from heading `heading`
/// is after `time`, relative to its start.
#[inline]
fn arc_offset(speed: f32, curvature: f32, heading: f32, time: f32) -> Vec2 {
    let distance = speed * time;
    let turned = curvature * distance;
    let (along, across) = if turned.abs() < 1e-4 {
        (distance, 0.5 * turned * distance)
    } else {
        (turned.sin() / curvature, (1.0 - turned.cos()) / curvature)
    };
    Vec2::from_angle(heading).rotate(Vec2::new(along, across))
}

/// The risk of `agent` driving `speed` and `curvature` against `other`.
///
/// As in reciprocal velocity obstacles, the unit expects the other to do
/// its share of the avoiding: it takes the other on its present course, and
/// its own change of course as counting `1 / share` times, so that two
/// equals each turning half away see the meeting avoided. A contact that is
/// imminent on the real courses is the unit's alone to avoid.
fn risk(
    agent: &Agent,
    other: &Agent,
    speed: f32,
    curvature: f32,
    horizon: f32,
    dt: f32,
    margin: f32,
) -> Risk {
    let reach = (agent.body_radius + other.body_radius) * (1.0 + margin.max(0.0));
    let between = other.position - agent.position;
    // Too far apart to meet within the horizon, whatever either does.
    let closing = agent.max_speed.max(speed) + other.speed;
    if between.length() - reach > closing * horizon {
        return Risk::default();
    }
    let courses = Courses {
        between,
        other_velocity: other.velocity(),
        speed,
        curvature,
        heading: agent.heading,
        reach,
    };
    if between.length_squared() < reach * reach {
        return courses.within_reach(horizon, dt);
    }
    let imminent = IMMINENT_TICKS * dt;
    if let Some(contact) = courses.time_to_contact(imminent.min(horizon)) {
        return Risk {
            urgency: horizon - contact,
            contact_this_tick: contact <= dt,
        };
    }
    let ours = agent.priority.max(f32::MIN_POSITIVE);
    let theirs = other.priority.max(f32::MIN_POSITIVE);
    let share = (theirs / (ours + theirs)).clamp(MIN_SHARE, 1.0);
    let reciprocal = courses.shared(agent.velocity(), share);
    let urgency = reciprocal
        .time_to_contact(horizon)
        .map_or(0.0, |contact| horizon - contact);
    Risk {
        urgency,
        contact_this_tick: false,
    }
}

/// The least share of avoiding a unit takes on: a pedestrian still sees a
/// tank coming, and the amplification of its own turn stays bounded.
const MIN_SHARE: f32 = 0.25;

/// A unit's candidate arc and a neighbour's straight course, relative to
/// the unit's start.
#[derive(Clone, Copy)]
struct Courses {
    between: Vec2,
    other_velocity: Vec2,
    speed: f32,
    curvature: f32,
    heading: f32,
    reach: f32,
}

impl Courses {
    /// The risk of two bodies already within reach (spawned together, or
    /// pushed there): moving apart is free, closing in is ruled out, and
    /// anything else (standing, or passing alongside) is as urgent as a
    /// contact can be, so that the unit steps aside.
    fn within_reach(&self, horizon: f32, dt: f32) -> Risk {
        let ours =
            arc_offset(self.speed, self.curvature, self.heading, dt) / dt.max(f32::MIN_POSITIVE);
        let opening = (self.other_velocity - ours).dot(self.between);
        if opening > 0.0 {
            return Risk::default();
        }
        Risk {
            urgency: horizon,
            contact_this_tick: opening < 0.0,
        }
    }

    /// The same meeting with the unit doing `share` of the avoiding: its
    /// change of course from `velocity` counts `1 / share` times.
    fn shared(mut self, velocity: Vec2, share: f32) -> SharedCourses {
        let amplify = 1.0 / share;
        self.other_velocity += velocity * (amplify - 1.0);
        SharedCourses {
            courses: self,
            amplify,
        }
    }

    /// The first time within `horizon` at which the unit comes within reach
    /// of the other.
    fn time_to_contact(&self, horizon: f32) -> Option<f32> {
        SharedCourses {
            courses: *self,
            amplify: 1.0,
        }
        .time_to_contact(horizon)
    }
}

/// [`Courses`] with the unit's own arc counted `amplify` times.
struct SharedCourses {
    courses: Courses,
    amplify: f32,
}

impl SharedCourses {
    /// The first time within `horizon` at which the body following the arc
    /// comes within reach of the other; zero if they are within reach
    /// already and closing. Each chord of the arc is tested exactly, as
    /// relative motion at a constant velocity.
    fn time_to_contact(&self, horizon: f32) -> Option<f32> {
        let Courses {
            between,
            other_velocity,
            speed,
            curvature,
            heading,
            reach,
        } = self.courses;
        let reach_sq = reach * reach;
        let pieces = if horizon > 0.25 { CHORDS } else { 1 };
        let piece = horizon / pieces as f32;
        let mut ours = Vec2::ZERO;
        for step in 0..pieces {
            let start = piece * step as f32;
            let next = arc_offset(speed, curvature, heading, start + piece) * self.amplify;
            // The other's place at the piece's start relative to the unit's,
            // and its velocity relative to the unit's along the chord.
            let relative = between + other_velocity * start - ours;
            let velocity = other_velocity - (next - ours) / piece;
            if let Some(t) = first_within(relative, velocity, reach_sq, piece) {
                return Some(start + t);
            }
            ours = next;
        }
        None
    }
}

/// The first `t` in `[0, limit]` with `|relative + velocity t|² <= reach²`.
#[inline]
fn first_within(relative: Vec2, velocity: Vec2, reach_sq: f32, limit: f32) -> Option<f32> {
    let c = relative.length_squared() - reach_sq;
    if c <= 0.0 {
        // Within reach already: a contact now only if closing.
        return (relative.dot(velocity) < 0.0).then_some(0.0);
    }
    let a = velocity.length_squared();
    let b = relative.dot(velocity);
    if b >= 0.0 || a == 0.0 {
        return None;
    }
    let discriminant = b * b - a * c;
    if discriminant < 0.0 {
        return None;
    }
    // The smaller root, written without cancellation.
    let t = c / (-b + discriminant.sqrt());
    (t <= limit).then_some(t)
}

/// Drives `speed` and `curvature` for `dt` from `position` and `heading`
/// along the exact arc: the new position and heading.
pub fn drive(position: Vec2, heading: f32, choice: Choice, dt: f32) -> (Vec2, f32) {
    let moved = arc_offset(choice.speed, choice.curvature, heading, dt);
    (
        position + moved,
        heading + choice.curvature * choice.speed * dt,
    )
}
