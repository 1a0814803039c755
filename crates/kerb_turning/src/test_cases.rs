//! Query cases shared by the planners' unit tests: evenly spread, and half
//! of them degenerate on purpose.

use std::f32::consts::{FRAC_PI_2, TAU};

use glam::Vec2;

use crate::{Pose, Segment};

/// `count` queries (start, goal, radius). A Weyl sequence: dimension `i` of
/// case `k` is the fractional part of `k` times the square root of the
/// `i`-th prime, which fills the unit cube evenly without a random
/// generator. Every other case is degenerate on purpose: headings on right
/// angles, points on a coarse grid (collinear, coincident, on turning
/// circles), radii from tiny to huge.
pub(crate) fn queries(count: u32) -> impl Iterator<Item = (Pose, Pose, f32)> {
    const ROOTS: [f64; 7] = [
        std::f64::consts::SQRT_2,
        1.732_050_807_568_877_2,
        2.236_067_977_499_79,
        2.645_751_311_064_590_6,
        3.316_624_790_355_4,
        3.605_551_275_463_989,
        4.123_105_625_617_661,
    ];
    (0..count).map(|case| {
        let unit = |dimension: usize| (f64::from(case) * ROOTS[dimension]).fract() as f32;
        let coarse = case % 2 == 1;
        let coordinate = |dimension: usize| {
            let value = unit(dimension) * 8.0 - 4.0;
            if coarse { value.round() } else { value }
        };
        let heading = |dimension: usize| {
            let heading = unit(dimension) * TAU;
            if coarse {
                (heading / FRAC_PI_2).round() * FRAC_PI_2
            } else {
                heading
            }
        };
        let radius = if coarse {
            [0.5, 1.0, 2.0, 1e-4, 1e4][case as usize / 2 % 5]
        } else {
            0.01 + unit(6) * 10.0
        };
        (
            Pose::new(Vec2::new(coordinate(0), coordinate(1)), heading(4)),
            Pose::new(Vec2::new(coordinate(2), coordinate(3)), heading(5)),
            radius,
        )
    })
}

/// Two builds of one route agree segment by segment: as many segments,
/// each starting and ending within `tolerance` of the other's, with
/// headings within 2e-6 rad.
pub(crate) fn assert_same_segments(
    ours: &[Segment],
    theirs: &[Segment],
    tolerance: f32,
    case: &str,
) {
    assert_eq!(
        ours.len(),
        theirs.len(),
        "{case}: {ours:#?} against {theirs:#?}"
    );
    for (ours, theirs) in ours.iter().zip(theirs) {
        for (ours, theirs) in [
            (ours.start_pose(), theirs.start_pose()),
            (ours.end_pose(), theirs.end_pose()),
        ] {
            assert!(
                ours.position.distance(theirs.position) <= tolerance,
                "{case}: {ours:?} against {theirs:?}"
            );
            assert!(
                crate::wrap_signed(ours.heading - theirs.heading).abs() <= 2e-6,
                "{case}: {ours:?} against {theirs:?}"
            );
        }
    }
}
