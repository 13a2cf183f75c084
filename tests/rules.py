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
        assert complaint in str(error.value), f"refused, but with: {error.value}"
        assert state == before


class ScriptedRng:
    """The table's randomness with chosen outcomes, for tests (OpenSpiel's
    chance outcomes): ``ScriptedRng(("roll of d6", 6), ("roll of d6", 1))``
    hands out 6 then 1 to draws whose purpose starts with "roll of d6", and
    fails on a draw whose purpose the script does not expect, or a result out
    of its range. Once the script is spent, draws come from ``fallback`` (a
    seeded `TableRng`) if one is given, else they fail too.

    It has `TableRng`'s interface and records its draws the same way."""

    def __init__(self, *script: tuple[str, object], fallback: TableRng | None = None):
        self.script = list(script)
        self.fallback = fallback
        self.draws: list[dict] = []
        self.next_n = 0

    @property
    def spent(self) -> bool:
        return not self.script

    def _scripted(self, purpose: str, kind: str, params: dict, secret: bool):
        if not self.script:
            return None
        prefix, result = self.script[0]
        if not purpose.startswith(prefix):
            raise AssertionError(f"draw {purpose!r}, but the script expects {prefix!r} next")
        self.script.pop(0)
        self.draws.append({"n": self.next_n, "purpose": purpose, "type": kind, **params, "pool": EMPTY_POOL,
                           "result": result, "secret": secret})
        self.next_n += 1
        return (result,)

    def _unscripted(self, purpose: str) -> TableRng:
        if self.fallback is None:
            raise AssertionError(f"draw {purpose!r} is not in the script")
        self.fallback.next_n = self.next_n
        return self.fallback

    def _from_fallback(self, draw):
        result = draw()
        self.draws.append(self.fallback.draws[-1])
        self.next_n = self.fallback.next_n
        return result

    def randint(self, lo: int, hi: int, purpose: str, secret: bool = False) -> int:
        scripted = self._scripted(purpose, "int", {"lo": lo, "hi": hi}, secret)
        if scripted is None:
            generator = self._unscripted(purpose)
            return self._from_fallback(lambda: generator.randint(lo, hi, purpose, secret))
        (result,) = scripted
        assert type(result) is int and lo <= result <= hi, f"{purpose}: {result!r} is not in [{lo}, {hi}]"
        return result

    def permutation(self, size: int, purpose: str, secret: bool = False) -> list[int]:
        scripted = self._scripted(purpose, "shuffle", {"size": size}, secret)
        if scripted is None:
            generator = self._unscripted(purpose)
            return self._from_fallback(lambda: generator.permutation(size, purpose, secret))
        (result,) = scripted
        assert sorted(result) == list(range(size)), f"{purpose}: {result!r} is not an order of {size} items"
        return list(result)

    def shuffle(self, items: list, purpose: str, secret: bool = False) -> list:
        return [items[i] for i in self.permutation(len(items), purpose, secret)]

    def choice(self, items: list, purpose: str, secret: bool = False):
        return items[self.randint(0, len(items) - 1, purpose, secret)]

    nonce = staticmethod(TableRng.nonce)
