//! Which paths a leg may take: forwards only, or in either gear, with
//! reversing costing more so that units drive forwards where they can.

use glam::Vec2;
use kerb_turning::{
    Candidates, Pose, TurningPath, candidates_to_point, candidates_to_pose,
    candidates_to_pose_reversing,
};

/// Headings tried at a point goal for a unit that may reverse, as turns
/// from the straight line to it: Reeds–Shepp paths need a heading to end in.
const POINT_ARRIVALS: [f32; 3] = [
    0.0,
    std::f32::consts::FRAC_PI_4,
    -std::f32::consts::FRAC_PI_4,
];

/// The paths one leg may take, cheapest first.
// Forward-only routes, the common case, keep their candidates on the stack.
#[expect(clippy::large_enum_variant)]
pub(crate) enum Choices {
    /// Forward-only candidates, shortest first.
    Forward(Candidates),
    /// Candidates in either gear, by [`weighted_length`] (forward ones too).
    Reversing(Vec<TurningPath>),
}

impl Choices {
    /// The paths, cheapest first.
    pub(crate) fn as_slice(&self) -> &[TurningPath] {
        match self {
            Choices::Forward(candidates) => candidates.as_slice(),
            Choices::Reversing(paths) => paths,
        }
    }

    /// The cheapest path, if any.
    pub(crate) fn shortest(&self) -> Option<&TurningPath> {
        self.as_slice().first()
    }
}

/// A path's length with its reverse driving counted `reverse_cost` times.
/// A path that never reverses costs its length, whatever the cost (an
/// infinite cost times no reversing is no cost, not NaN).
pub fn weighted_length(path: &TurningPath, reverse_cost: f32) -> f32 {
    let reverse = path.reverse_length();
    if reverse > 0.0 {
        path.length() + (reverse_cost - 1.0) * reverse
    } else {
        path.length()
    }
}

/// The paths from `pose` to `point` at `radius`, arriving facing `heading`
/// if given: forwards only without a `reverse_cost`, else in either gear.
pub(crate) fn leg_choices(
    pose: Pose,
    point: Vec2,
    heading: Option<f32>,
    radius: f32,
    reverse_cost: Option<f32>,
) -> Option<Choices> {
    let Some(cost) = reverse_cost else {
        return match heading {
            Some(heading) => candidates_to_pose(pose, Pose::new(point, heading), radius),
            None => candidates_to_point(pose, point, radius),
        }
        .ok()
        .map(Choices::Forward);
    };
    let mut paths = Vec::new();
    let mut reversing = |goal_heading: f32| {
        let candidates = candidates_to_pose_reversing(pose, Pose::new(point, goal_heading), radius);
        paths.extend(candidates.ok().iter().flat_map(|c| c.iter().copied()));
    };
    match heading {
        Some(heading) => reversing(heading),
        None => {
            let straight = (point - pose.position)
                .try_normalize()
                .unwrap_or(pose.forward())
                .to_angle();
            for turn in POINT_ARRIVALS {
                reversing(straight + turn);
            }
            let forward = candidates_to_point(pose, point, radius).ok()?;
            paths.extend(forward.iter().copied());
        }
    }
    paths.sort_by(|a, b| weighted_length(a, cost).total_cmp(&weighted_length(b, cost)));
    Some(Choices::Reversing(paths))
}
