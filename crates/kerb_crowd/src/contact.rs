//! Whether an arc brings two bodies into contact, piece by piece.

use glam::{BVec4A, Vec2, Vec4};

use crate::Agent;
use crate::lanes::Pairs;

/// Two bodies overlapping by more than this share of the sum of their
/// radii are in contact.
pub const CONTACT_OVERLAP: f32 = 0.05;

/// One straight piece of a unit's arc: from offset `from` at `start` to
/// offset `to` a `duration` later, relative to where the unit is now.
#[derive(Clone, Copy)]
pub(crate) struct Piece {
    pub from: Vec2,
    pub to: Vec2,
    pub start: f32,
    pub duration: f32,
}

/// Lane by lane, whether the unit, moving along `piece`, comes within
/// `reach` of a neighbour `between` away (from where the unit is now) and
/// moving at `velocity`. Bodies within reach already may move closer, to
/// turn away or slide past, by half the room left to `inner` (the bodies
/// themselves), and not closer at all once within that.
#[inline(always)]
pub(crate) fn lane_touches(
    between: Pairs,
    velocity: Pairs,
    piece: Piece,
    reach: Vec4,
    inner: Vec4,
) -> BVec4A {
    let ours = Pairs::splat((piece.to - piece.from) / piece.duration);
    let from = Pairs::splat(piece.from);
    let duration = Vec4::splat(piece.duration);
    // Where the other is at the piece's start, relative to the unit, if
    // it moves on, and if it stands.
    let moving = between
        .add(velocity.scale(Vec4::splat(piece.start)))
        .sub(from);
    let standing = between.sub(from);
    let distance_sq = moving.length_squared();
    let reach_sq = reach * reach;
    let far = distance_sq.cmpgt(reach_sq);
    // Each of two closing in takes at most half the room left to `inner`,
    // so that together they stop short of it.
    let now = distance_sq.sqrt();
    let floor = Vec4::select(now.cmpgt(inner), 0.5 * (now + inner), now);
    let floor_sq = floor * floor;
    let on_course = lane_first_within(
        moving,
        velocity.sub(ours),
        Vec4::select(far, reach_sq, floor_sq),
        duration,
    );
    // This close, the other may stop rather than move on (to make way
    // itself): neither must bring them closer.
    let moves = velocity.x.cmpne(Vec4::ZERO) | velocity.y.cmpne(Vec4::ZERO);
    let if_stopped = lane_first_within(standing, Pairs::new(-ours.x, -ours.y), floor_sq, duration);
    on_course | (!far & moves & if_stopped)
}

/// Lane by lane, whether [`first_within`] finds a time.
#[inline(always)]
fn lane_first_within(relative: Pairs, velocity: Pairs, reach_sq: Vec4, limit: Vec4) -> BVec4A {
    let c = relative.length_squared() - reach_sq;
    let b = relative.dot(velocity);
    let a = velocity.length_squared();
    let closing = b.cmplt(Vec4::ZERO);
    let discriminant = b * b - a * c;
    // The smaller root is c / (-b + √discriminant), at most `limit`
    // where c is at most `limit` times the positive denominator.
    let root = -b + discriminant.max(Vec4::ZERO).sqrt();
    let within = discriminant.cmpge(Vec4::ZERO) & c.cmple(limit * root);
    closing & (c.cmple(Vec4::ZERO) | within)
}

/// Whether two bodies overlap by more than [`CONTACT_OVERLAP`] of the sum
/// of their radii: the contact that avoidance exists to prevent.
#[inline]
pub fn in_contact(a: &Agent, b: &Agent) -> bool {
    let inside = (a.body_radius + b.body_radius) * (1.0 - CONTACT_OVERLAP);
    a.position.distance_squared(b.position) < inside * inside
}

/// Whether two bodies whose radii sum to `bodies`, moving straight and
/// steadily from `a_from` to `a_to` and from `b_from` to `b_to` over the
/// same time, come into contact on the way (closer than
/// [`CONTACT_OVERLAP`] allows). Bodies in contact already do not count:
/// avoidance lets the lighter of two leave as it can, even past the other.
/// Values that are not finite never count.
pub fn moves_into_contact(a_from: Vec2, a_to: Vec2, b_from: Vec2, b_to: Vec2, bodies: f32) -> bool {
    let start = b_from - a_from;
    let closing = (b_to - b_from) - (a_to - a_from);
    let inside = bodies * (1.0 - CONTACT_OVERLAP);
    start.length_squared() >= inside * inside
        && closing.is_finite()
        && first_within(start, closing, inside * inside, 1.0).is_some()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_into_contact_only_when_coming_inside_the_bodies() {
        // Pedestrians of 0.3 m: in contact under 0.57 m apart. Each move
        // is (from x, from y, to x, to y).
        let meets = |a: [f32; 4], b: [f32; 4]| {
            let at = |x: f32, y: f32| Vec2::new(x, y);
            moves_into_contact(
                at(a[0], a[1]),
                at(a[2], a[3]),
                at(b[0], b[1]),
                at(b[2], b[3]),
                0.6,
            )
        };
        // Head on, ending 0.5 m apart: contact; ending 0.6 m apart: clear.
        assert!(meets([0.0, 0.0, 0.25, 0.0], [1.0, 0.0, 0.75, 0.0]));
        assert!(!meets([0.0, 0.0, 0.2, 0.0], [1.0, 0.0, 0.8, 0.0]));
        // Passing through each other within the move, ending far apart.
        assert!(meets([0.0, 0.0, 2.0, 0.0], [1.0, 0.0, -1.0, 0.0]));
        // Passing side by side 0.6 m apart.
        assert!(!meets([0.0, 0.0, 2.0, 0.0], [1.0, 0.6, -1.0, 0.6]));
        // Just clear, then closing on one who stands: contact.
        assert!(meets([0.0, 0.0, 0.1, 0.0], [0.58, 0.0, 0.58, 0.0]));
        // In contact already: no new contact, however they move.
        assert!(!meets([0.0, 0.0, -0.1, 0.0], [0.4, 0.0, 0.4, 0.0]));
        assert!(!meets([0.0, 0.0, 0.1, 0.0], [0.4, 0.0, 0.4, 0.0]));
        // Values that are not finite never count.
        assert!(!meets([f32::NAN, 0.0, 0.0, 0.0], [0.4, 0.0, 0.4, 0.0]));
        assert!(!meets([0.0, 0.0, f32::INFINITY, 0.0], [0.4, 0.0, 0.4, 0.0]));
    }
}
