//! What kerb tells the game about units.

use bevy::prelude::*;

/// A unit reached its [`crate::Destination`], which kerb then removed.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrived {
    /// The unit.
    pub entity: Entity,
}

/// No walkable turning path exists to the unit's goal. A wanderer picks
/// another target; a unit with a [`crate::Destination`] stops and loses it.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blocked {
    /// The unit.
    pub entity: Entity,
}
