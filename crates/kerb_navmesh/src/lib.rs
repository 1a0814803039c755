//! Engine-free walkable areas for kerb.
//!
//! A world file ([`WorldFile`], RON) holds named models; the walkable ones
//! become a [`NavMesh`] of convex polygons that share edges. Validation
//! ([`World::from_ron`], [`WorldFile::validate`]) is the only way to make a
//! navmesh, so an invalid one cannot exist.
//!
//! The navmesh locates points ([`NavMesh::locate`], [`NavMesh::locate_from`],
//! [`NavMesh::nearest_point`]), moves units while keeping them on the walkable
//! area and sliding them along walls ([`NavMesh::move_along`]), and checks
//! whether a turning path stays walkable, exactly ([`NavMesh::path_violation`]).

mod error;
mod format;
pub mod generate;
mod grid;
mod legality;
mod locate;
mod mesh;
mod movement;
mod validate;

pub use error::{PolygonRef, WorldError};
pub use format::{Model, ModelKind, WorldFile};
pub use grid::Aabb;
pub use legality::WalkablePlan;
pub use mesh::{EdgeLink, NavMesh, PolygonId, closest_point_on_segment};
pub use movement::MoveResult;
pub use validate::{SceneryModel, World};
