"""What the pure rules tests of every game share: a seeded rng, `apply` that keeps
only the new state or also its events, and a refusal that must change nothing."""

from __future__ import annotations

import copy

import pytest

from companion.fairness import EMPTY_POOL, TableRng
from companion.games.base import Game, IllegalAction


class Rules:
    def __init__(self, game: Game, seed: str):
        self.game = game
        self.seed = seed

    def rng(self, n: int = 0) -> TableRng:
        return TableRng(seed=self.seed, pool=EMPTY_POOL, next_n=n)

    def events(self, state: dict, seat, action: dict, generator: TableRng | None = None) -> tuple[dict, list]:
        return self.game.apply(state, seat, action, generator or self.rng(1000))

    def act(self, state: dict, seat, action: dict, generator: TableRng | None = None) -> dict:
        return self.events(state, seat, action, generator)[0]

    def refused(self, state: dict, seat, action: dict, complaint: str, generator: TableRng | None = None) -> None:
        """The rules say no, with this complaint, and the state is untouched."""
        before = copy.deepcopy(state)
        with pytest.raises(IllegalAction) as error:
            self.game.apply(state, seat, action, generator or self.rng(1000))
        assert complaint in str(error.value)
        assert state == before
