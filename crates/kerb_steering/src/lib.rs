//! Engine-free steering for kerb: wander with memory, time scaling and a
//! replayable random stream per unit.
//!
//! ```
//! use glam::Vec2;
//! use kerb_steering::{WanderParams, WanderState};
//!
//! let params = WanderParams { offset: 10.0, radius: 4.0, rate: 0.8 };
//! let mut state = WanderState::new(42, 7); // run seed 42, unit 7
//! for _ in 0..60 {
//!     state.advance(&params, 1.0 / 60.0);
//! }
//! let target = state.target(&params, Vec2::ZERO, 0.0);
//! assert!(target.distance(Vec2::new(10.0, 0.0)) <= 4.0 + 1e-4);
//! ```

mod random;
mod wander;

pub use random::UnitRng;
pub use wander::{WanderParams, WanderState};
