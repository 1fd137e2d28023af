"""The PettingZoo AEC environment shared by both games."""

from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import realms


def observation_space(size: int, actions: int) -> spaces.Dict:
    """``{"observation": float32[size], "action_mask": int8[actions]}``."""
    return spaces.Dict(
        {
            "observation": spaces.Box(-np.inf, np.inf, shape=(size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(actions,), dtype=np.int8),
        }
    )


class RealmsAEC(AECEnv):
    """One game, every seat an agent (``p1``, ``p2`` ...), each observing only its own seat.

    Rewards come at the end: 1 for a winner, -1 for a loser, 0 for all after a draw (teams share
    theirs). ``reset(seed=s)`` plays the game of seed ``s`` (the same as ``realms.Game(seed=s)`` and
    the command line's). An illegal action raises :class:`realms.IllegalActionError` and changes
    nothing; sample from ``observation["action_mask"]``.
    """

    metadata: Dict[str, Any] = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: str, render_mode: Optional[str] = None, **options: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise realms.ConfigError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        self.render_mode = render_mode
        self._game_name = game
        self._options = options
        probe = realms.Game(game, seed=0, **options)
        self.possible_agents = [f"p{i + 1}" for i in range(probe.num_seats)]
        self._space = observation_space(probe.observation_size, probe.action_space_size)
        self._actions = spaces.Discrete(probe.action_space_size)
        self.observation_spaces = {a: self._space for a in self.possible_agents}
        self.action_spaces = {a: self._actions for a in self.possible_agents}
        self.game: Optional[realms.Game] = None
        self._seeds = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        assert self.game is not None, "reset() first"
        seat = self._seat(agent)
        mask = self.game.action_mask() if self.game.to_move == seat else np.zeros(
            self.game.action_space_size, dtype=np.int8
        )
        return {"observation": self.game.observation_tensor(seat), "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            game_seed = int(self._seeds.integers(0, 2**63))
        self.game = realms.Game(self._game_name, seed=game_seed, **self._options)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.to_move]

    def step(self, action: Optional[int]) -> None:
        assert self.game is not None, "reset() first"
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise realms.IllegalActionError(f"{agent} must act: None is only for finished agents")
        self._cumulative_rewards[agent] = 0.0
        self.game.apply(int(action))
        self.rewards = {a: 0.0 for a in self.agents}
        if self.game.is_over:
            for a, r in zip(self.possible_agents, self.game.rewards()):
                if a in self.rewards:
                    self.rewards[a] = float(r)
                    self.terminations[a] = True
            self.agent_selection = agent
        else:
            self.agent_selection = self.possible_agents[self.game.to_move]
        self._accumulate_rewards()

    def render(self) -> Optional[str]:
        if self.render_mode != "ansi" or self.game is None:
            return None
        g = self.game
        if g.is_over:
            return f"{g.game}: over, winners {[self.possible_agents[s] for s in g.winners()]}"
        return f"{g.game}: {self.possible_agents[g.to_move]} to move: " + ", ".join(g.legal_action_texts())

    def close(self) -> None:
        self.game = None


def wrap(env: RealmsAEC) -> AECEnv:
    """The usual PettingZoo wrappers: actions in range, order of calls enforced."""
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)
