"""The NumPy PPO baseline: a short seeded run beats its untrained self; policies save and load."""

import json

import numpy as np
import pytest

import realms
from realms import ppo


def test_a_short_seeded_run_beats_its_untrained_self():
    g = realms.Game(seed=0)
    untrained = ppo.Policy(g.observation_size, g.action_space_size, seed=3)
    before = ppo.evaluate(untrained, "random", games=100, seed=11)
    policy, history = ppo.train(iterations=10, num_envs=32, steps=64, seed=3)
    after = ppo.evaluate(policy, "random", games=100, seed=11)
    assert len(history.iterations) == 10 and history.iterations[-1]["games"] > 0
    assert after >= before + 0.25, (before, after)


def test_training_is_deterministic_from_its_seed():
    a, _ = ppo.train(iterations=2, num_envs=4, steps=16, seed=5, hidden=16)
    b, _ = ppo.train(iterations=2, num_envs=4, steps=16, seed=5, hidden=16)
    for k in a.params:
        assert np.array_equal(a.params[k], b.params[k]), k


def test_the_masked_policy_only_picks_legal_actions_and_its_gradients_are_right():
    g = realms.Game(seed=2)
    policy = ppo.Policy(g.observation_size, g.action_space_size, hidden=8, seed=1)
    rng = np.random.default_rng(0)
    obs, mask = g.observation_tensor(g.to_move)[None], g.action_mask()[None]
    for _ in range(20):
        action, *_ = policy.act(obs, mask, rng)
        assert mask[0, action[0]] == 1
    # Finite differences agree with the hand-written gradients of the loss.
    v = realms.VecEnv(4, seed=1, opponent="random")
    obs, mask = v.reset()
    actions, pos, legal, logp, values = policy.act(obs, mask, rng)
    adv = np.array([1.0, -0.5, 0.3, 2.0], np.float32)
    ret = np.array([0.2, -0.1, 0.0, 0.5], np.float32)
    old = logp - 0.05

    def loss():
        h, idx, lp, probs, val = policy.forward(obs, legal)
        ratio = np.exp(lp[np.arange(4), pos] - old)
        surr = np.minimum(ratio * adv, np.clip(ratio, 0.8, 1.2) * adv)
        ent = -(probs * np.where(legal >= 0, lp, 0)).sum(1)
        return -surr.mean() + 0.25 * ((val - ret) ** 2).mean() - 0.01 * ent.mean()

    grads, _ = ppo._grads(policy, obs, legal, pos, old, adv, ret, 0.2, 0.5, 0.01)
    for name, where in [("wv", (3,)), ("b1", (2,)), ("c", (int(legal[0, 0]),)), ("E", (int(legal[1, 0]), 5))]:
        p = policy.params[name]
        keep = float(p[where])
        eps = 1e-2
        p[where] = keep + eps
        up = loss()
        p[where] = keep - eps
        down = loss()
        p[where] = keep
        numeric = (up - down) / (2 * eps)
        assert abs(numeric - float(grads[name][where])) < 2e-3 + 0.05 * abs(numeric), (name, numeric, grads[name][where])


def test_a_policy_saves_loads_and_plays(tmp_path):
    policy, _ = ppo.train(iterations=1, num_envs=4, steps=16, seed=1, hidden=16)
    path = tmp_path / "agent.npz"
    policy.save(path)
    back = ppo.Policy.load(path)
    for k in policy.params:
        assert np.array_equal(policy.params[k], back.params[k])
    g = realms.Game(seed=4)
    bots = [ppo.PolicyBot(back), realms.Bot("random", seed=2)]
    while not g.is_over:
        g.apply(bots[g.to_move].choose(g))
    assert g.is_over


def test_a_policy_of_another_tensor_layout_is_refused(tmp_path):
    policy, _ = ppo.train(iterations=1, num_envs=2, steps=8, seed=1, hidden=8)
    path = tmp_path / "old.npz"
    policy.save(path)
    with np.load(path) as data:
        files = {k: data[k] for k in data.files}
    meta = json.loads(bytes(files["__meta__"]).decode())
    meta["encoding_version"] = 0
    files["__meta__"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
    np.savez(path, **files)
    with pytest.raises(realms.ConfigError, match="version 0"):
        ppo.Policy.load(path)
