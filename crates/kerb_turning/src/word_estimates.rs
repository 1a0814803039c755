//! Quick estimates of the Dubins words' lengths in `f32` lanes (the four
//! arc-line-arc words at once, then the two arc-arc-arc words at once), so
//! that the pose planner works out exactly (in `f64`, with its snapping)
//! only the word that wins and any within rounding of it.

use std::f32::consts::TAU;

use glam::{DVec2, Vec2, Vec4};

use crate::angle::fast_atan2_x4;

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
    /// Last turn, in `[0, 2π)`.
    last: Vec4,
    /// The straight's direction in the start-goal frame, not normalised.
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
    /// Last turn, in radians.
    pub(crate) last: f32,
    /// The straight's direction in the start-goal frame, not normalised.
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
            last: pick(self.last),
            direction: Vec2::new(pick(self.direction_x), pick(self.direction_y)),
        }
    }
}

/// LSL, RSR, LSR and RSL (in that order) for start and goal headings `a`
/// and `b` relative to the line between them and `d` radii apart. Lengths
/// are good to about `1e-5 * (1 + d)` radii and turns to about `5e-7`
/// radians, which is `f32`'s own rounding of an angle. `None` near a
/// configuration where the exact words snap, and for distances beyond
/// `f32`'s reach.
#[inline(always)]
pub(crate) fn csc_estimates(d: f64, a: DVec2, b: DVec2) -> Option<CscEstimates> {
    if d.is_nan() || d >= 1e6 {
        return None;
    }
    let d = d as f32;
    let (ax, ay, bx, by) = (a.x as f32, a.y as f32, b.x as f32, b.y as f32);
    // Same-direction words: the vector between the two circles' centres is
    // the straight. Opposite-direction words: it is the straight plus twice a
    // radius across it, hence the 4 taken off its square.
    let x = Vec4::new(d + ay - by, d - ay + by, d + ay + by, d - ay - by);
    let y = Vec4::new(bx - ax, ax - bx, -ax - bx, ax + bx);
    let straight_sq = x * x + y * y - Vec4::new(0.0, 0.0, 4.0, 4.0);
    if straight_sq
        .abs()
        .cmplt(Vec4::splat(NEAR_ZERO_STRAIGHT_SQ))
        .any()
    {
        return None;
    }
    let feasible = straight_sq.cmpgt(Vec4::ZERO);
    let straight = straight_sq.max(Vec4::ZERO).sqrt();
    // The straight's direction (unnormalised): the centre-to-centre vector
    // itself, or for the opposite-direction words that vector turned by the
    // angle of (straight, ±2).
    let along = Vec4::new(1.0, 1.0, straight.z, straight.w);
    let across = Vec4::new(0.0, 0.0, 2.0, -2.0);
    let fx = along * x - across * y;
    let fy = along * y + across * x;
    let first_sign = Vec4::new(1.0, -1.0, 1.0, -1.0);
    let last_sign = Vec4::new(1.0, -1.0, -1.0, 1.0);
    let first = positive_turn(fast_atan2_x4(
        first_sign * (ax * fy - ay * fx),
        ax * fx + ay * fy,
    ));
    let last = positive_turn(fast_atan2_x4(
        last_sign * (fx * by - fy * bx),
        fx * bx + fy * by,
    ));
    let near_zero = |turn: Vec4| {
        turn.cmplt(Vec4::splat(NEAR_ZERO_TURN)) | turn.cmpgt(Vec4::splat(TAU - NEAR_ZERO_TURN))
    };
    if ((near_zero(first) | near_zero(last)) & feasible).any() {
        return None;
    }
    Some(CscEstimates {
        lengths: Vec4::select(feasible, first + straight + last, Vec4::INFINITY),
        first,
        last,
        direction_x: fx,
        direction_y: fy,
    })
}

/// The lengths, in radii, of RLR and LRL (in that order, infinite when
/// infeasible), for `d` under 4 (beyond, neither exists), to within about
/// `1e-5`. `None` near a configuration where the exact words snap or change
/// feasibility (a middle turn near a full or half circle, an outer turn near
/// none).
#[inline(always)]
pub(crate) fn ccc_lengths(d: f64, a: DVec2, b: DVec2) -> Option<[f32; 2]> {
    let d = d as f32;
    let (ca, sa, cb, sb) = (a.x as f32, a.y as f32, b.x as f32, b.y as f32);
    let cos_ab = ca * cb + sa * sb;
    let common = 6.0 - d * d + 2.0 * cos_ab;
    let middle_cos = [
        (common + 2.0 * d * (sa - sb)) / 8.0,
        (common + 2.0 * d * (sb - sa)) / 8.0,
    ];
    if middle_cos
        .iter()
        .any(|c| (c.abs() - 1.0).abs() < NEAR_ZERO_TURN)
    {
        return None;
    }
    // The headings' angles and each word's angle from start to goal circle.
    let angles = fast_atan2_x4(
        Vec4::new(sa, sb, ca - cb, ca - cb),
        Vec4::new(ca, cb, d - sa + sb, d + sa - sb),
    );
    let (alpha, beta, phi_rlr, phi_lrl) = (angles.x, angles.y, angles.z, angles.w);
    // The middle turns, 2π - acos(cos p).
    let cosines = Vec4::new(middle_cos[0], middle_cos[1], 1.0, 1.0).clamp(-Vec4::ONE, Vec4::ONE);
    let sines = (Vec4::ONE - cosines * cosines).max(Vec4::ZERO).sqrt();
    let middle = Vec4::splat(TAU) - fast_atan2_x4(sines, cosines);
    let mut lengths = [f32::INFINITY; 2];
    for (index, (t, p, q_without_t)) in [
        (
            alpha - phi_rlr + middle.x / 2.0,
            middle.x,
            alpha - beta + middle.x,
        ),
        (
            -alpha - phi_lrl + middle.y / 2.0,
            middle.y,
            beta - alpha + middle.y,
        ),
    ]
    .into_iter()
    .enumerate()
    {
        if middle_cos[index].abs() > 1.0 {
            continue;
        }
        let t = wrap_turn(t);
        let q = wrap_turn(q_without_t - t);
        let near_zero = |turn: f32| !(NEAR_ZERO_TURN..=TAU - NEAR_ZERO_TURN).contains(&turn);
        if near_zero(t) || near_zero(q) {
            return None;
        }
        lengths[index] = t + p + q;
    }
    Some(lengths)
}

/// An angle within two turns of `[0, 2π)`, wrapped into it.
#[inline(always)]
fn wrap_turn(mut angle: f32) -> f32 {
    for _ in 0..2 {
        angle += if angle < 0.0 { TAU } else { 0.0 };
        angle -= if angle >= TAU { TAU } else { 0.0 };
    }
    angle
}

/// An angle from `atan2`, in `[0, 2π)`.
#[inline(always)]
fn positive_turn(angle: Vec4) -> Vec4 {
    Vec4::select(angle.cmplt(Vec4::ZERO), angle + TAU, angle)
}
