-- How many times a campaign's save was replaced: a write names the revision it read, so that of
-- two decisions made at once on the same save (a double click on an upgrade) the second is
-- refused rather than written over the first.
ALTER TABLE campaigns ADD COLUMN revision INTEGER NOT NULL DEFAULT 0 CHECK (revision >= 0);
