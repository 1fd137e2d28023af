"""Star Realms and Bataille Cosmique for researchers and bot writers.

An exact rules engine in Rust, deterministic from a seed: games with legal actions as dense indices
and as texts, each seat's observation as a dict and as a fixed-shape ``numpy.float32`` tensor, the
built-in bots, a batched environment stepping many games per call, PettingZoo and Gymnasium
environments (``realms.envs``), and Ray for arenas beyond one machine.

>>> import realms
>>> g = realms.Game("starrealms", seed=7)
>>> g.apply(g.legal_actions()[0])
>>> g.observation_tensor(g.to_move).shape == (g.observation_size,)
True
"""

from __future__ import annotations

import json
import secrets
from typing import Any, Dict, List, Optional, Sequence, Union

import numpy as np

from . import _realms
from ._realms import ConfigError, IllegalActionError, RecordError
from .runs import ArenaReport, SimulationReport, arena, simulate

__all__ = [
    "ENCODING_VERSION",
    "ArenaReport",
    "SimulationReport",
    "arena",
    "simulate",
    "GAMES",
    "Bot",
    "ConfigError",
    "Game",
    "IllegalActionError",
    "RecordError",
    "VecEnv",
    "bot_names",
    "formats",
]

try:
    from importlib.metadata import version as _version

    __version__ = _version("realms")
except Exception:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0"

#: The version of the observation tensors' layout: it changes whenever a layout does.
ENCODING_VERSION: int = _realms.ENCODING_VERSION

#: The games this package plays.
GAMES = ("starrealms", "cosmique")


def _config_json(config: Union[None, str, Dict[str, Any]]) -> Optional[str]:
    if config is None or isinstance(config, str):
        return config
    return json.dumps(config)


def _seed(seed: Optional[int]) -> int:
    if seed is None:
        return secrets.randbits(64)
    seed = int(seed)
    if not 0 <= seed < 2**64:
        raise ConfigError(f"a seed is an integer from 0 to 2**64 - 1, not {seed}")
    return seed


def formats() -> Dict[str, List[int]]:
    """Star Realms' formats and the seat counts each allows (``{"standard": [2], "hydra": [4, 6] ...}``)."""
    return {name: list(seats) for name, seats in _realms.formats()}


def bot_names(game: str = "starrealms") -> List[str]:
    """The names of the built-in bots of ``game`` (``ismcts:<iterations>`` takes a number)."""
    return _realms.bot_names(game)


class Game:
    """One game of Star Realms (``"starrealms"``) or Bataille Cosmique (``"cosmique"``).

    Seats are numbered from 0. A game is fully defined by its configuration, its seed and its
    actions: the same ones replay the same game, bit for bit.

    :param game: ``"starrealms"`` or ``"cosmique"``.
    :param seed: the seed (a random one when omitted; :attr:`seed` tells which).
    :param format: Star Realms format (``standard``, ``free_for_all``, ``hunter``, ``hydra``,
        ``emperor``, ``raid``, ...).
    :param seats: number of seats (the format's smallest by default).
    :param edition: Star Realms rules edition where the rulebooks differ.
    :param sets: Star Realms card sets (``["base"]`` by default).
    :param variant: Bataille Cosmique variant (``standard``, ``incolore``, ``pv30``).
    :param config: a whole configuration instead (a dict or JSON text, as in game records).
    """

    def __init__(
        self,
        game: str = "starrealms",
        seed: Optional[int] = None,
        *,
        format: Optional[str] = None,
        seats: Optional[int] = None,
        edition: Optional[str] = None,
        sets: Optional[Sequence[str]] = None,
        variant: Optional[str] = None,
        config: Union[None, str, Dict[str, Any]] = None,
    ) -> None:
        if isinstance(sets, str):
            sets = [s for s in sets.split(",") if s]
        self._g = _realms.Game(
            game,
            _seed(seed),
            config=_config_json(config),
            format=format,
            seats=seats,
            edition=edition,
            sets=list(sets) if sets is not None else None,
            variant=variant,
        )

    @classmethod
    def _wrap(cls, native: Any) -> "Game":
        g = cls.__new__(cls)
        g._g = native
        return g

    @classmethod
    def from_record(cls, record: Union[str, Dict[str, Any]]) -> "Game":
        """Replays a game record (JSON text or dict), as written by :meth:`record` or by
        ``realms`` on the command line."""
        text = record if isinstance(record, str) else json.dumps(record)
        return cls._wrap(_realms.Game.from_record(text))

    # -- what the game is -------------------------------------------------------------------
    @property
    def game(self) -> str:
        """``"starrealms"`` or ``"cosmique"``."""
        return self._g.game

    @property
    def num_seats(self) -> int:
        return self._g.num_seats

    @property
    def seed(self) -> int:
        return self._g.seed

    @property
    def config(self) -> Dict[str, Any]:
        """The whole configuration (as stored in records)."""
        return json.loads(self._g.config)

    @property
    def to_move(self) -> Optional[int]:
        """The seat that must decide now, or ``None`` once the game is over."""
        return self._g.to_move

    @property
    def is_over(self) -> bool:
        return self._g.is_over

    @property
    def observation_size(self) -> int:
        """Length of :meth:`observation_tensor`."""
        return self._g.observation_size

    @property
    def action_space_size(self) -> int:
        """Size of the dense action space (and of :meth:`action_mask`)."""
        return self._g.action_space_size

    @property
    def actions_played(self) -> int:
        return self._g.actions_played

    # -- actions ----------------------------------------------------------------------------
    def legal_actions(self) -> List[int]:
        """The legal actions as dense indices (in the order of :meth:`legal_action_texts`)."""
        return self._g.legal_actions()

    def legal_action_texts(self) -> List[str]:
        """The legal actions in text form (``play blob_fighter``, ``buy row 2``, ``end`` ...)."""
        return self._g.legal_action_texts()

    def action_text(self, index: int) -> str:
        """The text of an action index."""
        return self._g.action_text(int(index))

    def action_index(self, text: str) -> int:
        """The index of an action text (legal now or not)."""
        return self._g.action_index(text)

    def apply(self, action: Union[int, str, np.integer]) -> None:
        """Plays an action, given as an index or as text. An illegal one raises
        :class:`IllegalActionError` and changes nothing."""
        if isinstance(action, str):
            self._g.apply_text(action)
        elif isinstance(action, (int, np.integer)) and not isinstance(action, bool):
            self._g.apply_index(int(action))
        else:
            raise IllegalActionError(
                f"an action is an index or a text, not {type(action).__name__}"
            )

    def action_mask(self) -> np.ndarray:
        """1 at the index of each legal action, 0 elsewhere (``int8``, the whole space)."""
        return self._g.action_mask().view(np.int8)

    # -- results ----------------------------------------------------------------------------
    def returns(self) -> List[float]:
        """Per seat, once over: 1 for a winner, 0 for a loser (shared by teams)."""
        return self._g.returns()

    def rewards(self) -> List[float]:
        """Per seat: 1 for a winner, -1 for a loser, 0 after a draw or while the game goes on."""
        return self._g.rewards()

    def winners(self) -> List[int]:
        """The winning seats (empty while the game goes on and after a draw)."""
        return self._g.winners()

    # -- what a seat sees -------------------------------------------------------------------
    def observation(self, seat: int) -> Dict[str, Any]:
        """What ``seat`` sees, as a dict (the same content as the JSON protocol's view)."""
        return json.loads(self._g.observation_json(int(seat)))

    def observation_tensor(self, seat: int) -> np.ndarray:
        """What ``seat`` sees, as a ``float32`` vector of :attr:`observation_size` values, built
        from its observation only (layout: :meth:`observation_blocks`)."""
        return self._g.observation_tensor(int(seat))

    def observation_blocks(self) -> List[tuple]:
        """The tensor's parts: ``(name, offset, shape)`` in order."""
        return self._g.observation_blocks()

    def feature_names(self) -> List[str]:
        """One name per value of the tensor (``p0.hand[blob_fighter]``, ``global[my_turn]``,
        ``row[slot2:cutter]`` ...)."""
        return self._g.feature_names()

    # -- records and copies -----------------------------------------------------------------
    def record(self) -> str:
        """The game record (JSON): configuration, seed and every action in text form. The
        command ``realms replay`` reads it."""
        return self._g.record()

    def determinize(self, seat: int, seed: Optional[int] = None) -> "Game":
        """A game drawn among those ``seat`` cannot tell from this one: everything the seat sees
        (and remembers) is kept, the hidden cards (other hands, deck orders) are dealt anew. For
        search algorithms that sample what they cannot see. The copy has no record."""
        return Game._wrap(self._g.determinize(int(seat), _seed(seed)))

    def clone(self) -> "Game":
        """An independent copy (same state, same record)."""
        return Game._wrap(self._g.clone())

    __copy__ = clone

    def __deepcopy__(self, memo: Dict[int, Any]) -> "Game":
        return self.clone()

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"seat {self.to_move} to move"
        return f"<realms.Game {self.game}, {self.num_seats} seats, {self.actions_played} actions, {state}>"


class Bot:
    """A built-in bot (``random``, ``heuristic``, ``medium``, ``hard``, ``ismcts:<n>`` ...).

    It decides from the view of the seat to move only, never the hidden state; the same seed and
    the same views give the same decisions. ``watch`` shows it what the other seats do.
    """

    def __init__(self, name: str, game: str = "starrealms", seed: int = 0) -> None:
        self._b = _realms.NativeBot(name, game, _seed(seed))

    @property
    def name(self) -> str:
        return self._b.name

    @property
    def game(self) -> str:
        return self._b.game

    def choose(self, game: Game, seat: Optional[int] = None) -> int:
        """The action index this bot plays for the seat to move (``seat``, if given, must be
        that seat)."""
        return self._b.choose(game._g, seat)

    def watch(self, game: Game, action: int, seat: int) -> None:
        """Shows this bot, playing ``seat``, the action another seat (the one to move) is about
        to take in ``game``: call it before ``game.apply(action)``, for every action of the
        others, from the game's start. A bot that reads how its opponents play (``ismcts-read``)
        learns from it; the others ignore it. An action the table does not see is not shown."""
        self._b.watch(game._g, action, seat)

    def __repr__(self) -> str:
        return f"<realms.Bot {self.name} ({self.game})>"


class VecEnv:
    """``num_envs`` games stepped together inside Rust (the GIL released), for learning at speed.

    ``reset()`` returns ``(obs, mask)``; ``step(actions)`` returns ``(obs, mask, rewards, dones)``:
    ``obs`` is ``float32[num_envs, observation_size]``, ``mask`` ``int8[num_envs, action_space]``,
    each row the view of the seat to move in that game (with ``opponent`` set, the learner's
    seat, the bot playing the others). A finished game is replaced at once by the next one of
    its sequence; the row then shows the new game and ``dones`` is 1. ``rewards`` is the final
    reward (1 win, -1 loss, 0 draw) of the seat that acted (the learner against a bot) when its
    game ended, 0 otherwise. :attr:`seats` tells whose view each row is.

    The same seed gives the same games and, with the same actions, the same rows.
    """

    def __init__(
        self,
        num_envs: int,
        game: str = "starrealms",
        seed: Optional[int] = None,
        *,
        opponent: Optional[str] = None,
        format: Optional[str] = None,
        seats: Optional[int] = None,
        edition: Optional[str] = None,
        sets: Optional[Sequence[str]] = None,
        variant: Optional[str] = None,
        config: Union[None, str, Dict[str, Any]] = None,
    ) -> None:
        if isinstance(sets, str):
            sets = [s for s in sets.split(",") if s]
        self.seed = _seed(seed)
        self._v = _realms.NativeVecEnv(
            int(num_envs),
            game,
            self.seed,
            opponent=opponent,
            config=_config_json(config),
            format=format,
            seats=seats,
            edition=edition,
            sets=list(sets) if sets is not None else None,
            variant=variant,
        )
        self.game = game
        self.opponent = opponent
        self.seats = np.zeros(self.num_envs, dtype=np.uint8)

    @property
    def num_envs(self) -> int:
        return self._v.num_envs

    @property
    def observation_size(self) -> int:
        return self._v.observation_size

    @property
    def action_space_size(self) -> int:
        return self._v.action_space_size

    def sample_actions(self) -> np.ndarray:
        """One uniformly random legal action per game (``int64[num_envs]``), for random baselines
        and exploration; drawn from a stream of the environment's seed, so runs repeat."""
        return self._v.sample_actions()

    def game_seeds(self) -> List[int]:
        """The seed of the game each row shows now: ``realms.Game(game, seed=...)`` with the
        same actions is the same game."""
        return self._v.game_seeds()

    def reset(self, seed: Optional[int] = None):
        """New games everywhere (from ``seed``'s first games when given): ``(obs, mask)``."""
        if seed is not None:
            self.seed = _seed(seed)
            self._v.reseed(self.seed)
        obs, mask, self.seats = self._v.reset()
        return obs, mask.view(np.int8)

    def step(self, actions):
        """One action index per game: ``(obs, mask, rewards, dones)``. An illegal action raises
        :class:`IllegalActionError` naming the game, and no game changes."""
        actions = np.ascontiguousarray(actions, dtype=np.int64).reshape(-1)
        obs, mask, rewards, dones, self.seats = self._v.step(actions)
        return obs, mask.view(np.int8), rewards, dones.view(np.bool_)

    def __repr__(self) -> str:
        who = f"against {self.opponent}" if self.opponent else "self-play"
        return f"<realms.VecEnv {self.num_envs} × {self.game}, {who}>"
