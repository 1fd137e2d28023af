"""Trains the NumPy PPO agent of ``realms.ppo`` against a bot level until it beats it, then
measures it against a stronger level and saves it.

    python python/examples/ppo_numpy.py --target 0.95 --save agent.npz
    python python/examples/ppo_numpy.py --load agent.npz --against medium   # play it back

It prints, every ``--eval-every`` iterations, the score over ``--eval-games`` evaluation games
(wins count 1, draws 1/2) and the time spent.
"""

from __future__ import annotations

import argparse
import time

import realms
from realms import ppo


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="starrealms")
    ap.add_argument("--opponent", default="random", help="the level trained against")
    ap.add_argument("--against", default="medium", help="the level measured at the end")
    ap.add_argument("--target", type=float, default=0.95, help="stop once the score against --opponent reaches it")
    ap.add_argument("--max-iterations", type=int, default=400)
    ap.add_argument("--num-envs", type=int, default=64)
    ap.add_argument("--steps", type=int, default=128)
    ap.add_argument("--eval-every", type=int, default=10)
    ap.add_argument("--eval-games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--save", help="write the trained policy here (.npz)")
    ap.add_argument("--load", help="evaluate this policy instead of training")
    args = ap.parse_args()

    if args.load:
        policy = ppo.Policy.load(args.load)
    else:
        policy = None
        start = time.perf_counter()
        done = 0
        while done < args.max_iterations:
            policy, history = ppo.train(
                args.game, args.opponent, iterations=args.eval_every, num_envs=args.num_envs,
                steps=args.steps, seed=args.seed + done, policy=policy,
            )
            done += args.eval_every
            score = ppo.evaluate(policy, args.opponent, games=args.eval_games, seed=10_000 + done)
            elapsed = time.perf_counter() - start
            samples = done * args.num_envs * args.steps
            print(f"iteration {done:4d}  {samples:>9,} steps  {elapsed:7.1f} s  "
                  f"score against {args.opponent}: {score:.3f}", flush=True)
            if score >= args.target:
                break
        if args.save:
            policy.save(args.save)
            print(f"saved to {args.save}")
    for level in dict.fromkeys([args.opponent, args.against]):
        score = ppo.evaluate(policy, level, games=args.eval_games, seed=99)
        print(f"score against {level}: {score:.3f} over {args.eval_games} games")
    # The policy plays single games too, from its seat's view.
    g = realms.Game(args.game, seed=5)
    bots = [ppo.PolicyBot(policy), realms.Bot(args.against, args.game, seed=1)]
    while not g.is_over:
        g.apply(bots[g.to_move].choose(g))
    print(f"one game against {args.against}: rewards {g.rewards()} (the policy is seat 0)")


if __name__ == "__main__":
    main()
