//! Hidden information: what each seat's observation holds, that hidden changes do not show in
//! it, and that determinized states agree with it.

mod common;

use common::*;
use cosmique::{Card, Config, Observation, Side, State, Variant, rollout};
use game::{GameRng, Seat};

/// States met in random games of every variant.
fn random_states() -> Vec<State> {
    let mut out = Vec::new();
    let mut rng = game::rng_from_seed(8);
    let mut buf = Vec::new();
    for variant in Variant::ALL {
        for seed in 0..6 {
            let mut s = State::new(&Config::of_variant(variant), seed).unwrap();
            let mut step = 0;
            while !s.over {
                if step % 13 == 0 {
                    out.push(s.clone());
                }
                let a = rollout::random_action(&s, &mut buf, &mut rng);
                s.apply_unchecked(a);
                step += 1;
            }
            out.push(s);
        }
    }
    out
}

/// A table with a card of every kind of hidden place.
fn table() -> State {
    let mut s = blank(Variant::Standard);
    give(&mut s, P1, &["plus2", "red3"]);
    defence(&mut s, P1, Side::Left, "blue2", false);
    defence(&mut s, P2, Side::Right, "green5", true);
    attack(&mut s, P2, Side::Right, "red4", true, P1);
    defence(&mut s, P3, Side::Left, "yellow1", false);
    attack(&mut s, P3, Side::Right, "blue1", false, P2);
    give(&mut s, P3, &["green2"]);
    orbit(&mut s, P4, "yellow3");
    s
}

#[test]
fn a_seat_sees_its_hand_its_own_face_down_cards_and_the_public_table() {
    let s = table();
    let v1 = s.observation(P1);
    assert_eq!(v1.seat, Some(P1));
    assert_eq!(
        v1.planets[0].hand,
        Some(cards(&["red3", "plus2"])),
        "sorted"
    );
    let own = v1.planets[0].slots[0].defence.unwrap();
    assert_eq!((own.card, own.revealed), (Some(meteor("blue2")), false));
    let p2 = &v1.planets[1].slots[1];
    assert_eq!(p2.defence.unwrap().card, Some(meteor("green5")), "revealed");
    let a = p2.attack.unwrap();
    assert_eq!((a.by, a.card, a.plus2), (P1, Some(meteor("red4")), true));
    let p3 = &v1.planets[2];
    assert_eq!((p3.hand.as_ref(), p3.hand_count), (None, 1));
    assert_eq!(p3.slots[0].defence.unwrap().card, None);
    let a = p3.slots[1].attack.unwrap();
    assert_eq!((a.by, a.card, a.plus2), (P2, None, false));
    assert_eq!(v1.planets[3].orbit, Some(card("yellow3")));
    // Unseen: the pile, p3's hand, p3's defence, p2's attack on p3.
    assert_eq!(v1.unseen.len(), s.pile.len() + 3);
    assert!(v1.unseen.is_sorted());
    assert_eq!(v1.pile_cards, None);

    let v2 = s.observation(P2);
    assert_eq!(v2.planets[0].slots[0].defence.unwrap().card, None);
    let mine = v2.planets[2].slots[1].attack.unwrap();
    assert_eq!(mine.card, Some(meteor("blue1")), "its own attack");
    let on_me = v2.planets[1].slots[1].attack.unwrap();
    assert_eq!(
        (on_me.card, on_me.plus2),
        (None, true),
        "the +2 is in sight"
    );
    assert_eq!(v2.planets[0].hand, None);
    assert_eq!(v2.planets[0].hand_count, 2);

    let public = s.public_observation();
    assert_eq!(public.seat, None);
    assert!(public.planets.iter().all(|p| p.hand.is_none()));
    // The pile, three cards in hands, four face down (p1's and p3's defences, both attacks).
    let hidden: usize = s.pile.len() + 3 + 4;
    assert_eq!(public.unseen.len(), hidden);
    let line = v1.summary();
    assert!(
        line.contains("p3 green life 6 hand 1 orbit - left(D ?) right(A p2:?)"),
        "{line}"
    );
}

#[test]
fn cards_taken_face_up_stay_known_until_the_hand_plays_face_down() {
    let mut s = blank(Variant::Standard);
    give(&mut s, P1, &["red3"]);
    orbit(&mut s, P1, "green4");
    orbit(&mut s, P2, "blue5");
    act(&mut s, "take orbit");
    let v = s.observation(P3);
    assert_eq!(v.planets[0].hand_known, cards(&["green4"]));
    let green4 = v.unseen.iter().filter(|&&c| c == card("green4")).count();
    assert_eq!(green4, 1, "the other green4, in the pile");
    act(&mut s, "swap p2 red3");
    assert_eq!(s.planets[P1].known.to_vec(), cards(&["blue5", "green4"]));
    act(&mut s, "end");
    s.current = P1;
    s.actions_left = 2;
    // A face-down card could be any of them: the table forgets them all.
    act(&mut s, "defend left green4");
    assert!(s.planets[P1].known.is_empty());
    let v = s.observation(P3);
    assert!(v.planets[0].hand_known.is_empty());
    assert_eq!(v.planets[0].hand_count, 1);
    // A card given to an orbit leaves the known part.
    let mut s = blank(Variant::Standard);
    orbit(&mut s, P1, "plus2");
    orbit(&mut s, P2, "blue5");
    act(&mut s, "take orbit");
    act(&mut s, "swap p2 plus2");
    assert_eq!(s.planets[P1].known.to_vec(), cards(&["blue5"]));
}

#[test]
fn a_pile_rebuilt_from_the_discard_pile_is_known() {
    let mut s = blank(Variant::Standard);
    orbit(&mut s, P1, "red1");
    give(&mut s, P2, &["blue1", "blue2"]);
    s.discard = std::mem::take(&mut s.pile);
    act(&mut s, "take orbit");
    let v = s.observation(P3);
    let mut pile = s.pile.clone();
    pile.sort();
    assert_eq!(v.pile_cards.as_ref(), Some(&pile));
    assert_eq!(
        v.unseen,
        cards(&["blue1", "blue2"]),
        "only p2's hand is unknown"
    );
    let d = v.determinize(&mut game::rng_from_seed(3));
    let mut dp = d.pile.clone();
    dp.sort();
    assert_eq!(dp, pile);
    assert_eq!(d.observation(P3), v);
}

/// Changes everything `seat` cannot see: other hands' unknown cards against pile cards, hidden
/// defences and attacks it did not lay against pile meteors, the pile's order, the RNG.
fn perturb(s: &State, seat: Seat, rng: &mut GameRng) -> State {
    let mut c = s.clone();
    c.rng = game::rng_from_seed(game::below(rng, 1 << 30) as u64);
    c.pile.reverse();
    if c.pile_public || c.pile.is_empty() {
        return c;
    }
    for i in 0..4 {
        let other = Seat(i);
        if other == seat {
            continue;
        }
        let p = &c.planets[other];
        let unknown = p
            .hand
            .distinct()
            .find(|&k| p.hand.count(k) > p.known.count(k));
        if let Some(k) = unknown {
            let j = game::below(rng, c.pile.len());
            let from_pile = std::mem::replace(&mut c.pile[j], k);
            let p = &mut c.planets[other];
            p.hand.remove(k);
            p.hand.add(from_pile);
        }
    }
    for i in 0..4 {
        let owner = Seat(i);
        for side in Side::BOTH {
            let Some(j) = c.pile.iter().rposition(|x| x.as_meteor().is_some()) else {
                continue;
            };
            let m = c.pile[j].as_meteor().unwrap();
            let slot = c.planets[owner].slot_mut(side);
            if let Some(d) = slot
                .defence
                .as_mut()
                .filter(|d| !d.revealed && owner != seat)
            {
                c.pile[j] = Card::Meteor(std::mem::replace(&mut d.card, m));
                continue;
            }
            if let Some(a) = slot.attack.as_mut().filter(|a| a.by != seat) {
                c.pile[j] = Card::Meteor(std::mem::replace(&mut a.card, m));
            }
        }
    }
    c
}

#[test]
fn hidden_changes_do_not_change_a_view() {
    let mut rng = game::rng_from_seed(4);
    let mut changed_states = 0;
    for s in random_states() {
        for i in 0..4 {
            let seat = Seat(i);
            let changed = perturb(&s, seat, &mut rng);
            assert_eq!(changed.card_counts(), s.card_counts());
            assert_eq!(
                changed.observation(seat),
                s.observation(seat),
                "{}",
                s.summary()
            );
            changed_states += usize::from(changed.planets != s.planets);
        }
    }
    assert!(
        changed_states > 100,
        "the test changed hidden cards ({changed_states})"
    );
    // And the table's own example: p3's hand and p2's attack on p3 are hidden from p1.
    let s = table();
    let mut c = s.clone();
    c.planets[P3].hand = cards(&["yellow5"]).into_iter().collect();
    c.planets[P3]
        .slot_mut(Side::Right)
        .attack
        .as_mut()
        .unwrap()
        .card = meteor("green1");
    assert_eq!(c.observation(P1), s.observation(P1));
    assert_ne!(c.observation(P3), s.observation(P3));
    assert_ne!(c.observation(P2), s.observation(P2));
}

fn check_determinize(s: &State, obs: &Observation, rng: &mut GameRng) -> State {
    let d = obs.determinize(rng);
    match obs.seat {
        Some(seat) => assert_eq!(d.observation(seat), *obs, "{}", s.summary()),
        None => assert_eq!(d.public_observation(), *obs),
    }
    assert_conserved(&d);
    if obs.seat.is_some() && obs.seat == s.to_move() {
        assert_eq!(d.legal_actions(), s.legal_actions());
    }
    d
}

#[test]
fn determinized_states_agree_with_the_view() {
    let mut rng = game::rng_from_seed(5);
    let mut differ = 0;
    for s in random_states() {
        for i in 0..4 {
            let obs = s.observation(Seat(i));
            let d = check_determinize(&s, &obs, &mut rng);
            differ += usize::from(d.planets != s.planets || d.pile != s.pile);
            // Everything the seat sees is kept: its hand, the public table.
            assert_eq!(d.planets[Seat(i)].hand, s.planets[Seat(i)].hand);
            assert_eq!(d.discard, s.discard);
            for (a, b) in d.planets.0.iter().zip(&s.planets.0) {
                assert_eq!((a.life, a.orbit, a.known), (b.life, b.orbit, b.known));
                assert_eq!(a.hand.len(), b.hand.len());
            }
        }
        check_determinize(&s, &s.public_observation(), &mut rng);
    }
    assert!(
        differ > 100,
        "determinization samples hidden cards ({differ})"
    );
}

#[test]
fn observations_serialize() {
    let s = table();
    let v = s.observation(P1);
    let json = serde_json::to_string(&v).unwrap();
    assert!(json.contains(r#""hand":["red3","plus2"]"#), "{json}");
    let back: Observation = serde_json::from_str(&json).unwrap();
    assert_eq!(back, v);
}
