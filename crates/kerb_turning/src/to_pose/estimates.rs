//! Quick estimates of the Dubins words' lengths in `f32` lanes (the four
//! arc-line-arc words at once, then the two arc-arc-arc words at once), so
//! that the pose planner can build a clear winner straight from its
//! estimate and otherwise works out exactly (in `f64`, with its snapping)
//! only the words within rounding of the shortest.

use std::f32::consts::TAU;

use glam::{BVec4A, DVec2, Vec2, Vec4};

use crate::angle::{fast_atan2_x4, positive_turn};

/// Straights whose square is closer to zero than this, and turns closer to
/// none or to a full circle than [`NEAR_ZERO_TURN`], are where the exact words
/// snap (a vanishing straight, a turn of a few ulps): there only the exact
/// computation can tell, so no estimate is given.
const NEAR_ZERO_STRAIGHT_SQ: f32 = 1e-4;
const NEAR_ZERO_TURN: f32 = 1e-3;

/// The four arc-line-arc words (LSL, RSR, LSR, RSL, one per lane) estimated
/// in `f32`: everything needed to rank them and to build the winner.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CscEstimates {
    /// Lengths in radii, infinite when infeasible.
    pub(crate) lengths: Vec4,
    /// First turn, in `[0, 2π)`.
    first: Vec4,
    /// The straight's unit direction in the start-goal frame.
    direction_x: Vec4,
    direction_y: Vec4,
}

/// One arc-line-arc word taken from [`CscEstimates`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct CscLane {
    /// Which word: 0 to 3 for LSL, RSR, LSR, RSL.
    pub(crate) index: usize,
    /// First turn, in radians.
    pub(crate) first: f32,
    /// The straight's unit direction in the start-goal frame.
    pub(crate) direction: Vec2,
}

impl CscEstimates {
    /// The word in `lane` (0 to 3).
    #[inline(always)]
    pub(crate) fn lane(&self, lane: usize) -> CscLane {
        let pick = |lanes: Vec4| lanes.to_array()[lane & 3];
        CscLane {
            index: lane & 3,
            first: pick(self.first),
            direction: Vec2::new(pick(self.direction_x), pick(self.direction_y)),
        }
    }
}

/// The query as the estimates see it, in `f32`.
#[derive(Clone, Copy)]
pub(crate) struct Query {
    /// Start to goal, in radii.
    d: f32,
    /// Start heading's cosine and sine relative to the start-goal line.
    a: Vec2,
    /// Goal heading's, likewise.
    b: Vec2,
    /// The goal heading less the start heading, in `[0, 2π)`.
    turn: f32,
}

impl Query {
    /// `None` for distances beyond `f32`'s reach (or NaN), where only the
    /// exact words can tell.
    #[inline(always)]
    pub(crate) fn new(d: f64, a: DVec2, b: DVec2, turn: f64) -> Option<Self> {
        (d < 1e6).then(|| Self {
            d: d as f32,
            a: a.as_vec2(),
            b: b.as_vec2(),
            turn: turn as f32,
        })
    }
}

/// LSL, RSR, LSR and RSL (in that order). Lengths are good to about
/// `1e-5 * (1 + d)` radii and first turns to about `2e-7` radians, which is
/// `f32`'s own rounding of an angle. `None` near a configuration where the
/// exact words snap: among them, a straight's square within
/// `exact_snap_sq` of zero, the band in which the exact build counts an
/// opposite-direction word's straight as none (it grows with the
/// coordinates over the radius).
///
/// Only the first turns need an arctangent: a path's turns add up to the
/// total turn from start to goal heading, so each last turn follows from
/// its first.
#[inline(always)]
pub(crate) fn csc_estimates(query: Query, exact_snap_sq: f32) -> Option<CscEstimates> {
    let Query { d, a, b, turn } = query;
    let (ax, ay, bx, by) = (a.x, a.y, b.x, b.y);
    // Same-direction words: the vector between the two circles' centres is
    // the straight. Opposite-direction words: it is the straight plus twice a
    // radius across it, hence the 4 taken off its square.
    let x = Vec4::new(d + ay - by, d - ay + by, d + ay + by, d - ay - by);
    let y = Vec4::new(bx - ax, ax - bx, -ax - bx, ax + bx);
    let straight_sq = x * x + y * y - Vec4::new(0.0, 0.0, 4.0, 4.0);
    if straight_sq
        .abs()
        .cmplt(Vec4::splat(NEAR_ZERO_STRAIGHT_SQ.max(exact_snap_sq)))
        .any()
    {
        return None;
    }
    let feasible = straight_sq.cmpgt(Vec4::ZERO);
    let straight = straight_sq.max(Vec4::ZERO).sqrt();
    // The straight's direction (unnormalised): the centre-to-centre vector
    // itself, or for the opposite-direction words that vector turned by the
    // angle of (straight, ±2).
    let crossing = BVec4A::new(false, false, true, true);
    let along = Vec4::select(crossing, straight, Vec4::ONE);
    let across = Vec4::new(0.0, 0.0, 2.0, -2.0);
    let fx = along * x - across * y;
    let fy = along * y + across * x;
    let first_sign = Vec4::new(1.0, -1.0, 1.0, -1.0);
    let first = positive_turn(fast_atan2_x4(
        first_sign * (ax * fy - ay * fx),
        ax * fx + ay * fy,
    ));
    // The last turn is the total turn, taken in the last turn's direction,
    // less the first turn taken in the same direction (+1 where the two
    // turns agree, -1 where they oppose).
    let total_in_last_direction = Vec4::new(turn, TAU - turn, TAU - turn, turn);
    let agreement = Vec4::new(1.0, 1.0, -1.0, -1.0);
    let last = wrap_lanes(total_in_last_direction - agreement * first);
    if ((near_zero_turn(first) | near_zero_turn(last)) & feasible).any() {
        return None;
    }
    // A crossing straight is as long as `x, y` squared: turning it by the
    // angle of (straight, ±2) scaled it by `sqrt(straight² + 4)`. Normalised
    // here, in all four lanes at once, rather than after the winner is
    // known, where it would lengthen the path to the result.
    let inverse_length = Vec4::select(crossing, straight_sq + 4.0, straight).recip();
    Some(CscEstimates {
        lengths: Vec4::select(feasible, first + straight + last, Vec4::INFINITY),
        first,
        direction_x: fx * inverse_length,
        direction_y: fy * inverse_length,
    })
}

/// The lengths, in radii, of RLR and LRL (in that order, infinite when
/// infeasible), for `d` under 4 (beyond, neither exists), to within about
/// `1e-5`. `None` near a configuration where the exact words snap or change
/// feasibility (a middle turn near a full or half circle, an outer turn near
/// none).
///
/// One four-lane arctangent gives both words' first and middle turns; the
/// last turns follow from the total turn, as in [`csc_estimates`].
#[inline(always)]
pub(crate) fn ccc_lengths(query: Query) -> Option<[f32; 2]> {
    let Query { d, a, b, turn } = query;
    let (ca, sa, cb, sb) = (a.x, a.y, b.x, b.y);
    let cos_ab = ca * cb + sa * sb;
    let common = 6.0 - d * d + 2.0 * cos_ab;
    let middle_cos = Vec2::new(
        (common + 2.0 * d * (sa - sb)) / 8.0,
        (common + 2.0 * d * (sb - sa)) / 8.0,
    );
    if (middle_cos.abs() - Vec2::ONE)
        .abs()
        .cmplt(Vec2::splat(NEAR_ZERO_TURN))
        .any()
    {
        return None;
    }
    let feasible = middle_cos.abs().cmple(Vec2::ONE);
    let middle_cos = middle_cos.clamp(-Vec2::ONE, Vec2::ONE);
    let middle_sin = (Vec2::ONE - middle_cos * middle_cos).max(Vec2::ZERO).sqrt();
    // From the start-goal line to the line between the outer circles' centres,
    // less the start heading's angle: RLR's `alpha - phi`, and LRL's
    // `-alpha - phi`, each by one arctangent of the two directions.
    let rlr_line = Vec2::new(d - sa + sb, ca - cb);
    let lrl_line = Vec2::new(d + sa - sb, ca - cb);
    let angles = fast_atan2_x4(
        Vec4::new(
            rlr_line.perp_dot(a),
            -(sa * lrl_line.x + ca * lrl_line.y),
            middle_sin.x,
            middle_sin.y,
        ),
        Vec4::new(
            rlr_line.dot(a),
            ca * lrl_line.x - sa * lrl_line.y,
            middle_cos.x,
            middle_cos.y,
        ),
    );
    // The middle turns are 2π - acos(cos p), more than half a circle.
    let middle = Vec2::splat(TAU) - Vec2::new(angles.z, angles.w);
    let first = Vec2::new(angles.x, angles.y) + middle / 2.0;
    let first = Vec4::new(first.x, first.y, 0.0, 0.0);
    // RLR's last turn is the middle less the total (taken right) less the
    // first; LRL's the middle plus the total less the first.
    let last = Vec4::new(middle.x - turn, middle.y + turn, 0.0, 0.0) - first;
    let (first, last) = (wrap_lanes(wrap_lanes(first)), wrap_lanes(wrap_lanes(last)));
    let word_feasible = BVec4A::new(feasible.x, feasible.y, false, false);
    if ((near_zero_turn(first) | near_zero_turn(last)) & word_feasible).any() {
        return None;
    }
    let lengths = first + last;
    Some([
        if feasible.x {
            lengths.x + middle.x
        } else {
            f32::INFINITY
        },
        if feasible.y {
            lengths.y + middle.y
        } else {
            f32::INFINITY
        },
    ])
}

/// Lanes whose turn is within [`NEAR_ZERO_TURN`] of none or of a full
/// circle, where the exact words snap.
#[inline(always)]
fn near_zero_turn(turn: Vec4) -> BVec4A {
    turn.cmplt(Vec4::splat(NEAR_ZERO_TURN)) | turn.cmpgt(Vec4::splat(TAU - NEAR_ZERO_TURN))
}

/// Angles within a turn of `[0, 2π)` (in `(-2π, 4π)`), wrapped into it.
#[inline(always)]
fn wrap_lanes(angle: Vec4) -> Vec4 {
    let angle = positive_turn(angle);
    Vec4::select(angle.cmpge(Vec4::splat(TAU)), angle - TAU, angle)
}
