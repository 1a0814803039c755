//! Whether a turning path stays on the walkable area: Pinter's hit check,
//! done exactly by intersecting arcs and lines with the walls.

use glam::Vec2;
use kerb_turning::{Segment, TurningPath};

use super::crossings::{Hit, Piece};
use crate::mesh::{Aabb, NavMesh, PolygonId, closest_point_on_segment};

/// Which violation a walkability check looks for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Violation {
    /// The earliest along the path, for callers that need where it is.
    Earliest,
    /// Any, for callers that only need whether there is one.
    Any,
}

impl NavMesh {
    /// How far along `path` it first leaves the walkable area, or first
    /// comes closer than `clearance` to a wall; `None` if it never does.
    ///
    /// Exact: arcs and lines are intersected with the walls (and, with a
    /// clearance, with the walls' offset lines and end circles). Only moving
    /// outwards counts, so a path that starts on a wall and heads inwards,
    /// grazes one, or ends on one, is walkable. A start off the walkable area is a
    /// violation at distance zero.
    pub fn path_violation(&self, path: &TurningPath, clearance: f32) -> Option<f32> {
        self.violation(path, clearance, Violation::Earliest)
    }

    /// Whether `path` stays on the walkable area and at least `clearance`
    /// from every wall: exactly when [`NavMesh::path_violation`] is `None`,
    /// but it stops at the first violation it finds instead of looking for
    /// the earliest, which makes rejecting a path cheaper.
    pub fn is_walkable(&self, path: &TurningPath, clearance: f32) -> bool {
        self.violation(path, clearance, Violation::Any).is_none()
    }

    fn violation(&self, path: &TurningPath, clearance: f32, wanted: Violation) -> Option<f32> {
        let start = path.start();
        if self.locate(start.position).is_none() {
            return Some(0.0);
        }
        if let Some(at) = first_gap(path) {
            return Some(at);
        }
        // From a start on a wall, or on one of the area's corners, the first
        // crossing sits at distance zero, where rounding can hide it.
        if self.leaves_from(path, 0.0, start.position, path.length()) {
            return Some(0.0);
        }
        self.clearance_violation(path, clearance.max(0.0), wanted)
    }

    /// Whether `path`, from `distance` along it (at `from`, where it may
    /// be on a wall), is outside the walkable area just after: a crossing
    /// at the very point, which rounding can hide from the walls'
    /// crossings, seen by looking just ahead (within the `ahead` that
    /// follows).
    fn leaves_from(&self, path: &TurningPath, distance: f32, from: Vec2, ahead: f32) -> bool {
        let first = PROBE_ROUNDINGS * rounding_at(from);
        // Away from the walls, a crossing is far enough along for the
        // walls' crossings to show it: only a point on one can hide it.
        if self.nearest_wall_point(from, first).is_none() {
            return false;
        }
        self.outside_just_after(|d| path.sample(d).position, distance, first, ahead)
    }

    /// Whether any of a few points just after `distance` along a piece of
    /// path, `first` past it and then ten and a hundred times as far (as
    /// long as they are within `ahead`), is outside the walkable area. A
    /// path that leaves at a shallow angle, or clips a corner for a few
    /// millimetres, is outside at one of them, whatever the scale.
    fn outside_just_after(
        &self,
        sample: impl Fn(f32) -> Vec2,
        distance: f32,
        first: f32,
        ahead: f32,
    ) -> bool {
        [first, 10.0 * first, 100.0 * first]
            .into_iter()
            .take_while(|&probe| probe < ahead)
            .any(|probe| self.is_outside(sample(distance + probe)))
    }

    /// [`NavMesh::path_violation`] for a path whose start is on the
    /// walkable area.
    fn clearance_violation(
        &self,
        path: &TurningPath,
        clearance: f32,
        wanted: Violation,
    ) -> Option<f32> {
        let start = path.start();
        // Meeting a wall where the path ends is arriving on the boundary,
        // not leaving it; rounding puts such a hit a hair either side.
        let end_tolerance = 2.0 * rounding_at(path.end().position);
        let last_distance = path.length() - end_tolerance;
        let mut travelled = 0.0;
        let mut first: Option<f32> = None;
        for (index, segment) in path.segments().iter().enumerate() {
            // A piece that starts where the one before it ended on a wall,
            // and leaves through that wall, crosses it at distance zero:
            // rounding can put its start a hair outside, where no crossing
            // is seen, and the piece before meets the wall only at its end.
            if index > 0
                && travelled < last_distance
                && self.leaves_from(
                    path,
                    travelled,
                    segment.start_pose().position,
                    segment.length(),
                )
            {
                return Some(travelled);
            }
            let mut starts_too_close = false;
            let piece = Piece::new(segment);
            self.for_each_wall_near(segment, clearance + 1e-3, |a, b, inward| {
                if wanted == Violation::Any && (first.is_some() || starts_too_close) {
                    return;
                }
                if index == 0 && clearance > 0.0 {
                    let tangent = segment.start_pose().forward();
                    let q = closest_point_on_segment(a, b, start.position);
                    let away = start.position - q;
                    let distance = away.length();
                    // On the wall itself the direction away from it is its
                    // inward normal; rounding leaves `away` pointing anywhere.
                    let rounding = PROBE_ROUNDINGS * rounding_at(start.position);
                    let away = if distance <= rounding { inward } else { away };
                    if distance < clearance && tangent.dot(away) < 0.0 {
                        starts_too_close = true;
                    }
                }
                // Crossing the wall itself is checked even with a clearance:
                // a unit starting inside a wall's clearance band may move
                // away from the wall, which the band's crossings cannot tell
                // from moving through it, and a clearance lost in rounding
                // makes a band of no width.
                let approach = (clearance > 0.0)
                    .then(|| first_approach(&piece, a, b, inward, clearance))
                    .flatten();
                // Any violation will do: the approach is cheaper to find
                // than a confirmed crossing.
                let settled = wanted == Violation::Any
                    && approach.is_some_and(|distance| travelled + distance < last_distance);
                let crossing = (!settled)
                    .then(|| first_crossing(&piece, a, b, inward))
                    .flatten()
                    .filter(|&(distance, across)| {
                        self.leaves_after(segment, &piece, distance, across)
                    })
                    .map(|(distance, _)| distance);
                let violation = match (crossing, approach) {
                    (Some(x), Some(y)) => Some(x.min(y)),
                    (x, y) => x.or(y),
                };
                if let Some(distance) = violation {
                    let total = travelled + distance;
                    if total < last_distance && first.is_none_or(|f| total < f) {
                        first = Some(total);
                    }
                }
            });
            if starts_too_close {
                return Some(0.0);
            }
            if first.is_some() {
                return first;
            }
            travelled += segment.length();
        }
        first
    }

    /// Calls `visit` with the ends and inward normal of every wall within
    /// `margin` of `segment` (and some further away). A line visits the
    /// band of grid cells along it, an arc its circle's box.
    pub(crate) fn for_each_wall_near(
        &self,
        segment: &Segment,
        margin: f32,
        mut visit: impl FnMut(Vec2, Vec2, Vec2),
    ) {
        let mut visit_cell = |column: i32, row: i32| {
            for &wall in self.wall_grid.cell(column, row) {
                let (polygon, corner) = self.walls[wall as usize];
                let (a, b) = self.edge(PolygonId(polygon), corner as usize);
                visit(a, b, self.edges[corner as usize].normal);
            }
        };
        match *segment {
            Segment::Line { start, end, .. } => self
                .wall_grid
                .for_each_cell_near_segment(start, end, margin, visit_cell),
            Segment::Arc { center, radius, .. } => {
                let bounds = Aabb {
                    min: center - radius,
                    max: center + radius,
                }
                .grown(margin);
                let (c0, r0, c1, r1) = self.wall_grid.cell_range(bounds);
                for row in r0..=r1 {
                    for column in c0..=c1 {
                        visit_cell(column, row);
                    }
                }
            }
        }
    }

    /// Whether `segment` is off the walkable area just after `distance`,
    /// where it crossed a wall outwards with `across` the sine of the angle
    /// between them. Through a wall's end (a corner of the walkable area)
    /// the crossing can be an artefact: the path leaves the wall's line but
    /// not the area, which the next wall's line shows. `piece` is
    /// `segment` made ready for meeting walls, by the caller that met this
    /// one.
    fn leaves_after(&self, segment: &Segment, piece: &Piece, distance: f32, across: f32) -> bool {
        // Scaled by where the crossing is, as `is_outside`'s rounding is: a
        // long line crosses far from its start, and a step scaled by the
        // start stayed inside that rounding, so a real exit there was
        // missed (a 281 m leg that left the walkable area by 1.3 m).
        let crossing = segment.sample(distance).position;
        let start = segment.start_pose().position;
        let rounding = rounding_at(start).max(rounding_at(crossing));
        // Far enough along to be clearly past the wall's line: at a
        // shallow crossing, a short step stays within `is_outside`'s
        // rounding of the wall, and a real exit was taken for an artefact.
        let past_rounding = 4.0 * rounding / across.max(1e-6);
        let first = (PROBE_ROUNDINGS * rounding).max(past_rounding);
        let sample = |d: f32| segment.sample(d).position;
        self.outside_just_after(sample, distance, first, f32::INFINITY)
            || self.outside_before_meeting_a_wall_again(segment, piece, distance)
    }

    /// Whether `segment` (made ready as `piece`) is outside halfway between
    /// `distance` and where it
    /// next meets a wall (or its end): a clip of a wall corner too short for
    /// the looks ahead to land in (10 mm long and 3 mm deep at 1e4 m) is
    /// outside there, while a pass through a corner meets the next wall at
    /// the same point and stays within rounding.
    fn outside_before_meeting_a_wall_again(
        &self,
        segment: &Segment,
        piece: &Piece,
        distance: f32,
    ) -> bool {
        let mut again = segment.length();
        self.for_each_wall_near(segment, 1e-3, |a, b, _| {
            piece.segment_hits(a, b, &mut |hit: Hit| {
                if hit.distance > distance && hit.distance < again {
                    again = hit.distance;
                }
            });
        });
        again > distance && self.is_outside(segment.sample(0.5 * (distance + again)).position)
    }

    /// Whether `p` is off the walkable area by more than rounding: a point
    /// computed on a wall can land a hair outside it.
    fn is_outside(&self, p: Vec2) -> bool {
        let rounding = rounding_at(p);
        self.locate(p).is_none() && self.distance_to_wall(p, rounding) >= rounding
    }
}

/// Where a piece of `path` does not start where the one before ended (or the
/// path starts), by more than rounding: a path `f32` cannot hold, such as
/// an arc of radius 1e30, whose centre is 1e23 m out. Its pieces are
/// nowhere near the walls they cross, so it counts as leaving there.
fn first_gap(path: &TurningPath) -> Option<f32> {
    let mut end = path.start().position;
    let mut travelled = 0.0;
    for segment in path.segments() {
        let head = segment.start_pose().position;
        let gap = head.distance(end);
        if gap.is_nan() || gap > 1e-4 * (1.0 + end.abs().max_element()) {
            return Some(travelled);
        }
        end = segment.end_pose().position;
        travelled += segment.length();
    }
    None
}

/// How far a point computed on a piece of path may be from where it should
/// be at `p`'s coordinates: the `f32` rounding there (about 0.01 m at
/// 1e5 m), which every tolerance of the check is a multiple of, so that it
/// is as strict far from the origin as the numbers allow, and no stricter.
fn rounding_at(p: Vec2) -> f32 {
    f32::EPSILON * (1.0 + p.abs().max_element())
}

/// How many roundings past a point the first look ahead goes: clear of the
/// rounding of the point itself and of the walls' lines.
const PROBE_ROUNDINGS: f32 = 8.0;

/// The first distance along `piece` where it crosses wall `a b` (inward
/// normal `inward`) outwards, with the sine of the angle between them.
fn first_crossing(piece: &Piece, a: Vec2, b: Vec2, inward: Vec2) -> Option<(f32, f32)> {
    let mut first: Option<(f32, f32)> = None;
    piece.segment_hits(a, b, &mut |hit: Hit| {
        let across = -hit.tangent.dot(inward);
        if across > 0.0 && first.is_none_or(|(f, _)| hit.distance < f) {
            first = Some((hit.distance, across));
        }
    });
    first
}

/// The first distance along `piece` where it enters the band of
/// `clearance` around wall `a b` (inward normal `inward`).
fn first_approach(piece: &Piece, a: Vec2, b: Vec2, inward: Vec2, clearance: f32) -> Option<f32> {
    let mut first: Option<f32> = None;
    let mut consider = |hit: Hit| {
        // Entering the band: moving against its outward normal.
        let outward = hit.point - closest_point_on_segment(a, b, hit.point);
        if hit.tangent.dot(outward) < 0.0 && first.is_none_or(|f| hit.distance < f) {
            first = Some(hit.distance);
        }
    };
    let offset = inward * clearance;
    for (from, to) in [(a + offset, b + offset), (a - offset, b - offset)] {
        piece.segment_hits(from, to, &mut consider);
    }
    piece.circle_hits(a, clearance, &mut consider);
    piece.circle_hits(b, clearance, &mut consider);
    first
}
