//! Wander: roam at random, smoothly, the same way at any tick rate.
//!
//! As in the Unity cookbook's Wander and Millington, the target sits on a circle of `radius`
//! placed `offset` ahead of the unit, at the wander angle from its heading.
//! The cookbook draws a fresh angle every frame, so the target jitters and the
//! behaviour depends on the frame rate. Here the angle is state that takes a
//! random walk in time: after `t` seconds it has moved by a normal amount
//! with standard deviation `rate * sqrt(t)`, however the time was divided
//! into ticks. Gaussian steps make that exact, not just on average.

use glam::Vec2;
use kerb_navmesh::NavMesh;
use kerb_turning::wrap_signed;

use crate::UnitRng;

/// The cookbook's three wander parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WanderParams {
    /// How far ahead of the unit the wander circle sits, in metres.
    pub offset: f32,
    /// The wander circle's radius, in metres.
    pub radius: f32,
    /// How fast the wander angle wanders: its standard deviation after one
    /// second, in radians. Larger is twitchier.
    pub rate: f32,
}

impl Default for WanderParams {
    fn default() -> Self {
        Self {
            offset: 8.0,
            radius: 4.0,
            rate: 1.0,
        }
    }
}

impl WanderParams {
    /// The parameters with every value made finite and non-negative, so a
    /// typo in a tuning panel cannot produce NaN positions.
    pub fn sanitized(self) -> Self {
        let clean = |v: f32, default: f32| if v.is_finite() { v.max(0.0) } else { default };
        let defaults = WanderParams::default();
        Self {
            offset: clean(self.offset, defaults.offset),
            radius: clean(self.radius, defaults.radius),
            rate: clean(self.rate, defaults.rate),
        }
    }
}

/// What a wandering unit remembers between ticks.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct WanderState {
    /// The wander angle, relative to the unit's heading, in radians.
    pub angle: f32,
    /// The unit's own random stream.
    pub rng: UnitRng,
}

impl WanderState {
    /// A fresh state for unit `unit` under the run's `seed`, with a random
    /// starting angle.
    pub fn new(seed: u64, unit: u64) -> Self {
        let mut rng = UnitRng::new(seed, unit);
        let angle = rng.next_angle();
        Self { angle, rng }
    }

    /// Lets `dt` seconds of wandering pass.
    #[inline]
    pub fn advance(&mut self, params: &WanderParams, dt: f32) {
        if dt > 0.0 && dt.is_finite() {
            let angle = self.angle + params.rate * dt.sqrt() * self.rng.next_gaussian();
            self.angle = if angle.is_finite() {
                // Keep the angle small so f32 keeps its precision forever.
                wrap_signed(angle)
            } else {
                // A spread beyond `f32`'s range (a huge rate over a long
                // wait) leaves the angle anywhere on the circle, not NaN.
                self.rng.next_angle()
            };
        }
    }

    /// The wander target for a unit at `position` facing `heading`.
    #[inline]
    pub fn target(&self, params: &WanderParams, position: Vec2, heading: f32) -> Vec2 {
        position
            + Vec2::from_angle(heading) * params.offset
            + Vec2::from_angle(heading + self.angle) * params.radius
    }

    /// The wander target, kept on the walkable area.
    ///
    /// A target off the mesh is pulled back onto it (mirrored in the wall,
    /// else `margin` metres clear of it), and the wander angle is turned
    /// towards the point pulled back to, so the next targets lead there
    /// instead of out through the wall.
    pub fn walkable_target(
        &mut self,
        params: &WanderParams,
        position: Vec2,
        heading: f32,
        navmesh: &NavMesh,
        margin: f32,
    ) -> Vec2 {
        let target = self.target(params, position, heading);
        if navmesh.locate(target).is_some() {
            return target;
        }
        let Some((on_mesh, _)) = navmesh.nearest_point(target) else {
            return position;
        };
        // From the target to its nearest walkable point is straight into the
        // walkable area, square to the wall.
        let inward = (on_mesh - target).normalize_or_zero();
        // Prefer the target mirrored in the wall, as deep inside as it was
        // outside, so the unit turns away rather than creeping along the
        // wall; else a point `margin` clear of it; else the wall itself.
        let mirrored = on_mesh + inward * on_mesh.distance(target).max(margin);
        let clear = on_mesh + inward * margin;
        let pulled = [mirrored, clear]
            .into_iter()
            .find(|&p| navmesh.locate(p).is_some())
            .unwrap_or(on_mesh);
        let away = pulled - position;
        if away.length_squared() > 1e-6 {
            self.angle = wrap_signed(away.to_angle() - heading);
        }
        pulled
    }
}
