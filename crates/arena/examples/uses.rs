//! What two bots do in a multiplayer format that a win rate does not show: how often each
//! gives cards to a teammate (Emperor), transfers trade or combat to one (Hydra), hands over
//! the team's turn (Hydra), and how much of its damage to players goes to the weakest opponent
//! (focus: the Boss of a Raid on one soldier, a free-for-all on the player nearest defeat).
//!
//! `cargo run --release -p arena --example uses -- hydra hard medium 10`: 10 deals of Hydra,
//! each played from both sides (each bot plays one side: alternate seats or a whole team, as
//! in `realms arena`).

use bots::play_game;
use game::State as _;
use rayon::prelude::*;
use starrealms::{Action, Config, Format, State};

#[derive(Clone, Default)]
struct Uses {
    games: u32,
    wins: f64,
    decisions: u64,
    gives: u64,
    transfers: u64,
    transferred: u64,
    switches: u64,
    damage: u64,
    on_weakest: u64,
}

impl Uses {
    fn merge(self, o: Uses) -> Uses {
        Uses {
            games: self.games + o.games,
            wins: self.wins + o.wins,
            decisions: self.decisions + o.decisions,
            gives: self.gives + o.gives,
            transfers: self.transfers + o.transfers,
            transferred: self.transferred + o.transferred,
            switches: self.switches + o.switches,
            damage: self.damage + o.damage,
            on_weakest: self.on_weakest + o.on_weakest,
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: uses <format> <bot> <bot> <deals>";
    let format: Format = args
        .first()
        .and_then(|f| f.parse().ok())
        .unwrap_or_else(|| panic!("{usage}"));
    let names = [args.get(1).expect(usage), args.get(2).expect(usage)];
    let deals: u64 = args.get(3).and_then(|n| n.parse().ok()).expect(usage);
    let config = Config {
        seats: arena::arena_seats(format),
        format,
        ..Config::default()
    };
    let start = std::time::Instant::now();
    let done = std::sync::atomic::AtomicU64::new(0);
    let uses = (0..deals * 2)
        .into_par_iter()
        .map(|game| {
            let (deal, side) = (game / 2, (game % 2) as usize);
            let mut uses: [Uses; 2] = Default::default();
            // `owner(seat)`: which of the two bots plays the seat.
            let owner = |seat: usize| (arena::side_of(&config, seat) + side) % 2;
            let mut players: Vec<_> = (0..config.seats as usize)
                .map(|seat| {
                    bots::starrealms::by_name(names[owner(seat)], deal * 16 + seat as u64)
                        .unwrap_or_else(|e| panic!("{e}"))
                })
                .collect();
            let state = State::new_game(&config, 1000 + deal).expect("a valid configuration");
            let end = play_game(state, &mut players, |seat, action, s: &State| {
                let u = &mut uses[owner(seat.index())];
                u.decisions += 1;
                match action {
                    Action::Give(..) => u.gives += 1,
                    Action::TransferTrade(_, n) | Action::TransferCombat(_, n) => {
                        u.transfers += 1;
                        u.transferred += n as u64;
                    }
                    Action::Switch(_) => u.switches += 1,
                    Action::AttackPlayer(target, n) => {
                        u.damage += n as u64;
                        let before = |t: usize| {
                            let a = s.players[game::Seat(t as u8)].authority;
                            if t == target.index() { a + n as i32 } else { a }
                        };
                        let weakest = (0..config.seats as usize)
                            .filter(|&t| {
                                config.team_of(t) != config.team_of(seat.index())
                                    && (t == target.index() || before(t) > 0)
                            })
                            .map(before)
                            .min();
                        if weakest == Some(before(target.index())) {
                            u.on_weakest += n as u64;
                        }
                    }
                    _ => {}
                }
            });
            // Draws (no winner, or winners on both sides) count half, as in `realms arena`.
            let winners: Vec<usize> = end.winners().iter().map(|s| owner(s.index())).collect();
            for (b, u) in uses.iter_mut().enumerate() {
                u.games += 1;
                u.wins += match (winners.contains(&b), winners.iter().all(|&w| w == b)) {
                    (true, true) => 1.0,
                    (false, false) => 0.0,
                    // Winners on both sides, or none.
                    _ => 0.5,
                };
            }
            let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            eprint!("\r{n} of {} games", deals * 2);
            uses
        })
        .reduce(Default::default, |[a0, a1], [b0, b1]| {
            [a0.merge(b0), a1.merge(b1)]
        });
    eprintln!();
    println!(
        "{} · {} deals from both sides · {:.0} s",
        args[0],
        deals,
        start.elapsed().as_secs_f64()
    );
    println!(
        "| bot | win rate | decisions | gives | transfers (amount) | switches | damage to players | on the weakest opponent |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (name, u) in names.iter().zip(&uses) {
        println!(
            "| `{name}` | {:.1}% | {} | {} | {} ({}) | {} | {} | {} |",
            100.0 * u.wins / u.games as f64,
            u.decisions,
            u.gives,
            u.transfers,
            u.transferred,
            u.switches,
            u.damage,
            // A Hydra team shares its authority: no weakest opponent there.
            if format == Format::Hydra {
                "—".to_string()
            } else {
                format!(
                    "{:.0}%",
                    100.0 * u.on_weakest as f64 / u.damage.max(1) as f64
                )
            }
        );
    }
}
