"""A Gymnasium single-agent environment: the learner plays one seat, built-in bots the others.

>>> import gymnasium as gym
>>> import realms.envs
>>> env = gym.make("realms/StarRealms-v0", opponent="medium")
>>> obs, info = env.reset(seed=1)
>>> obs["observation"].shape == env.observation_space["observation"].shape
True
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import gymnasium as gym
import numpy as np
from gymnasium import spaces

import realms

from ._aec import observation_space


class RealmsEnv(gym.Env):
    """The learner's seat against ``opponent`` bots (a built-in level: ``random``, ``heuristic``,
    ``medium``, ``hard`` ...). Observations are ``{"observation": float32[n], "action_mask":
    int8[actions]}`` (also in ``info["action_mask"]`` and :meth:`action_masks`). The reward is 1
    for a win, -1 for a loss, 0 for a draw, at the end.

    :param seat: the learner's seat (0 is ``p1``); ``None`` draws it at each reset.
    :param illegal_action: ``"lose"`` (default): an illegal action ends the episode with reward
        -1 and ``info["illegal_action"]``, the game unchanged; ``"raise"``: it raises
        :class:`realms.IllegalActionError`.
    :param options: the game's options, as :class:`realms.Game` (``format``, ``seats``, ``variant`` ...).
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game: str = "starrealms",
        opponent: str = "medium",
        seat: Optional[int] = None,
        illegal_action: str = "lose",
        render_mode: Optional[str] = None,
        **options: Any,
    ) -> None:
        if illegal_action not in ("lose", "raise"):
            raise realms.ConfigError('illegal_action is "lose" or "raise"')
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise realms.ConfigError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        self.render_mode = render_mode
        self._game_name = game
        self._options = options
        self.opponent = opponent
        self.illegal_action = illegal_action
        probe = realms.Game(game, seed=0, **options)
        realms.Bot(opponent, game)  # an unknown level fails here, in words
        if seat is not None and not 0 <= seat < probe.num_seats:
            raise realms.ConfigError(f"seat {seat} does not exist (0 to {probe.num_seats - 1})")
        self.fixed_seat = seat
        self.observation_space = observation_space(probe.observation_size, probe.action_space_size)
        self.action_space = spaces.Discrete(probe.action_space_size)
        self.game: Optional[realms.Game] = None
        self.seat = 0
        self._bots: list = []

    def _obs(self) -> Dict[str, np.ndarray]:
        g = self.game
        mask = g.action_mask() if g.to_move == self.seat else np.zeros(g.action_space_size, dtype=np.int8)
        return {"observation": g.observation_tensor(self.seat), "action_mask": mask}

    def _info(self) -> Dict[str, Any]:
        return {"seat": self.seat, "game_seed": self.game.seed, "action_mask": self.game.action_mask()}

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learner now, as booleans (for masked policies)."""
        return self.game.action_mask().astype(bool)

    def _bots_play(self) -> None:
        g = self.game
        while not g.is_over and g.to_move != self.seat:
            g.apply(self._bots[g.to_move].choose(g))

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**63))
        self.game = realms.Game(self._game_name, seed=game_seed, **self._options)
        n = self.game.num_seats
        self.seat = self.fixed_seat if self.fixed_seat is not None else int(self.np_random.integers(0, n))
        self._bots = [realms.Bot(self.opponent, self._game_name, seed=(game_seed + 1 + s) % 2**64) for s in range(n)]
        self._bots_play()
        while self.game.is_over:  # the bots finished the game before the learner's turn
            self.game = realms.Game(self._game_name, seed=int(self.np_random.integers(0, 2**63)), **self._options)
            self._bots_play()
        return self._obs(), self._info()

    def step(self, action: int):
        assert self.game is not None, "reset() first"
        try:
            self.game.apply(int(action))
        except realms.IllegalActionError:
            if self.illegal_action == "raise":
                raise
            info = self._info()
            info["illegal_action"] = True
            return self._obs(), -1.0, True, False, info
        self._bots_play()
        reward = float(self.game.rewards()[self.seat]) if self.game.is_over else 0.0
        return self._obs(), reward, self.game.is_over, False, self._info()

    def render(self) -> Optional[str]:
        if self.render_mode != "ansi" or self.game is None:
            return None
        g = self.game
        if g.is_over:
            return f"{g.game}: over, winners {g.winners()} (learner: seat {self.seat})"
        return f"{g.game}: seat {g.to_move} to move: " + ", ".join(g.legal_action_texts())
