"""Random legal play of every game configuration in tests/random_play.py."""

from __future__ import annotations

import pytest

from companion.games import REGISTRY
from companion.games.base import HOST, Game
from tests.random_play import CONFIGS, COVERAGE, Reached, check_non_interference, play, play_rules, reach



@pytest.mark.parametrize("game_id, config, picks", [(game_id, config, picks) for game_id, configs in CONFIGS.items()
                                                    for config in configs for picks in range(config.walks)],
                         ids=lambda value: value if isinstance(value, str) else getattr(value, "name", str(value)))
def test_random_legal_play_keeps_every_promise_of_the_kernel(game_id, config, picks):
    """Every walk of a game that ends reaches its outcome within the game's longest game."""
    game = REGISTRY[game_id]
    walk = play(game, config, picks)
    assert walk.steps, "the walk made no step"
    if game.longest_game is not None:
        assert game.outcome(walk.state) is not None


@pytest.mark.parametrize("game_id", sorted(COVERAGE))
def test_games_played_on_their_rules_meet_every_effect_their_game_names(game_id):
    """Chakart: every item, every way an item acts, every egg effect and every promotion path, with every
    piece on the board, captured or hidden by its owner after every action (its step check), every game
    to its end."""
    coverage = COVERAGE[game_id]
    reached = reach(REGISTRY[game_id], coverage)
    assert reached.games == coverage.games and reached.actions > 0
    assert reached.missing(coverage) == []
    assert reached.endings["unfinished"] == 0, reached.endings


@pytest.mark.parametrize("game_id", sorted(COVERAGE))
def test_a_seeded_walk_is_played_again_the_same(game_id):
    first, second = Reached(), Reached()
    assert play_rules(REGISTRY[game_id], COVERAGE[game_id], 5, first) == \
        play_rules(REGISTRY[game_id], COVERAGE[game_id], 5, second)
    assert first.reached == second.reached


def test_every_rayman_mode_is_walked_to_its_end():
    """Competitive, co-op and solo, the tournament and the Boss: the old Rayman harness's configurations."""
    walked = {(config.options.get("mode", "competitive"), config.options.get("tournament", "off"))
              for config in CONFIGS["rayman"]}
    assert walked >= {("competitive", "off"), ("coop", "off"), ("solo", "off"), ("competitive", "on")}
    assert len(CONFIGS["rayman"]) == 11


def test_every_registered_game_is_played_at_random():
    """A new game cannot skip the harness (games that exist only for tests excepted)."""
    shipped = {game_id for game_id, game in REGISTRY.items() if not game.setup.__module__.startswith("tests.")}
    assert shipped <= set(CONFIGS), sorted(shipped - set(CONFIGS))
    assert shipped >= {"dice", "arkade", "rayman", "amiiboxe", "chakart", "universalis"}


def leaky_game(view) -> Game:
    return Game(id="leaky", title="Leaky", min_seats=2, max_seats=2, options=(), setup=lambda o, s, r: {},
                apply=lambda state, seat, action, rng: (state, []), view=view)


SECRETS = {"phase": "play", "secret": {"deck": [3, 1]}, "private": {"1": {"pick": 2}, "2": {"pick": 5}},
           "public": "open"}


@pytest.mark.parametrize("view", [
    lambda state, seat: {"top": state["secret"]["deck"][0]},  # a one-digit card id: the old string test missed it
    lambda state, seat: {"others": [data["pick"] for owner, data in state["private"].items() if owner != str(seat)]},
    lambda state, seat: {"bottom": state["secret"]["deck"][-1] if seat == HOST else None},
], ids=["short-secret", "another-seats-pick", "host-reads-secret"])
def test_the_non_interference_check_catches_what_a_view_takes_from_the_others(view):
    with pytest.raises(AssertionError, match="changes with another's private part or the secret"):
        check_non_interference(leaky_game(view), SECRETS, [None, HOST, 1, 2])


def test_the_non_interference_check_lets_a_seat_see_its_own_part_and_the_public():
    fair = leaky_game(lambda state, seat: {"mine": (state.get("private") or {}).get(str(seat)),
                                           "public": state["public"], "deck": len(state["secret"]["deck"])})
    check_non_interference(fair, SECRETS, [None, HOST, 1, 2])
