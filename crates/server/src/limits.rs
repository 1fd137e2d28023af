//! What one client may do, shared by all its connections: messages per seat and per address,
//! games created per address, seats held per address, and live connections per seat.
//!
//! Rates are token buckets (`governor`), keyed by seat or by address, so that opening more
//! connections buys a client nothing.

use std::collections::{HashMap, VecDeque};
use std::net::{IpAddr, Ipv6Addr};
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use game::Seat;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use store::GameId;
use tokio::sync::oneshot;

use crate::Options;

fn quota(burst: u32, per_minute: u32) -> Quota {
    let at_least_one = |n: u32| NonZeroU32::new(n.max(1)).expect("at least one");
    Quota::per_minute(at_least_one(per_minute)).allow_burst(at_least_one(burst))
}

/// The client an address stands for, for every limit per address: an IPv4 address is one
/// client (and so is one written as IPv6, `::ffff:a.b.c.d`); an IPv6 address stands for its
/// network, its first `ipv6_prefix` bits. A provider gives each subscriber a whole network (a /64
/// at least, 2^64 addresses), any address of which the subscriber may use: counted one by one,
/// one client would have billions of allowances.
pub(crate) fn client_of(address: IpAddr, ipv6_prefix: u8) -> IpAddr {
    let IpAddr::V6(v6) = address else {
        return address;
    };
    if let Some(v4) = v6.to_ipv4_mapped() {
        return IpAddr::V4(v4);
    }
    let kept = u32::from(ipv6_prefix.min(128));
    let mask = u128::MAX.checked_shl(128 - kept).unwrap_or(0);
    IpAddr::V6(Ipv6Addr::from(u128::from(v6) & mask))
}

/// One seat of one game.
pub(crate) type SeatKey = (GameId, Seat);

/// A seat an address holds: a game's, or a campaign's (whose games that seat plays in turn),
/// as the store keeps it.
pub(crate) use store::HeldSeat as Held;

/// Replays (a record's pages, a campaign rebuilt) one address may have waiting for their turn
/// or running at once: a few addresses cannot fill the line that every replay waits in.
pub(crate) const REPLAYS_PER_ADDRESS: usize = 4;

/// A place of an address among the replays waiting or running, given back when dropped.
pub(crate) struct ReplayPlace {
    replays: Arc<Mutex<HashMap<IpAddr, usize>>>,
    address: IpAddr,
}

impl Drop for ReplayPlace {
    fn drop(&mut self) {
        let mut replays = self.replays.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = replays.get_mut(&self.address) {
            *n -= 1;
            if *n == 0 {
                replays.remove(&self.address);
            }
        }
    }
}

/// A seat's live connection: its number, and what tells it to leave.
type LiveConnection = (u64, oneshot::Sender<()>);

/// The shared limits of every client.
pub(crate) struct Limiters {
    seat_messages: DefaultKeyedRateLimiter<SeatKey>,
    address_messages: DefaultKeyedRateLimiter<IpAddr>,
    creations: DefaultKeyedRateLimiter<IpAddr>,
    requests: DefaultKeyedRateLimiter<IpAddr>,
    files: DefaultKeyedRateLimiter<IpAddr>,
    /// Seats each address joined, pruned of those that no longer count when it is at its cap.
    held: Mutex<HashMap<IpAddr, Vec<Held>>>,
    /// Games of bots alone each address made (`None`: one being made), pruned of those over
    /// when it is at its cap.
    bot_games: Mutex<HashMap<IpAddr, Vec<Option<GameId>>>>,
    /// How many replays each address has waiting or running.
    replays: Arc<Mutex<HashMap<IpAddr, usize>>>,
    /// The live connections of each seat, oldest first, each with what tells it to leave.
    seat_connections: Mutex<HashMap<SeatKey, VecDeque<LiveConnection>>>,
    next_connection: AtomicU64,
    connections_per_seat: usize,
}

impl Limiters {
    pub(crate) fn new(o: &Options) -> Limiters {
        Limiters {
            seat_messages: RateLimiter::keyed(quota(
                o.messages_burst,
                o.messages_per_second.saturating_mul(60),
            )),
            address_messages: RateLimiter::keyed(quota(
                o.address_messages_burst,
                o.address_messages_per_second.saturating_mul(60),
            )),
            creations: RateLimiter::keyed(quota(o.creations_burst, o.creations_per_minute)),
            requests: RateLimiter::keyed(quota(
                o.requests_burst,
                o.requests_per_second.saturating_mul(60),
            )),
            files: RateLimiter::keyed(quota(
                o.file_requests_burst,
                o.file_requests_per_second.saturating_mul(60),
            )),
            held: Mutex::new(HashMap::new()),
            bot_games: Mutex::new(HashMap::new()),
            replays: Arc::default(),
            seat_connections: Mutex::new(HashMap::new()),
            next_connection: AtomicU64::new(0),
            connections_per_seat: o.connections_per_seat.max(1),
        }
    }

    /// Whether a message of this address (and seat) may be read now; it uses the allowance.
    pub(crate) fn message(&self, address: IpAddr, seat: Option<SeatKey>) -> bool {
        let seat_ok = seat.is_none_or(|key| self.seat_messages.check_key(&key).is_ok());
        seat_ok && self.address_messages.check_key(&address).is_ok()
    }

    /// Whether this address may make an HTTP request now; it uses the allowance.
    pub(crate) fn request(&self, address: IpAddr) -> bool {
        self.requests.check_key(&address).is_ok()
    }

    /// Whether this address may fetch one of the interface's files now; it uses the allowance.
    pub(crate) fn file(&self, address: IpAddr) -> bool {
        self.files.check_key(&address).is_ok()
    }

    /// Whether this address may create a game now; it uses the allowance.
    pub(crate) fn creation(&self, address: IpAddr) -> bool {
        self.creations.check_key(&address).is_ok()
    }

    /// A place for a replay of `address`, unless it has [`REPLAYS_PER_ADDRESS`] waiting or
    /// running already.
    pub(crate) fn replay(&self, address: IpAddr) -> Option<ReplayPlace> {
        let mut replays = self.replays.lock().unwrap_or_else(|e| e.into_inner());
        let n = replays.entry(address).or_default();
        if *n >= REPLAYS_PER_ADDRESS {
            return None;
        }
        *n += 1;
        Some(ReplayPlace {
            replays: Arc::clone(&self.replays),
            address,
        })
    }

    /// How many replays `address` has waiting or running.
    #[cfg(test)]
    pub(crate) fn replays(&self, address: IpAddr) -> usize {
        let replays = self.replays.lock().unwrap_or_else(|e| e.into_inner());
        replays.get(&address).copied().unwrap_or(0)
    }

    /// The seats this address holds.
    pub(crate) fn held(&self, address: IpAddr) -> Vec<Held> {
        let held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        held.get(&address).cloned().unwrap_or_default()
    }

    /// Notes that this address takes `seat`, unless it holds `cap` seats already once those
    /// `gone` names (their game or campaign over, or never to start) are dropped; then returns
    /// how many it holds.
    pub(crate) fn try_hold(
        &self,
        address: IpAddr,
        seat: Held,
        cap: usize,
        mut gone: impl FnMut(Held) -> bool,
    ) -> Result<(), usize> {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        let seats = held.entry(address).or_default();
        seats.retain(|held| !gone(*held));
        if seats.len() >= cap {
            return Err(seats.len());
        }
        seats.push(seat);
        Ok(())
    }

    /// Notes again a seat `address` held before the server started (the store kept it), beyond
    /// the cap if need be: such seats are dropped when they no longer count, as any.
    pub(crate) fn restore(&self, address: IpAddr, seat: Held) {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        let seats = held.entry(address).or_default();
        if !seats.contains(&seat) {
            seats.push(seat);
        }
    }

    /// Notes again a game of bots alone `address` made before the server started (the store
    /// kept it), beyond the cap if need be: it is dropped when over, as any.
    pub(crate) fn restore_bot_game(&self, address: IpAddr, game: GameId) {
        let mut games = self.bot_games.lock().unwrap_or_else(|e| e.into_inner());
        let made = games.entry(address).or_default();
        if !made.contains(&Some(game)) {
            made.push(Some(game));
        }
    }

    /// The games of bots alone `address` made.
    pub(crate) fn bot_games(&self, address: IpAddr) -> Vec<GameId> {
        let games = self.bot_games.lock().unwrap_or_else(|e| e.into_inner());
        games
            .get(&address)
            .map(|g| g.iter().flatten().copied().collect())
            .unwrap_or_default()
    }

    /// Every game of bots alone any address made, as far as the server knows.
    pub(crate) fn all_bot_games(&self) -> Vec<GameId> {
        let games = self.bot_games.lock().unwrap_or_else(|e| e.into_inner());
        games.values().flatten().flatten().copied().collect()
    }

    /// Forgets the games of bots `over`, and the addresses left with none.
    pub(crate) fn forget_bot_games(&self, over: &[GameId]) {
        let mut games = self.bot_games.lock().unwrap_or_else(|e| e.into_inner());
        games.retain(|_, made| {
            made.retain(|g| g.is_none_or(|g| !over.contains(&g)));
            !made.is_empty()
        });
    }

    /// Keeps a place for a game of bots alone `address` is making, unless it has made `cap`
    /// already once those `over` names are dropped; then returns how many it has.
    pub(crate) fn try_bot_game(
        &self,
        address: IpAddr,
        cap: usize,
        mut over: impl FnMut(GameId) -> bool,
    ) -> Result<(), usize> {
        let mut games = self.bot_games.lock().unwrap_or_else(|e| e.into_inner());
        let made = games.entry(address).or_default();
        made.retain(|g| g.is_none_or(|g| !over(g)));
        if made.len() >= cap {
            let n = made.len();
            if made.is_empty() {
                games.remove(&address);
            }
            return Err(n);
        }
        made.push(None);
        Ok(())
    }

    /// Fills the place [`Limiters::try_bot_game`] kept with the game made, or gives it back
    /// (`None`: the creation failed).
    pub(crate) fn made_bot_game(&self, address: IpAddr, game: Option<GameId>) {
        let mut games = self.bot_games.lock().unwrap_or_else(|e| e.into_inner());
        let Some(made) = games.get_mut(&address) else {
            return;
        };
        if let Some(at) = made.iter().position(Option::is_none) {
            match game {
                Some(id) => made[at] = Some(id),
                None => {
                    made.remove(at);
                }
            }
        }
        if made.is_empty() {
            games.remove(&address);
        }
    }

    /// Gives back a seat noted by [`Limiters::try_hold`] (the join failed).
    pub(crate) fn release(&self, address: IpAddr, seat: Held) {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(seats) = held.get_mut(&address) {
            seats.retain(|s| *s != seat);
            if seats.is_empty() {
                held.remove(&address);
            }
        }
    }

    /// Registers a new connection of a seat; beyond the cap, the oldest is told to leave.
    /// Returns the connection's number (to unregister it) and what tells it to leave.
    pub(crate) fn connect_seat(&self, seat: SeatKey) -> (u64, oneshot::Receiver<()>) {
        let id = self.next_connection.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        let mut all = self
            .seat_connections
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let live = all.entry(seat).or_default();
        live.push_back((id, tx));
        while live.len() > self.connections_per_seat {
            if let Some((_, leave)) = live.pop_front() {
                let _ = leave.send(());
            }
        }
        (id, rx)
    }

    /// Unregisters a seat's connection.
    pub(crate) fn disconnect_seat(&self, seat: SeatKey, id: u64) {
        let mut all = self
            .seat_connections
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(live) = all.get_mut(&seat) {
            live.retain(|(c, _)| *c != id);
            if live.is_empty() {
                all.remove(&seat);
            }
        }
    }

    /// Forgets the buckets that are full again, so memory follows the active clients only.
    pub(crate) fn prune(&self) {
        for limiter in [
            &self.address_messages,
            &self.creations,
            &self.requests,
            &self.files,
        ] {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
        self.seat_messages.retain_recent();
        self.seat_messages.shrink_to_fit();
    }
}

#[cfg(test)]
mod tests {
    use store::CampaignId;

    use super::*;

    fn options() -> Options {
        Options {
            messages_burst: 3,
            messages_per_second: 1,
            address_messages_burst: 4,
            address_messages_per_second: 1,
            creations_burst: 2,
            creations_per_minute: 1,
            connections_per_seat: 2,
            ..Options::default()
        }
    }

    #[test]
    fn pruning_forgets_every_address_whose_allowance_is_whole_again() {
        // Allowances of one that come back within a tenth of a millisecond.
        let quick = Options {
            messages_burst: 1,
            messages_per_second: 10_000,
            address_messages_burst: 1,
            address_messages_per_second: 10_000,
            creations_burst: 1,
            creations_per_minute: 600_000,
            requests_burst: 1,
            requests_per_second: 10_000,
            file_requests_burst: 1,
            file_requests_per_second: 10_000,
            ..Options::default()
        };
        let l = Limiters::new(&quick);
        for k in 0..50u8 {
            let a = IpAddr::from([10, 0, 1, k]);
            let seat = (GameId(k.into()), Seat(0));
            assert!(l.message(a, Some(seat)) && l.request(a) && l.file(a) && l.creation(a));
        }
        let counts = |l: &Limiters| {
            [
                l.seat_messages.len(),
                l.address_messages.len(),
                l.creations.len(),
                l.requests.len(),
                l.files.len(),
            ]
        };
        assert_eq!(counts(&l), [50; 5]);
        std::thread::sleep(std::time::Duration::from_millis(20));
        l.prune();
        assert_eq!(counts(&l), [0; 5]);
    }

    #[test]
    fn a_seat_has_one_allowance_whatever_its_connections() {
        let l = Limiters::new(&options());
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let seat = (GameId(1), Seat(0));
        // Three messages from two addresses use the seat's burst of three.
        assert!(l.message(a, Some(seat)));
        assert!(l.message(b, Some(seat)));
        assert!(l.message(a, Some(seat)));
        assert!(!l.message(b, Some(seat)));
        // Another seat of the same address still has its own, up to the address's four.
        let other = (GameId(1), Seat(1));
        assert!(l.message(a, Some(other)));
        assert!(l.message(a, Some(other)));
        assert!(
            !l.message(a, Some(other)),
            "the address's burst of four is used"
        );
        assert!(l.message(b, None));
    }

    #[test]
    fn creations_are_counted_per_address() {
        let l = Limiters::new(&options());
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        assert!(l.creation(a) && l.creation(a));
        assert!(!l.creation(a));
        assert!(l.creation("::1".parse().unwrap()));
    }

    #[test]
    fn an_ipv6_client_is_its_network_and_an_ipv4_one_its_address() {
        let client = |a: &str, prefix: u8| client_of(a.parse().unwrap(), prefix);
        let ip = |a: &str| a.parse::<IpAddr>().unwrap();
        assert_eq!(client("203.0.113.7", 64), ip("203.0.113.7"));
        assert_eq!(client("::ffff:203.0.113.7", 64), ip("203.0.113.7"));
        // Any address of one /64 is one client; the next /64 is another.
        let net = ip("2001:db8:1:2::");
        assert_eq!(client("2001:db8:1:2::1", 64), net);
        assert_eq!(client("2001:db8:1:2:ffff:ffff:ffff:ffff", 64), net);
        assert_eq!(client("2001:db8:1:3::1", 64), ip("2001:db8:1:3::"));
        // A shorter prefix joins networks; a full one keeps every address apart.
        assert_eq!(client("2001:db8:1:3::1", 48), ip("2001:db8:1::"));
        assert_eq!(client("2001:db8:1:2::1", 128), ip("2001:db8:1:2::1"));
        assert_eq!(client("2001:db8:1:2::1", 0), ip("::"));
        assert_eq!(client("::1", 64), ip("::"));
    }

    #[test]
    fn a_new_connection_past_the_cap_replaces_the_oldest() {
        let l = Limiters::new(&options());
        let seat = (GameId(3), Seat(1));
        let (first, mut leave_first) = l.connect_seat(seat);
        let (_, mut leave_second) = l.connect_seat(seat);
        assert!(leave_first.try_recv().is_err(), "two are allowed");
        let (_, mut leave_third) = l.connect_seat(seat);
        assert!(
            leave_first.try_recv().is_ok(),
            "the oldest is told to leave"
        );
        assert!(leave_second.try_recv().is_err() && leave_third.try_recv().is_err());
        l.disconnect_seat(seat, first);
        assert_eq!(l.seat_connections.lock().unwrap()[&seat].len(), 2);
    }

    #[test]
    fn held_seats_are_capped_and_drop_with_their_games() {
        let l = Limiters::new(&options());
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let seat = |g: i64| Held::Game(GameId(g), Seat(0));
        let campaign = Held::Campaign(CampaignId(1), Seat(1));
        assert_eq!(l.try_hold(a, seat(1), 3, |_| false), Ok(()));
        assert_eq!(l.try_hold(a, campaign, 3, |_| false), Ok(()));
        assert_eq!(l.try_hold(a, seat(2), 3, |_| false), Ok(()));
        assert_eq!(l.try_hold(a, seat(3), 3, |_| false), Err(3));
        assert_eq!(l.held(a), [seat(1), campaign, seat(2)]);
        // Game 1 is over: its seat no longer counts.
        assert_eq!(l.try_hold(a, seat(3), 3, |h| h == seat(1)), Ok(()));
        l.release(a, seat(3));
        assert_eq!(l.held(a), [campaign, seat(2)]);
        // Nor does a campaign's once it is over.
        assert_eq!(l.try_hold(a, seat(4), 2, |h| h == campaign), Ok(()));
        assert_eq!(l.held(a), [seat(2), seat(4)]);
        assert!(l.held("10.0.0.9".parse().unwrap()).is_empty());
    }
}
