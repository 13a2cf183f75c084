"""The verifier's per-game hook, apart from the verifier itself.

The games register their checks here when they are imported (with the package), and
`companion.verify` reads them. Kept out of `companion.verify` so that importing a game
never imports the verifier: ``python -m companion.verify`` runs that module as ``__main__``,
and a copy already imported with the package would be a second one (Python warns of it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass
class Step:
    """What one accepted action wrote: its draws, then its game events (``kind: "event"``).

    ``entries`` are the log entries of the events (with their ``i``); ``events`` the
    events themselves. ``options`` are the options of the game being played."""

    options: dict
    draws: list[dict]
    entries: list[dict]

    @property
    def events(self) -> list[dict]:
        return [entry.get("event") or {} for entry in self.entries]


@dataclass
class GameCheck:
    """How a game's events derive from its draws: the per-game hook of the verifier.

    ``step(step) -> [(entry number, problem)]``: called for every action that drew or
    produced events; it must report every event whose content should follow from
    the draws and does not (a changed die value, a forged event without its draw,
    a draw whose event was dropped). Return ``[]`` when everything agrees.

    ``shown(item, events) -> (entry number or None, problem) or None``: a result a phone recorded as displayed
    (``item``, in the shape that game's phone script records, see
    ``static/js/fairness.js``) against every game event of the log (``events``:
    ``[(entry number, event)]``); a problem names the difference.

    ``reset()``: called when a new game starts at the table (per-game counters).

    Register with ``register_game_check(game_id, factory)``: the factory makes a fresh
    `GameCheck` for each verification (it may keep state across steps, such as the
    expected roll number)."""

    step: Callable[[Step], list[tuple[int, str]]]
    shown: Callable[[dict, list[tuple[int, dict]]], tuple[int | None, str] | None] = lambda item, events: None
    reset: Callable[[], None] = lambda: None


GAME_CHECKS: dict[str, Callable[[], GameCheck]] = {}


def register_game_check(game_id: str, factory: Callable[[], GameCheck]) -> None:
    GAME_CHECKS[game_id] = factory
