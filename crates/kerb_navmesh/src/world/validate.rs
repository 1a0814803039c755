//! From a world file to a validated [`ValidWorld`]: every check, then adjacency
//! and the location grids.

use glam::{DVec2, Vec2};
use rustc_hash::FxHashMap;

use crate::mesh::{Aabb, Grid};
use crate::mesh::{EdgePlane, NO_NEIGHBOR, NavMesh, PolygonId};
use crate::{Model, ModelKind, PolygonRef, WorldError, WorldFile};

/// A validated world: the navmesh made from its walkable models and the
/// scenery to draw.
#[derive(Clone, Debug)]
pub struct ValidWorld {
    /// The world's name.
    pub name: String,
    /// The walkable area.
    pub navmesh: NavMesh,
    /// The walkable models as written, in file order, for drawing each
    /// (roads, pavements) in its own way.
    pub walkable: Vec<ResolvedModel>,
    /// Everything that is not walkable, in file order.
    pub scenery: Vec<ResolvedModel>,
}

/// A model with its polygons resolved to positions, counter-clockwise and
/// convex: what a game draws.
#[derive(Clone, Debug, PartialEq)]
pub struct ResolvedModel {
    /// The model's name.
    pub name: String,
    /// What it is.
    pub kind: ModelKind,
    /// Each polygon's corners, counter-clockwise.
    pub polygons: Vec<Vec<Vec2>>,
}

impl ValidWorld {
    /// Parses and validates a world file.
    pub fn from_ron(text: &str) -> Result<ValidWorld, WorldError> {
        WorldFile::from_ron(text)?.validate()
    }
}

impl WorldFile {
    /// Checks everything and builds the navmesh, adjacency and grids.
    pub fn validate(&self) -> Result<ValidWorld, WorldError> {
        for (model_index, model) in self.models.iter().enumerate() {
            check_finite(model_index, model)?;
        }
        let mut builder = MeshBuilder::default();
        let mut walkable = Vec::new();
        let mut scenery = Vec::new();
        for (model_index, model) in self.models.iter().enumerate() {
            if model.kind == ModelKind::Walkable {
                walkable.push(builder.add_model(model_index, model)?);
            } else {
                scenery.push(resolved_model(model_index, model)?);
            }
        }
        Ok(ValidWorld {
            name: self.name.clone(),
            navmesh: builder.finish()?,
            walkable,
            scenery,
        })
    }
}

impl NavMesh {
    /// Validates and builds a navmesh from vertices and convex polygons given
    /// as index lists (either winding), as if they were one walkable model.
    pub fn from_polygons(vertices: &[Vec2], polygons: &[Vec<u32>]) -> Result<NavMesh, WorldError> {
        let model = Model {
            name: String::from("walkable"),
            kind: ModelKind::Walkable,
            vertices: vertices.iter().map(|v| (v.x, v.y)).collect(),
            polygons: polygons.to_vec(),
        };
        check_finite(0, &model)?;
        let mut builder = MeshBuilder::default();
        builder.add_model(0, &model)?;
        builder.finish()
    }
}

fn check_finite(model_index: usize, model: &Model) -> Result<(), WorldError> {
    for (vertex, &(x, y)) in model.vertices.iter().enumerate() {
        if !x.is_finite() || !y.is_finite() {
            return Err(WorldError::NonFiniteVertex {
                model: model_index,
                model_name: model.name.clone(),
                vertex,
                x,
                y,
            });
        }
    }
    Ok(())
}

fn polygon_ref(model_index: usize, model: &Model, polygon: usize) -> PolygonRef {
    PolygonRef {
        model: model_index,
        model_name: model.name.clone(),
        polygon,
    }
}

/// Checks one polygon's shape and returns its model-local indices in
/// counter-clockwise order. `position` maps a model-local index to the
/// identity used for duplicate detection and to a point.
fn checked_polygon(
    at: impl Fn() -> PolygonRef,
    indices: &[u32],
    vertex_count: usize,
    position: impl Fn(u32) -> (u32, Vec2),
) -> Result<Vec<u32>, WorldError> {
    let count = indices.len();
    if count < 3 {
        return Err(WorldError::TooFewVertices { at: at(), count });
    }
    if let Some(&index) = indices.iter().find(|&&i| i as usize >= vertex_count) {
        return Err(WorldError::IndexOutOfRange {
            at: at(),
            index,
            vertex_count,
        });
    }
    let mut twice_area = 0.0;
    let mut bounds = Aabb::EMPTY;
    for i in 0..count {
        let next = (i + 1) % count;
        let (here, next_point) = (position(indices[i]), position(indices[next]));
        if here.0 == next_point.0 {
            return Err(WorldError::DuplicateVertex {
                at: at(),
                vertex: indices[i],
                position: i,
                next,
            });
        }
        twice_area += here.1.as_dvec2().perp_dot(next_point.1.as_dvec2());
        bounds = bounds.union(Aabb::around([here.1]));
    }
    let diagonal_sq = f64::from((bounds.max - bounds.min).length_squared());
    if twice_area.abs() <= 2e-6 * diagonal_sq || twice_area.abs() < 1e-12 {
        return Err(WorldError::Degenerate {
            at: at(),
            area: (twice_area.abs() / 2.0) as f32,
        });
    }
    let mut ordered = indices.to_vec();
    if twice_area < 0.0 {
        ordered.reverse();
    }
    let point = |i: usize| position(ordered[i % count]).1.as_dvec2();
    // Convex: every corner turns left (or goes straight), and the edge
    // directions go round exactly once, which rules out stars that wind
    // twice. Counting quadrant steps avoids a trigonometric call per corner.
    let mut quadrant_steps = 0;
    let mut incoming = point(0) - point(count - 1);
    for (i, &vertex) in ordered.iter().enumerate() {
        let outgoing = point(i + 1) - point(i);
        let cross = incoming.perp_dot(outgoing);
        if cross < -1e-9 * incoming.length() * outgoing.length() {
            return Err(WorldError::NonConvex { at: at(), vertex });
        }
        quadrant_steps += (quadrant(outgoing) + 4 - quadrant(incoming)) % 4;
        incoming = outgoing;
    }
    if quadrant_steps > 4 {
        return Err(WorldError::NonConvex {
            at: at(),
            vertex: ordered[0],
        });
    }
    Ok(ordered)
}

/// Which quarter-turn a non-zero direction points into, counter-clockwise
/// from +x, each quarter half-open.
fn quadrant(d: DVec2) -> u32 {
    if d.x > 0.0 && d.y >= 0.0 {
        0
    } else if d.x <= 0.0 && d.y > 0.0 {
        1
    } else if d.x < 0.0 && d.y <= 0.0 {
        2
    } else {
        3
    }
}

fn resolved_model(model_index: usize, model: &Model) -> Result<ResolvedModel, WorldError> {
    let vertex = |i: u32| {
        let (x, y) = model.vertices[i as usize];
        (i, Vec2::new(x, y))
    };
    let polygons = model
        .polygons
        .iter()
        .enumerate()
        .map(|(polygon, indices)| {
            let ordered = checked_polygon(
                || polygon_ref(model_index, model, polygon),
                indices,
                model.vertices.len(),
                vertex,
            )?;
            Ok(ordered.into_iter().map(|i| vertex(i).1).collect())
        })
        .collect::<Result<_, WorldError>>()?;
    Ok(ResolvedModel {
        name: model.name.clone(),
        kind: model.kind,
        polygons,
    })
}

/// Where a navmesh polygon came from, for error messages.
struct Origin {
    at: PolygonRef,
    /// Model-local index of each corner, counter-clockwise.
    local: Vec<u32>,
}

#[derive(Default)]
struct MeshBuilder {
    vertices: Vec<Vec2>,
    /// Welds vertices at identical coordinates across walkable models.
    welded: FxHashMap<(u32, u32), u32>,
    polygons: Vec<Vec<u32>>,
    origins: Vec<Origin>,
}

fn coordinate_key(p: Vec2) -> (u32, u32) {
    // +0.0 and -0.0 are the same place.
    ((p.x + 0.0).to_bits(), (p.y + 0.0).to_bits())
}

impl MeshBuilder {
    /// Adds a walkable model's polygons to the mesh, and returns them
    /// resolved for drawing.
    fn add_model(
        &mut self,
        model_index: usize,
        model: &Model,
    ) -> Result<ResolvedModel, WorldError> {
        self.welded.reserve(model.vertices.len());
        self.vertices.reserve(model.vertices.len());
        let global: Vec<u32> = model
            .vertices
            .iter()
            .map(|&(x, y)| {
                let p = Vec2::new(x, y);
                let next = self.vertices.len() as u32;
                *self.welded.entry(coordinate_key(p)).or_insert_with(|| {
                    self.vertices.push(p);
                    next
                })
            })
            .collect();
        let mut resolved = Vec::with_capacity(model.polygons.len());
        for (polygon, indices) in model.polygons.iter().enumerate() {
            let local = checked_polygon(
                || polygon_ref(model_index, model, polygon),
                indices,
                model.vertices.len(),
                |i| {
                    let g = global[i as usize];
                    (g, self.vertices[g as usize])
                },
            )?;
            self.polygons
                .push(local.iter().map(|&i| global[i as usize]).collect());
            resolved.push(
                local
                    .iter()
                    .map(|&i| self.vertices[global[i as usize] as usize])
                    .collect(),
            );
            self.origins.push(Origin {
                at: polygon_ref(model_index, model, polygon),
                local,
            });
        }
        Ok(ResolvedModel {
            name: model.name.clone(),
            kind: model.kind,
            polygons: resolved,
        })
    }

    fn finish(self) -> Result<NavMesh, WorldError> {
        if self.polygons.is_empty() {
            return Err(WorldError::NoWalkableArea);
        }
        let mut starts = Vec::with_capacity(self.polygons.len() + 1);
        let mut corners = Vec::new();
        starts.push(0);
        for polygon in &self.polygons {
            corners.extend_from_slice(polygon);
            starts.push(corners.len() as u32);
        }
        let neighbors = self.link_edges(&starts, &corners)?;
        let vertices = self.vertices;
        let mut edges = Vec::with_capacity(corners.len());
        let mut centroids = Vec::with_capacity(self.polygons.len());
        let mut bounds = Vec::with_capacity(self.polygons.len());
        let mut walls = Vec::new();
        for (polygon, window) in starts.windows(2).enumerate() {
            let (start, end) = (window[0] as usize, window[1] as usize);
            let mut sum = DVec2::ZERO;
            for corner in start..end {
                let next = if corner + 1 == end { start } else { corner + 1 };
                let from = vertices[corners[corner] as usize];
                let to = vertices[corners[next] as usize];
                let normal = (to - from).perp().normalize_or_zero();
                edges.push(EdgePlane {
                    normal,
                    offset: normal.dot(from),
                    neighbor: neighbors[corner],
                });
                sum += from.as_dvec2();
                if neighbors[corner] == NO_NEIGHBOR {
                    walls.push((polygon as u32, corner as u32));
                }
            }
            centroids.push((sum / (end - start) as f64).as_vec2());
            bounds.push(Aabb::around(
                corners[start..end].iter().map(|&v| vertices[v as usize]),
            ));
        }
        let total_bounds = bounds.iter().fold(Aabb::EMPTY, |a, b| a.union(*b));
        let mean_area: f32 = bounds
            .iter()
            .map(|b| (b.max - b.min).max(Vec2::splat(1e-3)).element_product())
            .sum::<f32>()
            / bounds.len() as f32;
        let cell_size = mean_area.sqrt();
        let polygon_grid = Grid::build(total_bounds, cell_size, &bounds);
        let wall_bounds: Vec<Aabb> = walls
            .iter()
            .map(|&(polygon, corner)| {
                let start = starts[polygon as usize] as usize;
                let end = starts[polygon as usize + 1] as usize;
                let next = if corner as usize + 1 == end {
                    start
                } else {
                    corner as usize + 1
                };
                Aabb::around([
                    vertices[corners[corner as usize] as usize],
                    vertices[corners[next] as usize],
                ])
            })
            .collect();
        let wall_grid = Grid::build(total_bounds, cell_size, &wall_bounds);
        let mut mesh = NavMesh {
            vertices,
            starts,
            corners,
            edges,
            centroids,
            bounds,
            total_bounds,
            polygon_grid,
            walls,
            wall_grid,
            islands: Vec::new(),
            on_wall: Vec::new(),
            reflex: Vec::new(),
        };
        check_t_junctions(&mesh, &self.origins)?;
        mesh.label_islands();
        mesh.mark_wall_corners();
        Ok(mesh)
    }

    /// Links every edge to the polygon across it in one pass over a hash map
    /// keyed by the edge's vertex pair: O(E), never polygon against polygon.
    fn link_edges(&self, starts: &[u32], corners: &[u32]) -> Result<Vec<u32>, WorldError> {
        let mut neighbors = vec![NO_NEIGHBOR; corners.len()];
        // Edge (low, high) -> (polygon, corner, runs low to high, matched).
        let mut open: FxHashMap<(u32, u32), (u32, u32, bool, bool)> =
            FxHashMap::with_capacity_and_hasher(corners.len(), Default::default());
        for (polygon, window) in starts.windows(2).enumerate() {
            let (start, end) = (window[0] as usize, window[1] as usize);
            for corner in start..end {
                let next = if corner + 1 == end { start } else { corner + 1 };
                let (from, to) = (corners[corner], corners[next]);
                let key = (from.min(to), from.max(to));
                let forward = from < to;
                match open.get_mut(&key) {
                    None => {
                        open.insert(key, (polygon as u32, corner as u32, forward, false));
                    }
                    Some(entry) if entry.2 != forward && !entry.3 => {
                        neighbors[corner] = entry.0;
                        neighbors[entry.1 as usize] = polygon as u32;
                        entry.3 = true;
                    }
                    Some(entry) => {
                        let first = &self.origins[entry.0 as usize];
                        let position = entry.1 as usize - starts[entry.0 as usize] as usize;
                        let count = first.local.len();
                        return Err(WorldError::EdgeOverused {
                            first: first.at.clone(),
                            second: self.origins[polygon].at.clone(),
                            from: first.local[position],
                            to: first.local[(position + 1) % count],
                        });
                    }
                }
            }
        }
        Ok(neighbors)
    }
}

/// A vertex inside another polygon's edge would leave both edges unmatched,
/// so only wall edges need checking, against the vertices of nearby polygons.
fn check_t_junctions(mesh: &NavMesh, origins: &[Origin]) -> Result<(), WorldError> {
    for &(polygon, corner) in &mesh.walls {
        let polygon = PolygonId(polygon);
        let corner = corner as usize;
        let (a, b) = mesh.edge(polygon, corner);
        let (ia, ib) = {
            let range = mesh.corner_range(polygon);
            let next = if corner + 1 == range.end {
                range.start
            } else {
                corner + 1
            };
            (mesh.corners[corner], mesh.corners[next])
        };
        let ab = (b - a).as_dvec2();
        let length = ab.length();
        let tolerance = 1e-4 + 1e-6 * length;
        let (c0, r0, c1, r1) = mesh
            .polygon_grid
            .cell_range(Aabb::around([a, b]).grown(tolerance as f32));
        for row in r0..=r1 {
            for column in c0..=c1 {
                for &other in mesh.polygon_grid.cell(column, row) {
                    let other = PolygonId(other);
                    for (position, &vertex) in mesh.polygon_vertex_indices(other).iter().enumerate()
                    {
                        if vertex == ia || vertex == ib {
                            continue;
                        }
                        let w = (mesh.vertices[vertex as usize] - a).as_dvec2();
                        let along = w.dot(ab) / (length * length);
                        let off_line = ab.perp_dot(w).abs() / length;
                        let margin = tolerance / length;
                        if off_line <= tolerance && along > margin && along < 1.0 - margin {
                            let here = &origins[other.index()];
                            let wall_origin = &origins[polygon.index()];
                            let wall_position = corner - mesh.starts[polygon.index()] as usize;
                            let count = wall_origin.local.len();
                            return Err(WorldError::TJunction {
                                at: here.at.clone(),
                                vertex: here.local[position],
                                other: wall_origin.at.clone(),
                                edge_from: wall_origin.local[wall_position],
                                edge_to: wall_origin.local[(wall_position + 1) % count],
                            });
                        }
                    }
                }
            }
        }
    }
    Ok(())
}
