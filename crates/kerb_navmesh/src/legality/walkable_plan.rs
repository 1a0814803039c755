//! The shortest walkable path: planning's candidates, shortest first,
//! held to the legality check.

use glam::Vec2;
use kerb_turning::{
    Candidates, PlanError, Pose, TurningPath, candidates_to_point, candidates_to_pose,
    candidates_to_pose_reversing, plan_to_point, plan_to_pose, plan_to_pose_reversing,
};

use crate::mesh::NavMesh;

/// The shortest walkable path for a query, or why there is none.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WalkablePlan {
    /// The shortest candidate that stays on the walkable area.
    Path(TurningPath),
    /// Every candidate leaves the walkable area (or the start is off it).
    Blocked,
}

impl WalkablePlan {
    /// The path, if there is one.
    pub fn path(self) -> Option<TurningPath> {
        match self {
            WalkablePlan::Path(path) => Some(path),
            WalkablePlan::Blocked => None,
        }
    }
}

impl NavMesh {
    /// The shortest of `candidates` that stays walkable with `clearance`.
    pub fn shortest_walkable<const N: usize>(
        &self,
        candidates: &Candidates<N>,
        clearance: f32,
    ) -> WalkablePlan {
        self.first_walkable(candidates.iter(), clearance)
    }

    /// The first of `paths` that stays walkable with `clearance`.
    pub(crate) fn first_walkable<'a>(
        &self,
        paths: impl IntoIterator<Item = &'a TurningPath>,
        clearance: f32,
    ) -> WalkablePlan {
        paths
            .into_iter()
            .find(|path| self.is_walkable(path, clearance))
            .map_or(WalkablePlan::Blocked, |path| WalkablePlan::Path(*path))
    }

    /// The shortest walkable turning path from `start` to the point `goal`.
    pub fn plan_walkable_to_point(
        &self,
        start: Pose,
        goal: Vec2,
        radius: f32,
        clearance: f32,
    ) -> Result<WalkablePlan, PlanError> {
        let shortest = plan_to_point(start, goal, radius)?;
        Ok(self.shortest_walkable_after(shortest, clearance, || {
            candidates_to_point(start, goal, radius)
        }))
    }

    /// The shortest walkable turning path from `start` arriving at `goal`'s
    /// position facing its heading.
    pub fn plan_walkable_to_pose(
        &self,
        start: Pose,
        goal: Pose,
        radius: f32,
        clearance: f32,
    ) -> Result<WalkablePlan, PlanError> {
        let shortest = plan_to_pose(start, goal, radius)?;
        Ok(self.shortest_walkable_after(shortest, clearance, || {
            candidates_to_pose(start, goal, radius)
        }))
    }

    /// The shortest walkable path from `start` arriving at `goal`'s
    /// position facing its heading, for a unit that may reverse: the
    /// Reeds–Shepp candidates, shortest first. Reverse segments are held to
    /// the same check; a unit backing up sweeps the same ground.
    pub fn plan_walkable_to_pose_reversing(
        &self,
        start: Pose,
        goal: Pose,
        radius: f32,
        clearance: f32,
    ) -> Result<WalkablePlan, PlanError> {
        let shortest = plan_to_pose_reversing(start, goal, radius)?;
        Ok(self.shortest_walkable_after(shortest, clearance, || {
            candidates_to_pose_reversing(start, goal, radius)
        }))
    }

    /// `shortest` if it is walkable, else the shortest walkable of the
    /// other candidates. The shortest path usually is walkable, and planning
    /// it alone costs a fraction of enumerating and building every
    /// candidate.
    fn shortest_walkable_after<const N: usize>(
        &self,
        shortest: TurningPath,
        clearance: f32,
        all_candidates: impl FnOnce() -> Result<Candidates<N>, PlanError>,
    ) -> WalkablePlan {
        if self.is_walkable(&shortest, clearance) {
            return WalkablePlan::Path(shortest);
        }
        // The inputs were already checked, so the candidates cannot fail.
        all_candidates().map_or(WalkablePlan::Blocked, |candidates| {
            let others = candidates.iter().filter(|path| !path.same_route(&shortest));
            self.first_walkable(others, clearance)
        })
    }
}
