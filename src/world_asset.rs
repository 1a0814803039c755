//! World files as Bevy assets, and the world the units live in.

use std::sync::Arc;

use bevy::asset::{AssetLoader, LoadContext, io::Reader};
use bevy::prelude::*;
use kerb_navmesh::{ValidWorld, WorldError};

/// A loaded, validated `*.world.ron` file: the navmesh and the scenery.
#[derive(Asset, TypePath, Clone, Debug)]
pub struct WorldAsset {
    /// The validated world, shared cheaply.
    pub world: Arc<ValidWorld>,
}

impl WorldAsset {
    /// Wraps a world built in code.
    pub fn new(world: ValidWorld) -> Self {
        Self {
            world: Arc::new(world),
        }
    }
}

/// Loads `*.world.ron` files. An invalid file fails the load with the
/// validation message; it never panics.
#[derive(Default, TypePath)]
pub struct WorldAssetLoader;

/// Why a world file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum WorldLoadError {
    /// The file could not be read.
    #[error("could not read the world file: {0}")]
    Io(#[from] std::io::Error),
    /// The file is not UTF-8 text.
    #[error("the world file is not UTF-8 text: {0}")]
    Utf8(#[from] std::str::Utf8Error),
    /// The file is not a valid world.
    #[error("{path}: {source}")]
    Invalid {
        /// The asset path.
        path: String,
        /// What is wrong.
        source: WorldError,
    },
}

impl AssetLoader for WorldAssetLoader {
    type Asset = WorldAsset;
    type Settings = ();
    type Error = WorldLoadError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<WorldAsset, WorldLoadError> {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).await?;
        let text = std::str::from_utf8(&bytes)?;
        ValidWorld::from_ron(text)
            .map(WorldAsset::new)
            .map_err(|source| WorldLoadError::Invalid {
                path: load_context.path().to_string(),
                source,
            })
    }

    fn extensions(&self) -> &[&str] {
        &["world.ron"]
    }
}

/// The world units move in. Set `handle` to a loaded (or loading)
/// [`WorldAsset`]; units wait, standing still, until it is ready.
#[derive(Resource, Reflect, Clone, Debug, Default)]
#[reflect(Resource, Default, Debug)]
pub struct KerbWorld {
    /// The world asset.
    pub handle: Handle<WorldAsset>,
    /// The last load error for this handle, if any, for display. A failed
    /// reload keeps the previous world.
    pub last_error: Option<String>,
}

impl KerbWorld {
    /// Uses `handle` as the world.
    pub fn new(handle: Handle<WorldAsset>) -> Self {
        Self {
            handle,
            last_error: None,
        }
    }

    /// Uses a world built in code: adds it to `assets` and points at it.
    pub fn from_built(world: ValidWorld, assets: &mut Assets<WorldAsset>) -> Self {
        Self::new(assets.add(WorldAsset::new(world)))
    }

    /// The world, once loaded.
    pub fn get<'a>(&self, assets: &'a Assets<WorldAsset>) -> Option<&'a ValidWorld> {
        assets.get(&self.handle).map(|asset| asset.world.as_ref())
    }
}
