//! Engine-free walkable areas for kerb.
//!
//! A world file ([`WorldFile`], RON) holds named models; the walkable ones
//! become a [`NavMesh`] of convex polygons that share edges. Validation
//! ([`ValidWorld::from_ron`], [`WorldFile::validate`]) is the only way to make a
//! navmesh, so an invalid one cannot exist.
//!
//! The navmesh locates points ([`NavMesh::locate`], [`NavMesh::locate_from`],
//! [`NavMesh::nearest_point`]), moves units while keeping them on the walkable
//! area and sliding them along walls ([`NavMesh::move_along`]), and checks
//! whether a turning path stays walkable, exactly: where it first fails
//! ([`NavMesh::path_violation`]) or only whether it does
//! ([`NavMesh::is_walkable`], which stops at the first violation it finds).
//!
//! Across the town, [`NavMesh::plan_route`] finds a [`Route`]: an A*
//! corridor of polygons, pulled into the shortest polyline by the funnel
//! algorithm, then driven with turning paths of the unit's radius that each
//! pass the legality check.

#[cfg(feature = "generate")]
pub mod generate;
mod legality;
mod mesh;
mod route;
mod world;

pub use legality::WalkablePlan;
pub use mesh::{Aabb, EdgeLink, MoveResult, NavMesh, PolygonId, closest_point_on_segment};
pub use route::{Portal, Route, RouteError, RouteGoal, weighted_length};
pub use world::{Model, ModelKind, PolygonRef, ResolvedModel, ValidWorld, WorldError, WorldFile};
