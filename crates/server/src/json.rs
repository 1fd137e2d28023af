//! The pieces of a view the server writes as JSON itself, for every view sent: field names as
//! written text, numbers and seats without serde's generic path. Texts that come from elsewhere
//! (actions, card ids, client ids) still go through `serde_json`, which escapes them.

use game::Seat;
use serde::Serialize;

/// Appends `n`.
pub(crate) fn number(out: &mut Vec<u8>, n: impl itoa::Integer) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

/// Appends `true` or `false`.
pub(crate) fn boolean(out: &mut Vec<u8>, b: bool) {
    out.extend_from_slice(if b { b"true" } else { b"false" });
}

/// Appends a seat, as [`Seat`]'s `Serialize` writes it.
pub(crate) fn seat(out: &mut Vec<u8>, seat: Seat) {
    const NAMES: [&[u8]; game::MAX_SEATS] = [
        b"\"p1\"", b"\"p2\"", b"\"p3\"", b"\"p4\"", b"\"p5\"", b"\"p6\"",
    ];
    match NAMES.get(seat.index()) {
        Some(name) => out.extend_from_slice(name),
        None => value(out, &seat),
    }
}

/// Appends a seat or `null`.
pub(crate) fn option_seat(out: &mut Vec<u8>, s: Option<Seat>) {
    match s {
        Some(s) => seat(out, s),
        None => out.extend_from_slice(b"null"),
    }
}

/// Appends a list of seats.
pub(crate) fn seats(out: &mut Vec<u8>, seats: &[Seat]) {
    out.push(b'[');
    for (i, &s) in seats.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        seat(out, s);
    }
    out.push(b']');
}

/// Appends anything else through `serde_json`.
pub(crate) fn value(out: &mut Vec<u8>, value: &(impl Serialize + ?Sized)) {
    serde_json::to_writer(out, value).expect("views serialize");
}
