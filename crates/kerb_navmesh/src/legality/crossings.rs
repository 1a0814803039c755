//! Where the pieces of a path meet walls, the walls' clearance lines and
//! the circles round wall corners.
//!
//! Worked in `f64` from a point near the meeting, never from a far end: at
//! coordinates of 1e5 m a wall kilometres long, intersected in `f32` from
//! its end, cancels a turning circle's radius away, and a path that left a
//! corridor half a metre wide met no wall at all.

use glam::{DVec2, Vec2};
use kerb_turning::Segment;

/// A point where a piece of path meets a boundary, with the direction of
/// travel there.
#[derive(Clone, Copy)]
pub(super) struct Hit {
    /// Distance along the piece.
    pub(super) distance: f32,
    /// Where it meets the boundary.
    pub(super) point: Vec2,
    /// The unit direction of travel there.
    pub(super) tangent: Vec2,
}

/// The parameters along a wall that count as on it: a little past each end,
/// so that a path through a wall's corner meets both walls there despite
/// rounding. A meeting that is not a real crossing is then ruled out by
/// looking just past it (`NavMesh::leaves_after`).
const ON_WALL: std::ops::RangeInclusive<f64> = -1e-5..=1.0 + 1e-5;

/// A line piece in `f64`: its start, unit direction and length.
struct Line {
    start: DVec2,
    direction: DVec2,
    length: f64,
}

impl Line {
    /// The line piece `segment` is, if it is one. Its direction is its
    /// chord's, which its samples follow, unless rounding is most of the
    /// chord: then the heading's.
    fn of(segment: &Segment) -> Option<Line> {
        let Segment::Line {
            start, end, length, ..
        } = *segment
        else {
            return None;
        };
        let (start, length) = (start.as_dvec2(), f64::from(length));
        let chord = end.as_dvec2() - start;
        let direction = if chord.length() > 0.5 * length && length > 0.0 {
            chord.normalize()
        } else {
            segment.start_direction().as_dvec2()
        };
        Some(Line {
            start,
            direction,
            length,
        })
    }

    /// The hit `distance` along the line, if the line holds it.
    fn hit(&self, distance: f64, emit: &mut impl FnMut(Hit)) {
        if (0.0..=self.length).contains(&distance) {
            emit(Hit {
                distance: distance as f32,
                point: (self.start + self.direction * distance).as_vec2(),
                tangent: self.direction.as_vec2(),
            });
        }
    }
}

/// Where `segment` meets the straight segment `from to`.
pub(super) fn segment_hits(segment: &Segment, from: Vec2, to: Vec2, emit: &mut impl FnMut(Hit)) {
    let (from, edge) = (from.as_dvec2(), (to - from).as_dvec2());
    if let Some(line) = Line::of(segment) {
        let denominator = line.direction.perp_dot(edge);
        // Within a millionth of a radian of parallel (as in `move_along`):
        // running along a wall is not leaving it, and a line from a wall's
        // corner to a point on that wall is one.
        if denominator.abs() <= 1e-6 * edge.length() {
            return;
        }
        let offset = from - line.start;
        let s = offset.perp_dot(edge) / denominator;
        let t = offset.perp_dot(line.direction) / denominator;
        if ON_WALL.contains(&t) {
            line.hit(s, emit);
        }
    } else if let Segment::Arc { center, radius, .. } = *segment {
        let length_sq = edge.length_squared();
        if length_sq == 0.0 {
            return;
        }
        // From the foot of the perpendicular from the centre, so that
        // nothing as long as the wall is squared against the radius.
        let center = center.as_dvec2();
        let foot_t = (center - from).dot(edge) / length_sq;
        let foot = from + edge * foot_t;
        let miss_sq = foot.distance_squared(center);
        let radius = f64::from(radius);
        if miss_sq > radius * radius {
            return;
        }
        let half_chord = (radius * radius - miss_sq).sqrt() / length_sq.sqrt();
        for t in [foot_t - half_chord, foot_t + half_chord] {
            if ON_WALL.contains(&t) {
                arc_point_hit(segment, from + edge * t, emit);
            }
        }
    }
}

/// Where `segment` meets the circle of radius `r` about `q`.
pub(super) fn circle_hits(segment: &Segment, q: Vec2, r: f32, emit: &mut impl FnMut(Hit)) {
    let (q, r) = (q.as_dvec2(), f64::from(r));
    if let Some(line) = Line::of(segment) {
        // From the point of closest approach, not from the start: a far
        // start would cancel the circle's radius away in rounding.
        let closest = line.direction.dot(q - line.start);
        let miss = (line.start + line.direction * closest).distance_squared(q);
        if miss > r * r {
            return;
        }
        let half_chord = (r * r - miss).sqrt();
        for s in [closest - half_chord, closest + half_chord] {
            line.hit(s, emit);
        }
    } else if let Segment::Arc { center, radius, .. } = *segment {
        let (center, radius) = (center.as_dvec2(), f64::from(radius));
        let between = q - center;
        let d = between.length();
        if d == 0.0 || d > radius + r || d < (radius - r).abs() {
            return;
        }
        let along = (d * d + radius * radius - r * r) / (2.0 * d);
        let across = (radius * radius - along * along).max(0.0).sqrt();
        let axis = between / d;
        for side in [1.0, -1.0] {
            let point = center + axis * along + axis.perp() * (across * side);
            arc_point_hit(segment, point, emit);
        }
    }
}

/// Emits the hit at `point`, which lies on the arc's circle, if it is within
/// the arc's sweep.
fn arc_point_hit(segment: &Segment, point: DVec2, emit: &mut impl FnMut(Hit)) {
    use std::f64::consts::TAU;
    let Segment::Arc {
        center,
        radius,
        start_angle,
        sweep,
    } = *segment
    else {
        return;
    };
    let (center, radius) = (center.as_dvec2(), f64::from(radius));
    let (start_angle, sweep) = (f64::from(start_angle), f64::from(sweep));
    let radial = (point - center) / radius;
    let turned = (sweep.signum() * (radial.to_angle() - start_angle)).rem_euclid(TAU);
    // A hit a hair before the start wraps to almost a full turn.
    let turned = if turned > TAU - 1e-5 { 0.0 } else { turned };
    if turned <= sweep.abs() + 1e-6 {
        let tangent = if sweep.is_sign_negative() {
            -radial.perp()
        } else {
            radial.perp()
        };
        emit(Hit {
            distance: (turned * radius) as f32,
            point: point.as_vec2(),
            tangent: tangent.as_vec2(),
        });
    }
}
