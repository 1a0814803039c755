//! Whether a turning path stays on the walkable area: Pinter's hit check,
//! done exactly by intersecting arcs and lines with the walls.

use glam::Vec2;
use kerb_turning::{Segment, TurningPath};

use crate::mesh::{Aabb, NavMesh, PolygonId, closest_point_on_segment};

/// A point where a piece of path meets a boundary, with the direction of
/// travel there.
#[derive(Clone, Copy)]
struct Hit {
    distance: f32,
    point: Vec2,
    tangent: Vec2,
}

impl Hit {
    /// The point `distance` along a line from `start` going `direction`.
    fn on_line(start: Vec2, direction: Vec2, distance: f32) -> Hit {
        Hit {
            distance,
            point: start + direction * distance,
            tangent: direction,
        }
    }
}

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
    /// crossings, seen by looking just ahead (if at least that much of the
    /// `ahead` that follows is left).
    fn leaves_from(&self, path: &TurningPath, distance: f32, from: Vec2, ahead: f32) -> bool {
        let step = 1e-4 * (1.0 + from.abs().max_element());
        ahead > step && self.is_outside(path.sample(distance + step).position)
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
        let end_tolerance = 1e-5 * (1.0 + path.end().position.abs().max_element());
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
                    let rounding = 1e-5 * (1.0 + start.position.abs().max_element());
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
                    .then(|| first_approach(segment, a, b, inward, clearance))
                    .flatten();
                // Any violation will do: the approach is cheaper to find
                // than a confirmed crossing.
                let settled = wanted == Violation::Any
                    && approach.is_some_and(|distance| travelled + distance < last_distance);
                let crossing = (!settled)
                    .then(|| first_crossing(segment, a, b, inward))
                    .flatten()
                    .filter(|&(distance, across)| self.leaves_after(segment, distance, across))
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
            Segment::Line {
                start,
                direction,
                length,
                ..
            } => self.wall_grid.for_each_cell_near_segment(
                start,
                start + direction * length,
                margin,
                visit_cell,
            ),
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
    /// not the area, which the next wall's line shows.
    fn leaves_after(&self, segment: &Segment, distance: f32, across: f32) -> bool {
        // Scaled by where the crossing is, as `is_outside`'s rounding is: a
        // long line crosses far from its start, and a step scaled by the
        // start stayed inside that rounding, so a real exit there was
        // missed (a 281 m leg that left the walkable area by 1.3 m).
        let crossing = segment.sample(distance).position;
        let scale = 1.0
            + segment
                .start_pose()
                .position
                .abs()
                .max_element()
                .max(crossing.abs().max_element());
        // Far enough along to be clearly past the wall's line: at a
        // shallow crossing, a short step stays within `is_outside`'s
        // rounding of the wall, and a real exit was taken for an artefact.
        let past_rounding = 4e-6 * scale / across.max(1e-6);
        let step = (1e-4 * scale).max(past_rounding);
        // And just past the rounding too: an arc that clips a wall corner
        // is outside for a few centimetres only, and one step alone can
        // land back inside (a 6 mm clip was missed with a step 7% longer).
        let near = (1e-5 * scale).max(past_rounding);
        self.is_outside(segment.sample(distance + near).position)
            || (step > near && self.is_outside(segment.sample(distance + step).position))
    }

    /// Whether `p` is off the walkable area by more than rounding: a point
    /// computed on a wall can land a hair outside it.
    fn is_outside(&self, p: Vec2) -> bool {
        let rounding = 1e-6 * (1.0 + p.abs().max_element());
        self.locate(p).is_none() && self.distance_to_wall(p, rounding) >= rounding
    }
}

/// The first distance along `segment` where it crosses wall `a b` (inward
/// normal `inward`) outwards, with the sine of the angle between them.
fn first_crossing(segment: &Segment, a: Vec2, b: Vec2, inward: Vec2) -> Option<(f32, f32)> {
    let mut first: Option<(f32, f32)> = None;
    segment_hits(segment, a, b, &mut |hit: Hit| {
        let across = -hit.tangent.dot(inward);
        if across > 0.0 && first.is_none_or(|(f, _)| hit.distance < f) {
            first = Some((hit.distance, across));
        }
    });
    first
}

/// The first distance along `segment` where it enters the band of
/// `clearance` around wall `a b` (inward normal `inward`).
fn first_approach(
    segment: &Segment,
    a: Vec2,
    b: Vec2,
    inward: Vec2,
    clearance: f32,
) -> Option<f32> {
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
        segment_hits(segment, from, to, &mut consider);
    }
    circle_hits(segment, a, clearance, &mut consider);
    circle_hits(segment, b, clearance, &mut consider);
    first
}

/// The parameters along a wall that count as on it: a little past each end,
/// so that a path through a wall's corner meets both walls there despite
/// rounding. A meeting that is not a real crossing is then ruled out by
/// looking just past it ([`NavMesh::leaves_after`]).
const ON_WALL: std::ops::RangeInclusive<f32> = -1e-5..=1.0 + 1e-5;

/// Where `segment` meets the straight segment `from to`.
fn segment_hits(segment: &Segment, from: Vec2, to: Vec2, emit: &mut impl FnMut(Hit)) {
    let edge = to - from;
    match *segment {
        Segment::Line {
            start,
            direction,
            length,
            ..
        } => {
            let denominator = direction.perp_dot(edge);
            // Within a millionth of a radian of parallel (as in
            // `move_along`): running along a wall is not leaving it, and a
            // line from a wall's corner to a point on that wall is one.
            if denominator.abs() <= 1e-6 * edge.length() {
                return;
            }
            let offset = from - start;
            let s = offset.perp_dot(edge) / denominator;
            let t = offset.perp_dot(direction) / denominator;
            if (0.0..=length).contains(&s) && ON_WALL.contains(&t) {
                emit(Hit::on_line(start, direction, s));
            }
        }
        Segment::Arc { center, radius, .. } => {
            // |from + t edge - center|² = r²
            let relative = from - center;
            let qa = edge.length_squared();
            if qa == 0.0 {
                return;
            }
            let qb = 2.0 * edge.dot(relative);
            let qc = relative.length_squared() - radius * radius;
            for t in quadratic_roots(qa, qb, qc) {
                if ON_WALL.contains(&t) {
                    arc_point_hit(segment, from + edge * t, emit);
                }
            }
        }
    }
}

/// Where `segment` meets the circle of radius `r` about `q`.
fn circle_hits(segment: &Segment, q: Vec2, r: f32, emit: &mut impl FnMut(Hit)) {
    match *segment {
        Segment::Line {
            start,
            direction,
            length,
            ..
        } => {
            // From the point of closest approach, not from the start: a
            // far start would cancel the circle's radius away in rounding.
            let closest = direction.dot(q - start);
            let miss = (start + direction * closest).distance_squared(q);
            if miss > r * r {
                return;
            }
            let half_chord = (r * r - miss).sqrt();
            for s in [closest - half_chord, closest + half_chord] {
                if (0.0..=length).contains(&s) {
                    emit(Hit::on_line(start, direction, s));
                }
            }
        }
        Segment::Arc { center, radius, .. } => {
            let between = q - center;
            let d = between.length();
            if d == 0.0 || d > radius + r || d < (radius - r).abs() {
                return;
            }
            let along = (d * d + radius * radius - r * r) / (2.0 * d);
            let across = (radius * radius - along * along).max(0.0).sqrt();
            let axis = between / d;
            for side in [1.0, -1.0] {
                arc_point_hit(
                    segment,
                    center + axis * along + axis.perp() * (across * side),
                    emit,
                );
            }
        }
    }
}

/// Emits the hit at `point`, which lies on the arc's circle, if it is within
/// the arc's sweep.
fn arc_point_hit(segment: &Segment, point: Vec2, emit: &mut impl FnMut(Hit)) {
    let Segment::Arc {
        center,
        radius,
        start_angle,
        sweep,
    } = *segment
    else {
        return;
    };
    let angle = (point - center).to_angle();
    let turned = (sweep.signum() * (angle - start_angle)).rem_euclid(std::f32::consts::TAU);
    // A hit a hair before the start wraps to almost a full turn.
    let turned = if turned > std::f32::consts::TAU - 1e-5 {
        0.0
    } else {
        turned
    };
    if turned <= sweep.abs() + 1e-6 {
        let radial = (point - center) / radius;
        let tangent = if sweep.is_sign_negative() {
            -radial.perp()
        } else {
            radial.perp()
        };
        emit(Hit {
            distance: turned * radius,
            point,
            tangent,
        });
    }
}

/// Real roots of `a t² + b t + c`, computed without cancellation.
fn quadratic_roots(a: f32, b: f32, c: f32) -> impl Iterator<Item = f32> {
    let discriminant = b * b - 4.0 * a * c;
    let roots = if discriminant < 0.0 || a == 0.0 {
        [f32::NAN, f32::NAN]
    } else {
        let q = -0.5 * (b + discriminant.sqrt().copysign(b));
        if q == 0.0 {
            [0.0, f32::NAN]
        } else {
            [q / a, c / q]
        }
    };
    roots.into_iter().filter(|t| t.is_finite())
}
