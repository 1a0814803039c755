//! Every position `move_along` or `nearest_point` returns is found by
//! `locate` in the polygon it reports, even a hair from a vertex shared by
//! many polygons, where a determinant rounded in `f64` let two polygons
//! both claim a point.

use glam::Vec2;
use kerb_navmesh::{NavMesh, PolygonId};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::SplitMix64;

/// A fan of `count` triangles round a vertex at `center`, inside a regular
/// polygon of radius `size`.
fn fan(center: Vec2, size: f32, count: usize) -> NavMesh {
    let mut vertices = vec![center];
    for i in 0..count {
        let angle = i as f32 / count as f32 * std::f32::consts::TAU + 0.3;
        vertices.push(center + Vec2::from_angle(angle) * size);
    }
    let polygons: Vec<Vec<u32>> = (0..count as u32)
        .map(|i| vec![0, 1 + i, 1 + (i + 1) % count as u32])
        .collect();
    NavMesh::from_polygons(&vertices, &polygons).expect("a fan is a valid mesh")
}

/// A point `center` plus an offset whose length is anywhere from 1e-30 to
/// `size`, on a log scale, so that many land within rounding of the vertex.
fn near(random: &mut SplitMix64, center: Vec2, size: f32) -> Vec2 {
    let length = size * 10f32.powf(random.random_range(-30.0..0.0));
    let axis_aligned = random.random_range(0..4u8) == 0;
    let angle = if axis_aligned {
        f32::from(random.random_range(0..4u8)) * std::f32::consts::FRAC_PI_2
    } else {
        random.random_range(0.0..std::f32::consts::TAU)
    };
    center + Vec2::from_angle(angle) * length
}

/// Moves towards random points ever closer to the fan's centre, and the
/// nearest points to random points about it; counts the answers `locate`
/// disagrees with.
fn count_disagreements(mesh: &NavMesh, center: Vec2, size: f32, moves: usize, seed: u64) -> usize {
    let mut random = SplitMix64::seed_from_u64(seed);
    let mut polygon = PolygonId(0);
    let mut position = mesh.centroid(polygon);
    let mut failures = 0;
    for _ in 0..moves {
        let target = near(&mut random, center, size * 1.2);
        let result = mesh.move_along(polygon, position, target);
        if mesh.locate(result.position) != Some(result.polygon) {
            failures += 1;
            eprintln!(
                "{position:?} -> {target:?} gave {result:?}; locate says {:?}",
                mesh.locate(result.position)
            );
        }
        // Off the fan, just past its rim, by a hair or by a lot.
        let outside = near(&mut random, center, size * 3.0);
        if let Some((point, polygon)) = mesh.nearest_point(outside)
            && mesh.locate(point) != Some(polygon)
        {
            failures += 1;
            eprintln!(
                "nearest to {outside:?} is {point:?} in {polygon:?}; locate says {:?}",
                mesh.locate(point)
            );
        }
        position = result.position;
        polygon = result.polygon;
        if random.random_range(0..8u8) == 0 {
            position = near(&mut random, center, size);
            polygon = mesh.locate(position).unwrap_or(PolygonId(0));
        }
    }
    failures
}

#[test]
fn moves_near_a_shared_vertex_agree_with_locate() {
    let mut failures = 0;
    for (seed, center) in [Vec2::ZERO, Vec2::new(3.0, -2.0), Vec2::new(1e4, 1e4)]
        .into_iter()
        .enumerate()
    {
        for count in [3, 4, 7, 12] {
            failures += count_disagreements(
                &fan(center, 5.0, count),
                center,
                5.0,
                200_000,
                seed as u64 * 31 + count as u64,
            );
        }
    }
    assert_eq!(failures, 0);
}
