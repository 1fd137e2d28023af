//! The heuristic Star Realms bot: a fixed, explainable policy that reads only its seat's
//! [`Observation`] and the legal actions. Every number it weighs is data
//! (`crates/bots/data/heuristic.toml`, see [`Values`]); ties are broken by its own seeded RNG.
//!
//! # Policy
//!
//! Main phase, first applicable step:
//! 1. A base ability that works on the hand (Machine Base, Recycling Station, Junkyard, Brain
//!    World) while the hand still holds Vipers or Scouts: discarding or scrapping them must happen
//!    before they are played away.
//! 2. Play every card: bases first (they enable allies and Embassy Yacht), then ships that draw
//!    (the drawn cards get played too), then ships that scrap (a Viper still in hand can be
//!    thinned), then the rest, starting cards last, Stealth Needle very last (it copies the best
//!    ship played).
//! 3. Use every base primary and ally ability: they are free. A mandatory scrap (Patrol Mech's
//!    ally, Junkyard, Machine Base) is used only when it would scrap a starting card.
//! 4. Lethal: when combat, plus what scrap abilities would add, reaches the weakest opponent's
//!    authority behind its outposts, scrap the cheapest contributors and kill.
//! 5. Scrap a card for trade (Ram, Blob Wheel, Space Station) only if the purchase it enables
//!    gains more than the scrapped card is worth.
//! 6. Scrap Explorers for combat once the economy is built (from a game turn set in the data):
//!    thinner decks draw their good cards more often.
//! 7. Buy: the set of affordable cards (trade row and Explorers) with the largest total value above
//!    the phase's minimum, its most valuable card first, re-planned after each buy (the row
//!    refills). Values get a faction bonus per owned card of the faction. Cards below the minimum
//!    are junk that would dilute the deck: the trade is left unspent.
//! 8. Attack: outposts whenever affordable (they shield the player), other bases when their value
//!    repays the combat (a phase-dependent ratio), then the player with all the rest in one
//!    action (64 at most per action, repeated).
//! 9. End the turn.
//!
//! Decisions: "choose one" options are scored on one scale (trade by the value of the purchases
//! it adds, combat by a phase weight or as a kill, authority more when low, draws); optional
//! scraps take Vipers, then Scouts (while the deck is big enough, not in the late game), then
//! Explorers after the early game, from the discard pile before the hand; forced discards drop
//! the least valuable card; "destroy target base" takes the most valuable base (an outpost that
//! opens a kill first); Stealth Needle copies the most valuable ship; free ships are the most
//! valuable ones; acquired ships go on top of the deck; a trade-row scrap denies a strong card
//! the bot will not buy, or refreshes a row with nothing worth buying.

use game::{GameRng, Seat};
use starrealms::cards::{Effect, Faction, ScrapFrom};
use starrealms::observation::PlayerView;
use starrealms::{Action, CardId, InPlay, Observation, Pending, State, cards};

use smallvec::SmallVec;
use std::cell::OnceCell;
use std::sync::Arc;

use super::buyer::BuyNet;
use crate::{Bot, SeatView};

mod scripted;
mod values;

pub use scripted::{BuyScores, SCRIPTED, ScriptedBot};
use values::Phase;
pub use values::{Values, ValuesError};

/// A lethal option outranks anything else a "choose one" offers.
const KILL: f32 = 1000.0;

/// The heuristic bot (policy in the module documentation).
#[derive(Clone)]
pub struct HeuristicBot {
    values: Values,
    buyer: Option<Arc<BuyNet>>,
    rng: GameRng,
}

impl HeuristicBot {
    /// A heuristic bot with the embedded value table and its seed.
    pub fn new(seed: u64) -> Self {
        HeuristicBot::with_values(Values::embedded().clone(), seed)
    }

    /// A heuristic bot with its own value table and its seed.
    pub fn with_values(values: Values, seed: u64) -> Self {
        HeuristicBot {
            values,
            buyer: None,
            rng: game::rng_from_seed(seed),
        }
    }

    /// The same bot buying by a learned purchase network (see [`super::buyer`]) in the games the
    /// network knows (two players, the base set); by its value table elsewhere.
    pub fn with_buyer(mut self, net: Arc<BuyNet>) -> Self {
        self.buyer = Some(net);
        self
    }

    /// Whether it buys by a learned network (and so counts every player's cards).
    pub fn buys_by_network(&self) -> bool {
        self.buyer.is_some()
    }
}

impl Bot<State> for HeuristicBot {
    fn name(&self) -> &str {
        "heuristic"
    }

    fn choose(&mut self, view: &SeatView<'_, State>, legal: &[Action]) -> Action {
        if let [only] = legal {
            return *only;
        }
        let o = view.observation();
        let mut cx = Ctx::new(o, view.seat(), &self.values);
        cx.buyer = self
            .buyer
            .as_deref()
            .filter(|_| super::value::knows(&o.config, o.players.len()));
        let action = decide(&cx, legal, &mut self.rng);
        debug_assert!(legal.contains(&action), "{action} is not legal");
        action
    }
}

// ----- what the bot knows at a decision ----------------------------------------------------------

/// One decision's view: the observation and what the bot derives from it once.
struct Ctx<'a> {
    o: &'a Observation,
    seat: Seat,
    me: &'a PlayerView,
    hand: &'a [CardId],
    values: &'a Values,
    phase: Phase,
    /// Cards the bot owns (every zone) and how many per faction, counted when first asked
    /// (most decisions never ask).
    owned: OnceCell<(usize, [u16; Faction::COUNT])>,
    /// The learned purchase network, in a game it knows.
    buyer: Option<&'a BuyNet>,
}

impl<'a> Ctx<'a> {
    fn new(o: &'a Observation, seat: Seat, values: &'a Values) -> Self {
        let me = &o.players[seat.index()];
        let hand = me.hand.as_deref().unwrap_or(&[]);
        let s = &values.settings;
        let weakest = o
            .players
            .iter()
            .filter(|p| p.alive)
            .map(|p| p.authority)
            .min()
            .unwrap_or(i32::MAX);
        let phase = if weakest <= s.late_authority || o.turn >= s.late_turns {
            Phase::Late
        } else if o.turn <= s.early_turns {
            Phase::Early
        } else {
            Phase::Mid
        };
        Ctx {
            o,
            seat,
            me,
            hand,
            values,
            phase,
            owned: OnceCell::new(),
            buyer: None,
        }
    }

    /// Cards the bot owns, every zone, and how many of them per faction.
    fn owned(&self) -> &(usize, [u16; Faction::COUNT]) {
        self.owned.get_or_init(|| {
            let set = cards();
            let mut factions = [0u16; Faction::COUNT];
            let mut owned = 0;
            let mut count = |c: CardId| {
                owned += 1;
                let mut member = set.info(c).member;
                while member != 0 {
                    factions[member.trailing_zeros() as usize] += 1;
                    member &= member - 1;
                }
            };
            // The seat's own view: its whole hand is there.
            self.me.owned().for_each(&mut count);
            (owned, factions)
        })
    }

    /// What a card is worth to keep now.
    fn keep(&self, c: CardId) -> f32 {
        self.values.value(c, self.phase)
    }

    /// What a card is worth to buy now: its value plus the faction bonus.
    fn buy_value(&self, c: CardId) -> f32 {
        let s = &self.values.settings;
        let mut member = cards().info(c).member;
        let mut owned = 0;
        while member != 0 {
            owned += self.owned().1[member.trailing_zeros() as usize];
            member &= member - 1;
        }
        let bonus = (owned as f32 * s.faction_bonus).min(s.faction_bonus_max);
        self.keep(c) + bonus
    }

    /// The best sticker for `c` among the bot's sheets: `(sheet, row, upgraded card, value)`,
    /// its value counting the step towards a political victory (a win when it is the fifth).
    fn best_upgrade(&self, c: CardId) -> Option<(u8, u8, CardId, f32)> {
        let set = cards();
        let mut best: Option<(u8, u8, CardId, f32)> = None;
        for (i, sheet) in self.me.sheets.iter().enumerate() {
            for r in 0..starrealms::cards::SHEET_ROWS as u8 {
                if !sheet.row_free(r) {
                    continue;
                }
                let Some(up) = set.upgraded(c, sheet.sheet.0, r) else {
                    continue;
                };
                let political = if !sheet.political {
                    0.0
                } else if sheet.used() + 1 == starrealms::cards::SHEET_ROWS as u32 {
                    KILL
                } else {
                    self.values.settings.political_step
                };
                let v = self.buy_value(up) + political;
                if best.is_none_or(|b| v > b.3) {
                    best = Some((i as u8, r, up, v));
                }
            }
        }
        best
    }

    /// How dangerous an opponent's base is.
    fn threat(&self, c: CardId) -> f32 {
        self.values.value(c, Phase::Mid)
    }

    /// A card worth scrapping for nothing: Vipers; Scouts while the deck is big enough and the
    /// game not late; Explorers after the early game.
    fn scrap_junk(&self, c: CardId) -> bool {
        let set = cards();
        c == set.viper
            || (c == set.scout
                && self.phase != Phase::Late
                && self.owned().0 > self.values.settings.scrap_scout_min_deck)
            || (c == set.explorer && self.phase != Phase::Early)
    }

    /// A card worth discarding to draw another: the starting cards.
    fn discard_junk(&self, c: CardId) -> bool {
        let set = cards();
        c == set.viper || c == set.scout
    }

    /// The opponents this seat may attack under the format's rules (Hunter: the left
    /// neighbour; Emperor Admirals: the Admiral opposite…).
    fn opponents(&self) -> impl Iterator<Item = (Seat, &'a PlayerView)> + '_ {
        let me = self.seat;
        let table = self.o.table();
        self.o
            .players
            .iter()
            .enumerate()
            .filter(move |&(i, _)| table.may_target_player(me, Seat(i as u8)))
            .map(|(i, p)| (Seat(i as u8), p))
    }

    /// The weakest opponent to kill: the least combat needed (outposts, then authority).
    fn weakest(&self) -> Option<(Seat, &'a PlayerView, i32)> {
        self.opponents()
            .map(|(s, p)| (s, p, to_kill(p)))
            .min_by_key(|&(_, _, need)| need)
    }

    /// Trade and combat still to come from the hand (playing it is step 2).
    fn hand_gains(&self) -> Gains {
        let mut g = Gains::default();
        for &c in self.hand {
            g.add(&gains(&cards().def(c).spec.primary));
        }
        g
    }

    /// The effects an ability action would resolve.
    fn ability(&self, a: Action) -> Option<&'static [Effect]> {
        let set = cards();
        let (me, spec) = (self.me, |c: CardId| &set.def(c).spec);
        Some(match a {
            Action::Primary(i) => &spec(me.bases[i as usize].card).primary,
            Action::AllyShip(i) => &spec(me.ships[i as usize].effective()).ally,
            Action::AllyBase(i) => &spec(me.bases[i as usize].card).ally,
            Action::DoubleAllyShip(i) => &spec(me.ships[i as usize].effective()).double_ally,
            Action::DoubleAllyBase(i) => &spec(me.bases[i as usize].card).double_ally,
            Action::ScrapShip(i) => &spec(me.ships[i as usize].effective()).scrap,
            Action::ScrapBase(i) => &spec(me.bases[i as usize].card).scrap,
            _ => return None,
        })
    }

    /// The card an ability or scrap action uses.
    fn ability_card(&self, a: Action) -> Option<CardId> {
        match a {
            Action::Primary(i)
            | Action::AllyBase(i)
            | Action::DoubleAllyBase(i)
            | Action::ScrapBase(i) => Some(self.me.bases[i as usize].card),
            Action::AllyShip(i) | Action::DoubleAllyShip(i) | Action::ScrapShip(i) => {
                Some(self.me.ships[i as usize].card)
            }
            _ => None,
        }
    }

    fn junk_in(&self, from: ScrapFrom) -> bool {
        let hand = from != ScrapFrom::Discard && self.hand.iter().any(|&c| self.scrap_junk(c));
        hand || (from != ScrapFrom::Hand && self.me.discard.iter().any(|&c| self.scrap_junk(c)))
    }

    /// Whether using an ability now does no harm: a forced scrap must find a starting card.
    fn ability_ok(&self, effects: &[Effect]) -> bool {
        effects.iter().all(|e| match *e {
            Effect::Scrap {
                from,
                optional: false,
                ..
            } => self.junk_in(from),
            _ => true,
        })
    }

    /// Whether an ability wants the hand as it is now (junk to scrap or discard in it).
    fn wants_hand(&self, effects: &[Effect]) -> bool {
        effects.iter().any(|e| match e {
            Effect::Scrap { from, .. } => {
                *from != ScrapFrom::Discard && self.hand.iter().any(|&c| self.scrap_junk(c))
            }
            Effect::DiscardThenDraw(_) => self.hand.iter().any(|&c| self.discard_junk(c)),
            Effect::Choose(options) => options.iter().any(|o| self.wants_hand(o)),
            _ => false,
        })
    }
}

/// Combat needed to kill a player: every outpost's remaining defense, then the authority.
fn to_kill(p: &PlayerView) -> i32 {
    p.authority.max(0)
        + p.bases
            .iter()
            .filter(|b| b.is_outpost())
            .map(remaining)
            .sum::<i32>()
}

/// Combat still needed to destroy a base this turn.
fn remaining(b: &InPlay) -> i32 {
    cards().info(b.card).defense.saturating_sub(b.damage) as i32
}

/// The plain gains of a list of effects ("choose one": the best option for each gain).
#[derive(Clone, Copy, Default)]
struct Gains {
    trade: i32,
    combat: i32,
    draw: i32,
    destroy: bool,
}

impl Gains {
    fn add(&mut self, g: &Gains) {
        self.trade += g.trade;
        self.combat += g.combat;
        self.draw += g.draw;
        self.destroy |= g.destroy;
    }
}

fn gains(effects: &[Effect]) -> Gains {
    let mut g = Gains::default();
    for e in effects {
        match e {
            Effect::Trade(n) => g.trade += *n as i32,
            Effect::Combat(n) => g.combat += *n as i32,
            Effect::Draw(n) => g.draw += *n as i32,
            Effect::DestroyBase { .. } => g.destroy = true,
            Effect::Choose(options) => {
                // The best of the options in each kind (none: nothing).
                let mut most: Option<(i32, i32, i32)> = None;
                for o in options.iter().map(|o| gains(o)) {
                    most = Some(most.map_or((o.trade, o.combat, o.draw), |(t, c, d)| {
                        (t.max(o.trade), c.max(o.combat), d.max(o.draw))
                    }));
                }
                let (t, c, d) = most.unwrap_or_default();
                g.trade += t;
                g.combat += c;
                g.draw += d;
            }
            _ => {}
        }
    }
    g
}

/// The best-scored candidate; exact ties broken by the bot's RNG.
fn best(candidates: &[(f32, Action)], rng: &mut GameRng) -> Option<Action> {
    let top = candidates
        .iter()
        .map(|c| c.0)
        .fold(f32::NEG_INFINITY, f32::max);
    let mut tied = candidates.iter().filter(|c| c.0 == top).map(|c| c.1);
    match candidates.iter().filter(|c| c.0 == top).count() {
        0 => None,
        1 => tied.next(),
        n => tied.nth(game::below(rng, n)),
    }
}

/// Candidates and their scores, on the stack while they are few (as they nearly always are).
type Scored = SmallVec<[(f32, Action); 16]>;

/// When nothing else applies: `end`, `pass`, or the first legal action.
fn fallback(legal: &[Action]) -> Action {
    legal
        .iter()
        .copied()
        .find(|a| matches!(a, Action::End | Action::Pass))
        .unwrap_or(legal[0])
}

// ----- decisions --------------------------------------------------------------------------------

fn decide(cx: &Ctx, legal: &[Action], rng: &mut GameRng) -> Action {
    let choice = match cx.o.pending {
        None => main_phase(cx, legal, rng),
        Some(Pending::Choose { source, at }) => match &source.effects()[at as usize] {
            Effect::Choose(options) => {
                let scored: Scored = legal
                    .iter()
                    .filter_map(|&a| match a {
                        Action::Choose(i) => Some((option_score(cx, &options[i as usize]), a)),
                        _ => None,
                    })
                    .collect();
                best(&scored, rng)
            }
            _ => None,
        },
        Some(Pending::Scrap { optional, .. }) => scrap_cards(cx, legal, optional),
        Some(Pending::ScrapTradeRow { optional, .. }) => scrap_row(cx, legal, optional, rng),
        Some(Pending::DestroyBase { .. }) => destroy_base(cx, legal, rng),
        Some(Pending::DiscardTarget | Pending::PlayerDiscardTarget) => {
            // The opponent who plays next: its hand is the one about to be used (never
            // oneself: the hand left in the main phase is the cards worth keeping).
            let n = cx.o.players.len();
            let me = cx.o.seat.map_or(0, Seat::index);
            legal
                .iter()
                .copied()
                .filter(|a| matches!(a, Action::Target(s) if s.index() != me))
                .min_by_key(|a| match a {
                    Action::Target(s) => (s.index() + n - me) % n,
                    _ => n,
                })
        }
        Some(Pending::Discard { .. }) => least_valuable_discard(cx, legal, |_| true),
        Some(Pending::DiscardThenDraw { .. }) => {
            least_valuable_discard(cx, legal, |c| cx.discard_junk(c))
        }
        Some(Pending::CopyShip { .. }) => {
            let scored: Scored = legal
                .iter()
                .filter_map(|&a| match a {
                    Action::Copy(i) => Some((cx.keep(cx.me.ships[i as usize].effective()), a)),
                    _ => None,
                })
                .collect();
            best(&scored, rng)
        }
        Some(Pending::ToHand { .. }) => Some(Action::ToHand),
        Some(Pending::BaseToTop) => {
            // The most valuable base comes back first.
            let scored: Scored = legal
                .iter()
                .filter_map(|&a| match a {
                    Action::TopBase(c) => Some((cx.keep(c), a)),
                    _ => None,
                })
                .collect();
            best(&scored, rng)
        }
        Some(Pending::CopyBase { .. }) => {
            let scored: Scored = legal
                .iter()
                .filter_map(|&a| match a {
                    Action::CopyBase(seat, i) => cx.o.players[seat.index()]
                        .bases
                        .get(i as usize)
                        .map(|b| (cx.keep(b.effective()), a)),
                    _ => None,
                })
                .collect();
            best(&scored, rng)
        }
        Some(Pending::DiscardFor { .. }) => {
            least_valuable_discard(cx, legal, |c| cx.discard_junk(c))
        }
        Some(Pending::DiscardReward { source, at, .. }) => match &source.effects()[at as usize] {
            Effect::DiscardFor { reward, .. } => {
                let scored: Scored = legal
                    .iter()
                    .filter_map(|&a| match a {
                        Action::Choose(i) => Some((option_score(cx, &reward[i as usize]), a)),
                        _ => None,
                    })
                    .collect();
                best(&scored, rng)
            }
            _ => None,
        },
        Some(Pending::AcquireFree | Pending::AcquireUpTo { .. }) => {
            let scored: Scored = legal
                .iter()
                .filter_map(|&a| match a {
                    Action::AcquireRow(slot) => {
                        cx.o.row[slot as usize].map(|c| (cx.buy_value(c), a))
                    }
                    Action::AcquireUpgrade(slot, ..) => cx.o.row[slot as usize]
                        .and_then(|c| cx.best_upgrade(c))
                        .map(|(s, r, _, v)| (v, Action::AcquireUpgrade(slot, s, r))),
                    Action::AcquireExplorer => Some((cx.buy_value(cards().explorer), a)),
                    _ => None,
                })
                .collect();
            best(&scored, rng)
        }
        Some(Pending::TopOrDiscard { .. }) => Some(Action::Top),
        Some(Pending::Bequeath { .. }) => {
            // A fallen player passes its best card on.
            let scored: Scored = legal
                .iter()
                .filter_map(|&a| match a {
                    Action::Bequeath(c) => Some((cx.keep(c), a)),
                    _ => None,
                })
                .collect();
            best(&scored, rng)
        }
    };
    match choice {
        Some(a) if legal.contains(&a) => a,
        _ => fallback(legal),
    }
}

/// Whether an action uses a ship's or base's ability (not its scrap ability).
fn is_ability(a: &Action) -> bool {
    matches!(
        a,
        Action::Primary(_)
            | Action::AllyShip(_)
            | Action::AllyBase(_)
            | Action::DoubleAllyShip(_)
            | Action::DoubleAllyBase(_)
    )
}

/// The card to play next, of those the legal list plays.
fn next_play(legal: &[Action]) -> Option<Action> {
    legal
        .iter()
        .copied()
        .filter(|a| matches!(a, Action::Play(_)))
        .min_by_key(|a| match a {
            Action::Play(c) => play_rank(*c),
            _ => u8::MAX,
        })
}

/// What the heuristic decides without looking at the game, when the legal list alone settles
/// it: with cards to play and no ability to use, it plays the next card (steps 1 and 2 of the
/// main phase). A rollout asks this first and refills its view of the game only when it gets
/// nothing (the same choice either way, for a fraction of the work). `legal` is sorted: the
/// plays come first and the abilities right after them, so a list that does not open with a
/// play is left at once.
pub(super) fn play_without_view(legal: &[Action]) -> Option<Action> {
    let plays = legal
        .iter()
        .take_while(|a| matches!(a, Action::Play(_)))
        .count();
    if plays == 0 || legal.get(plays).is_some_and(is_ability) {
        return None;
    }
    next_play(&legal[..plays])
}

fn main_phase(cx: &Ctx, legal: &[Action], rng: &mut GameRng) -> Option<Action> {
    // 1. Abilities that work on the hand, while it still holds junk.
    if let Some(a) = legal.iter().copied().filter(is_ability).find(|&a| {
        cx.ability(a)
            .is_some_and(|e| cx.wants_hand(e) && cx.ability_ok(e))
    }) {
        return Some(a);
    }
    // 2. Play every card.
    if let Some(a) = next_play(legal) {
        return Some(a);
    }
    // 3. Free abilities, those that draw first.
    if let Some(a) = legal
        .iter()
        .copied()
        .filter(is_ability)
        .filter_map(|a| {
            let e = cx.ability(a)?;
            cx.ability_ok(e).then_some((gains(e).draw == 0, a))
        })
        .min_by_key(|&(rank, _)| rank)
        .map(|(_, a)| a)
    {
        return Some(a);
    }
    // 4. Lethal.
    if let Some(a) = lethal(cx, legal) {
        return Some(a);
    }
    // 5. Scrap for trade when the purchase it enables pays for the card.
    if let Some(a) = scrap_for_trade(cx, legal, rng) {
        return Some(a);
    }
    // 6. Thin Explorers once the economy is built.
    if cx.o.turn >= cx.values.settings.thin_explorers_turn
        && let Some(a) = legal.iter().copied().find(|&a| match a {
            Action::ScrapShip(i) => {
                let s = &cx.me.ships[i as usize];
                s.card == cards().explorer && s.copy.is_none()
            }
            _ => false,
        })
    {
        return Some(a);
    }
    // 7. Buy.
    if let Some(net) = cx.buyer {
        if let Some(p) = net.plan(cx.o, cx.seat, cx.me.trade as i32, cx.o.explorers as i32) {
            let a = p.first.map_or(Action::BuyExplorer, Action::BuyRow);
            if legal.contains(&a) {
                return Some(a);
            }
        }
    } else if let Some(a) = plan(cx, cx.me.trade as i32, rng).first {
        return Some(a);
    }
    // 8. Attack.
    if let Some(a) = attack(cx, legal, rng) {
        return Some(a);
    }
    // 9. End.
    Some(Action::End)
}

/// Order of play (lowest first).
fn play_rank(c: CardId) -> u8 {
    let set = cards();
    let def = set.def(c);
    let primary = &def.spec.primary;
    if primary.contains(&Effect::CopyShip) {
        6
    } else if def.kind().is_base() {
        0
    } else if c == set.scout || c == set.viper {
        5
    } else if primary.iter().any(|e| {
        matches!(
            e,
            Effect::Draw(_) | Effect::DrawIfBases { .. } | Effect::DrawPerPlayed(_)
        )
    }) {
        1
    } else if primary.iter().any(|e| matches!(e, Effect::Scrap { .. })) {
        2
    } else {
        3
    }
}

/// Step 4: kill the weakest opponent if combat, with scrap abilities' combat, suffices.
fn lethal(cx: &Ctx, legal: &[Action]) -> Option<Action> {
    let (seat, p, need) = cx.weakest()?;
    let combat = cx.me.combat as i32;
    if combat >= need {
        return kill(legal, seat, p);
    }
    let biggest_outpost = p
        .bases
        .iter()
        .filter(|b| b.is_outpost())
        .map(remaining)
        .max()
        .unwrap_or(0);
    let (mut extra, mut destroy) = (0, false);
    let mut cheapest: Option<(f32, Action)> = None;
    for &a in legal {
        if !matches!(a, Action::ScrapShip(_) | Action::ScrapBase(_)) {
            continue;
        }
        let (Some(e), Some(card)) = (cx.ability(a), cx.ability_card(a)) else {
            continue;
        };
        let g = gains(e);
        let opens = g.destroy && biggest_outpost > 0;
        if g.combat > 0 || opens {
            extra += g.combat;
            destroy |= opens;
            let v = cx.keep(card);
            if cheapest.is_none_or(|(w, _)| v < w) {
                cheapest = Some((v, a));
            }
        }
    }
    let reach = combat + extra + if destroy { biggest_outpost } else { 0 };
    if reach >= need {
        cheapest.map(|(_, a)| a)
    } else {
        None
    }
}

/// The next attack of a kill: an outpost (the biggest first), then the player with everything.
fn kill(legal: &[Action], seat: Seat, p: &PlayerView) -> Option<Action> {
    let outpost = legal
        .iter()
        .copied()
        .filter_map(|a| match a {
            Action::AttackBase(s, i) if s == seat && p.bases[i as usize].is_outpost() => {
                Some((remaining(&p.bases[i as usize]), a))
            }
            _ => None,
        })
        .max_by_key(|&(need, _)| need)
        .map(|(_, a)| a);
    outpost.or_else(|| hit_player(legal, seat))
}

/// The largest legal attack on a player.
fn hit_player(legal: &[Action], seat: Seat) -> Option<Action> {
    legal
        .iter()
        .copied()
        .filter(|a| matches!(a, Action::AttackPlayer(s, _) if *s == seat))
        .max()
}

/// Step 8: outposts, bases worth their cost, then the weakest reachable player.
fn attack(cx: &Ctx, legal: &[Action], rng: &mut GameRng) -> Option<Action> {
    if cx.me.combat == 0 {
        return None;
    }
    let ratio = cx.values.settings.base_attack_ratio.at(cx.phase);
    let bases: Scored = legal
        .iter()
        .filter_map(|&a| match a {
            Action::AttackBase(s, i) => {
                let b = &cx.o.players[s.index()].bases[i as usize];
                let (v, need) = (cx.threat(b.card), remaining(b).max(1) as f32);
                if b.is_outpost() {
                    Some((KILL + v, a))
                } else if v >= ratio * need {
                    Some((v / need, a))
                } else {
                    None
                }
            }
            _ => None,
        })
        .collect();
    if let Some(a) = best(&bases, rng) {
        return Some(a);
    }
    // The weakest reachable player; ties are broken at random, so that a table of bots does not
    // gang up on the lowest seat.
    let reachable: SmallVec<[(Seat, i32); 8]> = cx
        .opponents()
        .filter(|&(s, _)| {
            legal
                .iter()
                .any(|a| matches!(a, Action::AttackPlayer(t, _) if *t == s))
        })
        .map(|(s, p)| (s, p.authority))
        .collect();
    let lowest = reachable.iter().map(|&(_, a)| a).min()?;
    let tied: SmallVec<[Seat; 8]> = reachable
        .iter()
        .filter(|&&(_, a)| a == lowest)
        .map(|&(s, _)| s)
        .collect();
    let target = if tied.len() == 1 {
        tied[0]
    } else {
        tied[game::below(rng, tied.len())]
    };
    hit_player(legal, target)
}

/// A purchase plan: its total value above the minimum and the first card to buy.
struct Plan {
    value: f32,
    first: Option<Action>,
    /// Trade-row slots bought.
    slots: u8,
}

/// Step 7: the most valuable affordable set of cards (row and Explorers).
fn plan(cx: &Ctx, trade: i32, rng: &mut GameRng) -> Plan {
    let set = cards();
    let floor = cx.values.settings.min_buy.at(cx.phase);
    // Each row card bought plain or with its best sticker: `(slot, card, cost, surplus,
    // upgrade)`, where `upgrade` is `(sheet, row, extra cost, surplus)`.
    type Upgraded = Option<(u8, u8, i32, f32)>;
    type Candidate = (u8, CardId, i32, f32, Upgraded);
    let row: SmallVec<[Candidate; 8]> = cx
        .o
        .row
        .iter()
        .enumerate()
        .filter_map(|(slot, c)| {
            let c = (*c)?;
            let surplus = cx.buy_value(c) - floor;
            let cost = set.info(c).cost as i32;
            let upgrade = cx.best_upgrade(c).and_then(|(s, r, up, v)| {
                let extra = starrealms::cards::Column::of(set.info(up).kind).price() as i32;
                (v - floor > surplus && cost + extra <= trade).then_some((s, r, extra, v - floor))
            });
            (cost <= trade && (surplus > 0.0 || upgrade.is_some()))
                .then_some((slot as u8, c, cost, surplus, upgrade))
        })
        .collect();
    let explorer_cost = (set.info(set.explorer).cost as i32).max(1);
    let explorer_surplus = cx.buy_value(set.explorer) - floor;
    let explorers = if explorer_surplus > 0.0 {
        cx.o.explorers as i32
    } else {
        0
    };
    // Every combination: each row card left (0), bought (1) or, when it has a sticker worth
    // it, bought upgraded (2); counted in mixed radix, the first row card least significant,
    // and written in base 3 (`code`) for the reading below.
    let radix = |upgrade: &Upgraded| if upgrade.is_some() { 3 } else { 2 };
    let combos: u32 = row.iter().map(|r| radix(&r.4)).product();
    let (mut top, mut chosen, mut extra_chosen) = (0.0, 0u32, 0);
    for combo in 0..combos {
        let (mut cost, mut value, mut rest, mut code, mut weight) = (0, 0.0, combo, 0, 1);
        for &(_, _, price, surplus, upgrade) in &row {
            let base = radix(&upgrade);
            let digit = rest % base;
            rest /= base;
            match (digit, upgrade) {
                (1, _) => {
                    cost += price;
                    value += surplus;
                }
                (2, Some((_, _, extra, v))) => {
                    cost += price + extra;
                    value += v;
                }
                _ => {}
            }
            code += digit * weight;
            weight *= 3;
        }
        if cost > trade {
            continue;
        }
        let extra = ((trade - cost) / explorer_cost).min(explorers);
        value += extra as f32 * explorer_surplus;
        if value > top {
            (top, chosen, extra_chosen) = (value, code, extra);
        }
    }
    // The plan's most valuable card is bought first.
    let mut firsts = Scored::new();
    let mut slots = 0u8;
    let mut code = chosen;
    for &(slot, c, _, _, upgrade) in &row {
        match (code % 3, upgrade) {
            (1, _) => {
                slots |= 1 << slot;
                firsts.push((cx.buy_value(c), Action::BuyRow(slot)));
            }
            (2, Some((s, r, _, v))) => {
                slots |= 1 << slot;
                firsts.push((v, Action::BuyUpgrade(slot, s, r)));
            }
            _ => {}
        }
        code /= 3;
    }
    if extra_chosen > 0 {
        firsts.push((cx.buy_value(set.explorer), Action::BuyExplorer));
    }
    Plan {
        value: top,
        first: best(&firsts, rng),
        slots,
    }
}

/// Step 5: a scrap ability that only gives trade, when the purchase it enables pays for it.
fn scrap_for_trade(cx: &Ctx, legal: &[Action], rng: &mut GameRng) -> Option<Action> {
    let trade = cx.me.trade as i32;
    let mut now: Option<f32> = None;
    let mut scored = Vec::new();
    for &a in legal {
        if !matches!(a, Action::ScrapShip(_) | Action::ScrapBase(_)) {
            continue;
        }
        let (Some(e), Some(card)) = (cx.ability(a), cx.ability_card(a)) else {
            continue;
        };
        let g = gains(e);
        if g.trade == 0 || g.combat > 0 || g.draw > 0 || g.destroy {
            continue;
        }
        let base = *now.get_or_insert_with(|| plan(cx, trade, rng).value);
        let gain = plan(cx, trade + g.trade, rng).value - base;
        let cost = cx.keep(card) + cx.values.settings.scrap_trade_margin;
        if gain >= cost {
            scored.push((gain - cost, a));
        }
    }
    best(&scored, rng)
}

/// A "choose one" option on the common scale.
fn option_score(cx: &Ctx, effects: &[Effect]) -> f32 {
    let s = &cx.values.settings;
    let hand = cx.hand_gains();
    let trade = cx.me.trade as i32 + hand.trade;
    let combat = cx.me.combat as i32 + hand.combat;
    let need = cx.weakest().map_or(i32::MAX, |w| w.2);
    // Marginal purchase values use a fixed RNG: only the value matters, not the tie-break.
    let mut scratch = game::rng_from_seed(0);
    let mut buys = |t: i32| plan(cx, t, &mut scratch).value;
    let mut score = 0.0;
    for e in effects {
        score += match *e {
            Effect::Trade(n) => buys(trade + n as i32) - buys(trade),
            Effect::Combat(n) => {
                if combat < need && combat + n as i32 >= need {
                    KILL
                } else {
                    n as f32 * s.combat_weight.at(cx.phase)
                }
            }
            Effect::Authority(n) => {
                let w = if cx.me.authority <= s.low_authority {
                    s.authority_weight_low
                } else {
                    s.authority_weight
                };
                n as f32 * w
            }
            Effect::Draw(n) => n as f32 * s.draw_value,
            Effect::DrawPerPlayed(f) => cx.me.played[f as usize] as f32 * s.draw_value,
            Effect::DrawIfBases { bases, draw } => {
                if cx.me.bases.len() >= bases as usize {
                    draw as f32 * s.draw_value
                } else {
                    0.0
                }
            }
            Effect::DiscardThenDraw(n) => {
                let junk = cx.hand.iter().filter(|&&c| cx.discard_junk(c)).count();
                junk.min(n as usize) as f32 * (s.draw_value - 0.5)
            }
            // A card from the hand given up: little once the hand is played out.
            Effect::Discard(n) => -0.5 * n as f32,
            _ => 0.5,
        };
    }
    score
}

/// A scrap from hand or discard: junk only when optional (the discard pile's copy first, so the
/// hand keeps its cards for this turn); the least valuable card when forced.
fn scrap_cards(cx: &Ctx, legal: &[Action], optional: bool) -> Option<Action> {
    let pick = legal
        .iter()
        .copied()
        .filter_map(|a| {
            let (c, from_hand) = match a {
                Action::ScrapHand(c) => (c, true),
                Action::ScrapDiscard(c) => (c, false),
                _ => return None,
            };
            if optional && !cx.scrap_junk(c) {
                return None;
            }
            Some((cx.keep(c) + if from_hand { 0.01 } else { 0.0 }, a))
        })
        .min_by(|x, y| x.0.total_cmp(&y.0))
        .map(|(_, a)| a);
    pick.or(Some(Action::Pass))
}

/// Discards the least valuable card among those `allowed`, or passes.
fn least_valuable_discard(
    cx: &Ctx,
    legal: &[Action],
    allowed: impl Fn(CardId) -> bool,
) -> Option<Action> {
    legal
        .iter()
        .copied()
        .filter_map(|a| match a {
            Action::Discard(c) if allowed(c) => Some((cx.keep(c), a)),
            _ => None,
        })
        .min_by(|x, y| x.0.total_cmp(&y.0))
        .map(|(_, a)| a)
        .or(Some(Action::Pass))
}

/// A trade-row scrap: deny a strong card the bot will not buy; else refresh a row with nothing
/// worth buying; else pass (or, forced, drop the weakest card).
fn scrap_row(cx: &Ctx, legal: &[Action], optional: bool, rng: &mut GameRng) -> Option<Action> {
    let trade = cx.me.trade as i32 + cx.hand_gains().trade;
    let mine = plan(cx, trade, rng);
    let mut deny = Vec::new();
    let mut weakest: Option<(f32, Action)> = None;
    for &a in legal {
        let Action::ScrapRow(slot) = a else { continue };
        let Some(c) = cx.o.row[slot as usize] else {
            continue;
        };
        if mine.slots & (1 << slot) != 0 {
            continue;
        }
        let v = cx.threat(c);
        if v >= cx.values.settings.deny_value {
            deny.push((v, a));
        }
        if weakest.is_none_or(|(w, _)| v < w) {
            weakest = Some((v, a));
        }
    }
    if let Some(a) = best(&deny, rng) {
        return Some(a);
    }
    let refresh = mine.value <= 0.0 && trade >= 2;
    match weakest {
        Some((_, a)) if refresh || !optional => Some(a),
        _ => Some(Action::Pass),
    }
}

/// "Destroy target base": an outpost that opens a kill, else the most dangerous base.
fn destroy_base(cx: &Ctx, legal: &[Action], rng: &mut GameRng) -> Option<Action> {
    let combat = cx.me.combat as i32;
    let scored: Scored = legal
        .iter()
        .filter_map(|&a| match a {
            Action::Destroy(s, i) => {
                let p = &cx.o.players[s.index()];
                let b = &p.bases[i as usize];
                let opens = b.is_outpost() && combat >= to_kill(p) - remaining(b);
                let v = cx.threat(b.card) + if b.is_outpost() { 0.5 } else { 0.0 };
                Some((if opens { KILL + v } else { v }, a))
            }
            _ => None,
        })
        .collect();
    best(&scored, rng).or(Some(Action::Pass))
}
