//! The server through real sockets on port 0: privacy of views, whole games, refused
//! messages, restarts.

mod common;
mod errors;
mod play;
mod privacy;
mod restart;
