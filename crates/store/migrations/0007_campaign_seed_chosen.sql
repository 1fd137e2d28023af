-- Whether a campaign's creator chose its seed (rather than the server drawing it): each of its
-- games, whose seeds derive from it, says so in turn (`games.seed_chosen`).
ALTER TABLE campaigns ADD COLUMN seed_chosen INTEGER NOT NULL DEFAULT 0 CHECK (seed_chosen IN (0, 1));
