//! Worlds made by code: square grids for tests and benchmarks, and the
//! demo's town, so that it can be regenerated rather than edited by hand.

use std::collections::HashMap;

use glam::Vec2;

use rand::{Rng, SeedableRng};
use rand_xoshiro::SplitMix64;

use crate::{Model, ModelKind, WorldFile};

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

/// A disk that changes what is walkable inside it.
struct Disk {
    center: Vec2,
    radius: f32,
    walkable_inside: bool,
}

impl Disk {
    fn contains(&self, p: Vec2) -> bool {
        p.distance_squared(self.center) < self.radius * self.radius
    }
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
        Walkable::Strips => merge_into_strips(ground_cells),
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

/// A position as an exact key, the same in every model (`-0.0` and `0.0`
/// alike).
fn position_key(p: Vec2) -> (u32, u32) {
    ((p.x + 0.0).to_bits(), (p.y + 0.0).to_bits())
}

/// Merges each model's cells (convex, counter-clockwise, sharing whole
/// edges) along their rows into convex strips up to [`TOWN_STRIP_LENGTH`]
/// long, then drops the vertices that only lie along straight edges. A
/// vertex stays wherever some polygon has a corner there, so no edge ends in
/// the middle of another (no T-junctions).
///
/// Raw 4 m cells make a search cross a polygon every 4 m; strips are what a
/// navmesh builder such as Recast makes of a grid, and keep the town above
/// 2,000 polygons.
fn merge_into_strips<const MODELS: usize>(
    models: [Vec<Vec<Vec2>>; MODELS],
) -> [Vec<Vec<Vec2>>; MODELS] {
    let mut merged = models.map(|polygons| {
        let mut polygons: Vec<Option<Vec<Vec2>>> = polygons.into_iter().map(Some).collect();
        merge_along_rows(&mut polygons, TOWN_STRIP_LENGTH);
        polygons.into_iter().flatten().collect::<Vec<_>>()
    });
    // A vertex can go where every polygon that has it runs straight through.
    let mut corner_at: HashMap<(u32, u32), bool> = HashMap::new();
    for polygon in merged.iter().flatten() {
        for (index, &p) in polygon.iter().enumerate() {
            let corner = !is_straight(polygon, index);
            *corner_at.entry(position_key(p)).or_insert(false) |= corner;
        }
    }
    for polygon in merged.iter_mut().flatten() {
        let kept: Vec<Vec2> = polygon
            .iter()
            .copied()
            .filter(|&p| corner_at[&position_key(p)])
            .collect();
        if kept.len() >= 3 {
            *polygon = kept;
        }
    }
    merged
}

/// Whether `polygon` runs straight through its vertex `index`.
fn is_straight(polygon: &[Vec2], index: usize) -> bool {
    let count = polygon.len();
    let previous = polygon[(index + count - 1) % count];
    let next = polygon[(index + 1) % count];
    let (a, b) = (polygon[index] - previous, next - polygon[index]);
    a.perp_dot(b).abs() <= 1e-6 * a.length() * b.length() && a.dot(b) > 0.0
}

/// Each polygon absorbs its neighbours across vertical edges while the
/// union stays convex and at most `max_length` wide.
fn merge_along_rows(polygons: &mut [Option<Vec<Vec2>>], max_length: f32) {
    let mut owner = EdgeOwners::new();
    for (index, polygon) in polygons.iter().enumerate() {
        for (a, b) in polygon.iter().flat_map(|p| edges(p)) {
            owner.insert((position_key(a), position_key(b)), index);
        }
    }
    for index in 0..polygons.len() {
        while absorb_neighbour(polygons, &mut owner, index, max_length) {}
    }
}

/// Which polygon each directed edge (by its ends' keys) belongs to.
type EdgeOwners = HashMap<((u32, u32), (u32, u32)), usize>;

/// Merges into polygon `index` one neighbour across a vertical edge, if
/// their union is convex and at most `max_length` wide.
fn absorb_neighbour(
    polygons: &mut [Option<Vec<Vec2>>],
    owner: &mut EdgeOwners,
    index: usize,
    max_length: f32,
) -> bool {
    let Some(polygon) = polygons[index].clone() else {
        return false;
    };
    for (a, b) in edges(&polygon) {
        if a.x != b.x {
            continue;
        }
        let Some(&other) = owner.get(&(position_key(b), position_key(a))) else {
            continue;
        };
        let Some(neighbour) = polygons.get(other).cloned().flatten() else {
            continue;
        };
        let Some(union) =
            convex_union(&polygon, &neighbour).filter(|union| width(union) <= max_length)
        else {
            continue;
        };
        for (a, b) in edges(&polygon).chain(edges(&neighbour)) {
            owner.remove(&(position_key(a), position_key(b)));
        }
        for (a, b) in edges(&union) {
            owner.insert((position_key(a), position_key(b)), index);
        }
        polygons[other] = None;
        polygons[index] = Some(union);
        return true;
    }
    false
}

/// The extent of `polygon` along x.
fn width(polygon: &[Vec2]) -> f32 {
    let (low, high) = polygon
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(low, high), p| {
            (low.min(p.x), high.max(p.x))
        });
    high - low
}

fn edges(polygon: &[Vec2]) -> impl Iterator<Item = (Vec2, Vec2)> + '_ {
    (0..polygon.len()).map(|i| (polygon[i], polygon[(i + 1) % polygon.len()]))
}

/// The union of two counter-clockwise convex polygons that share one run of
/// consecutive edges, if it is convex (straight angles allowed).
fn convex_union(first: &[Vec2], second: &[Vec2]) -> Option<Vec<Vec2>> {
    let shared = |polygon: &[Vec2], other: &[Vec2], i: usize| {
        let (a, b) = (polygon[i], polygon[(i + 1) % polygon.len()]);
        edges(other)
            .any(|(c, d)| position_key(c) == position_key(b) && position_key(d) == position_key(a))
    };
    let count = first.len();
    let flags: Vec<bool> = (0..count).map(|i| shared(first, second, i)).collect();
    let shared_count = flags.iter().filter(|&&f| f).count();
    // The run starts at a shared edge whose predecessor is not shared.
    let start = (0..count).find(|&i| flags[i] && !flags[(i + count - 1) % count])?;
    if shared_count == 0 || (0..shared_count).any(|k| !flags[(start + k) % count]) {
        return None; // no shared edge, or more than one run
    }
    let run_start = first[start];
    let run_end = first[(start + shared_count) % count];
    // The first polygon from the run's end round to its start ...
    let mut union: Vec<Vec2> = (0..=count - shared_count)
        .map(|k| first[(start + shared_count + k) % count])
        .collect();
    // ... then the second from just after the run's start to just before its end.
    let from = second
        .iter()
        .position(|&p| position_key(p) == position_key(run_start))?;
    let to = second
        .iter()
        .position(|&p| position_key(p) == position_key(run_end))?;
    let mut k = (from + 1) % second.len();
    while k != to {
        union.push(second[k]);
        k = (k + 1) % second.len();
    }
    let mut keys: Vec<(u32, u32)> = union.iter().map(|&p| position_key(p)).collect();
    keys.sort_unstable();
    keys.dedup();
    let convex = (0..union.len()).all(|i| {
        let (a, b, c) = (
            union[i],
            union[(i + 1) % union.len()],
            union[(i + 2) % union.len()],
        );
        (b - a).perp_dot(c - b) >= -1e-6 * (b - a).length() * (c - b).length()
    });
    (keys.len() == union.len() && convex).then_some(union)
}

/// Where `disk`'s circle crosses the edge `a b`, computed from the edge's end
/// points in a canonical order so both cells that share the edge get the
/// same bits. Crossings within a quarter metre of a corner snap to it; an
/// edge crossed twice (nearly tangent) counts as not crossed.
fn edge_crossing(a: Vec2, b: Vec2, disk: &Disk) -> Option<Vec2> {
    let (from, to) = if (a.x, a.y) < (b.x, b.y) {
        (a, b)
    } else {
        (b, a)
    };
    if disk.contains(from) == disk.contains(to) {
        return None;
    }
    let edge = (to - from).as_dvec2();
    let relative = (from - disk.center).as_dvec2();
    let qa = edge.length_squared();
    let qb = 2.0 * edge.dot(relative);
    let qc = relative.length_squared() - f64::from(disk.radius).powi(2);
    let root = (qb * qb - 4.0 * qa * qc).max(0.0).sqrt();
    let t = [(-qb - root) / (2.0 * qa), (-qb + root) / (2.0 * qa)]
        .into_iter()
        .find(|t| (0.0..=1.0).contains(t))?;
    let point = (from.as_dvec2() + edge * t).as_vec2();
    Some(if point.distance(from) < 0.25 {
        from
    } else if point.distance(to) < 0.25 {
        to
    } else {
        point
    })
}

/// The polygon with every disk crossing of its edges added as a vertex, so
/// a whole cell beside a cut one shares the cut's vertex instead of forming a
/// T-junction with it.
fn with_crossings(corners: &[Vec2], disks: &[Disk]) -> Vec<Vec2> {
    let mut out = Vec::with_capacity(corners.len() + 2);
    for (i, &a) in corners.iter().enumerate() {
        let b = corners[(i + 1) % corners.len()];
        out.push(a);
        // Only cell sides are shared with other cells; chords are walls.
        if a.x != b.x && a.y != b.y {
            continue;
        }
        let mut crossings: Vec<Vec2> = disks
            .iter()
            .filter_map(|disk| edge_crossing(a, b, disk))
            .filter(|&c| c != a && c != b)
            .collect();
        crossings.sort_by(|p, q| p.distance_squared(a).total_cmp(&q.distance_squared(a)));
        crossings.dedup();
        out.extend(crossings);
    }
    out
}

/// The walkable part of a square cell given the disks, as a convex polygon:
/// whole, cut along a chord of one disk's circle, or `None`.
fn cut_cell(square: &[Vec2; 4], base_walkable: bool, disks: &[Disk]) -> Option<Vec<Vec2>> {
    let center = (square[0] + square[2]) / 2.0;
    let mut walkable_outside = base_walkable;
    let mut cut: Option<(&Disk, bool)> = None;
    for disk in disks {
        let inside: Vec<bool> = square.iter().map(|&c| disk.contains(c)).collect();
        if inside.iter().all(|&i| i) {
            walkable_outside = disk.walkable_inside;
            cut = None;
        } else if inside.iter().any(|&i| i) {
            cut = Some((disk, walkable_outside));
            walkable_outside = if disk.contains(center) {
                disk.walkable_inside
            } else {
                walkable_outside
            };
        }
    }
    let Some((disk, outside_walkable)) = cut else {
        return walkable_outside.then(|| square.to_vec());
    };
    if disk.walkable_inside == outside_walkable {
        return outside_walkable.then(|| square.to_vec());
    }
    // Keep the corners on the walkable side and the crossing points.
    let mut corners: Vec<Vec2> = Vec::with_capacity(6);
    for i in 0..4 {
        let (a, b) = (square[i], square[(i + 1) % 4]);
        if disk.contains(a) == disk.walkable_inside {
            corners.push(a);
        }
        if let Some(crossing) = edge_crossing(a, b, disk) {
            corners.push(crossing);
        }
    }
    corners.dedup();
    if corners.len() > 1 && corners.first() == corners.last() {
        corners.pop();
    }
    (corners.len() >= 3).then_some(corners)
}
