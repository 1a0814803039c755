//! A uniform grid over the mesh for expected O(1) lookups.
//!
//! Each cell lists the items (polygons or wall edges) whose bounding boxes
//! overlap it, in compressed-row form: no per-cell allocation.

use glam::Vec2;

/// An axis-aligned box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    /// Lower corner.
    pub min: Vec2,
    /// Upper corner.
    pub max: Vec2,
}

impl Aabb {
    /// The empty box, which grows to fit whatever is added.
    pub const EMPTY: Aabb = Aabb {
        min: Vec2::INFINITY,
        max: Vec2::NEG_INFINITY,
    };

    /// The smallest box around `points`.
    pub fn around(points: impl IntoIterator<Item = Vec2>) -> Aabb {
        points.into_iter().fold(Aabb::EMPTY, |b, p| Aabb {
            min: b.min.min(p),
            max: b.max.max(p),
        })
    }

    /// Whether the closed box holds `p` (never for NaN).
    #[inline]
    pub fn contains(self, p: Vec2) -> bool {
        p.x >= self.min.x && p.x <= self.max.x && p.y >= self.min.y && p.y <= self.max.y
    }

    /// The box grown by `margin` on every side.
    pub fn grown(self, margin: f32) -> Aabb {
        Aabb {
            min: self.min - margin,
            max: self.max + margin,
        }
    }

    /// The smallest box holding both.
    pub fn union(self, other: Aabb) -> Aabb {
        Aabb {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    /// Distance from `p` to the box (zero inside).
    pub fn distance_to(self, p: Vec2) -> f32 {
        (self.min - p).max(p - self.max).max(Vec2::ZERO).length()
    }
}

#[derive(Clone, Debug, Default)]
pub(crate) struct Grid {
    origin: Vec2,
    inverse_cell: f32,
    cell_size: f32,
    columns: i32,
    rows: i32,
    starts: Vec<u32>,
    items: Vec<u32>,
}

impl Grid {
    /// A grid over `bounds` whose cells are about `cell_size` wide, listing
    /// each item in every cell its box overlaps.
    pub(crate) fn build(bounds: Aabb, cell_size: f32, boxes: &[Aabb]) -> Grid {
        let extent = (bounds.max - bounds.min).max(Vec2::splat(1e-3));
        let cell_size = cell_size.max(extent.max_element() / 4096.0).max(1e-3);
        let columns = ((extent.x / cell_size).floor() as i32 + 1).max(1);
        let rows = ((extent.y / cell_size).floor() as i32 + 1).max(1);
        let mut grid = Grid {
            origin: bounds.min,
            inverse_cell: 1.0 / cell_size,
            cell_size,
            columns,
            rows,
            starts: vec![0; (columns * rows) as usize + 1],
            items: Vec::new(),
        };
        for b in boxes {
            let (c0, r0, c1, r1) = grid.cell_range(*b);
            for row in r0..=r1 {
                for column in c0..=c1 {
                    grid.starts[(row * grid.columns + column) as usize] += 1;
                }
            }
        }
        let mut total = 0;
        for start in grid.starts.iter_mut() {
            let count = *start;
            *start = total;
            total += count;
        }
        grid.items = vec![0; total as usize];
        let mut fill = grid.starts.clone();
        for (index, b) in boxes.iter().enumerate() {
            let (c0, r0, c1, r1) = grid.cell_range(*b);
            for row in r0..=r1 {
                for column in c0..=c1 {
                    let cell = (row * grid.columns + column) as usize;
                    grid.items[fill[cell] as usize] = index as u32;
                    fill[cell] += 1;
                }
            }
        }
        grid
    }

    /// The clamped cell coordinates a box covers.
    pub(crate) fn cell_range(&self, b: Aabb) -> (i32, i32, i32, i32) {
        let (c0, r0) = self.cell_coords(b.min);
        let (c1, r1) = self.cell_coords(b.max);
        (c0, r0, c1, r1)
    }

    /// Cell coordinates of a point, clamped to the grid.
    pub(crate) fn cell_coords(&self, p: Vec2) -> (i32, i32) {
        let local = (p - self.origin) * self.inverse_cell;
        // `as` saturates, and NaN becomes zero: no panic on bad input.
        let column = (local.x.floor() as i32).clamp(0, self.columns - 1);
        let row = (local.y.floor() as i32).clamp(0, self.rows - 1);
        (column, row)
    }

    /// Calls `visit` with every cell within `margin` of the segment `a b`
    /// (and a few more, never fewer), row by row: a long diagonal touches
    /// a thin band of cells, not its whole bounding box.
    pub(crate) fn for_each_cell_near_segment(
        &self,
        a: Vec2,
        b: Vec2,
        margin: f32,
        mut visit: impl FnMut(i32, i32),
    ) {
        let (_, r0, _, r1) = self.cell_range(Aabb::around([a, b]).grown(margin));
        let d = b - a;
        for row in r0..=r1 {
            let band_min = self.origin.y + row as f32 * self.cell_size - margin;
            let band_max = band_min + self.cell_size + 2.0 * margin;
            // The part of the segment whose y lies in this row's band.
            let (t0, t1) = if d.y.abs() <= f32::EPSILON * (1.0 + d.x.abs()) {
                (0.0, 1.0)
            } else {
                let (u, v) = ((band_min - a.y) / d.y, (band_max - a.y) / d.y);
                (u.min(v).max(0.0), u.max(v).min(1.0))
            };
            if t0 > t1 {
                continue;
            }
            let (x0, x1) = (a.x + d.x * t0, a.x + d.x * t1);
            let (c0, _) = self.cell_coords(Vec2::new(x0.min(x1) - margin, band_min));
            let (c1, _) = self.cell_coords(Vec2::new(x0.max(x1) + margin, band_min));
            for column in c0..=c1 {
                visit(column, row);
            }
        }
    }

    /// The items of the cell at `(column, row)`.
    pub(crate) fn cell(&self, column: i32, row: i32) -> &[u32] {
        if column < 0 || row < 0 || column >= self.columns || row >= self.rows {
            return &[];
        }
        let cell = (row * self.columns + column) as usize;
        &self.items[self.starts[cell] as usize..self.starts[cell + 1] as usize]
    }

    /// The items of the cell holding `p`, or nothing when `p` is off the grid.
    pub(crate) fn at(&self, p: Vec2) -> &[u32] {
        let local = (p - self.origin) * self.inverse_cell;
        if !(local.x >= 0.0 && local.y >= 0.0) {
            return &[];
        }
        let (column, row) = (local.x.floor() as i32, local.y.floor() as i32);
        self.cell(column, row)
    }

    pub(crate) fn cell_size(&self) -> f32 {
        self.cell_size
    }

    pub(crate) fn columns(&self) -> i32 {
        self.columns
    }

    pub(crate) fn rows(&self) -> i32 {
        self.rows
    }

    /// Bytes held by the grid's tables.
    pub(crate) fn heap_bytes(&self) -> usize {
        (self.starts.len() + self.items.len()) * 4
    }
}
