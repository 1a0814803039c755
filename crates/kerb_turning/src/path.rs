//! A drivable path: a start pose and up to four segments.

use std::f64::consts::FRAC_PI_2;

use glam::{DVec2, Vec2};

use crate::angle::Turn;

use crate::{Gear, Pose, ReversingWord, Segment, TurnDirection};

/// Most segments a planned path holds: the five of the longest Reeds–Shepp
/// words (turn, quarter turn, straight, quarter turn, turn).
pub const MAX_SEGMENTS: usize = 5;

/// Which family of path the planner chose.
///
/// `L` is a left turn at full lock, `R` a right turn, `S` a straight line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum PathWord {
    /// Already there: no movement.
    #[default]
    Empty,
    /// Drive straight, no turn ([`TurningPath::straight`]).
    S,
    /// Turn left, then drive straight (to a point).
    Ls,
    /// Turn right, then drive straight (to a point).
    Rs,
    /// Turn left, then right (to a point).
    Lr,
    /// Turn right, then left (to a point).
    Rl,
    /// Left, straight, left (to a pose).
    Lsl,
    /// Right, straight, right (to a pose).
    Rsr,
    /// Left, straight, right (to a pose).
    Lsr,
    /// Right, straight, left (to a pose).
    Rsl,
    /// Right, left, right (to a pose).
    Rlr,
    /// Left, right, left (to a pose).
    Lrl,
    /// A Reeds–Shepp word, which may reverse (to a pose, see
    /// [`plan_to_pose_reversing`](crate::plan_to_pose_reversing)).
    Reversing(ReversingWord),
}

/// A path a unit with a turning radius can drive: arcs at exactly that radius
/// and straight lines, joined with a continuous heading.
///
/// Its headings continue from the start heading as given, where that is
/// within a turn either way (`|heading| <= 2π`): a unit whose game keeps
/// headings in `(-π, π]` sees no jump of a turn as it sets off. A heading
/// further out is wrapped into `[0, 2π)` first, where its own rounding
/// would otherwise carry into every angle of the path.
///
/// It has a fixed capacity and never allocates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TurningPath {
    start: Pose,
    word: PathWord,
    segment_count: u8,
    length: f32,
    segments: [Segment; MAX_SEGMENTS],
}

const NO_SEGMENT: Segment = Segment::Line {
    start: Vec2::ZERO,
    end: Vec2::ZERO,
    length: 0.0,
    heading: 0.0,
    gear: Gear::Forward,
};

impl Default for TurningPath {
    fn default() -> Self {
        Self::stationary(Pose::default())
    }
}

impl TurningPath {
    /// A path of length zero that stays at `pose`.
    pub const fn stationary(pose: Pose) -> Self {
        Self {
            start: pose,
            word: PathWord::Empty,
            segment_count: 0,
            length: 0.0,
            segments: [NO_SEGMENT; MAX_SEGMENTS],
        }
    }

    /// The straight line from `from` to `to`, facing along it. From a
    /// point to itself it is [`TurningPath::stationary`] facing +x.
    pub fn straight(from: Vec2, to: Vec2) -> Self {
        let offset = (to.as_dvec2() - from.as_dvec2()).as_vec2();
        let length = offset.length();
        let Some(direction) = offset.try_normalize() else {
            return Self::stationary(Pose::new(from, 0.0));
        };
        let mut path = Self::stationary(Pose::new(from, direction.to_angle()));
        path.word = PathWord::S;
        path.segment_count = 1;
        path.length = length;
        path.segments[0] = Segment::line(from, direction, length);
        path
    }

    /// A path of the first `count` of `segments`, which the planner has
    /// already joined up.
    #[inline(always)]
    pub(crate) fn from_segments<const N: usize>(
        start: Pose,
        word: PathWord,
        segments: [Segment; N],
        count: usize,
        length: f32,
    ) -> Self {
        let mut all = [NO_SEGMENT; MAX_SEGMENTS];
        for (slot, segment) in all.iter_mut().zip(segments) {
            *slot = segment;
        }
        Self {
            start,
            word,
            segment_count: count.min(N) as u8,
            length,
            segments: all,
        }
    }

    /// A path of up to two segments, each kept only where its flag says it
    /// is not empty (a turn or straight of nothing adds no segment).
    #[inline(always)]
    pub(crate) fn from_two(
        start: Pose,
        word: PathWord,
        [(first, keep_first), (second, keep_second)]: [(Segment, bool); 2],
        length: f32,
    ) -> Self {
        match (keep_first, keep_second) {
            (true, true) => Self::from_segments(start, word, [first, second], 2, length),
            (true, false) => Self::from_segments(start, word, [first], 1, length),
            (false, true) => Self::from_segments(start, word, [second], 1, length),
            (false, false) => Self::from_segments(start, word, [], 0, length),
        }
    }

    /// Where and how the path starts.
    #[inline]
    pub fn start(&self) -> Pose {
        self.start
    }

    /// The family of path chosen.
    #[inline]
    pub fn word(&self) -> PathWord {
        self.word
    }

    /// The segments, in driving order.
    #[inline]
    pub fn segments(&self) -> &[Segment] {
        &self.segments[..self.segment_count as usize]
    }

    /// Total length in world units.
    #[inline]
    pub fn length(&self) -> f32 {
        self.length
    }

    /// The pose `distance` along the path, clamped to `[0, length]`. Its
    /// heading is the way the unit faces, in either gear.
    ///
    /// Each segment is sampled from its own ends, never by stepping, so the
    /// result is exact at joins and at the end.
    #[inline]
    pub fn sample(&self, distance: f32) -> Pose {
        self.sample_with_gear(distance).0
    }

    /// The pose `distance` along the path, as [`TurningPath::sample`], and
    /// the gear the unit is in there. At a cusp, the gear of the segment
    /// that ends there.
    #[inline]
    pub fn sample_with_gear(&self, distance: f32) -> (Pose, Gear) {
        let mut remaining = distance.max(0.0);
        let segments = self.segments();
        for (index, segment) in segments.iter().enumerate() {
            let length = segment.length();
            if remaining <= length || index + 1 == segments.len() {
                return (segment.sample(remaining), segment.gear());
            }
            remaining -= length;
        }
        (self.start, Gear::Forward)
    }

    /// The gear the path is driven in just after `distance`, and how far
    /// along the path that gear lasts: to the next cusp, where the unit
    /// stops to change gear, or to the end.
    pub fn gear_run(&self, distance: f32) -> (Gear, f32) {
        let segments = self.segments();
        let mut start = 0.0;
        let mut current: Option<Gear> = None;
        for (index, segment) in segments.iter().enumerate() {
            let end = start + segment.length();
            match current {
                None if distance < end || index + 1 == segments.len() => {
                    current = Some(segment.gear());
                }
                Some(gear) if segment.gear() != gear => return (gear, start),
                _ => {}
            }
            start = end;
        }
        (current.unwrap_or(Gear::Forward), self.length)
    }

    /// How many times the path changes gear (its cusps, where the unit stops
    /// and drives off the other way).
    pub fn cusps(&self) -> usize {
        let segments = self.segments();
        segments
            .windows(2)
            .filter(|pair| pair[0].gear() != pair[1].gear())
            .count()
    }

    /// How far the path is driven in reverse.
    pub fn reverse_length(&self) -> f32 {
        self.segments()
            .iter()
            .filter(|segment| segment.gear() == Gear::Reverse)
            .map(Segment::length)
            .sum()
    }

    /// Whether any segment is driven in reverse.
    pub fn reverses(&self) -> bool {
        self.segments()
            .iter()
            .any(|segment| segment.gear() == Gear::Reverse)
    }

    /// Whether `other` is the same route as this path, to within `f32`
    /// rounding: the same word from the same start, with pieces that end in
    /// the same places. A turn or straight of a rounding error (which one
    /// build keeps and another drops) does not count as a piece.
    ///
    /// [`plan_to_pose`](crate::plan_to_pose) and
    /// [`plan_to_point`](crate::plan_to_point) build the path they choose
    /// from their fast estimates, while the candidate lists build every path
    /// the general way, so the shortest candidate is the planned path up to
    /// the last bits, not bit for bit. Use this, not `==`, to find it.
    pub fn same_route(&self, other: &TurningPath) -> bool {
        // Turns within the planners' snapping of none may be dropped, which
        // moves a join by that much arc: the radius is part of the scale.
        let radius = |path: &TurningPath| {
            path.segments()
                .iter()
                .map(|segment| match *segment {
                    Segment::Arc { radius, .. } => radius,
                    Segment::Line { .. } => 0.0,
                })
                .fold(0.0, f32::max)
        };
        let scale = 1.0
            + self.length.max(other.length)
            + 2.0 * radius(self).max(radius(other))
            + self.start.position.abs().max_element();
        let tolerance = 1e-5 * scale;
        fn pieces(path: &TurningPath, tolerance: f32) -> impl Iterator<Item = &Segment> {
            let segments = path.segments().iter();
            segments.filter(move |segment| segment.length() > tolerance)
        }
        self.word == other.word
            && self.start == other.start
            && (self.length - other.length).abs() <= tolerance
            && pieces(self, tolerance).count() == pieces(other, tolerance).count()
            && pieces(self, tolerance)
                .zip(pieces(other, tolerance))
                .all(|(ours, theirs)| {
                    let (ours, theirs) = (ours.end_pose(), theirs.end_pose());
                    ours.position.distance(theirs.position) <= tolerance
                })
    }

    /// The pose at the end of the path.
    pub fn end(&self) -> Pose {
        self.segments().last().map_or(self.start, Segment::end_pose)
    }
}

/// Builds a path in `f64` from a start pose by appending turns and straights,
/// each starting exactly where the previous one ended.
///
/// The heading is carried as a unit vector and rotated, so a turn costs one
/// sine and cosine and a straight none.
pub(crate) struct PathBuilder {
    path: TurningPath,
    position: DVec2,
    heading: f64,
    forward: DVec2,
    radius: f64,
    length: f64,
    gear: Gear,
}

impl PathBuilder {
    /// Starts at `start`, whose heading is given again normalised, with its
    /// unit vector, since the planners already computed both.
    #[inline(always)]
    pub(crate) fn new(
        start: Pose,
        heading: f64,
        forward: DVec2,
        radius: f64,
        word: PathWord,
    ) -> Self {
        let mut path = TurningPath::stationary(start);
        path.word = word;
        Self {
            path,
            position: start.position.as_dvec2(),
            heading,
            forward,
            radius,
            length: 0.0,
            gear: Gear::Forward,
        }
    }

    /// Drives the segments that follow in `gear`.
    #[inline(always)]
    pub(crate) fn gear(&mut self, gear: Gear) -> &mut Self {
        self.gear = gear;
        self
    }

    #[inline(always)]
    fn push(&mut self, segment: Segment) {
        let index = self.path.segment_count as usize;
        // The planners push at most `MAX_SEGMENTS`; a fifth would be dropped.
        if let Some(slot) = self.path.segments.get_mut(index) {
            *slot = segment;
            self.path.segment_count += 1;
        }
    }

    /// Turns at full lock in `direction` through `turn`; a zero turn adds
    /// no segment. In reverse, steering left turns the heading clockwise.
    #[inline(always)]
    pub(crate) fn turn(&mut self, direction: TurnDirection, turn: Turn) -> &mut Self {
        if turn.angle <= 0.0 {
            return self;
        }
        let sign = f64::from(direction.sign());
        let r = self.radius;
        // The centre sits a radius to the side we steer towards, in either gear.
        let center = self.position + self.forward.perp() * (sign * r);
        let start_angle = self.heading - sign * FRAC_PI_2;
        let rotation = sign * f64::from(self.gear.sign());
        let sweep = turn.angle.copysign(rotation);
        self.push(Segment::Arc {
            center: center.as_vec2(),
            radius: r as f32,
            start_angle: start_angle as f32,
            sweep: sweep as f32,
            gear: self.gear,
        });
        self.forward = DVec2::new(turn.cos, rotation * turn.sin).rotate(self.forward);
        self.heading += sweep;
        self.position = center - self.forward.perp() * (sign * r);
        self.length += r * turn.angle;
        self
    }

    /// Drives `distance` straight on, ahead or back by the gear; a zero
    /// distance adds no segment.
    #[inline(always)]
    pub(crate) fn straight(&mut self, distance: f64) -> &mut Self {
        if distance <= 0.0 {
            return self;
        }
        let end = self.position + self.forward * (distance * f64::from(self.gear.sign()));
        self.push(Segment::Line {
            start: self.position.as_vec2(),
            end: end.as_vec2(),
            length: distance as f32,
            heading: self.heading as f32,
            gear: self.gear,
        });
        self.position = end;
        self.length += distance;
        self
    }

    #[inline(always)]
    pub(crate) fn finish(&mut self) -> TurningPath {
        self.path.length = self.length as f32;
        self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arc(sweep: f32) -> Segment {
        Segment::Arc {
            center: Vec2::new(0.0, 2.0),
            radius: 2.0,
            start_angle: -FRAC_PI_2 as f32,
            sweep,
            gear: Gear::Forward,
        }
    }

    /// A turn of a rounding error, kept by one build and dropped by
    /// another, leaves the same route; a different end does not.
    #[test]
    fn same_route_ignores_pieces_of_nothing() {
        let start = Pose::new(Vec2::ZERO, 0.0);
        let line = |length: f32| Segment::line(Vec2::new(0.0, 0.0), Vec2::X, length);
        let plain = TurningPath::from_segments(start, PathWord::Ls, [line(5.0)], 1, 5.0);
        let with_sliver =
            TurningPath::from_segments(start, PathWord::Ls, [arc(1e-9), line(5.0)], 2, 5.0);
        assert!(plain.same_route(&with_sliver) && with_sliver.same_route(&plain));
        let turned = TurningPath::from_segments(start, PathWord::Ls, [arc(0.1), line(5.0)], 2, 5.2);
        assert!(!plain.same_route(&turned));
        let longer = TurningPath::from_segments(start, PathWord::Ls, [line(5.1)], 1, 5.1);
        assert!(!plain.same_route(&longer));
        let other_word = TurningPath::from_segments(start, PathWord::Rs, [line(5.0)], 1, 5.0);
        assert!(!plain.same_route(&other_word));
    }
}
