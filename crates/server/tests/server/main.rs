//! The server through real sockets on port 0: privacy of views, whole games, refused
//! messages, restarts, the browser interface's files and texts.

mod campaign;
mod common;
mod errors;
mod http;
mod internet;
mod play;
mod privacy;
mod replay;
mod restart;
mod web;
