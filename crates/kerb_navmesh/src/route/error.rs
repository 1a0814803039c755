//! Why no route could be found.

use glam::Vec2;
use thiserror::Error;

/// Why [`crate::NavMesh::plan_route`] (or one of its stages) found no route.
#[derive(Clone, Copy, Debug, Error, PartialEq)]
pub enum RouteError {
    /// The start is not on the walkable area.
    #[error("the start ({}, {}) is not on the walkable area", start.x, start.y)]
    StartOffMesh {
        /// The start given.
        start: Vec2,
    },
    /// The goal is not on the walkable area.
    #[error("the goal ({}, {}) is not on the walkable area", goal.x, goal.y)]
    GoalOffMesh {
        /// The goal given.
        goal: Vec2,
    },
    /// The goal is on a piece of walkable area that no walk from the start
    /// reaches (an island).
    #[error("the goal is on island {goal_island}, unreachable from island {start_island}")]
    Unreachable {
        /// The island the start is on.
        start_island: u32,
        /// The island the goal is on.
        goal_island: u32,
    },
    /// Start and goal are connected, but only through gaps narrower than the
    /// unit's width.
    #[error("every way from ({}, {}) to ({}, {}) passes a gap narrower than the unit", start.x, start.y, goal.x, goal.y)]
    TooNarrow {
        /// The start given.
        start: Vec2,
        /// The goal given.
        goal: Vec2,
    },
    /// The corridor exists but no sequence of turns at this radius was found
    /// that stays on the walkable area around the corner at `at`.
    #[error("no drivable turn at this radius around ({}, {})", at.x, at.y)]
    Undrivable {
        /// The corner (a point of the string-pulled route) that could not
        /// be driven round.
        at: Vec2,
    },
    /// The start pose, goal or radius is not finite, or the radius is not
    /// positive.
    #[error("invalid route query: {0}")]
    Invalid(#[from] kerb_turning::PlanError),
}
