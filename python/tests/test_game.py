"""The core API: games, actions, errors, results, records, copies, bots."""

import copy
import json
import subprocess

import numpy as np
import pytest

import realms
from conftest import play_out

STARREALMS_FORMATS = [
    ("standard", 2),
    ("free_for_all", 3),
    ("free_for_all", 6),
    ("hunter", 4),
    ("hydra", 4),
    ("emperor", 6),
    ("raid", 3),
]


def test_a_game_offers_its_legal_actions_as_indices_and_texts():
    g = realms.Game("starrealms", seed=7)
    assert g.game == "starrealms" and g.num_seats == 2 and g.seed == 7
    indices, texts = g.legal_actions(), g.legal_action_texts()
    assert len(indices) == len(texts) > 0
    for i, t in zip(indices, texts):
        assert g.action_text(i) == t
        assert g.action_index(t) == i
    mask = g.action_mask()
    assert mask.dtype == np.int8 and mask.shape == (g.action_space_size,)
    assert sorted(np.flatnonzero(mask).tolist()) == sorted(indices)


def test_apply_takes_an_index_or_a_text():
    a, b = realms.Game(seed=3), realms.Game(seed=3)
    for _ in range(30):
        i = a.legal_actions()[-1]
        a.apply(i)
        b.apply(b.legal_action_texts()[-1])
    assert a.record() == b.record()
    assert a.actions_played == 30


@pytest.mark.parametrize("bad", [10**9, -1, "buy row 9", "fly away", "attack p2 999"])
def test_an_illegal_action_raises_in_words_and_changes_nothing(bad):
    g = realms.Game(seed=11)
    before = (g.record(), g.observation(0), g.observation(1), g.legal_actions())
    with pytest.raises(realms.IllegalActionError) as e:
        g.apply(bad)
    message = str(e.value)
    assert message and "Error" not in message and "{" not in message, message
    assert (g.record(), g.observation(0), g.observation(1), g.legal_actions()) == before


def test_an_action_that_is_not_legal_now_says_so():
    g = realms.Game(seed=11)
    illegal = next(i for i in range(g.action_space_size) if i not in set(g.legal_actions()))
    with pytest.raises(realms.IllegalActionError, match="not legal now"):
        g.apply(illegal)
    with pytest.raises(realms.IllegalActionError):
        g.apply(1.5)


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"game": "chess"}, "unknown game"),
        ({"format": "duel"}, "duel"),
        ({"format": "standard", "seats": 5}, "seats"),
        ({"sets": ["nope"]}, "nope"),
        ({"edition": "third"}, "third"),
        ({"config": {"seats": "two"}}, "configuration"),
        ({"game": "cosmique", "format": "hydra"}, "variants"),
        ({"game": "cosmique", "variant": "rainbow"}, "rainbow"),
        ({"seed": -4}, "seed"),
    ],
)
def test_bad_configurations_are_refused_in_words(kwargs, words):
    with pytest.raises(realms.ConfigError, match=words):
        realms.Game(**kwargs)


def test_a_game_is_defined_by_its_seed_and_actions():
    a = play_out(realms.Game(seed=21), seed=5)
    b = play_out(realms.Game(seed=21), seed=5)
    assert a.record() == b.record() and a.winners() == b.winners()
    c = play_out(realms.Game(seed=22), seed=5)
    assert c.record() != a.record()


def test_the_formats_and_their_seats_are_listed():
    f = realms.formats()
    assert f["standard"] == [2] and f["hydra"] == [4, 6] and f["emperor"] == [6]
    assert set(f) == {"standard", "free_for_all", "hunter", "hunter_first_blood", "hydra", "emperor", "raid"}


def test_results_at_the_end():
    g = play_out(realms.Game(seed=4))
    assert g.is_over and g.to_move is None
    assert g.legal_actions() == [] and not g.action_mask().any()
    (winner,) = g.winners()
    assert g.returns()[winner] == 1.0 and sum(g.returns()) == 1.0
    assert g.rewards()[winner] == 1.0 and g.rewards()[1 - winner] == -1.0
    with pytest.raises(realms.IllegalActionError, match="over"):
        g.apply("end")


@pytest.mark.parametrize("fmt, seats", STARREALMS_FORMATS)
def test_every_format_plays_to_its_end(fmt, seats):
    g = play_out(realms.Game(seed=2, format=fmt, seats=seats))
    assert g.num_seats == seats and g.config["format"] == fmt
    assert len(g.returns()) == seats


@pytest.mark.parametrize("variant", ["standard", "incolore", "pv30"])
def test_bataille_cosmique_plays_in_every_variant(variant):
    g = play_out(realms.Game("cosmique", seed=3, variant=variant), bot_name="heuristic")
    assert g.num_seats == 4 and g.config["variant"] == variant


def test_records_round_trip_in_python(tmp_path):
    g = play_out(realms.Game(seed=9, format="free_for_all", seats=3))
    back = realms.Game.from_record(g.record())
    assert back.record() == g.record()
    assert back.winners() == g.winners()
    assert realms.Game.from_record(json.loads(g.record())).is_over
    half = realms.Game(seed=9)
    for _ in range(20):
        half.apply(half.legal_actions()[0])
    resumed = realms.Game.from_record(half.record())
    assert resumed.observation(0) == half.observation(0)
    assert np.array_equal(resumed.observation_tensor(1), half.observation_tensor(1))


@pytest.mark.parametrize("game", ["starrealms", "cosmique"])
def test_records_replay_with_the_command_line(tmp_path, realms_cli, game):
    g = play_out(realms.Game(game, seed=13), bot_name="heuristic")
    path = tmp_path / "game.json"
    path.write_text(g.record())
    out = subprocess.run(
        [realms_cli, "replay", "--check", "--lang", "en", str(path)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "ok" in out and f"{g.actions_played} actions" in out, out
    if g.winners():
        assert f"p{g.winners()[0] + 1}" in out


def test_bad_records_are_refused_in_words():
    with pytest.raises(realms.RecordError, match="malformed"):
        realms.Game.from_record("{not json")
    g = realms.Game(seed=1)
    r = json.loads(g.record())
    r["actions"] = ["buy row 7"]
    with pytest.raises(realms.RecordError, match="action 0"):
        realms.Game.from_record(r)


def test_clones_are_independent():
    g = realms.Game(seed=6)
    c = g.clone()
    c.apply(c.legal_actions()[0])
    assert g.actions_played == 0 and c.actions_played == 1
    d = copy.deepcopy(c)
    assert d.record() == c.record()


def test_bots_by_name_choose_legal_actions_from_their_seat():
    names = realms.bot_names("starrealms")
    assert {"random", "heuristic", "medium", "hard"} <= set(names)
    g = realms.Game(seed=8)
    for name in ["random", "heuristic", "medium", "ismcts:50"]:
        bot = realms.Bot(name, seed=1)
        assert bot.choose(g) in g.legal_actions()
    with pytest.raises(realms.ConfigError, match="grandmaster"):
        realms.Bot("grandmaster")
    with pytest.raises(ValueError, match="does not decide now"):
        realms.Bot("random").choose(g, seat=1 - g.to_move)
    with pytest.raises(ValueError, match="plays cosmique"):
        realms.Bot("random", "cosmique").choose(g)


def test_a_bot_is_shown_the_other_seats_actions_and_only_theirs():
    g = realms.Game(seed=8)
    reader = realms.Bot("ismcts-read:20", seed=1)
    medium = realms.Bot("medium", seed=2)
    watcher = 1 - g.to_move
    for _ in range(40):
        if g.to_move != watcher:
            a = medium.choose(g)
            reader.watch(g, a, watcher)
            g.apply(a)
        else:
            g.apply(reader.choose(g))
    with pytest.raises(ValueError, match="is the one acting"):
        reader.watch(g, g.legal_actions()[0], g.to_move)
    with pytest.raises(ValueError, match="not legal now"):
        reader.watch(g, 10**6, 1 - g.to_move)
    with pytest.raises(ValueError, match="no seat 5"):
        reader.watch(g, g.legal_actions()[0], 5)


def test_the_same_bot_seed_gives_the_same_choices():
    def play(seed):
        g = realms.Game(seed=3)
        bot = realms.Bot("medium", seed=seed)
        for _ in range(40):
            g.apply(bot.choose(g))
        return g.record()

    assert play(1) == play(1)


def test_the_tensor_layout_is_versioned_and_described():
    assert realms.ENCODING_VERSION == 1
    g = realms.Game(seed=1)
    blocks = g.observation_blocks()
    assert blocks[0][1] == 0
    end = 0
    for name, offset, shape in blocks:
        assert offset == end, name
        end += int(np.prod(shape))
    assert end == g.observation_size
    names = [b[0] for b in blocks]
    assert {"row", "p0.hand", "p1.hand", "trade_deck"} <= set(names)
    t = g.observation_tensor(0)
    assert t.dtype == np.float32 and t.shape == (g.observation_size,)
    names = g.feature_names()
    assert len(names) == g.observation_size == len(set(names))
    me = g.to_move
    view = g.observation(me)
    hand = {n: v for n, v in zip(names, g.observation_tensor(me)) if n.startswith("p0.hand[")}
    for card in set(view["players"][me]["hand"]):
        assert hand[f"p0.hand[{card}]"] == view["players"][me]["hand"].count(card)
    assert realms.Game("cosmique", seed=1).feature_names()[0] == "global[my_decision]"
