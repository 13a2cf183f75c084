"""The combat phase: attackers, then blockers, then the damage, all at once.

« il suffit de soustraire au total de PC du personnage attaqué le total de PF
du personnage attaquant » — each fight is simultaneous; « Un personnage ne peut
bloquer qu'un personnage. Un personnage peut être bloqué par plusieurs
personnages. » (a card may let one block several: it then fights each, and
deals its PF to each). An attacker nobody blocks earns its controller its PF in
coins, paid in one sum, and costs the defender 1 coin (never below 0); one whose
blockers all left play before the damage was blocked all the same: it earns nothing.
"""

from __future__ import annotations

from companion.games.base import N_, IllegalAction, Msg
from companion.games.universalis.cards import knock_out
from companion.games.universalis.rules import (
    card_in_play, enforce, global_turn, other, overriding_card, overrides, player,
)


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
    overriding_card(action)
    characters = {c["id"] for c in state["in_play"] if c["kind"] == "character"}
    if not set(attackers) <= characters:
        raise IllegalAction(N_("Only Characters in play can attack."))
    enforce(action, broken, "own_attack", set(attackers) <= {c["id"] for c in characters_of(state, seat)},
            N_("Only your own Characters in play can attack."))


def declare_attackers(state: dict, seat: int, action: dict, rng) -> list[dict]:
    """« JE T'ATTAQUE !!! » : from the first preparation too, which then ends."""
    broken: list[str] = []
    check_attackers(state, seat, action, broken)
    state["combat"] = {"attackers": list(action["attackers"]), "blocks": {}}
    names = [card_in_play(state, card_id)["name"] for card_id in action["attackers"]]
    return overrides(seat, broken, action) + [{"type": "attack", "seat": seat, "attackers": action["attackers"],
                                               "names": names}]


# Blockers --------------------------------------------------------------------
def blocks_of(action: dict) -> dict[int, int | list[int]]:
    """For each blocker, the attacker it blocks; a list of attackers only where a card lets a Character
    block several (the book's rule says one, `check_blockers`)."""
    raw = action.get("blocks")
    if not isinstance(raw, dict) or len(raw) > 40:
        raise IllegalAction(N_("The action needs blocks: for each blocker, the attacker it blocks."))
    try:
        blocks = {int(blocker): attacker for blocker, attacker in raw.items()}
    except ValueError:
        raise IllegalAction(N_("The action needs blocks: for each blocker, the attacker it blocks.")) from None
    for attacker in blocks.values():
        targets = attacker if isinstance(attacker, list) else [attacker]
        if not 0 < len(targets) <= 40 or any(type(t) is not int for t in targets) or len(set(targets)) != len(targets):
            raise IllegalAction(N_("The action needs blocks: for each blocker, the attacker it blocks."))
    return blocks


def targets_of(blocked: int | list[int]) -> list[int]:
    """The attackers one blocker blocks (one, as the book says, unless a card let it block more)."""
    return blocked if isinstance(blocked, list) else [blocked]


def check_blockers(state: dict, seat: int, action: dict, broken: list | None = None) -> None:
    blocks = blocks_of(action) if action.get("type") != "no_block" else {}
    if seat == state["active"]:
        raise IllegalAction(N_("The defender declares the blockers."))
    overriding_card(action)
    characters = {c["id"] for c in state["in_play"] if c["kind"] == "character"}
    if not set(blocks) <= characters - set(state["combat"]["attackers"]):
        raise IllegalAction(N_("Only Characters in play that do not attack can block."))
    enforce(action, broken, "own_block", set(blocks) <= {c["id"] for c in characters_of(state, seat)},
            N_("Only your own Characters in play can block."))
    if not {a for blocked in blocks.values() for a in targets_of(blocked)} <= set(fighting_attackers(state)):
        raise IllegalAction(N_("A blocker must block one of the attackers."))
    # « Un personnage ne peut bloquer qu'un personnage » : unless a card says otherwise
    enforce(action, broken, "one_block", all(len(targets_of(blocked)) == 1 for blocked in blocks.values()),
            N_("A Character can block only one Character."))


def declare_blockers(state: dict, seat: int, action: dict, rng) -> list[dict]:
    """« Un personnage ne peut bloquer qu'un personnage. Un personnage peut être bloqué par plusieurs »."""
    broken: list[str] = []
    check_blockers(state, seat, action, broken)
    blocks = blocks_of(action) if action.get("type") != "no_block" else {}
    # one attacker is stored as a number (as the book has it), several as their list
    state["combat"]["blocks"] = {str(blocker): targets_of(blocked)[0] if len(targets_of(blocked)) == 1
                                 else targets_of(blocked) for blocker, blocked in blocks.items()}
    state["combat"]["declared"] = True
    # The names as they are now: a blocker KO'd in this combat is gone when the history is read.
    named = set(blocks) | {a for blocked in blocks.values() for a in targets_of(blocked)}
    names = {str(c["id"]): c["name"] for c in state["in_play"] if c["id"] in named}
    return overrides(seat, broken, action) + [{"type": "blocks", "seat": seat, "blocks": state["combat"]["blocks"],
                                               "names": names}]


def still_in_play(state: dict) -> set[int]:
    return {card["id"] for card in state["in_play"]}


def blockers_of(state: dict, attacker: int) -> list[int]:
    """The blockers of an attacker that are still in play (a card may leave play before the damage)."""
    present = still_in_play(state)
    return [int(b) for b, blocked in state["combat"]["blocks"].items()
            if attacker in targets_of(blocked) and int(b) in present]


def was_blocked(state: dict, attacker: int) -> bool:
    """Whether the defender declared a blocker on this attacker, even one that has left play since."""
    return any(attacker in targets_of(blocked) for blocked in state["combat"]["blocks"].values())


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
    shares = shares_of(state, action)
    state["combat"]["shares"] = {str(a): {str(b): v for b, v in given.items()} for a, given in shares.items()}
    state["combat"]["shared"] = True
    return [{"type": "shared", "seat": seat, "shares": state["combat"]["shares"]}]


# Damage ------------------------------------------------------------------------
def shares_as_stored(state: dict) -> dict[int, dict[int, int]]:
    return {int(a): {int(b): v for b, v in given.items()} for a, given in state["combat"].get("shares", {}).items()}


def prepare_damage(state: dict) -> list[dict]:
    """What each card of the combat would lose, and the coins, before anything is applied: the
    players apply their cards' modifiers to it (« A chaque fois que Koopa Troopa devrait perdre des
    {PC}, il perd {PC}{PC} de moins ») before a KO is final."""
    shares = shares_as_stored(state)
    losses: dict[int, int] = {}
    passers = []
    for attacker_id in fighting_attackers(state):
        attacker = card_in_play(state, attacker_id)
        blockers = blockers_of(state, attacker_id)
        if not blockers:
            # « Si un personnage n'a pas été bloqué » : one whose blockers all left play was still blocked
            if not was_blocked(state, attacker_id):
                passers.append(attacker_id)
            continue
        losses[attacker_id] = losses.get(attacker_id, 0) + sum(card_in_play(state, b)["pf"] for b in blockers)
        for blocker in blockers:
            taken = shares[attacker_id][blocker] if attacker_id in shares else attacker["pf"]
            losses[blocker] = losses.get(blocker, 0) + taken
    # « l'adversaire gagne ses pièces en une seule fois » : one sum, which a card may change as a whole
    gained = sum(card_in_play(state, card_id)["pf"] for card_id in passers)
    state["combat"]["damage"] = {"losses": {str(k): v for k, v in losses.items()}, "passed": passers,
                                 "coins_won": gained, "coins_lost": len(passers)}
    return [{"type": "damage_ready", "seat": state["active"], **state["combat"]["damage"]}]


def would_knock_out(state: dict) -> bool:
    """Whether the damage as it stands would bring a card of the fight to 0 PC (a KO)."""
    return any(loss > 0 and card_in_play(state, int(card_id))["pc"] <= loss
               for card_id, loss in state["combat"]["damage"]["losses"].items()
               if int(card_id) in still_in_play(state))


def check_adjust(state: dict, seat: int, action: dict, broken: list | None = None) -> None:
    delta = action.get("delta")
    if type(delta) is not int or delta == 0 or abs(delta) > 999:
        raise IllegalAction(N_("Say by how much the damage changes (a whole number, not 0)."))
    overriding_card(action)
    if action.get("card") is None:
        if action.get("what") not in ("coins_won", "coins_lost"):
            raise IllegalAction(N_("Say which card's damage, or which coins, change."))
        return
    card = card_in_play(state, action["card"])
    if card["kind"] != "character":
        raise IllegalAction(N_("Only Characters have PC and PF."))
    enforce(action, broken, "combat_shape", str(card["id"]) in state["combat"]["damage"]["losses"],
            N_("%(card)s is not in this fight."), card=card["name"])


def adjust(state: dict, seat: int, action: dict, rng) -> list[dict]:
    """A card's modifier on the damage of one card, or on the coins, before the damage is dealt."""
    broken: list[str] = []
    check_adjust(state, seat, action, broken)
    damage = state["combat"]["damage"]
    if action.get("card") is None:
        damage[action["what"]] = max(0, damage[action["what"]] + action["delta"])
        return overrides(seat, broken, action) + [{"type": "adjusted", "seat": seat, "what": action["what"],
                                                   "now": damage[action["what"]]}]
    card = card_in_play(state, action["card"])
    key = str(card["id"])
    damage["losses"][key] = max(0, damage["losses"].get(key, 0) + action["delta"])
    return overrides(seat, broken, action) + [{"type": "adjusted", "seat": seat, "card": card["id"],
                                               "name": card["name"], "now": damage["losses"][key]}]


def check_deal(state: dict, seat: int, action: dict) -> None:
    if seat != state["active"]:
        raise IllegalAction(N_("The attacker's controller deals the damage, once both players applied their cards."))


def deal(state: dict) -> list[dict]:
    """Every fight at once: the losses as the players left them, then the KOs; PC never below 0."""
    active, damage = state["active"], state["combat"]["damage"]
    defender = other(state, active)
    fought, per_card = [], []
    for card_id, loss in damage["losses"].items():
        card = next((c for c in state["in_play"] if c["id"] == int(card_id)), None)
        if card is None:
            continue  # it left play before the damage
        card["pc"] = max(0, card["pc"] - loss)
        fought.append(card)
        per_card.append({"card": card["id"], "name": card["name"], "loss": loss, "pc": card["pc"]})
    player(state, active)["coins"] += damage["coins_won"]
    lost = min(damage["coins_lost"], player(state, defender)["coins"])
    player(state, defender)["coins"] -= lost
    passed = [{"card": c["id"], "name": c["name"]} for c in state["in_play"] if c["id"] in damage["passed"]]
    events = [{"type": "combat", "losses": dict(damage["losses"]), "cards": per_card, "passed": passed,
               "coins_won": damage["coins_won"], "coins_lost": lost, "attacker": active, "defender": defender}]
    state["combat"]["done"] = True
    return events + knock_out(state, fought)


def deal_damage(state: dict, seat: int, action: dict, rng) -> list[dict]:
    return deal(state)
