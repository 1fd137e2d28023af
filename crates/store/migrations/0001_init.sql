-- The first schema: a game is its record (game, record version, configuration, seed, the
-- actions in order), its seats, when it was created and, once over, who won.

CREATE TABLE games (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game       TEXT    NOT NULL,
    version    INTEGER NOT NULL,
    config     TEXT    NOT NULL,
    -- The 64 bits of the seed, read as a signed integer (SQLite has no unsigned one).
    seed       INTEGER NOT NULL,
    created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    finished   INTEGER NOT NULL DEFAULT 0 CHECK (finished IN (0, 1)),
    -- Once finished: the winning seats as a JSON array of seat indices (empty: a draw).
    winners    TEXT
) STRICT;

CREATE INDEX games_by_finished ON games (finished, id);

CREATE TABLE seats (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL CHECK (seat >= 0),
    -- `human`, or the name of the bot that plays the seat.
    player     TEXT    NOT NULL,
    -- SHA-256 of the seat's secret token once a person has claimed it; never the token.
    token_hash BLOB    CHECK (token_hash IS NULL OR length(token_hash) = 32),
    PRIMARY KEY (game_id, seat)
) STRICT, WITHOUT ROWID;

CREATE TABLE actions (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    idx       INTEGER NOT NULL CHECK (idx >= 0),
    text      TEXT    NOT NULL,
    -- The id the client gave the message that made this action, if any (to answer a resend).
    client_id TEXT,
    PRIMARY KEY (game_id, idx)
) STRICT, WITHOUT ROWID;
