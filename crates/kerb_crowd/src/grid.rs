//! A uniform grid over the units, rebuilt every tick by counting sort.

use glam::Vec2;

use crate::Nearest;

/// A unit as the grid holds it.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    position: Vec2,
    radius: f32,
    index: u32,
}

/// A uniform grid of the units' positions for neighbour queries.
///
/// [`NeighbourGrid::rebuild`] sorts the units into cells by counting sort:
/// O(N) each tick, and no allocation once the buffers have grown to the
/// crowd's size. Units with a non-finite position are left out.
#[derive(Clone, Debug, Default)]
pub struct NeighbourGrid {
    wanted_cell_size: f32,
    cell_size: f32,
    origin: Vec2,
    columns: i32,
    rows: i32,
    /// Units of cell `c` are `entries[starts[c]..starts[c + 1]]`.
    starts: Vec<u32>,
    /// Each unit in cell order: where it is, its body's radius and its
    /// index. Radii sit beside positions so that a query reads one array.
    entries: Vec<Entry>,
    /// The largest body radius sorted in.
    largest: f32,
    /// Scratch: each unit's cell, or `u32::MAX` for none.
    cell_of: Vec<u32>,
}

impl NeighbourGrid {
    /// A grid with cells `cell_size` across (the query range is a good
    /// choice). A size that is not finite and above zero is taken as 1.
    pub fn new(cell_size: f32) -> Self {
        let cell_size = if cell_size.is_finite() && cell_size > 0.0 {
            cell_size
        } else {
            1.0
        };
        Self {
            wanted_cell_size: cell_size,
            cell_size,
            ..Self::default()
        }
    }

    /// The size of the cells: the one asked for, or larger where the units
    /// are so spread out that the grid would have more than a few cells per
    /// unit.
    pub fn cell_size(&self) -> f32 {
        self.cell_size
    }

    /// Sorts `positions` (indexed by unit) into the grid, as points: for
    /// [`NeighbourGrid::nearest`].
    pub fn rebuild(&mut self, positions: &[Vec2]) {
        self.rebuild_bodies(positions, &[]);
    }

    /// Sorts units into the grid with the radii of their bodies (indexed
    /// as `positions`; missing, negative or non-finite radii count as 0),
    /// for [`NeighbourGrid::nearest_bodies`].
    pub fn rebuild_bodies(&mut self, positions: &[Vec2], radii: &[f32]) {
        let radius = |index: usize| {
            radii
                .get(index)
                .copied()
                .filter(|r| r.is_finite())
                .unwrap_or(0.0)
                .max(0.0)
        };
        self.largest = (0..positions.len()).map(radius).fold(0.0, f32::max);
        let (min, max) = positions
            .iter()
            .filter(|p| p.is_finite())
            .fold((Vec2::INFINITY, Vec2::NEG_INFINITY), |(lo, hi), &p| {
                (lo.min(p), hi.max(p))
            });
        self.entries.clear();
        self.starts.clear();
        if min.x > max.x {
            (self.columns, self.rows) = (0, 0);
            self.starts.push(0);
            return;
        }
        let extent = (max - min).max(Vec2::splat(f32::MIN_POSITIVE));
        // At most a few cells per unit: spread-out units get larger cells.
        let most_cells = (4 * positions.len() + 64) as f32;
        let wanted = (extent / self.wanted_cell_size).floor() + 1.0;
        let shrink = (wanted.x * wanted.y / most_cells).sqrt().max(1.0);
        self.cell_size = self.wanted_cell_size * shrink;
        self.origin = min;
        self.columns = ((extent.x / self.cell_size) as i32 + 1).max(1);
        self.rows = ((extent.y / self.cell_size) as i32 + 1).max(1);
        let cells = (self.columns * self.rows) as usize;
        self.starts.resize(cells + 1, 0);
        self.cell_of.clear();
        for &p in positions {
            let cell = if p.is_finite() {
                let (column, row) = self.cell_coords(p);
                let cell = (row * self.columns + column) as u32;
                self.starts[cell as usize + 1] += 1;
                cell
            } else {
                u32::MAX
            };
            self.cell_of.push(cell);
        }
        for cell in 0..cells {
            self.starts[cell + 1] += self.starts[cell];
        }
        let placed = self.starts[cells] as usize;
        self.entries.resize(placed, Entry::default());
        // Filling each cell from its end leaves its units in index order.
        for (index, &cell) in self.cell_of.iter().enumerate().rev() {
            if cell == u32::MAX {
                continue;
            }
            let end = &mut self.starts[cell as usize + 1];
            *end -= 1;
            self.entries[*end as usize] = Entry {
                position: positions[index],
                radius: radius(index),
                index: index as u32,
            };
        }
        // Each end was moved back to its cell's start: shift them back.
        self.starts.rotate_left(1);
        self.starts[cells] = placed as u32;
    }

    /// The cell holding `p`, clamped to the grid.
    fn cell_coords(&self, p: Vec2) -> (i32, i32) {
        let local = (p - self.origin) / self.cell_size;
        (
            (local.x as i32).clamp(0, self.columns - 1),
            (local.y as i32).clamp(0, self.rows - 1),
        )
    }

    /// The units' indices in the order the grid holds them, cell by cell:
    /// queries for units in this order find their neighbours in memory
    /// the last query touched.
    pub fn order(&self) -> impl ExactSizeIterator<Item = u32> + '_ {
        self.entries.iter().map(|entry| entry.index)
    }

    /// Fills `nearest` with the units within `range` of `p`, nearest first,
    /// leaving out unit `exclude` (the asking unit itself). Cells are
    /// searched in rings round `p`'s, and the search stops once no cell
    /// left can hold anything nearer than what has been found.
    pub fn nearest(&self, p: Vec2, range: f32, exclude: u32, nearest: &mut Nearest) {
        self.search(p, range, exclude, 0.0, nearest, |distance_sq, _, _| {
            Some(distance_sq)
        });
    }

    /// As [`NeighbourGrid::nearest`], but near by the gap to each unit's
    /// body (the radii given to [`NeighbourGrid::rebuild_bodies`]), not to
    /// its centre: a tank whose centre is further off than a ring of
    /// pedestrians', but whose side is nearer, is among the nearest.
    pub fn nearest_bodies(&self, p: Vec2, range: f32, exclude: u32, nearest: &mut Nearest) {
        self.search(
            p,
            range,
            exclude,
            self.largest,
            nearest,
            |distance_sq, radius, cut| {
                // Beyond the cut by centre less radius: no square root.
                let far = cut + radius;
                (distance_sq <= far * far).then(|| {
                    let gap = (distance_sq.sqrt() - radius).max(0.0);
                    gap * gap
                })
            },
        );
    }

    /// Calls `visit` with the index of every unit whose body (the radii
    /// given to [`NeighbourGrid::rebuild_bodies`]) comes within `range` of
    /// `p`, however many: for checks that must see every body near a
    /// point, not the nearest few. Units come cell row by cell row.
    pub fn visit_bodies_within(&self, p: Vec2, range: f32, mut visit: impl FnMut(u32)) {
        if self.columns == 0 || !p.is_finite() || range.is_nan() || range < 0.0 {
            return;
        }
        let reach = range + self.largest;
        let (first_column, first_row) = self.cell_coords(p - Vec2::splat(reach));
        let (last_column, last_row) = self.cell_coords(p + Vec2::splat(reach));
        for row in first_row..=last_row {
            let first = (row * self.columns + first_column) as usize;
            let last = (row * self.columns + last_column) as usize;
            let run = self.starts[first] as usize..self.starts[last + 1] as usize;
            for entry in &self.entries[run] {
                let within = range + entry.radius;
                if entry.position.distance_squared(p) <= within * within {
                    visit(entry.index);
                }
            }
        }
    }

    /// The ring search behind both queries: `key` ranks a unit by its
    /// squared centre distance and radius, never more than its centre's
    /// squared distance and never less than its centre's less `slack`.
    /// It may answer `None` for a unit it can tell is further than `cut`
    /// (the range, or the farthest kept once `nearest` is full).
    fn search(
        &self,
        p: Vec2,
        range: f32,
        exclude: u32,
        slack: f32,
        nearest: &mut Nearest,
        key: impl Fn(f32, f32, f32) -> Option<f32>,
    ) {
        nearest.clear();
        if self.columns == 0 || !p.is_finite() || range.is_nan() || range < 0.0 {
            return;
        }
        let range_sq = range * range;
        let (column, row) = self.cell_coords(p);
        let cut_of =
            |nearest: &Nearest| nearest.full_at().map_or(range, |far| far.sqrt().min(range));
        let mut cut = cut_of(nearest);
        let mut scan = |nearest: &mut Nearest, first_column: i32, last_column: i32, row: i32| {
            let first = (row * self.columns + first_column) as usize;
            let last = (row * self.columns + last_column) as usize;
            // A row of cells is one run of entries.
            let run = self.starts[first] as usize..self.starts[last + 1] as usize;
            for entry in &self.entries[run] {
                let Some(distance_sq) = key(entry.position.distance_squared(p), entry.radius, cut)
                else {
                    continue;
                };
                if distance_sq <= range_sq && entry.index != exclude {
                    nearest.offer(distance_sq, entry.position, entry.index);
                    cut = cut_of(nearest);
                }
            }
        };
        let local = (p - self.origin) / self.cell_size;
        for ring in 0.. {
            let (low_column, high_column) = (column - ring, column + ring);
            let (low_row, high_row) = (row - ring, row + ring);
            let columns = low_column.max(0)..=high_column.min(self.columns - 1);
            for r in low_row.max(0)..=high_row.min(self.rows - 1) {
                if r == low_row || r == high_row {
                    scan(nearest, *columns.start(), *columns.end(), r);
                } else {
                    if low_column >= 0 {
                        scan(nearest, low_column, low_column, r);
                    }
                    if high_column < self.columns {
                        scan(nearest, high_column, high_column, r);
                    }
                }
            }
            // The nearest a unit outside the rings so far can be; sides
            // past the grid's edge hold none.
            let mut outside = f32::INFINITY;
            if low_column > 0 {
                outside = outside.min(local.x - low_column as f32);
            }
            if high_column < self.columns - 1 {
                outside = outside.min(high_column as f32 + 1.0 - local.x);
            }
            if low_row > 0 {
                outside = outside.min(local.y - low_row as f32);
            }
            if high_row < self.rows - 1 {
                outside = outside.min(high_row as f32 + 1.0 - local.y);
            }
            if outside == f32::INFINITY {
                break; // the rings cover the whole grid
            }
            let outside = (outside.max(0.0) * self.cell_size - slack).max(0.0);
            if outside > range || nearest.full_at().is_some_and(|far| far < outside * outside) {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute(positions: &[Vec2], p: Vec2, range: f32, exclude: u32, k: usize) -> Vec<u32> {
        let mut all: Vec<(f32, u32)> = positions
            .iter()
            .enumerate()
            .filter(|&(i, q)| {
                i as u32 != exclude && q.is_finite() && q.distance_squared(p) <= range * range
            })
            .map(|(i, q)| (q.distance_squared(p), i as u32))
            .collect();
        sort_as_nearest(&mut all, positions);
        all.into_iter().take(k).map(|(_, i)| i).collect()
    }

    /// Sorts (squared distance, index) pairs as [`Nearest`] keeps them:
    /// ties by place, then index.
    fn sort_as_nearest(all: &mut [(f32, u32)], positions: &[Vec2]) {
        let place = |i: u32| crate::nearest::place_key(positions[i as usize]);
        all.sort_by(|a, b| {
            a.0.total_cmp(&b.0)
                .then(place(a.1).cmp(&place(b.1)))
                .then(a.1.cmp(&b.1))
        });
    }

    /// Numbers in [0, 1) from a fixed linear congruential stream.
    fn stream(seed: u64) -> impl FnMut() -> f32 {
        let mut state = seed;
        move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 40) as f32 / (1u64 << 24) as f32
        }
    }

    /// A tank's side nearer than a ring of pedestrians' centres puts it
    /// among the nearest bodies, in agreement with a brute force.
    #[test]
    fn body_queries_agree_with_brute_force() {
        let mut next = stream(777);
        for (count, spread, cell) in [(50, 10.0, 3.0), (800, 60.0, 2.0), (2000, 30.0, 0.5)] {
            let positions: Vec<Vec2> = (0..count)
                .map(|_| Vec2::new(next(), next()) * spread)
                .collect();
            // One in ten a tank.
            let radii: Vec<f32> = (0..count)
                .map(|i| if i % 10 == 0 { 2.5 } else { 0.3 })
                .collect();
            let mut grid = NeighbourGrid::new(cell);
            grid.rebuild_bodies(&positions, &radii);
            let mut nearest = Nearest::new(8);
            for i in 0..count.min(200) {
                let p = positions[i];
                grid.nearest_bodies(p, 6.0, i as u32, &mut nearest);
                let found: Vec<u32> = nearest.indices().collect();
                let mut all: Vec<(f32, u32)> = positions
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|(j, q)| {
                        let gap = (q.distance(p) - radii[j]).max(0.0);
                        (gap * gap, j as u32)
                    })
                    .filter(|&(key, _)| key <= 36.0)
                    .collect();
                sort_as_nearest(&mut all, &positions);
                let expected: Vec<u32> = all.into_iter().take(8).map(|(_, j)| j).collect();
                assert_eq!(found, expected, "unit {i}");
            }
        }
        // A tank whose side is 0.5 m off, behind eight pedestrians 1 m off.
        let mut positions: Vec<Vec2> = (0..8)
            .map(|i| Vec2::from_angle(i as f32 * 0.785) * 1.0)
            .collect();
        positions.push(Vec2::new(3.0, 0.0));
        positions.push(Vec2::ZERO);
        let mut radii = vec![0.3; 8];
        radii.extend([2.5, 0.3]);
        let mut grid = NeighbourGrid::new(2.0);
        grid.rebuild_bodies(&positions, &radii);
        let mut nearest = Nearest::new(8);
        grid.nearest_bodies(Vec2::ZERO, 10.0, 9, &mut nearest);
        assert!(nearest.indices().any(|index| index == 8));
        grid.nearest(Vec2::ZERO, 10.0, 9, &mut nearest);
        assert!(nearest.indices().all(|index| index != 8));
    }

    #[test]
    fn queries_agree_with_brute_force() {
        let mut next = stream(12345);
        for (count, spread, cell) in [
            (0, 1.0, 3.0),
            (1, 1.0, 3.0),
            (50, 10.0, 3.0),
            (500, 200.0, 3.0),
            (300, 1e5, 3.0),
            (2000, 30.0, 0.5),
            (2000, 60.0, 7.0),
        ] {
            let mut positions: Vec<Vec2> = (0..count)
                .map(|_| Vec2::new(next(), next()) * spread)
                .collect();
            if count > 3 {
                positions[2] = Vec2::NAN;
            }
            let mut grid = NeighbourGrid::new(cell);
            grid.rebuild(&positions);
            let mut nearest = Nearest::new(8);
            if let Some(&p) = positions.first() {
                // A range past the whole grid ends with the grid.
                grid.nearest(p, f32::INFINITY, 0, &mut nearest);
                assert_eq!(
                    nearest.indices().collect::<Vec<_>>(),
                    brute(&positions, p, f32::INFINITY, 0, 8)
                );
            }
            for i in 0..count.min(100) {
                let p = positions[i];
                grid.nearest(p, 6.0, i as u32, &mut nearest);
                let found: Vec<u32> = nearest.indices().collect();
                if p.is_finite() {
                    assert_eq!(found, brute(&positions, p, 6.0, i as u32, 8));
                } else {
                    assert!(found.is_empty());
                }
            }
        }
    }

    /// Every body within range is visited, however many, in agreement
    /// with a brute force.
    #[test]
    fn visiting_bodies_within_agrees_with_brute_force() {
        let mut next = stream(99);
        for (count, spread, cell) in [
            (0, 1.0, 2.0),
            (40, 3.0, 2.0),
            (3000, 50.0, 2.0),
            (500, 1e5, 0.5),
        ] {
            let mut positions: Vec<Vec2> = (0..count)
                .map(|_| Vec2::new(next(), next()) * spread)
                .collect();
            if count > 3 {
                positions[1] = Vec2::NAN;
            }
            let radii: Vec<f32> = (0..count)
                .map(|i| if i % 10 == 0 { 2.5 } else { 0.3 })
                .collect();
            let mut grid = NeighbourGrid::new(cell);
            grid.rebuild_bodies(&positions, &radii);
            for i in 0..count.min(100) {
                let p = positions[i];
                let mut found = Vec::new();
                grid.visit_bodies_within(p, 1.5, |index| found.push(index));
                found.sort_unstable();
                let expected: Vec<u32> = if p.is_finite() {
                    (0..count)
                        .filter(|&j| positions[j].is_finite())
                        .filter(|&j| positions[j].distance(p) <= 1.5 + radii[j])
                        .map(|j| j as u32)
                        .collect()
                } else {
                    Vec::new()
                };
                assert_eq!(found, expected, "unit {i}");
            }
        }
    }

    #[test]
    fn rebuilding_reuses_its_buffers() {
        let positions: Vec<Vec2> = (0..1000)
            .map(|i| Vec2::new(i as f32 % 37.0, i as f32 / 37.0))
            .collect();
        let mut grid = NeighbourGrid::new(2.0);
        grid.rebuild(&positions);
        let capacity = (
            grid.entries.capacity(),
            grid.starts.capacity(),
            grid.cell_of.capacity(),
        );
        let moved: Vec<Vec2> = positions.iter().map(|p| *p + Vec2::splat(0.3)).collect();
        grid.rebuild(&moved);
        assert_eq!(
            capacity,
            (
                grid.entries.capacity(),
                grid.starts.capacity(),
                grid.cell_of.capacity()
            )
        );
    }
}
