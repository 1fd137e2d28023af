-- The lobby: whether the creator chose a game's seed, and how many human seats nobody has
-- claimed yet, kept beside the game so that a page of open or playing games is read from an
-- index instead of a scan of every game and its seats.

-- 1 when the creator chose the seed, 0 when the server drew it (and for games from before
-- this column, whose origin nobody recorded).
ALTER TABLE games ADD COLUMN seed_chosen INTEGER NOT NULL DEFAULT 0 CHECK (seed_chosen IN (0, 1));

-- The human seats with no token hash: set at creation, lowered by each claim.
ALTER TABLE games ADD COLUMN open_seats INTEGER NOT NULL DEFAULT 0 CHECK (open_seats >= 0);

UPDATE games SET open_seats = (
    SELECT count(*) FROM seats s
    WHERE s.game_id = games.id AND s.player = 'human' AND s.token_hash IS NULL
);

-- Whether a game still has a seat to take, and one index for both lobby groups, newest first
-- (created_at is there so that expired games are skipped on the index). Not partial indexes: with one, SQLite compares the bound values of every
-- query on `games` with the index's condition and prepares the statement again whenever they
-- change, which costs more than the appends themselves.
ALTER TABLE games ADD COLUMN has_open_seats INTEGER
    GENERATED ALWAYS AS (open_seats > 0) VIRTUAL;
CREATE INDEX games_lobby ON games (finished, has_open_seats, id, created_at);
