"""Random legal play of every game configuration in tests/random_play.py."""

from __future__ import annotations

import pytest

from companion.games import REGISTRY
from tests.random_play import CONFIGS, play

WALKS_PER_CONFIG = 4


@pytest.mark.parametrize("game_id, config", [(game_id, config) for game_id, configs in CONFIGS.items()
                                             for config in configs],
                         ids=lambda value: value if isinstance(value, str) else value.name)
@pytest.mark.parametrize("picks", range(WALKS_PER_CONFIG))
def test_random_legal_play_keeps_every_promise_of_the_kernel(game_id, config, picks):
    walk = play(REGISTRY[game_id], config, picks)
    assert walk.steps, "the walk made no step"
    if config.ends:
        assert REGISTRY[game_id].outcome(walk.state) is not None


def test_every_registered_game_is_played_at_random():
    """A new game cannot skip the harness (games that exist only for tests excepted)."""
    shipped = {game_id for game_id, game in REGISTRY.items() if not game.setup.__module__.startswith("tests.")}
    assert shipped <= set(CONFIGS), sorted(shipped - set(CONFIGS))
    assert shipped >= {"dice", "arkade", "rayman", "amiiboxe", "chakart", "universalis"}
