//! Debug drawing with gizmos (feature `debug`): the navmesh, walls, planned
//! paths and routes, wander circles and targets, the selected unit's
//! polygon, and crowd avoidance.

mod avoidance;

use bevy::prelude::*;
use kerb_navmesh::PolygonId;
use kerb_turning::{Gear, Segment, TurningPath};

use crate::components::{NavLocation, TurningRadius, Unit, UnitPose, Wander};
use crate::state::{FollowedRoute, Motion, WanderMemory};
use crate::world_asset::{KerbWorld, WorldAsset};

/// kerb's own gizmo group, so its line width and visibility can be set
/// apart from the game's gizmos.
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct KerbGizmos;

/// What the debug drawing shows.
#[derive(Resource, Reflect, Clone, Debug, PartialEq)]
#[reflect(Resource, Default, Debug)]
pub struct KerbDebugSettings {
    /// Outline every walkable polygon.
    pub navmesh: bool,
    /// Draw the walls (the walkable area's edges).
    pub walls: bool,
    /// Draw every unit's planned path (the selected unit's is always drawn).
    pub paths: bool,
    /// Draw the route of every unit that follows one: its string-pulled
    /// polyline and the turning paths still to drive.
    pub routes: bool,
    /// Draw wander circles and targets (the selected unit's are always drawn).
    pub wander: bool,
    /// Draw bodies and the arcs units chose to keep clear of each other
    /// (the selected unit's, and lines to its neighbours, are always
    /// drawn).
    pub avoidance: bool,
}

impl Default for KerbDebugSettings {
    fn default() -> Self {
        Self {
            navmesh: false,
            walls: true,
            paths: false,
            routes: true,
            wander: false,
            avoidance: false,
        }
    }
}

/// Marks the unit whose path, wander circle and polygon are always drawn.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Default, Debug)]
pub struct Selected;

/// Adds [`KerbGizmos`], [`KerbDebugSettings`] and the drawing systems.
pub struct KerbDebugPlugin;

impl Plugin for KerbDebugPlugin {
    fn build(&self, app: &mut App) {
        app.init_gizmo_group::<KerbGizmos>()
            .init_resource::<KerbDebugSettings>()
            .register_type::<KerbDebugSettings>()
            .register_type::<Selected>()
            .add_systems(
                PostUpdate,
                (draw_navmesh, draw_units, avoidance::draw_avoidance),
            );
    }
}

const NAVMESH: Color = Color::srgba(0.35, 0.55, 0.75, 0.35);
const WALL: Color = Color::srgb(0.95, 0.45, 0.25);
const PATH: Color = Color::srgb(0.3, 0.9, 0.6);
const WANDER: Color = Color::srgb(0.85, 0.75, 0.3);
pub(crate) const SELECTED: Color = Color::srgb(1.0, 1.0, 1.0);
/// Segments driven in reverse, whoever drives them.
const REVERSE: Color = Color::srgb(0.95, 0.35, 0.85);
const ROUTE_POLYLINE: Color = Color::srgba(0.55, 0.8, 1.0, 0.6);

fn draw_navmesh(
    settings: Res<KerbDebugSettings>,
    world: Res<KerbWorld>,
    assets: Res<Assets<WorldAsset>>,
    mut gizmos: Gizmos<KerbGizmos>,
) {
    let Some(world) = world.get(&assets) else {
        return;
    };
    let mesh = &world.navmesh;
    if settings.navmesh {
        for polygon in mesh.polygon_ids() {
            outline(&mut gizmos, mesh, polygon, NAVMESH);
        }
    }
    if settings.walls {
        for (a, b) in mesh.walls() {
            gizmos.line_2d(a, b, WALL);
        }
    }
}

/// Draws a polygon's closed outline.
fn outline(
    gizmos: &mut Gizmos<KerbGizmos>,
    mesh: &kerb_navmesh::NavMesh,
    polygon: PolygonId,
    color: Color,
) {
    let corners: Vec<Vec2> = mesh.polygon_vertices(polygon).collect();
    gizmos.linestrip_2d(
        corners.iter().copied().chain(corners.first().copied()),
        color,
    );
}

/// Draws the part of a path from `distance` on, sampled every half metre.
/// Draws what is left of a path from `distance` on, as the unit will drive
/// it: lines as lines, arcs sampled finely, and segments driven in reverse
/// in [`REVERSE`] whatever `color` the rest is.
fn draw_path_from(
    gizmos: &mut Gizmos<KerbGizmos>,
    path: &TurningPath,
    distance: f32,
    color: Color,
) {
    let mut start = 0.0;
    for segment in path.segments() {
        let length = segment.length();
        let from = (distance - start).clamp(0.0, length);
        start += length;
        if from >= length {
            continue;
        }
        let color = match segment.gear() {
            Gear::Forward => color,
            Gear::Reverse => REVERSE,
        };
        let steps = match segment {
            Segment::Line { .. } => 1,
            Segment::Arc { .. } => (((length - from) / 0.5).ceil() as usize).clamp(4, 128),
        };
        gizmos.linestrip_2d(
            (0..=steps).map(|i| {
                let along = from + (length - from) * i as f32 / steps as f32;
                segment.sample(along).position
            }),
            color,
        );
    }
}

/// Draws a path as the unit will drive it (see [`draw_path_from`]).
pub(crate) fn draw_path(gizmos: &mut Gizmos<KerbGizmos>, path: &TurningPath, color: Color) {
    draw_path_from(gizmos, path, 0.0, color);
}

fn draw_units(
    settings: Res<KerbDebugSettings>,
    world: Res<KerbWorld>,
    assets: Res<Assets<WorldAsset>>,
    units: Query<
        (
            &UnitPose,
            &Motion,
            &NavLocation,
            &TurningRadius,
            Option<&Wander>,
            Option<&WanderMemory>,
            Option<&FollowedRoute>,
            Has<Selected>,
        ),
        With<Unit>,
    >,
    mut gizmos: Gizmos<KerbGizmos>,
) {
    for (pose, motion, location, radius, wander, memory, followed, selected) in &units {
        let color = if selected { SELECTED } else { PATH };
        let route = followed.and_then(|f| f.route().map(|route| (f.leg(), route)));
        if (settings.paths || selected) && route.is_none() {
            draw_path(&mut gizmos, motion.path(), color);
        }
        if let Some((leg, route)) = route
            && (settings.routes || selected)
        {
            // The string-pulled polyline, then what is left to drive.
            gizmos.linestrip_2d(route.polyline().iter().copied(), ROUTE_POLYLINE);
            draw_path_from(&mut gizmos, motion.path(), motion.travelled(), color);
            for leg in route.legs().iter().skip(leg + 1) {
                draw_path(&mut gizmos, leg, color);
            }
        }
        if let (Some(wander), Some(memory)) = (wander, memory)
            && (settings.wander || selected)
        {
            let params = wander.params();
            let center = pose.position + Vec2::from_angle(pose.heading) * params.offset;
            gizmos.circle_2d(Isometry2d::from_translation(center), params.radius, WANDER);
            if let Some(state) = memory.state() {
                let target = state.target(&params, pose.position, pose.heading);
                gizmos.line_2d(center, target, WANDER);
            }
            if let crate::Goal::Point(goal) = motion.goal() {
                gizmos.circle_2d(Isometry2d::from_translation(goal), 0.4, WANDER);
            }
        }
        if selected {
            gizmos.circle_2d(
                Isometry2d::from_translation(pose.position),
                radius.0,
                SELECTED.with_alpha(0.3),
            );
            if let (Some(polygon), Some(world)) = (location.polygon(), world.get(&assets)) {
                let mesh = &world.navmesh;
                if polygon.index() < mesh.polygon_count() {
                    outline(&mut gizmos, mesh, polygon, SELECTED);
                }
            }
        }
    }
}
