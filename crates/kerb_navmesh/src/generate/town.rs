//! The demo's town: streets with pavements, plazas, a roundabout and
//! buildings, laid out on a grid of cells.

use glam::Vec2;

use super::cells::{Disk, cut_cell, with_crossings};
use super::strips::merge_into_strips;
use super::{ModelBuilder, Random};
use crate::{ModelKind, WorldFile};

/// The random seed `assets/worlds/town.world.ron` was generated with.
pub const TOWN_SEED: u64 = 2001;

/// The town's layout, in cells of [`TOWN_CELL`] metres.
const TOWN_CELL: f32 = 4.0;
/// The longest strip the town's cells are merged into along a row.
const TOWN_STRIP_LENGTH: f32 = 6.0 * TOWN_CELL;
/// The demo town's blocks across and down.
const TOWN_BLOCKS: (u32, u32) = (8, 6);
/// Streets every `BLOCK_PITCH` cells, `STREET_WIDTH` cells wide.
const BLOCK_PITCH: i32 = 15;
const STREET_WIDTH: i32 = 3;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ground {
    Road,
    Pavement,
    Plaza,
    Closed,
}

/// The demo town: a grid of streets with pavements, plazas (one with a
/// fountain), a roundabout and buildings. Deterministic for a given seed.
///
/// Its walkable area is cut into 4 m cells merged along rows into strips,
/// so many polygon corners are straight angles where a neighbour's corner
/// meets a strip's side.
pub fn town(seed: u64) -> WorldFile {
    town_sized(seed, TOWN_BLOCKS.0, TOWN_BLOCKS.1)
}

/// [`town`] with `blocks_across × blocks_down` blocks (the demo's town has
/// 8 × 6): its plazas repeat every 8 × 6 blocks, so a large town is the
/// demo's town tiled, with one roundabout and one fountain.
pub fn town_sized(seed: u64, blocks_across: u32, blocks_down: u32) -> WorldFile {
    let size = Size {
        columns: blocks_across.max(1) as i32 * BLOCK_PITCH + STREET_WIDTH,
        rows: blocks_down.max(1) as i32 * BLOCK_PITCH + STREET_WIDTH,
    };
    town_in(seed, Walkable::Strips, size)
}

/// [`town`] with its walkable area left in 4 m cells: the same area, more
/// than three times the polygons, and straight-angle corners only where the
/// roundabout's and fountain's circles cut cells. For tools that cannot
/// take straight-angle corners (the route bench runs `polyanya` on it).
pub fn town_cells(seed: u64) -> WorldFile {
    let size = Size {
        columns: TOWN_BLOCKS.0 as i32 * BLOCK_PITCH + STREET_WIDTH,
        rows: TOWN_BLOCKS.1 as i32 * BLOCK_PITCH + STREET_WIDTH,
    };
    town_in(seed, Walkable::Cells, size)
}

/// A town's extent in cells.
#[derive(Clone, Copy)]
struct Size {
    columns: i32,
    rows: i32,
}

/// How the town's walkable area is cut into polygons.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Walkable {
    Cells,
    Strips,
}

fn town_in(seed: u64, walkable: Walkable, size: Size) -> WorldFile {
    let junction = |column: i32, row: i32| {
        Vec2::new(
            (column * BLOCK_PITCH) as f32 + STREET_WIDTH as f32 / 2.0,
            (row * BLOCK_PITCH) as f32 + STREET_WIDTH as f32 / 2.0,
        ) * TOWN_CELL
    };
    let roundabout = junction(4, 3);
    let plazas = [(1, 1), (6, 4), (2, 4)];
    let is_plaza = |(column, row): (i32, i32)| {
        plazas.contains(&(column % TOWN_BLOCKS.0 as i32, row % TOWN_BLOCKS.1 as i32))
    };
    let block_center = |(column, row): (i32, i32)| {
        (Vec2::new((column * BLOCK_PITCH) as f32, (row * BLOCK_PITCH) as f32)
            + (STREET_WIDTH as f32 + (BLOCK_PITCH - STREET_WIDTH) as f32 / 2.0))
            * TOWN_CELL
    };
    let fountain = block_center(plazas[0]);
    let disks = [
        Disk {
            center: roundabout,
            radius: 26.0,
            walkable_inside: true,
        },
        Disk {
            center: roundabout,
            radius: 10.0,
            walkable_inside: false,
        },
        Disk {
            center: fountain,
            radius: 9.0,
            walkable_inside: false,
        },
    ];
    let ground = |column: i32, row: i32| -> Ground {
        let (i, j) = (column % BLOCK_PITCH, row % BLOCK_PITCH);
        if i < STREET_WIDTH || j < STREET_WIDTH {
            return Ground::Road;
        }
        let block = (column / BLOCK_PITCH, row / BLOCK_PITCH);
        if is_plaza(block) {
            Ground::Plaza
        } else if i == STREET_WIDTH
            || j == STREET_WIDTH
            || i == BLOCK_PITCH - 1
            || j == BLOCK_PITCH - 1
        {
            Ground::Pavement
        } else {
            Ground::Closed
        }
    };

    // Cut into 4 m cells first (the disks cut cells along chords), then
    // merged along rows into strips.
    let mut ground_cells: [Vec<Vec<Vec2>>; 3] = Default::default();
    for row in 0..size.rows {
        for column in 0..size.columns {
            let base = ground(column, row);
            let min = Vec2::new(column as f32, row as f32) * TOWN_CELL;
            let square = [
                min,
                min + Vec2::new(TOWN_CELL, 0.0),
                min + TOWN_CELL,
                min + Vec2::new(0.0, TOWN_CELL),
            ];
            let Some(corners) = cut_cell(&square, base != Ground::Closed, &disks) else {
                continue;
            };
            let model = match base {
                Ground::Road | Ground::Closed => 0,
                Ground::Pavement => 1,
                Ground::Plaza => 2,
            };
            ground_cells[model].push(with_crossings(&corners, &disks));
        }
    }
    let pieces = match walkable {
        Walkable::Cells => ground_cells,
        Walkable::Strips => merge_into_strips(ground_cells, TOWN_STRIP_LENGTH),
    };
    let [roads, pavements, plaza_model] = pieces.map(|pieces| {
        let mut model = ModelBuilder::default();
        for piece in &pieces {
            model.polygon(piece);
        }
        model
    });

    let mut random = Random::new(seed);
    let mut buildings = ModelBuilder::default();
    for block_row in 0..(size.rows / BLOCK_PITCH) {
        for block_column in 0..(size.columns / BLOCK_PITCH) {
            if is_plaza((block_column, block_row)) {
                continue;
            }
            // The closed interior of the block, inside its pavement ring.
            let min = Vec2::new(
                (block_column * BLOCK_PITCH + STREET_WIDTH + 1) as f32,
                (block_row * BLOCK_PITCH + STREET_WIDTH + 1) as f32,
            ) * TOWN_CELL;
            let size = (BLOCK_PITCH - STREET_WIDTH - 2) as f32 * TOWN_CELL;
            place_buildings(&mut buildings, &mut random, min, size, &disks[0]);
        }
    }

    let mut parks = ModelBuilder::default();
    parks.polygon(&regular_polygon(roundabout, 9.0, 24));
    let mut water = ModelBuilder::default();
    water.polygon(&regular_polygon(fountain, 7.5, 24));

    WorldFile {
        name: String::from("town"),
        models: vec![
            roads.finish("roads", ModelKind::Walkable),
            pavements.finish("pavements", ModelKind::Walkable),
            plaza_model.finish("plazas", ModelKind::Walkable),
            buildings.finish("buildings", ModelKind::Building),
            parks.finish("roundabout island", ModelKind::Park),
            water.finish("fountain", ModelKind::Water),
        ],
    }
}

/// Up to four buildings on a `size`-metre square lot at `min`, with gaps
/// between them, kept clear of the roundabout.
fn place_buildings(
    model: &mut ModelBuilder,
    random: &mut Random,
    min: Vec2,
    size: f32,
    keep_clear: &Disk,
) {
    let split = 0.35 + 0.3 * random.unit();
    let lots = [
        (min, Vec2::new(size * split, size * 0.5)),
        (
            min + Vec2::new(size * split, 0.0),
            Vec2::new(size * (1.0 - split), size * 0.5),
        ),
        (
            min + Vec2::new(0.0, size * 0.5),
            Vec2::new(size * (1.0 - split), size * 0.5),
        ),
        (
            min + Vec2::new(size * (1.0 - split), size * 0.5),
            Vec2::new(size * split, size * 0.5),
        ),
    ];
    for (lot_min, lot_size) in lots {
        if random.unit() < 0.12 {
            continue; // an empty lot
        }
        let inset = 1.5 + random.unit() * 2.0;
        let low = lot_min + inset;
        let high = lot_min + lot_size - inset * (0.6 + random.unit());
        let corners = [
            low,
            Vec2::new(high.x, low.y),
            high,
            Vec2::new(low.x, high.y),
        ];
        if corners
            .iter()
            .any(|&c| c.distance(keep_clear.center) < keep_clear.radius + 2.0)
        {
            continue;
        }
        if (high - low).min_element() > 3.0 {
            model.polygon(&corners);
        }
    }
}

fn regular_polygon(center: Vec2, radius: f32, sides: usize) -> Vec<Vec2> {
    (0..sides)
        .map(|i| {
            center + radius * Vec2::from_angle(i as f32 * std::f32::consts::TAU / sides as f32)
        })
        .collect()
}
