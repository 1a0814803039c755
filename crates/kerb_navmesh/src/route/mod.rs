//! Routes across the walkable area: the corridor, its string-pulled polyline
//! and the turning paths that drive it at the unit's radius.

use glam::Vec2;
use kerb_turning::{PlanError, Pose, TurningPath};

use crate::WalkablePlan;
use crate::mesh::{NavMesh, PolygonId};
mod corridor;
mod error;
mod gears;
mod legs;
mod string_pull;
mod through;

pub use error::RouteError;
pub use gears::weighted_length;
pub use string_pull::Portal;

use gears::leg_choices;
use legs::Driver;

/// How much of a goal's own distance from the walls the last leg must keep,
/// when the goal is closer to a wall than the clearance: rounding must not
/// make the goal itself too close.
const GOAL_CLEARANCE_SHARE: f32 = 0.99;

/// How far from wall corners, in turning radii, the polyline of a second try
/// passes, for a unit that keeps next to no clearance.
const GUIDE_RADII: f32 = 0.5;

/// Below how many turning radii of clearance a unit gets that second try: a
/// polyline through the wall corners themselves, or a hair from them, is
/// what leaves only turns that clip them; a wider clearance keeps the turns
/// off the corners already, and a second try would only cost time.
const GUIDE_CLEARANCE_RADII: f32 = 0.1;

/// Where a unit that may reverse stands before parking at a pose it found
/// no route into, in turning radii behind the pose (negative: ahead).
const PARKING_APPROACHES: [f32; 5] = [0.0, 1.0, -1.0, 2.0, -2.0];

/// How a unit may drive one route query: its radius, its clearance and,
/// for a unit that may reverse, what a metre in reverse costs.
#[derive(Clone, Copy)]
struct Gears {
    radius: f32,
    clearance: f32,
    reverse_cost: Option<f32>,
}

/// Where a route ends.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RouteGoal {
    /// Reach a point, facing whichever way the last turn ends.
    Point(Vec2),
    /// Reach a point facing the pose's heading.
    Pose(Pose),
}

impl RouteGoal {
    /// Where the route ends.
    pub fn position(&self) -> Vec2 {
        match *self {
            RouteGoal::Point(point) => point,
            RouteGoal::Pose(pose) => pose.position,
        }
    }

    /// The required final heading, if any.
    pub fn heading(&self) -> Option<f32> {
        match *self {
            RouteGoal::Point(_) => None,
            RouteGoal::Pose(pose) => Some(pose.heading),
        }
    }
}

/// A drivable route: turning paths ("legs") chained end to start, so the
/// position and heading are continuous along it, each of which stays on the
/// walkable area with the clearance it was planned for.
#[derive(Clone, Debug, PartialEq)]
pub struct Route {
    pub(crate) corridor: Vec<PolygonId>,
    pub(crate) polyline: Vec<Vec2>,
    pub(crate) legs: Vec<TurningPath>,
    /// Distance along the route at which each leg starts.
    pub(crate) leg_starts: Vec<f32>,
    pub(crate) length: f32,
}

impl Route {
    pub(crate) fn new(
        corridor: Vec<PolygonId>,
        polyline: Vec<Vec2>,
        legs: Vec<TurningPath>,
    ) -> Route {
        let mut leg_starts = Vec::with_capacity(legs.len());
        let mut length = 0.0;
        for leg in &legs {
            leg_starts.push(length);
            length += leg.length();
        }
        Route {
            corridor,
            polyline,
            legs,
            leg_starts,
            length,
        }
    }

    /// The polygons the route was searched through, start to goal.
    pub fn corridor(&self) -> &[PolygonId] {
        &self.corridor
    }

    /// The shortest polyline through the corridor (with clearance at
    /// corners), which the legs smooth: start, corners, goal.
    pub fn polyline(&self) -> &[Vec2] {
        &self.polyline
    }

    /// The polyline's length.
    pub fn polyline_length(&self) -> f32 {
        self.polyline.windows(2).map(|w| w[0].distance(w[1])).sum()
    }

    /// The turning paths to drive, in order; each starts where the previous
    /// ends, with the same heading.
    pub fn legs(&self) -> &[TurningPath] {
        &self.legs
    }

    /// Total driving distance.
    pub fn length(&self) -> f32 {
        self.length
    }

    /// The pose the route starts at.
    pub fn start(&self) -> Pose {
        self.legs
            .first()
            .map_or(Pose::new(Vec2::ZERO, 0.0), TurningPath::start)
    }

    /// The pose the route ends at.
    pub fn end(&self) -> Pose {
        self.legs.last().map_or(self.start(), TurningPath::end)
    }

    /// The pose `distance` along the route (clamped to it), computed from
    /// the leg it falls in.
    pub fn sample(&self, distance: f32) -> Pose {
        let leg = self
            .leg_starts
            .partition_point(|&start| start <= distance)
            .saturating_sub(1);
        match self.legs.get(leg) {
            Some(path) => path.sample(distance - self.leg_starts[leg]),
            None => self.start(),
        }
    }
}

impl NavMesh {
    /// A route from `start` to `goal` that a unit turning no tighter than
    /// `radius` can drive while staying `clearance` from the walls.
    ///
    /// A* finds the corridor of polygons ([`NavMesh::find_corridor`]), the
    /// funnel pulls it into the shortest polyline ([`NavMesh::string_pull`]),
    /// and the polyline is driven with turning paths that each pass the exact
    /// legality check ([`NavMesh::path_violation`]): corners are skipped
    /// where a longer turning path is walkable, and a corner too tight for
    /// the radius is taken wider; a unit that finds no way from its heading
    /// but has room to turn where it stands turns round first. A goal
    /// closer to a wall than `clearance` is approached as close as it is.
    /// Errors say why there is no route.
    pub fn plan_route(
        &self,
        start: Pose,
        goal: RouteGoal,
        radius: f32,
        clearance: f32,
    ) -> Result<Route, RouteError> {
        self.plan_route_in(start, goal, radius, clearance, None)
    }

    /// A route as [`NavMesh::plan_route`] finds it, for a unit that may
    /// also reverse: where no forward route is found, legs may back up (a
    /// corner too tight for the radius taken in a three-point turn, a U-turn
    /// in a narrow street, a start facing away from the way to go), along
    /// Reeds–Shepp paths.
    ///
    /// Driving forwards comes first: a metre in reverse counts
    /// `reverse_cost` metres when legs are compared (values below 1, and
    /// NaN, count as 1). Reverse segments say so ([`kerb_turning::Gear`]);
    /// the poses along them face the way the unit faces.
    pub fn plan_route_reversing(
        &self,
        start: Pose,
        goal: RouteGoal,
        radius: f32,
        clearance: f32,
        reverse_cost: f32,
    ) -> Result<Route, RouteError> {
        let reverse_cost = reverse_cost.max(1.0);
        match self.plan_route(start, goal, radius, clearance) {
            Err(RouteError::Undrivable { at }) => self
                .plan_route_in(start, goal, radius, clearance, Some(reverse_cost))
                .or_else(|error| match (error, goal) {
                    (RouteError::Undrivable { .. }, RouteGoal::Pose(pose)) => {
                        self.park(start, pose, radius, clearance, reverse_cost)
                    }
                    (error, _) => Err(error),
                })
                .map_err(|error| match error {
                    RouteError::Undrivable { .. } => RouteError::Undrivable { at },
                    error => error,
                }),
            route => route,
        }
    }

    /// A route to the pose `goal` in two parts, for a unit that may reverse
    /// and found no route straight to it: to a point beside the goal (the
    /// goal's position, or a point a radius or two ahead of or behind it),
    /// then a Reeds–Shepp path from there into the goal, as a driver parks.
    fn park(
        &self,
        start: Pose,
        goal: Pose,
        radius: f32,
        clearance: f32,
        reverse_cost: f32,
    ) -> Result<Route, RouteError> {
        let facing = goal.forward();
        let goal_clearance = self.goal_clearance(RouteGoal::Pose(goal), clearance);
        let stands = PARKING_APPROACHES
            .iter()
            .map(|&radii| goal.position - facing * (radii * radius))
            .filter(|&point| self.has_room(point, clearance));
        for stand in stands {
            let Ok(approach) = self.plan_route_in(
                start,
                RouteGoal::Point(stand),
                radius,
                clearance,
                Some(reverse_cost),
            ) else {
                continue;
            };
            let Ok(WalkablePlan::Path(last)) =
                self.plan_walkable_to_pose_reversing(approach.end(), goal, radius, goal_clearance)
            else {
                continue;
            };
            let mut legs = approach.legs;
            legs.push(last);
            let mut polyline = approach.polyline;
            polyline.push(goal.position);
            return Ok(Route::new(approach.corridor, polyline, legs));
        }
        Err(RouteError::Undrivable { at: goal.position })
    }

    /// [`NavMesh::plan_route`] forwards only, or in either gear with a
    /// `reverse_cost`.
    fn plan_route_in(
        &self,
        start: Pose,
        goal: RouteGoal,
        radius: f32,
        clearance: f32,
        reverse_cost: Option<f32>,
    ) -> Result<Route, RouteError> {
        if !start.is_finite() {
            return Err(PlanError::NonFinite { what: "start pose" }.into());
        }
        let finite_goal = match goal {
            RouteGoal::Point(point) => point.is_finite(),
            RouteGoal::Pose(pose) => pose.is_finite(),
        };
        if !finite_goal {
            return Err(PlanError::NonFinite { what: "goal" }.into());
        }
        if !(radius.is_finite() && radius > 0.0) {
            return Err(PlanError::InvalidRadius(radius).into());
        }
        let gears = Gears {
            radius,
            clearance,
            reverse_cost,
        };
        let corridor = self.find_corridor(start.position, goal.position(), clearance)?;
        match self.drive_corridor(start, goal, &corridor, gears) {
            Err(RouteError::Undrivable { at }) => {
                // The shortest corridor may start behind a unit that turns
                // wide; one costed for turning round may be drivable.
                let facing =
                    self.find_corridor_facing(start, goal.position(), radius, clearance)?;
                let around = (facing != corridor)
                    .then(|| self.drive_corridor(start, goal, &facing, gears).ok())
                    .flatten();
                // The legs follow the polyline's corners, and a single
                // turning path that owes nothing to them may still fit.
                around
                    .or_else(|| self.direct_route(start, goal, corridor, gears))
                    .ok_or(RouteError::Undrivable { at })
            }
            route => route,
        }
    }

    /// The shortest walkable turning path straight from `start` to `goal`,
    /// as a route of one leg, if there is one.
    fn direct_route(
        &self,
        start: Pose,
        goal: RouteGoal,
        corridor: Vec<PolygonId>,
        gears: Gears,
    ) -> Option<Route> {
        let candidates = leg_choices(
            start,
            goal.position(),
            goal.heading(),
            gears.radius,
            gears.reverse_cost,
        )?;
        let leg = self
            .first_walkable(
                candidates.as_slice(),
                self.goal_clearance(goal, gears.clearance),
            )
            .path()?;
        let polyline = vec![start.position, goal.position()];
        Some(Route::new(corridor, polyline, vec![leg]))
    }

    /// The clearance for a route's last leg: no more than the goal's own
    /// distance from the walls, or a goal beside a wall could never be
    /// reached.
    fn goal_clearance(&self, goal: RouteGoal, clearance: f32) -> f32 {
        let clearance = clearance.max(0.0);
        let room = self.distance_to_wall(goal.position(), clearance) * GOAL_CLEARANCE_SHARE;
        room.min(clearance)
    }

    /// Pulls `corridor` into a polyline and drives it. A unit that keeps
    /// next to no clearance is tried again along a polyline kept half a
    /// radius from the corners: one through a wall corner itself leaves it
    /// only turns that clip the corner.
    fn drive_corridor(
        &self,
        start: Pose,
        goal: RouteGoal,
        corridor: &[PolygonId],
        gears: Gears,
    ) -> Result<Route, RouteError> {
        let Gears {
            radius, clearance, ..
        } = gears;
        let guided = |guide: f32| {
            let polyline = self.string_pull(start.position, goal.position(), corridor, guide);
            self.drive_polyline(start, goal, corridor, polyline, gears)
        };
        guided(clearance).or_else(|error| match error {
            RouteError::Undrivable { .. } if clearance < GUIDE_CLEARANCE_RADII * radius => {
                guided(GUIDE_RADII * radius).map_err(|_| error)
            }
            error => Err(error),
        })
    }

    /// Drives `polyline`, pulled through `corridor`.
    fn drive_polyline(
        &self,
        start: Pose,
        goal: RouteGoal,
        corridor: &[PolygonId],
        polyline: Vec<Vec2>,
        gears: Gears,
    ) -> Result<Route, RouteError> {
        let driver = Driver {
            mesh: self,
            polyline: &polyline,
            radius: gears.radius,
            clearance: gears.clearance.max(0.0),
            goal_clearance: self.goal_clearance(goal, gears.clearance),
            final_heading: goal.heading(),
            reverse_cost: gears.reverse_cost,
        };
        let legs = driver.drive(start)?;
        Ok(Route::new(corridor.to_vec(), polyline, legs))
    }
}
