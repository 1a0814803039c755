//! Tanks and crowds wandering a town, with the live tuning panel.
//!
//! ```sh
//! cargo run --release --example demo [-- --seed S --world PATH --frames N --screenshot FILE]
//! ```
//!
//! The world is loaded through Bevy's `AssetServer` with the file watcher
//! on: save the world file while the demo runs and the new world is drawn
//! and the units are snapped onto it.

mod options;
mod palette;
mod pointer;
mod reversing;
mod scenery;
mod screenshot;
mod status;
mod units;
mod view;

use std::path::Path;
use std::process::ExitCode;

use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy_egui::EguiPrimaryContextPass;
use bevy_kerb::kerb_navmesh::ValidWorld;
use bevy_kerb::prelude::*;

use screenshot::DemoRun;

/// The world, read and validated before any window opens, so that a bad
/// path or file is a clear message and a non-zero exit. The asset server
/// loads it again for the game.
fn check_world(path: &Path) -> Result<ValidWorld, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read world {}: {e}", path.display()))?;
    ValidWorld::from_ron(&text).map_err(|e| format!("invalid world {}: {e}", path.display()))
}

fn main() -> ExitCode {
    let options = match options::parse_options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    let world = match check_world(&options.world) {
        Ok(world) => world,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(1);
        }
    };
    println!(
        "kerb demo: {} walkable polygons, {} scenery models from {}",
        world.navmesh.polygon_count(),
        world.scenery.len(),
        options.world.display()
    );
    // The asset server reads the world's own folder, so that any file can
    // be given and watched; the demo loads nothing else from disk.
    let absolute = std::path::absolute(&options.world).unwrap_or(options.world.clone());
    let (Some(folder), Some(file_name)) = (absolute.parent(), absolute.file_name()) else {
        eprintln!("error: {} is not a file", options.world.display());
        return ExitCode::from(1);
    };
    let world_path = file_name.to_string_lossy().into_owned();

    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: String::from("kerb: tanks and crowds"),
                    resolution: WindowResolution::new(1280, 720),
                    ..default()
                }),
                ..default()
            })
            .set(AssetPlugin {
                file_path: folder.to_string_lossy().into_owned(),
                watch_for_changes_override: Some(true),
                ..default()
            }),
    )
    .add_plugins((KerbPlugin::default(), KerbEguiPlugin))
    .insert_resource(ClearColor(palette::BACKGROUND))
    .insert_resource(KerbDebugSettings {
        walls: false,
        ..default()
    })
    // Crowds keep clear of each other in the demo; the panel turns it off.
    .insert_resource(AvoidanceSettings {
        enabled: true,
        ..default()
    })
    .insert_resource(UnitGroups::new(vec![
        GroupSettings::new("Tanks", UnitPreset::TANK, 14, 1),
        GroupSettings::new("Pedestrians", UnitPreset::PEDESTRIAN, 360, 12),
    ]))
    .insert_resource(DemoRun {
        frames: options.frames,
        screenshot: options.screenshot,
        frame: 0,
        shot_taken: false,
        send_to: options.send_to,
    })
    .init_resource::<view::Pointer>()
    .init_resource::<reversing::TanksReverse>()
    .init_resource::<status::StatusText>()
    .add_systems(
        EguiPrimaryContextPass,
        (status::draw_overlays, reversing::draw_switch),
    )
    .add_systems(
        Startup,
        (
            view::spawn_camera,
            move |mut commands: Commands, assets: Res<AssetServer>| {
                commands.insert_resource(KerbWorld::new(assets.load(world_path.clone())));
            },
        ),
    )
    .add_systems(
        Update,
        (
            (scenery::draw_world, view::center_camera).chain(),
            units::dress_units,
            units::select_first_tank,
            view::control_camera,
            pointer::pointer_commands,
            reversing::apply_switch,
            status::update_status,
            status::report_blocked,
            screenshot::run_for_frames,
        ),
    );
    if let Some(seed) = options.seed {
        app.insert_resource(KerbSettings { seed, ..default() });
    }
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}
