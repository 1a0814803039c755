//! Moving a unit while keeping it on the walkable area.
//!
//! The path-polygon thesis tests the desired position against the current polygon and its
//! neighbours and refuses the move otherwise, which leaves units stuck on
//! walls and lets long moves skip over gaps. Here the move is traced through
//! every polygon it crosses; at a wall the rest of the move slides along it.

use glam::Vec2;

use crate::mesh::{NO_NEIGHBOR, NavMesh, PolygonId};

/// Most edges one move may cross or slide along before it stops where it
/// is: a guard against pathological meshes, far above any real move.
const MAX_STEPS: usize = 10_000;

/// Where a move ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveResult {
    /// The new position, always inside (or on the edge of) `polygon`.
    pub position: Vec2,
    /// The polygon holding the new position.
    pub polygon: PolygonId,
    /// Whether a wall stopped or deflected the move.
    pub hit_wall: bool,
}

impl NavMesh {
    /// Moves from `from` (in `polygon`) towards `to`, crossing as many
    /// polygons as the move needs. At a wall the remaining motion keeps only
    /// its component along the wall, so units slide instead of sticking.
    ///
    /// The result is always on the walkable area, whatever the length of the
    /// move. A `from` outside `polygon` is first snapped onto the mesh.
    #[inline]
    pub fn move_along(&self, polygon: PolygonId, from: Vec2, to: Vec2) -> MoveResult {
        let (mut position, mut polygon) = self.start_of_move(polygon, from);
        // Most moves stay inside the polygon: both ends inside a convex
        // polygon means the whole move is.
        if self.clearly_inside(polygon, to) {
            return MoveResult {
                position: to,
                polygon,
                hit_wall: false,
            };
        }
        let mut hit_wall = false;
        if !to.is_finite() {
            return MoveResult {
                position,
                polygon,
                hit_wall,
            };
        }
        let mut motion = to - position;
        let mut last_wall_normal: Option<Vec2> = None;
        for _ in 0..MAX_STEPS {
            if motion == Vec2::ZERO {
                break;
            }
            let Some((t, corner)) = self.exit(polygon, position, motion) else {
                position += motion;
                break;
            };
            if t >= 1.0 {
                position += motion;
                break;
            }
            position += motion * t;
            motion *= 1.0 - t;
            let next = self.edges[corner].neighbor;
            if next != NO_NEIGHBOR {
                polygon = PolygonId(next);
                continue;
            }
            hit_wall = true;
            let inward = self.edges[corner].normal;
            // Keep only the part of the motion along the wall.
            let wall = inward.perp();
            motion = wall * wall.dot(motion);
            if let Some(previous) = last_wall_normal
                && previous != inward
                && previous.dot(motion) < -1e-6 * motion.length()
            {
                // Sliding along this wall pushes into the last one: a corner.
                motion = Vec2::ZERO;
            }
            last_wall_normal = Some(inward);
        }
        let position = self.clamp_into(polygon, position);
        MoveResult {
            position,
            polygon: self.owner_near(polygon, position),
            hit_wall,
        }
    }

    /// A valid place to start a move: `from` if `polygon` holds it, else the
    /// nearest walkable point.
    fn start_of_move(&self, polygon: PolygonId, from: Vec2) -> (Vec2, PolygonId) {
        if polygon.index() < self.polygon_count()
            && (self.clearly_inside(polygon, from) || self.contains_closed(polygon, from))
        {
            return (from, polygon);
        }
        self.nearest_point(from)
            .unwrap_or_else(|| (self.centroid(PolygonId(0)), PolygonId(0)))
    }
}
