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

-- Each lobby group, newest first, holding only unfinished games. Both cover their query (the
-- open one carries created_at and open_seats so that expired games are skipped without
-- reading the table), which is also what makes SQLite prefer them to games_by_finished.
CREATE INDEX games_open ON games (finished, id, created_at, open_seats)
    WHERE finished = 0 AND open_seats > 0;
CREATE INDEX games_playing ON games (finished, id) WHERE finished = 0 AND open_seats = 0;
