"""Environments for learning: PettingZoo AEC environments of every format and seat count
(``starrealms_v0``, ``cosmique_v0``) and a Gymnasium single-agent environment against a built-in
bot (``gym_v0``, registered as ``realms/StarRealms-v0`` and ``realms/Cosmique-v0``).

They need the optional packages: ``pip install "./python[envs]"``.
"""

try:  # Gymnasium is optional: register the single-agent environments when it is there.
    import gymnasium as _gym

    for _id, _game in (("realms/StarRealms-v0", "starrealms"), ("realms/Cosmique-v0", "cosmique")):
        if _id not in _gym.registry:
            _gym.register(id=_id, entry_point="realms.envs.gym_v0:RealmsEnv", kwargs={"game": _game})
except ImportError:  # pragma: no cover
    pass
