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
