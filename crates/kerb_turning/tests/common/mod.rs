//! Checks every planned path must pass, shared by the planners' tests.

#![allow(dead_code)]

use std::f32::consts::TAU;

use glam::Vec2;
use kerb_turning::{Pose, Segment, TurningPath, wrap_signed};
use proptest::prelude::*;

pub fn scale(path: &TurningPath, radius: f32) -> f32 {
    path.length().max(radius).max(1.0)
}

/// How far apart two positions on a path may be and still count as one:
/// relative to its size, and, far from the origin, a few ulps of the
/// coordinates where joins round.
fn tolerance(path: &TurningPath, radius: f32) -> f32 {
    1e-4 * scale(path, radius) + 4.0 * f32::EPSILON * path.start().position.abs().max_element()
}

/// Checks the invariants every planned path must satisfy, whatever the query.
pub fn assert_well_formed(path: &TurningPath, start: Pose, radius: f32) {
    let tolerance = tolerance(path, radius);
    assert_eq!(path.start(), start);
    let mut previous = Pose::new(start.position, start.heading);
    let mut total = 0.0;
    for segment in path.segments() {
        let head = segment.start_pose();
        assert!(
            head.position.distance(previous.position) <= tolerance,
            "position jumps at a join: {previous:?} -> {head:?} in {path:#?}"
        );
        assert!(
            wrap_signed(head.heading - previous.heading).abs() <= 1e-3,
            "heading jumps at a join: {previous:?} -> {head:?} in {path:#?}"
        );
        if let Segment::Arc {
            radius: r, sweep, ..
        } = *segment
        {
            assert_eq!(r, radius, "every arc has exactly the unit's radius");
            assert!(
                sweep.abs() < TAU - 1e-6,
                "no needless full circle: {path:#?}"
            );
        }
        if let Segment::Line { heading, .. } = *segment {
            let direction = segment.start_direction();
            let travel = Vec2::from_angle(heading) * segment.gear().sign();
            assert!(
                travel.distance(direction) <= 1e-5,
                "a line's heading points along its direction: {segment:?}"
            );
        }
        assert!(segment.length() >= 0.0);
        total += segment.length();
        previous = segment.end_pose();
    }
    assert!((total - path.length()).abs() <= tolerance);
}

/// Walks the path in small steps: it is continuous and never turns tighter
/// than the radius.
pub fn assert_drivable(path: &TurningPath, radius: f32) {
    let steps = 400;
    let step = path.length() / steps as f32;
    if step == 0.0 {
        return;
    }
    let mut previous = path.sample(0.0);
    for i in 1..=steps {
        let pose = path.sample(i as f32 * step);
        let tolerance = tolerance(path, radius);
        assert!(pose.position.distance(previous.position) <= step + tolerance);
        let turned = wrap_signed(pose.heading - previous.heading).abs();
        assert!(
            turned <= step / radius * 1.001 + 1e-3,
            "turned {turned} over {step} at radius {radius}"
        );
        previous = pose;
    }
}

pub fn pose(x: f32, y: f32, heading: f32) -> Pose {
    Pose::new(Vec2::new(x, y), heading)
}

/// Poses within 60 of the origin, facing any way within a few turns.
pub fn arb_pose() -> impl Strategy<Value = Pose> {
    (-60.0f32..60.0, -60.0f32..60.0, -20.0f32..20.0).prop_map(|(x, y, h)| pose(x, y, h))
}
