//! Pieces of JSON text written straight into a buffer, for what is written many times a second
//! (a server's views, a game's observations): numbers and seats without serde's generic path,
//! the same text `serde_json` writes. Texts of unknown content go through `serde_json`
//! ([`value`]), which escapes them.

use serde::Serialize;

use crate::Seat;

/// Appends `n`.
pub fn number(out: &mut Vec<u8>, n: impl itoa::Integer) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

/// Appends `text` as a JSON string: the same text as `serde_json` writes of it, without its
/// generic path when nothing in it needs an escape (the texts a server writes for every view:
/// action texts, card ids, client ids).
pub fn string(out: &mut Vec<u8>, text: &str) {
    if text.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
        out.reserve(text.len() + 2);
        out.push(b'"');
        out.extend_from_slice(text.as_bytes());
        out.push(b'"');
    } else {
        value(out, text);
    }
}

/// Appends `true` or `false`.
pub fn boolean(out: &mut Vec<u8>, b: bool) {
    out.extend_from_slice(if b { b"true" } else { b"false" });
}

/// Appends a seat, as [`Seat`]'s `Serialize` writes it.
pub fn seat(out: &mut Vec<u8>, seat: Seat) {
    // A seat's text needs no escape.
    out.push(b'"');
    seat.write_text(out);
    out.push(b'"');
}

/// Appends a seat or `null`.
pub fn option_seat(out: &mut Vec<u8>, s: Option<Seat>) {
    match s {
        Some(s) => seat(out, s),
        None => out.extend_from_slice(b"null"),
    }
}

/// Appends a list of seats.
pub fn seats(out: &mut Vec<u8>, seats: &[Seat]) {
    list(out, seats, |out, &s| seat(out, s));
}

/// Appends `items` as a JSON list, each one written by `each`.
pub fn list<T>(
    out: &mut Vec<u8>,
    items: impl IntoIterator<Item = T>,
    mut each: impl FnMut(&mut Vec<u8>, T),
) {
    out.push(b'[');
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        each(out, item);
    }
    out.push(b']');
}

/// Appends anything else through `serde_json`.
pub fn value(out: &mut Vec<u8>, value: &(impl Serialize + ?Sized)) {
    serde_json::to_writer(out, value).expect("JSON text serializes");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_read_as_serde_json_writes_them() {
        let mut out = Vec::new();
        out.push(b'[');
        number(&mut out, -42i32);
        out.push(b',');
        number(&mut out, u64::MAX);
        out.push(b',');
        boolean(&mut out, true);
        out.push(b',');
        boolean(&mut out, false);
        out.push(b',');
        option_seat(&mut out, None);
        out.push(b',');
        seats(&mut out, &[Seat(0), Seat(5), Seat(6), Seat(20)]);
        out.push(b',');
        value(&mut out, "a \"quote\"");
        out.push(b',');
        list(&mut out, [1u8, 2, 3], number);
        out.push(b',');
        list(&mut out, std::iter::empty::<u8>(), number);
        out.push(b']');
        let expected = serde_json::to_string(&(
            -42i32,
            u64::MAX,
            true,
            false,
            None::<Seat>,
            [Seat(0), Seat(5), Seat(6), Seat(20)],
            "a \"quote\"",
            [1u8, 2, 3],
            [0u8; 0],
        ))
        .unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), expected);
    }

    #[test]
    fn strings_read_as_serde_json_writes_them() {
        for text in [
            "",
            "buy row 2",
            "play blob_fighter",
            "a \"quote\"",
            "back\\slash",
            "tab\tnew\nline\r",
            "\u{1}\u{1f}",
            "\u{7f} DEL stays",
            "Influence, Ferro-Velho, montón de chatarra",
            "émoji 🚀",
        ] {
            let mut out = Vec::new();
            string(&mut out, text);
            assert_eq!(
                String::from_utf8(out).unwrap(),
                serde_json::to_string(text).unwrap(),
                "{text:?}"
            );
        }
    }
}
