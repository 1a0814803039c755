//! The world file: its RON format, why one is rejected, and validation
//! into a navmesh.

mod error;
mod format;
mod validate;

pub use error::{PolygonRef, WorldError};
pub use format::{Model, ModelKind, WorldFile};
pub use validate::{ResolvedModel, ValidWorld};
