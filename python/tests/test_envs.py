"""PettingZoo and Gymnasium environments, checked by those libraries' own tests."""

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import realms
import realms.envs
from realms.envs import cosmique_v0, starrealms_v0
from realms.envs.gym_v0 import RealmsEnv

FORMATS = [{"format": f, "seats": n} for f, counts in realms.formats().items() for n in counts] + [
    {"edition": "classic"},
    {"sets": ["base", "rise_of_empire"]},
]


@pytest.fixture(autouse=True)
def quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("options", FORMATS, ids=lambda o: "-".join(str(v) for v in o.values()) or "standard")
def test_pettingzoo_api_test_passes_for_every_format(options):
    env = starrealms_v0.env(**options)
    api_test(env, num_cycles=200)
    assert len(env.possible_agents) == options.get("seats", 2)


@pytest.mark.parametrize("variant", ["standard", "incolore", "pv30"])
def test_pettingzoo_api_test_passes_for_every_variant(variant):
    api_test(cosmique_v0.env(variant=variant), num_cycles=200)


@pytest.mark.parametrize("module", [starrealms_v0, cosmique_v0])
def test_pettingzoo_seed_test_passes(module):
    seed_test(module.env, num_cycles=200)


def test_a_pettingzoo_game_ends_with_the_rewards_of_the_engine():
    env = starrealms_v0.env()
    env.reset(seed=12)
    game = env.unwrapped.game
    bots = {a: realms.Bot("heuristic", seed=i) for i, a in enumerate(env.possible_agents)}
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        assert obs["action_mask"][bots[agent].choose(game)] == 1
        assert np.array_equal(obs["observation"], game.observation_tensor(seat))
        env.step(bots[agent].choose(game))
    assert game.is_over
    assert [totals[a] for a in env.possible_agents] == game.rewards()
    assert sorted(game.rewards()) == [-1.0, 1.0]


def test_the_agent_not_to_move_has_an_empty_mask():
    env = starrealms_v0.env()
    env.reset(seed=3)
    waiting = [a for a in env.agents if a != env.agent_selection][0]
    assert not env.observe(waiting)["action_mask"].any()
    assert env.observe(env.agent_selection)["action_mask"].any()


@pytest.mark.parametrize("game", ["starrealms", "cosmique"])
def test_gymnasium_check_env_passes(game):
    check_env(RealmsEnv(game=game, opponent="random"))


def test_gymnasium_make_against_medium_plays_whole_games():
    env = gym.make("realms/StarRealms-v0", opponent="medium")
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(0)
    results = []
    for _ in range(3000):
        legal = np.flatnonzero(obs["action_mask"])
        assert np.array_equal(legal, np.flatnonzero(info["action_mask"]))
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        if terminated:
            results.append(reward)
            obs, info = env.reset()
    assert results and set(results) <= {-1.0, 0.0, 1.0}
    # Random play loses to the medium bot.
    assert sum(results) < 0


def test_gymnasium_illegal_actions_lose_or_raise():
    env = RealmsEnv(opponent="random")
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.game.record()
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    assert env.game.record() == before
    strict = RealmsEnv(opponent="random", illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(realms.IllegalActionError):
        strict.step(illegal)


def test_gymnasium_options_are_checked_in_words():
    with pytest.raises(realms.ConfigError, match="grandmaster"):
        RealmsEnv(opponent="grandmaster")
    with pytest.raises(realms.ConfigError, match="seat 5"):
        RealmsEnv(seat=5)
    with pytest.raises(realms.ConfigError, match="illegal_action"):
        RealmsEnv(illegal_action="ignore")


def test_gymnasium_seats_the_learner_where_asked():
    env = RealmsEnv(opponent="heuristic", seat=1, format="free_for_all", seats=3)
    obs, info = env.reset(seed=2)
    assert info["seat"] == 1 and env.game.to_move == 1
