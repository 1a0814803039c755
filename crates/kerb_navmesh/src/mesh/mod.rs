//! The validated navmesh: convex polygons, their neighbours and a grid.

use glam::Vec2;

mod grid;
mod locate;
mod movement;
mod walls;

pub use grid::Aabb;
pub(crate) use grid::Grid;
pub use movement::MoveResult;

/// Index of a polygon in a [`NavMesh`].
///
/// The ids a mesh hands out ([`NavMesh::locate`], [`NavMesh::polygon_ids`]
/// and the like) are always in range. The queries about one polygon
/// ([`NavMesh::centroid`], [`NavMesh::neighbors`] and the like) index with
/// the id as a slice does, so they panic on one at or past
/// [`NavMesh::polygon_count`]. [`NavMesh::move_along`] and
/// [`NavMesh::locate_from`] take any id, since a stale one is easy to keep
/// across a world reload, and search for the polygon instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct PolygonId(pub u32);

impl PolygonId {
    /// The index as `usize`.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What lies across one edge of a polygon.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeLink {
    /// Another walkable polygon.
    Neighbor(PolygonId),
    /// The edge of the walkable area.
    Wall,
}

pub(crate) const NO_NEIGHBOR: u32 = u32::MAX;

/// One polygon edge as a half-plane, with what lies across it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EdgePlane {
    /// Inward unit normal.
    pub(crate) normal: Vec2,
    /// `normal · x >= offset` on the inner side.
    pub(crate) offset: f32,
    /// The polygon across the edge, or `NO_NEIGHBOR` for a wall.
    pub(crate) neighbor: u32,
}

/// A walkable area made of convex polygons that share edges.
///
/// It can only be made by validation ([`crate::ValidWorld::from_ron`],
/// [`crate::WorldFile::validate`] or [`NavMesh::from_polygons`]), so every
/// `NavMesh` is valid: convex counter-clockwise polygons, no T-junctions, no
/// edge shared by more than two polygons, and every edge linked to its
/// neighbour or marked as a wall.
#[derive(Clone, Debug)]
pub struct NavMesh {
    pub(crate) vertices: Vec<Vec2>,
    /// Compressed rows: polygon `i` owns corners `starts[i]..starts[i + 1]`.
    pub(crate) starts: Vec<u32>,
    /// Vertex index of each corner, counter-clockwise.
    pub(crate) corners: Vec<u32>,
    /// The edge leaving each corner, in one 16-byte record so a polygon's
    /// edges share a cache line or two.
    pub(crate) edges: Vec<EdgePlane>,
    pub(crate) centroids: Vec<Vec2>,
    pub(crate) bounds: Vec<Aabb>,
    pub(crate) total_bounds: Aabb,
    pub(crate) polygon_grid: Grid,
    /// Wall edges as (polygon, corner) pairs, and a grid over them.
    pub(crate) walls: Vec<(u32, u32)>,
    pub(crate) wall_grid: Grid,
    /// The connected piece of walkable area each polygon belongs to.
    pub(crate) islands: Vec<u32>,
    /// Whether each vertex ends a wall edge, i.e. is a corner a unit can
    /// brush against.
    pub(crate) on_wall: Vec<bool>,
    /// Whether each vertex is a wall corner the walkable area wraps round
    /// (it spans more than half a turn there): where shortest paths bend.
    pub(crate) reflex: Vec<bool>,
}

impl NavMesh {
    /// How many polygons there are.
    #[inline]
    pub fn polygon_count(&self) -> usize {
        self.starts.len() - 1
    }

    /// All polygon ids.
    pub fn polygon_ids(&self) -> impl ExactSizeIterator<Item = PolygonId> + '_ {
        (0..self.polygon_count() as u32).map(PolygonId)
    }

    /// The shared vertex table.
    #[inline]
    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices
    }

    #[inline]
    pub(crate) fn corner_range(&self, polygon: PolygonId) -> std::ops::Range<usize> {
        self.starts[polygon.index()] as usize..self.starts[polygon.index() + 1] as usize
    }

    /// The vertex indices of a polygon, counter-clockwise.
    pub fn polygon_vertex_indices(&self, polygon: PolygonId) -> &[u32] {
        &self.corners[self.corner_range(polygon)]
    }

    /// The corner positions of a polygon, counter-clockwise.
    pub fn polygon_vertices(&self, polygon: PolygonId) -> impl ExactSizeIterator<Item = Vec2> + '_ {
        self.polygon_vertex_indices(polygon)
            .iter()
            .map(|&v| self.vertices[v as usize])
    }

    /// What lies across each edge of a polygon; edge `i` runs from corner
    /// `i` to corner `i + 1`.
    pub fn polygon_links(
        &self,
        polygon: PolygonId,
    ) -> impl ExactSizeIterator<Item = EdgeLink> + '_ {
        self.edges[self.corner_range(polygon)].iter().map(|edge| {
            let n = edge.neighbor;
            if n == NO_NEIGHBOR {
                EdgeLink::Wall
            } else {
                EdgeLink::Neighbor(PolygonId(n))
            }
        })
    }

    /// The polygons that share an edge with `polygon`.
    pub fn neighbors(&self, polygon: PolygonId) -> impl Iterator<Item = PolygonId> + '_ {
        self.polygon_links(polygon).filter_map(|link| match link {
            EdgeLink::Neighbor(id) => Some(id),
            EdgeLink::Wall => None,
        })
    }

    /// The average of a polygon's corners, which lies inside it.
    #[inline]
    pub fn centroid(&self, polygon: PolygonId) -> Vec2 {
        self.centroids[polygon.index()]
    }

    /// A polygon's bounding box.
    #[inline]
    pub fn polygon_bounds(&self, polygon: PolygonId) -> Aabb {
        self.bounds[polygon.index()]
    }

    /// The bounding box of the whole walkable area.
    #[inline]
    pub fn bounds(&self) -> Aabb {
        self.total_bounds
    }

    /// Every wall edge, as its two end points.
    pub fn walls(&self) -> impl ExactSizeIterator<Item = (Vec2, Vec2)> + '_ {
        self.walls
            .iter()
            .map(|&(polygon, corner)| self.edge(PolygonId(polygon), corner as usize))
    }

    /// The end points of the edge leaving corner `corner` (an index into
    /// the flat corner table) of `polygon`.
    #[inline]
    pub(crate) fn edge(&self, polygon: PolygonId, corner: usize) -> (Vec2, Vec2) {
        let (from, to) = self.edge_vertex_indices(polygon, corner);
        (self.vertices[from], self.vertices[to])
    }

    /// The vertex indices at the ends of the edge leaving corner `corner`
    /// (an index into the flat corner table) of `polygon`.
    #[inline]
    pub(crate) fn edge_vertex_indices(&self, polygon: PolygonId, corner: usize) -> (usize, usize) {
        let range = self.corner_range(polygon);
        let next = if corner + 1 == range.end {
            range.start
        } else {
            corner + 1
        };
        (self.corners[corner] as usize, self.corners[next] as usize)
    }

    /// The side of `p` relative to the edge `from -> to`: positive on the
    /// left (inside a counter-clockwise polygon), zero exactly on the line.
    ///
    /// The sign is exact (Shewchuk's adaptive predicate), so the polygons
    /// round a shared edge or vertex never both claim, or both reject, a
    /// point near it, however close it is: a plain `f64` determinant rounds
    /// `p - from` for a point a hair from a far vertex.
    #[inline]
    pub(crate) fn side(from: Vec2, to: Vec2, p: Vec2) -> f64 {
        let coord = |v: Vec2| robust::Coord { x: v.x, y: v.y };
        robust::orient2d(coord(from), coord(to), coord(p))
    }

    /// Whether `p` is inside every edge of `polygon` by more than rounding
    /// could change: a cheap test from the edge planes alone that lets the
    /// exact one be skipped away from edges.
    #[inline]
    pub(crate) fn clearly_inside(&self, polygon: PolygonId, p: Vec2) -> bool {
        let margin = 1e-5 * (1.0 + p.abs().max_element());
        self.edges[self.corner_range(polygon)]
            .iter()
            .all(|edge| edge.normal.dot(p) - edge.offset > margin)
    }

    /// Whether the closed polygon (edges included) contains `p`.
    pub fn contains_closed(&self, polygon: PolygonId, p: Vec2) -> bool {
        self.edges_of(polygon)
            .all(|(from, to)| Self::side(from, to, p) >= 0.0)
    }

    /// Whether `polygon` owns `p` under the tie-break that makes every point
    /// of the walkable interior belong to exactly one polygon.
    ///
    /// A point on an edge or vertex is treated as if nudged by an
    /// infinitesimal `(ε, ε²)`, so exactly one of the polygons around it
    /// contains the nudged point (simulation of simplicity).
    pub fn owns(&self, polygon: PolygonId, p: Vec2) -> bool {
        // Most polygons a point is tested against (a grid cell's) are
        // nowhere near it: their bounds say so without the exact test.
        if !self.bounds[polygon.index()].contains(p) {
            return false;
        }
        self.edges_of(polygon).all(|(from, to)| {
            let side = Self::side(from, to, p);
            side > 0.0 || (side == 0.0 && nudge_is_inside(to - from))
        })
    }

    pub(crate) fn edges_of(&self, polygon: PolygonId) -> impl Iterator<Item = (Vec2, Vec2)> + '_ {
        let corners = self.polygon_vertex_indices(polygon);
        let count = corners.len();
        (0..count).map(move |i| {
            (
                self.vertices[corners[i] as usize],
                self.vertices[corners[(i + 1) % count] as usize],
            )
        })
    }

    /// The closest point of the closed polygon to `p`.
    pub fn closest_point_in_polygon(&self, polygon: PolygonId, p: Vec2) -> Vec2 {
        if self.contains_closed(polygon, p) {
            return p;
        }
        let mut best = p;
        let mut best_distance = f32::INFINITY;
        for (from, to) in self.edges_of(polygon) {
            let candidate = closest_point_on_segment(from, to, p);
            let distance = candidate.distance_squared(p);
            if distance < best_distance {
                best_distance = distance;
                best = candidate;
            }
        }
        best
    }

    /// Moves `p`, which should already be in or on `polygon`, to a point the
    /// closed polygon contains, correcting rounding by the smallest push.
    pub(crate) fn clamp_into(&self, polygon: PolygonId, mut p: Vec2) -> Vec2 {
        if self.clearly_inside(polygon, p) || self.contains_closed(polygon, p) {
            return p;
        }
        // A point rounded a hair outside has a representable neighbour
        // inside: the nearest of those is the smallest push there is.
        if let Some(inside) = self.nearest_neighbour_inside(polygon, p) {
            return inside;
        }
        for _ in 0..4 {
            if self.contains_closed(polygon, p) {
                return p;
            }
            let range = self.corner_range(polygon);
            for corner in range {
                let EdgePlane { normal, offset, .. } = self.edges[corner];
                let depth = offset - normal.dot(p);
                if depth > 0.0 {
                    // Push slightly past the edge so rounding cannot leave it out.
                    p += normal
                        * (depth + depth.abs() * 1e-3 + f32::EPSILON * p.abs().max_element());
                }
            }
        }
        let center = self.centroid(polygon);
        for step in 1..=24 {
            // Ever larger steps towards the centroid, which is inside.
            let candidate = p.lerp(center, 2f32.powi(step - 25));
            if self.contains_closed(polygon, candidate) {
                return candidate;
            }
        }
        center
    }

    /// The `f32` point within two steps of rounding of `p` in each axis that
    /// the closed `polygon` contains and is nearest to `p`, if any.
    fn nearest_neighbour_inside(&self, polygon: PolygonId, p: Vec2) -> Option<Vec2> {
        let steps = |x: f32| {
            let (down, up) = (x.next_down(), x.next_up());
            [down.next_down(), down, x, up, up.next_up()]
        };
        let mut best: Option<(f32, Vec2)> = None;
        for x in steps(p.x) {
            for y in steps(p.y) {
                let candidate = Vec2::new(x, y);
                let distance = candidate.as_dvec2().distance_squared(p.as_dvec2()) as f32;
                if best.is_none_or(|(d, _)| distance < d)
                    && self.contains_closed(polygon, candidate)
                {
                    best = Some((distance, candidate));
                }
            }
        }
        best.map(|(_, point)| point)
    }

    /// The connected piece of walkable area (island) `polygon` belongs to:
    /// two polygons are connected by a walk exactly when their islands match.
    #[inline]
    pub fn island(&self, polygon: PolygonId) -> u32 {
        self.islands[polygon.index()]
    }

    /// Labels every polygon with its island by flooding the adjacency graph.
    pub(crate) fn label_islands(&mut self) {
        const UNLABELLED: u32 = u32::MAX;
        let mut islands = vec![UNLABELLED; self.polygon_count()];
        let mut stack = Vec::new();
        let mut next_island = 0;
        for seed in 0..islands.len() {
            if islands[seed] != UNLABELLED {
                continue;
            }
            islands[seed] = next_island;
            stack.push(seed as u32);
            while let Some(polygon) = stack.pop() {
                for neighbor in self.neighbors(PolygonId(polygon)) {
                    if islands[neighbor.index()] == UNLABELLED {
                        islands[neighbor.index()] = next_island;
                        stack.push(neighbor.0);
                    }
                }
            }
            next_island += 1;
        }
        self.islands = islands;
    }

    /// Marks the vertices that end walls, and among them the reflex ones.
    ///
    /// Walking the boundary with the walkable area on the left, a corner it
    /// wraps round is a right turn. Each wall edge gives its end the way in
    /// and its start the way out; a vertex with either is on a wall.
    pub(crate) fn mark_wall_corners(&mut self) {
        let mut way_in = vec![None; self.vertices.len()];
        let mut way_out = vec![None; self.vertices.len()];
        let mut pinched = vec![false; self.vertices.len()];
        for &(polygon, corner) in &self.walls {
            let (from, to) = self.edge_vertex_indices(PolygonId(polygon), corner as usize);
            let along = (self.vertices[to] - self.vertices[from]).as_dvec2();
            pinched[to] |= way_in[to].replace(along).is_some();
            pinched[from] |= way_out[from].replace(along).is_some();
        }
        self.on_wall = way_in
            .iter()
            .zip(&way_out)
            .map(|(a, b)| a.is_some() || b.is_some())
            .collect();
        self.reflex = (0..self.vertices.len())
            .map(|v| match (way_in[v], way_out[v]) {
                // Two pieces of boundary touching at one vertex: count it as
                // a corner to wrap round, the safe side.
                _ if pinched[v] => true,
                (Some(a), Some(b)) => a.perp_dot(b) < 0.0,
                _ => false,
            })
            .collect();
    }

    /// Approximate heap memory in bytes, for reports.
    pub fn heap_bytes(&self) -> usize {
        self.vertices.len() * 8
            + self.starts.len() * 4
            + self.corners.len() * (4 + std::mem::size_of::<EdgePlane>())
            + self.centroids.len() * 8
            + self.bounds.len() * 16
            + self.walls.len() * 8
            + self.islands.len() * 4
            + self.on_wall.len()
            + self.reflex.len()
            + self.polygon_grid.heap_bytes()
            + self.wall_grid.heap_bytes()
    }
}

/// Whether a point on the line of an edge with direction `d` counts as on the
/// inner side, as if moved by `(ε, ε²)`: the sign of `d × (ε, ε²)`.
#[inline]
pub(crate) fn nudge_is_inside(d: Vec2) -> bool {
    d.y < 0.0 || (d.y == 0.0 && d.x > 0.0)
}

/// The closest point of segment `a b` to `p`.
///
/// Worked in `f64`: in `f32` a segment kilometres long puts the point
/// millimetres off at a few thousand metres from the origin.
#[inline]
pub fn closest_point_on_segment(a: Vec2, b: Vec2, p: Vec2) -> Vec2 {
    let (a, b, p) = (a.as_dvec2(), b.as_dvec2(), p.as_dvec2());
    let ab = b - a;
    let length_squared = ab.length_squared();
    if length_squared == 0.0 {
        return a.as_vec2();
    }
    let t = ((p - a).dot(ab) / length_squared).clamp(0.0, 1.0);
    (a + ab * t).as_vec2()
}
