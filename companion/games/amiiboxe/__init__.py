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
* A figure that arrives on a card whose effect the companion does not know
  (any card but the FAQ's eight: a figure's home card, a card the host added)
  pauses the turn (step ``hold``): the table applies the card's effect on the
  real board (with the generic operations where it moves something), then the
  active player or the host confirms; the host confirms for an away player.
  On a free board this happens when the player names such a card in the move.
* The host passes the turn of a player who is away and has not acted (a
  ``proxied`` decision of the table); a player at the table cannot pass.
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
  table's timeout counts as disagreeing. PRO with 2 players: a disagreement is
  settled by what the companion knows, else the die for another criterion,
  else a fair draw, so that no player blocks a fight by disagreeing.
* The generic operations (name a card, repousser, décaler, swap two cards or
  two figures, move a figure) apply a card's effect once the turn's action is
  taken: then the active phone's and the host's. Before the action (« une et
  une seule » action) they only correct the companion's board to the real one:
  the host's alone, marked ``correction`` in the log, applying and revealing
  nothing; the action is still to take. ``hold: true`` on an action keeps the
  turn open after its known effects for such operations.
* A figure moved by a card's effect (the generic move) arrives on the card it
  lands on: the card is turned over and its arrival effect applies (« cet
  amiibo applique l'effet du lieu qu'il quitte ou rejoint »; Observatoire
  reveals the places around). A face-down card is turned up and named when an
  effect says so.
* A figure captured while carrying enemies gives them back to their owners
  (out of the game, no points for anyone).
* A withdrawn seat's figures leave the board and score nothing.
"""

from __future__ import annotations

import copy

from companion.games.amiiboxe import draws, fights, scoring, setup, turns, views
from companion.games.amiiboxe.common import FACES, IN_PLAY, require_no_fight, seat_ids
from companion.games.amiiboxe.setup import DISAGREEMENT
from companion.games.amiiboxe.turns import ACTION, pass_turn, stage_of, the_active_player
from companion.games.base import (HOST, N_, DrawKind, Game, IllegalAction, Option, RegistrationRules, declare_draws,
                                  register)
from companion.games.kernel import ANYONE, HOST_ONLY, SEAT, Move, Phase, Rules, Stage
from companion.game_checks import GameCheck, register_game_check


def guarded(check):
    """The move's own check, after refusing a seat that is not in the game."""
    def checked(state: dict, seat, action: dict) -> None:
        if seat != HOST and seat not in seat_ids(state):
            raise IllegalAction(N_("You are not playing this game."))
        check(state, seat, action)
    return checked


def offered(kind: str):
    """The candidates of one move type (the generic board operations offer none: their places
    are free; the views say whether they are open)."""
    def candidates(state: dict, seat) -> list[dict]:
        return [{k: v for k, v in action.items() if k != "type"}
                for action in views.candidates(state, seat, operations=False) + extra_candidates(state, seat)
                if action["type"] == kind]
    return candidates


def place_check(state: dict, seat, action: dict) -> None:
    """At setup a placement on the starting line; in play a figure moved for a card's effect."""
    (setup.check_place if state["phase"] == "setup" else turns.check_place_in_play)(state, seat, action)


def place_run(state: dict, seat, action: dict, rng) -> list[dict]:
    return (setup.run_place if state["phase"] == "setup" else turns.run_place_in_play)(state, seat, action, rng)


def move(run, check, kind: str, by: str, proxy: bool = False, label: str | None = None, actors=None) -> Move:
    return Move(run=run, check=guarded(check), candidates=offered(kind), by=by, proxy=proxy, label=label,
                actors=actors)


# type: (run, check, who may send it, the host may decide it for an away seat)
MOVES = {
    "seat_order": move(setup.run_seat_order, setup.check_seat_order, "seat_order", ANYONE),
    "first_player": move(setup.run_first_player, setup.check_first_player, "first_player", ANYONE),
    # A figure's owner chooses its home card at any time before it plays, whoever's turn it is.
    "name_location": move(setup.run_name_location, setup.check_name_location, "name_location", ANYONE,
                          actors=seat_ids),
    "add_card": move(setup.run_add_card, setup.check_add_card, "add_card", HOST_ONLY),
    "begin": move(setup.run_begin, setup.check_begin, "begin", HOST_ONLY),
    "set_reference": move(setup.run_set_reference, setup.check_set_reference, "set_reference", HOST_ONLY),
    "place": move(place_run, place_check, "place", ANYONE),
    # For an away seat the host may pass its turn before its action, confirm a card's effect, end
    # its turn once its action is done (declining what is left): open decisions. The action itself
    # is the player's (or the seat is handed over or taken out); a sealed answer is never the host's.
    "move": move(turns.run_move, turns.check_move, "move", SEAT),
    "attack": move(fights.run_attack, fights.check_attack, "attack", SEAT),
    "retire": move(turns.run_retire, turns.check_retire, "retire", SEAT),
    "end_turn": move(turns.run_end_turn, turns.check_end_turn, "end_turn", SEAT, proxy=True,
                     label=N_("End the turn")),
    "pass": move(turns.run_pass, turns.check_pass, "pass", SEAT, proxy=True,
                 label=N_("Pass the turn (the player is away)")),
    "confirm_effect": move(turns.run_confirm_effect, turns.check_confirm_effect, "confirm_effect", ANYONE,
                           proxy=True, label=N_("The card's effect is applied")),
    "judge": move(fights.run_judge, fights.check_judge, "judge", SEAT),
    "enter_value": move(fights.run_enter_value, fights.check_enter_value, "enter_value", SEAT),
    "name_card": move(turns.run_name_card, turns.check_name_card, "name_card", ANYONE),
    "swap_cards": move(turns.run_swap_cards, turns.check_swap_cards, "swap_cards", ANYONE),
    "swap_figures": move(turns.run_swap_figures, turns.check_swap_figures, "swap_figures", ANYONE),
    "push": move(turns.run_push, turns.check_push, "push", ANYONE),
    "shift": move(turns.run_shift, turns.check_shift, "shift", ANYONE),
}
SETUP_MOVES = ("seat_order", "first_player", "name_location", "add_card", "begin", "set_reference", "place")
# Any time in play: a home card chosen before its figure plays, a card added, the reference changed
# (their checks say when), and the board kept by the host and, when its stage allows, the active phone.
ANY_TIME = ("name_location", "add_card", "set_reference")
BOARD_TOOLS = ("name_card", "swap_cards", "swap_figures", "push", "shift", "place")
ACTIONS = ("move", "attack", "retire")


def fighters_to_answer(state: dict) -> list[int]:
    fight = state["fight"]
    return [owner for role, owner in fight["seats"].items() if not fight["answered"][role]] if fight else []


def voters_to_answer(state: dict) -> list[int]:
    fight = state["fight"]
    return [seat for seat in fight["voters"] if not fight["answered"][str(seat)]] if fight else []


def turn_stage(moves: tuple[str, ...], label: str, actors=the_active_player) -> Stage:
    """A stage of the turn: it is left when the turn waits for something else (`turns.stage_of`)."""
    return Stage(moves=moves + ANY_TIME, label=label, actors=actors, next=stage_of, begin=None)


STAGES = {
    ACTION: turn_stage(ACTIONS + ("pass", "end_turn") + BOARD_TOOLS, N_("playing a turn")),
    "name_card": turn_stage(("end_turn",) + BOARD_TOOLS, N_("naming the card turned over")),
    "swap_cards": turn_stage(("end_turn",) + BOARD_TOOLS, N_("swapping two locations (Amiiboxe ville)")),
    "second_fight": turn_stage(("attack", "end_turn") + BOARD_TOOLS, N_("choosing a second fight (Enfers)")),
    "hold": turn_stage(("confirm_effect", "end_turn") + BOARD_TOOLS, N_("applying a card’s effect on the board")),
    "effects": turn_stage(("end_turn",) + BOARD_TOOLS, N_("finishing a turn’s effects")),
    "fight": turn_stage(("judge", "enter_value"), N_("deciding a fight"), fighters_to_answer),
    "vote": turn_stage(("judge",), N_("voting on a fight"), voters_to_answer),
}
PHASES = {
    "setup": Phase(moves=SETUP_MOVES, label=N_("setting up the square"), actors=seat_ids, waits=False,
                   next=lambda state: "play" if state["turn"] else None),
    "play": Phase(moves=(), label=N_("playing a turn"), actors=the_active_player, begin=setup.begin_play,
                  next=lambda state: "over" if state["winners"] is not None else None, stages=STAGES),
    "over": Phase(moves=(), label=N_("done with this game"), actors=lambda state: [], waits=False),
}


def extra_candidates(state: dict, seat) -> list[dict]:
    """The references the host may set."""
    if seat != HOST:
        return []
    return [{"type": "set_reference", "reference": name} for name in sorted(state["references"]) + ["random"]]


def render(state: dict, seat) -> dict:
    """The view of what ``seat`` may see (the kernel removed the secrets and adds ``legal``)."""
    return views.view(state, seat, operations_open(state, seat))


def operations_open(state: dict, seat) -> bool:
    """Whether the viewer may use the generic board operations now."""
    if seat is None or "push" not in RULES.now(state).moves:  # the stages that hold the board tools
        return False
    try:
        turns.require_board_operator(state, seat)
    except IllegalAction:
        return False
    return True


def check_in_the_game(state: dict, seat, action: dict) -> None:
    if seat not in seat_ids(state):
        raise IllegalAction(N_("You are not playing this game."))


def leave(state: dict, seat: int, action: dict, rng) -> list[dict]:
    """The seat's figures leave the board and score nothing; a fight it was in is called off (as
    the kernel's ``leave``)."""
    events = []
    fight = state["fight"]
    if fight and (seat in fight["seats"].values()):
        fights.clear_answers(state)
        state["fight"] = None
        events.append({"type": "fight_cancelled", "attacker": fight["attacker"], "defender": fight["defender"]})
    elif fight and fight["exchange"] == "vote" and seat in fight["voters"]:
        events += fights.time_out(state, seat, rng)
    events += scoring.withdraw_figures(state, seat)
    if state["phase"] == "play":
        if scoring.game_ends(state):
            events += scoring.finish(state)
        elif state["active"] == seat or (fight and seat in fight["seats"].values()):
            events += pass_turn(state)
    return events


def check_fight_waits(state: dict, seat, action: dict) -> None:
    if not state["fight"]:
        raise IllegalAction(N_("There is nothing to answer."))


def time_out(state: dict, seat: int, action: dict, rng) -> list[dict]:
    """A fight's answer or vote not given in time counts as disagreeing; nothing else is timed."""
    return fights.time_out(state, seat, rng)


RULES = Rules(moves=MOVES, phases=PHASES, render=render, decide=scoring.outcome, wait_on=views.waiting,
              leave=Move(run=leave, check=check_in_the_game), timeout=Move(run=time_out, check=check_fight_waits))
HOST_ACTIONS = RULES.hooks()["host_actions"]
legal_actions = RULES.legal_actions
apply = RULES.apply


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


def waiting(state: dict) -> list[dict]:
    return RULES.waiting(state)


GAME = register(Game(
    id="amiiboxe",
    title=N_("Amiiboxe"),
    min_seats=2,
    max_seats=4,
    options=(
        Option("reference", N_("Reference (a name, random, or 6 criteria)"), "list", ["book"], max_items=FACES,
               item_labels=(("random", N_("random")),)),  # the references' and criteria's names: the shell's
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
    check_options=setup.check_options,
    check_prepared=setup.check_prepared,
    registration=RegistrationRules(unique_figures=True, equal_counts=True),
    figure_tapped=figure_tapped,
    # No rule bounds the board corrections a phone may make; the longest random game (tests/random_play.py,
    # every figure fought off or retired) took under 1,000 actions: half as much again for a margin.
    longest_game=lambda options, seats: 1500,
    **RULES.hooks(),
    withdraw_rule=N_("Its figures leave the board and score nothing; the enemies they carried go back to their "
                     "owners, out of the game."),
))


def draw_check() -> GameCheck:
    """The verifier's check of the fights' dice against their draws (`draws`)."""
    return GameCheck(step=lambda step: draws.step_problems(step.draws, step.entries))


declare_draws(
    "amiiboxe",
    reference=DrawKind((), N_("draw the reference")),
    fight_die=DrawKind(("attacker", "defender"), N_("%(attacker)s attacks %(defender)s")),
    fight_reroll=DrawKind(("attacker", "defender"),
                          N_("again for another criterion: figure %(attacker)s attacks figure %(defender)s")),
    fair_winner=DrawKind(("attacker", "defender"),
                         N_("a fair draw of the winner: figure %(attacker)s or figure %(defender)s")),
)
register_game_check("amiiboxe", draw_check)
