//! The text in the corners: what the mouse does, the world, the groups and
//! the selected unit.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use bevy_kerb::prelude::*;

use crate::options::HELP;

/// The status text for the top right corner, made in `Update` and drawn
/// with the panel.
#[derive(Resource, Default)]
pub struct StatusText(pub String);

/// A block of light text on a dark backing in a corner of the window.
fn overlay(context: &egui::Context, id: &str, anchor: egui::Align2, text: &str) {
    let margin = if anchor == egui::Align2::RIGHT_TOP {
        [-10.0, 10.0]
    } else {
        [-10.0, -10.0]
    };
    egui::Area::new(egui::Id::new(id))
        .anchor(anchor, margin)
        .interactable(false)
        .show(context, |ui| {
            egui::Frame::new()
                .fill(egui::Color32::from_black_alpha(160))
                .inner_margin(8.0)
                .corner_radius(4.0)
                .show(ui, |ui| {
                    // One line a fact: the text is written to fit, not wrapped.
                    ui.add(
                        egui::Label::new(
                            egui::RichText::new(text)
                                .size(15.0)
                                .color(egui::Color32::from_rgb(235, 235, 225)),
                        )
                        .wrap_mode(egui::TextWrapMode::Extend),
                    );
                });
        });
}

/// The help text and the status text, over the town.
pub fn draw_overlays(mut contexts: EguiContexts, status: Res<StatusText>) -> Result {
    let context = contexts.ctx_mut()?;
    overlay(context, "help", egui::Align2::RIGHT_BOTTOM, HELP);
    overlay(context, "status", egui::Align2::RIGHT_TOP, &status.0);
    Ok(())
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
            &Motion,
            Option<&Destination>,
            Option<&FollowedRoute>,
        ),
        With<Selected>,
    >,
    mut text: ResMut<StatusText>,
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
        Ok((pose, radius, speed, motion, destination, followed)) => {
            status.push_str(&format!(
                "\nselected: ({:.0}, {:.0}), radius {:.1} m, {:.1} m/s{}, ",
                pose.position.x,
                pose.position.y,
                radius.0,
                speed.0,
                if motion.in_reverse() {
                    ", reversing"
                } else {
                    ""
                },
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
