"""One device for the table: a pair without a second phone plays the duel on one phone, or on the
host screen, as with a life-counter app. The players without a phone are names (the ``opponent``
option) with seat numbers no phone holds (`TABLE_PLAYERS`):

* one name: the table has one seat; that phone acts for whoever the duel waits on;
* two names: the table has no seat; the host screen acts for whoever the duel waits on (a TV that
  only displays the table holds no host token, and so never acts).

The device's view lists the acting player's legal actions, each marked ``"as"``; an action marked
so is that player's. The table never waits on a player without a phone: the duel's waits are the
device's (the phone's seat), or nobody's when the host screen plays.
"""

from __future__ import annotations

from typing import Any

from companion.games.base import HOST, N_, IllegalAction

TABLE_PLAYER = -1  # the seat number of the first player without a phone (the table's seats start at 1)
TABLE_PLAYERS = (-1, -2)


def seats(options: dict, table_seats: list[dict]) -> list[dict]:
    """The duel's players: the table's seats, then the players without a phone."""
    names = options.get("opponent") or []
    return table_seats + [{"id": seat, "name": name, "figures": []} for seat, name in zip(TABLE_PLAYERS, names)]


def seat_range(options: dict) -> tuple[int, int]:
    without = len(options.get("opponent") or [])
    return (2 - without, 2 - without)


def phone_of(state: dict) -> int | None:
    """The seat of the one phone, when the duel is played on one phone."""
    if TABLE_PLAYER not in state["order"]:
        return None
    return next((seat for seat in state["order"] if seat not in TABLE_PLAYERS), None)


def host_plays(state: dict) -> bool:
    """No player has a phone: the host screen plays the duel."""
    return all(seat in TABLE_PLAYERS for seat in state["order"])


def device_of(state: dict) -> Any:
    """Who acts for both players: the one phone's seat, HOST, or None (each player on their phone)."""
    return HOST if host_plays(state) else phone_of(state)


def acting(state: dict, waits: list[dict]) -> int:
    """Whom the duel waits on now: the one device plays for them."""
    return waits[0]["seat"] if waits else state["active"]


def wrap(hooks: dict, moves: dict) -> dict:
    """The game's hooks, with the one device acting for both players. The host screen may send every
    move (``host_actions``), but acts only when it plays the duel (``host_acts``): otherwise the
    kernel refuses it as it refuses any player's move from the host."""
    apply, view, legal_actions, waiting = hooks["apply"], hooks["view"], hooks["legal_actions"], hooks["waiting"]

    def as_player(state: dict, seat: Any, action: Any) -> tuple[Any, Any]:
        device = device_of(state) if isinstance(state, dict) else None
        if device is None or seat != device or not isinstance(action, dict):
            return seat, action
        player = action.get("as")
        if player not in TABLE_PLAYERS or player not in state["order"]:
            if seat == HOST:  # the host screen plays for a named player, always
                raise IllegalAction(N_("Say for which player the host screen acts."))
            return seat, action
        return player, {key: value for key, value in action.items() if key != "as"}

    def one_phone_apply(state: dict, seat: Any, action: Any, rng) -> tuple[dict, list[dict]]:
        return apply(state, *as_player(state, seat, action), rng)

    def one_phone_legal(state: dict, seat: Any) -> list[dict]:
        device = device_of(state)
        if device is None or seat != device:
            return legal_actions(state, seat)
        player = acting(state, waiting(state))
        found = legal_actions(state, player)
        return found if player == device else [{**action, "as": player} for action in found]

    def one_phone_waiting(state: dict) -> list[dict]:
        device = device_of(state)
        waits = waiting(state)
        if device is None:
            return waits
        if device == HOST:
            return []  # no phone to wait on: the host screen is at the table
        return [{**wait, "seat": device, "timed": False} for wait in waits[:1]]

    def one_phone_view(state: dict, seat: Any) -> dict:
        seen = view(state, seat)
        device = device_of(state)
        if device is None:
            return seen
        seen["one_phone"] = True
        seen["host_plays"] = device == HOST
        seen["acting"] = acting(state, waiting(state))
        seen["waiting"] = one_phone_waiting(state)
        if seat == device:
            seen["legal"] = one_phone_legal(state, seat)
        return seen

    return {**hooks, "apply": one_phone_apply, "legal_actions": one_phone_legal, "waiting": one_phone_waiting,
            "view": one_phone_view, "host_actions": frozenset(moves), "host_acts": host_plays}
