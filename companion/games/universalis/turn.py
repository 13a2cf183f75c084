"""The turn's phases, as the book lists them, and what each does by itself:

1. start (« les effets "au début du tour" s'exécutent ici »),
2. renflouage: +6 coins, except in the first global turn,
3. pioche: one card drawn, except in the very first turn of the game (and
   drawing from an empty deck loses),
4. first preparation (cards, abilities, one Super Star),
5. combat: attackers, blockers, then the damage (no attack in the first global turn),
6. second preparation (the same, without the Super Star),
7. end; then the PF of every Character return to their base and the other
   player's turn begins.

The active phone moves from one phase to the next (``next``).
"""

from __future__ import annotations

import copy

from companion.games.base import N_, IllegalAction, duel_outcome
from companion.games.kernel import Move, Phase
from companion.games.universalis import cards, combat
from companion.games.universalis.rules import REFILL_COINS, STARS_TO_WIN, global_turn, other, player

HISTORY_KEPT = 60
ORDER = ("start", "refill", "draw", "prep1", "attackers", "prep2", "end")


def setup(options: dict, seats: list[dict], rng) -> dict:
    ids = [seat["id"] for seat in seats]
    first = rng.choice(ids, "who plays first")
    order = [first] + [seat for seat in ids if seat != first]
    deck = max(0, options["deck_size"] - options["hand_size"])
    return {
        "phase": "start", "outcome": None, "options": options, "order": order,
        "names": {str(seat["id"]): seat["name"] for seat in seats},
        "turn": 1, "active": first, "next_card": 1, "in_play": [], "combat": None, "done": None,
        "this_turn": {"characters": 0, "star": False},
        "players": {str(seat): {"coins": options["starting_coins"], "stars": 0, "deck": deck, "graveyard": [],
                                "removed": [], "decked": False, "forfeit": False} for seat in ids},
        "history": [],
    }


# Moving through the turn ---------------------------------------------------------
def check_next(state: dict, seat: int, action: dict) -> None:
    if seat != state["active"]:
        raise IllegalAction(N_("It is %(name)s's turn: they move on to the next phase."),
                            name=state["names"][str(state["active"])])


def next_phase(state: dict, seat: int, action: dict, rng) -> list[dict]:
    state["done"] = state["phase"]
    return []


def following(state: dict) -> str | None:
    """The phase after the current one, once it is finished: the active player
    tapped ``next``, or the combat's declarations brought it about."""
    phase, fight = state["phase"], state["combat"]
    if phase == "attackers" and fight:
        return "blockers"
    if phase == "blockers" and fight.get("declared"):
        return "prep2" if fight.get("done") else "sharing"
    if phase == "sharing" and fight.get("done"):
        return "prep2"
    if state["done"] != phase:
        return None
    return "start" if phase == "end" else ORDER[ORDER.index(phase) + 1]


def begin_turn(state: dict, rng) -> list[dict]:
    """Between two turns: the PF of every Character return to their base; the other player plays."""
    for card in state["in_play"]:
        if card["kind"] == "character":
            card["pf"] = card["base_pf"]
        card["used"] = []
    state["turn"] += 1
    state["active"] = other(state, state["active"])
    state["this_turn"] = {"characters": 0, "star": False}
    state["combat"] = None
    state["done"] = None
    return [{"type": "turn", "turn": state["turn"], "global_turn": global_turn(state), "seat": state["active"]}]


def refill(state: dict, rng) -> list[dict]:
    if global_turn(state) == 1:
        return [{"type": "no_refill", "seat": state["active"]}]
    player(state, state["active"])["coins"] += REFILL_COINS
    return [{"type": "refill", "seat": state["active"], "coins": REFILL_COINS,
             "now": player(state, state["active"])["coins"]}]


def draw_phase(state: dict, rng) -> list[dict]:
    if state["turn"] == 1:  # « celui qui commence ne pioche pas »
        return [{"type": "no_draw", "seat": state["active"]}]
    return cards.draw_card(state, state["active"])


def attackers_phase(state: dict, rng) -> list[dict]:
    if global_turn(state) == 1:
        return [{"type": "no_attack_first_global_turn", "seat": state["active"]}]
    return []


def declare_no_blockers(state: dict, seat: int, action: dict, rng) -> list[dict]:
    return mark_blocks_declared(state, seat, {**action, "blocks": {}}, rng)


def mark_blocks_declared(state: dict, seat: int, action: dict, rng) -> list[dict]:
    events = combat.declare_blockers(state, seat, action, rng)
    state["combat"]["declared"] = True
    return events


# The end ---------------------------------------------------------------------------
def decide(state: dict) -> dict | None:
    for seat in state["order"]:
        me, them = player(state, seat), other(state, seat)
        if me["stars"] >= STARS_TO_WIN:
            return duel_outcome(state["names"], seat, them, N_("%(winner)s gathered three Super Stars."))
        if me["decked"]:
            return duel_outcome(state["names"], them, seat, N_("%(loser)s drew from an empty deck: %(winner)s wins."))
        if me["forfeit"]:
            return duel_outcome(state["names"], them, seat, N_("%(loser)s left the game: %(winner)s wins by forfeit."))
    return None


def withdraw(state: dict, seat: int, rng) -> tuple[dict, list[dict]]:
    """A player who leaves for good loses the duel by forfeit."""
    after = copy.deepcopy(state)
    player(after, seat)["forfeit"] = True
    after["outcome"] = decide(after)
    return after, [{"type": "forfeit", "seat": seat}]


def waiting(state: dict) -> list[dict]:
    if state["phase"] in ("blockers",):
        return [{"seat": other(state, state["active"]), "for": N_("declaring blockers"), "params": {}, "timed": True}]
    return [{"seat": state["active"], "for": PHASES[state["phase"]].label, "params": {}, "timed": False}]


# Views -------------------------------------------------------------------------------
def render(state: dict, seat) -> dict:
    """Everything on the table is public; a deck list stays on its owner's phone."""
    view = {key: state[key] for key in ("order", "names", "turn", "active", "in_play", "combat", "players",
                                         "this_turn")}
    view["global_turn"] = global_turn(state)
    view["sharing"] = state["options"]["sharing"]
    view["history"] = state["history"][-HISTORY_KEPT:]
    view["deck_list"] = (state.get("private") or {}).get(str(seat), {}).get("deck_list")
    return view


# Candidates the screens offer (and the random-play harness plays) -----------------------
EXAMPLE_CHARACTER = {"kind": "character", "name": "Goomba", "cost": 2, "pf": 1, "pc": 4,
                     "types": ["Goomba", "Champignon"], "colours": []}
EXAMPLE_ACTION = {"kind": "action", "name": "Carapace verte", "cost": 1}


def own_cards(state: dict, seat) -> list[dict]:
    return [c for c in state["in_play"] if c["controller"] == seat]


def attack_options(state: dict, seat) -> list[dict]:
    mine = [c["id"] for c in combat.characters_of(state, seat)]
    return [{"attackers": [one]} for one in mine] + ([{"attackers": mine}] if len(mine) > 1 else [])


def block_options(state: dict, seat) -> list[dict]:
    if not state["combat"]:
        return []
    mine = [c["id"] for c in combat.characters_of(state, seat)]
    attackers = combat.fighting_attackers(state)
    options = [{"blocks": {}}] + [{"blocks": {str(b): a}} for b in mine for a in attackers]
    if len(mine) > 1 and attackers:
        options.append({"blocks": {str(b): attackers[0] for b in mine}})
    return options


def share_options(state: dict, seat) -> list[dict]:
    if not state["combat"]:
        return []
    shares = {}
    for attacker in combat.fighting_attackers(state):
        blockers = combat.blockers_of(state, attacker)
        if len(blockers) > 1:
            pf = next(c["pf"] for c in state["in_play"] if c["id"] == attacker)
            shares[str(attacker)] = {str(b): (pf if i == 0 else 0) for i, b in enumerate(blockers)}
    return [{"shares": shares}]


def with_history(run):
    """Keeps the public events of each move in the duel's history (both phones and the host show it)."""
    def recorded(state, seat, action, rng):
        events = run(state, seat, action, rng) or []
        state["history"] = (state["history"] + events)[-HISTORY_KEPT:]
        return events
    return recorded


def phase_with_history(begin):
    def recorded(state, rng):
        events = begin(state, rng) or []
        state["history"] = (state["history"] + events)[-HISTORY_KEPT:]
        return events
    return recorded


MOVES = {
    "next": Move(run=next_phase, check=check_next),
    "play": Move(run=with_history(cards.play), check=cards.check_play,
                 candidates=lambda s, seat: [{"card": EXAMPLE_CHARACTER}, {"card": EXAMPLE_ACTION}]),
    "ability": Move(run=with_history(cards.use_ability), check=cards.check_ability,
                    candidates=lambda s, seat: [{"card": c["id"], "ability": 1} for c in own_cards(s, seat)]),
    "star": Move(run=with_history(cards.buy_star), check=cards.check_star),
    "change": Move(run=with_history(cards.change), check=cards.check_change,
                   candidates=lambda s, seat: [{"card": c["id"], "pc": -2} for c in s["in_play"]]
                   + [{"card": c["id"], "pf": 1} for c in own_cards(s, seat)]),
    "coins": Move(run=with_history(cards.coins), check=cards.check_coins,
                  candidates=lambda s, seat: [{"seat": seat, "delta": 1}, {"seat": seat, "delta": -1}]),
    "sacrifice": Move(run=with_history(cards.sacrifice), check=cards.check_sacrifice,
                      candidates=lambda s, seat: [{"card": c["id"]} for c in own_cards(s, seat)]),
    "leave": Move(run=with_history(cards.leave), check=cards.check_leave,
                  candidates=lambda s, seat: [{"card": c["id"], "to": "graveyard"} for c in s["in_play"]]),
    "draw": Move(run=with_history(cards.draw), candidates=lambda s, seat: [{}]),
    "deck_count": Move(run=with_history(cards.set_deck_count), check=cards.check_deck_count,
                       candidates=lambda s, seat: [{"count": player(s, seat)["deck"]}]),
    "deck_list": Move(run=with_history(cards.enter_deck_list), check=cards.check_deck_list_action,
                      candidates=lambda s, seat: []),  # typed on the phone: nothing to offer
    "attack": Move(run=with_history(combat.declare_attackers), check=combat.check_attackers,
                   candidates=attack_options),
    "block": Move(run=with_history(mark_blocks_declared), check=combat.check_blockers, candidates=block_options),
    # What the host may decide for a defender whose phone left: no blockers, every attacker passes.
    "no_block": Move(run=with_history(declare_no_blockers), check=combat.check_blockers, proxy=True,
                     label=N_("no blockers: every attacker passes")),
    "share": Move(run=with_history(combat.share_damage), check=combat.check_shares, candidates=share_options),
}

# Cards, abilities and their effects can come in any phase: their own checks
# say when the book allows them, so that a card can override that too.
ANY_PHASE = ("play", "ability", "star", "change", "coins", "sacrifice", "leave", "draw", "deck_count", "deck_list")


def both(state: dict) -> list[int]:
    return list(state["order"])


def phase(label: str, moves: tuple[str, ...], begin=None) -> Phase:
    return Phase(moves=moves, label=label, actors=both, next=following,
                 begin=phase_with_history(begin) if begin else None)


PHASES = {
    "start": phase(N_("starting a turn"), ("next",), begin=begin_turn),
    "refill": phase(N_("refilling coins"), ("next",), begin=refill),
    "draw": phase(N_("drawing a card"), ("next",), begin=draw_phase),
    "prep1": phase(N_("preparing (first phase)"), ("next",)),
    "attackers": phase(N_("declaring attackers"), ("next", "attack"), begin=attackers_phase),
    "blockers": phase(N_("declaring blockers"), ("block", "no_block")),
    "sharing": phase(N_("sharing damage among blockers"), ("share",)),
    "prep2": phase(N_("preparing (second phase)"), ("next",)),
    "end": phase(N_("ending a turn"), ("next",)),
}
