//! Decisions per second of each level and reference bot, over the same positions: the decisions
//! of a whole game between two `medium` bots (as each seat saw them), so that cheap decisions
//! (playing a card) and searched ones (buying, attacking) come in their real proportion.
//! Criterion's throughput is set to the decisions, so it reports decisions per second. Run with
//! `cargo bench -p bots --bench levels`; figures go in `docs/benchmarks.md`.

#![allow(missing_docs)] // criterion's macros generate undocumented functions

use std::hint::black_box;

use bots::SeatView;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use game::Seat;
use starrealms::{Action, Config, State};

/// Every decision of one game of `medium` against `medium`: the state and the seat to move.
fn positions() -> Vec<(State, Seat, Vec<Action>)> {
    let mut s = State::new(&Config::default(), 11).unwrap();
    let mut players = [
        bots::starrealms::by_name("medium", 1).unwrap(),
        bots::starrealms::by_name("medium", 2).unwrap(),
    ];
    let mut out = Vec::new();
    while let Some(seat) = s.to_move() {
        let legal = s.legal_actions();
        let action = players[seat.index()].choose(&SeatView::of_state(&s, seat), &legal);
        if legal.len() > 1 {
            out.push((s.clone(), seat, legal));
        }
        s.apply(action).unwrap();
    }
    out
}

fn levels(c: &mut Criterion) {
    let positions = positions();
    println!(
        "{} decisions with a choice, from one game of medium against medium",
        positions.len()
    );
    let mut group = c.benchmark_group("levels");
    group.sample_size(10);
    group.throughput(Throughput::Elements(positions.len() as u64));
    for name in [
        "random", "easy", "medium", "tuned", "learned", "velocity", "attack", "hard", "expert",
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut bot = bots::starrealms::by_name(name, 7).unwrap();
                for (state, seat, legal) in &positions {
                    black_box(bot.choose(&SeatView::of_state(state, *seat), legal));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, levels);
criterion_main!(benches);
