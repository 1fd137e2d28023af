//! The terminal game's screen: colours and line wrapping.
//!
//! Colours are on when the output is a terminal that shows them, and off when it is not (a pipe,
//! a file), when `NO_COLOR` is set, or with `--color never`; `--color always` forces them. The
//! words of the game are painted where they are written (card names in their faction's colour,
//! authority, trade and combat, refusals) only once the game has switched colours on, so every
//! other command's output stays plain. Every line is wrapped at spaces to the terminal's width
//! (80 columns when the output is not a terminal), so no word is cut in two.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

use anstyle::{AnsiColor, Color, Style};
use starrealms::cards::Faction;

/// When to colour the terminal game (`--color`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorWhen {
    #[default]
    Auto,
    Always,
    Never,
}

/// Whether this process paints its words (set once by the terminal game).
static COLOUR: AtomicBool = AtomicBool::new(false);

fn on() -> bool {
    COLOUR.load(Ordering::Relaxed)
}

/// `text` in `style` when colours are on, else as it is.
pub fn paint(style: Style, text: &str) -> String {
    if on() {
        format!("{style}{text}{style:#}")
    } else {
        text.to_string()
    }
}

fn fg(c: impl Into<Color>) -> Style {
    Style::new().fg_color(Some(c.into()))
}

/// The colour of a faction's cards, as in the browser's table.
fn faction_style(f: Faction) -> Style {
    match f {
        Faction::Blob => fg(AnsiColor::Green),
        Faction::TradeFederation => fg(AnsiColor::BrightBlue),
        Faction::StarEmpire => fg(AnsiColor::Yellow),
        Faction::MachineCult => fg(AnsiColor::Red),
        Faction::Consortium => fg(AnsiColor::Magenta),
        Faction::Kingdom => fg(anstyle::Ansi256Color(208)),
        Faction::Scavengers => fg(AnsiColor::Cyan),
    }
}

/// A card's name, in its faction's colour (unaligned cards plain).
pub fn card(c: starrealms::CardId, lang: i18n::Lang) -> String {
    let name = i18n::cards::name(c, lang);
    match starrealms::cards().def(c).spec.faction {
        Some(f) => paint(faction_style(f), name),
        None => name.to_string(),
    }
}

/// An amount of authority (`Authority 50`).
pub fn authority(text: &str) -> String {
    paint(fg(AnsiColor::Cyan).bold(), text)
}

/// An amount of trade.
pub fn trade(text: &str) -> String {
    paint(fg(AnsiColor::Yellow).bold(), text)
}

/// An amount of combat.
pub fn combat(text: &str) -> String {
    paint(fg(AnsiColor::Red).bold(), text)
}

/// A refusal or a mistake of the player's.
pub fn error(text: &str) -> String {
    paint(fg(AnsiColor::Red), text)
}

/// What the player types to choose: a menu's labels, a decision to take.
pub fn strong(text: &str) -> String {
    paint(Style::new().bold(), text)
}

/// A Bataille Cosmique colour, painted in itself.
pub fn cosmique(colour: cosmique::Colour, text: &str) -> String {
    let c = match colour {
        cosmique::Colour::Red => AnsiColor::Red,
        cosmique::Colour::Blue => AnsiColor::BrightBlue,
        cosmique::Colour::Green => AnsiColor::Green,
        cosmique::Colour::Yellow => AnsiColor::Yellow,
    };
    paint(fg(c), text)
}

/// The terminal the game writes to: colours as chosen, lines wrapped to its width.
pub struct Screen {
    out: anstream::AutoStream<std::io::StdoutLock<'static>>,
    width: usize,
}

impl Screen {
    /// The standard output, coloured as `when` says (and this process's words painted so).
    pub fn stdout(when: ColorWhen) -> Screen {
        let choice = match when {
            ColorWhen::Always => anstream::ColorChoice::Always,
            ColorWhen::Never => anstream::ColorChoice::Never,
            ColorWhen::Auto => anstream::AutoStream::choice(&std::io::stdout()),
        };
        COLOUR.store(choice != anstream::ColorChoice::Never, Ordering::Relaxed);
        Screen {
            out: anstream::AutoStream::new(std::io::stdout().lock(), choice),
            width: textwrap::termwidth().max(20),
        }
    }

    /// Writes `text`, each line wrapped at spaces; a wrapped line goes on under its own text:
    /// under a table's second column (after two spaces or more), after a `Label: `, or two
    /// columns in.
    pub fn say(&mut self, text: &str) -> std::io::Result<()> {
        let width = textwrap::core::display_width;
        for line in text.split('\n') {
            let indent = line.len() - line.trim_start().len();
            let body = &line[indent..];
            let column = body.find("  ").map(|i| {
                let gap = body[i..].len() - body[i..].trim_start().len();
                width(&body[..i]) + gap
            });
            let label = body.find(": ").map(|i| width(&body[..i]) + 2);
            let hang = match (column, label) {
                (Some(c), _) if c <= 32 => c,
                (_, Some(l)) if l <= 24 => l,
                _ => 2,
            };
            self.wrapped(&line[..indent], indent + hang, body)?;
        }
        Ok(())
    }

    /// Writes `prefix` then `text`, wrapped so that its lines go on under the text.
    pub fn item(&mut self, prefix: &str, text: &str) -> std::io::Result<()> {
        let hang = textwrap::core::display_width(prefix);
        self.wrapped(prefix, hang, text)
    }

    fn wrapped(&mut self, first: &str, hang: usize, text: &str) -> std::io::Result<()> {
        let rest = " ".repeat(hang);
        let options = textwrap::Options::new(self.width)
            .initial_indent(first)
            .subsequent_indent(&rest)
            .word_separator(textwrap::WordSeparator::AsciiSpace)
            .break_words(false);
        if text.is_empty() {
            return writeln!(self.out, "{}", first.trim_end());
        }
        // A line must not begin with a separator, nor with French's `;`, `:`, `!`, `?` (which
        // follow a space).
        let mut kept = text.to_string();
        for mark in [" ·", " —", " ;", " :", " !", " ?", " »"] {
            kept = kept.replace(mark, &mark.replacen(' ', "\u{a0}", 1));
        }
        kept = kept.replace("« ", "«\u{a0}");
        for line in textwrap::wrap(&kept, options) {
            writeln!(self.out, "{}", line.replace('\u{a0}', " "))?;
        }
        Ok(())
    }

    /// Writes `text` as it is, without a new line (the prompt).
    pub fn prompt(&mut self, text: &str) -> std::io::Result<()> {
        write!(self.out, "{text} ")?;
        self.out.flush()
    }
}
