//! Wander keeps its memory, is the same at any tick rate, and replays.

use glam::Vec2;
use kerb_navmesh::ValidWorld;
use kerb_steering::{UnitRng, WanderParams, WanderState};
use kerb_turning::wrap_signed;

const PARAMS: WanderParams = WanderParams {
    offset: 10.0,
    radius: 5.0,
    rate: 1.2,
};

/// Angle changes over one-second windows, for many units, at `hz` ticks a second.
fn one_second_turns(hz: u32, units: u64, seconds: u32) -> Vec<f32> {
    let dt = 1.0 / hz as f32;
    let mut turns = Vec::new();
    for unit in 0..units {
        let mut state = WanderState::new(99, unit);
        for _ in 0..seconds {
            let before = state.angle;
            for _ in 0..hz {
                state.advance(&PARAMS, dt);
            }
            turns.push(wrap_signed(state.angle - before));
        }
    }
    turns
}

fn variance(values: &[f32]) -> f32 {
    let mean = values.iter().sum::<f32>() / values.len() as f32;
    values.iter().map(|v| (v - mean).powi(2)).sum::<f32>() / values.len() as f32
}

fn quantile(values: &[f32], q: f32) -> f32 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f32::total_cmp);
    sorted[((sorted.len() - 1) as f32 * q) as usize]
}

#[test]
fn turn_statistics_match_at_30_and_120_hz() {
    let slow = one_second_turns(30, 400, 20);
    let fast = one_second_turns(120, 400, 20);
    let (v30, v120) = (variance(&slow), variance(&fast));
    // rate² per second, whatever the tick rate.
    assert!(
        (v30 / v120 - 1.0).abs() < 0.08,
        "variance {v30} at 30 Hz, {v120} at 120 Hz"
    );
    assert!(
        (v30.sqrt() - PARAMS.rate).abs() < 0.1 * PARAMS.rate,
        "{}",
        v30.sqrt()
    );
    for q in [0.05, 0.25, 0.5, 0.75, 0.95] {
        let (a, b) = (quantile(&slow, q), quantile(&fast, q));
        assert!(
            (a - b).abs() < 0.08 * PARAMS.rate,
            "quantile {q}: {a} vs {b}"
        );
    }
}

#[test]
fn the_seed_rule_depends_on_the_tick_rate_and_ours_does_not() {
    // The cookbook's Wander: a fresh uniform angle in [-rate, rate] every frame, no memory.
    let seed_rule_spread = |hz: u32| {
        let mut rng = UnitRng::new(5, 5);
        let angles: Vec<f32> = (0..hz * 50)
            .map(|_| rng.next_signed() * PARAMS.rate)
            .collect();
        // How far the target jumps between consecutive frames.
        let jumps: Vec<f32> = angles.windows(2).map(|w| (w[1] - w[0]).abs()).collect();
        jumps.iter().sum::<f32>() / jumps.len() as f32
    };
    // Per frame the cookbook's angle jumps just as far at 120 Hz as at 30 Hz: four
    // times as much jitter per second.
    assert!((seed_rule_spread(30) / seed_rule_spread(120) - 1.0).abs() < 0.1);
    // Ours moves a quarter as far per 120 Hz tick as per 30 Hz tick... in
    // variance: per-tick steps scale with sqrt(dt).
    let step = |hz: u32| {
        let mut state = WanderState::new(5, 5);
        let mut total = 0.0;
        for _ in 0..hz * 50 {
            let before = state.angle;
            state.advance(&PARAMS, 1.0 / hz as f32);
            total += wrap_signed(state.angle - before).powi(2);
        }
        total / (hz * 50) as f32
    };
    assert!(
        (step(30) / step(120) - 4.0).abs() < 0.6,
        "{} {}",
        step(30),
        step(120)
    );
}

#[test]
fn the_angle_has_memory() {
    let mut state = WanderState::new(1, 2);
    let mut previous = state.target(&PARAMS, Vec2::ZERO, 0.0);
    let mut total = 0.0;
    for _ in 0..600 {
        state.advance(&PARAMS, 1.0 / 60.0);
        let target = state.target(&PARAMS, Vec2::ZERO, 0.0);
        // The target drifts along the circle; it never jumps across it.
        assert!(target.distance(previous) < 4.0, "{target} after {previous}");
        total += target.distance(previous);
        previous = target;
    }
    // The cookbook's fresh angle each frame jumps about 4 m on average here
    // (5 m radius, angles uniform in ±1.2 rad); ours drifts well under 1 m.
    assert!(total / 600.0 < 1.0, "mean jump {}", total / 600.0);
}

#[test]
fn streams_replay_and_differ_between_units() {
    let run = |seed, unit| {
        let mut state = WanderState::new(seed, unit);
        (0..100)
            .map(|_| {
                state.advance(&PARAMS, 0.1);
                state.angle.to_bits()
            })
            .collect::<Vec<u32>>()
    };
    assert_eq!(run(3, 4), run(3, 4));
    assert_ne!(run(3, 4), run(3, 5));
    assert_ne!(run(3, 4), run(4, 4));
}

#[test]
fn zero_and_bad_time_steps_change_nothing() {
    let mut state = WanderState::new(1, 1);
    let before = state.clone();
    for dt in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        state.advance(&PARAMS, dt);
    }
    assert_eq!(state, before);
    let bad = WanderParams {
        offset: f32::NAN,
        radius: -3.0,
        rate: f32::INFINITY,
    }
    .sanitized();
    assert!(bad.offset.is_finite() && bad.radius == 0.0 && bad.rate.is_finite());
}

#[test]
fn a_spread_beyond_f32_leaves_an_angle_not_nan() {
    let huge = WanderParams {
        rate: 1e30,
        ..PARAMS
    };
    let mut state = WanderState::new(1, 1);
    for dt in [1e30, f32::MAX, 1.0] {
        state.advance(&huge, dt);
        assert!(state.angle.abs() <= std::f32::consts::PI, "{}", state.angle);
    }
}

#[test]
fn off_mesh_targets_are_pulled_back_and_the_angle_follows() {
    let world =
        ValidWorld::from_ron(include_str!("../../../assets/worlds/small.world.ron")).unwrap();
    let mesh = &world.navmesh;
    let mut state = WanderState {
        angle: 0.0,
        rng: UnitRng::new(1, 1),
    };
    // In P0 facing the bottom wall: the raw target is below y = 0.
    let position = Vec2::new(5.0, 2.0);
    let heading = -std::f32::consts::FRAC_PI_2;
    assert!(
        mesh.locate(state.target(&PARAMS, position, heading))
            .is_none()
    );
    let target = state.walkable_target(&PARAMS, position, heading, mesh, 1.0);
    assert!(mesh.locate(target).is_some(), "{target}");
    assert!(target.y >= 0.5, "kept clear of the wall: {target}");
    // The wander angle now points at the target pulled back: the next
    // targets lead that way rather than out through the wall again.
    let towards = Vec2::from_angle(heading + state.angle);
    let pulled = (target - position).normalize();
    assert!(towards.dot(pulled) > 0.999, "{towards} against {pulled}");
}

mod properties {
    use std::f32::consts::PI;
    use std::sync::LazyLock;

    use glam::Vec2;
    use kerb_navmesh::{NavMesh, ValidWorld};
    use kerb_steering::{WanderParams, WanderState};
    use proptest::prelude::*;

    static TOWN: LazyLock<NavMesh> = LazyLock::new(|| {
        ValidWorld::from_ron(include_str!("../../../assets/worlds/town.world.ron"))
            .expect("the town loads")
            .navmesh
    });

    /// Any `f32`, the values a tuning panel or a bad frame can produce
    /// included.
    fn any_value() -> impl Strategy<Value = f32> {
        prop_oneof![
            4 => -100.0f32..100.0,
            1 => prop::num::f32::ANY,
            1 => Just(0.0f32),
            1 => prop_oneof![Just(f32::NAN), Just(f32::INFINITY), Just(f32::NEG_INFINITY)],
            1 => prop_oneof![Just(1e30f32), Just(-1e30f32), Just(1e-30f32)],
        ]
    }

    fn any_params() -> impl Strategy<Value = WanderParams> {
        (any_value(), any_value(), any_value()).prop_map(|(offset, radius, rate)| {
            WanderParams {
                offset,
                radius,
                rate,
            }
            .sanitized()
        })
    }

    proptest! {
        /// Whatever the parameters and time steps, the angle stays a finite
        /// angle in [-π, π], and the target sits on the wander circle: between
        /// |offset - radius| and offset + radius from the unit.
        #[test]
        fn the_angle_stays_an_angle_and_the_target_on_the_circle(
            params in any_params(),
            seed in any::<u64>(),
            unit in any::<u64>(),
            steps in prop::collection::vec(any_value(), 1..50),
            position in (-1e4f32..1e4, -1e4f32..1e4),
            heading in -10.0f32..10.0,
        ) {
            let mut state = WanderState::new(seed, unit);
            let position = Vec2::from(position);
            for dt in steps {
                state.advance(&params, dt);
                prop_assert!(state.angle.is_finite() && state.angle.abs() <= PI, "{}", state.angle);
                // In `f64`: the square of a 1e30 m offset overflows `f32`.
                let target = state.target(&params, position, heading).as_dvec2();
                let distance = target.distance(position.as_dvec2());
                let (offset, radius) = (f64::from(params.offset), f64::from(params.radius));
                let scale = 1e-5 * (offset + radius + f64::from(position.abs().max_element()));
                prop_assert!(
                    distance <= offset + radius + scale
                        && distance >= (offset - radius).abs() - scale,
                    "{distance} with {params:?}"
                );
            }
        }

        /// From anywhere on the town, facing anywhere, a walkable target is on
        /// the walkable area, however far out the wander circle sits.
        #[test]
        fn walkable_targets_are_on_the_mesh(
            params in any_params(),
            seed in any::<u64>(),
            spot in (0.0f32..1.0, 0.0f32..1.0),
            heading in -10.0f32..10.0,
            margin in 0.0f32..5.0,
        ) {
            let mesh = &*TOWN;
            let bounds = mesh.bounds();
            let wanted = bounds.min + (bounds.max - bounds.min) * Vec2::from(spot);
            let (position, _) = mesh.nearest_point(wanted).expect("a finite point");
            let mut state = WanderState::new(seed, 1);
            let target = state.walkable_target(&params, position, heading, mesh, margin);
            let (nearest, _) = mesh.nearest_point(target).expect("a finite target");
            prop_assert!(
                nearest.distance(target) < 1e-3,
                "{target} is {} off the mesh", nearest.distance(target)
            );
            prop_assert!(state.angle.is_finite());
        }
    }
}
