//! Choosing a unit's speed and turn for one tick: the drivable arc nearest
//! the velocity that reciprocal avoidance asks of it.

use glam::Vec2;
use kerb_turning::heading_vector;

use crate::arc::arc_offset;
use crate::contact::{Piece, in_contact};
use crate::meetings::{Meeting, Meetings};
use crate::orca::{HalfPlane, HalfPlanes, solve};
use crate::{Agent, MAX_NEIGHBOURS, Preferred};

/// How avoidance looks ahead.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AvoidanceParams {
    /// How far ahead, in seconds, a meeting counts.
    pub horizon: f32,
    /// How quickly, in seconds, a unit turns to the heading avoidance asks
    /// for (twice the time constant of its steering), as far as its radius
    /// allows.
    pub steer_time: f32,
    /// How far, in radians, a unit that must make way turns its wish to the
    /// right first, as people and traffic keep right: head-on meetings
    /// then pass on the same side, and a crowd crossing itself turns into
    /// a roundabout rather than a jam. Negative keeps left.
    pub keep_right: f32,
    /// Extra room kept between bodies, as a share of the sum of their
    /// radii, so that rounding and the neighbours' own changes of course
    /// do not make contact.
    pub margin: f32,
    /// How far ahead, in seconds, a wall counts: a unit making way comes
    /// no nearer a wall than it could stop short of in this time, so it
    /// slides along walls rather than turn into them.
    pub wall_horizon: f32,
}

impl Default for AvoidanceParams {
    fn default() -> Self {
        Self {
            horizon: 2.0,
            steer_time: 0.25,
            keep_right: 0.3,
            margin: 0.1,
            wall_horizon: 1.0,
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

/// Up to how many times further ahead two units of unequal size (a tank
/// and a pedestrian) look for each other than equals do, in proportion to
/// their sizes: the small one steps out of the way in good time, and the
/// large one need not stop.
const UNEQUAL_HORIZON: f32 = 4.0 / 3.0;

/// How many times larger the larger of two bodies is than the other.
fn size_ratio(agent: &Agent, other: &Agent) -> f32 {
    // Crowds are mostly of equals: spare them the division.
    if agent.body_radius == other.body_radius {
        return 1.0;
    }
    let (small, large) = if agent.body_radius <= other.body_radius {
        (agent.body_radius, other.body_radius)
    } else {
        (other.body_radius, agent.body_radius)
    };
    large / small.max(f32::MIN_POSITIVE)
}

/// The share of the avoiding a unit of priority `ours` takes on with one
/// of priority `theirs`: half each between equals.
#[inline]
fn share_of(ours: f32, theirs: f32) -> f32 {
    if ours == theirs {
        return 0.5;
    }
    let ours = ours.max(f32::MIN_POSITIVE);
    let theirs = theirs.max(f32::MIN_POSITIVE);
    theirs / (ours + theirs)
}

/// How much `other` counts as on the move, from 0 standing to 1 at a
/// quarter of its top speed or more.
#[inline]
fn moving_share(other: &Agent) -> f32 {
    let quarter = 0.25 * other.max_speed;
    if other.speed >= quarter && other.speed > 0.0 {
        return 1.0;
    }
    (other.speed / quarter.max(f32::MIN_POSITIVE)).min(1.0)
}

/// How far from a wall, beyond its body, a unit making way keeps: the
/// room it needs to turn parallel to the wall from facing it at 45°, or
/// its body radius if less. Pressed closer, a unit facing the wall cannot
/// turn away without reversing, and a crowd jams against it.
fn wall_standoff(agent: &Agent) -> f32 {
    let turn = agent.turn_radius.max(0.0) * (1.0 - std::f32::consts::FRAC_1_SQRT_2);
    turn.min(agent.body_radius.max(0.0))
}

/// The least share of avoiding a unit takes on: a tank still slows for a
/// pedestrian in its way.
const MIN_SHARE: f32 = 0.25;

/// Most wall points a choice takes into account: the rest of its
/// half-planes are for neighbours.
pub const MAX_WALLS: usize = 4;

/// A moving unit that does at most this share of the avoiding with each of
/// its neighbours (a ninth of their priority or less) counts as heavy among
/// them: it keeps to its path. A settled unit is not heavy among those on
/// the move: it still steps aside.
const HEAVY_SHARE: f32 = 0.1;

/// How far ahead, in seconds, a unit that keeps to its path (heavy, or
/// backing up) makes sure it keeps clear: it does not swerve, so those
/// ahead need the time to step aside.
const PATH_LOOK: f32 = 0.5;

/// The shares of its speed a unit that keeps to its path tries, fastest
/// first: slower needs less room ahead.
const PATH_SHARES: [f32; 3] = [1.0, 0.5, 0.25];

/// The speed, as a share of the top speed, at which a blocked unit creeps
/// on.
const CREEP: f32 = 0.25;

/// The least speed, as a share of the speed asked for, at which a unit
/// turns towards a velocity beside or behind it: it must move to turn.
const TURNING_SPEED: f32 = 0.3;

/// The speed and turn for `agent` this tick of `dt` seconds: `preferred` if
/// it keeps clear of `neighbours` over the horizon, else the drivable arc
/// nearest the velocity that optimal reciprocal collision avoidance (ORCA)
/// asks of it, with each neighbour sharing the avoiding by priority. An arc
/// that would bring two bodies into contact within the tick is never
/// chosen; standing still always remains.
///
/// Neighbours should come in an order that does not depend on how units
/// are stored (nearest first, as [`crate::Nearest`] gives them): where
/// avoidance cannot keep clear of them all, the order breaks ties.
pub fn choose<'a>(
    agent: &Agent,
    preferred: Preferred,
    neighbours: impl Iterator<Item = &'a Agent> + Clone,
    params: &AvoidanceParams,
    dt: f32,
) -> Choice {
    choose_within(agent, preferred, neighbours, params, dt, &[], |_| true)
}

/// [`choose`], keeping clear of walls: `walls` are the points of the walls
/// nearest the unit (the nearest of each wall near enough to matter; the
/// first [`MAX_WALLS`] count), which
/// avoidance keeps its body from as it keeps from other units' (a wall
/// makes no way), and an arc whose point a second ahead (or the horizon,
/// if shorter) `room` refuses is not tried. The preferred motion (the
/// unit's own path, planned clear of walls) and standing still are always
/// allowed. A game passes its walkable area, so that a unit making way
/// does not steer against a wall.
pub fn choose_within<'a>(
    agent: &Agent,
    preferred: Preferred,
    neighbours: impl Iterator<Item = &'a Agent> + Clone,
    params: &AvoidanceParams,
    dt: f32,
    walls: &[Vec2],
    room: impl Fn(Vec2) -> bool,
) -> Choice {
    let still = Choice {
        speed: 0.0,
        curvature: 0.0,
        avoiding: preferred.speed > 0.0,
    };
    if !agent.is_finite() {
        return still;
    }
    let neighbours = neighbours.filter(|other| other.is_finite());
    let choice = choose_finite(agent, preferred, neighbours, params, dt, walls, room);
    // Values far out of range (a speed of 1e30) can still overflow.
    if choice.speed.is_finite() && choice.curvature.is_finite() {
        choice
    } else {
        still
    }
}

/// [`choose_within`] for a unit and neighbours whose values are finite.
fn choose_finite<'a>(
    agent: &Agent,
    preferred: Preferred,
    neighbours: impl Iterator<Item = &'a Agent> + Clone,
    params: &AvoidanceParams,
    dt: f32,
    walls: &[Vec2],
    room: impl Fn(Vec2) -> bool,
) -> Choice {
    let most_curvature = 1.0 / agent.turn_radius.max(f32::MIN_POSITIVE);
    let top = agent.max_speed.max(0.0);
    let preferred = Preferred {
        speed: preferred.speed.clamp(0.0, top),
        curvature: preferred.curvature.clamp(-most_curvature, most_curvature),
    };
    let dt = dt.max(f32::MIN_POSITIVE);
    let horizon = params.horizon.max(dt);
    let steer = params.steer_time.max(dt);
    let margin = params.margin.max(0.0);
    let bodies = |other: &Agent| agent.body_radius + other.body_radius;
    // Avoidance plans for the whole margin; `keeps_clear` refuses an arc
    // only inside half of it, so that bodies kept apart by the first can
    // still slide past each other.
    let reach = |other: &Agent| bodies(other) * (1.0 + margin);

    let facing = agent.facing();
    let velocity = facing * agent.speed;
    let mut planes = HalfPlanes::default();
    // Walls first, as RVO2 puts its obstacles: each allows no velocity
    // towards it faster than would close the gap to the body within the
    // wall horizon. A body already over a wall may still move along it.
    let wall_horizon = params.wall_horizon.max(dt);
    let standoff = wall_standoff(agent);
    for &wall in walls.iter().filter(|wall| wall.is_finite()).take(MAX_WALLS) {
        let towards = wall - agent.position;
        let distance = towards.length();
        let kept = agent.body_radius + standoff;
        if distance <= f32::MIN_POSITIVE || distance > kept + top * wall_horizon {
            continue;
        }
        let normal = towards / distance;
        // Inside the standoff the plane asks the unit to draw away.
        let gap = distance - kept;
        planes.push(HalfPlane {
            point: normal * (gap / wall_horizon),
            direction: normal.perp(),
        });
    }
    let wall_planes = planes.as_slice().len();
    // The neighbours near enough to meet within the horizon, for the
    // half-planes and the contact checks. Past `MAX_NEIGHBOURS` of them,
    // the checks go back to every neighbour.
    let mut meetings = Meetings::default();
    let mut overflow = false;
    // The largest share of the avoiding this unit does with any neighbour.
    let mut most_share: f32 = 0.0;
    // The same among neighbours on the move: keeping right is for passing
    // those, not for walking round someone who stands.
    let mut most_share_moving: f32 = 0.0;
    for other in neighbours.clone() {
        let between = other.position - agent.position;
        let reach = reach(other);
        let horizon = horizon * size_ratio(agent, other).clamp(1.0, UNEQUAL_HORIZON);
        // Too far apart to meet within the horizon, whatever either does.
        let meets = reach + (top.max(agent.speed) + other.speed) * horizon;
        if between.length_squared() > meets * meets {
            continue;
        }
        let raw_share = share_of(agent.priority, other.priority);
        most_share = most_share.max(raw_share);
        let moving = moving_share(other);
        most_share_moving = most_share_moving.max(raw_share * moving);
        if meetings.len() == MAX_NEIGHBOURS {
            overflow = true;
            continue;
        }
        meetings.push(Meeting {
            reach,
            horizon,
            share: raw_share.clamp(MIN_SHARE, 1.0),
            ..contact_meeting(agent, other)
        });
    }
    meetings.half_planes(velocity, dt, &mut planes);
    let safe_for = |speed: f32, curvature: f32, look: f32| {
        let pieces = arc_pieces(facing, speed, curvature, look);
        if overflow {
            clear_of_all(agent, pieces, neighbours.clone(), margin)
        } else {
            clear_of(&meetings, pieces, margin)
        }
    };
    let safe = |speed: f32, curvature: f32| safe_for(speed, curvature, dt);
    let keep = |speed: f32, curvature: f32| Choice {
        speed,
        curvature,
        avoiding: speed != preferred.speed || curvature != preferred.curvature,
    };

    // The velocity an arc has, on average, over the steering time.
    let arc_velocity =
        |speed: f32, curvature: f32| arc_offset(speed, curvature, facing, steer) / steer;
    let wanted = arc_velocity(preferred.speed, preferred.curvature);
    // Its own path was planned clear of walls: only the neighbours judge it.
    let among_neighbours = planes.as_slice()[wall_planes..]
        .iter()
        .fold(f32::NEG_INFINITY, |worst, plane| {
            worst.max(plane.violation(wanted))
        });
    if among_neighbours <= 0.0 && safe(preferred.speed, preferred.curvature) {
        return keep(preferred.speed, preferred.curvature);
    }
    // A unit far heavier than every neighbour (a tank among pedestrians)
    // keeps to its path and only slows, or stops, for those in its way:
    // they make way for it, and it never swerves off on a loop.
    // The tick is checked on its own as well: the look ahead is checked by
    // longer chords, and one that opens from a body can hide an arc that
    // first closes on it by a fraction of a millimetre.
    if most_share <= HEAVY_SHARE && preferred.speed > 0.0 {
        return slower_along_path(preferred, dt, |speed, look| {
            safe_for(speed, preferred.curvature, look) && safe(speed, preferred.curvature)
        });
    }
    // Keeping right is for meetings of equals: a unit the others make way
    // for (a tank among pedestrians) keeps its line.
    let keep_right = heading_vector(-params.keep_right * (2.0 * most_share_moving).min(1.0));
    let target = solve(&planes, top, keep_right.rotate(wanted));

    // Track the target as a driver would: turn towards it as sharply as
    // the radius allows, at its speed ahead, yet fast enough to turn.
    let local = Vec2::new(facing.dot(target), facing.perp_dot(target));
    let bearing = local.y.atan2(local.x);
    // The speed ahead, |target| cos(bearing), but never below the share
    // that turns.
    let ahead = local.x.max(TURNING_SPEED * target.length());
    let track = ahead.min(top);
    let turn = |speed: f32| {
        if speed > 0.0 {
            (2.0 * bearing / (speed * steer)).clamp(-most_curvature, most_curvature)
        } else {
            preferred.curvature
        }
    };
    let look = horizon.min(1.0);
    let candidates = [1.0, 0.5, 0.25].map(|slower| (track * slower, turn(track * slower)));
    for (speed, curvature) in candidates {
        if speed > 0.0
            && room(agent.position + arc_offset(speed, curvature, facing, look))
            && safe(speed, curvature)
        {
            return keep(speed, curvature);
        }
    }
    if preferred.speed > 0.0 {
        // Blocked: rather than wait for ever (and hold up those waiting
        // for it), creep along whichever arc breaks the neighbours'
        // half-planes least.
        let creep = CREEP * top;
        let mut best: Option<(f32, f32)> = None;
        for curvature in [preferred.curvature, 0.0, most_curvature, -most_curvature] {
            let violation =
                planes.worst_violation(arc_offset(creep, curvature, facing, steer) / steer);
            // Its own path was planned clear of walls.
            let own_path = curvature == preferred.curvature;
            if best.is_none_or(|(least, _)| violation < least)
                && (own_path || room(agent.position + arc_offset(creep, curvature, facing, look)))
                && safe(creep, curvature)
            {
                best = Some((violation, curvature));
            }
        }
        if let Some((_, curvature)) = best {
            return keep(creep, curvature);
        }
    }
    keep(0.0, preferred.curvature)
}

/// `preferred`'s path for `agent`, at the fastest of a few shares of its
/// speed that keeps clear of `neighbours` for half a second (or `dt`, if
/// longer), or standing: for a unit that must not swerve, such as one
/// backing up, which cannot see behind it to steer.
pub fn keep_to_path<'a>(
    agent: &Agent,
    preferred: Preferred,
    neighbours: impl Iterator<Item = &'a Agent> + Clone,
    params: &AvoidanceParams,
    dt: f32,
) -> Choice {
    slower_along_path(preferred, dt, |speed, look| {
        keeps_clear(
            agent,
            speed,
            preferred.curvature,
            neighbours.clone(),
            params.margin,
            look,
        )
    })
}

/// `preferred` at the fastest of [`PATH_SHARES`] of its speed that `clear`
/// allows over the look ahead, else standing; its curvature kept.
fn slower_along_path(preferred: Preferred, dt: f32, clear: impl Fn(f32, f32) -> bool) -> Choice {
    let look = dt.max(PATH_LOOK);
    let speed = PATH_SHARES
        .iter()
        .map(|share| preferred.speed * share)
        .find(|&speed| clear(speed, look))
        .unwrap_or(0.0);
    Choice {
        speed,
        curvature: preferred.curvature,
        avoiding: speed < preferred.speed,
    }
}

/// Whether `agent` driving `speed` and `curvature` for `dt` keeps clear of
/// `neighbours` on their present courses: no body comes within the sum of
/// the radii and half the `margin` (a share of that sum) of another. Bodies
/// within that reach already may close in (to turn away, or slide past)
/// but not to within the sum of the radii, and bodies within that may only
/// move apart, except that of two already in contact, the lighter may
/// leave as it can while the heavier waits for it.
pub fn keeps_clear<'a>(
    agent: &Agent,
    speed: f32,
    curvature: f32,
    neighbours: impl Iterator<Item = &'a Agent>,
    margin: f32,
    dt: f32,
) -> bool {
    let pieces = arc_pieces(agent.facing(), speed, curvature, dt);
    clear_of_all(agent, pieces, neighbours, margin)
}

/// `agent`'s meeting with `other`, as far as the contact checks need it.
fn contact_meeting(agent: &Agent, other: &Agent) -> Meeting {
    let bodies = agent.body_radius + other.body_radius;
    Meeting {
        between: other.position - agent.position,
        velocity: other.velocity(),
        bodies,
        reach: bodies,
        horizon: 1.0,
        share: 0.0,
        passed: agent.priority <= other.priority && in_contact(agent, other),
    }
}

/// The pieces of the arc a unit facing `facing` drives at `speed` and
/// `curvature` for `dt`: short enough that each is near its chord (the
/// arc leaves a chord turning 0.1 rad by under 1.3% of its length).
fn arc_pieces(
    facing: Vec2,
    speed: f32,
    curvature: f32,
    dt: f32,
) -> impl Iterator<Item = Piece> + Clone {
    let dt = dt.max(f32::MIN_POSITIVE);
    let turned = (curvature * speed * dt).abs();
    let pieces = ((turned / PIECE_TURN).ceil() as usize).clamp(1, MAX_PIECES);
    let duration = dt / pieces as f32;
    (0..pieces).map(move |index| Piece {
        from: arc_offset(speed, curvature, facing, duration * index as f32),
        to: arc_offset(speed, curvature, facing, duration * (index + 1) as f32),
        start: duration * index as f32,
        duration,
    })
}

/// Whether moving along `pieces` keeps clear of `meetings` (see
/// [`keeps_clear`]).
fn clear_of(meetings: &Meetings, pieces: impl Iterator<Item = Piece>, margin: f32) -> bool {
    let mut pieces = pieces;
    !pieces.any(|piece| meetings.any_touched(piece, margin))
}

/// [`clear_of`] for any number of neighbours, [`MAX_NEIGHBOURS`] at a
/// time.
fn clear_of_all<'a>(
    agent: &Agent,
    pieces: impl Iterator<Item = Piece> + Clone,
    neighbours: impl Iterator<Item = &'a Agent>,
    margin: f32,
) -> bool {
    let mut batch = Meetings::default();
    for other in neighbours {
        batch.push(contact_meeting(agent, other));
        if batch.len() == MAX_NEIGHBOURS {
            if !clear_of(&batch, pieces.clone(), margin) {
                return false;
            }
            batch = Meetings::default();
        }
    }
    clear_of(&batch, pieces, margin)
}

/// The most a unit turns along one piece of the contact check, in radians.
const PIECE_TURN: f32 = 0.1;

/// The most pieces an arc is cut into.
const MAX_PIECES: usize = 32;
