//! A tank that roams the town and a pedestrian sent across it.

use bevy::prelude::*;
use bevy_kerb::prelude::*;

fn main() {
    App::new()
        .add_plugins((DefaultPlugins, KerbPlugin::default())) // runs in FixedUpdate
        .add_systems(Startup, setup)
        .add_systems(Update, report)
        .run();
}

fn setup(mut commands: Commands, assets: Res<AssetServer>) {
    commands.insert_resource(KerbWorld::new(assets.load("worlds/town.world.ron")));
    // A tank that roams: `Unit` brings its pose, path and navmesh location.
    commands.spawn((
        Unit,
        TurningRadius(10.0),
        Speed(4.5),
        Wander {
            offset: 20.0,
            radius: 8.0,
            rate: 0.5,
        },
        Transform::from_xyz(30.0, 5.0, 0.0),
    ));
    // A pedestrian sent somewhere, arriving facing north, using a preset.
    commands.spawn((
        UnitPreset::PEDESTRIAN.unit(),
        Destination::Pose {
            position: Vec2::new(120.0, 64.0),
            heading: std::f32::consts::FRAC_PI_2,
        },
        Transform::from_xyz(10.0, 6.0, 0.0),
    ));
}

fn report(mut arrived: MessageReader<Arrived>, mut blocked: MessageReader<Blocked>) {
    for message in arrived.read() {
        info!("{} arrived", message.entity);
    }
    for message in blocked.read() {
        info!("{} cannot go: {}", message.entity, message.reason);
    }
}
