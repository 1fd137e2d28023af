//! Bots in a *Rise of Empire* campaign: the first player's scenario choice, the upgrades that
//! complete the stickers after the last scenario, and whole campaigns between two bots.

use game::GameRecord;
use starrealms::State;
use starrealms::campaign::{Campaign, CampaignDef, Completion};
use starrealms::cards::Faction;

use crate::Bot;

/// Games played with each option of a scenario's choice before a bot picks one.
pub const CHOICE_ROLLOUTS: usize = 12;

/// The option of the next scenario's choice a bot picks when it opens it (0 when there is
/// none): the one with which its side wins most often in [`CHOICE_ROLLOUTS`] games between
/// two heuristic bots, each option tried on the same deals (drawn from `seed`, not the
/// game's: the bot does not know how the game will deal); the first option on a tie.
pub fn scenario_choice(c: &Campaign, seed: u64) -> u8 {
    let options = c.next_face().map_or(0, |f| f.choice.len());
    if options < 2 || c.in_progress().is_some() {
        return 0;
    }
    let first = c.next_first();
    let mut best = (0, 0u8);
    for option in 0..options as u8 {
        let Ok(record) = c.next_record(option) else {
            continue;
        };
        let wins = (0..CHOICE_ROLLOUTS)
            .filter(|&i| {
                let deal = game::mix_seed(seed ^ game::mix_seed(i as u64 + 1));
                rollout_winner(&record, deal) == Some(first)
            })
            .count();
        if option == 0 || wins > best.0 {
            best = (wins, option);
        }
    }
    best.1
}

/// The winning seat of a game of `record`'s configuration dealt from `deal`, between two
/// heuristic bots.
fn rollout_winner(record: &GameRecord, deal: u64) -> Option<usize> {
    let mut record = record.clone();
    record.seed = deal;
    let state: State = record.initial_state().ok()?;
    let mut players: Vec<Box<dyn Bot<State>>> = (0..2u64)
        .map(|p| crate::starrealms::by_name("heuristic", deal ^ (p + 1)))
        .collect::<Result<_, _>>()
        .ok()?;
    let end = crate::play_game(state, &mut players, |_, _, _| {});
    match end.winners().as_slice() {
        [one] => Some(one.index()),
        _ => None,
    }
}

/// A bot's upgrade after the campaign (see [`Campaign::completion_turn`]): the most
/// expensive card it can upgrade, the first sheet and row on a tie.
pub fn completion(c: &Campaign, player: u8) -> Option<Completion> {
    let set = starrealms::cards();
    let options = c.completion_options(player as usize);
    let &(card, sheet, row) = options.iter().max_by_key(|(card, sheet, row)| {
        (set.info(*card).cost, std::cmp::Reverse((*sheet, *row)))
    })?;
    Some(Completion {
        player,
        card,
        sheet: c.sheets[player as usize][sheet].sheet.clone(),
        row: row + 1,
    })
}

/// One whole campaign between two bots (player 1 wishes the Star Empire): every scenario,
/// each choice by the bot that opens it, then the upgrades after the last.
pub fn play_campaign(def: &CampaignDef, bots: [&str; 2], seed: u64) -> Result<Campaign, String> {
    let mut c = Campaign::new(
        def,
        [Faction::StarEmpire, Faction::TradeFederation],
        [bots[0].to_string(), bots[1].to_string()],
        seed,
    )
    .map_err(|e| e.to_string())?;
    while !c.is_over() {
        let k = c.scenario_index();
        let choice = scenario_choice(&c, c.game_seed(k) ^ 0xC401CE);
        let record = c.begin(choice).map_err(|e| e.to_string())?.clone();
        let state: State = record.initial_state().map_err(|e| e.to_string())?;
        let mut players: Vec<Box<dyn Bot<State>>> = (0..2)
            .map(|p| crate::starrealms::by_name(bots[p], record.seed ^ ((p as u64 + 1) << 32)))
            .collect::<Result<_, _>>()?;
        let mut actions = Vec::new();
        crate::play_game(state, &mut players, |_, a, _| actions.push(a.to_string()));
        let mut done = record;
        done.actions = actions;
        c.update(&done).map_err(|e| e.to_string())?;
    }
    while let Some(p) = c.completion_turn() {
        let step = completion(&c, p).ok_or("a player must upgrade but has no card to")?;
        c.complete(step).map_err(|e| e.to_string())?;
    }
    Ok(c)
}
