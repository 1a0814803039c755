//! Properties of crowds with avoidance on, over random worlds, units and
//! tick rates: however long the ticks, however large or small the bodies
//! and turning radii, and however far from the origin the world lies, no
//! tick brings two avoiding bodies into contact, nobody leaves the
//! walkable area, and nobody turns tighter than its turning radius.

mod support;

use std::collections::{BTreeMap, BTreeSet};

use bevy::prelude::*;
use bevy_kerb::kerb_navmesh::generate::grid_world;
use bevy_kerb::kerb_navmesh::{NavMesh, PolygonId, ValidWorld};
use bevy_kerb::prelude::*;
use proptest::prelude::*;
use support::*;

/// One unit of a random crowd.
#[derive(Clone, Debug)]
struct RandomUnit {
    /// Which polygon it spawns in, and where in it (a share each way
    /// between the polygon's centre and its first corner).
    polygon: usize,
    towards_corner: f32,
    heading: f32,
    body_radius: f32,
    turning_radius: f32,
    speed: f32,
    reverse: bool,
    opted_out: bool,
    /// Sent to this polygon's centre, or wandering if `None`.
    destination: Option<usize>,
}

fn arb_unit() -> impl Strategy<Value = RandomUnit> {
    (
        (any::<usize>(), 0.0f32..0.9, -3.2f32..3.2),
        (
            prop_oneof![Just(0.3f32), Just(2.5f32), 0.05f32..3.0],
            prop_oneof![Just(0.8f32), Just(11.0f32), 0.1f32..15.0],
            prop_oneof![Just(1.4f32), Just(4.5f32), 0.2f32..12.0],
        ),
        (
            prop::bool::weighted(0.2),
            prop::bool::weighted(0.1),
            prop::option::weighted(0.5, any::<usize>()),
        ),
    )
        .prop_map(
            |(
                (polygon, towards_corner, heading),
                (body_radius, turning_radius, speed),
                (reverse, opted_out, destination),
            )| RandomUnit {
                polygon,
                towards_corner,
                heading,
                body_radius,
                turning_radius,
                speed,
                reverse,
                opted_out,
                destination,
            },
        )
}

/// A random crowd on a random world, and how often it ticks.
#[derive(Clone, Debug)]
struct RandomCrowd {
    /// Where the world's corner lies.
    origin: Vec2,
    columns: u32,
    rows: u32,
    cell_size: f32,
    /// Which cells are holes, by a hash of their place.
    holes: u64,
    units: Vec<RandomUnit>,
    hz: u32,
    seconds: u32,
}

fn arb_crowd() -> impl Strategy<Value = RandomCrowd> {
    (
        prop_oneof![
            Just(Vec2::ZERO),
            (-1.0e5f32..1.0e5, -1.0e5f32..1.0e5).prop_map(|(x, y)| Vec2::new(x, y)),
        ],
        (4u32..14, 4u32..14, 1.5f32..8.0, any::<u64>()),
        prop::collection::vec(arb_unit(), 2..80),
        prop_oneof![Just(1u32), Just(2), Just(4), Just(10), Just(30), Just(60)],
    )
        .prop_map(
            |(origin, (columns, rows, cell_size, holes), units, hz)| RandomCrowd {
                origin,
                columns,
                rows,
                cell_size,
                holes,
                units,
                hz,
                seconds: 30,
            },
        )
}

/// The crowd's world: a grid with about one cell in six a hole, moved to
/// its origin.
fn world_of(crowd: &RandomCrowd) -> Option<ValidWorld> {
    let mut world = grid_world(crowd.columns, crowd.rows, crowd.cell_size, |column, row| {
        let key = u64::from(column) * 0x9E37_79B9 + u64::from(row) * 0x85EB_CA6B;
        (key ^ crowd.holes).wrapping_mul(0xC2B2_AE3D_27D4_EB4F) >> 61 == 0
    });
    for model in &mut world.models {
        for vertex in &mut model.vertices {
            vertex.0 += crowd.origin.x;
            vertex.1 += crowd.origin.y;
        }
    }
    world.validate().ok()
}

/// Spawns the crowd's units on `mesh`: the units and whether each avoids.
fn spawn(app: &mut App, mesh: &NavMesh, crowd: &RandomCrowd) -> Vec<(Entity, bool)> {
    let polygons = mesh.polygon_count();
    let spot = |polygon: usize, share: f32| {
        let polygon = PolygonId((polygon % polygons) as u32);
        let centre = mesh.centroid(polygon);
        let corner = mesh.polygon_vertices(polygon).next().unwrap_or(centre);
        centre + (corner - centre) * share
    };
    crowd
        .units
        .iter()
        .map(|unit| {
            let position = spot(unit.polygon, unit.towards_corner);
            let mut entity = app.world_mut().spawn((
                Unit,
                TurningRadius(unit.turning_radius),
                Speed(unit.speed),
                Body {
                    radius: unit.body_radius,
                },
                Transform::from_translation(position.extend(0.0))
                    .with_rotation(Quat::from_rotation_z(unit.heading)),
            ));
            match unit.destination {
                Some(polygon) => entity.insert(Destination::Point(spot(polygon, 0.0))),
                None => entity.insert(Wander::default()),
            };
            if unit.reverse {
                entity.insert(ReverseGear::default());
            }
            if unit.opted_out {
                entity.insert(NoAvoidance);
            }
            (entity.id(), !unit.opted_out)
        })
        .collect()
}

/// Every unit's pose, by entity.
fn poses(app: &mut App) -> BTreeMap<Entity, UnitPose> {
    let mut query = app.world_mut().query::<(Entity, &UnitPose)>();
    query.iter(app.world()).map(|(e, p)| (e, *p)).collect()
}

/// Runs the crowd, checking every tick; a description of the first broken
/// property, if any.
fn run(crowd: &RandomCrowd) -> Result<(), String> {
    let Some(world) = world_of(crowd) else {
        return Ok(());
    };
    let mut app = app_with(world, crowd.hz, 11);
    app.world_mut().resource_mut::<AvoidanceSettings>().enabled = true;
    let mesh = navmesh(&app);
    let units = spawn(&mut app, &mesh, crowd);
    let avoiding: BTreeSet<Entity> = units
        .iter()
        .filter(|(_, avoids)| *avoids)
        .map(|(entity, _)| *entity)
        .collect();
    let limits: std::collections::HashMap<Entity, (f32, f32)> = units
        .iter()
        .zip(&crowd.units)
        .map(|((entity, _), unit)| {
            let fastest = if unit.reverse {
                unit.speed.max(ReverseGear::default().speed)
            } else {
                unit.speed
            };
            (*entity, (fastest, unit.turning_radius))
        })
        .collect();
    // The first update places the units.
    app.update();
    let dt = 1.0 / crowd.hz as f32;
    let mut before = pairs_in_contact(&mut app, |entity| avoiding.contains(&entity));
    let mut last = poses(&mut app);
    for tick in 0..crowd.seconds * crowd.hz {
        app.update();
        let now = pairs_in_contact(&mut app, |entity| avoiding.contains(&entity));
        if let Some(pair) = now.difference(&before).next() {
            return Err(format!("tick {tick}: {pair:?} came into contact"));
        }
        before = now;
        let poses = poses(&mut app);
        for (entity, to) in &poses {
            let Some(from) = last.get(entity) else {
                continue;
            };
            if !to.position.is_finite() || !to.heading.is_finite() {
                return Err(format!("tick {tick}: {entity} at {to:?}"));
            }
            // Along any path, the heading turns at most the distance
            // driven over the turning radius.
            let (fastest, radius) = limits[entity];
            let most = fastest * dt / radius;
            let turned = (to.heading - from.heading + std::f32::consts::PI)
                .rem_euclid(std::f32::consts::TAU)
                - std::f32::consts::PI;
            if most < 3.0 && turned.abs() > most * 1.01 + 1e-3 {
                return Err(format!(
                    "tick {tick}: {entity} turned {turned} rad, at most {most}"
                ));
            }
        }
        last = poses;
    }
    let mut query = app.world_mut().query::<(Entity, &UnitPose, &NavLocation)>();
    for (entity, pose, location) in query.iter(app.world()) {
        let on = location
            .polygon()
            .is_some_and(|polygon| mesh.contains_closed(polygon, pose.position));
        if !on {
            return Err(format!("{entity} at {} is off the mesh", pose.position));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Random crowds of up to 80 on random worlds for 30 simulated seconds,
    /// at 1 to 60 ticks a second, with bodies from 5 cm to 3 m, turning
    /// radii from 10 cm to 15 m, speeds to 12 m/s, some units opted out
    /// and some with reverse gear, and worlds up to 100 km from the origin.
    #[test]
    fn random_crowds_keep_clear_stay_on_the_mesh_and_turn_no_tighter(crowd in arb_crowd()) {
        if let Err(broken) = run(&crowd) {
            prop_assert!(false, "{}", broken);
        }
    }
}
