//! Why a world file was rejected.

use thiserror::Error;

/// Where in a world file something is: the model (by index and name) and the
/// polygon's index within that model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolygonRef {
    /// Index of the model in the file.
    pub model: usize,
    /// The model's name.
    pub model_name: String,
    /// Index of the polygon within the model.
    pub polygon: usize,
}

impl std::fmt::Display for PolygonRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "polygon {} of model {} ({:?})",
            self.polygon, self.model, self.model_name
        )
    }
}

/// A world file that cannot be used. Every variant names what is wrong and
/// where, so the file can be fixed by hand.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum WorldError {
    /// The text is not valid RON for a world file.
    #[error("syntax error at line {line}, column {column}: {message}")]
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser expected.
        message: String,
    },
    /// No model is walkable, or the walkable models have no polygons.
    #[error("the world has no walkable polygons")]
    NoWalkableArea,
    /// A coordinate is NaN or infinite.
    #[error("vertex {vertex} of model {model} ({model_name:?}) is not finite: ({x}, {y})")]
    NonFiniteVertex {
        /// Index of the model.
        model: usize,
        /// The model's name.
        model_name: String,
        /// Index of the vertex in the model.
        vertex: usize,
        /// Its x.
        x: f32,
        /// Its y.
        y: f32,
    },
    /// A polygon refers to a vertex that does not exist.
    #[error("{at} uses vertex index {index}, but the model has {vertex_count} vertices")]
    IndexOutOfRange {
        /// The polygon.
        at: PolygonRef,
        /// The bad index.
        index: u32,
        /// How many vertices the model has.
        vertex_count: usize,
    },
    /// A polygon has fewer than three vertices.
    #[error("{at} has {count} vertices; a polygon needs at least 3")]
    TooFewVertices {
        /// The polygon.
        at: PolygonRef,
        /// How many it has.
        count: usize,
    },
    /// The same vertex (or two at identical coordinates) appears twice in a row.
    #[error("{at} repeats vertex {vertex} at positions {position} and {next}")]
    DuplicateVertex {
        /// The polygon.
        at: PolygonRef,
        /// The repeated vertex index (in the model).
        vertex: u32,
        /// Its position in the polygon's list.
        position: usize,
        /// The position of the repeat.
        next: usize,
    },
    /// The polygon has (almost) no area: its vertices are collinear.
    #[error("{at} is degenerate: its area is {area} square metres")]
    Degenerate {
        /// The polygon.
        at: PolygonRef,
        /// Its absolute area.
        area: f32,
    },
    /// The polygon is not convex (or not simple) at a vertex.
    #[error("{at} is not convex at vertex {vertex}")]
    NonConvex {
        /// The polygon.
        at: PolygonRef,
        /// The vertex index (in the model) where it turns the wrong way.
        vertex: u32,
    },
    /// More than two polygons share an edge, or two overlap along one.
    #[error(
        "edge between vertices {from} and {to} is shared by {first} and {second}, which both lie on the same side of it, or by more than two polygons"
    )]
    EdgeOverused {
        /// One polygon on the edge.
        first: PolygonRef,
        /// Another polygon on the same side of the edge.
        second: PolygonRef,
        /// Vertex index (in the first polygon's model).
        from: u32,
        /// Vertex index (in the first polygon's model).
        to: u32,
    },
    /// A vertex lies on another polygon's edge without being one of its
    /// vertices, so the two polygons would not be neighbours.
    #[error(
        "T-junction: vertex {vertex} of {at} lies on the edge from vertex {edge_from} to vertex {edge_to} of {other} without being one of its vertices"
    )]
    TJunction {
        /// The polygon owning the vertex.
        at: PolygonRef,
        /// The vertex index (in its model).
        vertex: u32,
        /// The polygon whose edge it lies on.
        other: PolygonRef,
        /// That edge's first vertex (in the other's model).
        edge_from: u32,
        /// That edge's second vertex (in the other's model).
        edge_to: u32,
    },
}

impl WorldError {
    pub(crate) fn from_ron(error: ron::error::SpannedError) -> Self {
        WorldError::Syntax {
            line: error.span.start.line,
            column: error.span.start.col,
            message: error.code.to_string(),
        }
    }
}
