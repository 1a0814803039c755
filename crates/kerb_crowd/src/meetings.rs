//! The neighbours a unit may meet this tick, side by side, so that their
//! half-planes and contact checks are worked out four at a time.

use glam::{BVec4A, Vec2, Vec4};

use crate::MAX_NEIGHBOURS;
use crate::contact::{Piece, lane_touches};
use crate::lanes::{LANES, Pairs};
use crate::orca::{HalfPlane, HalfPlanes, lane_half_planes};

const _: () = assert!(MAX_NEIGHBOURS.is_multiple_of(LANES));

/// Up to [`MAX_NEIGHBOURS`] neighbours as a structure of arrays: where
/// each is, relative to the unit, how it moves and how the two share the
/// avoiding. Unused lanes hold values that meet nothing.
#[derive(Clone, Copy)]
pub(crate) struct Meetings {
    between_x: [f32; MAX_NEIGHBOURS],
    between_y: [f32; MAX_NEIGHBOURS],
    velocity_x: [f32; MAX_NEIGHBOURS],
    velocity_y: [f32; MAX_NEIGHBOURS],
    bodies: [f32; MAX_NEIGHBOURS],
    reach: [f32; MAX_NEIGHBOURS],
    horizon: [f32; MAX_NEIGHBOURS],
    share: [f32; MAX_NEIGHBOURS],
    /// 1 where the contact checks pass this neighbour by: it is in
    /// contact already and the unit is the lighter of the two, free to
    /// leave as it can.
    passed: [f32; MAX_NEIGHBOURS],
    len: usize,
}

impl Default for Meetings {
    fn default() -> Self {
        let zero = [0.0; MAX_NEIGHBOURS];
        Self {
            between_x: zero,
            between_y: zero,
            velocity_x: zero,
            velocity_y: zero,
            bodies: zero,
            reach: zero,
            // Unused lanes must not divide by zero.
            horizon: [1.0; MAX_NEIGHBOURS],
            share: zero,
            passed: zero,
            len: 0,
        }
    }
}

/// One neighbour, as [`Meetings::push`] takes it.
#[derive(Clone, Copy)]
pub(crate) struct Meeting {
    /// Where it is, relative to the unit.
    pub between: Vec2,
    /// Its velocity.
    pub velocity: Vec2,
    /// The sum of the two bodies' radii.
    pub bodies: f32,
    /// How near the half-planes let the bodies come.
    pub reach: f32,
    /// How far ahead, in seconds, the half-plane looks.
    pub horizon: f32,
    /// The unit's share of the avoiding.
    pub share: f32,
    /// Whether the contact checks pass it by.
    pub passed: bool,
}

impl Meetings {
    /// How many neighbours there are.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Adds a neighbour; ignored once full.
    #[inline]
    pub fn push(&mut self, meeting: Meeting) {
        let index = self.len;
        if index < MAX_NEIGHBOURS {
            self.between_x[index] = meeting.between.x;
            self.between_y[index] = meeting.between.y;
            self.velocity_x[index] = meeting.velocity.x;
            self.velocity_y[index] = meeting.velocity.y;
            self.bodies[index] = meeting.bodies;
            self.reach[index] = meeting.reach;
            self.horizon[index] = meeting.horizon;
            self.share[index] = meeting.share;
            self.passed[index] = if meeting.passed { 1.0 } else { 0.0 };
            self.len += 1;
        }
    }

    /// The lanes of one field from `start`.
    #[inline(always)]
    fn load(values: &[f32; MAX_NEIGHBOURS], start: usize) -> Vec4 {
        Vec4::from_slice(&values[start..start + LANES])
    }

    /// Where the neighbours are, and how they move, from `start`.
    #[inline(always)]
    fn load_motion(&self, start: usize) -> (Pairs, Pairs) {
        (
            Pairs::new(
                Self::load(&self.between_x, start),
                Self::load(&self.between_y, start),
            ),
            Pairs::new(
                Self::load(&self.velocity_x, start),
                Self::load(&self.velocity_y, start),
            ),
        )
    }

    /// Pushes onto `planes` each neighbour's half-plane of velocities for
    /// a unit moving at `velocity`: those that keep it within reach no
    /// sooner than the horizon, or, for bodies within reach already,
    /// that push them apart within `dt`.
    pub fn half_planes(&self, velocity: Vec2, dt: f32, planes: &mut HalfPlanes) {
        let velocity = Pairs::splat(velocity);
        let inverse_dt = Vec4::splat(1.0 / dt);
        let mut built = [HalfPlane::default(); MAX_NEIGHBOURS];
        for start in (0..self.len).step_by(LANES) {
            let (between, other_velocity) = self.load_motion(start);
            let (point, direction) = lane_half_planes(
                velocity,
                between,
                other_velocity,
                Self::load(&self.reach, start),
                Self::load(&self.horizon, start),
                inverse_dt,
                Self::load(&self.share, start),
            );
            for (lane, plane) in built[start..start + LANES].iter_mut().enumerate() {
                *plane = HalfPlane {
                    point: point.lane(lane),
                    direction: direction.lane(lane),
                };
            }
        }
        for plane in &built[..self.len] {
            planes.push(*plane);
        }
    }

    /// Whether the unit, moving along `piece`, comes within `1 + margin /
    /// 2` times the sum of the radii of any neighbour it does not pass by,
    /// as [`lane_touches`] decides for each.
    pub fn any_touched(&self, piece: Piece, margin: f32) -> bool {
        let widen = Vec4::splat(1.0 + 0.5 * margin.max(0.0));
        let mut touched = BVec4A::FALSE;
        for start in (0..self.len).step_by(LANES) {
            let (between, velocity) = self.load_motion(start);
            let bodies = Self::load(&self.bodies, start);
            let used = Vec4::new(0.0, 1.0, 2.0, 3.0).cmplt(Vec4::splat((self.len - start) as f32));
            let checked = Self::load(&self.passed, start).cmplt(Vec4::splat(0.5)) & used;
            touched |= checked & lane_touches(between, velocity, piece, bodies * widen, bodies);
        }
        touched.any()
    }
}
