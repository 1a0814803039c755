//! Whether a turning path stays on the walkable area: Pinter's hit check,
//! done exactly by intersecting arcs and lines with the walls.

use glam::Vec2;
use kerb_turning::{
    Candidates, PlanError, Pose, Segment, TurningPath, candidates_to_point, candidates_to_pose,
};

use crate::grid::Aabb;
use crate::mesh::{NavMesh, PolygonId, closest_point_on_segment};

/// The shortest walkable path for a query, or why there is none.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WalkablePlan {
    /// The shortest candidate that stays on the walkable area.
    Path(TurningPath),
    /// Every candidate leaves the walkable area (or the start is off it).
    Blocked,
}

impl WalkablePlan {
    /// The path, if there is one.
    pub fn path(self) -> Option<TurningPath> {
        match self {
            WalkablePlan::Path(path) => Some(path),
            WalkablePlan::Blocked => None,
        }
    }
}

/// A point where a piece of path meets a boundary, with the direction of
/// travel there.
#[derive(Clone, Copy)]
struct Hit {
    distance: f32,
    point: Vec2,
    tangent: Vec2,
}

impl NavMesh {
    /// How far along `path` it first leaves the walkable area, or first
    /// comes closer than `clearance` to a wall; `None` if it never does.
    ///
    /// Exact: arcs and lines are intersected with the walls (and, with a
    /// clearance, with the walls' offset lines and end circles). Only moving
    /// outwards counts, so a path that starts on a wall and heads inwards,
    /// or grazes one, is walkable. A start off the walkable area is a
    /// violation at distance zero.
    pub fn path_violation(&self, path: &TurningPath, clearance: f32) -> Option<f32> {
        let start = path.start();
        if self.locate(start.position).is_none() {
            return Some(0.0);
        }
        let clearance = clearance.max(0.0);
        let mut travelled = 0.0;
        let mut first: Option<f32> = None;
        for (index, segment) in path.segments().iter().enumerate() {
            let bounds = segment_bounds(segment).grown(clearance + 1e-3);
            let (c0, r0, c1, r1) = self.wall_grid.cell_range(bounds);
            for row in r0..=r1 {
                for column in c0..=c1 {
                    for &wall in self.wall_grid.cell(column, row) {
                        let (polygon, corner) = self.walls[wall as usize];
                        let (a, b) = self.edge(PolygonId(polygon), corner as usize);
                        let inward = self.edges[corner as usize].normal;
                        if index == 0 && clearance > 0.0 {
                            let tangent = segment.start_pose().forward();
                            let q = closest_point_on_segment(a, b, start.position);
                            let away = start.position - q;
                            if away.length() < clearance && tangent.dot(away) < 0.0 {
                                return Some(0.0);
                            }
                        }
                        let violation = first_violation(segment, a, b, inward, clearance);
                        if let Some(distance) = violation {
                            let total = travelled + distance;
                            if first.is_none_or(|f| total < f) {
                                first = Some(total);
                            }
                        }
                    }
                }
            }
            if first.is_some() {
                return first;
            }
            travelled += segment.length();
        }
        first
    }

    /// The shortest of `candidates` that stays walkable with `clearance`.
    pub fn shortest_walkable(&self, candidates: &Candidates, clearance: f32) -> WalkablePlan {
        candidates
            .iter()
            .find(|path| self.path_violation(path, clearance).is_none())
            .map_or(WalkablePlan::Blocked, |path| WalkablePlan::Path(*path))
    }

    /// The shortest walkable turning path from `start` to the point `goal`.
    pub fn plan_walkable_to_point(
        &self,
        start: Pose,
        goal: Vec2,
        radius: f32,
        clearance: f32,
    ) -> Result<WalkablePlan, PlanError> {
        Ok(self.shortest_walkable(&candidates_to_point(start, goal, radius)?, clearance))
    }

    /// The shortest walkable turning path from `start` arriving at `goal`'s
    /// position facing its heading.
    pub fn plan_walkable_to_pose(
        &self,
        start: Pose,
        goal: Pose,
        radius: f32,
        clearance: f32,
    ) -> Result<WalkablePlan, PlanError> {
        Ok(self.shortest_walkable(&candidates_to_pose(start, goal, radius)?, clearance))
    }
}

fn segment_bounds(segment: &Segment) -> Aabb {
    match *segment {
        Segment::Arc { center, radius, .. } => Aabb {
            min: center - radius,
            max: center + radius,
        },
        Segment::Line {
            start,
            direction,
            length,
        } => Aabb::around([start, start + direction * length]),
    }
}

/// The first distance along `segment` where it leaves through wall `a b`
/// (inward normal `inward`) or enters its clearance capsule.
fn first_violation(
    segment: &Segment,
    a: Vec2,
    b: Vec2,
    inward: Vec2,
    clearance: f32,
) -> Option<f32> {
    let mut first: Option<f32> = None;
    let mut consider = |hit: Hit| {
        let violates = if clearance > 0.0 {
            // Entering the capsule: moving against its outward normal.
            let outward = hit.point - closest_point_on_segment(a, b, hit.point);
            hit.tangent.dot(outward) < 0.0
        } else {
            // Crossing the wall outwards.
            hit.tangent.dot(inward) < 0.0
        };
        if violates && first.is_none_or(|f| hit.distance < f) {
            first = Some(hit.distance);
        }
    };
    if clearance > 0.0 {
        let offset = inward * clearance;
        for (from, to) in [(a + offset, b + offset), (a - offset, b - offset)] {
            segment_hits(segment, from, to, &mut consider);
        }
        circle_hits(segment, a, clearance, &mut consider);
        circle_hits(segment, b, clearance, &mut consider);
    } else {
        segment_hits(segment, a, b, &mut consider);
    }
    first
}

/// Where `segment` meets the straight segment `from to`.
fn segment_hits(segment: &Segment, from: Vec2, to: Vec2, emit: &mut impl FnMut(Hit)) {
    let edge = to - from;
    match *segment {
        Segment::Line {
            start,
            direction,
            length,
        } => {
            let denominator = direction.perp_dot(edge);
            if denominator.abs() <= 1e-12 * edge.length() {
                return; // parallel: grazing along a wall is not leaving it
            }
            let offset = from - start;
            let s = offset.perp_dot(edge) / denominator;
            let t = offset.perp_dot(direction) / denominator;
            if (0.0..=length).contains(&s) && (0.0..=1.0).contains(&t) {
                emit(Hit {
                    distance: s,
                    point: start + direction * s,
                    tangent: direction,
                });
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
                if (0.0..=1.0).contains(&t) {
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
        } => {
            let relative = start - q;
            for s in quadratic_roots(
                1.0,
                2.0 * direction.dot(relative),
                relative.length_squared() - r * r,
            ) {
                if (0.0..=length).contains(&s) {
                    emit(Hit {
                        distance: s,
                        point: start + direction * s,
                        tangent: direction,
                    });
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
