-- Games that can never start, retired: a game whose open seat expired before anybody took it
-- waits for nobody. Retired (by the server, as their seats expire), such games leave the
-- lobby's index and the games a server resumes when it starts, so that neither grows with
-- every game ever left unjoined. A retired game stays readable by its number; its seats can no
-- longer be taken.
ALTER TABLE games ADD COLUMN retired INTEGER NOT NULL DEFAULT 0 CHECK (retired IN (0, 1));

-- The lobby's index, with the games still to be played first among the unfinished ones.
DROP INDEX games_lobby;
CREATE INDEX games_lobby ON games (finished, retired, has_open_seats, id, created_at);
