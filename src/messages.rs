//! What kerb tells the game about units: each is written as a [`Message`]
//! for systems that read them all, and triggered as an [`EntityEvent`] for
//! observers of one unit.

use bevy::prelude::*;
use kerb_navmesh::RouteError;

/// A unit reached its [`crate::Destination`], which kerb then removed.
#[derive(Message, EntityEvent, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrived {
    /// The unit.
    pub entity: Entity,
}

/// No walkable turning path exists to the unit's goal. A wanderer picks
/// another target; a unit with a [`crate::Destination`] stops and loses it.
#[derive(Message, EntityEvent, Clone, Copy, Debug, PartialEq)]
pub struct Blocked {
    /// The unit.
    pub entity: Entity,
    /// Why.
    pub reason: BlockReason,
}

/// Why a unit is [`Blocked`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BlockReason {
    /// Every turning path to the goal leaves the walkable area or comes
    /// closer to a wall than the clearance.
    NoWalkablePath,
    /// No route across the navmesh: what stopped it, including a goal or
    /// radius the planner cannot take.
    Route(RouteError),
}

impl std::fmt::Display for BlockReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BlockReason::NoWalkablePath => f.write_str("no walkable turning path to the goal"),
            BlockReason::Route(error) => write!(f, "{error}"),
        }
    }
}

impl From<Option<RouteError>> for BlockReason {
    fn from(error: Option<RouteError>) -> Self {
        error.map_or(BlockReason::NoWalkablePath, BlockReason::Route)
    }
}
