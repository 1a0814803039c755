//! A way in among units that stand still: a short chain of turning paths,
//! found by a hybrid A* search over arcs at the unit's radius and straight
//! steps, that keeps the unit's body clear of everyone standing.
//!
//! Avoidance only looks a horizon ahead, one tick at a time. A unit whose
//! place lies inside a block of people standing at theirs, with gaps it
//! cannot turn through, is pushed off every plain path that cuts through
//! the block, and walks round it for ever. This search finds the way along
//! the gaps, as Dolgov et al.'s hybrid A* does for a car in a car park.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};
use std::f32::consts::{FRAC_PI_2, TAU};

use glam::Vec2;
use kerb_turning::{Pose, Segment, TurningPath, plan_to_point, plan_to_pose};

/// Someone standing still, as a path among them sees them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Standing {
    /// Where they stand.
    pub position: Vec2,
    /// How near their centre no point of the path may come: the sum of the
    /// two bodies' radii, with whatever margin avoidance keeps.
    pub reach: f32,
}

/// How hard [`path_among`] searches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AmongParams {
    /// Headings a turn is cut into: each arc step turns by a full turn over
    /// this many.
    pub headings: u32,
    /// Poses the search expands at most before it gives up.
    pub expansions: usize,
    /// How much more the search weighs the distance left than the
    /// distance come: above 1 it finds a way sooner, a little longer.
    pub greed: f32,
}

impl Default for AmongParams {
    /// 16 headings, 4,000 poses, a greed of 1.5.
    fn default() -> Self {
        Self {
            headings: 16,
            expansions: 4_000,
            greed: 1.5,
        }
    }
}

/// The shortest straight step, in metres: a unit that turns on the spot
/// still steps forwards by this much.
const MIN_STEP: f32 = 0.2;

/// How far from `p` the `segment` passes at its nearest.
fn distance_to(segment: &Segment, p: Vec2) -> f32 {
    match *segment {
        Segment::Line { start, end, .. } => {
            let along = end - start;
            let t = ((p - start).dot(along) / along.length_squared().max(f32::MIN_POSITIVE))
                .clamp(0.0, 1.0);
            p.distance(start + along * t)
        }
        Segment::Arc {
            center,
            radius,
            start_angle,
            sweep,
            ..
        } => {
            let offset = p - center;
            let angle = offset.y.atan2(offset.x);
            let into = if sweep >= 0.0 {
                (angle - start_angle).rem_euclid(TAU)
            } else {
                (start_angle - angle).rem_euclid(TAU)
            };
            if into <= sweep.abs() {
                (offset.length() - radius).abs()
            } else {
                let first = center + radius * Vec2::from_angle(start_angle);
                let last = center + radius * Vec2::from_angle(start_angle + sweep);
                p.distance(first).min(p.distance(last))
            }
        }
    }
}

/// Whether every point of `path` keeps clear of everyone `standing`.
pub fn clear_of(path: &TurningPath, standing: &[Standing]) -> bool {
    path.segments().iter().all(|segment| {
        standing
            .iter()
            .all(|other| distance_to(segment, other.position) >= other.reach)
    })
}

/// A pose the search has reached.
struct Node {
    pose: Pose,
    /// Which of the headings it faces, counted from the start's.
    turn: i32,
    /// Distance driven from the start.
    driven: f32,
    /// The node it came from, and the step from there; `None` at the start.
    from: Option<(usize, TurningPath)>,
}

/// A short chain of forward turning paths from `start` to the point
/// `goal` for a unit of turning radius `radius`, every point of it clear
/// of everyone `standing` and every step ending where `room` holds (the
/// walkable area, say): the legs in order, the last one to the goal.
/// `None` where the search finds no way within its budget, or where the
/// query is not finite or the radius not above zero.
///
/// Anyone the start already stands within reach of counts only as near as
/// they are, so a unit pressed against someone may still move away.
pub fn path_among(
    start: Pose,
    goal: Vec2,
    radius: f32,
    standing: &[Standing],
    params: &AmongParams,
    room: impl Fn(Vec2) -> bool,
) -> Option<Vec<TurningPath>> {
    let finite = start.position.is_finite() && start.heading.is_finite() && goal.is_finite();
    let drivable = radius > 0.0 && radius.is_finite();
    if !(finite && drivable) || params.headings < 4 {
        return None;
    }
    let standing: Vec<Standing> = standing
        .iter()
        .map(|other| Standing {
            reach: other
                .reach
                .min(other.position.distance(start.position) - 1e-3),
            ..*other
        })
        .collect();
    let step_turn = TAU / params.headings as f32;
    let straight = (radius * step_turn).max(MIN_STEP);
    // Poses closer than this, facing the same way, count as one.
    let cell = 0.5 * (radius * step_turn).max(0.05);
    let window = start.position.distance(goal) + 4.0 * radius + 2.0;
    let key = |pose: &Pose, turn: i32| {
        let at = (pose.position - start.position) / cell;
        (
            at.x.round() as i32,
            at.y.round() as i32,
            turn.rem_euclid(params.headings as i32),
        )
    };
    let mut nodes = vec![Node {
        pose: start,
        turn: 0,
        driven: 0.0,
        from: None,
    }];
    let mut open = BinaryHeap::new();
    let mut closed = HashSet::new();
    open.push(Reverse((0u32, 0usize)));
    let mut expanded = 0;
    while let Some(Reverse((_, index))) = open.pop() {
        let (pose, turn, driven) = {
            let node = &nodes[index];
            (node.pose, node.turn, node.driven)
        };
        if !closed.insert(key(&pose, turn)) {
            continue;
        }
        expanded += 1;
        if expanded > params.expansions {
            return None;
        }
        if let Ok(last) = plan_to_point(pose, goal, radius)
            && clear_of(&last, &standing)
        {
            return Some(legs_to(&nodes, index, last));
        }
        for (turned, sweep) in [(0, 0.0), (1, step_turn), (-1, -step_turn)] {
            // Each step is planned from the pose the last one ended in, so
            // that the heading runs on without a jump of rounding, however
            // far out.
            let step = if sweep == 0.0 {
                let ahead = pose.position + straight * Vec2::from_angle(pose.heading);
                match plan_to_point(pose, ahead, radius) {
                    Ok(line) if line.length() <= 1.01 * straight => line,
                    _ => continue,
                }
            } else {
                // Round the turning circle on the side it turns to.
                let to_centre = FRAC_PI_2 * sweep.signum();
                let centre = pose.position + radius * Vec2::from_angle(pose.heading + to_centre);
                let end = centre + radius * Vec2::from_angle(pose.heading + sweep - to_centre);
                let heading = (pose.heading + sweep).rem_euclid(TAU);
                match plan_to_pose(pose, Pose::new(end, heading), radius) {
                    // Anything but the one arc is a loop round to it.
                    Ok(arc) if arc.length() <= 1.01 * radius * step_turn => arc,
                    _ => continue,
                }
            };
            let next = step.end();
            let left = next.position.distance(goal);
            if left > window || !room(next.position) || !clear_of(&step, &standing) {
                continue;
            }
            if closed.contains(&key(&next, turn + turned)) {
                continue;
            }
            let driven = driven + step.length();
            let estimate = driven + params.greed * left;
            nodes.push(Node {
                pose: next,
                turn: turn + turned,
                driven,
                from: Some((index, step)),
            });
            // Lengths are positive, so their bits order as they do.
            open.push(Reverse((estimate.to_bits(), nodes.len() - 1)));
        }
    }
    None
}

/// The steps from the start to `nodes[index]`, then `last`.
fn legs_to(nodes: &[Node], mut index: usize, last: TurningPath) -> Vec<TurningPath> {
    let mut legs = vec![last];
    while let Some((from, step)) = nodes[index].from {
        legs.push(step);
        index = from;
    }
    legs.reverse();
    legs
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pedestrian's turning radius, and what a path keeps from another
    /// pedestrian standing: two bodies of 0.3 m and a tenth more.
    const RADIUS: f32 = 0.8;
    const REACH: f32 = 0.66;

    /// The search for a pedestrian with the default parameters.
    fn search(
        start: Pose,
        goal: Vec2,
        standing: &[Standing],
        room: impl Fn(Vec2) -> bool,
    ) -> Option<Vec<TurningPath>> {
        path_among(start, goal, RADIUS, standing, &AmongParams::default(), room)
    }

    fn lattice(
        columns: impl Iterator<Item = f32> + Clone,
        rows: impl Iterator<Item = f32>,
    ) -> Vec<Standing> {
        rows.flat_map(|y| {
            columns.clone().map(move |x| Standing {
                position: Vec2::new(x, y),
                reach: REACH,
            })
        })
        .collect()
    }

    /// Every leg joins the last with the same pose, the first starts at
    /// the start, the last ends at the goal, and none comes within reach
    /// of anyone standing.
    fn assert_a_way(legs: &[TurningPath], start: Pose, goal: Vec2, standing: &[Standing]) {
        // What a position rounds by this far out.
        let near = 1e-3 + 4.0 * f32::EPSILON * start.position.abs().max_element();
        assert!(legs[0].start().position.distance(start.position) < near);
        // Each leg starts from the pose the last one ended in: the heading
        // runs on without a jump, however far out.
        for pair in legs.windows(2) {
            let (end, next) = (pair[0].end(), pair[1].start());
            assert_eq!(end.position, next.position);
            let turn = (end.heading - next.heading).rem_euclid(TAU);
            assert!(turn.min(TAU - turn) < 1e-5, "{end:?} {next:?}");
        }
        let last = legs.last().expect("a leg");
        assert!(last.end().position.distance(goal) < near);
        for leg in legs {
            assert!(clear_of(leg, standing), "{leg:?}");
            for segment in leg.segments() {
                if let Segment::Arc { radius, .. } = segment {
                    assert!((radius - RADIUS).abs() < 1e-4);
                }
            }
        }
    }

    /// Finds the way from beside a block of people standing in rows 1.5 m
    /// apart and columns 2 m apart, the block's corner at `origin`, into the
    /// one free place in its middle.
    fn into_the_block_at(origin: Vec2) {
        let goal = origin + Vec2::new(4.0, 4.5);
        let standing: Vec<Standing> = lattice(
            (0..5).map(|i| origin.x + 2.0 * i as f32),
            (0..7).map(|j| origin.y + 1.5 * j as f32),
        )
        .into_iter()
        .filter(|other| other.position.distance(goal) > 0.1)
        .collect();
        let start = Pose::new(origin + Vec2::new(-3.0, 12.0), 0.0);
        let plain = plan_to_point(start, goal, RADIUS).unwrap();
        assert!(!clear_of(&plain, &standing));
        let legs = search(start, goal, &standing, |_| true).expect("a way in");
        assert_a_way(&legs, start, goal, &standing);
    }

    /// The plain path to the free place cuts through the block; the search
    /// finds the way along a gap between columns and turns into the place.
    #[test]
    fn finds_the_way_into_a_free_place_inside_a_block() {
        into_the_block_at(Vec2::ZERO);
    }

    /// Far from the origin the same block is searched the same way.
    #[test]
    fn finds_the_way_in_far_from_the_origin() {
        into_the_block_at(Vec2::new(60_000.0, -40_000.0));
    }

    /// A place walled round by people standing shoulder to shoulder has no
    /// way in, and the search says so rather than run on.
    #[test]
    fn no_way_into_a_ring() {
        let goal = Vec2::new(10.0, 10.0);
        let standing: Vec<Standing> = (0..24)
            .map(|i| Standing {
                position: goal + 2.0 * Vec2::from_angle(i as f32 / 24.0 * TAU),
                reach: REACH,
            })
            .collect();
        let start = Pose::new(Vec2::new(0.0, 0.0), 0.0);
        assert_eq!(search(start, goal, &standing, |_| true), None);
    }

    /// Walls the search may not leave (`room`) are kept to: a way round a
    /// row of people that is only open past their far end, beyond which
    /// the ground ends.
    #[test]
    fn keeps_to_the_room_it_is_given() {
        let goal = Vec2::new(0.0, 3.0);
        let standing = lattice((-10..=3).map(|i| 0.9 * i as f32), std::iter::once(1.5));
        let start = Pose::new(Vec2::ZERO, 0.0);
        let room = |p: Vec2| p.y > -2.0;
        let legs = search(start, goal, &standing, room).expect("round the row's end");
        assert_a_way(&legs, start, goal, &standing);
        for leg in &legs {
            assert!(leg.end().position.y > -2.0);
        }
    }

    /// Queries that are not finite, and radii not above zero, find nothing.
    #[test]
    fn degenerate_queries_find_nothing() {
        let start = Pose::new(Vec2::ZERO, 0.0);
        let params = AmongParams::default();
        assert_eq!(
            path_among(start, Vec2::NAN, RADIUS, &[], &params, |_| true),
            None
        );
        assert_eq!(
            path_among(start, Vec2::ONE, 0.0, &[], &params, |_| true),
            None
        );
        assert_eq!(
            path_among(start, Vec2::ONE, f32::INFINITY, &[], &params, |_| true),
            None
        );
        let nowhere = Pose::new(Vec2::new(f32::NAN, 0.0), 0.0);
        assert_eq!(
            path_among(nowhere, Vec2::ONE, RADIUS, &[], &params, |_| true),
            None
        );
    }

    /// The distance from a point to an arc: to the arc itself where the
    /// point's angle lies within its sweep, else to its nearer end.
    #[test]
    fn distance_to_an_arc() {
        // A quarter turn left round the origin, from (1, 0) to (0, 1).
        let arc = Segment::Arc {
            center: Vec2::ZERO,
            radius: 1.0,
            start_angle: 0.0,
            sweep: FRAC_PI_2,
            gear: kerb_turning::Gear::Forward,
        };
        assert!((distance_to(&arc, Vec2::new(2.0, 2.0)) - (8f32.sqrt() - 1.0)).abs() < 1e-5);
        assert!((distance_to(&arc, Vec2::new(0.0, -1.0)) - 2f32.sqrt()).abs() < 1e-5);
        // The same quarter, clockwise from (0, 1) to (1, 0).
        let clockwise = Segment::Arc {
            center: Vec2::ZERO,
            radius: 1.0,
            start_angle: FRAC_PI_2,
            sweep: -FRAC_PI_2,
            gear: kerb_turning::Gear::Forward,
        };
        assert!((distance_to(&clockwise, Vec2::new(2.0, 2.0)) - (8f32.sqrt() - 1.0)).abs() < 1e-5);
        assert!((distance_to(&clockwise, Vec2::new(-1.0, 0.0)) - 2f32.sqrt()).abs() < 1e-5);
    }
}
