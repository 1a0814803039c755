//! Selecting units and sending them somewhere with the mouse.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::EguiContexts;
use bevy_kerb::prelude::*;

use crate::view::{Pointer, pointer_over_panel};

fn cursor_world(window: &Window, camera: &Camera, transform: &GlobalTransform) -> Option<Vec2> {
    let cursor = window.cursor_position()?;
    camera.viewport_to_world_2d(transform, cursor).ok()
}

pub fn pointer_commands(
    mut commands: Commands,
    mut contexts: EguiContexts,
    buttons: Res<ButtonInput<MouseButton>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform), With<Camera2d>>,
    mut pointer: ResMut<Pointer>,
    units: Query<(Entity, &UnitPose), With<Unit>>,
    selected: Query<Entity, With<Selected>>,
) {
    let over_panel = pointer_over_panel(&mut contexts);
    let Some(at) = cursor_world(&window, camera.0, camera.1) else {
        return;
    };
    if buttons.just_released(MouseButton::Left) && pointer.left_from.is_some() {
        if !pointer.dragged
            && let Some((nearest, pose)) = units.iter().min_by(|a, b| {
                a.1.position
                    .distance(at)
                    .total_cmp(&b.1.position.distance(at))
            })
            && pose.position.distance(at) < 6.0
        {
            for entity in &selected {
                commands.entity(entity).remove::<Selected>();
            }
            commands.entity(nearest).insert(Selected);
        }
        pointer.left_from = None;
        pointer.dragged = false;
    }
    if buttons.just_pressed(MouseButton::Right) && !over_panel {
        pointer.right_from = Some(at);
    }
    if buttons.just_released(MouseButton::Right)
        && let Some(from) = pointer.right_from.take()
    {
        let destination = if from.distance(at) > 2.0 {
            Destination::Pose {
                position: from,
                heading: (at - from).to_angle(),
            }
        } else {
            Destination::Point(from)
        };
        for entity in &selected {
            commands.entity(entity).insert(destination);
        }
    }
}
