//! Backing out of a dead end, a step at a time, as a driver does.

use bevy::prelude::*;
use kerb_navmesh::NavMesh;
use kerb_turning::{Pose, TurningPath};

/// A short path backwards from `start`, as long as the walls allow, up to
/// one turning radius: an arc at full lock if one fits, so that the unit
/// faces a new way when it drives on (backing out of a dead end a step at a
/// time, as a driver does), else a straight line.
///
/// The longest step that fits wins. Between equally long ones the arc that
/// swings the front towards `towards` comes first (the left one where
/// there is no such point), then the other, then the straight line: a unit
/// backing away from a wall turns to face the way it is going, and in open
/// space successive steps keep turning the same way instead of undoing
/// each other. A step must also pass `clear`, given its length and its
/// signed curvature as driven from the pose facing backwards (a unit in a
/// crowd backs out only where no one stands).
pub(crate) fn reverse_out(
    mesh: &NavMesh,
    start: Pose,
    radius: f32,
    clearance: f32,
    towards: Option<Vec2>,
    clear: impl Fn(f32, f32) -> bool,
) -> Option<TurningPath> {
    let backwards = Pose::new(start.position, start.heading + std::f32::consts::PI);
    // Seen from the backwards pose, a left turn (side 1) swings the unit's
    // front left; side 0 is straight back.
    let first = match towards {
        Some(point) if start.forward().perp_dot(point - start.position) < 0.0 => -1.0,
        _ => 1.0,
    };
    let steps = [1.0, 0.5, 0.25, 0.1]
        .into_iter()
        .flat_map(move |fraction| [first, -first, 0.0].map(|side| (fraction, side)));
    steps.into_iter().find_map(|(fraction, side)| {
        let length = (radius * fraction).max(0.2);
        let path = if side == 0.0 {
            let goal = backwards.position + backwards.forward() * length;
            TurningPath::straight(backwards.position, goal)
        } else {
            let to_center = backwards.forward().perp() * (side * radius);
            let center = backwards.position + to_center;
            let goal = center - Vec2::from_angle(side * length / radius).rotate(to_center);
            kerb_turning::plan_to_point(backwards, goal, radius).ok()?
        };
        // A goal a hair inside the circle would be reached by a loop.
        (path.length() <= length * 1.01
            && clear(length, side / radius)
            && mesh.is_walkable(&path, clearance))
        .then_some(path)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kerb_navmesh::generate::grid_world;
    use kerb_turning::Segment;

    fn mesh(columns: u32, rows: u32, cell: f32) -> NavMesh {
        grid_world(columns, rows, cell, |_, _| false)
            .validate()
            .expect("a plain grid is valid")
            .navmesh
    }

    /// Any step the walls allow.
    fn anywhere(_: f32, _: f32) -> bool {
        true
    }

    /// The single segment of a backing step, as (sweep, length); a line's
    /// sweep is zero.
    fn step(path: &TurningPath) -> (f32, f32) {
        assert_eq!(path.segments().len(), 1, "one segment: {path:?}");
        match path.segments()[0] {
            Segment::Arc { sweep, .. } => (sweep, path.length()),
            Segment::Line { length, .. } => (0.0, length),
        }
    }

    #[test]
    fn boxed_in_units_back_out_along_an_arc_that_fits() {
        // In the open: a full radius of arc, swinging the front left (a left
        // turn as seen backing up).
        let open = mesh(10, 10, 2.0);
        let start = Pose::new(Vec2::new(10.0, 10.0), 0.0);
        let (sweep, length) =
            step(&reverse_out(&open, start, 1.0, 0.0, None, anywhere).expect("open space"));
        assert!(
            sweep > 0.9 && (length - 1.0).abs() < 1e-3,
            "{sweep} {length}"
        );

        // With a point to the right of its front, it swings right towards
        // it instead; with one to the left, or straight ahead, left.
        for (point, turns_right) in [(-1.0, true), (1.0, false), (0.0, false)] {
            let towards = Some(start.position + Vec2::new(5.0, point));
            let (sweep, _) =
                step(&reverse_out(&open, start, 1.0, 0.0, towards, anywhere).expect("open space"));
            assert_eq!(sweep < -0.9, turns_right, "{point}: {sweep}");
        }

        // Backing up westwards, a left turn swings south: with the wall 0.3 m
        // to the south only the right arc fits.
        let beside_wall = Pose::new(Vec2::new(10.0, 0.3), 0.0);
        let (sweep, length) =
            step(&reverse_out(&open, beside_wall, 1.0, 0.0, None, anywhere).expect("room"));
        assert!(
            sweep < -0.9 && (length - 1.0).abs() < 1e-3,
            "{sweep} {length}"
        );

        // In a lane 0.4 m wide no arc of a radius fits, but a straight line
        // of that length does, and the longest step wins.
        let lane = mesh(25, 1, 0.4);
        let in_lane = Pose::new(Vec2::new(5.0, 0.2), 0.0);
        let (sweep, length) =
            step(&reverse_out(&lane, in_lane, 1.0, 0.0, None, anywhere).expect("the lane"));
        assert!(
            sweep == 0.0 && (length - 1.0).abs() < 1e-3,
            "{sweep} {length}"
        );

        // Against the lane's end there is no step at all.
        let at_end = Pose::new(Vec2::new(0.05, 0.2), 0.0);
        assert!(reverse_out(&lane, at_end, 1.0, 0.0, None, anywhere).is_none());
    }
}
