"""One phone for the table: a pair without a second phone plays the duel on one phone, as with a
life-counter app. The table has one seat; the other player is a name (the ``opponent`` option) with
a seat number no phone holds (`TABLE_PLAYER`). The phone acts for whoever the duel waits on: its
view lists that player's legal actions, each marked ``"as"``, and an action marked so is that
player's. The table never waits on the other player: the duel's waits are the phone's.
"""

from __future__ import annotations

from typing import Any

TABLE_PLAYER = -1  # the seat number of the player without a phone (the table's seats start at 1)


def seats(options: dict, table_seats: list[dict]) -> list[dict]:
    """The duel's players: the table's seats, and the player without a phone when the table has one phone."""
    if not options.get("opponent"):
        return table_seats
    return table_seats + [{"id": TABLE_PLAYER, "name": options["opponent"][0], "figures": []}]


def seat_range(options: dict) -> tuple[int, int]:
    return (1, 1) if options.get("opponent") else (2, 2)


def phone_of(state: dict) -> int | None:
    """The seat of the one phone, when the duel is played on one phone."""
    if TABLE_PLAYER not in state["order"]:
        return None
    return next(seat for seat in state["order"] if seat != TABLE_PLAYER)


def acting(state: dict, waits: list[dict]) -> int:
    """Whom the duel waits on now: the one phone plays for them."""
    return waits[0]["seat"] if waits else state["active"]


def wrap(hooks: dict) -> dict:
    """The game's hooks, with the one phone acting for both players."""
    apply, view, legal_actions, waiting = hooks["apply"], hooks["view"], hooks["legal_actions"], hooks["waiting"]

    def as_player(state: dict, seat: Any, action: Any) -> tuple[Any, Any]:
        phone = phone_of(state) if isinstance(state, dict) else None
        if phone is None or seat != phone or not isinstance(action, dict) or action.get("as") != TABLE_PLAYER:
            return seat, action
        return TABLE_PLAYER, {key: value for key, value in action.items() if key != "as"}

    def one_phone_apply(state: dict, seat: Any, action: Any, rng) -> tuple[dict, list[dict]]:
        return apply(state, *as_player(state, seat, action), rng)

    def one_phone_legal(state: dict, seat: Any) -> list[dict]:
        phone = phone_of(state)
        if phone is None or seat != phone:
            return legal_actions(state, seat)
        player = acting(state, waiting(state))
        found = legal_actions(state, player)
        return found if player == phone else [{**action, "as": TABLE_PLAYER} for action in found]

    def one_phone_waiting(state: dict) -> list[dict]:
        phone = phone_of(state)
        waits = waiting(state)
        if phone is None:
            return waits
        return [{**wait, "seat": phone, "timed": False} for wait in waits[:1]]

    def one_phone_view(state: dict, seat: Any) -> dict:
        seen = view(state, seat)
        phone = phone_of(state)
        if phone is None:
            return seen
        seen["one_phone"] = True
        seen["acting"] = acting(state, waiting(state))
        seen["waiting"] = one_phone_waiting(state)
        if seat == phone:
            seen["legal"] = one_phone_legal(state, seat)
        return seen

    return {**hooks, "apply": one_phone_apply, "legal_actions": one_phone_legal, "waiting": one_phone_waiting,
            "view": one_phone_view}
