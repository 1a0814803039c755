//! World files: reloading relocates units; an invalid file is an error, never a panic.

mod support;

use std::time::Duration;

use bevy::prelude::*;
use bevy_kerb::kerb_navmesh::{PolygonId, ValidWorld};
use bevy_kerb::prelude::*;
use support::*;

#[test]
fn reloading_the_world_relocates_every_unit() {
    let mut app = app_with(small(), 60, 1);
    let units: Vec<Entity> = [(5.0, 5.0), (15.0, 15.0), (25.0, 5.0)]
        .into_iter()
        .map(|(x, y)| {
            app.world_mut()
                .spawn((Unit, Wander::default(), Transform::from_xyz(x, y, 0.0)))
                .id()
        })
        .collect();
    for _ in 0..30 {
        app.update();
    }
    // The new world keeps only a strip along the bottom: y in [0, 3].
    let strip = ValidWorld::from_ron(
        "World(models: [Model(kind: Walkable, vertices: [(0, 0), (30, 0), (30, 3), (0, 3)], polygons: [[0, 1, 2, 3]])])",
    )
    .unwrap();
    let handle = app.world().resource::<KerbWorld>().handle.clone();
    let _ = app
        .world_mut()
        .resource_mut::<Assets<WorldAsset>>()
        .insert(handle.id(), WorldAsset::new(strip));
    app.update();
    let mesh = navmesh(&app);
    assert_eq!(mesh.polygon_count(), 1);
    for unit in units {
        let pose = app.world().get::<UnitPose>(unit).unwrap();
        let location = app.world().get::<NavLocation>(unit).unwrap();
        assert_eq!(location.polygon(), Some(PolygonId(0)));
        assert!(pose.position.y <= 3.0 + 1e-4, "{}", pose.position);
    }
    for _ in 0..120 {
        app.update();
        assert_on_mesh(&mut app, &mesh);
    }
}

#[test]
fn an_invalid_world_file_is_an_error_and_the_app_keeps_running() {
    let folder = std::env::temp_dir().join(format!("kerb-invalid-world-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(
        folder.join("bad.world.ron"),
        "World(models: [Model(kind: Walkable, vertices: [(0, 0), (1, 0)], polygons: [[0, 1, 5]])])",
    )
    .unwrap();
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin {
            file_path: folder.to_string_lossy().into_owned(),
            ..default()
        },
        KerbPlugin::new(Update),
    ));
    let handle = app.world().resource::<AssetServer>().load("bad.world.ron");
    app.insert_resource(KerbWorld::new(handle));
    let unit = app.world_mut().spawn((Unit, Wander::default())).id();
    let mut error = None;
    for _ in 0..2000 {
        app.update();
        if let Some(message) = &app.world().resource::<KerbWorld>().last_error {
            error = Some(message.clone());
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let error = error.expect("the load failed with a message");
    assert!(error.contains("vertex index 5"), "{error}");
    for _ in 0..10 {
        app.update();
    }
    assert_eq!(
        app.world().get::<NavLocation>(unit).unwrap().polygon(),
        None,
        "waits for a world"
    );
    let _ = std::fs::remove_dir_all(folder);
}
