"""Arenas and simulations between the built-in bots, on this machine's cores or on a Ray cluster.

The games, their seeds and the statistics are those of the ``realms arena`` and ``realms simulate``
commands (the same Rust code): the same options and seed give the same report whether the games are
played by the command, by this module locally, or by Ray workers on many machines.

>>> import realms
>>> r = realms.arena(["heuristic", "random"], games=20, seed=1)          # doctest: +SKIP
>>> r = realms.arena(["heuristic", "random"], games=2000, ray=True)      # doctest: +SKIP
"""

from __future__ import annotations

import json
import os
import pathlib
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from . import _realms

Progress = Union[None, bool, Callable[[int, int], None]]


class _Bar:
    """Progress on stderr (when it is a terminal, or when asked), or through a callback
    ``progress(done, total)``."""

    def __init__(self, total: int, progress: Progress, unit: str) -> None:
        self.total, self.done, self.unit = total, 0, unit
        self.start = time.perf_counter()
        self.callback = progress if callable(progress) else None
        self.draw = progress is True or (progress is None and sys.stderr.isatty())

    def advance(self, n: int) -> None:
        self.done += n
        if self.callback:
            self.callback(self.done, self.total)
        if self.draw:
            elapsed = time.perf_counter() - self.start
            rate = self.done / elapsed if elapsed > 0 else 0.0
            left = (self.total - self.done) / rate if rate > 0 else 0.0
            width = 30
            filled = int(width * self.done / max(self.total, 1))
            sys.stderr.write(
                f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} {self.unit}"
                f" ({rate:,.0f}/s, {left:,.0f} s left)  "
            )
            sys.stderr.flush()

    def close(self) -> None:
        if self.draw:
            sys.stderr.write("\n")
            sys.stderr.flush()


def _pieces(total: int, size: int) -> List[Tuple[int, int]]:
    return [(a, min(a + size, total)) for a in range(0, total, size)]


def _play_piece(kind: str, spec: str, start: int, end: int, threads: int) -> str:
    """One piece of work, on any worker: the games ``start..end`` as JSON."""
    from realms import _realms as native

    play = native.arena_play if kind == "arena" else native.simulate_play
    return play(spec, start, end, threads)


def _ray_connect(ray_option: Union[bool, str]):
    try:
        import ray
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError('Ray is not installed: pip install "./python[ray]"') from e
    if not ray.is_initialized():
        # ray.init() joins the cluster of RAY_ADDRESS when it is set, or starts a local one.
        address = ray_option if isinstance(ray_option, str) else None
        ray.init(address=address, log_to_driver=False, include_dashboard=False)
    return ray


def _run(
    kind: str, spec: str, total: int, piece: int, workers: int, ray_option, progress: Progress, unit_size: int
) -> Tuple[List[str], int, float]:
    """Plays every piece, locally or on Ray, and returns the results in order."""
    pieces = _pieces(total, piece)
    bar = _Bar(total * unit_size, progress, "games")
    start = time.perf_counter()
    try:
        if ray_option:
            ray = _ray_connect(ray_option)
            workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
            remote = ray.remote(num_cpus=1)(_play_piece)
            refs = {remote.remote(kind, spec, a, b, 1): i for i, (a, b) in enumerate(pieces)}
            results: List[Optional[str]] = [None] * len(pieces)
            waiting = list(refs)
            while waiting:
                done, waiting = ray.wait(waiting, num_returns=1)
                for ref in done:
                    i = refs[ref]
                    results[i] = ray.get(ref)
                    bar.advance((pieces[i][1] - pieces[i][0]) * unit_size)
        else:
            results = []
            # Hand the native code one piece per thread at a time, for progress between them.
            step = piece * workers
            for a in range(0, total, step):
                b = min(a + step, total)
                results.append(_play_piece(kind, spec, a, b, workers))
                bar.advance((b - a) * unit_size)
    finally:
        bar.close()
    return [r for r in results if r is not None], workers, time.perf_counter() - start


@dataclass
class ArenaReport:
    """An arena's report: ``summary`` (the dict of ``summary.json``), ``text`` (the tables of
    ``realms arena``), ``games_csv`` and ``ratings_svg``."""

    summary: Dict[str, Any]
    text: str
    games_csv: str
    ratings_svg: str
    files: List[pathlib.Path] = field(default_factory=list)

    def __str__(self) -> str:
        return self.text


def arena(
    bots: Sequence[str],
    games: int = 100,
    formats: Sequence[str] = ("standard",),
    *,
    edition: str = "rise_of_empire",
    seed: int = 1,
    same_deals: bool = False,
    sets: Optional[Sequence[str]] = None,
    workers: Optional[int] = None,
    ray: Union[bool, str] = False,
    out: Union[None, str, os.PathLike] = None,
    lang: str = "en",
    progress: Progress = None,
) -> ArenaReport:
    """A round robin between bots, as ``realms arena``: every pair plays ``games`` games in each
    format (deals played from both sides), a win-rate matrix with 95% Wilson intervals and
    Bradley–Terry ratings with bootstrap intervals.

    :param same_deals: every pair plays the same deals (their seeds leave the bots' names out), so
        that two arenas of the same seed compare two bots against one opponent on the same cards.
    :param workers: threads on this machine (default: every core).
    :param ray: ``True`` plays the games on Ray (``ray.init()``: the cluster of ``RAY_ADDRESS``, or a
        local one), or a cluster address. Every worker needs this package installed.
    :param out: a directory to write ``games.csv``, ``summary.json`` and ``ratings.svg`` in.
    :param progress: ``True`` draws a bar on stderr (the default when it is a terminal), ``False``
        nothing, or a function called with ``(games done, games in all)``.
    """
    spec = json.dumps(
        {
            "bots": list(bots),
            "games": int(games),
            "formats": list(formats),
            "edition": edition,
            "seed": int(seed),
            "same_deals": bool(same_deals),
            "sets": list(sets) if sets is not None else None,
        }
    )
    workers = workers or os.cpu_count() or 1
    deals, total_games, piece = _realms.arena_check(spec, lang, workers)
    results, used, seconds = _run("arena", spec, deals, piece, workers, ray, progress, 2)
    games_json = "[" + ",".join(r[1:-1] for r in results if r != "[]") + "]"
    paths: List[pathlib.Path] = []
    if out is not None:
        directory = pathlib.Path(out)
        if directory.exists() and not directory.is_dir():
            raise _realms.ConfigError(f"{directory} is a file, not a directory")
        paths = [directory / "games.csv", directory / "summary.json", directory / "ratings.svg"]
    summary, text, csv, svg = _realms.arena_report(
        spec, games_json, used, seconds, lang, [str(p) for p in paths]
    )
    report = ArenaReport(json.loads(summary), text, csv, svg, paths)
    if out is not None:
        directory.mkdir(parents=True, exist_ok=True)
        for path, contents in zip(paths, (csv, summary, svg)):
            tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            tmp.write_text(contents)
            tmp.replace(path)
    return report


@dataclass
class SimulationReport:
    """A simulation's report: ``report`` (the dict of ``realms simulate --json``) and ``text``."""

    report: Dict[str, Any]
    text: str

    def __str__(self) -> str:
        return self.text


def simulate(
    players: Sequence[str],
    games: int = 1000,
    *,
    game: str = "starrealms",
    format: Optional[str] = None,
    edition: Optional[str] = None,
    sets: Optional[Sequence[str]] = None,
    variant: Optional[str] = None,
    seed: int = 1,
    workers: Optional[int] = None,
    ray: Union[bool, str] = False,
    lang: str = "en",
    progress: Progress = None,
) -> SimulationReport:
    """Many games between bots, one per seat, as ``realms simulate``: wins per seat with 95%
    intervals, the first player's rate, game lengths. Options as :func:`arena`."""
    spec = json.dumps(
        {
            "game": game,
            "players": list(players),
            "games": int(games),
            "seed": int(seed),
            "format": format,
            "edition": edition,
            "sets": list(sets) if sets is not None else None,
            "variant": variant,
        }
    )
    total = _realms.simulate_check(spec)
    workers = workers or os.cpu_count() or 1
    piece = max(64, min(4096, total // (8 * workers) // 64 * 64 or 64))
    tallies, used, seconds = _run("simulate", spec, total, piece, workers, ray, progress, 1)
    report, text = _realms.simulate_report(spec, tallies, used, seconds, lang)
    return SimulationReport(json.loads(report), text)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m realms.runs arena|simulate ...``: the commands' reports, on Ray with ``--ray``."""
    import argparse

    ap = argparse.ArgumentParser(prog="python -m realms.runs", description=main.__doc__)
    sub = ap.add_subparsers(dest="command", required=True)
    a = sub.add_parser("arena", help="a round robin between bots")
    a.add_argument("--bots", required=True, help="comma-separated, at least two")
    a.add_argument("--games", type=int, default=100)
    a.add_argument("--formats", default="standard")
    a.add_argument("--edition", default="rise_of_empire")
    a.add_argument("--out", help="directory for games.csv, summary.json, ratings.svg")
    a.add_argument("--same-deals", action="store_true", help="the same deals for every pair")
    s = sub.add_parser("simulate", help="many games between bots, one per seat")
    s.add_argument("--players", default="heuristic,random")
    s.add_argument("--games", type=int, default=1000)
    s.add_argument("--game", default="starrealms")
    s.add_argument("--format")
    s.add_argument("--variant")
    for p in (a, s):
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--ray", nargs="?", const=True, default=False, help="play on Ray (optionally: the cluster's address)")
        p.add_argument("--json", action="store_true")
        p.add_argument("--lang", default="en")
    args = ap.parse_args(argv)
    try:
        if args.command == "arena":
            r = arena(
                args.bots.split(","), args.games, args.formats.split(","), edition=args.edition,
                seed=args.seed, same_deals=args.same_deals, ray=args.ray, out=args.out,
                lang=args.lang,
            )
            print(json.dumps(r.summary, indent=2) if args.json else r.text)
        else:
            r = simulate(
                args.players.split(","), args.games, game=args.game, format=args.format,
                variant=args.variant, seed=args.seed, ray=args.ray, lang=args.lang,
            )
            print(json.dumps(r.report, indent=2) if args.json else r.text)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
