//! Which polygon holds a point, and the nearest walkable point to one.

use glam::Vec2;

use crate::mesh::{NO_NEIGHBOR, NavMesh, PolygonId};

/// Most polygons a hinted walk crosses before falling back to the grid.
const MAX_WALK: usize = 4096;

impl NavMesh {
    /// The polygon holding `p`, or `None` off the walkable area. Expected
    /// O(1): one grid cell's polygons are tested.
    ///
    /// A point on a shared edge or vertex belongs to exactly one polygon,
    /// always the same one ([`NavMesh::owns`]); a point on the outer boundary
    /// belongs to the lowest-numbered polygon whose edge it is on.
    pub fn locate(&self, p: Vec2) -> Option<PolygonId> {
        if !p.is_finite() {
            return None;
        }
        let candidates = self.polygon_grid.at(p);
        let owner = candidates
            .iter()
            .map(|&id| PolygonId(id))
            .find(|&id| self.owns(id, p));
        owner.or_else(|| {
            candidates
                .iter()
                .map(|&id| PolygonId(id))
                .filter(|&id| self.contains_closed(id, p))
                .min()
        })
    }

    /// Like [`NavMesh::locate`], starting from `hint`, the polygon the point
    /// was last in: the path-polygon thesis's "current polygon, then its neighbours"
    /// generalised to a walk that crosses as many polygons as needed.
    pub fn locate_from(&self, hint: PolygonId, p: Vec2) -> Option<PolygonId> {
        if hint.index() >= self.polygon_count() || !p.is_finite() {
            return self.locate(p);
        }
        if self.owns(hint, p) {
            return Some(hint);
        }
        let mut polygon = hint;
        let from = self.centroid(hint);
        let direction = p - from;
        for _ in 0..MAX_WALK {
            if self.owns(polygon, p) {
                return Some(polygon);
            }
            let Some((t, corner)) = self.exit(polygon, from, direction) else {
                break;
            };
            let next = self.edges[corner].neighbor;
            if next == NO_NEIGHBOR || t >= 1.0 {
                break;
            }
            polygon = PolygonId(next);
        }
        self.locate(p)
    }

    /// Where the ray `from + t * direction` (t >= 0) leaves convex `polygon`:
    /// the parameter and the corner whose edge it crosses (Cyrus-Beck).
    #[inline]
    pub(crate) fn exit(
        &self,
        polygon: PolygonId,
        from: Vec2,
        direction: Vec2,
    ) -> Option<(f32, usize)> {
        let mut best: Option<(f32, usize)> = None;
        // Motion within a millionth of a radian of parallel to an edge never
        // crosses it: sliding along a wall must not keep "hitting" it.
        let parallel = -1e-6 * direction.length();
        for corner in self.corner_range(polygon) {
            let edge = self.edges[corner];
            let normal = edge.normal;
            let closing = normal.dot(direction);
            if closing >= parallel {
                continue;
            }
            let t = ((normal.dot(from) - edge.offset) / -closing).max(0.0);
            best = match best {
                None => Some((t, corner)),
                Some((best_t, _)) if t < best_t - EXIT_TIE * (1.0 + best_t) => Some((t, corner)),
                // Collinear edges (a straight-angle vertex between them) are
                // crossed at the same moment: the way out is through the
                // one that holds the crossing point.
                Some((best_t, best_corner))
                    if t <= best_t + EXIT_TIE * (1.0 + best_t)
                        && !self.edge_holds(polygon, best_corner, from + direction * best_t)
                        && self.edge_holds(polygon, corner, from + direction * t) =>
                {
                    Some((t, corner))
                }
                kept => kept,
            };
        }
        best
    }

    /// Whether the point `p`, on the line of the edge leaving `corner` of
    /// `polygon`, lies between its ends (to within rounding).
    fn edge_holds(&self, polygon: PolygonId, corner: usize, p: Vec2) -> bool {
        let (a, b) = self.edge(polygon, corner);
        let along = b - a;
        let s = (p - a).dot(along) / along.length_squared();
        (-EXIT_TIE..=1.0 + EXIT_TIE).contains(&s)
    }

    /// The walkable point closest to `p`, exactly, and its polygon. `p`
    /// itself when it is on the walkable area. `None` only for NaN input.
    pub fn nearest_point(&self, p: Vec2) -> Option<(Vec2, PolygonId)> {
        if p.is_nan() {
            return None;
        }
        if let Some(polygon) = self.locate(p) {
            return Some((p, polygon));
        }
        let grid = &self.polygon_grid;
        // Search rings of cells outwards from the nearest cell until the
        // ring cannot hold anything closer than the best found.
        let clamped = p.clamp(self.total_bounds.min, self.total_bounds.max);
        let (column, row) = grid.cell_coords(clamped);
        let outside = p.distance(clamped);
        let mut best: Option<(f32, Vec2, PolygonId)> = None;
        let max_ring = grid.columns().max(grid.rows());
        for ring in 0..=max_ring {
            let ring_distance = outside.max((ring - 1).max(0) as f32 * grid.cell_size());
            if best.is_some_and(|(distance, _, _)| distance < ring_distance) {
                break;
            }
            for (c, r) in ring_cells(column, row, ring) {
                for &id in grid.cell(c, r) {
                    let id = PolygonId(id);
                    if best.is_some_and(|(d, _, _)| self.bounds[id.index()].distance_to(p) > d) {
                        continue;
                    }
                    let candidate = self.closest_point_in_polygon(id, p);
                    let distance = candidate.distance(p);
                    if best.is_none_or(|(d, _, b)| distance < d || (distance == d && id < b)) {
                        best = Some((distance, candidate, id));
                    }
                }
            }
        }
        best.map(|(_, point, polygon)| {
            let point = self.clamp_into(polygon, point);
            (point, self.owner_near(polygon, point))
        })
    }

    /// The polygon [`NavMesh::locate`] gives for `p`, which the closed
    /// `polygon` holds. On a shared edge or vertex that is the owner under
    /// the tie-break ([`NavMesh::owns`]), which may be a neighbour: every
    /// position the mesh hands out is found again by `locate` in the
    /// polygon it comes with.
    pub(crate) fn owner_near(&self, polygon: PolygonId, p: Vec2) -> PolygonId {
        if self.clearly_inside(polygon, p) || self.owns(polygon, p) {
            return polygon;
        }
        self.locate_from(polygon, p).unwrap_or(polygon)
    }
}

/// The cells at Chebyshev distance `ring` from `(column, row)`.
fn ring_cells(column: i32, row: i32, ring: i32) -> impl Iterator<Item = (i32, i32)> {
    let side = 2 * ring + 1;
    let perimeter = if ring == 0 { 1 } else { 4 * (side - 1) };
    (0..perimeter).map(move |i| {
        if ring == 0 {
            return (column, row);
        }
        let edge = i / (side - 1);
        let offset = i % (side - 1);
        match edge {
            0 => (column - ring + offset, row - ring),
            1 => (column + ring, row - ring + offset),
            2 => (column + ring - offset, row + ring),
            _ => (column - ring, row + ring - offset),
        }
    })
}

/// Relative difference under which two edges are crossed at the same moment.
const EXIT_TIE: f32 = 1e-5;
