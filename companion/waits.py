"""Whom a table waits on, and until when: pure bookkeeping for `companion.tables`.

A game says whom it waits on (``Game.waiting``); the table remembers since when
each wait has lasted and, for a timed wait, its deadline: a wait that is still
there after an action keeps its deadline, a new one gets a fresh one. A wait is
known by its seat, its reason and its parameters.
"""

from __future__ import annotations

import json

from companion.games.base import Msg

DEFAULT_TIMEOUT = 60  # seconds a timed wait lasts, unless the table says otherwise
MIN_TIMEOUT, MAX_TIMEOUT = 2, 600


def key_of(wait: dict) -> str:
    return json.dumps([wait.get("seat"), wait.get("for"), wait.get("params") or {}], sort_keys=True)


def refresh(previous: list[dict], current: list[dict], now: float, timeout: float) -> list[dict]:
    """The waits of ``current`` (a game's ``waiting``), with their start and deadline carried over."""
    known = {key_of(wait): wait for wait in previous}
    refreshed = []
    for wait in current:
        before = known.get(key_of(wait))
        timed = bool(wait.get("timed"))
        params = wait.get("params") or {}
        entry = {"seat": wait.get("seat"), "for": wait.get("for"), "params": params,
                 # parameters that are msgids themselves: a stored wait is plain JSON
                 "msgids": sorted(name for name, value in params.items() if isinstance(value, Msg)),
                 "timed": timed, "since": before["since"] if before else round(now, 3),
                 "deadline": None, "expired": False}
        if timed:
            entry["deadline"] = before["deadline"] if before and before.get("deadline") else round(now + timeout, 3)
            entry["expired"] = bool(before and before.get("expired"))
        refreshed.append(entry)
    return refreshed


def next_deadline(waits: list[dict]) -> float | None:
    """When the table must next act by itself: the earliest deadline not yet passed on."""
    deadlines = [wait["deadline"] for wait in waits if wait["timed"] and not wait["expired"]]
    return min(deadlines) if deadlines else None


def first_due(waits: list[dict], now: float) -> dict | None:
    due = [wait for wait in waits if wait["timed"] and not wait["expired"] and wait["deadline"] <= now]
    return min(due, key=lambda wait: wait["deadline"]) if due else None


def mark_expired(waits: list[dict], expired: dict) -> list[dict]:
    """The waits after ``expired`` passed its deadline with nobody to resolve it: the host decides."""
    return [{**wait, "expired": True} if key_of(wait) == key_of(expired) else wait for wait in waits]


def params_of(wait: dict) -> dict:
    """A stored wait's parameters, with those that are msgids marked again."""
    return {name: Msg(value) if name in wait.get("msgids", ()) else value for name, value in wait["params"].items()}


def waits_on(waits: list[dict], seat: int) -> list[dict]:
    return [wait for wait in waits if wait["seat"] == seat]


def clean_timeout(raw) -> int:
    """The table's timeout option: whole seconds, from 2 to 600."""
    if raw is None:
        return DEFAULT_TIMEOUT
    if type(raw) is not int or not MIN_TIMEOUT <= raw <= MAX_TIMEOUT:
        raise ValueError
    return raw
