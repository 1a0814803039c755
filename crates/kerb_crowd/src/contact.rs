//! Whether an arc brings two bodies into contact within one tick.

use glam::Vec2;

use crate::Agent;
use crate::arc::arc_offset;

/// Whether `agent`, driving `speed` and `curvature` for `dt`, comes within
/// `reach` of `other` on its present course. Bodies within reach already
/// may only move apart.
#[inline]
pub(crate) fn touches(
    agent: &Agent,
    other: &Agent,
    speed: f32,
    curvature: f32,
    dt: f32,
    reach: f32,
) -> bool {
    let between = other.position - agent.position;
    let ours = arc_offset(speed, curvature, agent.heading, dt);
    // Over one tick, the arc is close enough to its chord.
    let velocity = other.velocity() - ours / dt.max(f32::MIN_POSITIVE);
    first_within(between, velocity, reach * reach, dt).is_some()
}

/// The first `t` in `[0, limit]` with `|relative + velocity t|² <= reach²`;
/// zero if within reach already and closing.
#[inline]
pub(crate) fn first_within(
    relative: Vec2,
    velocity: Vec2,
    reach_sq: f32,
    limit: f32,
) -> Option<f32> {
    let c = relative.length_squared() - reach_sq;
    let b = relative.dot(velocity);
    if c <= 0.0 {
        return (b < 0.0).then_some(0.0);
    }
    let a = velocity.length_squared();
    if b >= 0.0 || a == 0.0 {
        return None;
    }
    let discriminant = b * b - a * c;
    if discriminant < 0.0 {
        return None;
    }
    // The smaller root, written without cancellation.
    let t = c / (-b + discriminant.sqrt());
    (t <= limit).then_some(t)
}
