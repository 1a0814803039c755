//! Loading, validation errors, adjacency and point location.

use glam::Vec2;
use kerb_navmesh::generate::{TOWN_SEED, grid_world, town};
use kerb_navmesh::{
    EdgeLink, Model, ModelKind, NavMesh, PolygonId, ValidWorld, WorldError, WorldFile,
};

const SMALL: &str = include_str!("../../../assets/worlds/small.world.ron");
const TOWN: &str = include_str!("../../../assets/worlds/town.world.ron");

fn small() -> ValidWorld {
    ValidWorld::from_ron(SMALL).expect("the small world is valid")
}

fn one_model(vertices: &[(f32, f32)], polygons: &[&[u32]]) -> WorldFile {
    WorldFile {
        name: String::from("test"),
        models: vec![Model {
            name: String::from("ground"),
            kind: ModelKind::Walkable,
            vertices: vertices.to_vec(),
            polygons: polygons.iter().map(|p| p.to_vec()).collect(),
        }],
    }
}

const SQUARE: [(f32, f32); 4] = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)];

#[test]
fn small_world_loads_with_its_adjacency() {
    let world = small();
    let mesh = &world.navmesh;
    assert_eq!(world.name, "small");
    assert_eq!(mesh.polygon_count(), 6);
    assert_eq!(world.scenery.len(), 2);
    assert_eq!(world.scenery[0].kind, ModelKind::Building);
    // The walkable models stay apart for drawing, polygon for polygon.
    assert_eq!(world.walkable.len(), 1);
    assert_eq!(world.walkable[0].name, "streets");
    assert_eq!(world.walkable[0].polygons.len(), mesh.polygon_count());
    for (drawn, polygon) in world.walkable[0].polygons.iter().zip(mesh.polygon_ids()) {
        assert!(drawn.iter().copied().eq(mesh.polygon_vertices(polygon)));
    }
    let neighbors = |i: u32| {
        let mut n: Vec<u32> = mesh.neighbors(PolygonId(i)).map(|p| p.0).collect();
        n.sort();
        n
    };
    assert_eq!(neighbors(0), vec![1]);
    assert_eq!(neighbors(1), vec![0, 2, 3]);
    assert_eq!(neighbors(2), vec![1, 4]);
    assert_eq!(neighbors(3), vec![1]);
    assert_eq!(neighbors(4), vec![2]);
    assert_eq!(neighbors(5), Vec::<u32>::new());
    // Every edge is a neighbour or a wall, and neighbours are mutual.
    for polygon in mesh.polygon_ids() {
        for link in mesh.polygon_links(polygon) {
            if let EdgeLink::Neighbor(other) = link {
                assert!(mesh.neighbors(other).any(|p| p == polygon));
            }
        }
    }
    let links: usize = mesh
        .polygon_ids()
        .map(|p| mesh.polygon_links(p).len())
        .sum();
    let walls = mesh.walls().len();
    assert_eq!(links, walls + 2 * 4, "four shared edges, each seen twice");
}

#[test]
fn clockwise_polygons_are_normalised() {
    let clockwise = one_model(&SQUARE, &[&[3, 2, 1, 0]]).validate().unwrap();
    let indices = clockwise.navmesh.polygon_vertex_indices(PolygonId(0));
    let points: Vec<Vec2> = indices
        .iter()
        .map(|&i| clockwise.navmesh.vertices()[i as usize])
        .collect();
    let twice_area: f32 = (0..4)
        .map(|i| points[i].perp_dot(points[(i + 1) % 4]))
        .sum();
    assert!(twice_area > 0.0, "counter-clockwise after loading");
    // The green in the small world is written clockwise too.
    assert_eq!(small().scenery[1].polygons[0][0], Vec2::new(22.0, 12.0));
}

#[test]
fn syntax_errors_report_line_and_column() {
    let error = ValidWorld::from_ron("World(\n  models: [\n    Model(kind: Walkable, vertices: [(0, 0)], polygons: [[0, 1,]]) oops\n").unwrap_err();
    match error {
        WorldError::Syntax { line, column, .. } => {
            assert_eq!(line, 3);
            assert!(column > 1, "{column}");
        }
        other => panic!("expected a syntax error, got {other:?}"),
    }
    assert!(
        ValidWorld::from_ron("")
            .unwrap_err()
            .to_string()
            .contains("line")
    );
}

#[test]
fn no_walkable_area_is_an_error() {
    let mut file = one_model(&SQUARE, &[&[0, 1, 2, 3]]);
    file.models[0].kind = ModelKind::Building;
    assert_eq!(file.validate().unwrap_err(), WorldError::NoWalkableArea);
}

#[test]
fn index_out_of_range() {
    let error = one_model(&SQUARE, &[&[0, 1, 7]]).validate().unwrap_err();
    assert!(
        matches!(error, WorldError::IndexOutOfRange { index: 7, vertex_count: 4, ref at } if at.polygon == 0),
        "{error}"
    );
    assert!(error.to_string().contains("vertex index 7"), "{error}");
}

#[test]
fn too_few_vertices() {
    let error = one_model(&SQUARE, &[&[0, 1, 2, 3], &[0, 1]])
        .validate()
        .unwrap_err();
    assert!(
        matches!(error, WorldError::TooFewVertices { count: 2, ref at } if at.polygon == 1),
        "{error}"
    );
}

#[test]
fn non_convex() {
    let arrow = [(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (2.0, 1.0), (0.0, 4.0)];
    let error = one_model(&arrow, &[&[0, 1, 2, 3, 4]])
        .validate()
        .unwrap_err();
    assert!(
        matches!(error, WorldError::NonConvex { vertex: 3, .. }),
        "{error}"
    );
    // A pentagram turns left at every corner but winds twice.
    let star: Vec<(f32, f32)> = (0..5)
        .map(|i| {
            let a = i as f32 * std::f32::consts::TAU * 2.0 / 5.0;
            (a.cos(), a.sin())
        })
        .collect();
    let error = one_model(&star, &[&[0, 1, 2, 3, 4]])
        .validate()
        .unwrap_err();
    assert!(matches!(error, WorldError::NonConvex { .. }), "{error}");
}

#[test]
fn zero_area() {
    let line = [(0.0, 0.0), (1.0, 1.0), (2.0, 2.0)];
    let error = one_model(&line, &[&[0, 1, 2]]).validate().unwrap_err();
    assert!(matches!(error, WorldError::Degenerate { .. }), "{error}");
}

#[test]
fn non_finite_coordinate() {
    let error = one_model(&[(0.0, 0.0), (f32::NAN, 0.0), (0.0, 1.0)], &[&[0, 1, 2]])
        .validate()
        .unwrap_err();
    assert!(
        matches!(error, WorldError::NonFiniteVertex { vertex: 1, .. }),
        "{error}"
    );
    let from_text = ValidWorld::from_ron(
        "World(models: [Model(kind: Walkable, vertices: [(0, 0), (inf, 0), (0, 1)], polygons: [[0, 1, 2]])])",
    );
    assert!(
        matches!(
            from_text,
            Err(WorldError::NonFiniteVertex { vertex: 1, .. })
        ),
        "{from_text:?}"
    );
}

#[test]
fn duplicate_consecutive_vertices() {
    let error = one_model(&SQUARE, &[&[0, 1, 1, 2, 3]])
        .validate()
        .unwrap_err();
    assert!(
        matches!(
            error,
            WorldError::DuplicateVertex {
                vertex: 1,
                position: 1,
                next: 2,
                ..
            }
        ),
        "{error}"
    );
    // Two indices at identical coordinates count as the same vertex.
    let doubled = [(0.0, 0.0), (1.0, 0.0), (1.0, 0.0), (0.0, 1.0)];
    let error = one_model(&doubled, &[&[0, 1, 2, 3]])
        .validate()
        .unwrap_err();
    assert!(
        matches!(error, WorldError::DuplicateVertex { .. }),
        "{error}"
    );
}

#[test]
fn edge_shared_by_three_polygons() {
    // Two triangles above the edge 0-1 and one below.
    let vertices = [(0.0, 0.0), (2.0, 0.0), (1.0, 1.0), (1.0, -1.0), (1.0, 2.0)];
    let error = one_model(&vertices, &[&[0, 1, 2], &[1, 0, 3], &[0, 1, 4]])
        .validate()
        .unwrap_err();
    assert!(
        matches!(error, WorldError::EdgeOverused { from: 0, to: 1, .. }),
        "{error}"
    );
}

#[test]
fn t_junction() {
    // A big square whose right edge has a vertex of two small squares.
    let vertices = [
        (0.0, 0.0),
        (2.0, 0.0),
        (2.0, 2.0),
        (0.0, 2.0),
        (2.0, 1.0),
        (3.0, 0.0),
        (3.0, 1.0),
        (3.0, 2.0),
    ];
    let error = one_model(&vertices, &[&[0, 1, 2, 3], &[1, 5, 6, 4], &[4, 6, 7, 2]])
        .validate()
        .unwrap_err();
    assert!(
        matches!(
            error,
            WorldError::TJunction {
                vertex: 4,
                edge_from: 1,
                edge_to: 2,
                ..
            }
        ),
        "{error}"
    );
}

#[test]
fn points_on_shared_edges_and_vertices_have_one_owner() {
    let world = grid_world(4, 4, 1.0, |_, _| false).validate().unwrap();
    let mesh = &world.navmesh;
    let mut probes = Vec::new();
    for i in 0..=8 {
        for j in 0..=8 {
            probes.push(Vec2::new(i as f32 * 0.5, j as f32 * 0.5));
        }
    }
    for p in probes {
        let owners: Vec<PolygonId> = mesh.polygon_ids().filter(|&id| mesh.owns(id, p)).collect();
        let interior = p.x > 0.0 && p.y > 0.0 && p.x < 4.0 && p.y < 4.0;
        if interior {
            assert_eq!(owners.len(), 1, "{p}: {owners:?}");
        } else {
            assert!(owners.len() <= 1, "{p}: {owners:?}");
        }
        let located = mesh
            .locate(p)
            .expect("every point of the closed grid is walkable");
        assert!(mesh.contains_closed(located, p));
        if let Some(&owner) = owners.first() {
            assert_eq!(located, owner);
        }
        // The same answer from any hint.
        for hint in mesh.polygon_ids() {
            assert_eq!(
                mesh.locate_from(hint, p),
                Some(located),
                "{p} from {hint:?}"
            );
        }
    }
}

#[test]
fn locate_from_walks_far() {
    let world = grid_world(300, 2, 1.0, |_, _| false).validate().unwrap();
    let mesh = &world.navmesh;
    let start = mesh.locate(Vec2::new(0.5, 0.5)).unwrap();
    let far = Vec2::new(299.5, 1.5);
    assert_eq!(mesh.locate_from(start, far), mesh.locate(far));
    assert_eq!(mesh.locate_from(start, Vec2::new(-5.0, 0.5)), None);
}

#[test]
fn nearest_point_is_exact() {
    let world = small();
    let mesh = &world.navmesh;
    let (point, polygon) = mesh.nearest_point(Vec2::new(5.0, 15.0)).unwrap();
    // Closest walkable point to (5, 15): P0's top edge at (5, 10) is 5 away,
    // P2's left edge x = 10 is 5 away too; both tie, one is returned.
    assert!(
        (point.distance(Vec2::new(5.0, 15.0)) - 5.0).abs() < 1e-5,
        "{point}"
    );
    assert!(mesh.contains_closed(polygon, point));
    let (point, _) = mesh.nearest_point(Vec2::new(100.0, -50.0)).unwrap();
    assert!(point.distance(Vec2::new(30.0, 0.0)) < 1e-5, "{point}");
    let (point, polygon) = mesh.nearest_point(Vec2::new(12.0, 3.0)).unwrap();
    assert_eq!((point, polygon), (Vec2::new(12.0, 3.0), PolygonId(1)));
    assert_eq!(mesh.nearest_point(Vec2::NAN), None);
}

#[test]
fn town_is_big_valid_and_regenerates_identically() {
    let world = ValidWorld::from_ron(TOWN).expect("the town is valid");
    assert!(
        world.navmesh.polygon_count() >= 2000,
        "{}",
        world.navmesh.polygon_count()
    );
    assert!(
        world
            .scenery
            .iter()
            .any(|m| m.kind == ModelKind::Building && m.polygons.len() > 50)
    );
    assert!(world.scenery.iter().any(|m| m.kind == ModelKind::Park));
    assert!(world.scenery.iter().any(|m| m.kind == ModelKind::Water));
    let regenerated = town(TOWN_SEED);
    assert_eq!(
        WorldFile::from_ron(TOWN).unwrap(),
        regenerated,
        "run the generate_town example"
    );
}

#[test]
fn from_polygons_validates_too() {
    let vertices = [Vec2::ZERO, Vec2::X, Vec2::Y];
    assert!(NavMesh::from_polygons(&vertices, &[vec![0, 1, 2]]).is_ok());
    assert!(NavMesh::from_polygons(&vertices, &[vec![0, 1, 5]]).is_err());
}
