//! Golden playthrough: one seeded game, every step and every seat's view, compared with the
//! stored trace. After an intended change, regenerate with `scripts/regen-golden.sh` and review
//! the diff.

use game::Seat;
use starrealms::{Config, State, rollout};

const SEED: u64 = 2024;
const POLICY_SEED: u64 = 7;

fn trace() -> String {
    let mut state = State::new(&Config::default(), SEED).unwrap();
    let mut rng = game::rng_from_seed(POLICY_SEED);
    let mut buf = Vec::new();
    let mut out = format!("# game seed {SEED}, random policy seed {POLICY_SEED}\n");
    let views = |state: &State, out: &mut String| {
        for i in 0..state.players.len() {
            let seat = Seat(i as u8);
            out.push_str(&format!(
                "  {seat} sees: {}\n",
                state.observation(seat).summary()
            ));
        }
    };
    out.push_str("start\n");
    views(&state, &mut out);
    let mut step = 0;
    while !state.over {
        let who = state.to_move().unwrap();
        let a = rollout::random_action(&state, &mut buf, &mut rng);
        state.apply(a).unwrap();
        step += 1;
        out.push_str(&format!("{step}. {who}: {a}\n"));
        views(&state, &mut out);
    }
    out.push_str(&format!(
        "winners {:?} after {} turns\n",
        state.winners(),
        state.turn
    ));
    out
}

#[test]
fn golden_playthrough() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/playthrough.txt");
    let got = trace();
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(path, &got).unwrap();
        return;
    }
    let want =
        std::fs::read_to_string(path).expect("golden file missing: run scripts/regen-golden.sh");
    if got != want {
        let line = got
            .lines()
            .zip(want.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(got.lines().count().min(want.lines().count()));
        panic!(
            "the playthrough differs from tests/golden/playthrough.txt at line {}:\n got: {}\nwant: {}\n\
             If the change is intended, run scripts/regen-golden.sh and review the diff.",
            line + 1,
            got.lines().nth(line).unwrap_or("<end>"),
            want.lines().nth(line).unwrap_or("<end>")
        );
    }
}
