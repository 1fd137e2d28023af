"""Star Realms as a PettingZoo AEC environment, in every format and seat count.

>>> from realms.envs import starrealms_v0
>>> env = starrealms_v0.env(format="free_for_all", seats=4)
>>> env.reset(seed=42)
>>> obs, reward, termination, truncation, info = env.last()
>>> sorted(obs)
['action_mask', 'observation']
"""

from __future__ import annotations

from typing import Any, Optional

from ._aec import RealmsAEC, wrap


class raw_env(RealmsAEC):
    """The unwrapped environment. Options: ``format``, ``seats``, ``edition``, ``sets``, ``config``
    (as :class:`realms.Game`)."""

    metadata = {**RealmsAEC.metadata, "name": "starrealms_v0"}

    def __init__(self, render_mode: Optional[str] = None, **options: Any) -> None:
        super().__init__("starrealms", render_mode=render_mode, **options)


def env(render_mode: Optional[str] = None, **options: Any):
    """The environment with PettingZoo's usual wrappers."""
    return wrap(raw_env(render_mode=render_mode, **options))
