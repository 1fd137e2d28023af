"""Masked-action PPO with PyTorch against the built-in bots, rollouts on Ray workers.

Each Ray worker (an actor with one CPU) owns a batched environment (``realms.VecEnv``) against the
training level, receives the current weights, plays ``--steps`` steps of its games and returns them;
the learner computes advantages (GAE) and updates the network with PPO's clipped objective. Without
``--workers`` the rollouts run in this process. The policy scores only legal actions: each action
index has an embedding, dotted with the network's last hidden layer.

    pip install "./python[ray]" torch
    python python/examples/ppo_torch.py --workers 2 --target 0.95 --save agent.pt
    python python/examples/ppo_torch.py --load agent.pt --against medium

``RAY_ADDRESS`` set (or ``--ray-address``) runs the workers on that cluster; every node needs the
``realms`` package installed.
"""

from __future__ import annotations

import argparse
import time
from typing import Dict, List, Optional

import numpy as np
import torch
from torch import nn

import realms
from realms.ppo import legal_lists


class Net(nn.Module):
    def __init__(self, observation_size: int, action_space: int, hidden: int = 256) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(observation_size, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh()
        )
        self.value = nn.Linear(hidden, 1)
        self.embed = nn.Embedding(action_space, hidden)
        self.bias = nn.Embedding(action_space, 1)
        nn.init.normal_(self.embed.weight, std=0.01)
        nn.init.zeros_(self.bias.weight)

    def forward(self, obs: torch.Tensor, legal: torch.Tensor):
        """Log-probabilities over each row's legal list (padding: -inf) and values."""
        h = self.body(obs)
        idx = legal.clamp(min=0)
        logits = (self.embed(idx) * h[:, None, :]).sum(-1) + self.bias(idx).squeeze(-1)
        logits = logits.masked_fill(legal < 0, float("-inf"))
        return torch.log_softmax(logits, dim=-1), self.value(h).squeeze(-1)


def act(net: Net, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator, greedy: bool = False):
    legal = legal_lists(mask)
    with torch.no_grad():
        logp, values = net(torch.from_numpy(obs), torch.from_numpy(legal))
    probs = logp.exp().numpy()
    if greedy:
        pos = probs.argmax(1)
    else:
        u = rng.random((len(obs), 1))
        pos = np.minimum((probs.cumsum(1) < u).sum(1), (legal >= 0).sum(1) - 1)
    rows = np.arange(len(obs))
    return legal[rows, pos], pos, legal, logp.numpy()[rows, pos], values.numpy()


class Rollouts:
    """A batched environment against a bot level, played by the current weights."""

    def __init__(self, game: str, opponent: str, num_envs: int, seed: int, hidden: int, gamma: float) -> None:
        torch.set_num_threads(1)
        self.env = realms.VecEnv(num_envs, game, seed=seed, opponent=opponent)
        self.net = Net(self.env.observation_size, self.env.action_space_size, hidden)
        self.rng = np.random.default_rng(seed)
        self.gamma = gamma
        names = realms.Game(game, seed=0).feature_names()
        key = "authority_div_50" if game == "starrealms" else "life_fraction"
        self.mine = names.index(f"p0.scalars[{key}]")
        self.others = [i for i, n in enumerate(names) if n.endswith(f".scalars[{key}]") and not n.startswith("p0.")]
        self.obs, self.mask = self.env.reset()

    def phi(self, obs: np.ndarray) -> np.ndarray:
        return obs[:, self.mine] - obs[:, self.others].mean(1)

    def run(self, weights: Dict[str, np.ndarray], steps: int) -> Dict[str, np.ndarray]:
        self.net.load_state_dict({k: torch.from_numpy(v) for k, v in weights.items()})
        out: Dict[str, List[np.ndarray]] = {k: [] for k in ("obs", "legal", "pos", "logp", "val", "rew", "done")}
        wins = games = 0
        for _ in range(steps):
            actions, pos, legal, logp, values = act(self.net, self.obs, self.mask, self.rng)
            obs, mask, rewards, dones = self.env.step(actions)
            shaped = rewards + np.where(dones, -self.phi(self.obs), self.gamma * self.phi(obs) - self.phi(self.obs))
            for k, v in zip(out, (self.obs, legal, pos, logp, values, shaped.astype(np.float32), dones)):
                out[k].append(v)
            games += int(dones.sum())
            wins += int((rewards[dones] > 0).sum())
            self.obs, self.mask = obs, mask
        _, _, _, _, last = act(self.net, self.obs, self.mask, self.rng)
        k = max(l.shape[1] for l in out["legal"])
        out["legal"] = [np.pad(l, ((0, 0), (0, k - l.shape[1])), constant_values=-1) for l in out["legal"]]
        result = {key: np.stack(v) for key, v in out.items()}
        result["last"] = last
        result["games"], result["wins"] = np.array(games), np.array(wins)
        return result


def gae(r: Dict[str, np.ndarray], gamma: float, lam: float):
    steps = len(r["rew"])
    adv = np.zeros_like(r["rew"])
    running = np.zeros_like(r["rew"][0])
    next_val = r["last"]
    for t in reversed(range(steps)):
        nonterminal = 1.0 - r["done"][t].astype(np.float32)
        delta = r["rew"][t] + gamma * next_val * nonterminal - r["val"][t]
        running = delta + gamma * lam * nonterminal * running
        adv[t] = running
        next_val = r["val"][t]
    return adv, adv + r["val"]


def evaluate(net: Net, game: str, opponent: str, games: int, seed: int) -> float:
    env = realms.VecEnv(64, game, seed=seed, opponent=opponent)
    rng = np.random.default_rng(seed)
    obs, mask = env.reset()
    done = 0
    score = 0.0
    while done < games:
        actions, *_ = act(net, obs, mask, rng)
        obs, mask, rewards, dones = env.step(actions)
        for r in rewards[dones]:
            if done < games:
                score += 1.0 if r > 0 else 0.5 if r == 0 else 0.0
                done += 1
    return score / games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="starrealms")
    ap.add_argument("--opponent", default="random")
    ap.add_argument("--against", default="medium")
    ap.add_argument("--workers", type=int, default=0, help="Ray rollout workers (0: in this process)")
    ap.add_argument("--ray-address", help="a Ray cluster (default: RAY_ADDRESS, else a local one)")
    ap.add_argument("--num-envs", type=int, default=64, help="games per worker")
    ap.add_argument("--steps", type=int, default=128)
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--minibatch", type=int, default=2048)
    ap.add_argument("--gamma", type=float, default=0.995)
    ap.add_argument("--lam", type=float, default=0.95)
    ap.add_argument("--target", type=float, default=0.95)
    ap.add_argument("--max-iterations", type=int, default=500)
    ap.add_argument("--eval-every", type=int, default=10)
    ap.add_argument("--eval-games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--save")
    ap.add_argument("--load")
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    probe = realms.Game(args.game, seed=0)
    net = Net(probe.observation_size, probe.action_space_size, args.hidden)

    if args.load:
        saved = torch.load(args.load, weights_only=False)
        if saved["encoding_version"] != realms.ENCODING_VERSION:
            raise SystemExit(f"{args.load} was trained on tensors of version {saved['encoding_version']}")
        net.load_state_dict(saved["state_dict"])
    else:
        workers: list
        if args.workers:
            import ray

            if not ray.is_initialized():
                ray.init(address=args.ray_address, include_dashboard=False, log_to_driver=False)
            Remote = ray.remote(num_cpus=1)(Rollouts)
            workers = [
                Remote.remote(args.game, args.opponent, args.num_envs, args.seed * 1000 + i, args.hidden, args.gamma)
                for i in range(args.workers)
            ]
            collect = lambda w: ray.get([x.run.remote(w, args.steps) for x in workers])  # noqa: E731
        else:
            local = Rollouts(args.game, args.opponent, args.num_envs, args.seed, args.hidden, args.gamma)
            collect = lambda w: [local.run(w, args.steps)]  # noqa: E731
        opt = torch.optim.Adam(net.parameters(), lr=args.lr)
        start = time.perf_counter()
        samples = 0
        for it in range(1, args.max_iterations + 1):
            weights = {k: v.detach().numpy().copy() for k, v in net.state_dict().items()}
            batches = collect(weights)
            parts = []
            for r in batches:
                adv, ret = gae(r, args.gamma, args.lam)
                n = r["rew"].size
                k = r["legal"].shape[-1]
                parts.append((r["obs"].reshape(n, -1), r["legal"].reshape(n, k), r["pos"].reshape(n),
                              r["logp"].reshape(n), adv.reshape(n), ret.reshape(n)))
            k = max(p[1].shape[1] for p in parts)
            obs = torch.from_numpy(np.concatenate([p[0] for p in parts]))
            legal = torch.from_numpy(np.concatenate([np.pad(p[1], ((0, 0), (0, k - p[1].shape[1])), constant_values=-1) for p in parts]))
            pos = torch.from_numpy(np.concatenate([p[2] for p in parts]))
            old = torch.from_numpy(np.concatenate([p[3] for p in parts]))
            adv = torch.from_numpy(np.concatenate([p[4] for p in parts]))
            ret = torch.from_numpy(np.concatenate([p[5] for p in parts]))
            adv = (adv - adv.mean()) / (adv.std() + 1e-8)
            n = len(obs)
            samples += n
            for _ in range(args.epochs):
                for mb in torch.randperm(n).split(args.minibatch):
                    logp, values = net(obs[mb], legal[mb])
                    taken = logp.gather(1, pos[mb, None]).squeeze(1)
                    ratio = (taken - old[mb]).exp()
                    surr = torch.min(ratio * adv[mb], ratio.clamp(0.8, 1.2) * adv[mb])
                    entropy = -(logp.exp() * logp.masked_fill(legal[mb] < 0, 0.0)).sum(1)
                    loss = -surr.mean() + 0.5 * (values - ret[mb]).pow(2).mean() - 0.01 * entropy.mean()
                    opt.zero_grad()
                    loss.backward()
                    nn.utils.clip_grad_norm_(net.parameters(), 0.5)
                    opt.step()
            if it % args.eval_every == 0:
                score = evaluate(net, args.game, args.opponent, args.eval_games, 10_000 + it)
                print(f"iteration {it:4d}  {samples:>10,} steps  {time.perf_counter() - start:7.1f} s  "
                      f"score against {args.opponent}: {score:.3f}", flush=True)
                if score >= args.target:
                    break
        if args.save:
            torch.save({"state_dict": net.state_dict(), "encoding_version": realms.ENCODING_VERSION,
                        "game": args.game, "hidden": args.hidden}, args.save)
            print(f"saved to {args.save}")
    for level in dict.fromkeys([args.opponent, args.against]):
        print(f"score against {level}: {evaluate(net, args.game, level, args.eval_games, 99):.3f} over {args.eval_games} games")


if __name__ == "__main__":
    main()
