//! Crowd scenarios run on the core alone: units with a turning radius
//! steer for their goals by pure pursuit, with avoidance on and off, and
//! every tick is checked for contacts.

mod support;

use glam::Vec2;
use kerb_crowd::{
    Agent, AvoidanceParams, CONTACT_OVERLAP, Choice, Preferred, choose, choose_within, drive,
};
use support::*;

/// RVO2's "Circle" at 250 pedestrians on a circle of 50 m: avoidance keeps
/// every body clear where pursuit alone walks them through each other, and
/// the crowd crosses as a roundabout. Not every unit reaches its place: a
/// few end hemmed in between units already standing at theirs, facing
/// away, with no room to turn, so the assertion is on 95%.
#[test]
fn circle_swap_without_contacts() {
    let count = 250;
    let (agents, goals) = circle(count, 50.0);
    let off = run(agents.clone(), &goals, &mut Kerb::new(false), 150.0);
    let on = run(agents, &goals, &mut Kerb::new(true), 150.0);
    println!(
        "circle swap, avoidance off: {} contacts, all arrived after {:?} s",
        off.contacts, off.finished
    );
    println!(
        "circle swap, avoidance on: {} contacts, {} of {count} arrived, {} within 2x alone",
        on.contacts, on.arrived, on.in_time
    );
    assert!(off.contacts > 0);
    assert_eq!(on.contacts, 0);
    assert!(on.in_time * 100 >= count * 95);
}

/// Pedestrians meeting head on, singly or in groups, pass each other on
/// drivable arcs without a contact, and all arrive within twice the time
/// each would take alone.
#[test]
fn head_on_meetings_pass_without_contacts() {
    for per_group in [1, 4, 10, 25] {
        let (agents, goals) = counterflow(per_group);
        let off = run(agents.clone(), &goals, &mut Kerb::new(false), 120.0);
        let on = run(agents, &goals, &mut Kerb::new(true), 120.0);
        println!(
            "{per_group} a side: off {} contacts; on {} contacts, {} of {} arrived, slowest {}x alone",
            off.contacts,
            on.contacts,
            on.arrived,
            2 * per_group,
            on.slowest_ratio
        );
        assert!(off.contacts > 0);
        assert_eq!(on.contacts, 0);
        assert!(on.finished.is_some() && on.slowest_ratio <= 2.0);
    }
}

/// A pedestrian walking beside a wall meets another head on: keeping
/// right would take it into the wall, so it slides along the wall instead,
/// its body kept off it with room to turn away.
#[test]
fn making_way_beside_a_wall_slides_along_it() {
    let walking = |position: Vec2, heading: f32| Agent {
        speed: 1.4,
        ..pedestrian(position, heading)
    };
    let params = AvoidanceParams::default();
    let dt = 1.0 / 30.0;
    // The wall is the line y = 0; each follows its own line, pursuing a
    // point on it 3 m ahead, as a unit follows its path.
    let nearest_approach = |sees_walls: bool| {
        let mut walker = walking(Vec2::new(0.0, 0.5), 0.0);
        let mut oncoming = walking(Vec2::new(6.0, 0.7), std::f32::consts::PI);
        let mut nearest = f32::INFINITY;
        for _ in 0..90 {
            let wall = [Vec2::new(walker.position.x, 0.0)];
            let walls: &[Vec2] = if sees_walls { &wall } else { &[] };
            let ours = pursue(&walker, Vec2::new(walker.position.x + 3.0, 0.5));
            let ours = choose_within(
                &walker,
                ours,
                [&oncoming].into_iter(),
                &params,
                dt,
                walls,
                |_| true,
            );
            let theirs = pursue(&oncoming, Vec2::new(oncoming.position.x - 3.0, 0.7));
            let theirs = choose(&oncoming, theirs, [&walker].into_iter(), &params, dt);
            for (agent, choice) in [(&mut walker, ours), (&mut oncoming, theirs)] {
                (agent.position, agent.heading) = drive(agent.position, agent.heading, choice, dt);
                agent.speed = choice.speed;
            }
            nearest = nearest.min(walker.position.y - walker.body_radius);
        }
        assert!(walker.position.x > oncoming.position.x, "they passed");
        nearest
    };
    let blind = nearest_approach(false);
    let seeing = nearest_approach(true);
    assert!(blind < 0.0, "{blind}");
    // Making way, it keeps a standoff from the wall too (0.23 m for a
    // 0.8 m turning radius), the room to turn away from it: without one it
    // came within 0.13 m.
    assert!(seeing >= 0.15, "{seeing}");
}

/// A pedestrian walking past someone who stands a hair beside its line
/// goes round on the nearer side, whichever that is: keeping right is for
/// passing those on the move, and would send it the long way round a body
/// standing on its right.
#[test]
fn walking_round_someone_standing_passes_on_the_nearer_side() {
    let params = AvoidanceParams::default();
    let dt = 1.0 / 30.0;
    for beside in [-0.2f32, 0.2] {
        let mut walker = Agent {
            speed: 1.4,
            ..pedestrian(Vec2::ZERO, 0.0)
        };
        let standing = pedestrian(Vec2::new(4.0, beside), std::f32::consts::FRAC_PI_2);
        let mut passed_at = None;
        for _ in 0..150 {
            let wish = pursue(&walker, Vec2::new(walker.position.x + 3.0, 0.0));
            let choice = choose(&walker, wish, [&standing].into_iter(), &params, dt);
            (walker.position, walker.heading) = drive(walker.position, walker.heading, choice, dt);
            walker.speed = choice.speed;
            assert!(!kerb_crowd::in_contact(&walker, &standing));
            if passed_at.is_none() && walker.position.x >= standing.position.x {
                passed_at = Some(walker.position.y);
            }
        }
        let passed_at = passed_at.expect("it walks past");
        assert!(
            passed_at * beside < 0.0,
            "standing at {beside}, it passed at {passed_at}"
        );
    }
}

mod choices {
    use super::*;
    use proptest::prelude::*;

    fn arb_agent() -> impl Strategy<Value = Agent> {
        (
            -6.0f32..6.0,
            -6.0f32..6.0,
            -4.0f32..4.0,
            0.0f32..2.0,
            0.05f32..12.0,
            0.1f32..3.0,
            0.5f32..10.0,
        )
            .prop_map(
                |(x, y, heading, speed, turn_radius, body_radius, priority)| Agent {
                    position: Vec2::new(x, y),
                    heading,
                    speed,
                    max_speed: 2.0,
                    turn_radius,
                    body_radius,
                    priority,
                },
            )
    }

    /// The closest `agent` driving `choice` comes to `other` on its
    /// present course during one tick of `dt`.
    fn closest_over_tick(agent: &Agent, choice: Choice, other: &Agent, dt: f32) -> f32 {
        (0..=16)
            .map(|step| {
                let t = dt * step as f32 / 16.0;
                let (ours, _) = drive(agent.position, agent.heading, choice, t);
                ours.distance(other.position + other.velocity() * t)
            })
            .fold(f32::INFINITY, f32::min)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20000))]

        /// The choice is drivable (never tighter than the radius, never
        /// faster than the top speed), whatever walls are about, and a
        /// unit that moves never comes
        /// within reach of a neighbour during the tick unless it is
        /// moving away from one it was already within reach of.
        #[test]
        fn choices_are_drivable_and_never_drive_into_a_neighbour(
            agent in arb_agent(),
            others in prop::collection::vec(arb_agent(), 0..8),
            speed in -1.0f32..3.0,
            curvature in -30.0f32..30.0,
            walls in prop::collection::vec((-6.0f32..6.0, -6.0f32..6.0), 0..8),
        ) {
            let params = AvoidanceParams::default();
            let preferred = Preferred { speed, curvature };
            let dt = 1.0 / 30.0;
            let walls: Vec<Vec2> = walls.into_iter().map(|(x, y)| Vec2::new(x, y)).collect();
            let choice = choose_within(&agent, preferred, others.iter(), &params, dt, &walls, |_| true);
            prop_assert!(choice.speed >= 0.0 && choice.speed <= agent.max_speed);
            prop_assert!(choice.curvature.abs() <= 1.0 / agent.turn_radius * (1.0 + 1e-6));
            if choice.speed > 0.0 {
                // Within the tick the arc is judged by its chord, which
                // it leaves by at most s² dt² κ / 8.
                let bulge = (choice.speed * dt).powi(2) * choice.curvature.abs() / 8.0;
                for other in &others {
                    let bodies = agent.body_radius + other.body_radius;
                    let now = agent.position.distance(other.position);
                    // Already in contact, the lighter unit leaves as it can.
                    if now < bodies * (1.0 - CONTACT_OVERLAP) && agent.priority <= other.priority {
                        continue;
                    }
                    let closest = closest_over_tick(&agent, choice, other, dt);
                    prop_assert!(
                        closest >= bodies.min(now) - bulge - 1e-4,
                        "{closest} apart, bodies {bodies}, {now} now, {choice:?}"
                    );
                }
            }
        }

        /// A moving unit far heavier than every neighbour (a tank among
        /// pedestrians) never swerves: whatever it chooses keeps its path's
        /// curvature, only slower.
        #[test]
        fn a_heavy_unit_keeps_to_its_path(
            agent in arb_agent(),
            others in prop::collection::vec(arb_agent(), 1..8),
            speed in 0.1f32..2.0,
            curvature in -1.0f32..1.0,
        ) {
            let heavy = Agent { priority: 1000.0, ..agent };
            let curvature = curvature / heavy.turn_radius;
            let preferred = Preferred { speed, curvature };
            let choice = choose(&heavy, preferred, others.iter(), &AvoidanceParams::default(), 1.0 / 30.0);
            prop_assert_eq!(choice.curvature, curvature);
            prop_assert!(choice.speed <= speed);
        }
    }
}
