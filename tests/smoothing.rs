//! Drawing between fixed ticks: kerb ticks at 60 Hz, the display at 144 Hz,
//! and each frame a moving unit is drawn on its path at the frame's share of
//! the next tick.

mod support;

use bevy::prelude::*;
use bevy_kerb::kerb_navmesh::ValidWorld;
use bevy_kerb::kerb_navmesh::generate::grid_world;
use bevy_kerb::kerb_turning::{Segment, TurningPath, wrap_signed};
use bevy_kerb::prelude::*;
use support::*;

const TICK_HZ: u32 = 60;
const FRAME_HZ: u32 = 144;

fn open_square() -> ValidWorld {
    grid_world(20, 20, 5.0, |_, _| false).validate().unwrap()
}

/// Where `unit` is drawn: its transform's place on the ground.
fn drawn_at(app: &App, unit: Entity) -> Vec2 {
    let transform = app.world().get::<Transform>(unit).unwrap();
    transform.translation.truncate()
}

/// How far along `path` the point `p` is, and how far off it.
fn on_path(path: &TurningPath, p: Vec2) -> (f32, f32) {
    let mut start = 0.0;
    let mut best = (0.0, f32::INFINITY);
    for segment in path.segments() {
        let along = match *segment {
            Segment::Arc {
                center,
                radius,
                start_angle,
                sweep,
                ..
            } => {
                let turned = wrap_signed((p - center).to_angle() - start_angle) * sweep.signum();
                radius * turned.clamp(0.0, sweep.abs())
            }
            Segment::Line {
                start: from,
                length,
                ..
            } => (p - from).dot(segment.start_direction()).clamp(0.0, length),
        };
        let off = segment.sample(along).position.distance(p);
        if off < best.1 {
            best = (start + along, off);
        }
        start += segment.length();
    }
    best
}

/// A unit sent round an arc in the open, and what was drawn each frame
/// while it drove it: the distance along its path and how far off it.
fn drive_round_an_arc(draw_between_ticks: bool) -> Vec<(f32, f32)> {
    let mut app = app_rendering_at(open_square(), TICK_HZ, FRAME_HZ, 1);
    app.world_mut()
        .resource_mut::<KerbSettings>()
        .draw_between_ticks = draw_between_ticks;
    let unit = app
        .world_mut()
        .spawn((
            Unit,
            TurningRadius(12.0),
            Speed(3.0),
            Destination::Point(Vec2::new(20.0, 90.0)),
            Transform::from_xyz(20.0, 30.0, 0.0),
        ))
        .id();
    // Until the unit is placed and has its path.
    while app.world().get::<Motion>(unit).unwrap().path().length() == 0.0 {
        app.update();
    }
    let path = *app.world().get::<Motion>(unit).unwrap().path();
    let arc = path.segments()[0].length();
    assert!(
        matches!(path.segments()[0], Segment::Arc { .. }),
        "{path:?}"
    );
    let mut drawn = Vec::new();
    for _ in 0..FRAME_HZ * 2 {
        app.update();
        assert_eq!(*app.world().get::<Motion>(unit).unwrap().path(), path);
        let position = drawn_at(&app, unit);
        let (along, off) = on_path(&path, position);
        if along > arc {
            break;
        }
        // Never ahead of where the simulation is, nor past the next tick.
        let travelled = app.world().get::<Motion>(unit).unwrap().travelled();
        assert!(
            along >= travelled - 1e-4 && along <= travelled + 3.0 / TICK_HZ as f32 + 1e-4,
            "drawn at {along} m with {travelled} m travelled"
        );
        drawn.push((along, off));
    }
    assert!(
        drawn.len() > FRAME_HZ as usize,
        "{} frames on the arc",
        drawn.len()
    );
    drawn
}

#[test]
fn units_are_drawn_on_their_arc_advancing_every_frame() {
    let drawn = drive_round_an_arc(true);
    for &(along, off) in &drawn {
        assert!(off < 1e-4, "{off} m off the path at {along} m");
    }
    let advances: Vec<f32> = drawn.windows(2).map(|w| w[1].0 - w[0].0).collect();
    let mean = advances.iter().sum::<f32>() / advances.len() as f32;
    for (frame, advance) in advances.iter().enumerate() {
        assert!(*advance > 0.0, "frame {frame} stood still: {drawn:?}");
        assert!(
            *advance <= 2.0 * mean,
            "frame {frame} jumped {advance} m, mean {mean} m"
        );
    }
}

#[test]
fn without_drawing_between_ticks_frames_repeat_and_jump() {
    let drawn = drive_round_an_arc(false);
    let advances: Vec<f32> = drawn.windows(2).map(|w| w[1].0 - w[0].0).collect();
    let repeated = advances.iter().filter(|a| **a == 0.0).count();
    assert!(
        repeated > advances.len() / 3,
        "{repeated} of {} frames repeated",
        advances.len()
    );
}

#[test]
fn teleported_and_spawned_units_appear_at_their_place_at_once() {
    let mut app = app_rendering_at(open_square(), TICK_HZ, FRAME_HZ, 1);
    let walker = app
        .world_mut()
        .spawn((
            UnitPreset::PEDESTRIAN.unit(),
            Destination::Point(Vec2::new(90.0, 50.0)),
            Transform::from_xyz(10.0, 50.0, 0.0),
        ))
        .id();
    for _ in 0..FRAME_HZ {
        app.update();
    }
    // Spawned: drawn where it was put, on the next frame and every one after.
    let spawned = app
        .world_mut()
        .spawn((
            UnitPreset::TANK.unit(),
            Transform::from_xyz(60.0, 20.0, 0.0),
        ))
        .id();
    let before = drawn_at(&app, walker);
    app.world_mut().entity_mut(walker).insert(Teleport {
        position: Vec2::new(30.0, 80.0),
        heading: 1.0,
    });
    // How far it can get in the four frames watched, drawn up to a tick ahead.
    let step = UnitPreset::PEDESTRIAN.speed * (4.0 / FRAME_HZ as f32 + 1.0 / TICK_HZ as f32);
    let mut arrived = false;
    for _ in 0..4 {
        app.update();
        let spawned_at = drawn_at(&app, spawned);
        assert_eq!(spawned_at, Vec2::new(60.0, 20.0));
        let at = drawn_at(&app, walker);
        if arrived || app.world().get::<Teleport>(walker).is_none() {
            // From the tick that moved it on, drawn at its new place, never
            // anywhere between the old and the new.
            arrived = true;
            assert!(at.distance(Vec2::new(30.0, 80.0)) <= step, "drawn at {at}");
        } else {
            assert!(at.distance(before) <= step, "drawn at {at} before the tick");
        }
    }
    assert!(arrived, "no tick in four frames at {FRAME_HZ} Hz");
}

#[test]
fn drawing_between_ticks_never_changes_the_simulation() {
    let run = |draw_between_ticks: bool| {
        let mut app = app_rendering_at(town(), TICK_HZ, FRAME_HZ, 5);
        app.world_mut()
            .resource_mut::<KerbSettings>()
            .draw_between_ticks = draw_between_ticks;
        let mesh = navmesh(&app);
        spawn_wanderers(&mut app, 60, &mesh);
        for _ in 0..FRAME_HZ * 5 {
            app.update();
        }
        positions(&mut app)
    };
    assert_eq!(run(true), run(false));
}

/// Two pedestrians meeting head on, at 60 Hz ticks and 144 Hz frames: while
/// making way, each is drawn along the arc it chose, so that it advances
/// every frame, never more than a tick's worth ahead of where it is.
#[test]
fn units_making_way_are_drawn_along_their_arc() {
    let mut app = app_rendering_at(open_square(), TICK_HZ, FRAME_HZ, 1);
    app.world_mut().resource_mut::<AvoidanceSettings>().enabled = true;
    let mut spawn =
        |from: Vec2, heading: f32, to: Vec2| send_pedestrian(&mut app, from, heading, to);
    let a = spawn(Vec2::new(30.0, 50.05), 0.0, Vec2::new(70.0, 50.05));
    spawn(
        Vec2::new(70.0, 49.95),
        std::f32::consts::PI,
        Vec2::new(30.0, 49.95),
    );
    let step = UnitPreset::PEDESTRIAN.speed / TICK_HZ as f32;
    let (mut frames_making_way, mut last) = (0, drawn_at(&app, a));
    for _ in 0..FRAME_HZ * 20 {
        app.update();
        let drawn = drawn_at(&app, a);
        let pose = *app.world().get::<UnitPose>(a).unwrap();
        if app.world().get::<Avoiding>(a).unwrap().choice().is_some() {
            frames_making_way += 1;
            // Ahead of where it is by at most a tick, and moving on.
            assert!(drawn.distance(pose.position) <= step + 1e-4);
            assert!(drawn != last, "stood still while making way");
        }
        last = drawn;
    }
    assert!(
        frames_making_way > 10,
        "{frames_making_way} frames making way"
    );
}
