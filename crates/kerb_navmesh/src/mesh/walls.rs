//! The walls nearest a point, from the wall grid.

use glam::Vec2;

use super::grid::Aabb;
use super::{NavMesh, PolygonId, closest_point_on_segment};

impl NavMesh {
    /// Whether `p` is on the walkable area with `clearance` from every wall:
    /// room for a body of that radius to stand there.
    pub fn has_room(&self, p: Vec2, clearance: f32) -> bool {
        self.locate(p).is_some() && self.distance_to_wall(p, clearance) >= clearance
    }

    /// The distance from `p` to the nearest wall, or `limit` if no wall is
    /// closer than that. Only the walls within `limit` are looked at.
    pub fn distance_to_wall(&self, p: Vec2, limit: f32) -> f32 {
        self.nearest_wall_point(p, limit)
            .map_or(limit.max(0.0), |q| q.distance(p))
    }

    /// The closest point of any wall to `p`, if one is within `limit`.
    pub fn nearest_wall_point(&self, p: Vec2, limit: f32) -> Option<Vec2> {
        let limit = limit.max(0.0);
        let (c0, r0, c1, r1) = self
            .wall_grid
            .cell_range(Aabb { min: p, max: p }.grown(limit));
        let mut nearest = None;
        let mut best = limit;
        for row in r0..=r1 {
            for column in c0..=c1 {
                for &wall in self.wall_grid.cell(column, row) {
                    let (polygon, corner) = self.walls[wall as usize];
                    let (a, b) = self.edge(PolygonId(polygon), corner as usize);
                    let q = closest_point_on_segment(a, b, p);
                    let distance = q.distance(p);
                    if distance <= best {
                        best = distance;
                        nearest = Some(q);
                    }
                }
            }
        }
        nearest
    }
}
