//! The labels of the terminal game's menu: each legal action gets a short label of its kind that
//! stays the same while its card stays where it is, so taking one action does not renumber the
//! others under the player's fingers.
//!
//! In the main phase: `h1`… a card of the hand (numbered once per turn, in hand order; a card
//! drawn later gets the next number), `r0`…`r4` a trade-row slot (`r2+s1r3` with an upgrade),
//! `x` an Explorer, `b1` a base's primary ability, `b1a`/`s1a` the ally ability of a base or a
//! ship in play, `b1x`/`s1x` its scrap ability, `a2` an attack on p2 (`a2b1` on its first base),
//! `g2.1` a card given to p2, `t2t`/`t2c` trade or combat moved to p2, `sw2` the turn handed to
//! p2, `e` the end of the main phase. A decision's options are numbered within the decision.

use game::Seat;
use starrealms::{Action, CardId, Observation};

/// The numbers of the hand's cards this turn.
#[derive(Debug, Default)]
pub struct HandLabels {
    /// The turn and the seat in control they were given for.
    turn: Option<(u32, Seat)>,
    /// Card kinds in the order they were numbered (`h1` is the first).
    order: Vec<CardId>,
}

impl HandLabels {
    /// Numbers the cards of the hand of `obs`'s viewer: afresh at a new turn, else keeping the
    /// numbers given and numbering new cards after them.
    pub fn update(&mut self, obs: &Observation) {
        let now = (obs.turn, obs.current);
        if self.turn != Some(now) {
            self.turn = Some(now);
            self.order.clear();
        }
        let hand = obs
            .seat
            .and_then(|s| obs.players[s.index()].hand.as_deref())
            .unwrap_or(&[]);
        for &c in hand {
            if !self.order.contains(&c) {
                self.order.push(c);
            }
        }
    }

    fn number(&self, c: CardId) -> Option<usize> {
        self.order.iter().position(|&k| k == c).map(|i| i + 1)
    }
}

/// The label of a main-phase action (`None`: one without a label of its kind).
fn label(a: Action, obs: &Observation, hand: &HandLabels) -> Option<String> {
    let p = |s: Seat| s.0 + 1;
    Some(match a {
        Action::Play(c) => format!("h{}", hand.number(c)?),
        Action::BuyRow(slot) => format!("r{slot}"),
        Action::BuyUpgrade(slot, s, r) => format!("r{slot}+s{}r{}", s + 1, r + 1),
        Action::BuyExplorer => "x".into(),
        Action::Primary(i) => format!("b{}", i + 1),
        Action::AllyBase(i) => format!("b{}a", i + 1),
        Action::ScrapBase(i) => format!("b{}x", i + 1),
        Action::AllyShip(i) => format!("s{}a", i + 1),
        Action::ScrapShip(i) => format!("s{}x", i + 1),
        Action::AttackPlayer(s, _) => format!("a{}", p(s)),
        Action::AttackBase(s, i) => format!("a{}b{}", p(s), i + 1),
        Action::Give(c, s) => {
            let me = obs.seat?;
            let mut kinds: Vec<CardId> = Vec::new();
            for &k in &obs.players[me.index()].discard {
                if !kinds.contains(&k) {
                    kinds.push(k);
                }
            }
            let k = kinds.iter().position(|&k| k == c)? + 1;
            format!("g{}.{k}", p(s))
        }
        Action::TransferTrade(s, _) => format!("t{}t", p(s)),
        Action::TransferCombat(s, _) => format!("t{}c", p(s)),
        Action::Switch(s) => format!("sw{}", p(s)),
        Action::End => "e".into(),
        _ => return None,
    })
}

/// The menu: each shown action with its label. A decision's options are numbered from 1; in the
/// main phase an action without a label of its kind is labelled by its line.
pub fn menu(shown: &[Action], obs: &Observation, hand: &HandLabels) -> Vec<(String, Action)> {
    let mut out: Vec<(String, Action)> = Vec::with_capacity(shown.len());
    for (i, &a) in shown.iter().enumerate() {
        let line = (i + 1).to_string();
        let l = if obs.pending.is_some() {
            line
        } else {
            label(a, obs, hand).unwrap_or(line)
        };
        // Two actions never share a label: the later one is known by its line.
        let l = if out.iter().any(|(k, _)| *k == l) {
            (i + 1).to_string()
        } else {
            l
        };
        out.push((l, a));
    }
    out
}
