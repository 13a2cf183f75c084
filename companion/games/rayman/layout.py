"""Where Rayman's secrets live: each player's cards, hand and discards in ``state["private"][str(seat)]``
(the kernel strips other seats' from every view), the order of the extra cards' draft deck and of the
Boss's attack deck in the table's ``state["secret"]`` (stripped from every view), the rest public.

The rules read a player as one dict and a deck where it is used: ``unpack`` joins the private parts
back into each player of a copy and puts the decks back into ``draft`` and ``boss``, and ``pack``
moves them out again after a move, leaving public counts behind (how many cards a player holds and
has discarded, how many cards a deck holds): a new secret is secret by being listed here, not by
being hidden in a view."""

from __future__ import annotations

PRIVATE = ("cards", "hand", "discard", "played", "random_discards", "random_ranks")
# (public part, its deck's key in state["secret"]): the deck's order is the table's secret, its size public.
DECKS = (("draft", "draft_deck"), ("boss", "boss_deck"))


def unpack(state: dict) -> dict:
    """Joins each player's private part (those ``state`` holds: a view holds its viewer's only) into them,
    and each deck into its public part."""
    private = state.pop("private", None) or {}
    for player in state["players"]:
        player.update(private.get(str(player["seat"]), {}))
    secret = state.get("secret") or {}
    for part, key in DECKS:
        if state.get(part) is not None and key in secret:
            state[part]["deck"] = secret.pop(key)
            del state[part]["deck_size"]
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
    secret = state.setdefault("secret", {})
    for part, key in DECKS:
        holder = state.get(part)
        if holder is None:
            secret.pop(key, None)  # the race's draft is over, or a race without a Boss
        elif "deck" in holder:
            secret[key] = holder.pop("deck")
            holder["deck_size"] = len(secret[key])
    return state
