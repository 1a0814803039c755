//! Tanks and crowds wandering a town, with the live tuning panel.
//!
//! ```sh
//! cargo run --release --example demo [-- --seed S --world PATH --frames N --screenshot FILE]
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

use bevy::asset::RenderAssetUsages;
use bevy::camera::ScalingMode;
use bevy::input::mouse::{AccumulatedMouseScroll, MouseScrollUnit};
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::window::{PrimaryWindow, WindowResolution};
use bevy_egui::EguiContexts;
use bevy_kerb::kerb_navmesh::{ModelKind, RouteGoal, World as TownWorld, WorldFile};
use bevy_kerb::prelude::*;

/// How many metres the window shows across at start.
const VIEW_WIDTH: f32 = 230.0;

const HELP: &str = "Left-drag: pan   Scroll: zoom   Left-click: select a unit\n\
Right-click: send the selected unit there (its route is drawn)\n\
Right-drag: ...and face the drag direction";

/// Command-line options.
struct Options {
    world: PathBuf,
    seed: Option<u64>,
    frames: Option<u32>,
    screenshot: Option<PathBuf>,
    send_to: Option<Vec2>,
}

fn parse_options() -> Result<Options, String> {
    let mut options = Options {
        world: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/worlds/town.world.ron"),
        seed: None,
        frames: None,
        screenshot: None,
        send_to: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--world" => options.world = PathBuf::from(value("--world")?),
            "--seed" => {
                let text = value("--seed")?;
                options.seed = Some(
                    text.parse()
                        .map_err(|_| format!("--seed must be a whole number, not {text:?}"))?,
                );
            }
            "--frames" => {
                let text = value("--frames")?;
                options.frames = Some(
                    text.parse()
                        .map_err(|_| format!("--frames must be a whole number, not {text:?}"))?,
                );
            }
            "--screenshot" => options.screenshot = Some(PathBuf::from(value("--screenshot")?)),
            "--send-to" => {
                let text = value("--send-to")?;
                let parsed = text.split_once(',').and_then(|(x, y)| {
                    Some(Vec2::new(x.trim().parse().ok()?, y.trim().parse().ok()?))
                });
                options.send_to =
                    Some(parsed.ok_or(format!("--send-to must be X,Y in metres, not {text:?}"))?);
            }
            "--help" | "-h" => {
                println!(
                    "usage: demo [--world PATH] [--seed S] [--frames N] [--screenshot FILE] [--send-to X,Y]\n\n\
                     --send-to: where the first selected tank is sent at start (default: across the view)\n\n{HELP}"
                );
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other:?} (try --help)")),
        }
    }
    Ok(options)
}

/// The world, read and validated before any window opens, so a bad path or
/// file is a clear message and a non-zero exit.
fn load_world(path: &PathBuf) -> Result<(WorldFile, TownWorld), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read world {}: {e}", path.display()))?;
    let file =
        WorldFile::from_ron(&text).map_err(|e| format!("invalid world {}: {e}", path.display()))?;
    let world = file
        .validate()
        .map_err(|e| format!("invalid world {}: {e}", path.display()))?;
    Ok((file, world))
}

fn main() -> ExitCode {
    let options = match parse_options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    let (file, world) = match load_world(&options.world) {
        Ok(loaded) => loaded,
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

    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: String::from("kerb: tanks and crowds"),
            resolution: WindowResolution::new(1280, 720),
            ..default()
        }),
        ..default()
    }))
    .add_plugins((KerbPlugin::default(), KerbEguiPlugin))
    .insert_resource(ClearColor(palette::BACKGROUND))
    .insert_resource(KerbDebugSettings {
        walls: false,
        ..default()
    })
    .insert_resource(UnitGroups::new(vec![
        GroupSettings {
            name: String::from("Tanks"),
            turning_radius: 11.0,
            speed: 4.5,
            wander: Wander {
                offset: 22.0,
                radius: 9.0,
                rate: 0.5,
            },
            count: 14,
            cluster_size: 1,
        },
        GroupSettings {
            name: String::from("Pedestrians"),
            turning_radius: 0.8,
            speed: 1.4,
            wander: Wander {
                offset: 3.0,
                radius: 1.5,
                rate: 1.2,
            },
            count: 360,
            cluster_size: 12,
        },
    ]))
    .insert_resource(Scenery(file))
    .insert_resource(DemoOptions {
        frames: options.frames,
        screenshot: options.screenshot,
        frame: 0,
        shot_taken: false,
        send_to: options.send_to,
    })
    .init_resource::<Pointer>()
    .add_systems(Startup, (setup_world, setup_scene).chain())
    .add_systems(
        Update,
        (
            dress_units,
            select_first_tank,
            control_camera,
            pointer_commands,
            update_status,
            report_blocked,
            run_for_frames,
        ),
    );
    if let Some(seed) = options.seed {
        app.insert_resource(KerbSettings { seed, ..default() });
    }
    let kerb_world = KerbWorld::from_built(
        world,
        &mut app.world_mut().resource_mut::<Assets<WorldAsset>>(),
    );
    app.insert_resource(kerb_world);
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}

/// The colours, chosen to read as a town at dusk: dark ground, warm
/// pavements, units in saturated colours that stand out from the scenery.
mod palette {
    use bevy::prelude::Color;
    pub const BACKGROUND: Color = Color::srgb(0.16, 0.19, 0.15);
    pub const ROAD: Color = Color::srgb(0.23, 0.25, 0.28);
    pub const PAVEMENT: Color = Color::srgb(0.52, 0.48, 0.42);
    pub const PLAZA: Color = Color::srgb(0.62, 0.56, 0.46);
    pub const BUILDING: Color = Color::srgb(0.30, 0.20, 0.17);
    pub const BUILDING_ROOF: Color = Color::srgb(0.55, 0.33, 0.25);
    pub const PARK: Color = Color::srgb(0.22, 0.42, 0.22);
    pub const WATER: Color = Color::srgb(0.20, 0.42, 0.62);
    pub const TANK_HULL: Color = Color::srgb(0.42, 0.50, 0.20);
    pub const TANK_TURRET: Color = Color::srgb(0.60, 0.70, 0.28);
    pub const PEDESTRIANS: [Color; 5] = [
        Color::srgb(0.95, 0.35, 0.30),
        Color::srgb(0.98, 0.75, 0.25),
        Color::srgb(0.35, 0.75, 0.95),
        Color::srgb(0.90, 0.45, 0.85),
        Color::srgb(0.95, 0.95, 0.95),
    ];
    pub const FACING: Color = Color::srgb(0.1, 0.1, 0.1);
}

#[derive(Resource)]
struct Scenery(WorldFile);

#[derive(Resource)]
struct DemoOptions {
    frames: Option<u32>,
    screenshot: Option<PathBuf>,
    frame: u32,
    shot_taken: bool,
    send_to: Option<Vec2>,
}

/// Mouse state for drags and clicks.
#[derive(Resource, Default)]
struct Pointer {
    left_from: Option<Vec2>,
    dragged: bool,
    right_from: Option<Vec2>,
}

#[derive(Component)]
struct StatusText;

#[derive(Component)]
struct Dressed;

/// A triangle-fan mesh of convex polygons.
fn polygons_mesh(polygons: impl Iterator<Item = Vec<Vec2>>) -> Mesh {
    let mut positions: Vec<[f32; 3]> = Vec::new();
    let mut indices: Vec<u32> = Vec::new();
    for corners in polygons {
        let first = positions.len() as u32;
        positions.extend(corners.iter().map(|p| [p.x, p.y, 0.0]));
        for i in 1..corners.len().saturating_sub(1) as u32 {
            indices.extend([first, first + i, first + i + 1]);
        }
    }
    Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::default(),
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_indices(Indices::U32(indices))
}

fn model_polygons(
    model: &bevy_kerb::kerb_navmesh::Model,
    inset: f32,
) -> impl Iterator<Item = Vec<Vec2>> + '_ {
    model.polygons.iter().map(move |polygon| {
        let corners: Vec<Vec2> = polygon
            .iter()
            .filter_map(|&i| {
                model
                    .vertices
                    .get(i as usize)
                    .map(|&(x, y)| Vec2::new(x, y))
            })
            .collect();
        if inset == 0.0 || corners.is_empty() {
            return corners;
        }
        let center = corners.iter().copied().sum::<Vec2>() / corners.len() as f32;
        corners
            .iter()
            .map(|&c| c + (center - c).normalize_or_zero() * inset)
            .collect()
    })
}

fn setup_world(
    mut commands: Commands,
    scenery: Res<Scenery>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    for model in &scenery.0.models {
        let walkable = model.kind == ModelKind::Walkable;
        let (color, z) = match (model.kind, model.name.as_str()) {
            (ModelKind::Walkable, "pavements") => (palette::PAVEMENT, 0.1),
            (ModelKind::Walkable, "plazas") => (palette::PLAZA, 0.1),
            (ModelKind::Walkable, _) => (palette::ROAD, 0.0),
            (ModelKind::Building, _) => (palette::BUILDING, 0.3),
            (ModelKind::Park, _) => (palette::PARK, 0.3),
            (ModelKind::Water, _) => (palette::WATER, 0.4),
        };
        let mesh = meshes.add(polygons_mesh(model_polygons(model, 0.0)));
        commands.spawn((
            Mesh2d(mesh),
            MeshMaterial2d(materials.add(color)),
            Transform::from_xyz(0.0, 0.0, z),
        ));
        if model.kind == ModelKind::Building && !walkable {
            // A lighter roof inset inside each footprint gives the blocks depth.
            let roof = meshes.add(polygons_mesh(model_polygons(model, 1.2)));
            commands.spawn((
                Mesh2d(roof),
                MeshMaterial2d(materials.add(palette::BUILDING_ROOF)),
                Transform::from_xyz(0.0, 0.0, z + 0.05),
            ));
        }
    }
}

fn setup_scene(mut commands: Commands, world: Res<KerbWorld>, assets: Res<Assets<WorldAsset>>) {
    // Start close enough to tell tanks from pedestrians, over the middle
    // of town where the roundabout is; scroll out to see it all.
    let center = world.get(&assets).map_or(Vec2::ZERO, |w| {
        (w.navmesh.bounds().min + w.navmesh.bounds().max) / 2.0
    });
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
        // Leave room on the left for the panel.
        Transform::from_translation((center - Vec2::new(view.x * 0.12, 0.0)).extend(100.0)),
    ));
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

/// Gives new units their look: a tank is a hull and a turret with a gun, a
/// pedestrian a body with a mark showing which way they face.
fn dress_units(
    mut commands: Commands,
    units: Query<(Entity, &GroupMember), (With<Unit>, Without<Dressed>)>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut cache: Local<Option<[(Handle<Mesh>, Handle<ColorMaterial>); 4]>>,
    mut pedestrian_materials: Local<Vec<Handle<ColorMaterial>>>,
) {
    let [hull, turret, gun, facing] = cache
        .get_or_insert_with(|| {
            [
                (
                    meshes.add(Rectangle::new(6.4, 3.6)),
                    materials.add(palette::TANK_HULL),
                ),
                (
                    meshes.add(Circle::new(1.3)),
                    materials.add(palette::TANK_TURRET),
                ),
                (
                    meshes.add(Rectangle::new(3.6, 0.5)),
                    materials.add(palette::TANK_TURRET),
                ),
                (
                    meshes.add(Triangle2d::new(
                        Vec2::new(0.6, 0.0),
                        Vec2::new(0.0, 0.3),
                        Vec2::new(0.0, -0.3),
                    )),
                    materials.add(palette::FACING),
                ),
            ]
        })
        .clone();
    if pedestrian_materials.is_empty() {
        *pedestrian_materials = palette::PEDESTRIANS
            .iter()
            .map(|&c| materials.add(c))
            .collect();
    }
    let body = meshes.add(Circle::new(0.6));
    for (entity, member) in &units {
        let mut unit = commands.entity(entity);
        unit.insert((Dressed, Visibility::default()));
        if member.0 == 0 {
            unit.with_children(|parent| {
                parent.spawn((
                    Mesh2d(hull.0.clone()),
                    MeshMaterial2d(hull.1.clone()),
                    Transform::from_xyz(0.0, 0.0, 0.0),
                ));
                parent.spawn((
                    Mesh2d(gun.0.clone()),
                    MeshMaterial2d(gun.1.clone()),
                    Transform::from_xyz(2.2, 0.0, 0.1),
                ));
                parent.spawn((
                    Mesh2d(turret.0.clone()),
                    MeshMaterial2d(turret.1.clone()),
                    Transform::from_xyz(-0.3, 0.0, 0.2),
                ));
            });
        } else {
            let color = pedestrian_materials
                [(entity.index_u32() as usize) % pedestrian_materials.len()]
            .clone();
            unit.with_children(|parent| {
                parent.spawn((
                    Mesh2d(body.clone()),
                    MeshMaterial2d(color),
                    Transform::default(),
                ));
                parent.spawn((
                    Mesh2d(facing.0.clone()),
                    MeshMaterial2d(facing.1.clone()),
                    Transform::from_xyz(0.0, 0.0, 0.1),
                ));
            });
        }
    }
}

/// Selects the tank nearest the middle of the view and sends it, and the
/// pedestrian nearest it, across the view, so that both routes show from
/// the start: the tank's swings wide, the pedestrian's hugs the corners.
fn select_first_tank(
    mut commands: Commands,
    mut done: Local<bool>,
    options: Res<DemoOptions>,
    settings: Res<KerbSettings>,
    world: Res<KerbWorld>,
    assets: Res<Assets<WorldAsset>>,
    units: Query<(
        Entity,
        &GroupMember,
        &NavLocation,
        &UnitPose,
        &TurningRadius,
    )>,
    selected: Query<(), With<Selected>>,
    camera: Single<&Transform, With<Camera2d>>,
) {
    if *done || !selected.is_empty() {
        return;
    }
    let Some(world) = world.get(&assets) else {
        return;
    };
    let mesh = &world.navmesh;
    let middle = camera.translation.truncate() + Vec2::new(VIEW_WIDTH * 0.12, 0.0);
    let nearest = |group: usize, to: Vec2| {
        units
            .iter()
            .filter(|(_, m, l, ..)| m.0 == group && l.polygon.is_some())
            .min_by(|a, b| {
                a.3.position
                    .distance(to)
                    .total_cmp(&b.3.position.distance(to))
            })
    };
    let Some((tank, _, _, pose, radius)) = nearest(0, middle) else {
        return;
    };
    commands.entity(tank).insert(Selected);
    *done = true;
    // A goal across the view the tank can drive to as it stands, one round a
    // corner if there is one, so that the two routes differ.
    let view = Vec2::new(VIEW_WIDTH, VIEW_WIDTH * 9.0 / 16.0);
    let across = [
        (-0.3, 0.3),
        (0.3, 0.3),
        (-0.3, -0.3),
        (0.3, -0.3),
        (-0.35, 0.0),
        (0.35, 0.0),
    ]
    .map(|(x, y)| middle + Vec2::new(x, y) * view);
    let clearance = settings.clearance.max(0.05);
    let goal = match options.send_to {
        Some(wanted) => mesh.nearest_point(wanted).map(|(goal, _)| goal),
        None => {
            let mut first_drivable = None;
            across
                .into_iter()
                .filter_map(|wanted| mesh.nearest_point(wanted).map(|(goal, _)| goal))
                .filter_map(|goal| {
                    mesh.plan_route(pose.to_pose(), RouteGoal::Point(goal), radius.0, clearance)
                        .ok()
                        .map(|route| (goal, sharpest_bend(route.polyline())))
                })
                .inspect(|&(goal, _)| {
                    first_drivable.get_or_insert(goal);
                })
                .find(|&(_, bend)| bend > 0.5)
                .map(|(goal, _)| goal)
                .or(first_drivable)
        }
    };
    let Some(goal) = goal else {
        return;
    };
    commands.entity(tank).insert(Destination::Point(goal));
    info!("sent tank {tank} to ({:.0}, {:.0})", goal.x, goal.y);
    // The pedestrian nearest the tank that has a route there too (one
    // pinned against a wall facing out has none until it backs off).
    let mut walkers: Vec<_> = units
        .iter()
        .filter(|(_, m, l, ..)| m.0 == 1 && l.polygon.is_some())
        .collect();
    walkers.sort_by(|a, b| {
        a.3.position
            .distance(pose.position)
            .total_cmp(&b.3.position.distance(pose.position))
    });
    if let Some((walker, ..)) = walkers.into_iter().take(20).find(|(_, _, _, p, r)| {
        mesh.plan_route(p.to_pose(), RouteGoal::Point(goal), r.0, clearance)
            .is_ok()
    }) {
        commands.entity(walker).insert(Destination::Point(goal));
        info!("sent pedestrian {walker} there too");
    }
}

/// The largest change of direction, in radians, at any point of `polyline`.
fn sharpest_bend(polyline: &[Vec2]) -> f32 {
    polyline
        .windows(3)
        .map(|points| {
            let (incoming, outgoing) = (points[1] - points[0], points[2] - points[1]);
            incoming.angle_to(outgoing).abs()
        })
        .fold(0.0, f32::max)
}

fn cursor_world(window: &Window, camera: &Camera, transform: &GlobalTransform) -> Option<Vec2> {
    let cursor = window.cursor_position()?;
    camera.viewport_to_world_2d(transform, cursor).ok()
}

fn pointer_over_panel(contexts: &mut EguiContexts) -> bool {
    contexts
        .ctx_mut()
        .map(|context| context.is_pointer_over_egui() || context.egui_wants_pointer_input())
        .unwrap_or(false)
}

fn control_camera(
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

fn pointer_commands(
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

/// Says in the log why a unit sent somewhere could not go.
fn report_blocked(mut blocked: MessageReader<Blocked>, units: Query<&FollowedRoute>) {
    for message in blocked.read() {
        if let Ok(followed) = units.get(message.entity)
            && let Some(error) = followed.last_error
        {
            warn!("unit {} has no route: {error}", message.entity);
        }
    }
}

fn update_status(
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
            let route = followed.and_then(|f| f.route.as_ref().map(|r| (f.leg, r)));
            let failed = followed.and_then(|f| f.last_error);
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

/// `--frames N` and `--screenshot FILE`: run N frames, save the last one,
/// exit with status 0.
fn run_for_frames(
    mut commands: Commands,
    mut options: ResMut<DemoOptions>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(frames) = options.frames.or(options.screenshot.as_ref().map(|_| 180)) else {
        return;
    };
    options.frame += 1;
    if options.frame == frames
        && let Some(path) = options.screenshot.clone()
    {
        // A file left there by an earlier run would pass for this one's
        // screenshot below, and the demo would exit before taking it.
        if let Err(error) = std::fs::remove_file(&path)
            && error.kind() != std::io::ErrorKind::NotFound
        {
            eprintln!("error: cannot replace {}: {error}", path.display());
            exit.write(AppExit::error());
            return;
        }
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(path));
        options.shot_taken = true;
    }
    if options.frame < frames {
        return;
    }
    let saved = options.screenshot.as_ref().is_none_or(|path| path.exists());
    // Give the screenshot a few frames to reach the disk, at most ten seconds' worth.
    if saved || options.frame > frames + 600 {
        if !saved {
            eprintln!("error: the screenshot was not written");
            exit.write(AppExit::error());
        } else {
            exit.write(AppExit::Success);
        }
    }
}
