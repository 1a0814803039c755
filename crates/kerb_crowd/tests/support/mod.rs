//! The crowd scenarios shared by the tests and the avoidance bench: where
//! units start and where they go, a pursuit of the goal, and a run that
//! counts contacts and arrivals whatever moves the units.

#![allow(dead_code)]

use glam::Vec2;
use kerb_crowd::{
    Agent, AvoidanceParams, Choice, Nearest, NeighbourGrid, Preferred, choose, drive, in_contact,
};

/// A pedestrian as the demo has it: 1.4 m/s, turning radius 0.8 m, a body
/// 0.3 m across.
pub fn pedestrian(position: Vec2, heading: f32) -> Agent {
    Agent {
        position,
        heading,
        speed: 0.0,
        max_speed: 1.4,
        turn_radius: 0.8,
        body_radius: 0.3,
        priority: 1.0,
    }
}

/// Pure pursuit of `goal`: the arc through it, at full speed until close.
/// A goal inside the turning circle cannot be reached by turning towards
/// it, so the unit drives straight on until it can.
pub fn pursue(agent: &Agent, goal: Vec2) -> Preferred {
    let to_goal = goal - agent.position;
    let distance = to_goal.length();
    let forward = Vec2::from_angle(agent.heading);
    let bearing = forward.angle_to(to_goal);
    let side = forward.perp() * agent.turn_radius * bearing.signum();
    let inside = (agent.position + side).distance(goal) < agent.turn_radius;
    Preferred {
        speed: agent.max_speed.min(distance * 2.0),
        curvature: if inside {
            0.0
        } else if bearing.abs() > std::f32::consts::FRAC_PI_2 {
            // Behind: full lock round towards it.
            bearing.signum() / agent.turn_radius
        } else {
            2.0 * bearing.sin() / distance.max(1e-3)
        },
    }
}

pub struct Run {
    /// Pairs of bodies in contact, summed over the ticks.
    pub contacts: usize,
    /// Units that reached their goal.
    pub arrived: usize,
    /// Seconds until every unit arrived, or `None` if some never did.
    pub finished: Option<f32>,
    /// The longest a unit took, over what it would take alone.
    pub slowest_ratio: f32,
    /// Units that arrived within twice the time they would take alone.
    pub in_time: usize,
}

/// Ticks a second.
pub const RATE: f32 = 30.0;

/// Moves every unit for one tick: given the units, each one's pursuit of
/// its goal (standing still once arrived), the goals and the neighbour
/// grid.
pub trait Mover {
    fn step(
        &mut self,
        agents: &mut [Agent],
        preferred: &[Preferred],
        goals: &[Vec2],
        grid: &NeighbourGrid,
    );
}

/// How far a unit looks for neighbours.
pub fn range() -> f32 {
    2.0 * 1.4 * AvoidanceParams::default().horizon + 1.0
}

/// kerb's avoidance (or none): each unit drives the arc it chooses.
pub struct Kerb {
    pub avoid: bool,
    nearest: Nearest,
    choices: Vec<Choice>,
}

impl Kerb {
    pub fn new(avoid: bool) -> Self {
        Self {
            avoid,
            nearest: Nearest::new(8),
            choices: Vec::new(),
        }
    }
}

impl Kerb {
    /// Every unit's choice for this tick, without moving any.
    pub fn choose_all(&mut self, agents: &[Agent], preferred: &[Preferred], grid: &NeighbourGrid) {
        self.choices.clear();
        for (i, agent) in agents.iter().enumerate() {
            grid.nearest(agent.position, range(), i as u32, &mut self.nearest);
            let choice = self.choose_one(agents, i, preferred[i], &self.nearest.clone());
            self.choices.push(choice);
        }
    }

    /// Unit `i`'s choice given its `nearest` neighbours.
    pub fn choose_one(
        &self,
        agents: &[Agent],
        i: usize,
        preferred: Preferred,
        nearest: &Nearest,
    ) -> Choice {
        let agent = &agents[i];
        if self.avoid {
            let neighbours = nearest.indices().map(|j| &agents[j as usize]);
            choose(
                agent,
                preferred,
                neighbours,
                &AvoidanceParams::default(),
                1.0 / RATE,
            )
        } else {
            let most = 1.0 / agent.turn_radius;
            Choice {
                speed: preferred.speed,
                curvature: preferred.curvature.clamp(-most, most),
                avoiding: false,
            }
        }
    }
}

/// Every unit's nearest neighbours, as the runs find them.
pub fn neighbour_lists(agents: &[Agent], grid: &NeighbourGrid) -> Vec<Nearest> {
    agents
        .iter()
        .enumerate()
        .map(|(i, agent)| {
            let mut nearest = Nearest::new(8);
            grid.nearest(agent.position, range(), i as u32, &mut nearest);
            nearest
        })
        .collect()
}

impl Mover for Kerb {
    fn step(
        &mut self,
        agents: &mut [Agent],
        preferred: &[Preferred],
        _goals: &[Vec2],
        grid: &NeighbourGrid,
    ) {
        let dt = 1.0 / RATE;
        self.choose_all(agents, preferred, grid);
        for (agent, choice) in agents.iter_mut().zip(&self.choices) {
            (agent.position, agent.heading) = drive(agent.position, agent.heading, *choice, dt);
            agent.speed = choice.speed;
        }
    }
}

/// Runs `agents` to `goals` for at most `limit` seconds, moved by `mover`.
pub fn run(agents: Vec<Agent>, goals: &[Vec2], mover: &mut impl Mover, limit: f32) -> Run {
    run_until(agents, goals, mover, limit).0
}

/// [`run`], also giving back the units as they stand at the end.
pub fn run_until(
    mut agents: Vec<Agent>,
    goals: &[Vec2],
    mover: &mut impl Mover,
    limit: f32,
) -> (Run, Vec<Agent>) {
    let dt = 1.0 / RATE;
    let mut grid = NeighbourGrid::new(range());
    let alone: Vec<f32> = agents
        .iter()
        .zip(goals)
        .map(|(a, g)| {
            a.position.distance(*g) / a.max_speed
                + std::f32::consts::PI * a.turn_radius / a.max_speed
        })
        .collect();
    let mut arrived_at = vec![None; agents.len()];
    let mut contacts = 0;
    let mut positions = Vec::new();
    let mut preferred = Vec::new();
    let mut time = 0.0;
    while time < limit && arrived_at.iter().any(Option::is_none) {
        positions.clear();
        positions.extend(agents.iter().map(|a| a.position));
        grid.rebuild(&positions);
        preferred.clear();
        preferred.extend(agents.iter().enumerate().map(|(i, agent)| {
            if arrived_at[i].is_some() {
                Preferred::default()
            } else {
                pursue(agent, goals[i])
            }
        }));
        mover.step(&mut agents, &preferred, goals, &grid);
        time += dt;
        for (i, agent) in agents.iter_mut().enumerate() {
            if arrived_at[i].is_none() && agent.position.distance(goals[i]) < 1.0 {
                arrived_at[i] = Some(time);
                // Settled units make way less.
                agent.priority = 4.0;
            }
        }
        contacts += count_contacts(&agents, &grid);
    }
    let finished = arrived_at.iter().all(Option::is_some).then_some(time);
    let slowest_ratio = arrived_at
        .iter()
        .zip(&alone)
        .map(|(at, alone)| at.unwrap_or(f32::INFINITY) / alone)
        .fold(0.0, f32::max);
    let arrived = arrived_at.iter().filter(|at| at.is_some()).count();
    let in_time = arrived_at
        .iter()
        .zip(&alone)
        .filter(|(at, alone)| at.is_some_and(|at| at <= 2.0 * *alone))
        .count();
    let run = Run {
        in_time,
        contacts,
        arrived,
        finished,
        slowest_ratio,
    };
    (run, agents)
}

/// Each unit's pursuit of its goal.
pub fn pursuits(agents: &[Agent], goals: &[Vec2]) -> Vec<Preferred> {
    agents
        .iter()
        .zip(goals)
        .map(|(agent, goal)| pursue(agent, *goal))
        .collect()
}

/// `tiles` circle swaps of `count` side by side, far enough apart not to
/// meet.
pub fn circles(tiles: usize, count: usize, radius: f32) -> (Vec<Agent>, Vec<Vec2>) {
    let across = (tiles as f32).sqrt().ceil() as usize;
    let mut agents = Vec::new();
    let mut goals = Vec::new();
    for tile in 0..tiles {
        let centre = Vec2::new((tile % across) as f32, (tile / across) as f32) * (2.2 * radius);
        let (tile_agents, tile_goals) = circle(count, radius);
        agents.extend(tile_agents.into_iter().map(|mut agent| {
            agent.position += centre;
            agent
        }));
        goals.extend(tile_goals.into_iter().map(|goal| goal + centre));
    }
    (agents, goals)
}

/// Pairs of bodies overlapping by more than 5% of the sum of their radii.
fn count_contacts(agents: &[Agent], grid: &NeighbourGrid) -> usize {
    let mut nearest = Nearest::new(16);
    let mut count = 0;
    for (i, agent) in agents.iter().enumerate() {
        grid.nearest(
            agent.position,
            2.0 * agent.body_radius + 3.0,
            i as u32,
            &mut nearest,
        );
        for j in nearest.indices() {
            if (j as usize) > i && in_contact(agent, &agents[j as usize]) {
                count += 1;
            }
        }
    }
    count
}

/// RVO2's "Circle": units evenly spaced on a circle, each sent to the
/// opposite point.
pub fn circle(count: usize, radius: f32) -> (Vec<Agent>, Vec<Vec2>) {
    (0..count)
        .map(|i| {
            let at = Vec2::from_angle(i as f32 / count as f32 * std::f32::consts::TAU) * radius;
            (pedestrian(at, (-at).to_angle()), -at)
        })
        .unzip()
}

/// Two groups of `per_group` walking head on through each other, in
/// loose files two abreast.
pub fn counterflow(per_group: usize) -> (Vec<Agent>, Vec<Vec2>) {
    let mut agents = Vec::new();
    let mut goals = Vec::new();
    for side in [-1.0f32, 1.0] {
        for i in 0..per_group {
            let at = Vec2::new(
                side * (12.0 + 1.5 * (i / 2) as f32),
                (i % 2) as f32 * 1.5 - 0.75 + 0.2 * side,
            );
            agents.push(pedestrian(
                at,
                if side < 0.0 {
                    0.0
                } else {
                    std::f32::consts::PI
                },
            ));
            goals.push(Vec2::new(-at.x, at.y));
        }
    }
    (agents, goals)
}
