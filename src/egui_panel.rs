//! The live tuning panel (feature `egui`): per-group sliders, debug
//! toggles, simulation controls and counters.

use std::time::Duration;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPlugin, EguiPrimaryContextPass, egui};

use crate::Unit;
use crate::avoidance::AvoidanceSettings;
use crate::debug::{KerbDebugPlugin, KerbDebugSettings};
use crate::groups::{GroupMember, RestartGroups, UnitGroups, UnitGroupsPlugin};
use crate::messages::{Arrived, Blocked};
use crate::settings::{KerbSettings, KerbStats};

/// The tuning panel. Adds `EguiPlugin`, [`KerbDebugPlugin`] and
/// [`UnitGroupsPlugin`] when the app does not have them yet.
pub struct KerbEguiPlugin;

impl Plugin for KerbEguiPlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<EguiPlugin>() {
            app.add_plugins(EguiPlugin::default());
        }
        if !app.is_plugin_added::<KerbDebugPlugin>() {
            app.add_plugins(KerbDebugPlugin);
        }
        if !app.is_plugin_added::<UnitGroupsPlugin>() {
            app.add_plugins(UnitGroupsPlugin);
        }
        app.init_resource::<PanelState>()
            .add_systems(Startup, show_current_seed)
            .add_systems(Update, (count_messages, single_step).chain())
            .add_systems(EguiPrimaryContextPass, draw_panel);
    }
}

/// The panel's own state: simulation controls and rolling counters.
#[derive(Resource, Debug)]
pub struct PanelState {
    /// The seed typed into the panel, applied on restart.
    pub seed: u64,
    /// Simulation speed relative to real time.
    pub time_scale: f32,
    /// Run exactly one fixed tick on the next frame while paused.
    pub step_requested: bool,
    arrived_per_second: f32,
    blocked_per_second: f32,
    contacts_per_second: f32,
    taken_back_per_second: f32,
    window: (Duration, u32, u32),
    contacts_at_window_start: u64,
    taken_back_at_window_start: u64,
    fps: f32,
}

impl Default for PanelState {
    fn default() -> Self {
        Self {
            seed: KerbSettings::default().seed,
            time_scale: 1.0,
            step_requested: false,
            arrived_per_second: 0.0,
            blocked_per_second: 0.0,
            contacts_per_second: 0.0,
            taken_back_per_second: 0.0,
            window: (Duration::ZERO, 0, 0),
            contacts_at_window_start: 0,
            taken_back_at_window_start: 0,
            fps: 0.0,
        }
    }
}

/// Shows the seed the run actually uses (an app may have set its own).
fn show_current_seed(settings: Res<KerbSettings>, mut state: ResMut<PanelState>) {
    state.seed = settings.seed;
}

fn count_messages(
    time: Res<Time<Real>>,
    stats: Res<KerbStats>,
    mut state: ResMut<PanelState>,
    mut arrived: MessageReader<Arrived>,
    mut blocked: MessageReader<Blocked>,
) {
    let (elapsed, arrivals, blocks) = state.window;
    let elapsed = elapsed + time.delta();
    let arrivals = arrivals + arrived.read().count() as u32;
    let blocks = blocks + blocked.read().count() as u32;
    if time.delta_secs() > 0.0 {
        let fps = 1.0 / time.delta_secs();
        state.fps = if state.fps == 0.0 {
            fps
        } else {
            state.fps * 0.95 + fps * 0.05
        };
    }
    if elapsed >= Duration::from_secs(1) {
        let seconds = elapsed.as_secs_f32();
        state.arrived_per_second = arrivals as f32 / seconds;
        state.blocked_per_second = blocks as f32 / seconds;
        let contacts = stats
            .contacts_total
            .saturating_sub(state.contacts_at_window_start);
        state.contacts_per_second = contacts as f32 / seconds;
        state.contacts_at_window_start = stats.contacts_total;
        let taken_back = stats
            .moves_taken_back_total
            .saturating_sub(state.taken_back_at_window_start);
        state.taken_back_per_second = taken_back as f32 / seconds;
        state.taken_back_at_window_start = stats.moves_taken_back_total;
        state.window = (Duration::ZERO, 0, 0);
    } else {
        state.window = (elapsed, arrivals, blocks);
    }
}

/// While paused, runs one fixed tick when asked.
fn single_step(world: &mut World) {
    let requested = std::mem::take(&mut world.resource_mut::<PanelState>().step_requested);
    if !requested || !world.resource::<Time<Virtual>>().is_paused() {
        return;
    }
    let step = world.resource::<Time<Fixed>>().timestep();
    world.resource_mut::<Time<Fixed>>().advance_by(step);
    let saved = *world.resource::<Time>();
    *world.resource_mut::<Time>() = world.resource::<Time<Fixed>>().as_generic();
    world.run_schedule(bevy::app::FixedMain);
    *world.resource_mut::<Time>() = saved;
}

/// The tick rates the panel offers, in ticks a second.
const TICK_RATES: [f64; 3] = [10.0, 30.0, 64.0];

fn slider(ui: &mut egui::Ui, value: &mut f32, range: std::ops::RangeInclusive<f32>, label: &str) {
    ui.add(
        egui::Slider::new(value, range)
            .text(label)
            .clamping(egui::SliderClamping::Always),
    );
}

/// A checkbox for a setting, read through a copy so that an unchanged panel
/// does not mark the setting changed every frame: the new value, if it was
/// clicked.
fn toggled(ui: &mut egui::Ui, current: bool, label: &str, hover: &str) -> Option<bool> {
    let mut value = current;
    ui.checkbox(&mut value, label).on_hover_text(hover);
    (value != current).then_some(value)
}

fn draw_panel(
    mut contexts: EguiContexts,
    mut groups: ResMut<UnitGroups>,
    mut debug: ResMut<KerbDebugSettings>,
    mut settings: ResMut<KerbSettings>,
    mut avoidance: ResMut<AvoidanceSettings>,
    mut state: ResMut<PanelState>,
    mut virtual_time: ResMut<Time<Virtual>>,
    mut fixed: ResMut<Time<Fixed>>,
    mut restart: MessageWriter<RestartGroups>,
    stats: Res<KerbStats>,
    units: Query<(), With<Unit>>,
    members: Query<&GroupMember>,
) -> Result {
    let context = contexts.ctx_mut()?;
    // A window shorter than the panel (720 pixels is) scrolls the panel
    // rather than cutting off the simulation controls at the bottom. The
    // panel lays out in this height and then takes its content's, so a
    // taller window leaves no blank below it.
    let height = (context.content_rect().height() - 20.0).max(100.0);
    egui::Window::new("kerb tuning")
        .default_pos([10.0, 10.0])
        .default_width(300.0)
        .default_height(height)
        .max_height(height)
        .resizable(false)
        .show(context, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                ui.heading("Counters");
                // Two counters a row, so that the whole panel fits a 720-pixel
                // window without scrolling.
                let counters = [
                    ("FPS", format!("{:.0}", state.fps)),
                    ("units", units.iter().count().to_string()),
                    (
                        "ms per tick",
                        format!("{:.2}", stats.last_tick.as_secs_f64() * 1e3),
                    ),
                    ("arrived / s", format!("{:.1}", state.arrived_per_second)),
                    ("blocked / s", format!("{:.1}", state.blocked_per_second)),
                    // Contacts are counted only while units avoid each other.
                    (
                        "contacts / s",
                        if avoidance.enabled {
                            format!("{:.1}", state.contacts_per_second)
                        } else {
                            "not counted".to_string()
                        },
                    ),
                    // Moves that would have made contact, taken back.
                    (
                        "taken back / s",
                        if avoidance.enabled {
                            format!("{:.1}", state.taken_back_per_second)
                        } else {
                            "off".to_string()
                        },
                    ),
                ];
                egui::Grid::new("counters").num_columns(4).show(ui, |ui| {
                    for row in counters.chunks(2) {
                        for (name, value) in row {
                            ui.label(*name);
                            ui.label(value);
                        }
                        ui.end_row();
                    }
                });

                ui.separator();
                ui.heading("Groups");
                for (index, group) in groups.groups.iter_mut().enumerate() {
                    let members = members.iter().filter(|m| m.0 == index).count();
                    egui::CollapsingHeader::new(format!("{} ({members})", group.name))
                        .default_open(true)
                        .id_salt(index)
                        .show(ui, |ui| {
                            slider(
                                ui,
                                &mut group.turning_radius,
                                0.2..=40.0,
                                "turning radius (m)",
                            );
                            slider(
                                ui,
                                &mut group.wander.offset,
                                0.0..=60.0,
                                "wander offset (m)",
                            );
                            slider(
                                ui,
                                &mut group.wander.radius,
                                0.0..=30.0,
                                "wander radius (m)",
                            );
                            slider(
                                ui,
                                &mut group.wander.rate,
                                0.0..=5.0,
                                "wander rate (rad/√s)",
                            );
                            slider(ui, &mut group.speed, 0.0..=20.0, "speed (m/s)");
                            ui.add(
                                egui::Slider::new(&mut group.count, 0..=5000)
                                    .text("units")
                                    .clamping(egui::SliderClamping::Always),
                            );
                        });
                }

                ui.separator();
                ui.heading("Show");
                egui::Grid::new("show").num_columns(2).show(ui, |ui| {
                    ui.checkbox(&mut debug.paths, "planned paths");
                    ui.checkbox(&mut debug.routes, "routes");
                    ui.end_row();
                    ui.checkbox(&mut debug.wander, "wander circles")
                        .on_hover_text("each wanderer's wander circle and target");
                    ui.checkbox(&mut debug.navmesh, "navmesh");
                    ui.end_row();
                    ui.checkbox(&mut debug.walls, "walls");
                    ui.checkbox(&mut debug.avoidance, "avoidance")
                        .on_hover_text("bodies, and the arcs units chose to keep clear");
                    ui.end_row();
                });

                ui.separator();
                ui.heading("Simulation");
                ui.horizontal(|ui| {
                    let paused = virtual_time.is_paused();
                    if ui.button(if paused { "Resume" } else { "Pause" }).clicked() {
                        if paused {
                            virtual_time.unpause();
                        } else {
                            virtual_time.pause();
                        }
                    }
                    if ui.add_enabled(paused, egui::Button::new("Step")).clicked() {
                        state.step_requested = true;
                    }
                });
                // kerb's tick rate, so that anyone can see what drawing
                // between ticks does at a slow one.
                ui.horizontal(|ui| {
                    ui.label("ticks / s");
                    let current = (1.0 / fixed.timestep().as_secs_f64()).round();
                    for hz in TICK_RATES {
                        if ui
                            .selectable_label(current == hz, format!("{hz}"))
                            .clicked()
                        {
                            fixed.set_timestep_hz(hz);
                        }
                    }
                });
                let avoid_hover = "bodies keep clear of each other on arcs the units can drive";
                if let Some(avoid) =
                    toggled(ui, avoidance.enabled, "units avoid each other", avoid_hover)
                {
                    avoidance.enabled = avoid;
                }
                let mut horizon = avoidance.horizon;
                slider(ui, &mut horizon, 0.5..=5.0, "avoidance horizon (s)");
                if horizon != avoidance.horizon {
                    avoidance.horizon = horizon;
                }
                let smooth_hover = "draw moving units on their paths between fixed ticks";
                if let Some(smooth) = toggled(
                    ui,
                    settings.draw_between_ticks,
                    "draw between ticks",
                    smooth_hover,
                ) {
                    settings.draw_between_ticks = smooth;
                }
                let mut scale = state.time_scale;
                slider(ui, &mut scale, 0.1..=4.0, "time scale");
                if scale != state.time_scale {
                    state.time_scale = scale;
                    virtual_time.set_relative_speed(scale);
                }
                ui.horizontal(|ui| {
                    ui.label("seed");
                    ui.add(egui::DragValue::new(&mut state.seed));
                    if ui.button("Restart").clicked() {
                        settings.seed = state.seed;
                        restart.write(RestartGroups);
                    }
                });
            });
        });
    Ok(())
}
