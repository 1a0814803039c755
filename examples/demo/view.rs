//! The camera: where it starts, and panning and zooming with the mouse.

use bevy::camera::ScalingMode;
use bevy::input::mouse::{AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::EguiContexts;

/// How many metres the window shows across at start.
pub const VIEW_WIDTH: f32 = 230.0;

/// Where the camera should look next: set when the world first loads.
#[derive(Resource)]
pub struct CenterOn(pub Vec2);

/// Mouse state for drags and clicks.
#[derive(Resource, Default)]
pub struct Pointer {
    pub left_from: Option<Vec2>,
    pub dragged: bool,
    pub right_from: Option<Vec2>,
}

/// Close enough to tell tanks from pedestrians; scroll out to see it all.
pub fn spawn_camera(mut commands: Commands) {
    let view = Vec2::new(VIEW_WIDTH, VIEW_WIDTH * 9.0 / 16.0);
    commands.spawn((
        Camera2d,
        Projection::from(OrthographicProjection {
            scaling_mode: ScalingMode::AutoMin {
                min_width: view.x,
                min_height: view.y,
            },
            ..OrthographicProjection::default_2d()
        }),
        Transform::from_xyz(0.0, 0.0, 100.0),
    ));
}

/// Looks at the middle of the town once it has loaded, leaving room on the
/// left for the panel.
pub fn center_camera(
    mut commands: Commands,
    center: Option<Res<CenterOn>>,
    mut camera: Single<&mut Transform, With<Camera2d>>,
) {
    let Some(center) = center else {
        return;
    };
    let offset = Vec2::new(VIEW_WIDTH * 0.12, 0.0);
    camera.translation = (center.0 - offset).extend(camera.translation.z);
    commands.remove_resource::<CenterOn>();
}

pub fn pointer_over_panel(contexts: &mut EguiContexts) -> bool {
    contexts
        .ctx_mut()
        .map(|context| context.is_pointer_over_egui() || context.egui_wants_pointer_input())
        .unwrap_or(false)
}

pub fn control_camera(
    mut contexts: EguiContexts,
    buttons: Res<ButtonInput<MouseButton>>,
    scroll: Res<AccumulatedMouseScroll>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut camera: Single<(&mut Transform, &mut Projection), With<Camera2d>>,
    mut pointer: ResMut<Pointer>,
) {
    let over_panel = pointer_over_panel(&mut contexts);
    let (transform, projection) = &mut *camera;
    let Projection::Orthographic(ortho) = projection.as_mut() else {
        return;
    };
    if !over_panel && scroll.delta.y != 0.0 {
        let lines = match scroll.unit {
            MouseScrollUnit::Line => scroll.delta.y,
            MouseScrollUnit::Pixel => scroll.delta.y / 40.0,
        };
        ortho.scale = (ortho.scale * 0.9f32.powf(lines)).clamp(0.05, 4.0);
    }
    let Some(cursor) = window.cursor_position() else {
        return;
    };
    if buttons.just_pressed(MouseButton::Left) && !over_panel {
        pointer.left_from = Some(cursor);
        pointer.dragged = false;
    }
    if buttons.pressed(MouseButton::Left)
        && let Some(from) = pointer.left_from
    {
        let delta = cursor - from;
        if delta.length() > 3.0 || pointer.dragged {
            pointer.dragged = true;
            // Screen pixels to world metres at the current zoom.
            let world_per_pixel = ortho.area.width() / window.width();
            transform.translation.x -= delta.x * world_per_pixel;
            transform.translation.y += delta.y * world_per_pixel;
            pointer.left_from = Some(cursor);
        }
    }
}
