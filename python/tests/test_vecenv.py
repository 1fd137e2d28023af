"""The batched environment: the same games as single ones, illegal actions refused whole."""

import numpy as np
import pytest

import realms


def first_legal(mask):
    return mask.argmax(axis=1)


def random_legal(mask, rng):
    return np.array([rng.choice(np.flatnonzero(row)) for row in mask])


@pytest.mark.parametrize("game", ["starrealms", "cosmique"])
def test_rows_are_the_views_of_single_games_played_alike(game):
    v = realms.VecEnv(4, game, seed=31)
    obs, mask = v.reset()
    assert obs.dtype == np.float32 and obs.shape == (4, v.observation_size)
    assert mask.dtype == np.int8 and mask.shape == (4, v.action_space_size)
    # The games of a batched environment are those of the recorded seeds.
    singles = [None] * 4
    rng = np.random.default_rng(0)
    ended = 0
    for step in range(1500):
        actions = random_legal(mask, rng)
        if step == 0:
            singles = [realms.Game(game, seed=s) for s in v.game_seeds()]
        before = [g.to_move for g in singles]
        obs, mask, rewards, dones = v.step(actions)
        for i, g in enumerate(singles):
            g.apply(int(actions[i]))
            if g.is_over:
                assert dones[i] and rewards[i] == g.rewards()[before[i]]
                ended += 1
                singles[i] = g = realms.Game(game, seed=v.game_seeds()[i])
            else:
                assert not dones[i] and rewards[i] == 0
            assert v.seats[i] == g.to_move
            assert np.array_equal(obs[i], g.observation_tensor(g.to_move))
            assert np.array_equal(mask[i], g.action_mask())
    assert ended > 0


def test_the_same_seed_gives_the_same_rows():
    def run(seed):
        v = realms.VecEnv(3, seed=seed, opponent="heuristic")
        obs, mask = v.reset()
        out = [obs]
        for _ in range(200):
            obs, mask, rewards, dones = v.step(first_legal(mask))
            out.append(obs)
        return np.stack(out)

    assert np.array_equal(run(5), run(5))
    assert not np.array_equal(run(5), run(6))


def test_reset_with_a_seed_starts_the_sequence_again():
    v = realms.VecEnv(2, seed=1)
    a, _ = v.reset(seed=9)
    _, mask = v.reset()
    v.step(first_legal(mask))
    b, _ = v.reset(seed=9)
    assert np.array_equal(a, b)


def test_against_a_bot_rows_are_the_learners():
    v = realms.VecEnv(4, seed=3, opponent="medium")
    obs, mask = v.reset()
    seen = set()
    total, games = 0.0, 0
    for _ in range(3000):
        seen.update(v.seats.tolist())
        assert mask.any(axis=1).all()
        obs, mask, rewards, dones = v.step(first_legal(mask))
        total += rewards.sum()
        games += int(dones.sum())
    assert seen == {0, 1}
    assert games > 0 and total < 0


def test_an_illegal_action_is_refused_and_no_game_changes():
    v = realms.VecEnv(3, seed=2)
    obs, mask = v.reset()
    actions = first_legal(mask)
    actions[2] = int(np.flatnonzero(mask[2] == 0)[0])
    with pytest.raises(realms.IllegalActionError, match="game 2"):
        v.step(actions)
    with pytest.raises(ValueError, match="one per game"):
        v.step(actions[:2])
    # Nothing moved: the legal first actions give what they would have given.
    w = realms.VecEnv(3, seed=2)
    w.reset()
    assert np.array_equal(v.step(first_legal(mask))[0], w.step(first_legal(mask))[0])


def test_bad_options_are_refused_in_words():
    with pytest.raises(realms.ConfigError, match="at least one"):
        realms.VecEnv(0)
    with pytest.raises(realms.ConfigError, match="grandmaster"):
        realms.VecEnv(2, opponent="grandmaster")
    with pytest.raises(realms.ConfigError, match="unknown game"):
        realms.VecEnv(2, "go")


def test_every_format_steps():
    for fmt, seats in [("free_for_all", 4), ("hydra", 4), ("emperor", 6), ("raid", 3)]:
        v = realms.VecEnv(2, seed=1, format=fmt, seats=seats)
        obs, mask = v.reset()
        for _ in range(300):
            obs, mask, rewards, dones = v.step(first_legal(mask))
        assert set(v.seats.tolist()) <= set(range(seats))


def test_sampled_actions_are_legal_and_repeat_with_the_seed():
    def run(seed):
        v = realms.VecEnv(8, seed=seed)
        obs, mask = v.reset()
        taken = []
        for _ in range(300):
            actions = v.sample_actions()
            assert (mask[np.arange(8), actions] == 1).all()
            taken.append(actions)
            obs, mask, rewards, dones = v.step(actions)
        return np.stack(taken)

    assert np.array_equal(run(3), run(3))
    assert not np.array_equal(run(3), run(4))
