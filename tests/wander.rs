//! Wander: replays, frame-rate independence and a crowd that never sticks.

mod support;

use bevy::prelude::*;
use bevy_kerb::kerb_navmesh::PolygonId;
use bevy_kerb::kerb_navmesh::generate::grid_world;
use bevy_kerb::kerb_turning::wrap_signed;
use bevy_kerb::prelude::*;
use support::*;

#[test]
fn the_same_seed_replays_bit_for_bit() {
    let run = |seed| {
        let mut app = app_with(town(), 60, seed);
        let mesh = navmesh(&app);
        spawn_wanderers(&mut app, 60, &mesh);
        for _ in 0..600 {
            app.update();
        }
        positions(&mut app)
    };
    let first = run(5);
    assert_eq!(first, run(5));
    assert_ne!(first, run(6));
}

#[test]
fn a_thousand_wanderers_stay_on_the_town_and_never_stick() {
    let mut app = app_with(town(), 60, 11);
    let mesh = navmesh(&app);
    spawn_wanderers(&mut app, 1000, &mesh);
    app.update();
    let stuck_after = 5 * 60; // ticks
    // For each unit: where it was when it last moved a metre, and when.
    let mut anchors: Vec<(Entity, Vec2, u32)> = Vec::new();
    for tick in 0..10_000u32 {
        app.update();
        let mut query = app.world_mut().query::<(Entity, &UnitPose, &NavLocation)>();
        let states: Vec<(Entity, Vec2, PolygonId)> = query
            .iter(app.world())
            .map(|(e, p, l)| (e, p.position, l.polygon().unwrap()))
            .collect();
        if anchors.is_empty() {
            anchors = states.iter().map(|&(e, p, _)| (e, p, tick)).collect();
        }
        for ((entity, position, polygon), anchor) in states.into_iter().zip(anchors.iter_mut()) {
            assert_eq!(entity, anchor.0);
            assert!(
                mesh.contains_closed(polygon, position),
                "tick {tick}: {entity} left the mesh at {position}"
            );
            if position.distance(anchor.1) > 1.0 {
                *anchor = (entity, position, tick);
            }
            if tick - anchor.2 >= stuck_after {
                let motion = app.world().get::<Motion>(entity).unwrap();
                let intent = app.world().get::<bevy_kerb::Intent>(entity).unwrap();
                let memory = app.world().get::<bevy_kerb::WanderMemory>(entity);
                panic!(
                    "tick {tick}: {entity} stuck at {position} for 5 s: {motion:?} {intent:?} {memory:?}"
                );
            }
        }
    }
}

/// Mean absolute heading change over one-second windows.
fn mean_turn_per_second(hz: u32) -> f32 {
    let open = grid_world(60, 60, 5.0, |_, _| false).validate().unwrap();
    let mut app = app_with(open, hz, 3);
    let mesh = navmesh(&app);
    for i in 0..300 {
        let position = mesh.centroid(PolygonId(((i * 37) % mesh.polygon_count()) as u32));
        app.world_mut().spawn((
            Unit,
            TurningRadius(2.0),
            Speed(2.0),
            Wander {
                offset: 6.0,
                radius: 3.0,
                rate: 1.0,
            },
            Transform::from_translation(position.extend(0.0)),
        ));
    }
    let mut total = 0.0;
    let mut samples = 0;
    let mut query = app.world_mut().query::<&UnitPose>();
    let mut headings: Vec<f32> = Vec::new();
    let mut turned: Vec<f32> = Vec::new();
    for second in 0..30 {
        for _ in 0..hz {
            app.update();
            let now: Vec<f32> = query.iter(app.world()).map(|p| p.heading).collect();
            if headings.len() == now.len() {
                if turned.len() != now.len() {
                    turned = vec![0.0; now.len()];
                }
                for ((t, a), b) in turned.iter_mut().zip(&headings).zip(&now) {
                    *t += wrap_signed(b - a);
                }
            }
            headings = now;
        }
        if second >= 5 {
            total += turned.iter().map(|t| t.abs()).sum::<f32>();
            samples += turned.len();
        }
        turned.iter_mut().for_each(|t| *t = 0.0);
    }
    total / samples as f32
}

#[test]
fn wander_turn_rates_match_at_30_and_120_hz() {
    let slow = mean_turn_per_second(30);
    let fast = mean_turn_per_second(120);
    assert!(slow > 0.05, "units turn at all: {slow}");
    assert!(
        (slow / fast - 1.0).abs() < 0.15,
        "{slow} rad/s at 30 Hz, {fast} at 120 Hz"
    );
}
