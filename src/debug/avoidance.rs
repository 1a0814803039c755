//! Debug drawing of crowd avoidance: bodies, the arcs units chose to keep
//! clear, and the neighbours the selected unit sees.

use bevy::prelude::*;

use super::{KerbDebugSettings, KerbGizmos, SELECTED, Selected};
use crate::avoidance::{AvoidanceSettings, Avoiding, Body};
use crate::components::{Unit, UnitPose};

const BODY: Color = Color::srgba(0.9, 0.9, 0.95, 0.5);
const MAKING_WAY: Color = Color::srgb(1.0, 0.55, 0.1);
const NEIGHBOUR: Color = Color::srgba(0.6, 0.8, 1.0, 0.7);

/// Seconds of the chosen arc drawn ahead of a unit making way.
const ARC_AHEAD: f32 = 1.0;

/// Draws every body and the arc each unit making way has chosen (with
/// [`KerbDebugSettings::avoidance`], or for the selected unit alone), and
/// lines from the selected unit to the neighbours it avoids.
pub(super) fn draw_avoidance(
    settings: Res<KerbDebugSettings>,
    avoidance: Option<Res<AvoidanceSettings>>,
    units: Query<(Entity, &UnitPose, &Body, &Avoiding, Has<Selected>), With<Unit>>,
    mut gizmos: Gizmos<KerbGizmos>,
) {
    for (entity, pose, body, avoiding, selected) in &units {
        if !(settings.avoidance || selected) {
            continue;
        }
        let at = Isometry2d::from_translation(pose.position);
        gizmos.circle_2d(at, body.radius, if selected { SELECTED } else { BODY });
        if let Some(choice) = avoiding.choice() {
            let steps = 12;
            gizmos.linestrip_2d(
                (0..=steps).map(|step| {
                    let time = ARC_AHEAD * step as f32 / steps as f32;
                    kerb_crowd::drive(pose.position, pose.heading, choice, time).0
                }),
                MAKING_WAY,
            );
        }
        if selected && let Some(avoidance) = avoidance.as_deref() {
            draw_neighbours(&mut gizmos, entity, pose.position, avoidance, &units);
        }
    }
}

/// Lines to the nearest neighbours within range, as avoidance picks them.
fn draw_neighbours(
    gizmos: &mut Gizmos<KerbGizmos>,
    entity: Entity,
    position: Vec2,
    avoidance: &AvoidanceSettings,
    units: &Query<(Entity, &UnitPose, &Body, &Avoiding, Has<Selected>), With<Unit>>,
) {
    let range = avoidance.range.max(0.0);
    let mut near: Vec<(f32, Vec2)> = units
        .iter()
        .filter(|(other, ..)| *other != entity)
        .map(|(_, pose, ..)| (pose.position.distance(position), pose.position))
        .filter(|(distance, _)| *distance <= range)
        .collect();
    near.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (_, at) in near.iter().take(avoidance.neighbours) {
        gizmos.line_2d(position, *at, NEIGHBOUR);
    }
}
