//! Angle arithmetic for the planners: the `f64` helpers every planner
//! uses, and the `f32` ones of pose to point's fast build, side by side.

pub(crate) mod f32_math;
mod f64_math;

pub use f64_math::wrap_signed;
pub(crate) use f64_math::*;
