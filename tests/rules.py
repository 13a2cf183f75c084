"""What the pure rules tests of every game share: a seeded rng, `apply` that keeps
only the new state or also its events, and a refusal that must change nothing."""

from __future__ import annotations

import copy

import pytest

from companion.fairness import EMPTY_POOL, TableRng
from companion.games.base import Draw, DrawKind, Game, IllegalAction, declare_draws


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


# The tests' own draws (of the fairness tests, the scripted rng's tests): ``a_draw("roll")``.
declare_draws("tests", test_draw=DrawKind(("what",), "%(what)s"))


def a_draw(what: str) -> Draw:
    return Draw("test_draw", what=what)


def matches(expected: str | Draw, purpose: Draw) -> bool:
    if isinstance(expected, Draw):
        return purpose.kind == expected.kind and all(purpose.fields.get(name) == value
                                                     for name, value in expected.fields.items())
    return not expected or purpose.kind == expected


class ScriptedRng:
    """The table's randomness with chosen outcomes, for tests (OpenSpiel's
    chance outcomes): ``ScriptedRng(("die_roll", 6), ("die_roll", 1))``
    hands out 6 then 1 to draws of the kind "die_roll" ("": a draw of any kind; a `Draw`: a draw
    of its kind whose fields include its own, as ``Draw("redirect", item="bomb")``), and
    fails on a draw whose kind the script does not expect, or a result out
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

    def _scripted(self, purpose: Draw, kind: str, params: dict, secret: bool):
        if not self.script:
            return None
        expected, result = self.script[0]
        if not matches(expected, purpose):
            raise AssertionError(f"draw {purpose!r}, but the script expects {expected!r} next")
        self.script.pop(0)
        self.draws.append({"n": self.next_n, "purpose": purpose.as_json(), "type": kind, **params, "pool": EMPTY_POOL,
                           "result": result, "secret": secret})
        self.next_n += 1
        return (result,)

    def _unscripted(self, purpose: Draw) -> TableRng:
        if self.fallback is None:
            raise AssertionError(f"draw {purpose!r} is not in the script")
        self.fallback.next_n = self.next_n
        return self.fallback

    def _from_fallback(self, draw):
        result = draw()
        self.draws.append(self.fallback.draws[-1])
        self.next_n = self.fallback.next_n
        return result

    def randint(self, lo: int, hi: int, purpose: Draw, secret: bool = False) -> int:
        scripted = self._scripted(purpose, "int", {"lo": lo, "hi": hi}, secret)
        if scripted is None:
            generator = self._unscripted(purpose)
            return self._from_fallback(lambda: generator.randint(lo, hi, purpose, secret))
        (result,) = scripted
        assert type(result) is int and lo <= result <= hi, f"{purpose}: {result!r} is not in [{lo}, {hi}]"
        return result

    def permutation(self, size: int, purpose: Draw, secret: bool = False) -> list[int]:
        scripted = self._scripted(purpose, "shuffle", {"size": size}, secret)
        if scripted is None:
            generator = self._unscripted(purpose)
            return self._from_fallback(lambda: generator.permutation(size, purpose, secret))
        (result,) = scripted
        assert sorted(result) == list(range(size)), f"{purpose}: {result!r} is not an order of {size} items"
        return list(result)

    def shuffle(self, items: list, purpose: Draw, secret: bool = False) -> list:
        return [items[i] for i in self.permutation(len(items), purpose, secret)]

    def choice(self, items: list, purpose: Draw, secret: bool = False):
        return items[self.randint(0, len(items) - 1, purpose, secret)]

    nonce = staticmethod(TableRng.nonce)
