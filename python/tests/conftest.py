"""Shared helpers of the Python tests."""

import os
import pathlib
import shutil

import pytest

import realms

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def realms_cli():
    """The command-line program (built by `cargo build` in this checkout, or on the PATH)."""
    for candidate in (
        os.environ.get("REALMS_BIN"),
        ROOT / "target" / "release" / "realms",
        ROOT / "target" / "debug" / "realms",
        shutil.which("realms"),
    ):
        if candidate and pathlib.Path(candidate).is_file():
            return str(candidate)
    pytest.skip("the realms command is not built (cargo build -p realms)")


def play_out(game, bot_name="random", seed=1, limit=100_000):
    """Plays `game` to its end with one bot of each seat."""
    bots = [realms.Bot(bot_name, game.game, seed=seed + s) for s in range(game.num_seats)]
    for _ in range(limit):
        if game.is_over:
            return game
        game.apply(bots[game.to_move].choose(game))
    raise AssertionError("the game did not end")
