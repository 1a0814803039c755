//! How units look, and the first tank and pedestrian sent across town.

use bevy::prelude::*;
use bevy_kerb::kerb_navmesh::RouteGoal;
use bevy_kerb::prelude::*;

use crate::palette;
use crate::screenshot::DemoRun;
use crate::view::VIEW_WIDTH;

/// A unit that has been given its look.
#[derive(Component)]
pub struct Dressed;

/// Gives new units their look: a tank is a hull and a turret with a gun, a
/// pedestrian a body with a mark showing which way they face.
pub fn dress_units(
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
pub fn select_first_tank(
    mut commands: Commands,
    mut done: Local<bool>,
    options: Res<DemoRun>,
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
            .filter(|(_, m, l, ..)| m.0 == group && l.is_placed())
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
        .filter(|(_, m, l, ..)| m.0 == 1 && l.is_placed())
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
