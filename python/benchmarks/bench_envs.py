"""Environment steps per second on one core, observations encoded, with uniformly random legal
actions: realms' batched environment, its single game, its PettingZoo environment, and
PettingZoo's own classic card environments driven the same way.

    python python/benchmarks/bench_envs.py              # everything, about a minute
    python python/benchmarks/bench_envs.py --only vecenv --num-envs 256 --seconds 10

Build the package in release mode first (``pip install ./python`` or ``maturin develop --release``):
a debug build is ten times slower. Figures go in docs/benchmarks.md with the command.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

import realms


def pick(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of a 2-D mask."""
    rows, cols = np.nonzero(mask)
    counts = np.bincount(rows, minlength=mask.shape[0])
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    offsets = starts + (rng.random(mask.shape[0]) * counts).astype(np.int64)
    return cols[offsets]


def bench_vecenv(game: str, num_envs: int, seconds: float, opponent=None, numpy_pick=False) -> dict:
    """Random legal actions drawn by the environment (``sample_actions``), or from the mask in
    numpy (``numpy_pick``: the cost of reading a wide mask in Python counts too)."""
    v = realms.VecEnv(num_envs, game, seed=1, opponent=opponent)
    rng = np.random.default_rng(1)
    obs, mask = v.reset()
    steps, games = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(20):
            actions = pick(mask, rng) if numpy_pick else v.sample_actions()
            obs, mask, rewards, dones = v.step(actions)
            games += int(dones.sum())
        steps += 20 * num_envs
    elapsed = time.perf_counter() - start
    return {"steps_per_s": steps / elapsed, "games_per_s": games / elapsed, "steps": steps}


def bench_game(game: str, seconds: float) -> dict:
    rng = np.random.default_rng(1)
    steps, games, seed = 0, 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        g = realms.Game(game, seed=seed)
        seed += 1
        while not g.is_over:
            g.observation_tensor(g.to_move)
            legal = g.legal_actions()
            g.apply(legal[int(rng.integers(len(legal)))])
            steps += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"steps_per_s": steps / elapsed, "games_per_s": games / elapsed, "steps": steps}


def bench_aec(make, seconds: float) -> dict:
    """A PettingZoo AEC environment: observe, pick from the mask, step."""
    env = make()
    rng = np.random.default_rng(1)
    steps, games, seed = 0, 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed)
        seed += 1
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"] if isinstance(obs, dict) else info["action_mask"]
            legal = np.flatnonzero(mask)
            env.step(int(legal[int(rng.integers(len(legal)))]))
            steps += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"steps_per_s": steps / elapsed, "games_per_s": games / elapsed, "steps": steps}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="time per measurement (default 5)")
    ap.add_argument("--num-envs", type=int, default=256, help="games of the batched environment")
    ap.add_argument(
        "--only",
        choices=["vecenv", "game", "pettingzoo", "classic"],
        help="one measurement only",
    )
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    results = {}

    def run(name, fn):
        r = fn()
        results[name] = r
        if not args.json:
            print(f"{name:48} {r['steps_per_s']:>12,.0f} steps/s {r['games_per_s']:>10,.1f} games/s", flush=True)

    if args.only in (None, "vecenv"):
        for game in ("starrealms", "cosmique"):
            run(f"realms.VecEnv({args.num_envs}, {game!r})", lambda: bench_vecenv(game, args.num_envs, args.seconds))
        run(
            f"realms.VecEnv({args.num_envs}, opponent='random')",
            lambda: bench_vecenv("starrealms", args.num_envs, args.seconds, opponent="random"),
        )
        run(
            f"realms.VecEnv({args.num_envs}), actions drawn in numpy",
            lambda: bench_vecenv("starrealms", args.num_envs, args.seconds, numpy_pick=True),
        )
    if args.only in (None, "game"):
        for game in ("starrealms", "cosmique"):
            run(f"realms.Game({game!r}) + observation_tensor", lambda: bench_game(game, args.seconds))
    if args.only in (None, "pettingzoo"):
        from realms.envs import cosmique_v0, starrealms_v0

        run("realms.envs.starrealms_v0 (PettingZoo AEC)", lambda: bench_aec(starrealms_v0.env, args.seconds))
        run("realms.envs.cosmique_v0 (PettingZoo AEC)", lambda: bench_aec(cosmique_v0.env, args.seconds))
    if args.only in (None, "classic"):
        try:
            from pettingzoo.classic import leduc_holdem_v4, texas_holdem_no_limit_v6, texas_holdem_v4
        except Exception as e:  # rlcard is an optional extra of PettingZoo
            print(f"PettingZoo classic card environments unavailable ({e}); pip install 'pettingzoo[classic]' pygame")
        else:
            for name, module in (
                ("pettingzoo.classic.leduc_holdem_v4", leduc_holdem_v4),
                ("pettingzoo.classic.texas_holdem_v4", texas_holdem_v4),
                ("pettingzoo.classic.texas_holdem_no_limit_v6", texas_holdem_no_limit_v6),
            ):
                run(name, lambda: bench_aec(module.env, args.seconds))
    if args.json:
        print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
