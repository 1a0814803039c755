//! The town drawn from the loaded world: ground, buildings, parks and
//! water, drawn again whenever the world file is saved.

use bevy::asset::RenderAssetUsages;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;
use bevy_kerb::kerb_navmesh::{ModelKind, ResolvedModel};
use bevy_kerb::prelude::*;

use crate::palette;
use crate::view::CenterOn;

/// A mesh of the drawn world, replaced when the world is reloaded.
#[derive(Component)]
pub struct SceneryMesh;

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

/// A model's polygons, each pulled `inset` metres towards its centre.
fn model_polygons(model: &ResolvedModel, inset: f32) -> impl Iterator<Item = Vec<Vec2>> + '_ {
    model.polygons.iter().map(move |corners| {
        if inset == 0.0 || corners.is_empty() {
            return corners.clone();
        }
        let center = corners.iter().copied().sum::<Vec2>() / corners.len() as f32;
        corners
            .iter()
            .map(|&c| c + (center - c).normalize_or_zero() * inset)
            .collect()
    })
}

/// Draws the world when it loads, and again when its file changes: the
/// old drawing goes, the camera centres on the first one.
pub fn draw_world(
    mut commands: Commands,
    mut events: MessageReader<AssetEvent<WorldAsset>>,
    world: Res<KerbWorld>,
    assets: Res<Assets<WorldAsset>>,
    drawn: Query<Entity, With<SceneryMesh>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut first: Local<bool>,
) {
    // Sent once a load or a reload is complete (a reload also sends
    // `Modified`, which would draw it twice).
    let changed = events.read().any(|event| {
        matches!(event, AssetEvent::LoadedWithDependencies { id } if *id == world.handle.id())
    });
    let Some(valid) = world.get(&assets).filter(|_| changed) else {
        return;
    };
    for entity in &drawn {
        commands.entity(entity).despawn();
    }
    for model in valid.walkable.iter().chain(&valid.scenery) {
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
            SceneryMesh,
            Mesh2d(mesh),
            MeshMaterial2d(materials.add(color)),
            Transform::from_xyz(0.0, 0.0, z),
        ));
        if model.kind == ModelKind::Building {
            // A lighter roof inset inside each footprint gives the blocks depth.
            let roof = meshes.add(polygons_mesh(model_polygons(model, 1.2)));
            commands.spawn((
                SceneryMesh,
                Mesh2d(roof),
                MeshMaterial2d(materials.add(palette::BUILDING_ROOF)),
                Transform::from_xyz(0.0, 0.0, z + 0.05),
            ));
        }
    }
    if !*first {
        *first = true;
        let bounds = valid.navmesh.bounds();
        commands.insert_resource(CenterOn((bounds.min + bounds.max) / 2.0));
    }
    info!(
        "drew world \"{}\": {} walkable polygons",
        valid.name,
        valid.navmesh.polygon_count()
    )
}
