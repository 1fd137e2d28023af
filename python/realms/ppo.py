"""A small masked-action PPO in NumPy: a baseline agent that needs nothing but NumPy.

The policy is a one-hidden-layer network over a seat's tensor. Actions are scored only where the
mask allows them: each action index has an embedding, and its logit is the embedding's dot product
with the hidden layer (the same as a full output layer restricted to the legal actions, at a
fraction of the cost over Star Realms' 5,550 indices). Training plays the batched environment
against a bot level, with generalised advantage estimation, PPO's clipped objective, an entropy
bonus and Adam. An optional potential-based shaping (the observer's authority or life minus the
others', as the tensor shows them) speeds early learning without changing which policies are best.

>>> from realms import ppo
>>> policy, history = ppo.train(iterations=2, num_envs=8, steps=32, seed=0)   # doctest: +SKIP
>>> policy.save("agent.npz"); ppo.Policy.load("agent.npz")                   # doctest: +SKIP

For larger networks and GPUs, ``python/examples/ppo_torch.py`` trains the same way with PyTorch and
Ray rollout workers.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Tuple

import numpy as np

import realms

FORMAT_VERSION = 1


def legal_lists(mask: np.ndarray) -> np.ndarray:
    """The legal indices of each row of a 2-D mask, padded with -1: ``int64[rows, most legal]``."""
    rows, cols = np.nonzero(mask)
    counts = np.bincount(rows, minlength=mask.shape[0])
    k = max(int(counts.max()), 1)
    out = np.full((mask.shape[0], k), -1, dtype=np.int64)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    out[rows, np.arange(len(rows)) - starts[rows]] = cols
    return out


class Policy:
    """The network: ``h = tanh(x·W1 + b1)``, value ``h·wv + bv``, logit of action ``a``
    ``h·E[a] + c[a]`` (legal actions only)."""

    def __init__(self, observation_size: int, action_space: int, hidden: int = 128, seed: int = 0,
                 game: str = "starrealms", options: Optional[dict] = None) -> None:
        rng = np.random.default_rng(seed)
        self.game = game
        self.options = dict(options or {})
        self.hidden = hidden
        scale = 1.0 / np.sqrt(observation_size)
        self.params: Dict[str, np.ndarray] = {
            "W1": (rng.standard_normal((observation_size, hidden)) * scale).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "E": (rng.standard_normal((action_space, hidden)) * 0.01).astype(np.float32),
            "c": np.zeros(action_space, np.float32),
            "wv": (rng.standard_normal(hidden) * 0.01).astype(np.float32),
            "bv": np.zeros(1, np.float32),
        }

    @property
    def observation_size(self) -> int:
        return self.params["W1"].shape[0]

    @property
    def action_space(self) -> int:
        return self.params["E"].shape[0]

    def forward(self, obs: np.ndarray, legal: np.ndarray):
        """Hidden layer, log-probabilities over each row's legal list (``-inf`` on padding),
        probabilities and values."""
        p = self.params
        h = np.tanh(obs @ p["W1"] + p["b1"])
        idx = np.where(legal >= 0, legal, 0)
        logits = np.einsum("bkh,bh->bk", p["E"][idx], h) + p["c"][idx]
        logits = np.where(legal >= 0, logits, -np.inf)
        top = logits.max(axis=1, keepdims=True)
        logp = logits - top - np.log(np.exp(logits - top).sum(axis=1, keepdims=True))
        probs = np.exp(logp)
        values = h @ p["wv"] + p["bv"][0]
        return h, idx, logp, probs, values

    def act(self, obs: np.ndarray, mask: np.ndarray, rng: Optional[np.random.Generator] = None,
            greedy: bool = False):
        """Actions (indices) for rows of observations and masks, with their list positions,
        log-probabilities and the values."""
        legal = legal_lists(mask)
        _, _, logp, probs, values = self.forward(obs, legal)
        if greedy or rng is None:
            pos = probs.argmax(axis=1)
        else:
            u = rng.random((len(obs), 1))
            pos = np.minimum((probs.cumsum(axis=1) < u).sum(axis=1), (legal >= 0).sum(axis=1) - 1)
        rows = np.arange(len(obs))
        return legal[rows, pos], pos, legal, logp[rows, pos], values

    def save(self, path) -> None:
        """Writes the policy (``.npz``): its parameters and what it plays."""
        meta = {
            "format": FORMAT_VERSION,
            "encoding_version": realms.ENCODING_VERSION,
            "game": self.game,
            "options": self.options,
            "hidden": self.hidden,
        }
        np.savez(path, __meta__=np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8), **self.params)

    @classmethod
    def load(cls, path) -> "Policy":
        """Reads a policy written by :meth:`save`; refuses one made for another tensor layout."""
        with np.load(path) as data:
            meta = json.loads(bytes(data["__meta__"]).decode())
            if meta.get("format") != FORMAT_VERSION:
                raise realms.ConfigError(f"{path}: not a policy file of this version")
            if meta["encoding_version"] != realms.ENCODING_VERSION:
                raise realms.ConfigError(
                    f"{path} was trained on tensors of version {meta['encoding_version']}, "
                    f"this package makes version {realms.ENCODING_VERSION}"
                )
            policy = cls.__new__(cls)
            policy.game, policy.options, policy.hidden = meta["game"], meta["options"], meta["hidden"]
            policy.params = {k: data[k].copy() for k in data.files if k != "__meta__"}
        return policy


class PolicyBot:
    """A trained policy as a player of :class:`realms.Game`, from the seat's view only."""

    def __init__(self, policy: Policy, greedy: bool = True, seed: int = 0) -> None:
        self.policy, self.greedy = policy, greedy
        self.rng = np.random.default_rng(seed)

    def choose(self, game: "realms.Game") -> int:
        seat = game.to_move
        obs = game.observation_tensor(seat)[None, :]
        mask = game.action_mask()[None, :]
        action, *_ = self.policy.act(obs, mask, self.rng, greedy=self.greedy)
        return int(action[0])


class _Adam:
    def __init__(self, params: Dict[str, np.ndarray], lr: float) -> None:
        self.lr, self.t = lr, 0
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}

    def step(self, params, grads, clip: float = 0.5) -> None:
        norm = np.sqrt(sum(float((g * g).sum()) for g in grads.values()))
        scale = min(1.0, clip / (norm + 1e-8))
        self.t += 1
        for k, g in grads.items():
            g = g * scale
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            mh = self.m[k] / (1 - 0.9**self.t)
            vh = self.v[k] / (1 - 0.999**self.t)
            params[k] -= (self.lr * mh / (np.sqrt(vh) + 1e-8)).astype(params[k].dtype)


def _grads(policy: Policy, obs, legal, pos, old_logp, adv, ret, clip, vf_coef, ent_coef):
    """The PPO loss's gradients for one minibatch, by hand."""
    p = policy.params
    b = len(obs)
    h, idx, logp_all, probs, values = policy.forward(obs, legal)
    rows = np.arange(b)
    logp = logp_all[rows, pos]
    ratio = np.exp(logp - old_logp)
    clipped = ((adv > 0) & (ratio > 1 + clip)) | ((adv < 0) & (ratio < 1 - clip))
    g_logp = np.where(clipped, 0.0, -adv * ratio) / b
    safe_logp = np.where(legal >= 0, logp_all, 0.0)
    entropy = -(probs * safe_logp).sum(axis=1)
    onehot = np.zeros_like(probs)
    onehot[rows, pos] = 1.0
    d_ent = -probs * (safe_logp + entropy[:, None])
    dlogits = g_logp[:, None] * (onehot - probs) - (ent_coef / b) * d_ent
    dlogits = np.where(legal >= 0, dlogits, 0.0).astype(np.float32)
    dv = (vf_coef * (values - ret) / b).astype(np.float32)
    grads = {}
    dE = np.zeros_like(p["E"])
    np.add.at(dE, idx, dlogits[:, :, None] * h[:, None, :])
    dc = np.zeros_like(p["c"])
    np.add.at(dc, idx, dlogits)
    grads["E"], grads["c"] = dE, dc
    grads["wv"] = h.T @ dv
    grads["bv"] = np.array([dv.sum()], np.float32)
    dh = np.einsum("bk,bkh->bh", dlogits, p["E"][idx]) + dv[:, None] * p["wv"][None, :]
    dz = dh * (1 - h * h)
    grads["W1"] = (obs.T @ dz).astype(np.float32)
    grads["b1"] = dz.sum(axis=0).astype(np.float32)
    stats = {
        "entropy": float(entropy.mean()),
        "value_loss": float(((values - ret) ** 2).mean()),
        "clipped": float(clipped.mean()),
    }
    return grads, stats


def _potential_indices(game: str, options: dict) -> Tuple[int, List[int], float]:
    """Where the observer's and the others' authority (or life) are in the tensor."""
    probe = realms.Game(game, seed=0, **options)
    names = probe.feature_names()
    key = "authority_div_50" if game == "starrealms" else "life_fraction"
    mine = names.index(f"p0.scalars[{key}]")
    others = [names.index(f"p{k}.scalars[{key}]") for k in range(1, probe.num_seats)]
    return mine, others, 1.0


def evaluate(policy: Policy, opponent: str = "random", games: int = 200, seed: int = 1,
             num_envs: int = 64, greedy: bool = False) -> float:
    """The policy's score against ``opponent`` over ``games`` games (wins, half the draws)."""
    v = realms.VecEnv(num_envs, policy.game, seed=seed, opponent=opponent, **policy.options)
    rng = np.random.default_rng(seed)
    obs, mask = v.reset()
    done_games, score = 0, 0.0
    while done_games < games:
        actions, *_ = policy.act(obs, mask, rng, greedy=greedy)
        obs, mask, rewards, dones = v.step(actions)
        for r in rewards[dones]:
            if done_games < games:
                score += 1.0 if r > 0 else 0.5 if r == 0 else 0.0
                done_games += 1
    return score / games


@dataclass
class History:
    """What training did, iteration by iteration."""

    iterations: List[Dict[str, float]] = field(default_factory=list)


def train(
    game: str = "starrealms",
    opponent: str = "random",
    iterations: int = 50,
    num_envs: int = 64,
    steps: int = 128,
    epochs: int = 4,
    minibatch: int = 1024,
    hidden: int = 128,
    lr: float = 1e-3,
    gamma: float = 0.995,
    lam: float = 0.95,
    clip: float = 0.2,
    vf_coef: float = 0.5,
    ent_coef: float = 0.01,
    shaping: float = 1.0,
    seed: int = 0,
    policy: Optional[Policy] = None,
    callback: Optional[Callable[[int, Dict[str, float]], None]] = None,
    **options,
) -> Tuple[Policy, History]:
    """Trains a policy against ``opponent`` bots; ``options`` are the game's (``format``, ``variant``
    ...). The same seed gives the same policy."""
    env = realms.VecEnv(num_envs, game, seed=seed, opponent=opponent, **options)
    policy = policy or Policy(env.observation_size, env.action_space_size, hidden, seed, game, options)
    opt = _Adam(policy.params, lr)
    rng = np.random.default_rng(seed)
    mine, others, _ = _potential_indices(game, options)
    phi = lambda o: o[:, mine] - o[:, others].mean(axis=1)  # noqa: E731
    obs, mask = env.reset()
    history = History()
    finished, wins = 0, 0.0
    for it in range(iterations):
        start = time.perf_counter()
        buf_obs, buf_legal, buf_pos, buf_logp, buf_val, buf_rew, buf_done = [], [], [], [], [], [], []
        for _ in range(steps):
            actions, pos, legal, logp, values = policy.act(obs, mask, rng)
            next_obs, next_mask, rewards, dones = env.step(actions)
            shaped = rewards.astype(np.float32).copy()
            if shaping:
                gain = gamma * phi(next_obs) - phi(obs)
                shaped += np.where(dones, -phi(obs), gain).astype(np.float32) * shaping
            buf_obs.append(obs)
            buf_legal.append(legal)
            buf_pos.append(pos)
            buf_logp.append(logp)
            buf_val.append(values)
            buf_rew.append(shaped)
            buf_done.append(dones)
            finished += int(dones.sum())
            wins += float((rewards[dones] > 0).sum())
            obs, mask = next_obs, next_mask
        _, _, _, _, last_val = policy.forward(obs, legal_lists(mask))
        # Generalised advantage estimation, per game.
        adv = np.zeros((steps, num_envs), np.float32)
        running = np.zeros(num_envs, np.float32)
        next_val = last_val
        for t in reversed(range(steps)):
            nonterminal = 1.0 - buf_done[t].astype(np.float32)
            delta = buf_rew[t] + gamma * next_val * nonterminal - buf_val[t]
            running = delta + gamma * lam * nonterminal * running
            adv[t] = running
            next_val = buf_val[t]
        ret = adv + np.stack(buf_val)
        k = max(l.shape[1] for l in buf_legal)
        legal_all = np.concatenate(
            [np.pad(l, ((0, 0), (0, k - l.shape[1])), constant_values=-1) for l in buf_legal]
        )
        obs_all = np.concatenate(buf_obs)
        pos_all = np.concatenate(buf_pos)
        logp_all = np.concatenate(buf_logp)
        adv_all = adv.reshape(-1)
        ret_all = ret.reshape(-1)
        adv_all = (adv_all - adv_all.mean()) / (adv_all.std() + 1e-8)
        n = len(obs_all)
        stats: Dict[str, float] = {}
        for _ in range(epochs):
            order = rng.permutation(n)
            for a in range(0, n, minibatch):
                mb = order[a : a + minibatch]
                grads, stats = _grads(policy, obs_all[mb], legal_all[mb], pos_all[mb], logp_all[mb],
                                      adv_all[mb], ret_all[mb], clip, vf_coef, ent_coef)
                opt.step(policy.params, grads)
        row = {
            "iteration": it + 1,
            "games": finished,
            "win_rate": wins / finished if finished else 0.0,
            "seconds": time.perf_counter() - start,
            **stats,
        }
        finished, wins = 0, 0.0
        history.iterations.append(row)
        if callback:
            callback(it + 1, row)
    return policy, history
