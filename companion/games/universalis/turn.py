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

« En pratique, on les passe sans s'en rendre compte : le début et la fin du
tour, on s'en fout les 90% du temps tandis que la pioche et le renflouage sont
instinctives » : those four phases pass by themselves, unless a card of the
player's asks to act there (the card's ``stops``) or the player chose to stop
there (their ``stops``); the combat passes by itself in the first global turn,
and the damage is dealt at once unless it would KO a card (the players then see it
and apply their cards' modifiers first) or a card of the fight asks to change it.
The active phone moves on from a phase that waits with ``next``, attacks
straight from the first preparation, and ends its turn from any preparation
(``end_turn``).
"""

from __future__ import annotations

from companion.games.base import N_, Draw, IllegalAction, duel_outcome
from companion.games.kernel import Move, Phase
from companion.games.universalis import cards, combat, one_phone
from companion.games.universalis.rules import (
    MOMENTS, REFILL_COINS, STARS_TO_WIN, enforce, global_turn, other, overriding_card, overrides, player,
)

HISTORY_KEPT = 60
ORDER = ("start", "refill", "draw", "prep1", "attackers", "prep2", "end")
PASS_BY_THEMSELVES = ("start", "refill", "draw", "end")
COMBAT = ("attackers", "blockers", "sharing", "damage")


def setup(options: dict, seats: list[dict], rng) -> dict:
    seats = one_phone.seats(options, seats)
    ids = [seat["id"] for seat in seats]
    first = who_plays_first(options, ids, rng)
    order = [first] + [seat for seat in ids if seat != first]
    deck = max(0, options["deck_size"] - options["hand_size"])
    state = {
        "phase": "prep1", "outcome": None, "options": options, "order": order,
        "names": {str(seat["id"]): seat["name"] for seat in seats},
        "turn": 1, "active": first, "next_card": 1, "in_play": [], "combat": None, "done": None,
        "this_turn": {"characters": 0, "star": False}, "turn_started": None, "roll": None,
        "catalogue": list((options.get("memory") or {}).get("cards", []))[-cards.CATALOGUE_KEPT:],
        "players": {str(seat): {"coins": options["starting_coins"], "stars": 0, "deck": deck, "graveyard": [],
                                "hand": options["hand_size"],
                                "removed": [], "decked": False, "forfeit": False, "stops": []} for seat in ids},
    }
    # The first turn's start, refill and draw pass by themselves (no card is in play yet to stop them).
    state["history"] = [{"type": "turn", "turn": 1, "global_turn": 1, "seat": first},
                        {"type": "no_refill", "seat": first}, {"type": "no_draw", "seat": first}]
    return state


def who_plays_first(options: dict, ids: list[int], rng) -> int:
    """The book is silent: the table's fair draw by default, or the first (second) to sit, as the group plays."""
    if options.get("first") == "first_seat":
        return ids[0]
    if options.get("first") == "second_seat":
        return ids[1]
    return rng.choice(ids, Draw("first_player"))


def carry(state: dict) -> dict:
    """The evening's cards, for the next game at the table: typed once, then picked by name."""
    return {"cards": state.get("catalogue", [])}


# Moving through the turn ---------------------------------------------------------
def check_next(state: dict, seat: int, action: dict) -> None:
    if seat != state["active"]:
        raise IllegalAction(N_("It is %(name)s's turn: they move on to the next phase."),
                            name=state["names"][str(state["active"])])


def next_phase(state: dict, seat: int, action: dict, rng) -> list[dict]:
    state["done"] = state["phase"]
    return []


def end_turn(state: dict, seat: int, action: dict, rng) -> list[dict]:
    """« Fin du tour » from a preparation (or instead of attacking): the phases left pass."""
    state["done"] = "end_turn"
    return []


def stops_at(state: dict, moment: str) -> bool:
    """A phase that passes by itself waits when a card asks to act there, or the player said to stop there.
    The turn's phases ask the active player's cards; the damage asks the cards of the fight and both players."""
    if moment == "damage":
        fighting = {int(card_id) for card_id in state["combat"]["damage"]["losses"]}
        fighting |= set(state["combat"]["damage"]["passed"])
        return (any(moment in p.get("stops", []) for p in state["players"].values())
                or any(moment in c.get("stops", []) for c in state["in_play"] if c["id"] in fighting))
    active = state["active"]
    return (moment in player(state, active).get("stops", [])
            or any(moment in c.get("stops", []) for c in state["in_play"] if c["controller"] == active))


def following(state: dict) -> str | None:
    """The phase after the current one, once it is finished: the active player moved on, the combat's
    declarations brought it about, or the phase passes by itself."""
    phase, fight, done = state["phase"], state["combat"], state["done"]
    if done == "end_turn" and phase in ("prep1", "attackers", "prep2"):
        return "end"
    if done == "goto":  # a card sent the turn there
        state["done"] = None
        return state.pop("goto")
    if phase == "prep1" and fight and not fight.get("declared"):
        return "attackers"  # attacked straight from the first preparation
    if phase == "attackers" and fight:
        return "blockers"
    if phase == "attackers" and global_turn(state) == 1 and done != phase:
        # « On ne peut pas attaquer durant le premier tour global » : the combat passes (a card may still attack)
        return None if "attackers" in player(state, state["active"]).get("stops", []) else "prep2"
    if phase == "blockers" and fight.get("declared"):
        return "sharing" if combat.needs_sharing(state) else "damage"
    if phase == "sharing" and fight.get("shared"):
        return "damage"
    if phase == "damage" and fight.get("done"):
        return "prep2"
    if phase in PASS_BY_THEMSELVES and done != phase and not stops_at(state, phase):
        return after(phase)
    if done != phase:
        return None
    return after(phase)


def after(phase: str) -> str:
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
    state["turn_started"] = state.get("now")
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
    if global_turn(state) == 1 and not state["combat"]:
        return [{"type": "no_attack_first_global_turn", "seat": state["active"]}]
    return []


def damage_phase(state: dict, rng) -> list[dict]:
    """The damage of each card is shown; a KO is never final before the players saw it: the combat
    stops here (modifiers applied, then "Deal the damage") when its damage would KO a card, or a card
    of the fight or a player asks to stop. A combat that KOs nobody is dealt at once."""
    events = combat.prepare_damage(state)
    if not (stops_at(state, "damage") or combat.would_knock_out(state)):
        events += combat.deal(state)
    return events


# A card changes the order of the phases ------------------------------------------------
def check_goto(state: dict, seat: int, action: dict, broken: list | None = None) -> None:
    if action.get("to") not in ORDER:
        raise IllegalAction(N_("Say which phase: start, refill, draw, prep1, attackers, prep2 or end."))
    overriding_card(action)
    enforce(action, broken, "phase_order", False, N_("The phases follow the book's order: only a card changes it."))


def goto(state: dict, seat: int, action: dict, rng) -> list[dict]:
    """A card sends the turn to another phase (an extra combat, a second draw…): « c'est la carte qui a raison »."""
    broken: list[str] = []
    check_goto(state, seat, action, broken)
    state["done"], state["goto"] = "goto", action["to"]
    if action["to"] in ("attackers", "prep1"):
        state["combat"] = None  # a new combat may be declared
    return overrides(seat, broken, action) + [{"type": "goto", "seat": seat, "to": action["to"]}]


# Where a player stops, a die and a coin ----------------------------------------------
def check_stops(state: dict, seat: int, action: dict) -> None:
    value = action.get("stops")
    if not isinstance(value, list) or any(m not in MOMENTS + ("attackers",) for m in value):
        raise IllegalAction(N_("Say where to stop: start, refill, draw, end, damage or attackers."))


def set_stops(state: dict, seat: int, action: dict, rng) -> list[dict]:
    """The player chose to stop in these phases instead of letting them pass."""
    player(state, seat)["stops"] = [m for m in MOMENTS + ("attackers",) if m in action["stops"]]
    return []


def check_roll(state: dict, seat: int, action: dict) -> None:
    if action.get("what") not in ("die", "coin"):
        raise IllegalAction(N_("Roll the die or toss the coin."))


def roll(state: dict, seat: int, action: dict, rng) -> list[dict]:
    """A card asks for a die or a coin: the table's fair draw, seen on every phone."""
    result = rng.randint(1, 6, Draw("card_die")) if action["what"] == "die" else rng.randint(0, 1, Draw("card_coin"))
    state["roll"] = {"seat": seat, "what": action["what"], "result": result}
    return [{"type": "roll", "seat": seat, "what": action["what"], "result": result}]


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


def forfeit(state: dict, seat: int, action: dict, rng) -> list[dict]:
    """A player who leaves for good loses the duel by forfeit (the kernel's ``leave``)."""
    player(state, seat)["forfeit"] = True
    return [{"type": "forfeit", "seat": seat}]


def waiting(state: dict) -> list[dict]:
    if state["phase"] in ("blockers",):
        return [{"seat": other(state, state["active"]), "for": N_("declaring blockers"), "params": {}, "timed": True}]
    return [{"seat": state["active"], "for": PHASES[state["phase"]].label, "params": {}, "timed": False}]


# Views -------------------------------------------------------------------------------
def render(state: dict, seat) -> dict:
    """Everything on the table is public; a deck list stays on its owner's phone."""
    view = {key: state[key] for key in ("order", "names", "turn", "active", "in_play", "combat", "players",
                                         "this_turn")}
    # (a duel saved before these were kept goes on without them)
    view.update(catalogue=state.get("catalogue", []), roll=state.get("roll"), turn_started=state.get("turn_started"))
    view["global_turn"] = global_turn(state)
    view["options"] = {key: value for key, value in state["options"].items() if key != "memory"}
    view["sharing"] = state["options"]["sharing"]
    view["history"] = state["history"][-HISTORY_KEPT:]
    view["deck_list"] = (state.get("private") or {}).get(str(seat), {}).get("deck_list")
    return view


# Candidates the screens offer (and the random-play harness plays) -----------------------
EXAMPLE_CHARACTER = {"kind": "character", "name": "Goomba", "cost": 2, "pf": 1, "pc": 4,
                     "types": ["Goomba", "Champignon"], "colours": []}
EXAMPLE_ACTION = {"kind": "action", "name": "Carapace verte", "cost": 1}
EXAMPLE_ASKING = "Yoshi Vert"  # Carap'Oeuf asks for a Carapace to be sacrificed


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


def adjust_options(state: dict, seat) -> list[dict]:
    if not (state["combat"] or {}).get("damage"):
        return []
    fighting = [int(card_id) for card_id in state["combat"]["damage"]["losses"]]
    return [{"card": card_id, "delta": -1} for card_id in fighting] + [{"what": "coins_won", "delta": 1}]


def stamped(run):
    """Keeps the action's time (the server's "at") in the state, which starts the turn timer of a turn
    it begins. The kernel keeps the duel's history (``Rules(history=HISTORY_KEPT)``)."""
    def timed(state, seat, action, rng):
        state["now"] = action.get("at")
        if state.get("turn_started") is None:  # the first turn has no start of its own: its first action starts it
            state["turn_started"] = state["now"]
        return run(state, seat, action, rng)
    return timed


def damage_run(state: dict, seat: int, action: dict, rng) -> list[dict]:
    return combat.deal(state)


MOVES = {
    "next": Move(run=stamped(next_phase), check=check_next),
    "end_turn": Move(run=stamped(end_turn), check=check_next),
    "play": Move(run=stamped(cards.play), check=cards.check_play,
                 candidates=lambda s, seat: [{"card": EXAMPLE_CHARACTER}, {"card": EXAMPLE_ACTION},
                                             {"card": {**EXAMPLE_CHARACTER, "name": "Wario"}, "free": True}]),
    # « on ne peut utiliser qu'une fois la même capacité d'une même carte par tour de jeu » : each ability apart
    "ability": Move(run=stamped(cards.use_ability), check=cards.check_ability,
                    candidates=lambda s, seat: [{"card": c["id"], "ability": n} for c in own_cards(s, seat)
                                                for n in (1, 2)]),
    "star": Move(run=stamped(cards.buy_star), check=cards.check_star),
    "change": Move(run=stamped(cards.change), check=cards.check_change,
                   candidates=lambda s, seat: [{"card": c["id"], "pc": -2} for c in s["in_play"]]
                   + [{"card": c["id"], "pf": 1} for c in own_cards(s, seat)]
                   + [{"card": c["id"], "max_pc": -1, "base_pf": 1} for c in own_cards(s, seat)]),
    "hero": Move(run=stamped(cards.becomes_hero), check=cards.check_hero),
    "card_stops": Move(run=stamped(cards.set_card_stops), check=cards.check_card_stops),
    "stops": Move(run=stamped(set_stops), check=check_stops),
    "coins": Move(run=stamped(cards.coins), check=cards.check_coins,
                  candidates=lambda s, seat: [{"of": seat, "delta": 1}, {"of": other(s, seat), "delta": -1}]),
    "sacrifice": Move(run=stamped(cards.sacrifice), check=cards.check_sacrifice,
                      candidates=lambda s, seat: [{"card": c["id"], "asked_by": EXAMPLE_ASKING}
                                                  for c in own_cards(s, seat)]),
    "leave": Move(run=stamped(cards.leave), check=cards.check_leave,
                  candidates=lambda s, seat: [{"card": c["id"], "to": "graveyard"} for c in s["in_play"]]),
    "draw": Move(run=stamped(cards.draw), candidates=lambda s, seat: [{}]),
    "deck_count": Move(run=stamped(cards.set_deck_count), check=cards.check_deck_count,
                       candidates=lambda s, seat: [{"count": player(s, seat)["deck"]}]),
    "hand_count": Move(run=stamped(cards.set_hand_count), check=cards.check_hand_count,
                       candidates=lambda s, seat: [{"count": player(s, seat).get("hand") or 0}]),
    "deck_list": Move(run=stamped(cards.enter_deck_list), check=cards.check_deck_list_action,
                      candidates=lambda s, seat: []),  # typed on the phone: nothing to offer
    "roll": Move(run=stamped(roll), check=check_roll,
                 candidates=lambda s, seat: [{"what": "die"}, {"what": "coin"}]),
    "phase": Move(run=stamped(goto), check=check_goto, candidates=lambda s, seat: []),
    "attack": Move(run=stamped(combat.declare_attackers), check=combat.check_attackers,
                   candidates=attack_options),
    "block": Move(run=stamped(combat.declare_blockers), check=combat.check_blockers, candidates=block_options),
    # What the host may decide for a defender whose phone left: no blockers, every attacker passes.
    "no_block": Move(run=stamped(combat.declare_blockers), check=combat.check_blockers, proxy=True,
                     label=N_("no blockers: every attacker passes")),
    "share": Move(run=stamped(combat.share_damage), check=combat.check_shares, candidates=share_options),
    "damage": Move(run=stamped(combat.adjust), check=combat.check_adjust, candidates=adjust_options),
    "deal": Move(run=stamped(damage_run), check=combat.check_deal),
}

# Cards, abilities and their effects can come in any phase: their own checks
# say when the book allows them, so that a card can override that too.
ANY_PHASE = ("play", "ability", "star", "change", "hero", "card_stops", "stops", "coins", "sacrifice", "leave", "draw",
             "deck_count", "hand_count", "deck_list", "roll", "phase")


def both(state: dict) -> list[int]:
    return list(state["order"])


def phase(label: str, moves: tuple[str, ...], begin=None) -> Phase:
    return Phase(moves=moves, label=label, actors=both, next=following, begin=begin)


PHASES = {
    "start": phase(N_("starting a turn"), ("next",), begin=begin_turn),
    "refill": phase(N_("refilling coins"), ("next",), begin=refill),
    "draw": phase(N_("drawing a card"), ("next",), begin=draw_phase),
    "prep1": phase(N_("preparing (first phase)"), ("next", "end_turn", "attack")),
    "attackers": phase(N_("declaring attackers"), ("next", "end_turn", "attack"), begin=attackers_phase),
    "blockers": phase(N_("declaring blockers"), ("block", "no_block")),
    "sharing": phase(N_("sharing damage among blockers"), ("share",)),
    "damage": phase(N_("dealing the damage"), ("damage", "deal"), begin=damage_phase),
    "prep2": phase(N_("preparing (second phase)"), ("next", "end_turn")),
    "end": phase(N_("ending a turn"), ("next",)),
}
