"""Hidden information stays hidden: a seat's dict and tensor come from its own view only."""

import numpy as np
import pytest

import realms
from conftest import play_out


def positions(game_name, seeds, steps, **options):
    """Positions along bot games, at every tenth step."""
    for seed in seeds:
        g = realms.Game(game_name, seed=seed, **options)
        bots = [realms.Bot("heuristic", game_name, seed=s) for s in range(g.num_seats)]
        for step in range(steps):
            if g.is_over:
                break
            if step % 10 == 0:
                yield g.clone()
            g.apply(bots[g.to_move].choose(g))


@pytest.mark.parametrize(
    "game_name, options",
    [("starrealms", {}), ("starrealms", {"format": "hydra", "seats": 4}), ("cosmique", {})],
)
def test_what_a_seat_cannot_see_does_not_change_its_dict_or_tensor(game_name, options):
    changed = 0
    checked = 0
    for g in positions(game_name, range(3), 200, **options):
        for seat in range(g.num_seats):
            view, tensor = g.observation(seat), g.observation_tensor(seat)
            for k in range(3):
                other = g.determinize(seat, seed=100 + k)
                # Everything the seat cannot see was dealt anew...
                if any(
                    other.observation(s) != g.observation(s) for s in range(g.num_seats) if s != seat
                ):
                    changed += 1
                # ...and its dict and tensor are the same.
                assert other.observation(seat) == view
                assert np.array_equal(other.observation_tensor(seat), tensor)
                checked += 1
    assert checked > 50
    assert changed > checked // 2, f"hidden cards changed in only {changed} of {checked} samples"


def test_a_seat_sees_its_hand_and_not_the_others():
    g = realms.Game(seed=5)
    me = g.to_move
    view = g.observation(me)
    assert view["players"][me]["hand"] is not None
    assert view["players"][1 - me]["hand"] is None
    assert "rng" not in view


def test_a_sampled_game_has_no_record():
    g = realms.Game(seed=5)
    with pytest.raises(realms.RecordError, match="sampled"):
        g.determinize(0, seed=1).record()


def test_a_finished_game_still_shows_views():
    g = play_out(realms.Game("cosmique", seed=2), bot_name="heuristic")
    for seat in range(4):
        assert g.observation_tensor(seat).shape == (g.observation_size,)
