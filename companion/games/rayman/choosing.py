"""Rayman: the secret choice of two cards or a Bubble, the reveal and the order of play."""

from __future__ import annotations

import re
from itertools import groupby, permutations

from companion.games.base import Draw, IllegalAction, N_, require_fields
from companion.games.rayman.common import (card_of, choosers, hand_size, player_of, require_own_seat,
                                           rule)
from companion.games.rayman.cards import unknown_played
from companion.games.rayman.constants import MAX_INITIATIVE, commitment
from companion.games.rayman.turns import enter_turns

COMMITMENT = re.compile(r"[0-9a-f]{64}")
SALT = re.compile(r"[0-9a-f]{32,128}")


def start_choosing(state: dict, events: list[dict]) -> None:
    """The round's secret choice starts: nobody has locked in (a repick goes back to the choice without this)."""
    for player in state["players"]:
        player.update({"locked": False, "commitment": None})
    events.append({"type": "choosing", "round": state["round"]["number"]})


def may_bubble(state: dict, player: dict) -> bool:
    return bubble_refusal(state, player) is None


def bubble_refusal(state: dict, player: dict):
    """Why this player may not declare a Bubble action this round (None: they may)."""
    if not rule(state, "bubble_action"):
        return N_("Solo has no Bubble: choose two cards.")
    if player["bubble_mode"]:
        return N_("In Bubble mode you cannot declare a Bubble action: choose two cards.")
    if player.get("bubbled_round") == state["round"]["number"] - 1:
        # « Il doit reprendre le jeu au round suivant »
        return N_("You declared a Bubble last round: this round you must play two cards.")
    return None


def must_bubble(player: dict) -> bool:
    return hand_size(player) < 2


def normalized_choice(state: dict, player: dict, action: dict) -> dict:
    """The choice as committed: ``{"bubble", "left", "second"}``, nothing else."""
    if action.get("bubble") is True:
        refusal = None if must_bubble(player) else bubble_refusal(state, player)
        if refusal:
            raise IllegalAction(refusal)
        return {"bubble": True, "left": None, "second": None}
    if must_bubble(player):
        raise IllegalAction(N_("Your hand is empty: you must declare a Bubble."))
    if state["config"]["quick"]:
        return quick_choice(action)
    require_fields(action, left=str, second=str)
    left, second = action["left"], action["second"]
    if left == second or left not in player["hand"] or second not in player["hand"]:
        raise IllegalAction(N_("Choose two different cards from your hand."))
    return {"bubble": False, "left": left, "second": second}


def quick_choice(action: dict) -> dict:
    require_fields(action, left=int, second=int)
    if not all(0 <= action[side] <= MAX_INITIATIVE for side in ("left", "second")):
        raise IllegalAction(N_("An initiative is a whole number from 0 to %(high)s."), high=MAX_INITIATIVE)
    return {"bubble": False, "left": action["left"], "second": action["second"]}


def possible_choices(state: dict, player: dict) -> list[dict]:
    """Every choice the rules accept from this player now (a sample of initiatives with quick entry)."""
    if player not in choosers(state):
        return []
    choices = [{"bubble": True, "left": None, "second": None}] if may_bubble(state, player) or must_bubble(player) \
        else []
    if must_bubble(player):
        return choices
    pairs = [(5, 5), (5, 3), (9, 1)] if state["config"]["quick"] else permutations(player["hand"], 2)
    return choices + [{"bubble": False, "left": left, "second": second} for left, second in pairs]


def require_chooser(state: dict, seat) -> dict:
    player = require_own_seat(state, seat)
    if player not in choosers(state):
        raise IllegalAction(N_("You have finished the race."))
    return player


def check_lock(state: dict, seat, action: dict) -> None:
    """The phone sends only a commitment: SHA-256 of the canonical JSON of its choice and a salt it made.

    The choice itself, and every change of mind before the lock, stays on the phone: neither
    the server's database nor any other screen holds a byte of it before the reveal."""
    player = require_chooser(state, seat)
    if player["locked"]:
        raise IllegalAction(N_("You have locked in your choice."))
    require_fields(action, commitment=str)
    if not COMMITMENT.fullmatch(action["commitment"]):
        raise IllegalAction(N_("A commitment is 64 hexadecimal digits (your phone computes it)."))


def do_lock(state: dict, seat, action: dict, rng) -> list[dict]:
    check_lock(state, seat, action)
    player = player_of(state, seat)
    player["locked"], player["commitment"] = True, action["commitment"]
    return [{"type": "locked", "seat": seat, "commitment": player["commitment"]}]


def all_locked(state: dict) -> bool:
    return all(player["locked"] for player in choosers(state))


def begin_revealing(state: dict, rng) -> list[dict]:
    return [{"type": "reveal_now", "round": state["round"]["number"]}]


def check_reveal(state: dict, seat, action: dict) -> dict:
    """The phone opens its commitment: the choice and the salt; the server checks them, nothing more."""
    player = require_chooser(state, seat)
    if str(seat) in (state.get("secret") or {}).get("reveals", {}):
        raise IllegalAction(N_("Your choice is already revealed."))
    if player.get("lost"):
        raise IllegalAction(N_("Your phone lost your choice after another was revealed: it is drawn at random."))
    require_fields(action, choice=dict, salt=str)
    if not SALT.fullmatch(action["salt"]):
        raise IllegalAction(N_("A salt is 32 to 128 hexadecimal digits (your phone makes it)."))
    choice = normalized_choice(state, player, action["choice"])
    if commitment(choice, action["salt"]) != player["commitment"]:
        raise IllegalAction(N_("That choice does not match your commitment: reveal the choice you locked in."))
    return choice


def do_reveal(state: dict, seat, action: dict, rng) -> list[dict]:
    """Held in the table's secret until every phone has revealed, then published together."""
    choice = check_reveal(state, seat, action)
    reveals = state.setdefault("secret", {}).setdefault("reveals", {})
    reveals[str(seat)] = {"choice": choice, "salt": action["salt"]}
    return [{"type": "revealed_by", "seat": seat}]


def any_revealed(state: dict) -> bool:
    """A phone of this round has opened its choice: it sits in the table's store, that the operator reads."""
    return bool((state.get("secret") or {}).get("reveals"))


def check_repick(state: dict, seat, action: dict) -> None:
    player = require_chooser(state, seat)
    if not player["locked"]:
        raise IllegalAction(N_("You have not locked in yet: choose on this phone."))
    if str(seat) in (state.get("secret") or {}).get("reveals", {}):
        raise IllegalAction(N_("Your choice is already revealed."))
    if player.get("lost"):
        raise IllegalAction(N_("Your phone lost your choice after another was revealed: it is drawn at random."))
    if any_revealed(state) and state["config"]["quick"]:
        # With quick entry the companion does not know the cards: it has nothing to draw among.
        raise IllegalAction(N_("Another choice was revealed: yours can no longer change, and with quick entry "
                               "the companion cannot draw one. The host can take your seat out of the game."))


def do_repick(state: dict, seat, action: dict, rng) -> list[dict]:
    """A new phone for the seat (the old one lost, its choice with it).

    Before any phone has revealed, nothing of this round is out: the player chooses again. Once one has,
    its choice sits in the table's store, that the operator reads: a new choice could be made knowing it.
    The commitment then stands and the seat's choice is drawn at random among its legal choices, from a
    round of the phones' values opened after the loss (`fresh_draw`): nobody can compute it beforehand."""
    check_repick(state, seat, action)
    player = player_of(state, seat)
    if any_revealed(state):
        player["lost"] = True  # its commitment stands: the table's fresh draw makes its choice
        return [{"type": "choice_lost", "seat": seat}]
    player["locked"], player["commitment"] = False, None  # the table is back to the choice (``all_locked``)
    return [{"type": "choice_reset", "seat": seat}]


def lost_choices(state: dict):
    """What the table's fresh draw waits for: this round's seats whose phone lost the choice (None: none)."""
    if state.get("phase") != "revealing":
        return None
    reveals = (state.get("secret") or {}).get("reveals", {})
    lost = [player["seat"] for player in choosers(state) if player.get("lost") and str(player["seat"]) not in reveals]
    return {"race": (state.get("race") or {}).get("number"), "round": state["round"]["number"], "lost": lost} \
        if lost else None


def check_fresh_draw(state: dict, seat, action: dict) -> None:
    """The table's fresh draw has something to draw: a choice lost after a reveal, not drawn yet."""
    if lost_choices(state) is None:
        raise IllegalAction(N_("Nothing waits for that seat."))


def draw_lost_choices(state: dict, seat, action: dict, rng) -> list[dict]:
    """Each lost choice, drawn evenly among the seat's legal choices (in `possible_choices` order)."""
    reveals, events = state.setdefault("secret", {}).setdefault("reveals", {}), []
    for player in choosers(state):
        if not player.get("lost") or str(player["seat"]) in reveals:
            continue
        choices = possible_choices(state, player)
        index = rng.randint(0, len(choices) - 1, Draw("lost_choice", seat=player["seat"],
                                                              round=state["round"]["number"]), secret=True)
        reveals[str(player["seat"])] = {"choice": choices[index], "salt": None, "drawn": index}
        player["lost"] = False
        events.append({"type": "choice_drawn", "seat": player["seat"]})
    return events


def all_revealed(state: dict) -> bool:
    reveals = (state.get("secret") or {}).get("reveals", {})
    return all(str(player["seat"]) in reveals for player in choosers(state))


def initiatives_of(state: dict, player: dict, choice: dict) -> tuple:
    if choice["bubble"]:
        return None, None
    if state["config"]["quick"]:
        return choice["left"], choice["second"]
    return card_of(player, choice["left"])["initiative"], card_of(player, choice["second"])["initiative"]


def begin_initiatives(state: dict, rng) -> list[dict]:
    """Every choice is public now; the order of play waits for the initiative of any card played for
    the first time (its owner reads it on the card: ``cards.do_initiative``)."""
    round_ = state["round"]
    reveals = state["secret"].pop("reveals")
    round_["revealed"] = [{"seat": player["seat"], "choice": reveals[str(player["seat"])]["choice"],
                           "salt": reveals[str(player["seat"])]["salt"], "commitment": player["commitment"],
                           "left_initiative": None, "second_initiative": None,
                           # a choice drawn for a phone that lost it: its index among the legal choices
                           **({"drawn": reveals[str(player["seat"])]["drawn"]}
                              if "drawn" in reveals[str(player["seat"])] else {})}
                          for player in choosers(state)]
    round_["asking"] = unknown_played(state)
    if not round_["asking"]:
        return []  # nothing to read: the turns begin at once
    return [{"type": "initiatives_asked", "round": round_["number"], "cards": round_["asking"]}]


def begin_turns(state: dict, rng) -> list[dict]:
    """Every revealed card's initiative is known: the order of play (dice for a tie), then the turns."""
    round_, events = state["round"], []
    revealed = round_["revealed"]
    for entry in revealed:
        entry["left_initiative"], entry["second_initiative"] = initiatives_of(
            state, player_of(state, entry["seat"]), entry["choice"])
    playing = [entry for entry in revealed if not entry["choice"]["bubble"]]
    round_["order"] = order_of_play(state, playing, rng)
    events.append({"type": "revealed", "round": round_["number"], "choices": revealed,
                   "order": round_["order"], "tie_rolls": round_["tie_rolls"]})
    for entry in revealed:
        player = player_of(state, entry["seat"])
        if entry["choice"]["bubble"]:
            player["bubbled_round"] = round_["number"]
            enter_bubble(player, events)
        else:
            play_cards(state, player, entry["choice"])
    enter_turns(state, events)
    return events


def play_cards(state: dict, player: dict, choice: dict) -> None:
    if state["config"]["quick"]:
        played = player["hand"][:2]  # the cards are not named: any two of the hand
    else:
        played = [choice["left"], choice["second"]]
    player["hand"] = [card for card in player["hand"] if card not in played]
    player["played"] = played


def enter_bubble(player: dict, events: list[dict]) -> None:
    """Immune until the end of the round, every discarded card back in hand, no heart."""
    player["bubble"] = True
    player["hand"] += player["discard"]
    player["discard"], player["random_discards"], player["random_ranks"] = [], [], []
    lost_heart = player["heart"]
    player["heart"] = False
    events.append({"type": "bubble", "seat": player["seat"], "lost_heart": lost_heart})


def order_of_play(state: dict, playing: list[dict], rng) -> list:
    """Left initiative, then second initiative, then dice for whoever is still tied."""
    def key(entry):
        return -entry["left_initiative"], -entry["second_initiative"]

    order = []
    for _, group in groupby(sorted(playing, key=key), key=key):
        order += break_tie([entry["seat"] for entry in group], state, rng, 1)
    return order


def break_tie(seats: list, state: dict, rng, attempt: int) -> list:
    if len(seats) == 1:
        return seats
    round_ = state["round"]
    rolls = {seat: rng.randint(1, 6, Draw("tie_break", seat=seat, round=round_["number"], attempt=attempt))
             for seat in seats}
    round_["tie_rolls"].append({"seats": seats, "rolls": [rolls[seat] for seat in seats]})
    order = []
    for value in sorted(set(rolls.values()), reverse=True):
        order += break_tie([seat for seat in seats if rolls[seat] == value], state, rng, attempt + 1)
    return order
