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

/// Checks a query: `Ok` when the radius is positive and finite and every
/// value is finite, else the error that names the first bad input. `inputs`
/// names each pose or point in `values` with how many values it holds.
#[inline(always)]
pub(crate) fn check_query<const N: usize>(
    values: [f32; N],
    radius: f32,
    inputs: &[(&'static str, usize)],
) -> Result<(), PlanError> {
    // `v * 0` is zero for a finite value and NaN otherwise, and a NaN
    // survives the sum: one comparison for the common case.
    let residue: f32 = values.iter().map(|value| value * 0.0).sum();
    if residue + radius * 0.0 == 0.0 && radius > 0.0 {
        Ok(())
    } else {
        name_invalid_input(values, radius, inputs)
    }
}

/// Which input [`check_query`] found invalid. Out of line: valid input
/// never comes here.
#[cold]
#[inline(never)]
fn name_invalid_input<const N: usize>(
    values: [f32; N],
    radius: f32,
    inputs: &[(&'static str, usize)],
) -> Result<(), PlanError> {
    if !(radius.is_finite() && radius > 0.0) {
        return Err(PlanError::InvalidRadius(radius));
    }
    let mut rest = values.as_slice();
    for &(what, count) in inputs {
        let (these, after) = rest.split_at(count.min(rest.len()));
        if !these.iter().all(|value| value.is_finite()) {
            return Err(PlanError::NonFinite { what });
        }
        rest = after;
    }
    Ok(())
}
