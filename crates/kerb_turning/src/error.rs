//! Why a plan could not be made.

use thiserror::Error;

/// Invalid planner input. Planning never panics; it returns one of these.
#[derive(Clone, Copy, Debug, Error, PartialEq)]
pub enum PlanError {
    /// A coordinate or heading was NaN or infinite.
    #[error("the {what} is not finite")]
    NonFinite {
        /// Which input: "start pose", "goal point" or "goal pose".
        what: &'static str,
    },
    /// The turning radius was zero, negative, NaN or infinite.
    #[error("the turning radius must be positive and finite, got {0}")]
    InvalidRadius(f32),
}

/// Whether every value is finite and the radius positive and finite: one
/// comparison for the common case, before the planners look for the input
/// to name.
#[inline(always)]
pub(crate) fn inputs_are_valid<const N: usize>(values: [f32; N], radius: f32) -> bool {
    // `v * 0` is zero for a finite value and NaN otherwise, and a NaN
    // survives the sum.
    let residue: f32 = values.iter().map(|value| value * 0.0).sum();
    residue + radius * 0.0 == 0.0 && radius > 0.0
}

pub(crate) fn check_radius(radius: f32) -> Result<(), PlanError> {
    if radius.is_finite() && radius > 0.0 {
        Ok(())
    } else {
        Err(PlanError::InvalidRadius(radius))
    }
}

pub(crate) fn check_pose(pose: &crate::Pose, what: &'static str) -> Result<(), PlanError> {
    if pose.is_finite() {
        Ok(())
    } else {
        Err(PlanError::NonFinite { what })
    }
}
