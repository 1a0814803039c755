//! Worlds made by code: square grids for tests and benchmarks, and the
//! demo's town, so that it can be regenerated rather than edited by hand.

use std::collections::HashMap;

use glam::Vec2;

use rand::{Rng, SeedableRng};
use rand_xoshiro::SplitMix64;

use crate::{Model, ModelKind, WorldFile};

mod cells;
mod strips;
mod town;

pub use town::{TOWN_SEED, town, town_cells, town_sized};

/// Collects vertices and quads for one model, sharing vertices by position.
#[derive(Default)]
struct ModelBuilder {
    vertices: Vec<(f32, f32)>,
    index: HashMap<(u32, u32), u32>,
    polygons: Vec<Vec<u32>>,
}

impl ModelBuilder {
    fn vertex(&mut self, p: Vec2) -> u32 {
        let next = self.vertices.len() as u32;
        *self.index.entry(position_key(p)).or_insert_with(|| {
            self.vertices.push((p.x, p.y));
            next
        })
    }

    fn polygon(&mut self, corners: &[Vec2]) {
        let indices = corners.iter().map(|&p| self.vertex(p)).collect();
        self.polygons.push(indices);
    }

    fn finish(self, name: &str, kind: ModelKind) -> Model {
        Model {
            name: name.to_string(),
            kind,
            vertices: self.vertices,
            polygons: self.polygons,
        }
    }
}

/// A walkable grid of `columns × rows` square cells of side `cell_size`,
/// leaving out the cells for which `hole(column, row)` is true.
pub fn grid_world(
    columns: u32,
    rows: u32,
    cell_size: f32,
    hole: impl Fn(u32, u32) -> bool,
) -> WorldFile {
    let mut model = ModelBuilder::default();
    for row in 0..rows {
        for column in 0..columns {
            if hole(column, row) {
                continue;
            }
            let min = Vec2::new(column as f32, row as f32) * cell_size;
            let max = min + cell_size;
            model.polygon(&[min, Vec2::new(max.x, min.y), max, Vec2::new(min.x, max.y)]);
        }
    }
    WorldFile {
        name: format!("grid {columns}x{rows}"),
        models: vec![model.finish("grid", ModelKind::Walkable)],
    }
}

/// A deterministic stream of numbers in `[0, 1)`, for generated worlds and
/// reproducible test and bench queries: `rand_xoshiro`'s SplitMix64, each
/// number from the top 24 bits of a word, as the town was generated with.
#[derive(Clone, Debug)]
pub struct Random(SplitMix64);

impl Random {
    /// The stream for `seed`.
    pub fn new(seed: u64) -> Self {
        Self(SplitMix64::seed_from_u64(seed))
    }

    /// The next number in `[0, 1)`.
    pub fn unit(&mut self) -> f32 {
        (self.0.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// A position as an exact key, the same in every model (`-0.0` and `0.0`
/// alike).
fn position_key(p: Vec2) -> (u32, u32) {
    ((p.x + 0.0).to_bits(), (p.y + 0.0).to_bits())
}
