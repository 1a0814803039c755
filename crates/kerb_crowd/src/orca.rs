//! Optimal reciprocal collision avoidance (van den Berg, Guy, Lin and
//! Manocha, 2011, as in RVO2): each neighbour rules out a half-plane of
//! velocities, and a small linear program finds the allowed velocity
//! nearest the preferred one. Fixed-size, allocation-free.

use glam::{Vec2, Vec4};

use crate::MAX_NEIGHBOURS;
use crate::lanes::Pairs;

/// Velocities on the left of `direction` through `point` are allowed.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct HalfPlane {
    pub point: Vec2,
    pub direction: Vec2,
}

impl HalfPlane {
    /// How far `velocity` lies on the forbidden side (negative: allowed).
    #[inline]
    pub fn violation(&self, velocity: Vec2) -> f32 {
        self.direction.perp_dot(self.point - velocity)
    }
}

/// The half-planes, at most [`MAX_NEIGHBOURS`].
#[derive(Clone, Copy)]
pub(crate) struct HalfPlanes {
    planes: [HalfPlane; MAX_NEIGHBOURS],
    len: usize,
}

impl Default for HalfPlanes {
    fn default() -> Self {
        Self {
            planes: [HalfPlane::default(); MAX_NEIGHBOURS],
            len: 0,
        }
    }
}

impl HalfPlanes {
    /// Adds a half-plane; ignored once full.
    #[inline]
    pub fn push(&mut self, plane: HalfPlane) {
        if self.len < MAX_NEIGHBOURS {
            self.planes[self.len] = plane;
            self.len += 1;
        }
    }

    /// The half-planes so far.
    #[inline]
    pub fn as_slice(&self) -> &[HalfPlane] {
        &self.planes[..self.len]
    }

    /// The largest violation by `velocity` of any half-plane (zero or
    /// less: allowed by all).
    #[inline]
    pub fn worst_violation(&self, velocity: Vec2) -> f32 {
        self.as_slice()
            .iter()
            .fold(f32::NEG_INFINITY, |worst, plane| {
                worst.max(plane.violation(velocity))
            })
    }
}

/// The velocities, relative to the unit's `velocity`, that keep it within
/// reach `reach` of a neighbour `between` away and moving at
/// `other_velocity` no sooner than `horizon`; the unit takes `share` of the
/// change. Bodies already within reach are pushed apart within `dt`.
#[cfg(test)]
pub(crate) fn half_plane(
    velocity: Vec2,
    between: Vec2,
    other_velocity: Vec2,
    reach: f32,
    horizon: f32,
    dt: f32,
    share: f32,
) -> HalfPlane {
    let mut meetings = crate::meetings::Meetings::default();
    meetings.push(crate::meetings::Meeting {
        between,
        velocity: other_velocity,
        bodies: reach,
        reach,
        horizon,
        share,
        passed: false,
    });
    let mut planes = HalfPlanes::default();
    meetings.half_planes(velocity, dt, &mut planes);
    planes.planes[0]
}

/// Four neighbours' half-planes, as points and directions (see
/// [`crate::meetings::Meetings::half_planes`]), without a branch. Bodies
/// apart and nearest the cut-off circle, or within reach already, are
/// pushed along the same construction, about the circle of the horizon or
/// of the tick; those nearest one of the cone's legs, along that leg.
#[inline(always)]
pub(crate) fn lane_half_planes(
    velocity: Pairs,
    between: Pairs,
    other_velocity: Pairs,
    reach: Vec4,
    horizon: Vec4,
    inverse_dt: Vec4,
    share: Vec4,
) -> (Pairs, Pairs) {
    let relative_velocity = velocity.sub(other_velocity);
    let distance_sq = between.dot(between);
    let reach_sq = reach * reach;
    let apart = distance_sq.cmpgt(reach_sq);
    let scale = Vec4::select(apart, horizon.recip(), inverse_dt);
    // Relative velocity less the centre of the cut-off circle (of the
    // horizon, or of the tick within reach).
    let w = relative_velocity.sub(between.scale(scale));
    let w_length_sq = w.dot(w);
    let along = w.dot(between);
    let round = !apart | (along.cmplt(Vec4::ZERO) & (along * along).cmpgt(reach_sq * w_length_sq));
    // Nearest the circle.
    let w_length = w_length_sq.sqrt().max(Vec4::splat(f32::MIN_POSITIVE));
    let unit = w.scale(w_length.recip());
    let round_direction = Pairs::new(unit.y, -unit.x);
    let round_change = unit.scale(reach * scale - w_length);
    // Nearest one of the cone's legs, on the side of `w`.
    let leg = (distance_sq - reach_sq).max(Vec4::ZERO).sqrt();
    let side = Vec4::select(between.perp_dot(w).cmpgt(Vec4::ZERO), Vec4::ONE, -Vec4::ONE);
    let leg_direction = Pairs::new(
        between.x * leg - side * between.y * reach,
        side * between.x * reach + between.y * leg,
    )
    .scale(side / distance_sq.max(Vec4::splat(f32::MIN_POSITIVE)));
    let leg_change = leg_direction
        .scale(relative_velocity.dot(leg_direction))
        .sub(relative_velocity);
    let direction = Pairs::select(round, round_direction, leg_direction);
    let change = Pairs::select(round, round_change, leg_change);
    (
        Pairs::new(velocity.x + share * change.x, velocity.y + share * change.y),
        direction,
    )
}

/// Determinants this small count as parallel lines.
const PARALLEL: f32 = 1e-5;

/// The velocity of length at most `max_speed` that every half-plane
/// allows, nearest `preferred`; where none does, the one that violates the
/// worst of them least (RVO2's three linear programs).
pub(crate) fn solve(planes: &HalfPlanes, max_speed: f32, preferred: Vec2) -> Vec2 {
    let planes = planes.as_slice();
    let mut result = Vec2::ZERO;
    let failed = program_2(planes, max_speed, preferred, false, &mut result);
    if failed < planes.len() {
        program_3(planes, failed, max_speed, &mut result);
    }
    result
}

/// The best point on half-plane `index`'s line that the earlier ones and
/// the speed disc allow; `false` if there is none.
fn program_1(
    planes: &[HalfPlane],
    index: usize,
    radius: f32,
    optimum: Vec2,
    direction_only: bool,
    result: &mut Vec2,
) -> bool {
    let line = planes[index];
    let along = line.point.dot(line.direction);
    let discriminant = along * along + radius * radius - line.point.length_squared();
    // Also refuses NaN, which values out of range can bring.
    if discriminant.is_nan() || discriminant < 0.0 {
        return false;
    }
    let root = discriminant.sqrt();
    let mut left = -along - root;
    let mut right = -along + root;
    for earlier in &planes[..index] {
        let denominator = line.direction.perp_dot(earlier.direction);
        let numerator = earlier.direction.perp_dot(line.point - earlier.point);
        if denominator.abs() <= PARALLEL {
            if numerator < 0.0 {
                return false;
            }
            continue;
        }
        let t = numerator / denominator;
        if denominator >= 0.0 {
            right = right.min(t);
        } else {
            left = left.max(t);
        }
        if left > right {
            return false;
        }
    }
    let t = if direction_only {
        if optimum.dot(line.direction) > 0.0 {
            right
        } else {
            left
        }
    } else {
        line.direction.dot(optimum - line.point).clamp(left, right)
    };
    *result = line.point + t * line.direction;
    true
}

/// The point nearest `optimum` (or furthest along it, if `direction_only`)
/// within the disc and every half-plane; returns the index of the first
/// half-plane that could not be met, or `planes.len()`.
fn program_2(
    planes: &[HalfPlane],
    radius: f32,
    optimum: Vec2,
    direction_only: bool,
    result: &mut Vec2,
) -> usize {
    *result = if direction_only {
        optimum * radius
    } else if optimum.length_squared() > radius * radius {
        optimum.normalize_or_zero() * radius
    } else {
        optimum
    };
    for (index, plane) in planes.iter().enumerate() {
        if plane.violation(*result) > 0.0 {
            let before = *result;
            if !program_1(planes, index, radius, optimum, direction_only, result) {
                *result = before;
                return index;
            }
        }
    }
    planes.len()
}

/// From half-plane `first` on, where no velocity meets them all: the one
/// whose worst violation is least.
fn program_3(planes: &[HalfPlane], first: usize, radius: f32, result: &mut Vec2) {
    let mut distance = 0.0;
    for index in first..planes.len() {
        let plane = planes[index];
        if plane.violation(*result) <= distance {
            continue;
        }
        let mut projected = [HalfPlane::default(); MAX_NEIGHBOURS];
        let mut count = 0;
        for earlier in &planes[..index] {
            let determinant = plane.direction.perp_dot(earlier.direction);
            let point = if determinant.abs() <= PARALLEL {
                if plane.direction.dot(earlier.direction) > 0.0 {
                    continue;
                }
                0.5 * (plane.point + earlier.point)
            } else {
                plane.point
                    + (earlier.direction.perp_dot(plane.point - earlier.point) / determinant)
                        * plane.direction
            };
            projected[count] = HalfPlane {
                point,
                direction: (earlier.direction - plane.direction).normalize_or_zero(),
            };
            count += 1;
        }
        let before = *result;
        if program_2(
            &projected[..count],
            radius,
            plane.direction.perp(),
            true,
            result,
        ) < count
        {
            *result = before;
        }
        distance = plane.violation(*result);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn planes(list: &[HalfPlane]) -> HalfPlanes {
        let mut planes = HalfPlanes::default();
        for plane in list {
            planes.push(*plane);
        }
        planes
    }

    #[test]
    fn no_half_planes_give_the_preferred_velocity_within_the_disc() {
        let none = HalfPlanes::default();
        assert_eq!(solve(&none, 2.0, Vec2::new(1.0, 0.5)), Vec2::new(1.0, 0.5));
        let capped = solve(&none, 2.0, Vec2::new(4.0, 0.0));
        assert!((capped - Vec2::new(2.0, 0.0)).length() < 1e-6);
    }

    #[test]
    fn a_half_plane_moves_the_velocity_onto_its_line() {
        // Allowed: y >= 0.5 (left of +x through (0, 0.5)).
        let plane = HalfPlane {
            point: Vec2::new(0.0, 0.5),
            direction: Vec2::X,
        };
        let result = solve(&planes(&[plane]), 2.0, Vec2::new(1.0, 0.0));
        assert!((result - Vec2::new(1.0, 0.5)).length() < 1e-6);
    }

    #[test]
    fn infeasible_half_planes_share_the_violation() {
        // y >= 1 and y <= -1 cannot both hold: the middle is best.
        let up = HalfPlane {
            point: Vec2::new(0.0, 1.0),
            direction: Vec2::X,
        };
        let down = HalfPlane {
            point: Vec2::new(0.0, -1.0),
            direction: -Vec2::X,
        };
        let result = solve(&planes(&[up, down]), 2.0, Vec2::new(1.0, 0.0));
        assert!(result.y.abs() < 1e-5, "{result}");
    }

    #[test]
    fn head_on_neighbours_each_take_half_and_pass() {
        // Two equals 4 m apart closing at 2 m/s, a hair off the same line.
        let plane = half_plane(
            Vec2::new(1.0, 0.0),
            Vec2::new(4.0, 0.1),
            Vec2::new(-1.0, 0.0),
            0.6,
            5.0,
            0.1,
            0.5,
        );
        let velocity = solve(&planes(&[plane]), 1.5, Vec2::new(1.0, 0.0));
        assert!(plane.violation(velocity) <= 1e-5);
        // It swerves right, away from the neighbour's side.
        assert!(velocity.y < 0.0, "{velocity}");
    }
}
