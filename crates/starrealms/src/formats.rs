//! The rules that depend on the format: who may attack or target whom, what shields whom,
//! shared authority, defeats (what happens to a fallen player's cards, who passes cards to whom)
//! and who wins. `docs/rules.md` ("Multiplayer formats") gives each rule and its source.

use game::Seat;

use crate::cards::CardMask;
use game::MAX_SEATS;

use crate::config::{Config, Edition, Format};
use crate::state::{Pending, State};

/// Seat mask of one seat.
const fn bit(seat: Seat) -> u8 {
    1 << seat.0
}

/// What the targeting rules need to know of a table: the configuration, who is still in, the
/// teams. States and observations both build one, so that a bot reading its observation applies
/// exactly the rules of the engine.
#[derive(Clone, Copy, Debug)]
pub struct Table<'a> {
    config: &'a Config,
    alive: u8,
    teams: [u8; MAX_SEATS],
    seats: usize,
}

impl<'a> Table<'a> {
    /// A table from the configuration and each seat's `(alive, team)`.
    pub fn new(config: &'a Config, seats: impl Iterator<Item = (bool, u8)>) -> Self {
        let mut t = Table {
            config,
            alive: 0,
            teams: [0; MAX_SEATS],
            seats: 0,
        };
        for (i, (alive, team)) in seats.enumerate().take(MAX_SEATS) {
            t.alive |= (alive as u8) << i;
            t.teams[i] = team;
            t.seats = i + 1;
        }
        t
    }

    fn alive(&self, seat: usize) -> bool {
        self.alive >> seat & 1 == 1
    }

    /// The next living seat after `seat` in turn order: its left neighbour (play goes clockwise).
    pub fn left_of(&self, seat: Seat) -> Seat {
        let n = self.seats;
        let mut s = seat.index();
        for _ in 0..n {
            s = (s + 1) % n;
            if self.alive(s) {
                return Seat(s as u8);
            }
        }
        seat
    }

    /// The previous living seat before `seat` in turn order: its right neighbour.
    pub fn right_of(&self, seat: Seat) -> Seat {
        let n = self.seats;
        let mut s = seat.index();
        for _ in 0..n {
            s = (s + n - 1) % n;
            if self.alive(s) {
                return Seat(s as u8);
            }
        }
        seat
    }

    /// The only enemy an Emperor-format Admiral may attack or target: the Admiral opposite, or
    /// once that one has fallen, the enemy Emperor. `None` for an Emperor (anyone).
    fn admiral_target(&self, admiral: Seat) -> Option<Seat> {
        if self.config.is_emperor(admiral.index()) {
            return None;
        }
        let opposite = (admiral.index() + 3) % 6;
        Some(if self.alive(opposite) {
            Seat(opposite as u8)
        } else if admiral.0 < 3 {
            Seat(4)
        } else {
            Seat(1)
        })
    }

    /// Whether `attacker` may attack `defender` or make it the target of an effect ("target
    /// opponent discards"), outposts aside.
    pub fn may_target_player(&self, attacker: Seat, defender: Seat) -> bool {
        let (a, d) = (attacker.index(), defender.index());
        if d >= self.seats || !self.alive(d) || self.teams[d] == self.teams[a] {
            return false;
        }
        match self.config.format {
            Format::Hunter | Format::HunterFirstBlood => defender == self.left_of(attacker),
            Format::Emperor => self.admiral_target(attacker).is_none_or(|t| t == defender),
            _ => true,
        }
    }

    /// Whether `attacker` may attack or target the bases of `defender`, outposts aside.
    pub fn may_target_bases(&self, attacker: Seat, defender: Seat) -> bool {
        match self.config.format {
            Format::Hunter | Format::HunterFirstBlood => {
                defender.index() < self.seats
                    && self.alive(defender.index())
                    && defender != attacker
                    && (defender == self.left_of(attacker) || defender == self.right_of(attacker))
            }
            _ => self.may_target_player(attacker, defender),
        }
    }
}

impl State {
    /// The targeting rules' view of this table.
    pub fn table(&self) -> Table<'_> {
        Table::new(
            &self.config,
            self.players.0.iter().map(|p| (p.alive, p.team)),
        )
    }

    /// The next living seat after `seat` in turn order: its left neighbour (play goes clockwise).
    pub fn left_of(&self, seat: Seat) -> Seat {
        self.table().left_of(seat)
    }

    /// The previous living seat before `seat` in turn order: its right neighbour.
    pub fn right_of(&self, seat: Seat) -> Seat {
        self.table().right_of(seat)
    }

    /// Whether `viewer` sees the hand of `seat`: its own; in a raid, Elite Soldiers see each
    /// other's hands.
    pub fn sees_hand(&self, viewer: Seat, seat: Seat) -> bool {
        viewer == seat || (self.config.format == Format::Raid && viewer.0 != 0 && seat.0 != 0)
    }

    /// Whether `attacker` may attack `defender` or make it the target of an effect ("target
    /// opponent discards"), outposts aside.
    pub fn may_target_player(&self, attacker: Seat, defender: Seat) -> bool {
        if self.config.format == Format::Standard {
            let d = &self.players[defender];
            return d.alive && d.team != self.players[attacker].team;
        }
        self.table().may_target_player(attacker, defender)
    }

    /// Whether `attacker` may attack or target the bases of `defender`, outposts aside.
    pub fn may_target_bases(&self, attacker: Seat, defender: Seat) -> bool {
        if self.config.format == Format::Standard {
            return self.may_target_player(attacker, defender);
        }
        self.table().may_target_bases(attacker, defender)
    }

    /// Whether `defender` is shielded by an outpost: its own (a Hydra team: any teammate's).
    /// A shielded player cannot be attacked, and only its outposts can be attacked or targeted.
    pub fn shielded(&self, defender: Seat) -> bool {
        if self.config.format == Format::Hydra {
            let team = self.players[defender].team;
            self.players
                .0
                .iter()
                .any(|p| p.alive && p.team == team && p.has_outpost())
        } else {
            self.players[defender].has_outpost()
        }
    }

    /// Whether `attacker` may deal part of a base's defense, the damage staying on it: Elite
    /// Soldiers against the Boss's bases (Raid), whose damage adds up until the Boss's turn;
    /// Hydra teammates combining their combat against a base (classic edition), whose damage
    /// adds up during the team's turn.
    pub fn partial_base_damage(&self, attacker: Seat, defender: Seat) -> bool {
        match self.config.format {
            Format::Raid => defender.0 == 0 && attacker.0 != 0,
            Format::Hydra => self.config.edition == Edition::Classic,
            _ => false,
        }
    }

    /// Hydra: a living teammate of `seat` who has not ended its part of the team turn.
    pub(crate) fn playing_teammate(&self, seat: Seat) -> Option<Seat> {
        let team = self.players[seat].team;
        self.players
            .iter()
            .find(|(s, p)| *s != seat && p.alive && p.team == team && !p.done)
            .map(|(s, _)| s)
    }

    /// Hydra team-turn actions of the player in control, in action order: pool transfers to
    /// teammates still playing (trade in both editions, "to acquire cards together"; combat in
    /// *Rise of Empire* only, where classic teammates combine combat against bases instead),
    /// then handing control over.
    pub(crate) fn hydra_actions(&self, out: &mut Vec<crate::Action>) {
        use crate::Action;
        use crate::action::MAX_ATTACK;
        let cur = self.current;
        let me = &self.players[cur];
        let team = me.team;
        let mates = || {
            self.players
                .iter()
                .filter(move |(s, p)| *s != cur && p.alive && p.team == team && !p.done)
                .map(|(s, _)| s)
        };
        for seat in mates() {
            for n in 1..=(me.trade as usize).min(MAX_ATTACK) {
                out.push(Action::TransferTrade(seat, n as u8));
            }
        }
        if self.config.edition == Edition::RiseOfEmpire {
            for seat in mates() {
                for n in 1..=(me.combat as usize).min(MAX_ATTACK) {
                    out.push(Action::TransferCombat(seat, n as u8));
                }
            }
        }
        if self.progress {
            for seat in mates() {
                out.push(Action::Switch(seat));
            }
        }
    }

    /// Adds authority to `seat` (to every member of a Hydra team: they share it).
    pub(crate) fn gain_authority(&mut self, seat: Seat, n: i32) {
        if self.config.format == Format::Hydra {
            let team = self.players[seat].team;
            for p in self.players.0.iter_mut().filter(|p| p.team == team) {
                p.authority += n;
            }
        } else {
            self.players[seat].authority += n;
        }
    }

    /// Deals `n` damage to `seat`'s authority (a Hydra team's shared one); at 0 or less the
    /// player (the team) is defeated.
    pub(crate) fn damage(&mut self, seat: Seat, n: i32) {
        self.gain_authority(seat, -n);
        if self.players[seat].authority > 0 {
            return;
        }
        if self.config.format == Format::Hydra {
            let team = self.players[seat].team;
            for s in 0..self.players.len() {
                if self.players.0[s].team == team && self.players.0[s].alive {
                    self.defeat(Seat(s as u8));
                }
            }
        } else {
            self.defeat(seat);
        }
    }

    /// A player falls: the game may end; an Emperor-format Admiral or a Raid Soldier may first
    /// pass cards on; then all the fallen player's cards leave the game for the scrap heap.
    fn defeat(&mut self, seat: Seat) {
        let right = self.right_of(seat);
        self.players[seat].alive = false;
        self.players[seat].pending_discards = 0;
        if self.over {
            return;
        }
        let format = self.config.format;
        let living = |s: &State, team: u8| -> u8 {
            s.players
                .iter()
                .filter(|(_, p)| p.alive && p.team == team)
                .fold(0, |m, (s, _)| m | bit(s))
        };
        let team_mask = |s: &State, team: u8| -> u8 {
            s.players
                .iter()
                .filter(|(_, p)| p.team == team)
                .fold(0, |m, (s, _)| m | bit(s))
        };
        match format {
            Format::HunterFirstBlood => return self.finish(bit(right)),
            Format::Emperor if self.config.is_emperor(seat.index()) => {
                let other = 1 - self.players[seat].team;
                return self.finish(team_mask(self, other));
            }
            Format::Raid if seat.0 == 0 => return self.finish(team_mask(self, 1)),
            Format::Raid if living(self, 1) == 0 => return self.finish(bit(Seat(0))),
            _ => {}
        }
        let teams_left: Vec<u8> = {
            let mut t: Vec<u8> = self
                .players
                .0
                .iter()
                .filter(|p| p.alive)
                .map(|p| p.team)
                .collect();
            t.sort_unstable();
            t.dedup();
            t
        };
        if let [team] = teams_left[..]
            && !matches!(format, Format::Emperor | Format::Raid)
        {
            return self.finish(team_mask(self, team));
        }
        // The fallen player's cards are set aside face up (their discard pile) for the cards
        // passed on; what is left goes to the scrap heap.
        let classic = self.config.edition == Edition::Classic;
        let p = &mut self.players[seat];
        let mut pool = std::mem::take(&mut p.discard);
        pool.append(&mut p.hand);
        pool.append(&mut p.deck);
        p.hand_known.clear();
        p.deck_known = 0;
        let in_play: Vec<_> = p
            .ships
            .drain(..)
            .chain(p.bases.drain(..))
            .map(|c| c.card)
            .collect();
        p.trade = 0;
        p.combat = 0;
        // An Admiral passes a card from hand, deck or discard pile (Rise of Empire) or any of his
        // cards (classic); a Soldier any of his cards.
        let passes_in_play = format != Format::Emperor || classic;
        if passes_in_play {
            pool.extend(in_play);
        } else {
            for c in in_play {
                self.scrap_card(c);
            }
        }
        self.players[seat].discard = pool;
        match format {
            Format::Emperor => {
                let emperor = if seat.0 < 3 { Seat(1) } else { Seat(4) };
                self.bequests.push((seat, emperor));
            }
            Format::Raid => {
                for s in 1..self.players.len() {
                    if self.players.0[s].alive {
                        self.bequests.push((seat, Seat(s as u8)));
                    }
                }
            }
            _ => {}
        }
        self.next_bequest(seat);
    }

    /// Offers the next card passing of `seat`, or scraps what it has left.
    pub(crate) fn next_bequest(&mut self, seat: Seat) {
        while let Some((from, to)) = self.bequests.first().copied() {
            if from != seat {
                break;
            }
            self.bequests.remove(0);
            if !self.players[from].discard.is_empty() && self.players[to].alive {
                self.pending = Some(Pending::Bequeath { from, to });
                return;
            }
        }
        let rest = std::mem::take(&mut self.players[seat].discard);
        for c in rest {
            self.scrap_card(c);
        }
    }

    /// Ends the game with the seats of `mask` as winners.
    pub(crate) fn finish(&mut self, mask: u8) {
        self.over = true;
        self.victors = mask;
        self.pending = None;
        self.frames.clear();
        self.bequests.clear();
    }

    /// Card kinds `seat` may pass on now (its set-aside cards), for the legal actions.
    pub(crate) fn bequest_kinds(&self, seat: Seat, out: &mut Vec<crate::Action>) {
        CardMask::each_kind(&self.players[seat].discard, |c| {
            out.push(crate::Action::Bequeath(c))
        });
    }
}
