//! Whether an arc brings two bodies into contact within one tick.

use glam::Vec2;

use crate::Agent;

/// Whether `agent`, moving `moved` over the tick of `dt` (the chord of
/// its arc, which over one tick is close enough to the arc), comes within
/// `reach` of `other` on its present course. Bodies within reach already
/// may move closer, to turn away or slide past, but not within `inner`
/// (the bodies themselves), and not closer at all once within that.
#[inline]
pub(crate) fn touches(
    agent: &Agent,
    other: &Agent,
    moved: Vec2,
    dt: f32,
    reach: f32,
    inner: f32,
) -> bool {
    let between = other.position - agent.position;
    let velocity = other.velocity() - moved / dt;
    if between.length_squared() > reach * reach {
        return first_within(between, velocity, reach * reach, dt).is_some();
    }
    first_within(between, velocity, inner * inner, dt).is_some()
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
