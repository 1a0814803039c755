//! Whether turning paths stay on the walkable area, and the shortest one
//! that does.

mod check;
mod crossings;
mod walkable_plan;

pub use walkable_plan::WalkablePlan;
