-- Who holds a seat, as the server counts clients (an IPv4 address, or an IPv6 network): the
-- seats each client holds are bounded, and a restart must not forget them. Kept only while the
-- seat counts: cleared when its game ends, is retired or the seat is left to a bot.
ALTER TABLE seats ADD COLUMN holder TEXT;
ALTER TABLE campaign_seats ADD COLUMN holder TEXT;

-- The seats held, read when the server starts (few, among every seat ever taken).
CREATE INDEX seats_held ON seats (game_id, seat) WHERE holder IS NOT NULL;
