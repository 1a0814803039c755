//! Tanks may reverse: a switch in the corner, and reverse gear given to
//! every tank (or taken away) as it flips.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use bevy_kerb::prelude::*;

/// Turning radii at least this wide are tanks, which the switch is for.
const TANK_RADIUS_FROM: f32 = 5.0;

/// Whether the demo's tanks may reverse (on at start).
#[derive(Resource)]
pub struct TanksReverse(pub bool);

impl Default for TanksReverse {
    fn default() -> Self {
        Self(true)
    }
}

/// The switch, under the status text.
pub fn draw_switch(mut contexts: EguiContexts, mut reverse: ResMut<TanksReverse>) -> Result {
    let context = contexts.ctx_mut()?;
    egui::Area::new(egui::Id::new("reversing"))
        .anchor(egui::Align2::RIGHT_BOTTOM, [-10.0, -80.0])
        .show(context, |ui| {
            egui::Frame::new()
                .fill(egui::Color32::from_black_alpha(200))
                .inner_margin(6.0)
                .show(ui, |ui| {
                    let mut on = reverse.0;
                    ui.checkbox(&mut on, "tanks may reverse (three-point turns, parking)");
                    if on != reverse.0 {
                        reverse.0 = on;
                    }
                });
        });
    Ok(())
}

/// Gives every tank reverse gear while the switch is on, and takes it away
/// when it is off; new tanks get it as they are spawned.
pub fn apply_switch(
    mut commands: Commands,
    reverse: Res<TanksReverse>,
    tanks: Query<(Entity, &TurningRadius, Has<ReverseGear>, Ref<Unit>)>,
) {
    for (entity, radius, has_gear, unit) in &tanks {
        if radius.0 < TANK_RADIUS_FROM || !(reverse.is_changed() || unit.is_added()) {
            continue;
        }
        match (reverse.0, has_gear) {
            (true, false) => {
                commands.entity(entity).insert(ReverseGear::default());
            }
            (false, true) => {
                commands.entity(entity).remove::<ReverseGear>();
            }
            _ => {}
        }
    }
}
