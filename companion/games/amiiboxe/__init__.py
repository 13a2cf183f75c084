"""Amiiboxe (a fan game with amiibo figures on a square of location cards): the pure rules.

The figures and the cards stay on the physical table. The companion rolls the
criterion die, decides fights from the current *reference* (6 criteria on die
faces 1-6), keeps captures, retires and the score sheet, and, when the host
keeps the board (option ``board``: ``kept``), the positions of the figures and
the cards, so that it checks moves, measures the situational criteria and
applies the location effects the book's FAQ describes (`cards`).

The parts: `setup` (« Mise en place »), `board` (the square and the generic
board operations), `cards` (location effects), `turns` (one action a turn,
moves and their effects, retiring), `fights` (criteria, judgements, captures),
`scoring` (points and the end), `views` (views, candidate actions, waiting).

What the shell injects in ``options["context"]``: ``criteria`` {id: {kind,
direction}}, ``references`` {id: [6 ids]}, ``house`` {criterion: [[winner,
loser] amiibo ids]}, ``defaults`` {criterion: [[amiibo ids] tiers, best
first]} (the project's default rankings) and ``cards`` (location names the
table knows besides the eight effect cards and the figures' own). Each
figure carries ``values`` and ``location`` (its home card, or None).

Where the book is silent, we chose (each is a test in tests/test_amiiboxe_rules.py):
* Seats sit clockwise from the south side. The seat order and the first player
  (« le dernier joueur à avoir acquis un amiibo ») are set by the host, or by
  the phones when every seat proposes the same.
* A home location is chosen from the table's cards (names compare without
  case, accents or apostrophe style) by the owner or the host, until the figure
  first plays. Placing a figure at setup does not reveal its card.
* A card turned over by an arrival is named from the same list, in the move or
  right after it: its arrival effect waits for its name.
* Leave effects are special moves: Mute City two places straight over a free
  place (neither revealed nor applied), Great Fox a diagonal, Jungle des
  jobards over an adjacent figure, Île des Yoshis a swap with an adjacent figure
  then an ordinary move from there. Observatoire reveals the four places
  around it, occupied or not. Amiiboxe ville swaps any two cards; a card keeps
  the figure standing on it (as in « décaler »).
* Bourg Palette: the ranged attack targets an ally adjacent to an enemy that
  is adjacent to the attacker; a winning attacker stays. Enfers: after winning
  its first fight the attacker stays and may fight once more (a normal fight).
* Without a kept board the player names the card they stand on; only that
  card's effect is offered.
* A judged fight: see `fights`. A player who does not answer before the
  table's timeout counts as disagreeing.
* The generic operations (name a card, repousser, décaler, swap two cards or
  two figures, move a figure) are the host's and the active phone's; after
  one the turn can always be ended. ``hold: true`` on an action keeps the turn
  open after its known effects for such operations.
* A figure captured while carrying enemies gives them back to their owners
  (out of the game, no points for anyone).
* A withdrawn seat's figures leave the board and score nothing.
"""

from __future__ import annotations

import copy

from companion.games.amiiboxe import fights, scoring, setup, turns, views
from companion.games.amiiboxe.common import FACES, IN_PLAY, require_no_fight, seat_ids
from companion.games.amiiboxe.setup import DISAGREEMENT
from companion.games.amiiboxe.turns import pass_turn
from companion.games.base import HOST, N_, Game, IllegalAction, Option, RegistrationRules, register

SEAT, HOST_ONLY, BOTH = "seat", "host", "both"

# type: (check, run, who may send it)
MOVES = {
    "seat_order": (setup.check_seat_order, setup.run_seat_order, BOTH),
    "first_player": (setup.check_first_player, setup.run_first_player, BOTH),
    "name_location": (setup.check_name_location, setup.run_name_location, BOTH),
    "add_card": (setup.check_add_card, setup.run_add_card, HOST_ONLY),
    "begin": (setup.check_begin, setup.run_begin, HOST_ONLY),
    "set_reference": (setup.check_set_reference, setup.run_set_reference, HOST_ONLY),
    "move": (turns.check_move, turns.run_move, SEAT),
    "attack": (fights.check_attack, fights.run_attack, SEAT),
    "retire": (turns.check_retire, turns.run_retire, SEAT),
    "end_turn": (turns.check_end_turn, turns.run_end_turn, SEAT),
    "judge": (fights.check_judge, fights.run_judge, SEAT),
    "enter_value": (fights.check_enter_value, fights.run_enter_value, SEAT),
    "name_card": (turns.check_name_card, turns.run_name_card, BOTH),
    "swap_cards": (turns.check_swap_cards, turns.run_swap_cards, BOTH),
    "swap_figures": (turns.check_swap_figures, turns.run_swap_figures, BOTH),
    "push": (turns.check_push, turns.run_push, BOTH),
    "shift": (turns.check_shift, turns.run_shift, BOTH),
}
HOST_ACTIONS = frozenset(kind for kind, (_, _, who) in MOVES.items() if who != SEAT) | {"place"}


def move_for(state: dict, kind: str):
    if kind == "place":  # at setup a placement on the starting line; in play a card's effect
        return (setup.check_place, setup.run_place, BOTH) if state["phase"] == "setup" else (
            turns.check_place_in_play, turns.run_place_in_play, BOTH)
    return MOVES.get(kind)


def checked(state: dict, seat, action: object):
    """The move's run function once every rule agrees; `IllegalAction` otherwise."""
    if not isinstance(action, dict):
        raise IllegalAction(N_("Unknown action: %(action)s."), action=str(action)[:40])
    kind = action.get("type")
    kind = kind if isinstance(kind, str) else str(kind)
    move = move_for(state, kind)
    if move is None:
        raise IllegalAction(N_("Unknown action: %(action)s."), action=kind[:40])
    check, run, who = move
    if seat == HOST and who == SEAT:
        raise IllegalAction(N_("The host screen does not play: act from a seat."))
    if seat != HOST and who == HOST_ONLY:
        raise IllegalAction(N_("Only the host can do that."))
    if state["phase"] == "over":
        raise IllegalAction(N_("The game is over."))
    if seat != HOST and seat not in seat_ids(state):
        raise IllegalAction(N_("You are not playing this game."))
    check(state, seat, action)
    return run


def apply(state: dict, seat, action: dict, rng) -> tuple[dict, list[dict]]:
    run = checked(state, seat, action)
    new_state = copy.deepcopy(state)  # apply never mutates its input
    events = run(new_state, seat, action, rng)
    return new_state, copy.deepcopy(events)


def legal_actions(state: dict, seat, operations: bool = True) -> list[dict]:
    """Every action ``seat`` (or ``HOST``) may take now, each refused by nothing. A swap of two cards
    is listed once, its first cell before the second in reading order. ``operations=False`` leaves
    out the generic board operations (hundreds on a big square; the views only say they exist)."""
    listed = []
    extra = host_candidates(state, seat) if operations else []
    for action in views.candidates(state, seat, operations) + extra:
        try:
            checked(state, seat, action)
        except IllegalAction:
            continue
        listed.append(action)
    return listed


def host_candidates(state: dict, seat) -> list[dict]:
    """The reference (the host's), and moving any figure (the host's and the active phone's)."""
    listed = [{"type": "set_reference", "reference": name} for name in sorted(state["references"]) + ["random"]]
    listed = listed if seat == HOST else []
    if state["phase"] != "play" or state["board"] is None or seat not in (HOST, state["active"]):
        return listed
    on = [f for f in state["figures"] if f["status"] == IN_PLAY]
    return listed + [{"type": "place", "figure": f["id"], "cell": cell} for f in on for cell in views.all_cells(state)]


def view(state: dict, seat) -> dict:
    # Changing a home location stays allowed during play (until the figure plays) but is not listed
    # in a view once the fights began: the phones offer it with the setup only.
    legal = [action for action in legal_actions(state, seat, operations=False) if seat is not None
             and (state["phase"] == "setup" or action["type"] != "name_location")]
    shown = views.view(state, seat, legal)
    shown["operations"] = seat is not None and operations_open(state, seat)
    return shown


def operations_open(state: dict, seat) -> bool:
    """Whether the viewer may use the generic board operations now."""
    try:
        turns.require_board_operator(state, seat)
    except IllegalAction:
        return False
    return True


def figure_tapped(state: dict, figure: dict, rng) -> tuple[dict, list[dict]]:
    """A tap selects a figure: the active player's own figure to act, another one as the target."""
    if state["phase"] == "over":
        raise IllegalAction(N_("The game is over."))
    require_no_fight(state)
    ours = next((f for f in state["figures"] if f["id"] == figure.get("id")), None)
    if ours is None:
        raise IllegalAction(N_("There is no such figure in this game."))
    if state["phase"] == "play" and ours["status"] != IN_PLAY:
        raise IllegalAction(N_("This figure is no longer on the board."))
    role = "figure" if state["phase"] == "setup" or ours["seat"] == state["active"] else "target"
    new_state = copy.deepcopy(state)
    new_state["selected"][role] = ours["id"]
    return new_state, [{"type": "figure_selected", "figure": ours["id"], "as": role}]


def withdraw(state: dict, seat: int, rng) -> tuple[dict, list[dict]]:
    state = copy.deepcopy(state)
    if state["phase"] == "over" or seat not in seat_ids(state):
        return state, []
    events = []
    fight = state["fight"]
    if fight and (seat in fight["seats"].values()):
        state["fight"], state["secret"]["answers"] = None, {}
        events.append({"type": "fight_cancelled", "attacker": fight["attacker"], "defender": fight["defender"]})
    elif fight and fight["exchange"] == "vote" and seat in fight["voters"]:
        events += fights.time_out(state, seat, rng)
    events += scoring.withdraw_figures(state, seat)
    if state["phase"] == "setup":
        return state, events
    if scoring.game_ends(state):
        return state, events + scoring.finish(state)
    if state["active"] == seat or (fight and seat in fight["seats"].values() and state["fight"] is None):
        events += pass_turn(state)
    return state, events


def on_timeout(state: dict, seat: int, rng) -> tuple[dict, list[dict]]:
    """A fight's answer or vote not given in time counts as disagreeing; nothing else is timed."""
    state = copy.deepcopy(state)
    if not state["fight"]:
        return state, []
    return state, fights.time_out(state, seat, rng)


def waiting(state: dict) -> list[dict]:
    return views.waiting(state)


GAME = register(Game(
    id="amiiboxe",
    title=N_("Amiiboxe"),
    min_seats=2,
    max_seats=4,
    options=(
        Option("reference", N_("Reference (a name, random, or 6 criteria)"), "list", ["book"], max_items=FACES),
        Option("pro", N_("PRO mode"), "choice", "off", choices=("off", "on"),
               choice_labels=(N_("Off: rankings and values shown"), N_("On: the players judge every fight"))),
        Option("figures_per_player", N_("Figures per player"), "int", 3, minimum=1, maximum=6),
        Option("board", N_("Board"), "choice", "free", choices=("free", "kept"),
               choice_labels=(N_("On the table only"), N_("Also kept on the host screen"))),
        # Short labels: the select must fit a phone's width.
        Option("disagreement", N_("Players disagree on a judgement"), "choice", "resolve", choices=DISAGREEMENT,
               choice_labels=(N_("Others vote, or roll again"), N_("Tie on disagreement"))),
    ),
    setup=setup.setup,
    apply=apply,
    view=view,
    check_options=setup.check_options,
    registration=RegistrationRules(unique_figures=True, equal_counts=True),
    figure_tapped=figure_tapped,
    host_actions=HOST_ACTIONS,
    outcome=scoring.outcome,
    legal_actions=legal_actions,
    waiting=waiting,
    # For an away seat the host may end its turn (declining an effect), retire or move a figure:
    # open decisions with few choices, never a judgement (sealed).
    proxy_actions=frozenset({"end_turn", "retire", "move"}),
    withdraw=withdraw,
    withdraw_rule=N_("Its figures leave the board and score nothing; the enemies they carried go back to their "
                     "owners, out of the game."),
    on_timeout=on_timeout,
))
