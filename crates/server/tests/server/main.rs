//! The server through real sockets on port 0: privacy of views, whole games, refused
//! messages, restarts, who is at the table, the cards log lines name, the browser interface's
//! files and texts.

mod campaign;
mod changes;
mod common;
mod errors;
mod http;
mod internet;
mod log;
mod play;
mod privacy;
mod replay;
mod restart;
mod table;
mod web;
