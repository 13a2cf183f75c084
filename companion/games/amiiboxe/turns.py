"""A turn (the book's « Tour de jeu »): one and only one action — move, attack or retire —
then its effects, in the order they happen; the turn ends when they are resolved.

``state["step"]`` holds what the turn still waits for after its action; its kind is the
stage of the phase ``play`` the kernel is in (`companion.games.amiiboxe.STAGES`: each with its
own moves and actors, so that an action off its stage never reaches the code here):
* None (stage ``action``): the action has not been taken yet;
* ``{"kind": "name_card", "cell"}``: a card was turned over; its name decides its effect;
* ``{"kind": "swap_cards"}``: Amiiboxe ville: the player swaps two locations;
* ``{"kind": "second_fight", "figure"}``: Enfers: the winner may fight once more;
* ``{"kind": "hold", "card", "figure"}``: the figure arrived on a card whose effect the companion
  does not know (not one of the FAQ's eight): the game pauses until the table applies it on the
  real board (with the generic board operations where it moves something) and the active player,
  or the host, confirms (``confirm_effect``);
* ``{"kind": "effects"}``: the player asked to keep the turn open (``hold``) to apply by hand,
  with the generic board operations, an effect the companion does not know.
``end_turn`` declines what is left. Each step keeps the action's ``hold``.
"""

from __future__ import annotations

from companion.games.amiiboxe import board, cards
from companion.games.amiiboxe.board import adjacent, between, card, diagonal, figure_at, require_board, \
    require_cell
from companion.games.amiiboxe.common import figure_by_id, on_board, own_figure, figure_field, require_flag, \
    seat_name, seats_on_board
from companion.games.amiiboxe.scoring import finish, game_ends, retire
from companion.games.base import HOST, N_, IllegalAction, require_fields


# --- whose turn, and what it still waits for ------------------------------------------

ACTION = "action"  # the stage of a turn whose action is still to take


def stage_of(state: dict) -> str:
    """The stage the turn is in, read from what it waits for: a fight's answers, an effect, or the action."""
    fight = state["fight"]
    if fight:
        return "vote" if fight["exchange"] == "vote" else "fight"
    return state["step"]["kind"] if state["step"] else ACTION


def the_active_player(state: dict) -> list[int]:
    return [state["active"]] if state["active"] is not None else []


def action_done(state: dict, hold: bool) -> list[dict]:
    """The action and the effects it started are resolved (or wait in ``step``)."""
    if game_ends(state):
        return finish(state)
    if state["step"] is not None:
        state["step"]["hold"] = hold
        return []
    if hold:
        state["step"] = {"kind": "effects", "hold": True}
        return []
    return pass_turn(state)


def step_done(state: dict) -> list[dict]:
    """A waiting effect is resolved: the turn ends, unless the player held it open."""
    hold = bool(state["step"] and state["step"].get("hold"))
    state["step"] = None
    return action_done(state, hold)


def pass_turn(state: dict) -> list[dict]:
    """Clockwise to the next player who still has figures on the board."""
    state["selected"] = {"figure": None, "target": None}
    state["step"] = None
    if game_ends(state):
        return finish(state)
    holders, order = seats_on_board(state), state["order"]
    start = order.index(state["active"]) if state["active"] in order else -1
    state["active"] = next(order[(start + k) % len(order)] for k in range(1, len(order) + 1)
                           if order[(start + k) % len(order)] in holders)
    state["turn"] += 1
    return [{"type": "turn", "seat": state["active"], "turn": state["turn"]}]


def check_end_turn(state: dict, seat, action: dict) -> None:
    """« une et une seule » action: a board correction before it is none."""
    if state["step"] is None:
        raise IllegalAction(N_("Move, attack or retire a figure: that is your turn."))


def run_end_turn(state: dict, seat, action: dict, rng) -> list[dict]:
    declined = state["step"]["kind"] if state["step"] else None
    events = [{"type": "effect_declined", "step": declined}] if declined not in (None, "effects") else []
    return events + pass_turn(state)


# --- arriving on a card ------------------------------------------------------------

def arrive(state: dict, figure: dict, cell: list[int], name: str | None) -> list[dict]:
    """A figure stops on a place: a face-down card there is revealed; then the card's arrival effect."""
    origin, figure["at"] = figure["at"], list(cell)
    events = [{"type": "moved", "figure": figure["id"], "from": origin, "to": list(cell)}]
    events += board.reveal(state, cell)
    if card(state, cell)["name"] is None and name is not None:
        events += name_card(state, cell, name)
    if card(state, cell)["name"] is None:
        state["step"] = {"kind": "name_card", "cell": list(cell), "figure": figure["id"]}
        return events
    return events + arrival_effect(state, figure, cell)


def arrival_effect(state: dict, figure: dict, cell: list[int]) -> list[dict]:
    name = card(state, cell)["name"]
    if cards.effect_of(name) is None:  # a card the companion does not know: the table applies it
        return hold_for(state, figure, name)
    effect = cards.effect_when(name, cards.ARRIVE)
    if effect == cards.REVEAL_AROUND:  # the FAQ: occupied places around count too
        events = [{"type": "effect", "card": name, "effect": effect, "figure": figure["id"]}]
        for around in board.neighbours(state, cell):
            events += board.reveal(state, around)
        return events
    if effect == cards.SWAP_CARDS:
        state["step"] = {"kind": "swap_cards", "figure": figure["id"]}
        return [{"type": "effect", "card": name, "effect": effect, "figure": figure["id"]}]
    return []


def hold_for(state: dict, figure: dict, name: str) -> list[dict]:
    """The game pauses until the effect of ``name`` is applied on the real board and confirmed."""
    state["step"] = {"kind": "hold", "card": name, "figure": figure["id"]}
    return [{"type": "effect_to_apply", "card": name, "figure": figure["id"]}]


def name_card(state: dict, cell: list[int], name: str) -> list[dict]:
    chosen = cards.find_card(state["cards"], name)
    board_card = card(state, cell)
    board_card.update(revealed=True, name=chosen)
    return [{"type": "card_named", "cell": list(cell), "name": chosen}]


def check_card_name(state: dict, cell: list[int], name: object) -> None:
    if not isinstance(name, str) or cards.find_card(state["cards"], name) is None:
        raise IllegalAction(N_("Choose the location from the list of the table's cards (the host can add one)."))
    for other in board.all_cells(state):
        if other != cell and cards.same_card(card(state, other)["name"], name):
            raise IllegalAction(N_("That location is already on the board."))


# --- moving ------------------------------------------------------------------------------

def leave_effect(state: dict, figure: dict) -> tuple[str | None, str | None]:
    """The card a figure stands on and what it does when the figure leaves it."""
    name = card(state, figure["at"])["name"] if state["board"] is not None and figure["at"] else None
    return name, cards.effect_when(name, cards.LEAVE)


def move_plan(state: dict, figure: dict, action: dict) -> dict:
    """How the figure reaches the place it is sent to, and which card effect allows it."""
    cell = require_cell(state, action)
    name, effect = leave_effect(state, figure)
    start, partner = figure["at"], None
    if "swap_with" in action:
        partner = on_board(figure_field(state, action, "swap_with"))
        if effect != cards.SWAP_FIRST:
            raise IllegalAction(N_("Only a figure leaving Île des Yoshis swaps places before moving."))
        if partner is figure:
            raise IllegalAction(N_("Choose two different figures."))
        if not adjacent(start, partner["at"]):
            raise IllegalAction(N_("Île des Yoshis swaps places with an adjacent figure."))
        start, effect = partner["at"], None  # the new place's own effect does not apply (the FAQ)
    taken = figure_at(state, cell)
    if (taken and taken is not figure) or (partner and cell == figure["at"]):
        raise IllegalAction(N_("That place is taken."))
    if adjacent(start, cell):
        return {"cell": cell, "card": name if partner else None, "effect": cards.SWAP_FIRST if partner else None,
                "partner": partner}
    if effect == cards.DIAGONAL and diagonal(start, cell):
        return {"cell": cell, "card": name, "effect": effect, "partner": None}
    middle = between(start, cell)
    if middle and effect == cards.STRAIGHT_TWO:
        if figure_at(state, middle):
            raise IllegalAction(N_("Mute City does not pass over a figure (only a card such as Jungle des jobards "
                                   "jumps)."))
        return {"cell": cell, "card": name, "effect": effect, "partner": None}
    if middle and effect == cards.JUMP:
        if not figure_at(state, middle):
            raise IllegalAction(N_("Jungle des jobards jumps over an adjacent figure."))
        return {"cell": cell, "card": name, "effect": effect, "partner": None}
    raise IllegalAction(N_("A figure moves to an adjacent place (diagonals are not adjacent)."))


def check_move(state: dict, seat, action: dict) -> None:
    figure = on_board(own_figure(state, seat, action, "figure"))
    require_flag(action, "hold")
    if state["board"] is not None:
        plan = move_plan(state, figure, action)
        if "card" in action and card(state, plan["cell"])["name"] is None:
            check_card_name(state, plan["cell"], action["card"])
    else:
        if "cell" in action or "swap_with" in action:
            raise IllegalAction(N_("The companion does not keep the board in this game."))
        if "card" in action:
            require_fields(action, card=str)


def run_move(state: dict, seat, action: dict, rng) -> list[dict]:
    figure = own_figure(state, seat, action, "figure")
    figure["played"] = True
    hold = require_flag(action, "hold")
    if state["board"] is None:  # the move happens on the table; a named card's arrival is announced
        named = cards.find_card(state["cards"], action.get("card") or "")
        events = [{"type": "moved", "figure": figure["id"], "card": named}]
        effect = cards.effect_when(named, cards.ARRIVE)
        if effect:
            events.append({"type": "effect", "card": named, "effect": effect, "figure": figure["id"]})
        elif named and cards.effect_of(named) is None:
            events += hold_for(state, figure, named)
        return events + action_done(state, hold)
    plan = move_plan(state, figure, action)
    events = []
    if plan["effect"]:  # the card left acts first (« dans l'ordre chronologique »)
        events.append({"type": "effect", "card": plan["card"], "effect": plan["effect"], "figure": figure["id"]})
    if plan["partner"]:
        partner = plan["partner"]
        events.append({"type": "swapped_figures", "figures": [figure["id"], partner["id"]]})
        board.swap_figures(figure, partner)
    events += arrive(state, figure, plan["cell"], action.get("card"))
    return events + action_done(state, hold)


# --- a card the companion does not know: confirmed once applied; an away seat's turn ------------

def check_confirm_effect(state: dict, seat, action: dict) -> None:
    """The active player (or the host, or the host for an away seat) says the card's effect is applied:
    the stage ``hold`` and its actor say when and who; nothing else to check."""


def run_confirm_effect(state: dict, seat, action: dict, rng) -> list[dict]:
    step = state["step"]
    event = {"type": "effect_applied", "card": step["card"], "figure": step["figure"],
             "by": "host" if seat == HOST else seat}
    return [event] + step_done(state)


def check_pass(state: dict, seat, action: dict) -> None:
    """Only the host passes a turn, for a player who is away (the table marks its decisions
    ``proxied``): a player at the table always takes one action (« une et une seule »)."""
    if action.get("proxied") is not True:
        raise IllegalAction(N_("Move, attack or retire a figure: that is your turn (only the host passes the turn "
                               "of a player who is away)."))


def run_pass(state: dict, seat, action: dict, rng) -> list[dict]:
    return [{"type": "turn_passed", "seat": seat}] + pass_turn(state)


# --- retiring ---------------------------------------------------------------------------

def check_retire(state: dict, seat, action: dict) -> None:
    figure = on_board(own_figure(state, seat, action, "figure"))
    require_flag(action, "hold")
    if state["board"] is not None and not cards.same_card(card(state, figure["at"])["name"], figure["location"]):
        raise IllegalAction(N_("A figure retires only from its own location, %(location)s, revealed and named."),
                            location=figure["location"])


def run_retire(state: dict, seat, action: dict, rng) -> list[dict]:
    figure = own_figure(state, seat, action, "figure")
    return retire(state, figure, automatic=False) + action_done(state, require_flag(action, "hold"))


# --- naming a card, and the generic board operations ---------------------------------------

# Before the action (and between Enfers' two fights) a board tool only corrects the companion's board to
# the real one: the host's alone, shown as a correction, and the turn's action is still to take. After
# the action the active phone applies with them the effects of its cards.
CORRECTING = (ACTION, "second_fight")


def correcting(state: dict) -> bool:
    return stage_of(state) in CORRECTING


def require_board_operator(state: dict, seat) -> None:
    """The host, or the active phone once its action is taken (the stages hold the board tools only
    between fights, in play)."""
    require_board(state)
    if seat == HOST:
        return
    if seat != state["active"]:
        raise IllegalAction(N_("It is %(name)s's turn."), name=seat_name(state, state["active"]))
    if correcting(state):
        raise IllegalAction(N_("Move, attack or retire a figure: that is your turn. Before it, only the host "
                               "corrects the board (a correction is not an action)."))


def as_correction(events: list[dict], correction: bool) -> list[dict]:
    """The events of a board tool, marked when it corrected the board (the log shows it as such)."""
    return [{**event, "correction": True} for event in events] if correction else events


def check_name_card(state: dict, seat, action: dict) -> None:
    require_board_operator(state, seat)
    cell = require_cell(state, action)
    require_fields(action, name=str)
    if card(state, cell)["name"] is not None and seat != HOST:
        raise IllegalAction(N_("That card is named already: only the host corrects it."))
    check_card_name(state, cell, action["name"])


def run_name_card(state: dict, seat, action: dict, rng) -> list[dict]:
    """A face-down card is turned up when an effect (or the real board) says so, and named."""
    cell = list(action["cell"])
    correction = correcting(state)
    events = as_correction(board.reveal(state, cell) + name_card(state, cell, action["name"]), correction)
    step = state["step"]
    if step and step["kind"] == "name_card" and step["cell"] == cell:  # the arrival waited for this name
        state["step"] = None
        events += arrival_effect(state, figure_by_id(state, step["figure"]), cell)
        if state["step"] is None:
            return events + action_done(state, bool(step.get("hold")))
        state["step"]["hold"] = step.get("hold")
    return events


def check_swap_cards(state: dict, seat, action: dict) -> None:
    require_board_operator(state, seat)
    first, second = require_cell(state, action, "first"), require_cell(state, action, "second")
    if first == second:
        raise IllegalAction(N_("Choose two different locations."))


def run_swap_cards(state: dict, seat, action: dict, rng) -> list[dict]:
    first, second = list(action["first"]), list(action["second"])
    moves = board.swap_cards(state, first, second)
    events = as_correction([{"type": "cards_swapped", "cells": [first, second], "moves": moves}], correcting(state))
    if state["step"] and state["step"]["kind"] == "swap_cards":
        return events + step_done(state)
    return events


def check_swap_figures(state: dict, seat, action: dict) -> None:
    require_board_operator(state, seat)
    first = on_board(figure_field(state, action, "figure"))
    second = on_board(figure_field(state, action, "target"))
    if first is second:
        raise IllegalAction(N_("Choose two different figures."))


def run_swap_figures(state: dict, seat, action: dict, rng) -> list[dict]:
    first, second = figure_field(state, action, "figure"), figure_field(state, action, "target")
    board.swap_figures(first, second)
    return as_correction([{"type": "swapped_figures", "figures": [first["id"], second["id"]]}], correcting(state))


def check_push(state: dict, seat, action: dict) -> None:
    require_board_operator(state, seat)
    pusher = on_board(figure_field(state, action, "figure"))
    target = on_board(figure_field(state, action, "target"))
    board.push_destination(state, pusher, target)


def run_push(state: dict, seat, action: dict, rng) -> list[dict]:
    """Repousser: the pushed figure activates nothing and reveals nothing (the Lexique)."""
    pusher, target = figure_field(state, action, "figure"), figure_field(state, action, "target")
    destination = board.push_destination(state, pusher, target)
    origin, target["at"] = target["at"], destination
    return as_correction([{"type": "pushed", "figure": target["id"], "by": pusher["id"], "from": origin,
                           "to": destination}], correcting(state))


def check_shift(state: dict, seat, action: dict) -> None:
    require_board_operator(state, seat)
    require_fields(action, kind=str, index=int, direction=str)
    kind, direction = action["kind"], action["direction"]
    if kind not in board.SHIFT_DIRECTIONS or direction not in board.SHIFT_DIRECTIONS[kind]:
        raise IllegalAction(N_("Shift a line left or right, or a column forward or back."))
    if not 0 <= action["index"] < state["size"]:
        raise IllegalAction(N_("Lines and columns are numbered from 0 to %(count)s."), count=state["size"] - 1)


def run_shift(state: dict, seat, action: dict, rng) -> list[dict]:
    """Décaler, in the active player's lines and columns (the Lexique)."""
    moves = board.shift(state, state["active"], action["kind"], action["index"], action["direction"])
    return as_correction([{"type": "shifted", "kind": action["kind"], "index": action["index"],
                           "direction": action["direction"], "seat": state["active"], "moves": moves}],
                         correcting(state))


def check_place_in_play(state: dict, seat, action: dict) -> None:
    """Move a figure anywhere free, as a card the companion does not know asks (or, before the action,
    the host's correction)."""
    require_board_operator(state, seat)
    figure = on_board(figure_field(state, action, "figure"))
    cell = require_cell(state, action)
    taken = figure_at(state, cell)
    if taken is not None and taken is not figure:
        raise IllegalAction(N_("That place is taken."))
    if "card" in action:
        require_fields(action, card=str)
        if card(state, cell)["name"] is None:
            check_card_name(state, cell, action["card"])


def run_place_in_play(state: dict, seat, action: dict, rng) -> list[dict]:
    """A correction puts the figure where it really stands: nothing is revealed or applied. A figure
    moved by a card's effect arrives: « Si rien n'est précisé, cet amiibo applique l'effet du lieu
    qu'il quitte ou rejoint » (the card it lands on is turned over and its arrival effect applies)."""
    figure = figure_field(state, action, "figure")
    if correcting(state):
        origin, figure["at"] = figure["at"], list(action["cell"])
        return as_correction([{"type": "moved", "figure": figure["id"], "from": origin, "to": figure["at"]}], True)
    waiting = state["step"]
    events = arrive(state, figure, list(action["cell"]), action.get("card"))
    if state["step"] is not waiting and state["step"] is not None:  # the arrival's effect now waits
        state["step"]["hold"] = bool(waiting and waiting.get("hold"))
    return events
