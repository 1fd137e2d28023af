//! `realms --game cosmique play`: a human planet against three bots, in the terminal. The
//! human sees only its planet's observation; the record is saved after every move, on `quit`,
//! on a closed input and on Ctrl-C, as for Star Realms.

use std::io::BufRead;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use bots::{Bot, SeatView};
use cosmique::{Action, Card, Colour, Config, Observation, Side, State};
use game::{GameRecord, Seat, State as _};
use i18n::{Lang, t, tf};

use crate::First;
use crate::play::{Input, Keeper, PlayArgs, clock_seed, print_menu, read_command};
use crate::term::{self, Screen};

fn colour(c: Colour, lang: Lang) -> &'static str {
    t(
        lang,
        match c {
            Colour::Red => "cos.red",
            Colour::Blue => "cos.blue",
            Colour::Green => "cos.green",
            Colour::Yellow => "cos.yellow",
        },
    )
}

/// A planet's colour in words, painted in itself in the terminal game.
fn painted(c: Colour, lang: Lang) -> String {
    term::cosmique(c, colour(c, lang))
}

fn card(c: Card, lang: Lang) -> String {
    match c {
        Card::Meteor(m) => term::cosmique(
            m.colour(),
            &format!("{} {}", colour(m.colour(), lang), m.value()),
        ),
        Card::Plus2 => term::strong("+2"),
    }
}

fn side(s: Side, lang: Lang) -> &'static str {
    t(
        lang,
        match s {
            Side::Left => "cos.left",
            Side::Right => "cos.right",
        },
    )
}

pub(crate) fn describe(
    a: Action,
    o: &Observation,
    me: Seat,
    names: &[String],
    lang: Lang,
) -> String {
    let name = |s: Option<Seat>| s.map_or("?".to_string(), |s| names[s.index()].clone());
    match a {
        Action::Attack {
            side: sd,
            meteor,
            plus2,
        } => {
            let key = if plus2 {
                "cos.act.attack_plus2"
            } else {
                "cos.act.attack"
            };
            tf(
                lang,
                key,
                &[
                    ("player", &name(o.neighbour(me, sd))),
                    ("side", &side(sd, lang)),
                    ("card", &card(Card::Meteor(meteor), lang)),
                ],
            )
        }
        Action::Defend { side: sd, meteor } => tf(
            lang,
            "cos.act.defend",
            &[
                ("side", &side(sd, lang)),
                ("card", &card(Card::Meteor(meteor), lang)),
            ],
        ),
        Action::Replace { side: sd, meteor } => tf(
            lang,
            "cos.act.replace",
            &[
                ("side", &side(sd, lang)),
                ("card", &card(Card::Meteor(meteor), lang)),
            ],
        ),
        Action::TakeOrbit => {
            let orbit = o.planets[me.index()]
                .orbit
                .map_or("—".into(), |c| card(c, lang));
            tf(lang, "cos.act.take", &[("card", &orbit)])
        }
        Action::Swap { seat, card: c } => {
            let orbit = o.planets[seat.index()]
                .orbit
                .map_or("—".into(), |c| card(c, lang));
            tf(
                lang,
                "cos.act.swap",
                &[
                    ("card", &card(c, lang)),
                    ("player", &names[seat.index()]),
                    ("orbit", &orbit),
                ],
            )
        }
        Action::End => t(lang, "act.end").to_string(),
    }
}

pub(crate) fn board(o: &Observation, names: &[String], lang: Lang) -> String {
    let mut out = String::new();
    let to_move = o.to_move.map_or_else(
        || t(lang, "game_over").to_string(),
        |s| tf(lang, "to_move", &[("player", &names[s.index()])]),
    );
    out += &format!(
        "══ {} · {} · {} ══\n",
        tf(lang, "turn", &[("turn", &o.turn)]),
        to_move,
        tf(lang, "cos.actions_left", &[("n", &o.actions_left)])
    );
    for (i, p) in o.planets.iter().enumerate() {
        let seat = Seat(i as u8);
        if !p.alive() {
            out += &format!("{} — {}\n", names[i], t(lang, "cos.destroyed"));
            continue;
        }
        let orbit = p.orbit.map_or("—".into(), |c| card(c, lang));
        out += &format!(
            "{} — {} · {} {} · {} {}\n",
            names[i],
            term::authority(&tf(lang, "cos.life", &[("n", &p.life)])),
            t(lang, "zone.hand"),
            p.hand_count,
            t(lang, "cos.orbit"),
            orbit
        );
        if let Some(hand) = &p.hand {
            let cards: Vec<String> = hand.iter().map(|&c| card(c, lang)).collect();
            out += &format!("   {}: {}\n", t(lang, "hand"), cards.join(", "));
        }
        for sd in Side::BOTH {
            let slot = &p.slots[sd.index()];
            let facing = o
                .neighbour(seat, sd)
                .map_or("—".into(), |n| names[n.index()].clone());
            let defence = match slot.defence {
                None => t(lang, "cos.no_defence").to_string(),
                Some(d) => match d.card {
                    Some(m) if d.revealed => tf(
                        lang,
                        "cos.defence_revealed",
                        &[("card", &card(Card::Meteor(m), lang))],
                    ),
                    Some(m) => tf(
                        lang,
                        "cos.defence_own",
                        &[("card", &card(Card::Meteor(m), lang))],
                    ),
                    None => t(lang, "cos.defence_hidden").to_string(),
                },
            };
            let attack = match slot.attack {
                None => String::new(),
                Some(a) => {
                    let what = a.card.map_or_else(
                        || t(lang, "cos.hidden").to_string(),
                        |m| card(Card::Meteor(m), lang),
                    );
                    let plus = if a.plus2 { " +2" } else { "" };
                    format!(
                        " · {}",
                        tf(
                            lang,
                            "cos.attack_waiting",
                            &[
                                ("player", &names[a.by.index()]),
                                ("card", &format!("{what}{plus}"))
                            ]
                        )
                    )
                }
            };
            out += &format!(
                "   {} ({facing}): {defence}{attack}\n",
                tf(lang, "cos.slot", &[("side", &side(sd, lang))])
            );
        }
    }
    out += &format!(
        "{}\n",
        tf(
            lang,
            "cos.piles",
            &[("pile", &o.pile_count), ("discard", &o.discard.len())]
        )
    );
    out
}

/// Plays one game of Bataille Cosmique on the terminal.
pub fn play(args: PlayArgs, lang: Lang, input: &mut impl BufRead) -> anyhow::Result<ExitCode> {
    if args.resume.is_some() {
        anyhow::bail!(t(lang, "play.err.resume_cosmique"));
    }
    bots::cosmique::by_name(&args.vs, 0).map_err(|e| anyhow::anyhow!(e.text(lang)))?;
    let mut out = Screen::stdout(args.color);
    let seed = args.seed.unwrap_or_else(clock_seed);
    let config = Config::of_variant(args.variant);
    let mut state = State::new_game(&config, seed).map_err(anyhow::Error::msg)?;
    let n = cosmique::SEATS as u8;
    let human = match (args.seat, args.first) {
        (Some(seat), _) if seat.0 < n => seat,
        (Some(seat), _) => {
            anyhow::bail!(tf(lang, "play.err.no_seat", &[("seat", &seat), ("n", &n)]))
        }
        (None, First::Me) => state.first,
        (None, First::Bot) => Seat((state.first.0 + 1) % n),
        (None, First::Random) => Seat(0),
    };
    let mut players: Vec<Option<Box<dyn Bot<State>>>> = Vec::new();
    let mut names = Vec::new();
    for i in 0..n {
        let seat = Seat(i);
        let col = painted(Colour::of(seat), lang);
        if seat == human {
            players.push(None);
            names.push(format!("{seat} ({}, {col})", t(lang, "you_word")));
        } else {
            let seed = seed ^ 0x05ee_db07 ^ (i as u64) << 40;
            let mut bot = bots::cosmique::by_name(&args.vs, seed)
                .map_err(|e| anyhow::anyhow!(e.text(lang)))?;
            // The player waits for its moves: never longer than the levels promise.
            bot.cap_time(bots::MOVE_TIME_CAP);
            players.push(Some(bot));
            names.push(format!(
                "{seat} ({}, {col})",
                crate::text::level_word(&args.vs, lang)
            ));
        }
    }
    let path = args
        .save
        .unwrap_or_else(|| PathBuf::from(format!("realms-cosmique-{seed}.json")));
    let mut record = GameRecord::new::<State>(&config, seed);
    record.players = (0..n)
        .map(|i| {
            if Seat(i) == human {
                "human".into()
            } else {
                args.vs.clone()
            }
        })
        .collect();
    let keeper = Keeper::new(record, path.clone(), lang)?;
    let flush = || keeper.flush();
    say!(
        out,
        "{}",
        tf(
            lang,
            "cos.welcome",
            &[
                ("bot", &crate::text::level_word(&args.vs, lang)),
                ("seed", &seed),
                ("variant", &config.variant),
                ("first", &names[state.first.index()])
            ]
        )
    );
    say!(out, "{}", t(lang, "cos.help_short"));
    flush()?;
    let mut legal = Vec::new();
    let mut log: Vec<String> = Vec::new();
    while let Some(seat) = state.to_move() {
        state.legal_actions_into(&mut legal);
        if let Some(bot) = players[seat.index()].as_mut() {
            let obs = state.observation(seat);
            let a = bot.choose(&SeatView::of_state(&state, seat), &legal);
            log.push(format!(
                "{}: {}",
                names[seat.index()],
                describe(a, &obs, seat, &names, lang)
            ));
            state.apply(a).context("a bot chose an illegal action")?;
            keeper.push(a.to_string());
            continue;
        }
        flush()?;
        for line in log.drain(..) {
            out.item("  · ", &line)?;
        }
        let obs = state.observation(human);
        say!(out);
        say!(out, "{}", board(&obs, &names, lang).trim_end());
        // Bataille Cosmique's actions are few: numbered, as a decision's options.
        let menu: Vec<(String, Action)> = legal
            .iter()
            .enumerate()
            .map(|(i, &a)| ((i + 1).to_string(), a))
            .collect();
        print_menu(&mut out, &menu, |a| describe(a, &obs, human, &names, lang))?;
        match read_command(&mut out, input, &menu, &legal, &|_| None, lang)? {
            Input::Act(a) => {
                state.apply(a).context("a listed action was refused")?;
                keeper.push(a.to_string());
                flush()?;
                say!(out, "  ✓ {}", describe(a, &obs, human, &names, lang));
            }
            Input::Show => {}
            Input::Help => say!(out, "{}", t(lang, "cos.help_long")),
            Input::Card(_) | Input::Row(_) | Input::PlayAll => {
                say!(out, "{}", term::error(t(lang, "star_realms_only")))
            }
            Input::Quit => {
                flush()?;
                say!(
                    out,
                    "{}",
                    tf(lang, "saved_quit", &[("file", &path.display())])
                );
                return Ok(ExitCode::SUCCESS);
            }
            Input::Closed => {
                flush()?;
                say!(out);
                say!(
                    out,
                    "{}",
                    tf(lang, "input_closed", &[("file", &path.display())])
                );
                return Ok(ExitCode::SUCCESS);
            }
        }
    }
    flush()?;
    for line in log.drain(..) {
        out.item("  · ", &line)?;
    }
    say!(out);
    say!(
        out,
        "{}",
        board(&state.observation(human), &names, lang).trim_end()
    );
    let verdict = match state.winners().first() {
        Some(&w) if w == human => t(lang, "you_win").to_string(),
        Some(&w) => tf(lang, "bot_wins", &[("player", &names[w.index()])]),
        None => t(lang, "draw").to_string(),
    };
    say!(out, "{}", term::strong(&verdict));
    say!(out, "{}", tf(lang, "saved", &[("file", &path.display())]));
    Ok(ExitCode::SUCCESS)
}
