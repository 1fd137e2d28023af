-- Who made a game of bots alone (or left one to bots, its last person), as the server counts
-- clients: the games of bots each client has going are bounded, and a restart must not forget
-- them. Kept only while the game counts: cleared when it ends or is retired, and after a few days.
ALTER TABLE games ADD COLUMN maker TEXT;

-- The games made, read when the server starts (few, among every game ever played).
CREATE INDEX games_made ON games (id) WHERE maker IS NOT NULL;
