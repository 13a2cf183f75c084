"""Pure game rules, one module per game, and the registry the tables use."""

from companion.games import amiiboxe, arkade, chakart, dice, rayman, universalis  # noqa: F401  (registers the games)
from companion.games.base import REGISTRY, Draw, Game, IllegalAction

__all__ = ["REGISTRY", "Draw", "Game", "IllegalAction", "get_game"]


def get_game(game_id: str) -> Game | None:
    return REGISTRY.get(game_id)
