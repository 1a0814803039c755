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
    /// The line from `start` to `end`, `length` long, facing `heading`. Its
    /// direction is its chord's, which its samples follow, unless rounding
    /// is most of the chord: then the heading's.
    /// `travel` is the unit direction of travel, against the heading in
    /// reverse: used where the line is too short for its ends to tell.
    fn new(start: Vec2, end: Vec2, length: f32, travel: Vec2) -> Line {
        let (start, length) = (start.as_dvec2(), f64::from(length));
        let chord = end.as_dvec2() - start;
        let direction = if chord.length() > 0.5 * length && length > 0.0 {
            chord.normalize()
        } else {
            travel.as_dvec2()
        };
        Line {
            start,
            direction,
            length,
        }
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

/// An arc piece: its circle in `f64`, and a quick test of which points of
/// the circle its sweep holds.
struct Arc {
    center: DVec2,
    radius: f64,
    start_angle: f32,
    sweep: f32,
    /// The unit radial halfway through the sweep.
    middle: Vec2,
    /// Points whose radial's dot product with `middle` is below this are
    /// outside the sweep (with more slack than the exact test).
    least_dot: f32,
}

impl Arc {
    /// The arc about `center` from `start_angle` through `sweep`.
    fn new(center: Vec2, radius: f32, start_angle: f32, sweep: f32) -> Arc {
        let half = 0.5 * sweep.abs() + 1e-4;
        Arc {
            center: center.as_dvec2(),
            radius: f64::from(radius),
            start_angle,
            sweep,
            middle: Vec2::from_angle(start_angle + 0.5 * sweep),
            // Less a little that `f32` keeps: the cosine of a short arc's
            // half sweep rounds to 1, and would shut out its own points.
            least_dot: if half >= std::f32::consts::PI {
                -2.0
            } else {
                half.cos() - 1e-5
            },
        }
    }

    /// Emits the hit at `point`, which lies on the circle, if it is within
    /// the sweep.
    fn point_hit(&self, point: DVec2, emit: &mut impl FnMut(Hit)) {
        use std::f32::consts::TAU;
        // The point is found in `f64`; its angle about the centre needs
        // only `f32` (a ten-millionth of a radian is a micrometre on a 10 m
        // arc), and only for the points the quick test keeps.
        let radial = ((point - self.center) / self.radius).as_vec2();
        if radial.dot(self.middle) < self.least_dot {
            return;
        }
        let (sweep, radius) = (self.sweep, self.radius as f32);
        let turned = (sweep.signum() * (radial.to_angle() - self.start_angle)).rem_euclid(TAU);
        // A hit a hair before the start wraps to almost a full turn.
        let turned = if turned > TAU - 1e-5 { 0.0 } else { turned };
        if turned <= sweep.abs() + 1e-6 {
            let tangent = if sweep.is_sign_negative() {
                -radial.perp()
            } else {
                radial.perp()
            };
            emit(Hit {
                distance: turned * radius,
                point: point.as_vec2(),
                tangent,
            });
        }
    }
}

/// A piece of path ready to be met with walls: its `f64` line, or its arc
/// with a quick test of its sweep, worked out once, not once a wall.
pub(super) struct Piece(Shape);

enum Shape {
    Line(Line),
    Arc(Arc),
}

impl Piece {
    /// `segment`, made ready.
    pub(super) fn new(segment: &Segment) -> Self {
        Piece(match *segment {
            Segment::Line {
                start, end, length, ..
            } => Shape::Line(Line::new(start, end, length, segment.start_direction())),
            Segment::Arc {
                center,
                radius,
                start_angle,
                sweep,
                ..
            } => Shape::Arc(Arc::new(center, radius, start_angle, sweep)),
        })
    }

    /// Where the piece meets the straight segment `from to`.
    pub(super) fn segment_hits(&self, from: Vec2, to: Vec2, emit: &mut impl FnMut(Hit)) {
        let (from, edge) = (from.as_dvec2(), (to - from).as_dvec2());
        match &self.0 {
            Shape::Line(line) => {
                let denominator = line.direction.perp_dot(edge);
                // Within a millionth of a radian of parallel (as in
                // `move_along`): running along a wall is not leaving it,
                // and a line from a wall's corner to a point on that wall
                // is one.
                if denominator.abs() <= 1e-6 * edge.length() {
                    return;
                }
                let offset = from - line.start;
                let s = offset.perp_dot(edge) / denominator;
                let t = offset.perp_dot(line.direction) / denominator;
                if ON_WALL.contains(&t) {
                    line.hit(s, emit);
                }
            }
            Shape::Arc(arc) => {
                let length_sq = edge.length_squared();
                if length_sq == 0.0 {
                    return;
                }
                // From the foot of the perpendicular from the centre, so
                // that nothing as long as the wall is squared against the
                // radius.
                let foot_t = (arc.center - from).dot(edge) / length_sq;
                let foot = from + edge * foot_t;
                let miss_sq = foot.distance_squared(arc.center);
                if miss_sq > arc.radius * arc.radius {
                    return;
                }
                let half_chord = (arc.radius * arc.radius - miss_sq).sqrt() / length_sq.sqrt();
                for t in [foot_t - half_chord, foot_t + half_chord] {
                    if ON_WALL.contains(&t) {
                        arc.point_hit(from + edge * t, emit);
                    }
                }
            }
        }
    }

    /// Where the piece meets the circle of radius `r` about `q`.
    pub(super) fn circle_hits(&self, q: Vec2, r: f32, emit: &mut impl FnMut(Hit)) {
        let (q, r) = (q.as_dvec2(), f64::from(r));
        match &self.0 {
            Shape::Line(line) => {
                // From the point of closest approach, not from the start: a
                // far start would cancel the circle's radius away in
                // rounding.
                let closest = line.direction.dot(q - line.start);
                let miss = (line.start + line.direction * closest).distance_squared(q);
                if miss > r * r {
                    return;
                }
                let half_chord = (r * r - miss).sqrt();
                for s in [closest - half_chord, closest + half_chord] {
                    line.hit(s, emit);
                }
            }
            Shape::Arc(arc) => {
                let between = q - arc.center;
                let d = between.length();
                let radius = arc.radius;
                if d == 0.0 || d > radius + r || d < (radius - r).abs() {
                    return;
                }
                let along = (d * d + radius * radius - r * r) / (2.0 * d);
                let across = (radius * radius - along * along).max(0.0).sqrt();
                let axis = between / d;
                for side in [1.0, -1.0] {
                    let point = arc.center + axis * along + axis.perp() * (across * side);
                    arc.point_hit(point, emit);
                }
            }
        }
    }
}
