-- Rematches: the game that follows a finished game with the same players, sides swapped. One
-- at most per game (NULLs do not collide in a unique index).
ALTER TABLE games ADD COLUMN rematch_of INTEGER REFERENCES games (id);
CREATE UNIQUE INDEX games_rematch ON games (rematch_of);
