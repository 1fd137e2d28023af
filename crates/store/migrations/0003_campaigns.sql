-- Rise of Empire campaigns: a campaign is its save (the campaign file's id, the sides, the
-- players, the seed, the choices made, the upgrades after the last scenario: JSON, without its
-- games), who sits in its two seats, and its games, which are stored as every other game and
-- linked here in the order they were played.

CREATE TABLE campaigns (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    save       TEXT    NOT NULL,
    created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
) STRICT;

CREATE TABLE campaign_seats (
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    -- `human`, or the name of the bot that plays the seat in every game of the campaign.
    player      TEXT    NOT NULL,
    -- SHA-256 of the seat's secret token once a person has claimed it; the same token opens
    -- the seat in each of the campaign's games.
    token_hash  BLOB    CHECK (token_hash IS NULL OR length(token_hash) = 32),
    PRIMARY KEY (campaign_id, seat)
) STRICT, WITHOUT ROWID;

CREATE TABLE campaign_games (
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    -- 0 for the campaign's first game, and so on.
    number      INTEGER NOT NULL CHECK (number >= 0),
    game_id     INTEGER NOT NULL UNIQUE REFERENCES games (id),
    PRIMARY KEY (campaign_id, number)
) STRICT, WITHOUT ROWID;
