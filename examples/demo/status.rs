//! The text in the corners: what the mouse does, the world, the groups and
//! the selected unit.

use bevy::prelude::*;
use bevy_kerb::prelude::*;

use crate::options::HELP;

/// The status text in the top right corner.
#[derive(Component)]
pub struct StatusText;

/// A block of light text on a dark backing, placed by `node`'s offsets.
fn overlay_text(text: &str, node: Node) -> impl Bundle {
    (
        Text::new(text),
        TextFont {
            font_size: FontSize::Px(15.0),
            ..default()
        },
        TextColor(Color::srgb(0.92, 0.92, 0.88)),
        BackgroundColor(Color::srgba(0.0, 0.0, 0.0, 0.6)),
        Node {
            position_type: PositionType::Absolute,
            padding: UiRect::all(Val::Px(8.0)),
            ..node
        },
    )
}

/// The help text and the status text.
pub fn spawn_overlays(mut commands: Commands) {
    commands.spawn(overlay_text(
        HELP,
        Node {
            bottom: Val::Px(10.0),
            right: Val::Px(10.0),
            ..default()
        },
    ));
    commands.spawn((
        StatusText,
        overlay_text(
            "",
            Node {
                top: Val::Px(10.0),
                right: Val::Px(10.0),
                ..default()
            },
        ),
    ));
}

/// Says in the log why a unit sent somewhere could not go.
pub fn report_blocked(mut blocked: MessageReader<Blocked>, units: Query<(), With<Destination>>) {
    for message in blocked.read() {
        if units.contains(message.entity) {
            warn!("unit {} cannot go: {}", message.entity, message.reason);
        }
    }
}

pub fn update_status(
    world: Res<KerbWorld>,
    assets: Res<Assets<WorldAsset>>,
    groups: Res<UnitGroups>,
    selected: Query<
        (
            &UnitPose,
            &TurningRadius,
            &Speed,
            Option<&Destination>,
            Option<&FollowedRoute>,
        ),
        With<Selected>,
    >,
    mut text: Single<&mut Text, With<StatusText>>,
) {
    let mut status = match world.get(&assets) {
        Some(w) => format!(
            "world \"{}\": {} walkable polygons",
            w.name,
            w.navmesh.polygon_count()
        ),
        None => String::from("loading world..."),
    };
    if let Some(error) = &world.last_error {
        status.push_str(&format!("\nerror: {error}"));
    }
    for group in &groups.groups {
        status.push_str(&format!(
            "\n{}: {} units, radius {:.1} m",
            group.name, group.count, group.turning_radius
        ));
    }
    match selected.single() {
        Ok((pose, radius, speed, destination, followed)) => {
            status.push_str(&format!(
                "\nselected: ({:.0}, {:.0}), radius {:.1} m, {:.1} m/s, ",
                pose.position.x, pose.position.y, radius.0, speed.0,
            ));
            let route = followed.and_then(|f| f.route().map(|r| (f.leg(), r)));
            let failed = followed.and_then(|f| f.last_error());
            status.push_str(&match (destination, route, failed) {
                (Some(_), Some((leg, route)), _) => format!(
                    "on a route: leg {} of {}, {:.0} m",
                    leg + 1,
                    route.legs().len(),
                    route.length()
                ),
                (Some(_), None, _) => String::from("driving to a destination"),
                (None, _, Some(error)) => format!("wandering\nlast route failed: {error}"),
                (None, _, None) => String::from("wandering (right-click to send it)"),
            });
        }
        Err(_) => status.push_str("\nno unit selected (left-click one)"),
    }
    text.0 = status;
}
