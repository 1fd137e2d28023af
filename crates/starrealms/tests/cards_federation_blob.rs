//! Per-card rule tests: the starting and supply cards (Scout, Viper, Explorer), every Trade
//! Federation card and every Blob card, each ability checked against the published card list
//! (`/work/shared/cards-base-set.md`); then a few general rules (bases, buying, attacking,
//! outposts, allies).

use starrealms::scenario::{Builder, card};
use starrealms::state::Pending;
use starrealms::{Action, CardId, Player, State};

// ----------------------------------------------------------------------------------- helpers

/// Whether the action (text form, any card name) is legal now.
fn legal(s: &State, text: &str) -> bool {
    let a: Action = text.parse().unwrap_or_else(|e| panic!("{e}"));
    s.legal_actions().contains(&a)
}

/// The legal actions, as sorted normalized texts.
fn legal_set(s: &State) -> Vec<String> {
    let mut v = s.legal_texts();
    v.sort();
    v
}

/// Action texts normalized (parsed and printed back) and sorted, to compare with [`legal_set`].
fn texts(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list
        .iter()
        .map(|t| {
            t.parse::<Action>()
                .unwrap_or_else(|e| panic!("{e}"))
                .to_string()
        })
        .collect();
    v.sort();
    v
}

/// An illegal action is rejected and leaves the state unchanged.
fn assert_illegal(s: &mut State, text: &str) {
    let before = s.clone();
    let a: Action = text.parse().unwrap_or_else(|e| panic!("{e}"));
    assert!(s.apply(a).is_err(), "`{text}` should be illegal");
    assert_eq!(*s, before, "a rejected `{text}` changed the state");
}

fn p1(s: &State) -> &Player {
    &s.players.0[0]
}

fn p2(s: &State) -> &Player {
    &s.players.0[1]
}

/// Card ids, sorted (for zones whose order does not matter).
fn set(names: &[&str]) -> Vec<CardId> {
    let mut v: Vec<CardId> = names.iter().map(|n| card(n)).collect();
    v.sort();
    v
}

/// Card ids, in the given order.
fn seq(names: &[&str]) -> Vec<CardId> {
    names.iter().map(|n| card(n)).collect()
}

fn sorted(v: &[CardId]) -> Vec<CardId> {
    let mut v = v.to_vec();
    v.sort();
    v
}

fn hand(s: &State) -> Vec<CardId> {
    sorted(&p1(s).hand)
}

fn ships(p: &Player) -> Vec<CardId> {
    p.ships.iter().map(|x| x.card).collect()
}

fn bases(p: &Player) -> Vec<CardId> {
    p.bases.iter().map(|x| x.card).collect()
}

fn row(names: &[Option<&str>]) -> Vec<Option<CardId>> {
    names.iter().map(|n| n.map(card)).collect()
}

// ------------------------------------------------------------------------- starting cards

#[test]
fn scout_adds_one_trade() {
    let mut s = Builder::new().hand(0, &["Scout", "Éclaireur"]).build();
    s.act("play scout");
    assert_eq!(p1(&s).trade, 1);
    assert_eq!(p1(&s).combat, 0);
    assert_eq!(p1(&s).authority, 50);
    assert_eq!(ships(p1(&s)), seq(&["scout"]));
    assert_eq!(hand(&s), set(&["scout"]));
    assert!(!legal(&s, "ally ship 0"));
    assert!(!legal(&s, "scrap ship 0"));
    s.act("play Éclaireur");
    assert_eq!(p1(&s).trade, 2);
    assert!(p1(&s).hand.is_empty());
    assert!(!legal(&s, "ally ship 1"));
}

#[test]
fn viper_adds_one_combat() {
    let mut s = Builder::new().hand(0, &["Viper"]).build();
    s.act("play viper");
    assert_eq!(p1(&s).combat, 1);
    assert_eq!(p1(&s).trade, 0);
    assert_eq!(p1(&s).authority, 50);
    assert_eq!(ships(p1(&s)), seq(&["viper"]));
    assert!(!legal(&s, "ally ship 0"));
    assert!(!legal(&s, "scrap ship 0"));
    s.act("attack p2 1");
    assert_eq!(p2(&s).authority, 49);
}

#[test]
fn explorer_primary_then_scrap_returns_to_explorer_pile() {
    let mut s = Builder::new()
        .hand(0, &["Prospecteur"])
        .explorers(9)
        .build();
    s.act("play explorer");
    assert_eq!(p1(&s).trade, 2);
    assert_eq!(p1(&s).combat, 0);
    assert!(!legal(&s, "ally ship 0"));
    assert!(legal(&s, "scrap ship 0"));
    s.act("scrap ship 0");
    assert_eq!(p1(&s).combat, 2);
    assert_eq!(p1(&s).trade, 2, "the primary's trade stays");
    assert!(p1(&s).ships.is_empty());
    assert!(
        s.scrap_heap.is_empty(),
        "a scrapped Explorer never goes to the scrap heap"
    );
    assert_eq!(s.explorers, 10, "a scrapped Explorer returns to its pile");
    assert!(!p1(&s).all_cards().any(|c| c == card("explorer")));
    assert!(!legal(&s, "scrap ship 0"));
}

#[test]
fn explorer_bought_from_its_pile() {
    let mut s = Builder::new().pools(0, 3, 0).explorers(10).build();
    s.act("buy explorer");
    assert_eq!(p1(&s).trade, 1);
    assert_eq!(s.explorers, 9);
    assert_eq!(p1(&s).discard, seq(&["explorer"]));
    assert_illegal(&mut s, "buy explorer");
}

// ------------------------------------------------------------------------ Trade Federation

#[test]
fn federation_shuttle_primary_and_ally() {
    let mut s = Builder::new()
        .hand(0, &["Federation Shuttle", "Blob Fighter", "Cutter"])
        .build();
    s.act("play federation shuttle");
    assert_eq!(p1(&s).trade, 2);
    assert_eq!(p1(&s).authority, 50);
    assert!(!legal(&s, "ally ship 0"), "a card never allies with itself");
    s.act("play blob fighter");
    assert!(
        !legal(&s, "ally ship 0"),
        "a Blob ship is no Federation ally"
    );
    s.act("play cutter");
    assert_eq!(p1(&s).trade, 4);
    assert_eq!(p1(&s).authority, 54);
    assert!(legal(&s, "ally ship 0"), "allies in any order");
    s.act("ally ship 0");
    assert_eq!(p1(&s).authority, 58);
    assert_eq!(p1(&s).trade, 4);
    assert_eq!(p1(&s).combat, 3);
    assert_illegal(&mut s, "ally ship 0");
}

#[test]
fn cutter_primary_without_ally() {
    let mut s = Builder::new()
        .ships(0, &["Blob Fighter"])
        .hand(0, &["Vedette"])
        .build();
    s.act("play cutter");
    assert_eq!(p1(&s).authority, 54);
    assert_eq!(p1(&s).trade, 2);
    assert_eq!(p1(&s).combat, 0);
    assert!(!legal(&s, "ally ship 1"));
    assert!(!legal(&s, "scrap ship 1"));
}

#[test]
fn cutter_ally_adds_four_combat_once() {
    let mut s = Builder::new()
        .ships(0, &["Federation Shuttle"])
        .hand(0, &["Cutter"])
        .build();
    s.act("play cutter");
    assert_eq!(p1(&s).authority, 54);
    assert_eq!(p1(&s).trade, 2);
    s.act("ally ship 1");
    assert_eq!(p1(&s).combat, 4);
    assert_eq!(p1(&s).authority, 54);
    assert_eq!(p1(&s).trade, 2);
    assert_illegal(&mut s, "ally ship 1");
}

#[test]
fn embassy_yacht_without_bases_draws_nothing() {
    let mut s = Builder::new()
        .ships(0, &["Cutter"])
        .hand(0, &["Embassy Yacht"])
        .deck(0, &["Scout", "Viper", "Scout"])
        // The opponent's bases are not "your" bases.
        .bases(1, &["Blob Wheel", "Barter World"])
        .build();
    s.act("play embassy yacht");
    assert_eq!(p1(&s).authority, 53);
    assert_eq!(p1(&s).trade, 2);
    assert!(p1(&s).hand.is_empty());
    assert_eq!(p1(&s).deck.len(), 3);
    assert!(!legal(&s, "ally ship 1"), "the Yacht has no ally ability");
    assert!(!legal(&s, "scrap ship 1"));
}

#[test]
fn embassy_yacht_with_one_base_draws_nothing() {
    let mut s = Builder::new()
        .bases(0, &["Trading Post"])
        .hand(0, &["Navire Embassade"])
        .deck(0, &["Scout", "Viper", "Scout"])
        .build();
    s.act("play embassy yacht");
    assert_eq!(p1(&s).authority, 53);
    assert_eq!(p1(&s).trade, 2);
    assert!(p1(&s).hand.is_empty());
    assert_eq!(p1(&s).deck.len(), 3);
}

#[test]
fn embassy_yacht_with_two_bases_draws_two() {
    let mut s = Builder::new()
        .bases(0, &["Trading Post", "Blob Wheel"])
        .hand(0, &["Embassy Yacht"])
        .deck(0, &["Scout", "Viper", "Explorer"])
        .build();
    s.act("play embassy yacht");
    assert_eq!(p1(&s).authority, 53);
    assert_eq!(p1(&s).trade, 2);
    assert_eq!(hand(&s), set(&["scout", "viper"]));
    assert_eq!(p1(&s).deck, seq(&["explorer"]));
}

#[test]
fn freighter_primary_without_ally_ship_goes_to_discard() {
    let mut s = Builder::new()
        .ships(0, &["Blob Fighter"])
        .hand(0, &["Freighter"])
        .row(&["Cutter"])
        .trade_deck(&["Ram"])
        .build();
    s.act("play freighter");
    assert_eq!(p1(&s).trade, 4);
    assert!(!legal(&s, "ally ship 1"));
    s.act("buy row 0");
    assert_eq!(p1(&s).trade, 2);
    assert_eq!(s.pending, None, "no top-of-deck offer without the ally");
    assert_eq!(p1(&s).discard, seq(&["cutter"]));
    assert!(p1(&s).deck.is_empty());
}

#[test]
fn freighter_ally_base_does_not_use_it_next_ship_may_go_on_top() {
    let mut s = Builder::new()
        .ships(0, &["Federation Shuttle"])
        .hand(0, &["Freighter"])
        .pools(0, 2, 0)
        .row(&["Trading Post", "Cutter", "Blob Fighter"])
        .trade_deck(&["Ram", "Battle Pod"])
        .build();
    s.act("play freighter");
    assert_eq!(p1(&s).trade, 6);
    assert!(legal(&s, "ally ship 1"));
    s.act("ally ship 1");
    assert_eq!(s.pending, None);
    // A base acquired does not use it.
    s.act("buy row 0");
    assert_eq!(p1(&s).trade, 3);
    assert_eq!(s.pending, None);
    assert_eq!(p1(&s).discard, seq(&["trading_post"]));
    // The next ship may go on top.
    s.act("buy row 1");
    assert_eq!(p1(&s).trade, 1);
    assert_eq!(
        s.pending,
        Some(Pending::TopOrDiscard {
            card: card("cutter")
        })
    );
    assert_eq!(legal_set(&s), texts(&["top", "pass"]));
    s.act("top");
    assert_eq!(s.pending, None);
    assert_eq!(p1(&s).deck, seq(&["cutter"]));
    assert_eq!(p1(&s).discard, seq(&["trading_post"]));
    // Only the next ship: a further ship goes to the discard pile.
    s.act("buy row 2");
    assert_eq!(p1(&s).trade, 0);
    assert_eq!(s.pending, None);
    assert_eq!(p1(&s).discard, seq(&["trading_post", "blob_fighter"]));
    assert_eq!(p1(&s).deck, seq(&["cutter"]));
    assert_illegal(&mut s, "ally ship 1");
}

#[test]
fn freighter_ally_pass_puts_ship_in_discard() {
    let mut s = Builder::new()
        .ships(0, &["Cutter"])
        .hand(0, &["Freighter"])
        .row(&["Battle Pod"])
        .build();
    s.act("play freighter");
    s.act("ally ship 1");
    s.act("buy row 0");
    assert_eq!(p1(&s).trade, 2);
    assert_eq!(
        s.pending,
        Some(Pending::TopOrDiscard {
            card: card("battle_pod")
        })
    );
    s.act("pass");
    assert_eq!(s.pending, None);
    assert_eq!(p1(&s).discard, seq(&["battle_pod"]));
    assert!(p1(&s).deck.is_empty());
    assert_eq!(s.row[0], None, "empty trade deck: the slot stays empty");
}

#[test]
fn freighter_ally_explorer_is_a_ship() {
    let mut s = Builder::new()
        .ships(0, &["Cutter"])
        .hand(0, &["Freighter"])
        .row(&["Battle Pod"])
        .build();
    s.act("play freighter");
    s.act("ally ship 1");
    s.act("buy explorer");
    assert_eq!(p1(&s).trade, 2);
    assert_eq!(s.explorers, 9);
    assert_eq!(
        s.pending,
        Some(Pending::TopOrDiscard {
            card: card("explorer")
        })
    );
    s.act("top");
    assert_eq!(p1(&s).deck, seq(&["explorer"]));
    assert!(p1(&s).discard.is_empty());
    s.act("buy row 0");
    assert_eq!(s.pending, None);
    assert_eq!(p1(&s).discard, seq(&["battle_pod"]));
}

#[test]
fn trade_escort_primary_without_ally() {
    let mut s = Builder::new()
        .ships(0, &["Ram"])
        .hand(0, &["Trade Escort"])
        .deck(0, &["Scout"])
        .build();
    s.act("play trade escort");
    assert_eq!(p1(&s).authority, 54);
    assert_eq!(p1(&s).combat, 4);
    assert_eq!(p1(&s).trade, 0);
    assert!(p1(&s).hand.is_empty());
    assert!(!legal(&s, "ally ship 1"));
}

#[test]
fn trade_escort_ally_draws_one() {
    let mut s = Builder::new()
        .ships(0, &["Cutter"])
        .hand(0, &["Escorte Commerciale"])
        .deck(0, &["Viper", "Scout"])
        .build();
    s.act("play trade escort");
    assert_eq!(p1(&s).authority, 54);
    assert_eq!(p1(&s).combat, 4);
    s.act("ally ship 1");
    assert_eq!(hand(&s), set(&["viper"]));
    assert_eq!(p1(&s).deck, seq(&["scout"]));
    assert_eq!(p1(&s).authority, 54);
    assert_eq!(p1(&s).combat, 4);
    assert_illegal(&mut s, "ally ship 1");
}

#[test]
fn flagship_primary_without_ally() {
    let mut s = Builder::new()
        .hand(0, &["Flagship"])
        .deck(0, &["Scout", "Viper"])
        .build();
    s.act("play flagship");
    assert_eq!(p1(&s).combat, 5);
    assert_eq!(hand(&s), set(&["scout"]));
    assert_eq!(p1(&s).deck, seq(&["viper"]));
    assert_eq!(p1(&s).authority, 50);
    assert!(!legal(&s, "ally ship 0"));
}

#[test]
fn flagship_ally_with_a_federation_base() {
    let mut s = Builder::new()
        .bases(0, &["Barter World"])
        .hand(0, &["Vaisseau Amiral"])
        .deck(0, &["Scout", "Viper"])
        .build();
    s.act("play flagship");
    assert_eq!(p1(&s).combat, 5);
    assert_eq!(hand(&s), set(&["scout"]));
    s.act("ally ship 0");
    assert_eq!(p1(&s).authority, 55);
    assert_eq!(p1(&s).combat, 5);
    assert_eq!(hand(&s), set(&["scout"]));
    assert_illegal(&mut s, "ally ship 0");
}

#[test]
fn command_ship_primary_without_ally() {
    let mut s = Builder::new()
        .hand(0, &["Command Ship"])
        .deck(0, &["Scout", "Viper", "Explorer"])
        .bases(1, &["Blob Wheel"])
        .build();
    s.act("play command ship");
    assert_eq!(p1(&s).authority, 54);
    assert_eq!(p1(&s).combat, 5);
    assert_eq!(hand(&s), set(&["scout", "viper"]));
    assert_eq!(p1(&s).deck, seq(&["explorer"]));
    assert_eq!(s.pending, None);
    assert!(!legal(&s, "ally ship 0"));
    assert_eq!(bases(p2(&s)), seq(&["blob_wheel"]));
}

#[test]
fn command_ship_ally_destroys_target_base() {
    let mut s = Builder::new()
        .ships(0, &["Cutter"])
        .hand(0, &["Command Ship"])
        .deck(0, &["Scout", "Viper", "Explorer"])
        .bases(1, &["Blob Wheel", "Barter World"])
        .build();
    s.act("play command ship");
    s.act("ally ship 1");
    assert_eq!(s.pending, Some(Pending::DestroyBase { optional: false }));
    assert_eq!(
        legal_set(&s),
        texts(&["destroy p2 base 0", "destroy p2 base 1"]),
        "mandatory: no pass"
    );
    s.act("destroy p2 base 1");
    assert_eq!(s.pending, None);
    assert_eq!(bases(p2(&s)), seq(&["blob_wheel"]));
    assert_eq!(p2(&s).discard, seq(&["barter_world"]));
    assert!(s.scrap_heap.is_empty());
    assert_eq!(p1(&s).combat, 5, "destroying costs no combat");
    assert_illegal(&mut s, "ally ship 1");
}

#[test]
fn command_ship_ally_outpost_is_the_only_target() {
    let mut s = Builder::new()
        .ships(0, &["Cutter"])
        .hand(0, &["Command Ship"])
        .deck(0, &["Scout", "Viper"])
        .bases(1, &["Blob Wheel", "Trading Post", "Barter World"])
        .build();
    s.act("play command ship");
    s.act("ally ship 1");
    assert_eq!(legal_set(&s), texts(&["destroy p2 base 1"]));
    assert_illegal(&mut s, "destroy p2 base 0");
    s.act("destroy p2 base 1");
    assert_eq!(bases(p2(&s)), seq(&["blob_wheel", "barter_world"]));
    assert_eq!(p2(&s).discard, seq(&["trading_post"]));
}

#[test]
fn command_ship_ally_without_bases_does_nothing() {
    let mut s = Builder::new()
        .ships(0, &["Cutter"])
        .hand(0, &["Command Ship"])
        .deck(0, &["Scout", "Viper"])
        .build();
    s.act("play command ship");
    s.act("ally ship 1");
    assert_eq!(s.pending, None);
    assert_eq!(p1(&s).combat, 5);
    assert_eq!(p1(&s).authority, 54);
    assert_illegal(&mut s, "ally ship 1");
}

#[test]
fn trading_post_authority_option_then_scrap() {
    let mut s = Builder::new()
        .ships(0, &["Cutter"])
        .bases(0, &["Trading Post"])
        .build();
    assert!(legal(&s, "primary base 0"));
    assert!(!legal(&s, "ally base 0"), "no ally ability");
    s.act("primary base 0");
    assert_eq!(legal_set(&s), texts(&["choose 0", "choose 1"]));
    s.act("choose 0");
    assert_eq!(p1(&s).authority, 51);
    assert_eq!(p1(&s).trade, 0);
    assert_illegal(&mut s, "primary base 0");
    s.act("scrap base 0");
    assert_eq!(p1(&s).combat, 3);
    assert!(p1(&s).bases.is_empty());
    assert_eq!(s.scrap_heap, seq(&["trading_post"]));
    assert!(p1(&s).discard.is_empty());
}

#[test]
fn trading_post_trade_option() {
    let mut s = Builder::new().bases(0, &["Poste de Négoce"]).build();
    s.act("primary base 0");
    s.act("choose 1");
    assert_eq!(p1(&s).trade, 1);
    assert_eq!(p1(&s).authority, 50);
    assert_eq!(p1(&s).combat, 0);
    assert_eq!(bases(p1(&s)), seq(&["trading_post"]));
}

#[test]
fn barter_world_authority_option_then_scrap() {
    let mut s = Builder::new()
        .ships(0, &["Cutter"])
        .bases(0, &["Barter World"])
        .build();
    assert!(!legal(&s, "ally base 0"), "no ally ability");
    s.act("primary base 0");
    assert_eq!(legal_set(&s), texts(&["choose 0", "choose 1"]));
    s.act("choose 0");
    assert_eq!(p1(&s).authority, 52);
    assert_eq!(p1(&s).trade, 0);
    assert_illegal(&mut s, "primary base 0");
    s.act("scrap base 0");
    assert_eq!(p1(&s).combat, 5);
    assert!(p1(&s).bases.is_empty());
    assert_eq!(s.scrap_heap, seq(&["barter_world"]));
}

#[test]
fn barter_world_trade_option() {
    let mut s = Builder::new().bases(0, &["Monde de Négoce"]).build();
    s.act("primary base 0");
    s.act("choose 1");
    assert_eq!(p1(&s).trade, 2);
    assert_eq!(p1(&s).authority, 50);
}

#[test]
fn defense_center_authority_option_no_ally() {
    let mut s = Builder::new()
        .ships(0, &["Blob Fighter"])
        .bases(0, &["Defense Center"])
        .build();
    assert!(
        !legal(&s, "ally base 0"),
        "a Blob ship is no Federation ally"
    );
    assert!(!legal(&s, "scrap base 0"));
    s.act("primary base 0");
    assert_eq!(legal_set(&s), texts(&["choose 0", "choose 1"]));
    s.act("choose 0");
    assert_eq!(p1(&s).authority, 53);
    assert_eq!(p1(&s).combat, 0);
    assert_illegal(&mut s, "primary base 0");
}

#[test]
fn defense_center_combat_option_and_ally() {
    let mut s = Builder::new()
        .bases(0, &["Centre de Défense"])
        .hand(0, &["Federation Shuttle"])
        .build();
    assert!(!legal(&s, "ally base 0"), "a card never allies with itself");
    s.act("primary base 0");
    s.act("choose 1");
    assert_eq!(p1(&s).combat, 2);
    assert_eq!(p1(&s).authority, 50);
    s.act("play federation shuttle");
    assert!(legal(&s, "ally base 0"));
    s.act("ally base 0");
    assert_eq!(p1(&s).combat, 4);
    assert_illegal(&mut s, "ally base 0");
}

#[test]
fn port_of_call_primary() {
    let mut s = Builder::new()
        .ships(0, &["Cutter"])
        .bases(0, &["Port of Call"])
        .build();
    assert!(!legal(&s, "ally base 0"), "no ally ability");
    s.act("primary base 0");
    assert_eq!(p1(&s).trade, 3);
    assert_illegal(&mut s, "primary base 0");
}

#[test]
fn port_of_call_scrap_draws_and_destroys_a_base() {
    let mut s = Builder::new()
        .bases(0, &["Port of Call"])
        .deck(0, &["Scout", "Viper"])
        .bases(1, &["Blob Wheel"])
        .build();
    s.act("primary base 0");
    assert_eq!(p1(&s).trade, 3);
    s.act("scrap base 0");
    assert_eq!(hand(&s), set(&["scout"]));
    assert_eq!(p1(&s).deck, seq(&["viper"]));
    assert!(p1(&s).bases.is_empty());
    assert_eq!(s.scrap_heap, seq(&["port_of_call"]));
    assert_eq!(s.pending, Some(Pending::DestroyBase { optional: true }));
    assert_eq!(legal_set(&s), texts(&["destroy p2 base 0", "pass"]));
    s.act("destroy p2 base 0");
    assert!(p2(&s).bases.is_empty());
    assert_eq!(p2(&s).discard, seq(&["blob_wheel"]));
    assert_eq!(p1(&s).trade, 3);
}

#[test]
fn port_of_call_scrap_may_decline_destroy() {
    let mut s = Builder::new()
        .bases(0, &["Port d'Attache"])
        .deck(0, &["Scout", "Viper"])
        .bases(1, &["Blob Wheel"])
        .build();
    s.act("scrap base 0");
    assert_eq!(hand(&s), set(&["scout"]));
    s.act("pass");
    assert_eq!(s.pending, None);
    assert_eq!(bases(p2(&s)), seq(&["blob_wheel"]));
    assert!(p2(&s).discard.is_empty());
    assert_eq!(s.scrap_heap, seq(&["port_of_call"]));
    assert_illegal(&mut s, "primary base 0");
}

#[test]
fn port_of_call_scrap_outpost_rule() {
    let mut s = Builder::new()
        .bases(0, &["Port of Call"])
        .deck(0, &["Scout"])
        .bases(1, &["Blob Wheel", "Defense Center"])
        .build();
    s.act("scrap base 0");
    assert_eq!(legal_set(&s), texts(&["destroy p2 base 1", "pass"]));
    s.act("destroy p2 base 1");
    assert_eq!(bases(p2(&s)), seq(&["blob_wheel"]));
    assert_eq!(p2(&s).discard, seq(&["defense_center"]));
}

#[test]
fn port_of_call_scrap_without_target_still_draws() {
    let mut s = Builder::new()
        .bases(0, &["Port of Call"])
        .deck(0, &["Scout"])
        .build();
    s.act("scrap base 0");
    assert_eq!(s.pending, None);
    assert_eq!(hand(&s), set(&["scout"]));
    assert_eq!(s.scrap_heap, seq(&["port_of_call"]));
}

#[test]
fn central_office_primary_next_ship_on_top() {
    let mut s = Builder::new()
        .bases(0, &["Central Office"])
        .row(&["Cutter"])
        .build();
    assert!(!legal(&s, "ally base 0"));
    s.act("primary base 0");
    assert_eq!(p1(&s).trade, 2);
    assert_eq!(s.pending, None);
    assert_illegal(&mut s, "primary base 0");
    s.act("buy row 0");
    assert_eq!(p1(&s).trade, 0);
    assert_eq!(
        s.pending,
        Some(Pending::TopOrDiscard {
            card: card("cutter")
        })
    );
    s.act("top");
    assert_eq!(p1(&s).deck, seq(&["cutter"]));
    assert!(p1(&s).discard.is_empty());
}

#[test]
fn central_office_base_does_not_use_it_and_pass() {
    let mut s = Builder::new()
        .bases(0, &["Administration Centrale"])
        .pools(0, 3, 0)
        .row(&["Trading Post", "Federation Shuttle"])
        .build();
    s.act("primary base 0");
    assert_eq!(p1(&s).trade, 5);
    s.act("buy row 0");
    assert_eq!(s.pending, None, "a base acquired does not use it");
    assert_eq!(p1(&s).discard, seq(&["trading_post"]));
    s.act("buy row 1");
    assert_eq!(p1(&s).trade, 1);
    assert_eq!(
        s.pending,
        Some(Pending::TopOrDiscard {
            card: card("federation_shuttle")
        })
    );
    s.act("pass");
    assert_eq!(p1(&s).discard, seq(&["trading_post", "federation_shuttle"]));
    assert!(p1(&s).deck.is_empty());
}

#[test]
fn central_office_ally_draws_one() {
    let mut s = Builder::new()
        .bases(0, &["Central Office"])
        .hand(0, &["Blob Fighter", "Cutter"])
        .deck(0, &["Viper", "Scout"])
        .build();
    assert!(!legal(&s, "ally base 0"), "a card never allies with itself");
    s.act("play blob fighter");
    assert!(
        !legal(&s, "ally base 0"),
        "a Blob ship is no Federation ally"
    );
    s.act("play cutter");
    s.act("ally base 0");
    assert_eq!(hand(&s), set(&["viper"]));
    assert_eq!(p1(&s).deck, seq(&["scout"]));
    assert_illegal(&mut s, "ally base 0");
}

// --------------------------------------------------------------------------------- Blob

#[test]
fn blob_fighter_primary_without_ally() {
    let mut s = Builder::new()
        .ships(0, &["Cutter"])
        .hand(0, &["Blob Fighter"])
        .deck(0, &["Scout"])
        .build();
    s.act("play blob fighter");
    assert_eq!(p1(&s).combat, 3);
    assert!(p1(&s).hand.is_empty());
    assert!(!legal(&s, "ally ship 1"));
}

#[test]
fn blob_fighter_ally_draws_one() {
    let mut s = Builder::new()
        .ships(0, &["Ram"])
        .hand(0, &["Blob Soldat"])
        .deck(0, &["Scout", "Viper"])
        .build();
    s.act("play blob fighter");
    assert_eq!(p1(&s).combat, 3);
    s.act("ally ship 1");
    assert_eq!(hand(&s), set(&["scout"]));
    assert_eq!(p1(&s).deck, seq(&["viper"]));
    assert_eq!(p1(&s).combat, 3);
    assert_illegal(&mut s, "ally ship 1");
}

#[test]
fn trade_pod_primary_without_ally() {
    let mut s = Builder::new()
        .bases(0, &["Trading Post"])
        .hand(0, &["Trade Pod"])
        .build();
    s.act("play trade pod");
    assert_eq!(p1(&s).trade, 3);
    assert_eq!(p1(&s).combat, 0);
    assert!(!legal(&s, "ally ship 0"));
}

#[test]
fn trade_pod_ally_with_a_blob_base() {
    let mut s = Builder::new()
        .bases(0, &["The Hive"])
        .hand(0, &["Pod Commercial"])
        .build();
    s.act("play trade pod");
    assert_eq!(p1(&s).trade, 3);
    s.act("ally ship 0");
    assert_eq!(p1(&s).combat, 2);
    assert_eq!(p1(&s).trade, 3);
    assert_illegal(&mut s, "ally ship 0");
}

#[test]
fn battle_pod_scraps_a_trade_row_card_and_row_refills() {
    let mut s = Builder::new()
        .hand(0, &["Battle Pod"])
        .row(&["Cutter", "Ram", "Flagship", "Blob Wheel", "Trade Pod"])
        .trade_deck(&["Mothership", "Battle Blob"])
        .build();
    s.act("play battle pod");
    assert_eq!(p1(&s).combat, 4);
    assert_eq!(
        s.pending,
        Some(Pending::ScrapTradeRow {
            optional: true,
            left: 1,
            combat_for_cost: false,
        })
    );
    assert_eq!(
        legal_set(&s),
        texts(&[
            "scrap row 0",
            "scrap row 1",
            "scrap row 2",
            "scrap row 3",
            "scrap row 4",
            "pass"
        ])
    );
    s.act("scrap row 2");
    assert_eq!(s.pending, None);
    assert_eq!(s.scrap_heap, seq(&["flagship"]));
    assert_eq!(
        s.row.to_vec(),
        row(&[
            Some("cutter"),
            Some("ram"),
            Some("mothership"),
            Some("blob_wheel"),
            Some("trade_pod")
        ])
    );
    assert_eq!(s.trade_deck, seq(&["battle_blob"]));
    assert!(!legal(&s, "ally ship 0"));
}

#[test]
fn battle_pod_may_decline_and_ally_adds_two_combat() {
    let mut s = Builder::new()
        .ships(0, &["Blob Fighter"])
        .hand(0, &["Pod Combattant"])
        .row(&["Cutter", "Ram"])
        .trade_deck(&["Mothership"])
        .build();
    s.act("play battle pod");
    s.act("pass");
    assert_eq!(s.pending, None);
    assert!(s.scrap_heap.is_empty());
    assert_eq!(
        s.row.to_vec(),
        row(&[Some("cutter"), Some("ram"), None, None, None])
    );
    assert_eq!(s.trade_deck, seq(&["mothership"]));
    s.act("ally ship 1");
    assert_eq!(p1(&s).combat, 6);
    assert_illegal(&mut s, "ally ship 1");
}

#[test]
fn battle_pod_empty_trade_deck_leaves_slot_empty() {
    let mut s = Builder::new()
        .hand(0, &["Battle Pod", "Battle Pod"])
        .row(&["Cutter", "Ram"])
        .build();
    s.act("play battle pod");
    s.act("scrap row 0");
    assert_eq!(s.scrap_heap, seq(&["cutter"]));
    assert_eq!(s.row.to_vec(), row(&[None, Some("ram"), None, None, None]));
    s.act("play battle pod");
    assert_eq!(p1(&s).combat, 8);
    assert_eq!(legal_set(&s), texts(&["scrap row 1", "pass"]));
    s.act("pass");
    // Two Battle Pods ally each other.
    s.act("ally ship 0");
    s.act("ally ship 1");
    assert_eq!(p1(&s).combat, 12);
}

#[test]
fn ram_primary_without_ally_and_scrap() {
    let mut s = Builder::new()
        .ships(0, &["Cutter"])
        .hand(0, &["Ram"])
        .build();
    s.act("play ram");
    assert_eq!(p1(&s).combat, 5);
    assert_eq!(p1(&s).trade, 0);
    assert!(!legal(&s, "ally ship 1"));
    s.act("scrap ship 1");
    assert_eq!(p1(&s).trade, 3);
    assert_eq!(p1(&s).combat, 5);
    assert_eq!(ships(p1(&s)), seq(&["cutter"]));
    assert_eq!(s.scrap_heap, seq(&["ram"]));
}

#[test]
fn ram_ally_then_scrap() {
    let mut s = Builder::new()
        .ships(0, &["Trade Pod"])
        .hand(0, &["Bélier"])
        .build();
    s.act("play ram");
    s.act("ally ship 1");
    assert_eq!(p1(&s).combat, 7);
    assert_illegal(&mut s, "ally ship 1");
    s.act("scrap ship 1");
    assert_eq!(p1(&s).trade, 3);
    assert_eq!(p1(&s).combat, 7);
    assert_eq!(ships(p1(&s)), seq(&["trade_pod"]));
    assert_eq!(s.scrap_heap, seq(&["ram"]));
    assert!(!p1(&s).discard.contains(&card("ram")));
    assert_illegal(&mut s, "scrap ship 1");
}

#[test]
fn blob_destroyer_primary_without_ally() {
    let mut s = Builder::new()
        .ships(0, &["Cutter"])
        .hand(0, &["Blob Destroyer"])
        .bases(1, &["Blob Wheel"])
        .row(&["Ram"])
        .build();
    s.act("play blob destroyer");
    assert_eq!(p1(&s).combat, 6);
    assert_eq!(s.pending, None);
    assert!(!legal(&s, "ally ship 1"));
}

#[test]
fn blob_destroyer_ally_destroys_and_scraps() {
    let mut s = Builder::new()
        .ships(0, &["Blob Fighter"])
        .hand(0, &["Blob Destroyer"])
        .bases(1, &["Barter World"])
        .row(&["Cutter", "Ram"])
        .trade_deck(&["Flagship"])
        .build();
    s.act("play blob destroyer");
    s.act("ally ship 1");
    assert_eq!(s.pending, Some(Pending::DestroyBase { optional: true }));
    assert_eq!(legal_set(&s), texts(&["destroy p2 base 0", "pass"]));
    s.act("destroy p2 base 0");
    assert!(p2(&s).bases.is_empty());
    assert_eq!(p2(&s).discard, seq(&["barter_world"]));
    assert_eq!(
        s.pending,
        Some(Pending::ScrapTradeRow {
            optional: true,
            left: 1,
            combat_for_cost: false,
        })
    );
    assert_eq!(
        legal_set(&s),
        texts(&["scrap row 0", "scrap row 1", "pass"])
    );
    s.act("scrap row 1");
    assert_eq!(s.pending, None);
    assert_eq!(s.scrap_heap, seq(&["ram"]));
    assert_eq!(
        s.row.to_vec(),
        row(&[Some("cutter"), Some("flagship"), None, None, None])
    );
    assert_eq!(p1(&s).combat, 6);
    assert_illegal(&mut s, "ally ship 1");
}

#[test]
fn blob_destroyer_ally_only_scrap() {
    let mut s = Builder::new()
        .ships(0, &["Blob Fighter"])
        .hand(0, &["Blob Destroyer"])
        .bases(1, &["Barter World"])
        .row(&["Cutter", "Ram"])
        .build();
    s.act("play blob destroyer");
    s.act("ally ship 1");
    s.act("pass");
    assert_eq!(bases(p2(&s)), seq(&["barter_world"]));
    assert_eq!(
        s.pending,
        Some(Pending::ScrapTradeRow {
            optional: true,
            left: 1,
            combat_for_cost: false,
        })
    );
    s.act("scrap row 0");
    assert_eq!(s.scrap_heap, seq(&["cutter"]));
    assert_eq!(s.row.to_vec(), row(&[None, Some("ram"), None, None, None]));
}

#[test]
fn blob_destroyer_ally_only_destroy() {
    let mut s = Builder::new()
        .ships(0, &["Blob Fighter"])
        .hand(0, &["Blob Destroyer"])
        .bases(1, &["Barter World", "Trading Post"])
        .row(&["Cutter", "Ram"])
        .build();
    s.act("play blob destroyer");
    s.act("ally ship 1");
    assert_eq!(
        legal_set(&s),
        texts(&["destroy p2 base 1", "pass"]),
        "outpost first"
    );
    s.act("destroy p2 base 1");
    assert_eq!(p2(&s).discard, seq(&["trading_post"]));
    s.act("pass");
    assert_eq!(s.pending, None);
    assert!(s.scrap_heap.is_empty());
    assert_eq!(
        s.row.to_vec(),
        row(&[Some("cutter"), Some("ram"), None, None, None])
    );
}

#[test]
fn blob_destroyer_ally_without_bases_goes_to_the_row() {
    let mut s = Builder::new()
        .ships(0, &["Blob Fighter"])
        .hand(0, &["Blob Destroyer"])
        .row(&["Cutter"])
        .build();
    s.act("play blob destroyer");
    s.act("ally ship 1");
    assert_eq!(
        s.pending,
        Some(Pending::ScrapTradeRow {
            optional: true,
            left: 1,
            combat_for_cost: false,
        })
    );
    s.act("pass");
    assert_eq!(s.pending, None);
    assert_eq!(s.row[0], Some(card("cutter")));
}

#[test]
fn battle_blob_primary_without_ally_and_scrap() {
    let mut s = Builder::new()
        .ships(0, &["Cutter"])
        .hand(0, &["Battle Blob"])
        .deck(0, &["Viper"])
        .build();
    s.act("play battle blob");
    assert_eq!(p1(&s).combat, 8);
    assert!(!legal(&s, "ally ship 1"));
    s.act("scrap ship 1");
    assert_eq!(p1(&s).combat, 12);
    assert!(p1(&s).hand.is_empty());
    assert_eq!(ships(p1(&s)), seq(&["cutter"]));
    assert_eq!(s.scrap_heap, seq(&["battle_blob"]));
}

#[test]
fn battle_blob_ally_then_scrap() {
    let mut s = Builder::new()
        .ships(0, &["Blob Fighter"])
        .hand(0, &["Blob Combattant"])
        .deck(0, &["Viper", "Scout"])
        .build();
    s.act("play battle blob");
    s.act("ally ship 1");
    assert_eq!(hand(&s), set(&["viper"]));
    assert_eq!(p1(&s).deck, seq(&["scout"]));
    assert_illegal(&mut s, "ally ship 1");
    s.act("scrap ship 1");
    assert_eq!(p1(&s).combat, 12);
    assert_eq!(s.scrap_heap, seq(&["battle_blob"]));
}

#[test]
fn blob_carrier_primary_without_ally() {
    let mut s = Builder::new()
        .ships(0, &["Federation Shuttle"])
        .hand(0, &["Blob Carrier"])
        .row(&["Cutter"])
        .build();
    s.act("play blob carrier");
    assert_eq!(p1(&s).combat, 7);
    assert_eq!(s.pending, None);
    assert!(!legal(&s, "ally ship 1"));
}

#[test]
fn blob_carrier_ally_acquires_a_row_ship_free_on_top() {
    let mut s = Builder::new()
        .ships(0, &["Trade Pod"])
        .hand(0, &["Blob Carrier"])
        .deck(0, &["Scout", "Viper"])
        .row(&[
            "Blob Wheel",
            "Cutter",
            "Command Ship",
            "Trading Post",
            "Battle Blob",
        ])
        .trade_deck(&["Ram"])
        .build();
    s.act("play blob carrier");
    assert_eq!(p1(&s).combat, 7);
    s.act("ally ship 1");
    assert_eq!(s.pending, Some(Pending::AcquireFree));
    assert_eq!(
        legal_set(&s),
        texts(&[
            "acquire row 1",
            "acquire row 2",
            "acquire row 4",
            "acquire explorer"
        ]),
        "bases are not offered, an Explorer is"
    );
    s.act("acquire row 2");
    assert_eq!(s.pending, None);
    assert_eq!(p1(&s).deck, seq(&["viper", "scout", "command_ship"]));
    assert!(p1(&s).discard.is_empty());
    assert_eq!(p1(&s).trade, 0);
    assert_eq!(p1(&s).combat, 7);
    assert_eq!(s.row[2], Some(card("ram")));
    assert!(s.trade_deck.is_empty());
    assert_illegal(&mut s, "ally ship 1");
}

#[test]
fn blob_carrier_ally_acquires_an_explorer() {
    let mut s = Builder::new()
        .ships(0, &["Ram"])
        .hand(0, &["Blob Transporteur"])
        .row(&["Blob Wheel"])
        .explorers(10)
        .build();
    s.act("play blob carrier");
    s.act("ally ship 1");
    assert_eq!(legal_set(&s), texts(&["acquire explorer"]));
    s.act("acquire explorer");
    assert_eq!(s.explorers, 9);
    assert_eq!(p1(&s).deck, seq(&["explorer"]));
    assert!(p1(&s).discard.is_empty());
    assert_eq!(s.row[0], Some(card("blob_wheel")));
}

#[test]
fn mothership_primary_without_ally() {
    let mut s = Builder::new()
        .ships(0, &["Cutter"])
        .hand(0, &["Mothership"])
        .deck(0, &["Scout", "Viper"])
        .build();
    s.act("play mothership");
    assert_eq!(p1(&s).combat, 6);
    assert_eq!(hand(&s), set(&["scout"]));
    assert_eq!(p1(&s).deck, seq(&["viper"]));
    assert!(!legal(&s, "ally ship 1"));
}

#[test]
fn mothership_ally_draws_one() {
    let mut s = Builder::new()
        .ships(0, &["Blob Fighter"])
        .hand(0, &["Vaisseau-Mère"])
        .deck(0, &["Scout", "Viper", "Explorer"])
        .build();
    s.act("play mothership");
    s.act("ally ship 1");
    assert_eq!(hand(&s), set(&["scout", "viper"]));
    assert_eq!(p1(&s).deck, seq(&["explorer"]));
    assert_eq!(p1(&s).combat, 6);
    assert_illegal(&mut s, "ally ship 1");
}

#[test]
fn blob_wheel_primary_and_scrap() {
    let mut s = Builder::new()
        .ships(0, &["Ram"])
        .bases(0, &["Blob Wheel"])
        .build();
    assert!(!legal(&s, "ally base 0"), "no ally ability");
    s.act("primary base 0");
    assert_eq!(p1(&s).combat, 1);
    assert_illegal(&mut s, "primary base 0");
    s.act("scrap base 0");
    assert_eq!(p1(&s).trade, 3);
    assert_eq!(p1(&s).combat, 1);
    assert!(p1(&s).bases.is_empty());
    assert_eq!(s.scrap_heap, seq(&["blob_wheel"]));
}

#[test]
fn the_hive_primary_without_ally() {
    let mut s = Builder::new()
        .ships(0, &["Cutter"])
        .bases(0, &["The Hive"])
        .deck(0, &["Scout"])
        .build();
    assert!(!legal(&s, "ally base 0"));
    assert!(!legal(&s, "scrap base 0"));
    s.act("primary base 0");
    assert_eq!(p1(&s).combat, 3);
    assert!(p1(&s).hand.is_empty());
    assert_illegal(&mut s, "primary base 0");
}

#[test]
fn the_hive_ally_draws_one() {
    let mut s = Builder::new()
        .bases(0, &["La Ruche"])
        .hand(0, &["Trade Pod"])
        .deck(0, &["Scout", "Viper"])
        .build();
    s.act("play trade pod");
    s.act("ally base 0");
    assert_eq!(hand(&s), set(&["scout"]));
    assert_eq!(p1(&s).deck, seq(&["viper"]));
    assert_illegal(&mut s, "ally base 0");
    s.act("primary base 0");
    assert_eq!(p1(&s).combat, 3);
}

#[test]
fn blob_world_combat_option() {
    let mut s = Builder::new()
        .ships(0, &["Ram"])
        .bases(0, &["Blob World"])
        .deck(0, &["Scout"])
        .build();
    assert!(!legal(&s, "ally base 0"), "no ally ability");
    assert!(!legal(&s, "scrap base 0"));
    s.act("primary base 0");
    assert_eq!(legal_set(&s), texts(&["choose 0", "choose 1"]));
    s.act("choose 0");
    assert_eq!(p1(&s).combat, 5);
    assert!(p1(&s).hand.is_empty());
    assert_illegal(&mut s, "primary base 0");
}

#[test]
fn blob_world_draws_per_blob_card_played_including_itself() {
    let mut s = Builder::new()
        .hand(0, &["Blob Fighter", "Trade Pod", "Cutter", "Monde-Colonie"])
        .deck(0, &["Scout", "Viper", "Explorer", "Scout", "Viper"])
        .build();
    s.act("play blob fighter");
    s.act("play trade pod");
    s.act("play cutter");
    s.act("play blob world");
    assert_eq!(p1(&s).combat, 3);
    assert_eq!(p1(&s).trade, 5);
    assert!(p1(&s).hand.is_empty());
    s.act("primary base 0");
    s.act("choose 1");
    // Blob Fighter, Trade Pod and Blob World itself: 3 Blob cards played this turn.
    assert_eq!(hand(&s), set(&["scout", "viper", "explorer"]));
    assert_eq!(p1(&s).deck, seq(&["viper", "scout"]));
    assert_eq!(p1(&s).combat, 3);
}

#[test]
fn blob_world_base_from_earlier_turn_not_counted() {
    let mut s = Builder::new()
        .ships(0, &["Ram", "Cutter"])
        .bases(0, &["Blob World", "The Hive"])
        .deck(0, &["Scout", "Viper", "Explorer"])
        .build();
    s.act("primary base 0");
    s.act("choose 1");
    // Only the Ram was played this turn; the bases were played on earlier turns.
    assert_eq!(hand(&s), set(&["scout"]));
    assert_eq!(p1(&s).combat, 0);
}

// ------------------------------------------------------------------------------ rule tests

#[test]
fn rule_base_primary_once_per_turn_and_again_next_turn() {
    let mut s = Builder::new().bases(0, &["Blob Wheel"]).build();
    assert!(legal(&s, "primary base 0"));
    s.act("primary base 0");
    assert_eq!(p1(&s).combat, 1);
    assert_illegal(&mut s, "primary base 0");
    s.act("end");
    assert_eq!(p1(&s).combat, 0, "pools are lost at the end of the turn");
    s.act("end");
    assert_eq!(bases(p1(&s)), seq(&["blob_wheel"]));
    assert!(legal(&s, "primary base 0"), "usable again on the next turn");
    s.act("primary base 0");
    assert_eq!(p1(&s).combat, 1);
}

#[test]
fn rule_base_primary_can_wait() {
    let mut s = Builder::new().hand(0, &["Trading Post", "Scout"]).build();
    s.act("play trading post");
    assert_eq!(s.pending, None, "no choice is asked on play");
    assert_eq!(p1(&s).trade, 0);
    assert_eq!(p1(&s).authority, 50);
    assert_eq!(bases(p1(&s)), seq(&["trading_post"]));
    assert!(!p1(&s).bases[0].primary_used);
    s.act("play scout");
    assert!(legal(&s, "primary base 0"));
    s.act("primary base 0");
    s.act("choose 1");
    assert_eq!(p1(&s).trade, 2);
}

#[test]
fn rule_ship_primary_fires_on_play() {
    let mut s = Builder::new().hand(0, &["Blob Fighter"]).build();
    s.act("play blob fighter");
    assert_eq!(p1(&s).combat, 3);
    assert!(p1(&s).ships[0].primary_used);
    assert!(s.legal_texts().iter().all(|t| !t.starts_with("primary")));
}

#[test]
fn rule_buying_pays_cost_to_discard_and_refills_row() {
    let mut s = Builder::new()
        .pools(0, 5, 0)
        .row(&["Cutter", "Command Ship"])
        .trade_deck(&["Ram"])
        .build();
    assert_illegal(&mut s, "buy row 1");
    s.act("buy row 0");
    assert_eq!(p1(&s).trade, 3);
    assert_eq!(p1(&s).discard, seq(&["cutter"]));
    assert!(p1(&s).hand.is_empty());
    assert!(p1(&s).ships.is_empty(), "acquiring does not play");
    assert_eq!(
        s.row.to_vec(),
        row(&[Some("ram"), Some("command_ship"), None, None, None])
    );
    assert!(s.trade_deck.is_empty());
}

#[test]
fn rule_attacking_a_player_reduces_authority() {
    let mut s = Builder::new().pools(0, 0, 7).authority(1, 20).build();
    s.act("attack p2 5");
    assert_eq!(p2(&s).authority, 15);
    assert_eq!(p1(&s).combat, 2);
    assert_illegal(&mut s, "attack p2 3");
    s.act("attack p2 2");
    assert_eq!(p2(&s).authority, 13);
    assert_eq!(p1(&s).combat, 0);
}

#[test]
fn rule_base_destroyed_only_by_full_defense() {
    let mut s = Builder::new()
        .pools(0, 0, 4)
        .bases(1, &["Blob Wheel"])
        .build();
    assert_illegal(&mut s, "attack p2 base 0");
    let mut s = Builder::new()
        .pools(0, 0, 6)
        .bases(1, &["Blob Wheel"])
        .build();
    s.act("attack p2 base 0");
    assert_eq!(p1(&s).combat, 1);
    assert!(p2(&s).bases.is_empty());
    assert_eq!(p2(&s).discard, seq(&["blob_wheel"]));
    assert!(s.scrap_heap.is_empty());
    assert_eq!(p2(&s).authority, 50);
}

#[test]
fn rule_outpost_protects_player_and_other_bases() {
    let mut s = Builder::new()
        .pools(0, 0, 10)
        .bases(1, &["Blob Wheel", "Trading Post"])
        .build();
    assert_illegal(&mut s, "attack p2 1");
    assert_illegal(&mut s, "attack p2 base 0");
    assert!(
        s.legal_texts()
            .iter()
            .all(|t| !t.starts_with("attack p2") || t == "attack p2 base 1")
    );
    s.act("attack p2 base 1");
    assert_eq!(p1(&s).combat, 6);
    assert_eq!(p2(&s).discard, seq(&["trading_post"]));
    s.act("attack p2 1");
    assert_eq!(p2(&s).authority, 49);
    s.act("attack p2 base 0");
    assert_eq!(p1(&s).combat, 0);
    assert_eq!(p2(&s).discard, seq(&["trading_post", "blob_wheel"]));
}

#[test]
fn rule_opponent_base_is_no_ally() {
    let mut s = Builder::new()
        .hand(0, &["Federation Shuttle"])
        .bases(1, &["Trading Post"])
        .build();
    s.act("play federation shuttle");
    assert!(!legal(&s, "ally ship 0"));
}

#[test]
fn rule_ally_ability_lost_when_ally_leaves() {
    // The ally must be in play when the ally ability is used: a base scrapped first no longer
    // counts.
    let mut s = Builder::new()
        .bases(0, &["Trading Post"])
        .hand(0, &["Federation Shuttle"])
        .build();
    s.act("play federation shuttle");
    assert!(legal(&s, "ally ship 0"));
    s.act("scrap base 0");
    assert_eq!(p1(&s).combat, 3);
    assert!(!legal(&s, "ally ship 0"));
}
