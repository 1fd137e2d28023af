"""Bataille Cosmique as a PettingZoo AEC environment (four planets), in every variant.

>>> from realms.envs import cosmique_v0
>>> env = cosmique_v0.env(variant="incolore")
>>> env.reset(seed=42)
>>> obs, reward, termination, truncation, info = env.last()
>>> sorted(obs)
['action_mask', 'observation']
"""

from __future__ import annotations

from typing import Any, Optional

from ._aec import RealmsAEC, wrap


class raw_env(RealmsAEC):
    """The unwrapped environment. Options: ``variant``, ``config``
    (as :class:`realms.Game`)."""

    metadata = {**RealmsAEC.metadata, "name": "cosmique_v0"}

    def __init__(self, render_mode: Optional[str] = None, **options: Any) -> None:
        super().__init__("cosmique", render_mode=render_mode, **options)


def env(render_mode: Optional[str] = None, **options: Any):
    """The environment with PettingZoo's usual wrappers."""
    return wrap(raw_env(render_mode=render_mode, **options))
