//! Why a plan could not be made.

use thiserror::Error;

use crate::Pose;

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
    // A sum of finite values is finite unless it overflows, and `v * 0` is
    // zero for a finite `v` and NaN otherwise: one comparison for the
    // common case. An overflowing sum of finite values only costs a trip
    // through `name_invalid_input`, which finds nothing wrong.
    let sum: f32 = values.iter().sum();
    if (sum + radius) * 0.0 == 0.0 && radius > 0.0 {
        Ok(())
    } else {
        name_invalid_input(values, radius, inputs)
    }
}

/// Checks a pose-to-pose query, as [`check_query`] does.
#[inline(always)]
pub(crate) fn check_pose_query(start: &Pose, goal: &Pose, radius: f32) -> Result<(), PlanError> {
    let values = [
        start.position.x,
        start.position.y,
        start.heading,
        goal.position.x,
        goal.position.y,
        goal.heading,
    ];
    check_query(values, radius, &[("start pose", 3), ("goal pose", 3)])
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

#[cfg(test)]
mod tests {
    use super::*;

    const INPUTS: &[(&str, usize)] = &[("start pose", 3), ("goal point", 2)];

    #[test]
    fn finite_values_whose_sum_overflows_pass() {
        let huge = f32::MAX;
        assert_eq!(
            check_query([huge, huge, 1.0, huge, huge], huge, INPUTS),
            Ok(())
        );
        assert_eq!(
            check_query([-huge, -huge, 1.0, huge, huge], 1.0, INPUTS),
            Ok(())
        );
    }

    #[test]
    fn each_bad_input_is_named() {
        let finite = [1.0, 2.0, 3.0, 4.0, 5.0];
        for slot in 0..finite.len() {
            for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
                let mut values = finite;
                values[slot] = bad;
                let what = if slot < 3 { "start pose" } else { "goal point" };
                assert_eq!(
                    check_query(values, 1.0, INPUTS),
                    Err(PlanError::NonFinite { what }),
                    "{values:?}"
                );
            }
        }
        // Infinities of both signs would cancel in a plain sum.
        assert_eq!(
            check_query(
                [f32::INFINITY, f32::NEG_INFINITY, 0.0, 0.0, 0.0],
                1.0,
                INPUTS
            ),
            Err(PlanError::NonFinite { what: "start pose" })
        );
        for radius in [0.0, -1.0, f32::NAN, f32::INFINITY] {
            assert!(matches!(
                check_query(finite, radius, INPUTS),
                Err(PlanError::InvalidRadius(_))
            ));
        }
    }
}
