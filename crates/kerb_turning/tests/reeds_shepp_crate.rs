//! kerb's Reeds–Shepp planner against the `reeds_shepp` crate on 100,000
//! random queries: the same length to within 1e-4, where the crate's path
//! reaches the goal at all.

use std::f32::consts::PI;

use glam::Vec2;
use kerb_turning::{Pose, plan_to_pose_reversing};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The crate's path, driven out from `start` with `radius`: where it ends.
fn their_end(path: &reeds_shepp_lib::Path, start: Pose, radius: f64) -> (Vec2, f64) {
    let (mut x, mut y, mut h) = (
        f64::from(start.position.x),
        f64::from(start.position.y),
        f64::from(start.heading),
    );
    for e in path {
        let sign = match e.gear {
            reeds_shepp_lib::Gear::Forward => 1.0,
            reeds_shepp_lib::Gear::Backwards => -1.0,
        };
        let d = e.param * sign;
        match e.steering {
            reeds_shepp_lib::Steering::Straight => {
                x += radius * d * h.cos();
                y += radius * d * h.sin();
            }
            reeds_shepp_lib::Steering::Left => {
                x += radius * ((h + d).sin() - h.sin());
                y += radius * (-(h + d).cos() + h.cos());
                h += d;
            }
            reeds_shepp_lib::Steering::Right => {
                x += radius * (-(h - d).sin() + h.sin());
                y += radius * ((h - d).cos() - h.cos());
                h -= d;
            }
        }
    }
    (Vec2::new(x as f32, y as f32), h)
}

#[test]
fn agrees_with_the_reeds_shepp_crate() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let (mut disagree, mut theirs_broken, mut agree) = (0, 0, 0);
    for _ in 0..100_000 {
        let radius: f32 = rng.random_range(0.5..20.0);
        let start = Pose::new(
            Vec2::new(rng.random_range(-50.0..50.0), rng.random_range(-50.0..50.0)),
            rng.random_range(-PI..PI),
        );
        let goal = Pose::new(
            Vec2::new(rng.random_range(-50.0..50.0), rng.random_range(-50.0..50.0)),
            rng.random_range(-PI..PI),
        );
        let ours = plan_to_pose_reversing(start, goal, radius).unwrap();
        let r = f64::from(radius);
        let to_crate = |p: Pose| reeds_shepp_lib::Pose {
            x: f64::from(p.position.x) / r,
            y: f64::from(p.position.y) / r,
            theta_degree: f64::from(p.heading).to_degrees(),
        };
        let theirs = reeds_shepp_lib::get_optimal_path(to_crate(start), to_crate(goal)).unwrap();
        let their_length = reeds_shepp_lib::path_length(&theirs) * r;
        let (end, _) = their_end(&theirs, start, r);
        let relative = (f64::from(ours.length()) - their_length) / their_length.max(1e-9);
        if relative.abs() <= 1e-4 {
            agree += 1;
        } else if end.distance(goal.position) > 1e-3 * radius {
            theirs_broken += 1;
        } else {
            disagree += 1;
            eprintln!(
                "ours {} against {their_length}: {start:?} to {goal:?} at radius {radius}",
                ours.length()
            );
        }
    }
    eprintln!("{agree} agree, {disagree} disagree, the crate misses the goal in {theirs_broken}");
    assert_eq!(disagree, 0);
}
