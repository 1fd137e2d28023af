//! Text forms and dense indices of cards and actions.

use cosmique::{Action, Card, Colour, Meteor, Side};
use game::{Action as _, ActionError, Seat};

#[test]
fn cards_read_and_write() {
    for c in Card::kinds() {
        assert_eq!(c.to_string().parse::<Card>().unwrap(), c);
        assert_eq!(Card::from_id(c.id()), Some(c));
    }
    assert_eq!(Card::meteor(Colour::Red, 3).to_string(), "red3");
    assert_eq!(Card::meteor(Colour::Yellow, 5).to_string(), "yellow5");
    assert_eq!(Card::Plus2.to_string(), "plus2");
    assert_eq!("+2".parse::<Card>().unwrap(), Card::Plus2);
    assert_eq!("Rouge3".parse::<Card>().unwrap(), "red3".parse().unwrap());
    assert_eq!(
        "jaune1".parse::<Card>().unwrap(),
        "yellow1".parse().unwrap()
    );
    for bad in ["red0", "red6", "purple2", "red", "3", "", "plus3", "red33"] {
        assert!(bad.parse::<Card>().is_err(), "{bad}");
    }
    assert!("plus2".parse::<Meteor>().is_err());
    let m = Meteor::new(Colour::Green, 4);
    assert_eq!((m.colour(), m.value()), (Colour::Green, 4));
    assert_eq!(serde_json::to_string(&Card::Plus2).unwrap(), "\"plus2\"");
}

#[test]
fn actions_read_and_write() {
    let red3 = Meteor::new(Colour::Red, 3);
    let examples = [
        (
            "attack left red3",
            Action::Attack {
                side: Side::Left,
                meteor: red3,
                plus2: false,
            },
        ),
        (
            "attack right blue5 plus2",
            Action::Attack {
                side: Side::Right,
                meteor: Meteor::new(Colour::Blue, 5),
                plus2: true,
            },
        ),
        (
            "defend left green2",
            Action::Defend {
                side: Side::Left,
                meteor: Meteor::new(Colour::Green, 2),
            },
        ),
        (
            "replace right yellow4",
            Action::Replace {
                side: Side::Right,
                meteor: Meteor::new(Colour::Yellow, 4),
            },
        ),
        ("take orbit", Action::TakeOrbit),
        (
            "swap p3 red1",
            Action::Swap {
                seat: Seat(2),
                card: Card::meteor(Colour::Red, 1),
            },
        ),
        (
            "swap p4 plus2",
            Action::Swap {
                seat: Seat(3),
                card: Card::Plus2,
            },
        ),
        ("end", Action::End),
    ];
    for (text, action) in examples {
        assert_eq!(action.to_string(), text);
        assert_eq!(text.parse::<Action>().unwrap(), action);
        assert_eq!(Action::parse(text).unwrap(), action);
        let json = serde_json::to_string(&action).unwrap();
        assert_eq!(json, format!("\"{text}\""));
    }
    // Aliases and spacing.
    assert_eq!(
        "Attack  RIGHT blue5 +2"
            .parse::<Action>()
            .unwrap()
            .to_string(),
        "attack right blue5 plus2"
    );
    assert_eq!(
        "attack right blue5 x2"
            .parse::<Action>()
            .unwrap()
            .to_string(),
        "attack right blue5 plus2"
    );
}

#[test]
fn bad_action_texts_are_refused_with_a_reason() {
    for (bad, reason) in [
        ("", "empty"),
        ("attack", "side"),
        ("attack up red3", "not a side"),
        ("attack left", "missing card"),
        ("attack left red6", "not a card"),
        ("attack left plus2", "+2"),
        ("attack left red3 plus3", "not plus2"),
        ("attack left red3 plus2 now", "unexpected"),
        ("defend right plus2", "+2"),
        ("replace left", "missing card"),
        ("take", "take orbit"),
        ("take orbit now", "unexpected"),
        ("swap p5 red1", "no planet p5"),
        ("swap p0 red1", "not a seat"),
        ("swap p2", "missing card"),
        ("end now", "unexpected"),
        ("fly", "unknown"),
    ] {
        match bad.parse::<Action>() {
            Err(ActionError::Parse {
                text,
                reason: r,
                why,
            }) => {
                assert_eq!(text, bad);
                assert!(r.contains(reason), "{bad}: {r}");
                // The same reason as a key of the translation table, for every language.
                let why = why.unwrap_or_else(|| panic!("{bad}: no key for a translation"));
                assert_eq!(game::refusal::in_english(&why), r, "{bad}");
            }
            other => panic!("{bad}: {other:?}"),
        }
    }
}

#[test]
fn every_dense_index_is_one_action_and_back() {
    let n = Action::space_size();
    assert_eq!(n, 80 + 40 + 40 + 1 + 84 + 1);
    let mut all = Vec::with_capacity(n);
    for i in 0..n {
        let a = Action::from_index(i).expect("every index is an action");
        assert_eq!(a.index(), i);
        let text = a.to_string();
        assert_eq!(text.parse::<Action>().unwrap(), a, "{text}");
        all.push(a);
    }
    assert_eq!(Action::from_index(n), None);
    all.sort();
    all.dedup();
    assert_eq!(all.len(), n, "indices name distinct actions");
}
