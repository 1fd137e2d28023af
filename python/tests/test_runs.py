"""Arenas and simulations: the same reports as the command line's, locally and on Ray."""

import json
import subprocess

import pytest

import realms

RUN_FIELDS = ("threads", "seconds", "games_per_second")


def same(a, b):
    drop = lambda d: {k: v for k, v in d.items() if k not in RUN_FIELDS}  # noqa: E731
    return drop(a) == drop(b)


def test_an_arena_reports_as_the_command_line(tmp_path, realms_cli):
    local = realms.arena(["heuristic", "random", "easy"], games=10, formats=["standard", "hydra"], seed=4, out=tmp_path / "py")
    out = subprocess.run(
        [realms_cli, "arena", "--bots", "heuristic,random,easy", "--games", "10", "--formats", "standard,hydra",
         "--seed", "4", "--json", "--out", str(tmp_path / "cli")],
        capture_output=True, text=True, check=True,
    ).stdout
    assert same(local.summary, json.loads(out))
    assert (tmp_path / "py" / "games.csv").read_text() == (tmp_path / "cli" / "games.csv").read_text()
    assert json.loads((tmp_path / "py" / "summary.json").read_text())["games"] == 60
    assert (tmp_path / "py" / "ratings.svg").read_text().startswith("<svg")
    assert "Bradley" in local.text and str(local) == local.text


def test_an_arena_of_the_same_deals_plays_the_command_lines_cards(realms_cli, tmp_path):
    one = realms.arena(["heuristic", "random"], games=6, seed=4, same_deals=True)
    other = realms.arena(["easy", "random"], games=6, seed=4, same_deals=True)
    out = subprocess.run(
        [realms_cli, "arena", "--bots", "heuristic,random", "--games", "6", "--seed", "4", "--same-deals", "--json", "--out", str(tmp_path)],
        capture_output=True, text=True, check=True,
    ).stdout
    assert same(one.summary, json.loads(out)) and one.summary["same_deals"] is True
    seeds = lambda r: [line.split(",")[5] for line in r.games_csv.splitlines()[1:]]  # noqa: E731
    assert seeds(one) == seeds(other)
    assert seeds(one) != seeds(realms.arena(["heuristic", "random"], games=6, seed=4))
    assert "the same deals for every pair" in one.text


def test_a_simulation_reports_as_the_command_line(realms_cli):
    local = realms.simulate(["heuristic", "random", "random"], games=200, seed=8)
    out = subprocess.run(
        [realms_cli, "simulate", "--players", "heuristic,random,random", "--games", "200", "--seed", "8", "--json"],
        capture_output=True, text=True, check=True,
    ).stdout
    assert same(local.report, json.loads(out))
    cosmique = realms.simulate(["heuristic", "random", "random", "random"], games=50, game="cosmique", variant="pv30", seed=1)
    assert cosmique.report["game"] == "cosmique pv30" and cosmique.report["games"] == 50


def test_reports_speak_french_too():
    r = realms.simulate(["heuristic", "random"], games=20, lang="fr")
    assert "parties" in r.text


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: realms.arena(["heuristic"], games=2), "at least 2"),
        (lambda: realms.arena(["heuristic", "heuristic"], games=2), "twice"),
        (lambda: realms.arena(["heuristic", "grandmaster"], games=2), "grandmaster"),
        (lambda: realms.arena(["heuristic", "random"], games=0), "game"),
        (lambda: realms.arena(["heuristic", "random"], formats=["chess"]), "chess"),
        (lambda: realms.simulate(["heuristic", "random"], games=0), "at least one"),
        (lambda: realms.simulate(["heuristic"] * 7), "seat"),
        (lambda: realms.simulate(["random"] * 3, game="cosmique"), "4 players"),
        (lambda: realms.simulate(["random", "random"], lang="klingon"), "language"),
    ],
)
def test_bad_options_are_refused_in_words(call, words):
    with pytest.raises(realms.ConfigError, match=words):
        call()


def test_progress_is_reported():
    seen = []
    realms.simulate(["random", "random"], games=300, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (300, 300) and len(seen) >= 1
    assert all(a <= b for (a, _), (b, _) in zip(seen, seen[1:]))


@pytest.fixture(scope="module")
def local_ray():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield ray
    ray.shutdown()


def test_on_ray_an_arena_and_a_simulation_give_the_local_reports(local_ray):
    progress = []
    on_ray = realms.arena(["heuristic", "random", "medium"], games=12, seed=5, ray=True,
                          progress=lambda d, n: progress.append((d, n)))
    local = realms.arena(["heuristic", "random", "medium"], games=12, seed=5)
    assert same(on_ray.summary, local.summary) and on_ray.games_csv == local.games_csv
    assert progress[-1] == (36, 36) and len(progress) > 1
    assert on_ray.summary["threads"] == 2
    sim_ray = realms.simulate(["heuristic", "random"], games=1000, seed=3, ray=True)
    sim = realms.simulate(["heuristic", "random"], games=1000, seed=3)
    assert same(sim_ray.report, sim.report)
