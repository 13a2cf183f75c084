"""The combat phase: attackers, then blockers, then the damage, all at once.

« il suffit de soustraire au total de PC du personnage attaqué le total de PF
du personnage attaquant » — each fight is simultaneous; « Un personnage ne peut
bloquer qu'un personnage. Un personnage peut être bloqué par plusieurs
personnages. » An attacker nobody blocks earns its controller its PF in
coins, paid in one sum, and costs the defender 1 coin (never below 0).
"""

from __future__ import annotations

from companion.games.base import N_, IllegalAction, Msg
from companion.games.universalis.cards import knock_out, overrides
from companion.games.universalis.rules import card_in_play, enforce, global_turn, other, player


def characters_of(state: dict, seat: int) -> list[dict]:
    return [c for c in state["in_play"] if c["kind"] == "character" and c["controller"] == seat]


def card_ids(raw, field: str) -> list[int]:
    if not isinstance(raw, list) or len(raw) > 40 or any(type(i) is not int for i in raw) or len(set(raw)) != len(raw):
        raise IllegalAction(N_("The action needs %(field)s: a list of different cards."), field=field)
    return raw


# Attackers -------------------------------------------------------------------
def check_attackers(state: dict, seat: int, action: dict, broken: list | None = None) -> None:
    attackers = card_ids(action.get("attackers"), Msg(N_("attackers")))
    if not attackers:
        raise IllegalAction(N_("Pick at least one attacker, or go on without attacking."))
    if seat != state["active"]:
        raise IllegalAction(N_("Only the player whose turn it is attacks."))
    enforce(action, broken, "first_global_turn", global_turn(state) > 1,
            N_("Nobody can attack during the first global turn."))
    mine = {c["id"] for c in characters_of(state, seat)}
    if not set(attackers) <= mine:
        raise IllegalAction(N_("Only your own Characters in play can attack."))


def declare_attackers(state: dict, seat: int, action: dict, rng) -> list[dict]:
    broken: list[str] = []
    check_attackers(state, seat, action, broken)
    state["combat"] = {"attackers": list(action["attackers"]), "blocks": {}}
    return overrides(state, seat, broken) + [{"type": "attack", "seat": seat, "attackers": action["attackers"]}]


# Blockers --------------------------------------------------------------------
def blocks_of(action: dict) -> dict[int, int]:
    raw = action.get("blocks")
    if not isinstance(raw, dict) or len(raw) > 40:
        raise IllegalAction(N_("The action needs blocks: for each blocker, the attacker it blocks."))
    try:
        blocks = {int(blocker): attacker for blocker, attacker in raw.items()}
    except ValueError:
        raise IllegalAction(N_("The action needs blocks: for each blocker, the attacker it blocks.")) from None
    if any(type(attacker) is not int for attacker in blocks.values()):
        raise IllegalAction(N_("The action needs blocks: for each blocker, the attacker it blocks."))
    return blocks


def check_blockers(state: dict, seat: int, action: dict, broken: list | None = None) -> None:
    blocks = blocks_of(action) if action.get("type") != "no_block" else {}
    if seat == state["active"]:
        raise IllegalAction(N_("The defender declares the blockers."))
    mine = {c["id"] for c in characters_of(state, seat)}
    if not set(blocks) <= mine:
        raise IllegalAction(N_("Only your own Characters in play can block."))
    if not set(blocks.values()) <= set(fighting_attackers(state)):
        raise IllegalAction(N_("A blocker must block one of the attackers."))


def declare_blockers(state: dict, seat: int, action: dict, rng) -> list[dict]:
    state["combat"]["blocks"] = {str(blocker): attacker for blocker, attacker in blocks_of(action).items()}
    events = [{"type": "blocks", "seat": seat, "blocks": state["combat"]["blocks"]}]
    if not needs_sharing(state):
        events += resolve(state, {})
    return events


def still_in_play(state: dict) -> set[int]:
    return {card["id"] for card in state["in_play"]}


def blockers_of(state: dict, attacker: int) -> list[int]:
    """The blockers of an attacker that are still in play (a card may leave play before the damage)."""
    present = still_in_play(state)
    return [int(b) for b, a in state["combat"]["blocks"].items() if a == attacker and int(b) in present]


def fighting_attackers(state: dict) -> list[int]:
    present = still_in_play(state)
    return [attacker for attacker in state["combat"]["attackers"] if attacker in present]


def needs_sharing(state: dict) -> bool:
    """With the ``split`` reading, an attacker blocked by several shares its PF: its controller says how."""
    return state["options"]["sharing"] == "split" and any(
        len(blockers_of(state, attacker)) > 1 for attacker in fighting_attackers(state))


# Sharing an attacker's PF among its blockers ------------------------------------
def shares_of(state: dict, action: dict) -> dict[int, dict[int, int]]:
    raw = action.get("shares")
    if not isinstance(raw, dict):
        raise IllegalAction(N_("Say how each attacker's PF is shared among its blockers."))
    shares = {}
    for attacker in fighting_attackers(state):
        blockers = blockers_of(state, attacker)
        if len(blockers) < 2:
            continue
        given = raw.get(str(attacker))
        # Exactly its blockers' ids as JSON writes them: "x", "1.0", "²" or "-1" name no blocker.
        if not isinstance(given, dict) or set(given) != {str(b) for b in blockers}:
            raise IllegalAction(N_("Say how each attacker's PF is shared among its blockers."))
        amounts = {int(b): v for b, v in given.items()}
        pf = card_in_play(state, attacker)["pf"]
        if any(type(v) is not int or v < 0 for v in amounts.values()) or sum(amounts.values()) != pf:
            raise IllegalAction(N_("The shares of %(name)s must add up to its %(pf)s PF."),
                                name=card_in_play(state, attacker)["name"], pf=pf)
        shares[attacker] = amounts
    return shares


def check_shares(state: dict, seat: int, action: dict) -> None:
    if seat != state["active"]:
        raise IllegalAction(N_("The attacker's controller shares its PF."))
    shares_of(state, action)


def share_damage(state: dict, seat: int, action: dict, rng) -> list[dict]:
    return resolve(state, shares_of(state, action))


# Damage ------------------------------------------------------------------------
def resolve(state: dict, shares: dict[int, dict[int, int]]) -> list[dict]:
    """Every fight at once: losses are computed first, then applied, then the KOs."""
    active = state["active"]
    defender = other(state, active)
    losses: dict[int, int] = {}
    passers = []
    for attacker_id in fighting_attackers(state):
        attacker = card_in_play(state, attacker_id)
        blockers = blockers_of(state, attacker_id)
        if not blockers:
            passers.append(attacker)
            continue
        losses[attacker_id] = losses.get(attacker_id, 0) + sum(card_in_play(state, b)["pf"] for b in blockers)
        for blocker in blockers:
            taken = shares[attacker_id][blocker] if attacker_id in shares else attacker["pf"]
            losses[blocker] = losses.get(blocker, 0) + taken
    fought = []
    for card_id, loss in losses.items():
        card = card_in_play(state, card_id)
        card["pc"] = max(0, card["pc"] - loss)
        fought.append(card)
    gained = sum(card["pf"] for card in passers)
    player(state, active)["coins"] += gained
    lost = min(len(passers), player(state, defender)["coins"])
    player(state, defender)["coins"] -= lost
    events = [{"type": "combat", "losses": {str(k): v for k, v in losses.items()},
               "passed": [c["id"] for c in passers], "coins_won": gained, "coins_lost": lost,
               "attacker": active, "defender": defender}]
    state["combat"]["done"] = True
    return events + knock_out(state, fought)
