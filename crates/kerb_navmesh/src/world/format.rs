//! The world file as written by hand: what serde reads from RON.
//!
//! ```ron
//! World(
//!     name: "crossroads",
//!     models: [
//!         Model(
//!             name: "roads",
//!             kind: Walkable,
//!             vertices: [(0, 0), (10, 0), (10, 4), (0, 4)],
//!             polygons: [[0, 1, 2, 3]],
//!         ),
//!         Model(
//!             name: "bakery",
//!             kind: Building,
//!             vertices: [(0, 6), (6, 6), (6, 12), (0, 12)],
//!             polygons: [[0, 1, 2, 3]],
//!         ),
//!     ],
//! )
//! ```

use serde::{Deserialize, Serialize};

/// A world file: named models, at least one of which is walkable.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(rename = "World")]
pub struct WorldFile {
    /// A name for the world, shown in tools.
    #[serde(default)]
    pub name: String,
    /// The models, in drawing order.
    pub models: Vec<Model>,
}

/// One model: vertices and the convex polygons made from them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Model {
    /// A name, used in error messages.
    #[serde(default)]
    pub name: String,
    /// What the model is.
    pub kind: ModelKind,
    /// Vertices `(x, y)` in metres.
    pub vertices: Vec<(f32, f32)>,
    /// Convex polygons, each a list of indices into `vertices`, in either
    /// winding order.
    pub polygons: Vec<Vec<u32>>,
}

/// What a model is. Walkable models make up the navmesh; the others are
/// scenery that games draw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ModelKind {
    /// Ground units may stand on: roads, pavements, paths, plazas. All
    /// walkable models form one navmesh; vertices at identical coordinates
    /// are shared between them.
    #[default]
    Walkable,
    /// A building footprint.
    Building,
    /// Grass, trees, flower beds.
    Park,
    /// Ponds, fountains, rivers.
    Water,
}

impl WorldFile {
    /// Parses RON text. Syntax errors report the line and column.
    pub fn from_ron(text: &str) -> Result<Self, crate::WorldError> {
        ron::from_str(text).map_err(crate::WorldError::from_ron)
    }

    /// Writes the world as pretty RON.
    pub fn to_ron(&self) -> String {
        let config = ron::ser::PrettyConfig::new()
            .struct_names(true)
            .depth_limit(3)
            .separate_tuple_members(false)
            .compact_arrays(true);
        // Serialising plain data structures cannot fail.
        ron::ser::to_string_pretty(self, config).unwrap_or_default()
    }
}
