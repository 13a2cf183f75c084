"""Where Rayman's secrets live: each player's cards, hand and discards in ``state["private"][str(seat)]``
(the kernel strips other seats' from every view), the rest public in ``state["players"]``.

The rules read a player as one dict: ``unpacked`` joins the private part back into each player of a
copy, and ``pack`` moves it out again after a move, leaving public counts behind (how many cards a
player holds and has discarded): a new private field is private by
being listed here, not by being hidden in a view."""

from __future__ import annotations

PRIVATE = ("cards", "hand", "discard", "played", "random_discards", "random_ranks")


def unpack(state: dict) -> dict:
    """Joins each player's private part (those ``state`` holds: a view holds its viewer's only) into them."""
    private = state.pop("private", None) or {}
    for player in state["players"]:
        player.update(private.get(str(player["seat"]), {}))
    return state


def joined(state: dict) -> dict:
    """The state as the rules read it (each player with their private part) without copying anything: for
    the checks and the candidates, which only read (a move's run unpacks the kernel's private copy)."""
    private = state.get("private") or {}
    whole = {key: value for key, value in state.items() if key != "private"}
    whole["players"] = [{**player, **private.get(str(player["seat"]), {})} for player in state["players"]]
    return whole


def pack(state: dict) -> dict:
    """Moves each player's private part out to ``state["private"]``, leaving public counts."""
    private = state.setdefault("private", {})
    for player in state["players"]:
        if "hand" not in player:
            continue  # already packed
        player["hand_size"], player["discard_size"] = len(player["hand"]), len(player["discard"])
        private[str(player["seat"])] = {key: player.pop(key) for key in PRIVATE}
    return state
