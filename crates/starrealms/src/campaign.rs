//! The *Rise of Empire* campaign: twelve two-player games whose trade deck changes for good.
//!
//! A campaign is data: its definition ([`CampaignDef`], a TOML file: sides, personal decks,
//! scenarios with their rule changes and victory-point cards, the final rule; see
//! `docs/campaign.md`) and a save ([`CampaignSave`]: the sides, the players, the seed, each
//! scenario's choice and the record of each game). Replaying the save's records from the
//! definition rebuilds the whole campaign state ([`Campaign`]): the trade deck with its upgraded
//! cards, the sheets and the stickers used, the points, who opens next.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use game::refusal::Why;
use game::{GameRecord, Seat};
use serde::{Deserialize, Serialize};

use crate::cards::{CardId, Effect, Faction, Sets, Texts};
use crate::config::{Config, Rule, SheetGrant, UsedSticker};
use crate::state::State;

/// The embedded campaign file (ours: "realms stand-in campaign").
pub const CAMPAIGN_FILE: &str = "campaigns/rise_of_empire.toml";
const CAMPAIGN_TEXT: &str = include_str!("../campaigns/rise_of_empire.toml");

/// Who a scenario's rule change is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Who {
    /// The player who opens the scenario.
    First,
    /// The other one.
    Second,
    /// The Star Empire's player.
    StarEmpire,
    /// The Trade Federation's player.
    TradeFederation,
    /// Each player.
    Both,
}

/// A rule change as a campaign file writes it, for a player named by [`Who`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum RuleSpec {
    /// Starting authority changed.
    Authority {
        /// For whom.
        who: Who,
        /// Added (negative: taken).
        add: i32,
    },
    /// A base in play at the start.
    Base {
        /// For whom.
        who: Who,
        /// The base.
        card: CardId,
    },
    /// Gains or draws whenever the player plays a card of this kind.
    Bonus {
        /// For whom.
        who: Who,
        /// The card kind.
        card: CardId,
        /// The effects.
        effects: Vec<Effect>,
    },
    /// Draw, then discard, at the start of each of the player's turns.
    TurnStart {
        /// For whom.
        who: Who,
        /// Cards drawn.
        #[serde(default)]
        draw: u8,
        /// Cards discarded.
        #[serde(default)]
        discard: u8,
    },
    /// A trade row of fewer slots.
    Row {
        /// Slots, 1 to 5.
        slots: u8,
    },
}

/// One option of a scenario's first-player choice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChoiceOption {
    /// What the option says.
    pub text: Texts,
    /// Its rule changes.
    #[serde(default)]
    pub rules: Vec<RuleSpec>,
}

/// One face of a scenario card (the first player's side's).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Face {
    /// Rule changes for the whole game.
    #[serde(default)]
    pub rules: Vec<RuleSpec>,
    /// A choice the first player makes at once (none, or two options and more).
    #[serde(default)]
    pub choice: Vec<ChoiceOption>,
}

/// What the winner of a scenario must have done to take its victory-point card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Condition {
    /// Win the scenario.
    Win,
    /// Win by a political victory.
    Political,
    /// Win with at least this much authority left.
    Authority(i32),
    /// Win by this turn (both players' turns counted).
    ByTurn(u32),
    /// Win having used at least this many stickers in the game.
    Upgrades(u8),
    /// Win with at least this many bases in play.
    Bases(u8),
}

/// A scenario's victory-point card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VictoryPoint {
    /// Points it is worth.
    pub points: u8,
    /// Its name.
    pub name: Texts,
    /// Who takes it.
    pub condition: Condition,
}

/// One scenario of a campaign.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioDef {
    /// 1, 2, …
    pub number: u8,
    /// Its name.
    pub name: Texts,
    /// What the scenario card says.
    pub text: Texts,
    /// Sticker sheets its envelope brings, by side.
    #[serde(default)]
    pub sheets: BTreeMap<Faction, String>,
    /// Political victory on this scenario's sheets.
    #[serde(default)]
    pub political: bool,
    /// The card's faces, by the first player's side.
    pub face: BTreeMap<Faction, Face>,
    /// The victory-point card.
    pub victory_point: VictoryPoint,
}

/// A side and its personal deck.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideDef {
    /// The side's faction.
    pub faction: Faction,
    /// Its personal deck: card id → copies.
    pub deck: BTreeMap<String, u8>,
}

/// How a tie on points is broken at the end of the campaign, in the order given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    /// More victory-point cards.
    Cards,
    /// More political victories.
    Political,
    /// More stickers used.
    Upgrades,
    /// The winner of the last scenario won.
    LastWinner,
}

/// The final rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FinalRule {
    /// Tie-breaks after the points.
    pub tie_breaks: Vec<TieBreak>,
}

/// A campaign file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignDef {
    /// Identifier, named by saves.
    pub id: String,
    /// Its name.
    pub name: Texts,
    /// The sets of the trade deck at the start.
    pub sets: Vec<String>,
    /// Sets whose trade cards join the deck after the last scenario.
    #[serde(default)]
    pub post_campaign: Vec<String>,
    /// The two sides.
    pub side: Vec<SideDef>,
    /// The final rule.
    #[serde(rename = "final")]
    pub final_rule: FinalRule,
    /// The scenarios, in order.
    pub scenario: Vec<ScenarioDef>,
}

/// A broken campaign file or save, or a game that does not belong to the campaign: realms' own
/// checks as keys of the table, or a reader's words ([`Why::text`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CampaignError(pub Why);

impl CampaignDef {
    /// Parses and checks a campaign file; `file` names it in errors.
    pub fn parse(file: &str, text: &str) -> Result<CampaignDef, CampaignError> {
        let def: CampaignDef = toml::from_str(text).map_err(|e| {
            let line = e
                .span()
                .map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1)
                .unwrap_or(0);
            CampaignError(Why::text(format!("{file}:{line}: {}", e.message())))
        })?;
        def.check()
            .map_err(|e| CampaignError(e.within("file.in_file", &[("file", &file)])))?;
        Ok(def)
    }

    /// The embedded stand-in campaign, read with the process's cards: an error when they lack
    /// the cards it names (a designer's card file without the *Rise of Empire* pack).
    pub fn embedded() -> Result<&'static CampaignDef, CampaignError> {
        static DEF: OnceLock<Result<CampaignDef, CampaignError>> = OnceLock::new();
        DEF.get_or_init(|| {
            CampaignDef::parse(CAMPAIGN_FILE, CAMPAIGN_TEXT)
                .map_err(|e| CampaignError(e.0.within("file.campaign.needs_cards", &[])))
        })
        .as_ref()
        .map_err(Clone::clone)
    }

    /// The embedded stand-in campaign (panics when the process's cards lack its cards; see
    /// [`CampaignDef::embedded`]).
    pub fn builtin() -> &'static CampaignDef {
        CampaignDef::embedded().unwrap_or_else(|e| panic!("{e}"))
    }

    fn check(&self) -> Result<(), Why> {
        let set = crate::cards();
        Sets::from_names(&self.sets)?;
        if !self.post_campaign.is_empty() {
            Sets::from_names(&self.post_campaign)?;
        }
        let sides: Vec<Faction> = self.side.iter().map(|s| s.faction).collect();
        if sides.len() != 2 || sides[0] == sides[1] {
            return Err(Why::new("file.campaign.two_sides", &[]));
        }
        for side in &self.side {
            let in_side =
                |e: Why| e.within("file.campaign.in_side", &[("side", &side.faction.name())]);
            let mut n = 0;
            for (id, &k) in &side.deck {
                if set.find(id).is_none() {
                    return Err(in_side(Why::new("file.unknown_card", &[("name", id)])));
                }
                n += k as usize;
            }
            if n < crate::state::HAND_SIZE {
                return Err(in_side(Why::new("file.campaign.small_deck", &[("n", &n)])));
            }
        }
        if self.scenario.is_empty() {
            return Err(Why::new("file.campaign.no_scenario", &[]));
        }
        for (i, sc) in self.scenario.iter().enumerate() {
            let at = |e: Why| e.within("file.campaign.in_scenario", &[("n", &sc.number)]);
            if sc.number as usize != i + 1 {
                return Err(at(Why::new("file.campaign.numbered", &[])));
            }
            for f in &sides {
                let face = sc
                    .face
                    .get(f)
                    .ok_or_else(|| at(Why::new("file.campaign.no_face", &[("side", &f.name())])))?;
                if face.choice.len() == 1 {
                    return Err(at(Why::new("file.campaign.one_option", &[])));
                }
            }
            if let Some(f) = sc.face.keys().find(|f| !sides.contains(f)) {
                return Err(at(Why::new(
                    "file.campaign.face_no_side",
                    &[("side", &f.name())],
                )));
            }
            for (f, id) in &sc.sheets {
                let Some(i) = set.find_sheet(id) else {
                    return Err(at(Why::new("file.campaign.unknown_sheet", &[("id", id)])));
                };
                if set.sheets[i as usize].side != *f {
                    return Err(at(Why::new(
                        "file.campaign.sheet_side",
                        &[("id", id), ("side", &f.name())],
                    )));
                }
            }
            if sc.political && sc.sheets.len() != 2 {
                return Err(at(Why::new("file.campaign.political_sheets", &[])));
            }
        }
        // Every face's rules make a valid game (both first players, every choice).
        for k in 0..self.scenario.len() {
            for first in 0..2 {
                let sides = [sides[0], sides[1]];
                let face = &self.scenario[k].face[&sides[first]];
                let options = face.choice.len().max(1);
                for c in 0..options {
                    let at = |e: Why| e.within("file.campaign.in_scenario", &[("n", &(k + 1))]);
                    let rules = resolve(face, c, first, &sides).map_err(at)?;
                    let config = Config {
                        rules,
                        ..Config::default()
                    };
                    config.validate().map_err(at)?;
                }
            }
        }
        Ok(())
    }

    /// A side's personal deck, in id order.
    pub fn deck_of(&self, faction: Faction) -> Vec<CardId> {
        let set = crate::cards();
        let side = self.side.iter().find(|s| s.faction == faction);
        let mut deck: Vec<CardId> = side
            .into_iter()
            .flat_map(|s| &s.deck)
            .flat_map(|(id, &k)| std::iter::repeat_n(set.find(id).expect("checked"), k as usize))
            .collect();
        deck.sort();
        deck
    }
}

/// The players a rule is for, as seats (the campaign's player `i` sits in seat `i`).
fn seats_of(who: Who, first: usize, sides: &[Faction; 2]) -> Vec<u8> {
    match who {
        Who::First => vec![first as u8],
        Who::Second => vec![1 - first as u8],
        Who::StarEmpire => (0..2u8)
            .filter(|&i| sides[i as usize] == Faction::StarEmpire)
            .collect(),
        Who::TradeFederation => (0..2u8)
            .filter(|&i| sides[i as usize] == Faction::TradeFederation)
            .collect(),
        Who::Both => vec![0, 1],
    }
}

/// A face's rules with option `choice` of its choice (if it has one), seat by seat.
fn resolve(
    face: &Face,
    choice: usize,
    first: usize,
    sides: &[Faction; 2],
) -> Result<Vec<Rule>, Why> {
    let chosen = match face.choice.get(choice) {
        Some(o) => &o.rules[..],
        None if face.choice.is_empty() => &[],
        None => {
            return Err(Why::new("file.campaign.no_option", &[("n", &(choice + 1))]));
        }
    };
    let mut out = Vec::new();
    for r in face.rules.iter().chain(chosen) {
        match r {
            RuleSpec::Authority { who, add } => {
                for seat in seats_of(*who, first, sides) {
                    out.push(Rule::Authority { seat, add: *add });
                }
            }
            RuleSpec::Base { who, card } => {
                for seat in seats_of(*who, first, sides) {
                    out.push(Rule::Base { seat, card: *card });
                }
            }
            RuleSpec::Bonus { who, card, effects } => {
                for seat in seats_of(*who, first, sides) {
                    out.push(Rule::Bonus {
                        seat: Some(seat),
                        card: *card,
                        effects: effects.clone(),
                    });
                }
            }
            RuleSpec::TurnStart { who, draw, discard } => {
                for seat in seats_of(*who, first, sides) {
                    out.push(Rule::TurnStart {
                        seat: Some(seat),
                        draw: *draw,
                        discard: *discard,
                    });
                }
            }
            RuleSpec::Row { slots } => out.push(Rule::Row { slots: *slots }),
        }
    }
    Ok(out)
}

/// A campaign being played: what is saved. The rest is rebuilt by replaying it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignSave {
    /// Format version.
    pub version: u32,
    /// The campaign file's id.
    pub campaign: String,
    /// Each player's side (player `i` sits in seat `p(i+1)` in every game).
    pub sides: [Faction; 2],
    /// Who plays each side: `human` or a bot's name (for people reading it).
    pub players: [String; 2],
    /// The campaign's seed: each game's seed derives from it.
    pub seed: u64,
    /// For each game played or begun: the option of its scenario's choice picked by the first
    /// player (0 when it has none).
    pub choices: Vec<u8>,
    /// The record of each game, finished ones first; the last may be in progress.
    pub games: Vec<GameRecord>,
    /// After the last scenario: the upgrades each player makes to complete their stickers, in
    /// order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub completion: Vec<Completion>,
    /// The fingerprint of the cards it is played with, those of the campaign's sets
    /// ([`crate::cards::CardSet::fingerprint_of`]): resumed with other cards, its games would not
    /// replay as they were played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cards: Option<String>,
}

/// One upgrade after the campaign: a card of the trade deck upgraded with a sticker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Completion {
    /// The player (0 or 1).
    pub player: u8,
    /// The printed card, from the trade deck.
    pub card: CardId,
    /// The sheet's id.
    pub sheet: String,
    /// The row, 1 to 5.
    pub row: u8,
}

/// The version of campaign saves this build writes.
pub const SAVE_VERSION: u32 = 1;

/// The campaign state rebuilt from a save.
#[derive(Clone, Debug, PartialEq)]
pub struct Campaign {
    /// The definition.
    pub def: CampaignDef,
    /// The save.
    pub save: CampaignSave,
    /// The trade deck of the next game (sorted by card id).
    pub trade_deck: Vec<CardId>,
    /// Each player's sheets and the stickers used so far.
    pub sheets: [Vec<SheetGrant>; 2],
    /// Points.
    pub points: [u32; 2],
    /// For each finished scenario: who won it (`None`: a draw), and who took its card.
    pub results: Vec<ScenarioResult>,
    /// Political victories.
    pub political: [u32; 2],
    /// Stickers used in all.
    pub upgrades: [u32; 2],
}

/// How a scenario ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScenarioResult {
    /// Who opened it.
    pub first: u8,
    /// Its winner (`None`: a draw).
    pub winner: Option<u8>,
    /// Who took its victory-point card.
    pub card: Option<u8>,
    /// Whether it ended by a political victory.
    pub political: bool,
}

impl Campaign {
    /// A new campaign: each player's wished side (if both wish the same, the seed draws who
    /// gets it).
    pub fn new(
        def: &CampaignDef,
        wishes: [Faction; 2],
        players: [String; 2],
        seed: u64,
    ) -> Result<Campaign, CampaignError> {
        let sides: Vec<Faction> = def.side.iter().map(|s| s.faction).collect();
        for w in wishes {
            if !sides.contains(&w) {
                return Err(CampaignError(Why::new(
                    "file.campaign.not_a_side",
                    &[("side", &w.name())],
                )));
            }
        }
        let sides = if wishes[0] != wishes[1] {
            wishes
        } else {
            let other = if sides[0] == wishes[0] {
                sides[1]
            } else {
                sides[0]
            };
            let mut rng = game::rng_from_seed(seed ^ 0x0515_1DE5);
            if game::below(&mut rng, 2) == 0 {
                [wishes[0], other]
            } else {
                [other, wishes[0]]
            }
        };
        let save = CampaignSave {
            version: SAVE_VERSION,
            campaign: def.id.clone(),
            sides,
            players,
            seed,
            choices: Vec::new(),
            games: Vec::new(),
            completion: Vec::new(),
            cards: Some(cards_fingerprint(def)),
        };
        Campaign::replay(def, save)
    }

    fn start(def: &CampaignDef, save: CampaignSave) -> Result<Campaign, CampaignError> {
        if save.version != SAVE_VERSION {
            return Err(CampaignError(Why::new(
                "file.campaign.save_version",
                &[("version", &save.version), ("read", &SAVE_VERSION)],
            )));
        }
        if save.campaign != def.id {
            return Err(CampaignError(Why::new(
                "file.campaign.other_campaign",
                &[("found", &save.campaign), ("expected", &def.id)],
            )));
        }
        if let Some(cards) = &save.cards
            && *cards != cards_fingerprint(def)
            && !legacy_fingerprint(cards)
        {
            return Err(CampaignError(Why::new("file.campaign.other_cards", &[])));
        }
        let sides: Vec<Faction> = def.side.iter().map(|s| s.faction).collect();
        if save.sides[0] == save.sides[1] || !save.sides.iter().all(|s| sides.contains(s)) {
            return Err(CampaignError(Why::new("file.campaign.save_sides", &[])));
        }
        let sets = Sets::from_names(&def.sets).map_err(CampaignError)?;
        Ok(Campaign {
            trade_deck: crate::cards().trade_deck_of(sets),
            def: def.clone(),
            save,
            sheets: [Vec::new(), Vec::new()],
            points: [0; 2],
            results: Vec::new(),
            political: [0; 2],
            upgrades: [0; 2],
        })
    }

    /// Rebuilds a campaign from its save: every finished game is replayed and must be the game
    /// the campaign deals at that point.
    pub fn replay(def: &CampaignDef, save: CampaignSave) -> Result<Campaign, CampaignError> {
        let games = save.games.clone();
        let choices = save.choices.clone();
        let completion = save.completion.clone();
        let mut c = Campaign::start(
            def,
            CampaignSave {
                choices: Vec::new(),
                games: Vec::new(),
                completion: Vec::new(),
                ..save
            },
        )?;
        if choices.len() < games.len() {
            return Err(CampaignError(Why::new("file.campaign.few_choices", &[])));
        }
        for (k, record) in games.iter().enumerate() {
            let expected = c.next_record(choices[k])?;
            if record.config != expected.config || record.seed != expected.seed {
                return Err(CampaignError(Why::new(
                    "file.campaign.other_game",
                    &[("n", &(k + 1))],
                )));
            }
            let state: State = record.replay().map_err(|e| {
                CampaignError(
                    e.why()
                        .within("file.campaign.no_replay", &[("n", &(k + 1))]),
                )
            })?;
            c.save.choices.push(choices[k]);
            c.save.games.push(record.clone());
            if state.over {
                c.finish(&state)?;
            } else if k + 1 != games.len() {
                return Err(CampaignError(Why::new(
                    "file.campaign.not_over",
                    &[("n", &(k + 1))],
                )));
            }
        }
        if choices.len() > c.save.choices.len() {
            // A choice made for a game not begun yet.
            c.save.choices.push(choices[c.save.choices.len()]);
        }
        for (i, step) in completion.iter().enumerate() {
            c.complete(step.clone()).map_err(|e| {
                CampaignError(e.0.within("file.campaign.in_upgrade", &[("n", &(i + 1))]))
            })?;
        }
        Ok(c)
    }

    /// After the last scenario, whose turn it is to complete their stickers: each player must
    /// use every sticker left that fits a card of the trade deck; when both must, they take
    /// turns, the one with more left first (the Star Empire's player on a tie). `None`: done.
    pub fn completion_turn(&self) -> Option<u8> {
        if !self.is_over() {
            return None;
        }
        let left: [usize; 2] = [0, 1].map(|p| self.completion_options(p).len());
        let stickers: [u32; 2] = [0, 1].map(|p| {
            self.sheets[p]
                .iter()
                .map(|g| crate::cards::SHEET_ROWS as u32 - g.used.len() as u32)
                .sum()
        });
        match [left[0] > 0, left[1] > 0] {
            [false, false] => None,
            [true, false] => Some(0),
            [false, true] => Some(1),
            [true, true] => Some(match self.save.completion.last().map(|s| s.player) {
                Some(p) => 1 - p,
                None if stickers[0] != stickers[1] => u8::from(stickers[1] > stickers[0]),
                None => u8::from(self.save.sides[1] == Faction::StarEmpire),
            }),
        }
    }

    /// The upgrades `player` may make now after the campaign: `(printed card, sheet index,
    /// row 0–4)`, a card of the trade deck not upgraded yet, a free row of one of its sheets.
    pub fn completion_options(&self, player: usize) -> Vec<(CardId, usize, u8)> {
        let set = crate::cards();
        let mut kinds: Vec<CardId> = self
            .trade_deck
            .iter()
            .copied()
            .filter(|&c| set.info(c).upgradable)
            .collect();
        kinds.dedup();
        let mut out = Vec::new();
        for (i, g) in self.sheets[player].iter().enumerate() {
            let Some(sheet) = set.find_sheet(&g.sheet) else {
                continue;
            };
            for r in 0..crate::cards::SHEET_ROWS as u8 {
                if g.used.iter().any(|u| u.row == r + 1) {
                    continue;
                }
                for &c in &kinds {
                    if set.upgraded(c, sheet, r).is_some() {
                        out.push((c, i, r));
                    }
                }
            }
        }
        out
    }

    /// Makes one upgrade after the campaign (see [`Campaign::completion_turn`]).
    pub fn complete(&mut self, step: Completion) -> Result<(), CampaignError> {
        let p = step.player as usize;
        if p > 1 || self.completion_turn() != Some(step.player) {
            return Err(CampaignError(Why::new(
                "file.campaign.not_your_turn",
                &[("seat", &format!("p{}", p + 1))],
            )));
        }
        let Some(i) = self.sheets[p].iter().position(|g| g.sheet == step.sheet) else {
            return Err(CampaignError(Why::new(
                "file.campaign.no_sheet",
                &[("seat", &format!("p{}", p + 1)), ("id", &step.sheet)],
            )));
        };
        if !(1..=crate::cards::SHEET_ROWS as u8).contains(&step.row)
            || !self
                .completion_options(p)
                .contains(&(step.card, i, step.row - 1))
        {
            return Err(CampaignError(Why::new(
                "file.campaign.cannot_upgrade",
                &[
                    ("card", &step.card),
                    ("row", &step.row),
                    ("sheet", &step.sheet),
                ],
            )));
        }
        let set = crate::cards();
        let sheet = set.find_sheet(&step.sheet).expect("owned");
        let up = set
            .upgraded(step.card, sheet, step.row - 1)
            .expect("an option");
        let at = self
            .trade_deck
            .iter()
            .position(|&c| c == step.card)
            .expect("in the deck");
        self.trade_deck[at] = up;
        self.trade_deck.sort();
        self.sheets[p][i].used.push(UsedSticker {
            row: step.row,
            column: crate::cards::Column::of(set.info(step.card).kind),
        });
        self.upgrades[p] += 1;
        self.save.completion.push(step);
        Ok(())
    }

    /// The index of the next scenario to play (or the one in progress).
    pub fn scenario_index(&self) -> usize {
        self.results.len()
    }

    /// Whether all the scenarios are played.
    pub fn is_over(&self) -> bool {
        self.results.len() >= self.def.scenario.len()
    }

    /// The game in progress, if a game was begun and is not over.
    pub fn in_progress(&self) -> Option<&GameRecord> {
        (self.save.games.len() > self.results.len()).then(|| self.save.games.last())?
    }

    /// Who opens the next scenario: the Star Empire's player in the first; then who took the
    /// previous scenario's victory-point card; if nobody did, the player who did not open it.
    pub fn next_first(&self) -> usize {
        match self.results.last() {
            None => self
                .save
                .sides
                .iter()
                .position(|&s| s == Faction::StarEmpire)
                .unwrap_or(0),
            Some(r) => match r.card {
                Some(p) => p as usize,
                None => 1 - r.first as usize,
            },
        }
    }

    /// The face of the next scenario's card (the first player's side's).
    pub fn next_face(&self) -> Option<&Face> {
        let sc = self.def.scenario.get(self.scenario_index())?;
        sc.face.get(&self.save.sides[self.next_first()])
    }

    /// Each player's sheets in the next game: every sheet received so far, with its used
    /// stickers; political on the current scenario's.
    fn next_sheets(&self) -> Vec<Vec<SheetGrant>> {
        let k = self.scenario_index();
        let mut out = self.sheets.clone();
        if let Some(sc) = self.def.scenario.get(k) {
            for (p, grants) in out.iter_mut().enumerate() {
                if let Some(id) = sc.sheets.get(&self.save.sides[p])
                    && !grants.iter().any(|g| &g.sheet == id)
                {
                    grants.push(SheetGrant {
                        sheet: id.clone(),
                        used: Vec::new(),
                        political: false,
                    });
                }
                for g in grants.iter_mut() {
                    g.political =
                        sc.political && sc.sheets.get(&self.save.sides[p]) == Some(&g.sheet);
                }
            }
        }
        out.into_iter().collect()
    }

    /// The seed of game `k` (0-based), derived from the campaign's by SHA-256: a game's
    /// seed, published with its record once it is over, tells nothing of the campaign's seed
    /// nor of the next games' deals.
    pub fn game_seed(&self, k: usize) -> u64 {
        use sha2::Digest;
        let mut hash = sha2::Sha256::new();
        hash.update(b"realms campaign game");
        hash.update(self.save.seed.to_le_bytes());
        hash.update((k as u64).to_le_bytes());
        let digest = hash.finalize();
        u64::from_le_bytes(digest[..8].try_into().expect("eight bytes"))
    }

    /// The configuration and seed of the next game, with option `choice` of its scenario's
    /// choice, as an empty record.
    pub fn next_record(&self, choice: u8) -> Result<GameRecord, CampaignError> {
        if self.is_over() {
            return Err(CampaignError(Why::new("file.campaign.over", &[])));
        }
        let first = self.next_first();
        let face = self.next_face().expect("a scenario is next");
        let rules =
            resolve(face, choice as usize, first, &self.save.sides).map_err(CampaignError)?;
        let decks = (0..2)
            .map(|p| self.def.deck_of(self.save.sides[p]))
            .collect();
        let config = Config {
            sets: Sets::from_names(&self.def.sets).map_err(CampaignError)?,
            trade_deck: Some(self.trade_deck.clone()),
            decks,
            first: Some(Seat(first as u8)),
            sheets: self.next_sheets(),
            rules,
            ..Config::default()
        };
        config.validate().map_err(CampaignError)?;
        let mut record = GameRecord::new::<State>(&config, self.game_seed(self.scenario_index()));
        record.players = self.save.players.to_vec();
        Ok(record)
    }

    /// Starts the next game with option `choice` of its scenario's choice: its record is added
    /// to the save.
    pub fn begin(&mut self, choice: u8) -> Result<&GameRecord, CampaignError> {
        if self.in_progress().is_some() {
            return Err(CampaignError(Why::new("file.campaign.in_progress", &[])));
        }
        let record = self.next_record(choice)?;
        self.save.choices.truncate(self.save.games.len());
        self.save.choices.push(choice);
        self.save.games.push(record);
        Ok(self.save.games.last().expect("just pushed"))
    }

    /// Records the game in progress as played to `state` (its actions), and if it is over
    /// applies its result.
    pub fn update(&mut self, record: &GameRecord) -> Result<(), CampaignError> {
        let Some(current) = self.in_progress() else {
            return Err(CampaignError(Why::new(
                "file.campaign.none_in_progress",
                &[],
            )));
        };
        if record.config != current.config || record.seed != current.seed {
            return Err(CampaignError(Why::new("file.campaign.other_record", &[])));
        }
        let state: State = record
            .replay()
            .map_err(|e| CampaignError(e.why().within("file.campaign.game_no_replay", &[])))?;
        *self.save.games.last_mut().expect("in progress") = record.clone();
        if state.over {
            self.finish(&state)?;
        }
        Ok(())
    }

    /// Applies a finished game: its winner, the victory-point card, the stickers used, and the
    /// trade deck as it goes back together (every card of the game but the personal decks, the
    /// starting bases and the Explorers, upgraded ones included).
    fn finish(&mut self, end: &State) -> Result<(), CampaignError> {
        let k = self.scenario_index();
        let sc = &self.def.scenario[k];
        let first = end.first.index() as u8;
        let winner = match end.winners().as_slice() {
            [w] => Some(w.0),
            _ => None,
        };
        let political = winner.is_some_and(|w| {
            let loser = &end.players.0[1 - w as usize];
            loser.alive
                && loser.authority > 0
                && end.players.0[w as usize]
                    .sheets
                    .iter()
                    .any(|u| u.political && u.used() as usize == crate::cards::SHEET_ROWS)
        });
        let used_before: [u32; 2] = std::array::from_fn(|p| {
            end.config
                .sheets
                .get(p)
                .map_or(0, |g| g.iter().map(|s| s.used.len() as u32).sum())
        });
        let used_after: [u32; 2] =
            std::array::from_fn(|p| end.players.0[p].sheets.iter().map(|u| u.used()).sum());
        let card = winner.filter(|&w| {
            let me = &end.players.0[w as usize];
            match sc.victory_point.condition {
                Condition::Win => true,
                Condition::Political => political,
                Condition::Authority(n) => me.authority >= n,
                Condition::ByTurn(n) => end.turn <= n,
                Condition::Upgrades(n) => {
                    used_after[w as usize] - used_before[w as usize] >= n as u32
                }
                Condition::Bases(n) => me.bases.len() >= n as usize,
            }
        });
        if let Some(w) = card {
            self.points[w as usize] += sc.victory_point.points as u32;
        }
        if political && let Some(w) = winner {
            self.political[w as usize] += 1;
        }
        for p in 0..2 {
            self.upgrades[p] += used_after[p] - used_before[p];
        }
        // The sheets as used now.
        let set = crate::cards();
        self.sheets = std::array::from_fn(|p| {
            end.players.0[p]
                .sheets
                .iter()
                .map(|u| SheetGrant {
                    sheet: set.sheets[u.sheet.0 as usize].id.clone(),
                    used: used_list(u),
                    political: false,
                })
                .collect()
        });
        // The trade deck: every card of the game, less the personal decks, the starting bases
        // and the Explorers.
        let mut all: Vec<CardId> = Vec::new();
        for p in &end.players.0 {
            all.extend(p.all_cards());
        }
        all.extend(end.row.iter().flatten().copied());
        all.extend(end.trade_deck.iter().copied());
        all.extend(end.scrap_heap.iter().copied());
        all.retain(|&c| c != set.explorer);
        let mut outside: Vec<CardId> = end.config.decks.iter().flatten().copied().collect();
        for r in &end.config.rules {
            if let Rule::Base { card, .. } = r {
                outside.push(*card);
            }
        }
        for c in outside {
            match all.iter().position(|&x| x == c) {
                Some(i) => {
                    all.swap_remove(i);
                }
                None => {
                    return Err(CampaignError(Why::new(
                        "file.campaign.personal_left",
                        &[("card", &c)],
                    )));
                }
            }
        }
        all.sort();
        self.trade_deck = all;
        self.results.push(ScenarioResult {
            first,
            winner,
            card,
            political,
        });
        Ok(())
    }

    /// The campaign's winner once over, by points then the final rule's tie-breaks (`None`: a
    /// tie they do not break).
    pub fn winner(&self) -> Option<u8> {
        if !self.is_over() {
            return None;
        }
        let cards = |p: usize| {
            self.results
                .iter()
                .filter(|r| r.card == Some(p as u8))
                .count() as u32
        };
        let mut keys: Vec<[u32; 2]> = vec![self.points];
        for t in &self.def.final_rule.tie_breaks {
            keys.push(match t {
                TieBreak::Cards => [cards(0), cards(1)],
                TieBreak::Political => self.political,
                TieBreak::Upgrades => self.upgrades,
                TieBreak::LastWinner => {
                    let w = self.results.last().and_then(|r| r.winner);
                    [u32::from(w == Some(0)), u32::from(w == Some(1))]
                }
            });
        }
        keys.iter()
            .find(|k| k[0] != k[1])
            .map(|k| u8::from(k[1] > k[0]))
    }

    /// What the campaign's status shows.
    pub fn status(&self) -> Status {
        let set = crate::cards();
        let turn = self.completion_turn();
        let next_choice = match (self.in_progress(), self.next_face()) {
            (None, Some(face)) => face.choice.iter().map(|o| o.text.clone()).collect(),
            _ => Vec::new(),
        };
        Status {
            campaign: self.def.id.clone(),
            sides: self.save.sides,
            players: self.save.players.clone(),
            scenario: self.scenario_index() + 1,
            scenarios: self.def.scenario.len(),
            over: self.is_over(),
            in_progress: self.in_progress().is_some(),
            winner: self.winner(),
            points: self.points,
            political_victories: self.political,
            stickers_used: self.upgrades,
            next_first: (!self.is_over()).then(|| self.next_first()),
            next_choice,
            results: self.results.clone(),
            sheets: self.sheets.clone(),
            upgraded_cards: self
                .trade_deck
                .iter()
                .copied()
                .filter(|&x| set.def(x).upgrade.is_some())
                .collect(),
            trade_deck: self.trade_deck.len(),
            completion_turn: turn,
            completion_options: turn
                .map(|p| {
                    self.completion_options(p as usize)
                        .into_iter()
                        .map(|(card, sheet, row)| {
                            (card, self.sheets[p as usize][sheet].sheet.clone(), row + 1)
                        })
                        .collect()
                })
                .unwrap_or_default(),
            final_trade_deck: self.final_trade_deck().ok().map(|d| d.len()),
        }
    }

    /// The trade deck after the campaign: the campaign's, every sticker used, with the
    /// post-campaign sets' cards.
    pub fn final_trade_deck(&self) -> Result<Vec<CardId>, CampaignError> {
        if !self.is_over() || self.completion_turn().is_some() {
            return Err(CampaignError(Why::new("file.campaign.not_finished", &[])));
        }
        let mut deck = self.trade_deck.clone();
        if !self.def.post_campaign.is_empty() {
            let post = Sets::from_names(&self.def.post_campaign).map_err(CampaignError)?;
            deck.extend(crate::cards().trade_deck_of(post));
        }
        deck.sort();
        Ok(deck)
    }
}

/// What a campaign's status shows (`realms campaign status --json`, the server's campaign
/// page): everything public about it. Not its seed: the deals of the games to come.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Status {
    /// The campaign file's id.
    pub campaign: String,
    /// Each player's side.
    pub sides: [Faction; 2],
    /// Who plays each side: `human` or a bot's name.
    pub players: [String; 2],
    /// The number of the next scenario (or the one in progress), 1-based; past the last once
    /// all are played.
    pub scenario: usize,
    /// Scenarios in all.
    pub scenarios: usize,
    /// Whether every scenario is played.
    pub over: bool,
    /// Whether a game is being played.
    pub in_progress: bool,
    /// Once over: the campaign's winner (`None`: a tie the final rule does not break).
    pub winner: Option<u8>,
    /// Points.
    pub points: [u32; 2],
    /// Political victories.
    pub political_victories: [u32; 2],
    /// Stickers used in all.
    pub stickers_used: [u32; 2],
    /// Who opens the next scenario (or the one in progress).
    pub next_first: Option<usize>,
    /// The choice the first player makes for the next scenario (empty: none), when no game is
    /// in progress.
    pub next_choice: Vec<Texts>,
    /// Each finished scenario's result.
    pub results: Vec<ScenarioResult>,
    /// Each player's sheets and the stickers used.
    pub sheets: [Vec<SheetGrant>; 2],
    /// The upgraded cards of the trade deck.
    pub upgraded_cards: Vec<CardId>,
    /// Cards in the trade deck.
    pub trade_deck: usize,
    /// After the scenarios: who must upgrade a card now to complete their stickers.
    pub completion_turn: Option<u8>,
    /// The upgrades that player may make: printed card, sheet id and row (1 to 5).
    pub completion_options: Vec<(CardId, String, u8)>,
    /// Once complete: the cards of the trade deck for games after the campaign (post-campaign
    /// cards included).
    pub final_trade_deck: Option<usize>,
}

fn used_list(u: &crate::state::SheetUse) -> Vec<UsedSticker> {
    let mut v = Vec::new();
    for r in 0..crate::cards::SHEET_ROWS as u8 {
        if u.ship & (1 << r) != 0 {
            v.push(UsedSticker {
                row: r + 1,
                column: crate::cards::Column::Ship,
            });
        }
        if u.base & (1 << r) != 0 {
            v.push(UsedSticker {
                row: r + 1,
                column: crate::cards::Column::Base,
            });
        }
    }
    v
}

/// The fingerprint saves wrote while the built-in cards were the base set and the *Rise of
/// Empire* sets only (it covered every built-in card): such a save played with the built-in
/// cards of today's *Rise of Empire* sets, which have not changed, so it resumes with them.
const LEGACY_FINGERPRINT: &str = "a6219dbf439b6428";

/// Whether `cards` is the fingerprint of a save from before other sets joined the built-in
/// cards, resumed with the built-in cards.
fn legacy_fingerprint(cards: &str) -> bool {
    cards == LEGACY_FINGERPRINT && std::ptr::eq(crate::cards(), crate::cards::CardSet::builtin())
}

/// The fingerprint of the cards a campaign plays with: its sets' and its post-campaign sets'.
fn cards_fingerprint(def: &CampaignDef) -> String {
    let sets: Vec<&String> = def.sets.iter().chain(&def.post_campaign).collect();
    crate::cards().fingerprint_of(&sets)
}
