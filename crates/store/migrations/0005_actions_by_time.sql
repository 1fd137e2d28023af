-- Actions kept in the order they were written. Keyed by game, a game's actions filled pages of
-- their own, and since a game has one action waiting at a time, a commit of N actions from N
-- games wrote N pages to the log (and checkpoints wrote them again). Keyed first by a block of
-- the store's appends (the epoch), actions written together are neighbours: a commit writes a
-- few pages whatever the number of games. A game's actions are read epoch by epoch, from the
-- first to the last its log records.

CREATE TABLE actions_by_epoch (
    -- Which block of the store's appends the action was written in (see `EPOCH_ACTIONS`).
    epoch     INTEGER NOT NULL CHECK (epoch >= 0),
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    idx       INTEGER NOT NULL CHECK (idx >= 0),
    text      TEXT    NOT NULL,
    -- The id the client gave the message that made this action, if any (to answer a resend).
    client_id TEXT,
    PRIMARY KEY (epoch, game_id, idx)
) STRICT, WITHOUT ROWID;

-- The actions written before: all in epoch 0, in the order they had (by game).
INSERT INTO actions_by_epoch (epoch, game_id, idx, text, client_id)
    SELECT 0, game_id, idx, text, client_id FROM actions;
DROP TABLE actions;
ALTER TABLE actions_by_epoch RENAME TO actions;

-- Each game's log: how many actions it holds (the index of the next one) and the epochs they
-- were written in. Narrow rows, so that the games playing at once share a page or two.
CREATE TABLE logs (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    actions     INTEGER NOT NULL CHECK (actions >= 0),
    first_epoch INTEGER NOT NULL CHECK (first_epoch >= 0),
    last_epoch  INTEGER NOT NULL CHECK (last_epoch >= first_epoch)
) STRICT;

INSERT INTO logs (game_id, actions, first_epoch, last_epoch)
    SELECT id, (SELECT count(*) FROM actions WHERE epoch = 0 AND game_id = games.id), 0, 0
    FROM games;
