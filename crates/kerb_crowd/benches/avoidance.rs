//! RVO2's circle swap, kerb's avoidance against `dodgy_2d` (landmass's
//! ORCA) in one run: the whole swap with contacts and arrivals for both,
//! then one tick of choices at the height of the crossing, at 250 units
//! and at 10,000 (forty swaps side by side), each unit given the same
//! neighbours.
//!
//! `cargo bench -p kerb_crowd --bench avoidance`

#[path = "../tests/support/mod.rs"]
mod support;

use std::borrow::Cow;
use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use glam::Vec2;
use kerb_crowd::{Agent, Nearest, NeighbourGrid, Preferred};
use support::*;

/// dodgy's ORCA: each unit takes the velocity it returns, whatever its
/// heading (it ignores the turning radius, which kerb may not).
struct Dodgy {
    velocities: Vec<Vec2>,
}

impl Dodgy {
    fn new() -> Self {
        Self {
            velocities: Vec::new(),
        }
    }

    fn to_dodgy(agent: &Agent) -> dodgy_2d::Agent {
        let velocity = agent.velocity();
        dodgy_2d::Agent {
            position: glam_dodgy::Vec2::new(agent.position.x, agent.position.y),
            velocity: glam_dodgy::Vec2::new(velocity.x, velocity.y),
            // The same margin kerb keeps.
            radius: agent.body_radius * 1.1,
            avoidance_responsibility: 1.0 / agent.priority,
        }
    }

    /// Every unit's velocity for this tick, without moving any.
    fn choose_all(
        &mut self,
        agents: &[Agent],
        preferred: &[Preferred],
        goals: &[Vec2],
        grid: &NeighbourGrid,
    ) {
        let lists = neighbour_lists(agents, grid);
        let dodgy_agents: Vec<dodgy_2d::Agent> = agents.iter().map(Self::to_dodgy).collect();
        self.velocities.clear();
        for (i, nearest) in lists.iter().enumerate() {
            let velocity = Self::choose_one(&dodgy_agents, agents, i, preferred, goals, nearest);
            self.velocities.push(velocity);
        }
    }

    /// Unit `i`'s velocity given its `nearest` neighbours.
    fn choose_one(
        dodgy_agents: &[dodgy_2d::Agent],
        agents: &[Agent],
        i: usize,
        preferred: &[Preferred],
        goals: &[Vec2],
        nearest: &Nearest,
    ) -> Vec2 {
        let options = dodgy_2d::AvoidanceOptions {
            obstacle_margin: 0.0,
            time_horizon: kerb_crowd::AvoidanceParams::default().horizon,
            obstacle_time_horizon: 1.0,
        };
        // dodgy's interface takes a slice of neighbours for each unit.
        let neighbours: Vec<Cow<'_, dodgy_2d::Agent>> = nearest
            .indices()
            .map(|j| Cow::Borrowed(&dodgy_agents[j as usize]))
            .collect();
        let agent = &agents[i];
        let wanted = (goals[i] - agent.position).normalize_or_zero() * preferred[i].speed;
        let velocity = dodgy_agents[i].compute_avoiding_velocity(
            &neighbours,
            &[],
            glam_dodgy::Vec2::new(wanted.x, wanted.y),
            agent.max_speed,
            1.0 / RATE,
            &options,
        );
        Vec2::new(velocity.x, velocity.y)
    }
}

impl Mover for Dodgy {
    fn step(
        &mut self,
        agents: &mut [Agent],
        preferred: &[Preferred],
        goals: &[Vec2],
        grid: &NeighbourGrid,
    ) {
        self.choose_all(agents, preferred, goals, grid);
        for (agent, velocity) in agents.iter_mut().zip(&self.velocities) {
            agent.position += *velocity / RATE;
            agent.speed = velocity.length();
            if agent.speed > 0.0 {
                agent.heading = velocity.to_angle();
            }
        }
    }
}

/// Seconds into the swap at which the crowd is densest.
const CROSSING: f32 = 35.0;

fn circle_swap(c: &mut Criterion) {
    let (agents, goals) = circle(250, 50.0);
    for (name, run) in [
        (
            "kerb",
            run(agents.clone(), &goals, &mut Kerb::new(true), 300.0),
        ),
        (
            "dodgy_2d",
            run(agents.clone(), &goals, &mut Dodgy::new(), 300.0),
        ),
    ] {
        println!(
            "circle swap of 250, {name}: {} contact-ticks, {} arrived, {} within 2x alone, all by {:?} s",
            run.contacts, run.arrived, run.in_time, run.finished
        );
    }

    let mut group = c.benchmark_group("circle swap tick");
    for tiles in [1, 40] {
        let (agents, goals) = circles(tiles, 250, 50.0);
        let (_, snapshot) = run_until(agents, &goals, &mut Kerb::new(true), CROSSING);
        let preferred = pursuits(&snapshot, &goals);
        let mut grid = NeighbourGrid::new(range());
        let positions: Vec<Vec2> = snapshot.iter().map(|agent| agent.position).collect();
        grid.rebuild(&positions);
        let count = snapshot.len();
        // Both are timed on avoidance alone: the neighbours are found
        // once, and dodgy's agents are made once.
        let lists = neighbour_lists(&snapshot, &grid);
        let dodgy_agents: Vec<dodgy_2d::Agent> = snapshot.iter().map(Dodgy::to_dodgy).collect();
        group.throughput(Throughput::Elements(count as u64));
        let kerb = Kerb::new(true);
        group.bench_function(BenchmarkId::new("kerb", count), |b| {
            b.iter(|| {
                for (i, nearest) in lists.iter().enumerate() {
                    black_box(kerb.choose_one(black_box(&snapshot), i, preferred[i], nearest));
                }
            })
        });
        group.bench_function(BenchmarkId::new("dodgy_2d", count), |b| {
            b.iter(|| {
                for (i, nearest) in lists.iter().enumerate() {
                    black_box(Dodgy::choose_one(
                        &dodgy_agents,
                        black_box(&snapshot),
                        i,
                        &preferred,
                        &goals,
                        nearest,
                    ));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, circle_swap);
criterion_main!(benches);
