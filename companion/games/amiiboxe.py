"""Amiiboxe (a fan game with amiibo figures on a square of location cards): the pure rules.

The figures and the cards stay on the physical table. The companion rolls the
criterion die, decides fights from the current *reference* (6 criteria on die
faces 1-6), keeps captures, retires and the score sheet, and, when the host
keeps the board (option ``board``: ``kept``), the positions of the figures and
the revealed locations, so that it can check adjacency and measure the
situational criteria itself.

What the shell injects
* ``options["context"]`` (added after the options are normalised):
  ``{"criteria": {id: {"kind", "direction"}}, "references": {id: [6 ids]},
  "house": {criterion: [[winner_amiibo_id, loser_amiibo_id], ...]}}``. The
  game never imports the criteria catalogue: it only knows these ids.
* Each seat's figures carry ``values`` (computed and facts criteria; a missing
  criterion is unknown) and ``location`` (its home location name, or None).
* Host actions (``HOST_ACTIONS``) are applied with ``seat == HOST``.
* ``figure_tapped`` selects a figure for the active player's next action.

State phases: ``setup`` (seat order, first player, location names, starting
placements), ``play``, ``over``.

Actions (``type`` and fields; a figure field may be left out to use the
figure selected by a tap: ``figure``/``attacker`` the tapped own figure,
``defender`` the tapped enemy)
* seats, setup: ``name_location`` {figure, name}.
* the active seat: ``move`` {figure, cell (board kept)}, ``attack``
  {attacker, defender, ranged?: bool, chain?: bool}, ``retire`` {figure},
  ``end_turn`` (only to decline a chained fight).
* the two seats of a pending fight: ``judge`` {winner: figure id},
  ``enter_value`` {value: 0-99}.
* the host: ``seat_order`` {seats}, ``first_player`` {seat}, ``begin``,
  ``set_reference`` {reference: id, "random" or a list of 6 criterion ids},
  and with the board kept ``place`` {figure, cell}, ``reveal`` {cell, name},
  ``push`` {figure, target}, ``shift`` {kind, index, direction}.
A cell is ``[row, column]`` of the kept board: row 0 is the north side,
column 0 the west side (the first seat of the clockwise order sits south).

Events (public facts; a sealed answer never appears before both are in):
``seat_order``, ``first_player``, ``location_named`` {figure, amiibo_id,
name}, ``placed``, ``play_began``, ``reference_changed``, ``figure_selected``,
``moved``, ``location_revealed``, ``pushed``, ``shifted``, ``fight_rolled``
{attacker, defender, face, criterion}, ``fight_asks`` {exchange, seats},
``answered`` {seat}, ``fight_decided`` {criterion, values, winner, by, ...},
``house_learned`` {criterion, winner, loser} (amiibo ids, for the shell to
remember), ``captured`` {figure, by, returned}, ``chain_offered``,
``retired`` {figure, seat, points, carried, automatic}, ``turn``,
``game_over`` {scores, winners}.

Where the book is silent, we chose:
* Seats sit clockwise around the square: the first of the order at the south
  side, then west, north, east (two players face each other, south and north;
  with three, the east side is empty).
* The first player is asked (the last to have acquired an amiibo); nobody is
  assumed. Play begins (host ``begin``) once the first player is known, every
  home location is named and, with the board kept, every figure stands on its
  owner's starting line. Placing a figure at setup does not reveal its card.
* A fight whose values cannot be compared (a computed or facts value
  missing) is decided by the two players, like a judgement criterion, but
  nothing is learnt for the house ranking (it ranks judgement criteria only).
* In the judge and value exchanges each player answers once; the answers stay
  sealed (the views say only who answered) until both are in.
* Judgement agreement is added to the game's house ranking with its
  transitive consequences (if A beats B and C beats A, C beats B).
* ``ranged: true``: a ranged attack (as Bourg Palette's): no adjacency check,
  and the attacker stays on its place after a win. ``chain: true``: after a
  won fight the same figure may fight once more (as Enfers'), or the player
  ends the turn; the second fight is an ordinary ``attack`` with its own
  flags. Without a win the turn ends as usual.
* A figure moving onto a face-down card reveals it (host ``reveal`` then
  names it); so does a figure placed there by the host during play (a
  location effect) or an attacker taking its victim's place. A pushed figure
  activates nothing and reveals nothing (the book: "n'active pas d'effets").
* Retiring with the board kept needs the figure's card revealed and named
  its home location (names compare without case or surrounding spaces).
* Décaler: the figures ride with their cards (the card pushed out of the
  square comes back on the other side, with its figure). ``kind`` ``line``
  (parallel to the active player's starting line, ``index`` 0 = that line,
  counting away from them) moves ``left``/``right``; ``column`` (``index`` 0
  = their leftmost) moves ``forward``/``back``.
* Repousser is a host operation for any two adjacent figures (effects decide
  who pushes); it is refused at the edge or onto an occupied place.
* The host's board operations never end a turn; they wait while a fight is
  being decided, and so does a change of reference ("between fights").
* A figure captured while carrying enemies gives them back to their owners
  (out of the game, no points for anyone); its captor carries it only.
* The turn passes clockwise to the next player who still has figures on the
  board. When at most one player has figures left, they retire at once and
  score; the highest total wins, equal totals share the win.
* The house ranking and, in PRO mode, every value stay out of the views.
"""

from __future__ import annotations

import copy
import itertools
from collections import Counter

from companion.games.base import HOST, N_, Game, IllegalAction, Option, RegistrationRules, register, require_fields

KINDS = ("computed", "facts", "situational", "judgement")
DIRECTIONS = ("min", "max")
FACES = 6
RANDOM = "random"
MAX_NAME_LENGTH = 40
MAX_VALUE = 99
IN_PLAY, RETIRED, CAPTURED, OUT = "in_play", "retired", "captured", "out"
ATTACKER, DEFENDER, TIE = "attacker", "defender", "tie"

# Seats sit clockwise from the south side (see the module docstring).
SIDES_BY_PLAYERS = {2: ("south", "north"), 3: ("south", "west", "north"), 4: ("south", "west", "north", "east")}
EXTRA_CARDS_PER_SIDE = {2: 0, 3: 1, 4: 2}  # the book: +1 card per side with 3 players, +2 with 4
# A player's frame: (forward, right) as (row, column) steps; forward leaves their starting line.
FRAMES = {"south": ((-1, 0), (0, 1)), "north": ((1, 0), (0, -1)),
          "west": ((0, 1), (1, 0)), "east": ((0, -1), (-1, 0))}
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))  # orthogonal only: diagonals are not adjacent
SHIFT_DIRECTIONS = {"line": {"right": 1, "left": -1}, "column": {"forward": 1, "back": -1}}


# --- setup ---------------------------------------------------------------

def check_options(options: dict) -> None:
    reference = options["reference"]
    if len(reference) not in (1, FACES) or len(set(reference)) != len(reference):
        raise IllegalAction(N_("A reference is a reference name, “random”, or 6 different criteria."))


def setup(options: dict, seats: list[dict], rng) -> dict:
    criteria, references, house = read_context(options.get("context"))
    per_player = options["figures_per_player"]
    check_seats(seats, per_player)
    size = per_player + 1 + EXTRA_CARDS_PER_SIDE[len(seats)]
    state = {
        "phase": "setup", "pro": options["pro"] == "on", "size": size,
        "criteria": criteria, "references": references, "house": house, "reference": None,
        "seats": [{"id": seat["id"], "name": seat["name"], "points": 0} for seat in seats],
        "order": [seat["id"] for seat in seats], "first": None, "active": None, "turn": 0,
        "figures": [game_figure(figure, seat["id"]) for seat in seats for figure in seat["figures"]],
        "board": new_board(size) if options["board"] == "kept" else None,
        "selected": no_selection(), "fight": None, "chain": None,
        "fights": [], "retires": [], "winners": None,
    }
    state["reference"] = resolve_reference(state, options["reference"], rng)
    return state


def context_error() -> IllegalAction:
    return IllegalAction(N_("The criteria of Amiiboxe are missing or malformed."))


def read_context(context: object) -> tuple[dict, dict, dict]:
    """The criteria, references and house ranking the shell injects, checked and copied."""
    if not isinstance(context, dict) or not isinstance(context.get("criteria"), dict):
        raise context_error()
    criteria = {}
    for criterion, info in context["criteria"].items():
        if not isinstance(info, dict) or info.get("kind") not in KINDS or info.get("direction") not in DIRECTIONS:
            raise context_error()
        criteria[criterion] = {"kind": info["kind"], "direction": info["direction"]}
    references = context.get("references") or {}
    if not isinstance(references, dict) or not all(
            isinstance(ids, list) and len(ids) == FACES and all(isinstance(i, str) and i in criteria for i in ids)
            for ids in references.values()):
        raise context_error()
    house = context.get("house") or {}
    if not isinstance(house, dict) or not all(
            criterion in criteria and isinstance(pairs, list) and all(is_pair(pair) for pair in pairs)
            for criterion, pairs in house.items()):
        raise context_error()
    return (criteria, {name: list(ids) for name, ids in references.items()},
            {criterion: [list(pair) for pair in pairs] for criterion, pairs in house.items()})


def is_pair(pair: object) -> bool:
    return isinstance(pair, list) and len(pair) == 2 and all(isinstance(item, str) for item in pair)


def check_seats(seats: list[dict], per_player: int) -> None:
    if not 2 <= len(seats) <= 4:
        raise IllegalAction(N_("Amiiboxe is played by 2 to 4 players."))
    owners: dict[str, dict] = {}
    for seat in seats:
        if len(seat["figures"]) != per_player:
            raise IllegalAction(N_("Every player needs %(count)s figures; %(name)s has %(has)s."),
                                count=per_player, name=seat["name"], has=len(seat["figures"]))
        for figure in seat["figures"]:
            if figure["amiibo_id"] in owners:
                raise IllegalAction(N_("%(figure)s is already in this game, with %(name)s."),
                                    figure=english_name(figure), name=owners[figure["amiibo_id"]]["name"])
            owners[figure["amiibo_id"]] = seat


def game_figure(figure: dict, seat_id: int) -> dict:
    values = {criterion: value for criterion, value in (figure.get("values") or {}).items() if is_number(value)}
    location = figure.get("location")
    location = location.strip()[:MAX_NAME_LENGTH] if isinstance(location, str) else None
    return {"id": figure["id"], "amiibo_id": figure["amiibo_id"], "name": dict(figure["name"]), "seat": seat_id,
            "location": location or None, "values": values, "status": IN_PLAY, "at": None,
            "carries": [], "captured_by": None}


def is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def english_name(figure: dict) -> str:
    return figure["name"].get("en") or figure["amiibo_id"]


def new_board(size: int) -> list[list[dict]]:
    """Rows of location cards, all face down; a card's name is known once the host names it."""
    return [[{"revealed": False, "name": None} for _ in range(size)] for _ in range(size)]


def no_selection() -> dict:
    return {"figure": None, "target": None}


def resolve_reference(state: dict, choice: object, rng) -> dict:
    """A reference id, ``random`` (drawn among the known ones) or 6 criterion ids."""
    if isinstance(choice, str):
        choice = [choice]
    if not isinstance(choice, list) or not all(isinstance(item, str) for item in choice):
        raise IllegalAction(N_("A reference is a reference name, “random”, or 6 different criteria."))
    if len(choice) == 1:
        name = choice[0]
        if name == RANDOM and state["references"]:
            name = rng.choice(sorted(state["references"]), "draw the reference")
        if name not in state["references"]:
            raise IllegalAction(N_("Unknown reference: %(reference)s."), reference=name)
        return {"id": name, "criteria": list(state["references"][name])}
    if len(choice) != FACES or len(set(choice)) != FACES:
        raise IllegalAction(N_("A reference is a reference name, “random”, or 6 different criteria."))
    unknown = [criterion for criterion in choice if criterion not in state["criteria"]]
    if unknown:
        raise IllegalAction(N_("Unknown criterion: %(criterion)s."), criterion=unknown[0])
    return {"id": None, "criteria": list(choice)}


# --- the square --------------------------------------------------------------

def side_of(state: dict, seat_id: int) -> str:
    return SIDES_BY_PLAYERS[len(state["order"])][state["order"].index(seat_id)]


def frame_origin(side: str, size: int) -> tuple[int, int]:
    """The corner at a player's left on their starting line."""
    forward, right = FRAMES[side]
    return tuple(size - 1 if -1 in (forward[k], right[k]) else 0 for k in (0, 1))


def frame_cell(side: str, line: int, column: int, size: int) -> list[int]:
    """The cell on a player's ``line`` (0 = their starting line) and ``column`` (0 = their left)."""
    (forward, right), origin = FRAMES[side], frame_origin(side, size)
    return [origin[k] + line * forward[k] + column * right[k] for k in (0, 1)]


def line_index(side: str, cell: list[int], size: int) -> int:
    """How many lines the cell lies from that side's starting line."""
    forward, origin = FRAMES[side][0], frame_origin(side, size)
    return sum((cell[k] - origin[k]) * forward[k] for k in (0, 1))


def forbidden_corners(state: dict) -> list[list[int]]:
    """With 3-4 players, the corners shared by two starting lines."""
    size, sides = state["size"], SIDES_BY_PLAYERS[len(state["order"])]
    ends = Counter(tuple(frame_cell(side, 0, column, size)) for side in sides for column in (0, size - 1))
    return [list(corner) for corner, count in sorted(ends.items()) if count > 1]


def starting_cells(state: dict, seat_id: int) -> list[list[int]]:
    side, size, forbidden = side_of(state, seat_id), state["size"], forbidden_corners(state)
    line = [frame_cell(side, 0, column, size) for column in range(size)]
    return [cell for cell in line if cell not in forbidden]


def inside(state: dict, cell: list[int]) -> bool:
    return all(0 <= k < state["size"] for k in cell)


def neighbours(state: dict, cell: list[int]) -> list[list[int]]:
    return [[cell[0] + dr, cell[1] + dc] for dr, dc in STEPS if inside(state, [cell[0] + dr, cell[1] + dc])]


def adjacent(a: list[int] | None, b: list[int] | None) -> bool:
    return a is not None and b is not None and abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def figure_at(state: dict, cell: list[int]) -> dict | None:
    return next((f for f in state["figures"] if f["status"] == IN_PLAY and f["at"] == cell), None)


def card(state: dict, cell: list[int]) -> dict:
    return state["board"][cell[0]][cell[1]]


def same_name(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and a.strip().casefold() == b.strip().casefold()


def home_locations(state: dict) -> list[str]:
    """The cards the square must hold: each figure's home location, once."""
    names: list[str] = []
    for figure in state["figures"]:
        if figure["location"] and not any(same_name(figure["location"], name) for name in names):
            names.append(figure["location"])
    return names


def arrive(state: dict, figure: dict, cell: list[int]) -> list[dict]:
    """A figure arrives on a place; a face-down card there is revealed (the host names it)."""
    origin, figure["at"] = figure["at"], cell
    events = [{"type": "moved", "figure": figure["id"], "from": origin, "to": cell}]
    if not card(state, cell)["revealed"]:
        card(state, cell)["revealed"] = True
        events.append({"type": "location_revealed", "cell": cell, "name": None})
    return events


# --- apply ---------------------------------------------------------------

def apply(state: dict, seat, action: dict, rng) -> tuple[dict, list[dict]]:
    if not isinstance(action, dict):
        raise IllegalAction(N_("Unknown action: %(action)s."), action=str(action))
    kind = action.get("type")
    kind = kind if isinstance(kind, str) else str(kind)
    handler = (HOST_HANDLERS if seat == HOST else PLAYER_HANDLERS).get(kind)
    if handler is None:
        if kind in HOST_HANDLERS:
            raise IllegalAction(N_("Only the host can do that."))
        if kind in PLAYER_HANDLERS:
            raise IllegalAction(N_("The host screen does not play: act from a seat."))
        raise IllegalAction(N_("Unknown action: %(action)s."), action=kind)
    if state["phase"] == "over":
        raise IllegalAction(N_("The game is over."))
    if seat != HOST and seat not in seat_ids(state):
        raise IllegalAction(N_("You are not playing this game."))
    new_state = copy.deepcopy(state)  # apply never mutates its input
    events = handler(new_state, seat, action, rng)
    return new_state, copy.deepcopy(events)  # events share nothing with the state the shell keeps


def seat_ids(state: dict) -> list[int]:
    return [seat["id"] for seat in state["seats"]]


def seat_name(state: dict, seat_id: int) -> str:
    return next(seat["name"] for seat in state["seats"] if seat["id"] == seat_id)


def require_phase(state: dict, phase: str) -> None:
    if state["phase"] != phase:
        if phase == "setup":
            raise IllegalAction(N_("That is done before the fights begin."))
        raise IllegalAction(N_("The fights have not begun yet."))


def require_no_fight(state: dict) -> None:
    if state["fight"]:
        raise IllegalAction(N_("A fight is being decided: wait for both answers."))


def require_board(state: dict) -> list[list[dict]]:
    if state["board"] is None:
        raise IllegalAction(N_("The companion does not keep the board in this game."))
    return state["board"]


def require_cell(state: dict, action: dict) -> list[int]:
    require_fields(action, cell=list)
    cell = action["cell"]
    if len(cell) != 2 or not all(type(k) is int for k in cell) or not inside(state, cell):
        raise IllegalAction(N_("A place is [row, column] inside the square of %(count)s cards a side."),
                            count=state["size"])
    return list(cell)


def require_name(action: dict) -> str:
    require_fields(action, name=str)
    name = action["name"].strip()
    if not 0 < len(name) <= MAX_NAME_LENGTH:
        raise IllegalAction(N_("A location name has 1 to %(count)s characters."), count=MAX_NAME_LENGTH)
    return name


def chosen_figure(state: dict, action: dict, field: str, selected: str | None) -> dict:
    """The figure an action names, or the one a tap selected when the field is left out."""
    if field not in action and selected and state["selected"][selected] is not None:
        figure_id = state["selected"][selected]
    else:
        require_fields(action, **{field: int})
        figure_id = action[field]
    figure = next((f for f in state["figures"] if f["id"] == figure_id), None)
    if figure is None:
        raise IllegalAction(N_("There is no such figure in this game."))
    return figure


def on_board(figure: dict) -> dict:
    if figure["status"] != IN_PLAY:
        raise IllegalAction(N_("This figure is no longer on the board."))
    return figure


def own_figure(state: dict, seat: int, action: dict, field: str, selected: str | None = "figure") -> dict:
    figure = chosen_figure(state, action, field, selected)
    if figure["seat"] != seat:
        raise IllegalAction(N_("That figure is not yours."))
    return figure


# --- setup actions ---------------------------------------------------------

def do_seat_order(state: dict, seat, action: dict, rng) -> list[dict]:
    require_phase(state, "setup")
    require_fields(action, seats=list)
    order = action["seats"]
    if not all(type(item) is int for item in order) or sorted(order) != sorted(seat_ids(state)):
        raise IllegalAction(N_("The seat order lists every player once, clockwise."))
    state["order"] = list(order)
    return [{"type": "seat_order", "seats": list(order)}]


def do_first_player(state: dict, seat, action: dict, rng) -> list[dict]:
    require_phase(state, "setup")
    require_fields(action, seat=int)
    if action["seat"] not in seat_ids(state):
        raise IllegalAction(N_("There is no such seat at this table."))
    state["first"] = action["seat"]
    return [{"type": "first_player", "seat": action["seat"]}]


def do_name_location(state: dict, seat: int, action: dict, rng) -> list[dict]:
    require_phase(state, "setup")
    figure = own_figure(state, seat, action, "figure", None)
    figure["location"] = require_name(action)
    return [{"type": "location_named", "figure": figure["id"], "amiibo_id": figure["amiibo_id"],
             "name": figure["location"]}]


def do_place(state: dict, seat, action: dict, rng) -> list[dict]:
    """Setup: a figure on its owner's starting line. Play: a location effect moves it anywhere free."""
    require_board(state)
    playing = state["phase"] == "play"
    if playing:
        require_no_fight(state)
    figure = on_board(chosen_figure(state, action, "figure", None if playing else "figure"))
    cell = require_cell(state, action)
    occupant = figure_at(state, cell)
    if occupant is not None and occupant is not figure:
        raise IllegalAction(N_("That place is taken."))
    if playing:
        return arrive(state, figure, cell)
    if cell not in starting_cells(state, figure["seat"]):
        raise IllegalAction(N_("A figure starts on its owner's starting line, never in a corner shared by two "
                               "starting lines."))
    origin, figure["at"] = figure["at"], cell
    state["selected"] = no_selection()
    return [{"type": "placed", "figure": figure["id"], "from": origin, "to": cell}]


def setup_needs(state: dict) -> list[str]:
    """What is missing before the fights can begin."""
    needs = []
    if state["first"] is None:
        needs.append("first_player")
    if any(figure["location"] is None for figure in state["figures"]):
        needs.append("locations")
    if state["board"] is not None and not all(
            figure["at"] in starting_cells(state, figure["seat"]) for figure in state["figures"]):
        needs.append("placements")
    return needs


def do_begin(state: dict, seat, action: dict, rng) -> list[dict]:
    require_phase(state, "setup")
    needs = setup_needs(state)
    if "first_player" in needs:
        raise IllegalAction(N_("Say first who acquired an amiibo last: they play first."))
    if "locations" in needs:
        raise IllegalAction(N_("Every figure's home location must be named first."))
    if "placements" in needs:
        raise IllegalAction(N_("Every figure must first stand on its owner's starting line."))
    state["phase"], state["active"], state["turn"] = "play", state["first"], 1
    state["selected"] = no_selection()
    return [{"type": "play_began", "order": state["order"], "seat": state["first"]}]


def do_set_reference(state: dict, seat, action: dict, rng) -> list[dict]:
    require_no_fight(state)
    if "reference" not in action:
        require_fields(action, reference=list)
    state["reference"] = resolve_reference(state, action["reference"], rng)
    return [{"type": "reference_changed", **state["reference"]}]


# --- board operations (host) ------------------------------------------------

def require_board_play(state: dict) -> None:
    require_board(state)
    require_phase(state, "play")
    require_no_fight(state)


def do_reveal(state: dict, seat, action: dict, rng) -> list[dict]:
    require_board_play(state)
    cell, name = require_cell(state, action), require_name(action)
    for row, cards in enumerate(state["board"]):
        for column, other in enumerate(cards):
            if [row, column] != cell and same_name(other["name"], name):
                raise IllegalAction(N_("That location is already on the board."))
    state["board"][cell[0]][cell[1]] = {"revealed": True, "name": name}
    return [{"type": "location_revealed", "cell": cell, "name": name}]


def do_push(state: dict, seat, action: dict, rng) -> list[dict]:
    """Repousser: the target moves one place away from the pusher, activating nothing."""
    require_board_play(state)
    pusher = on_board(chosen_figure(state, action, "figure", None))
    target = on_board(chosen_figure(state, action, "target", None))
    if not adjacent(pusher["at"], target["at"]):
        raise IllegalAction(N_("Only an adjacent figure can be pushed."))
    destination = [2 * target["at"][k] - pusher["at"][k] for k in (0, 1)]
    if not inside(state, destination):
        raise IllegalAction(N_("That figure is at the edge of the square: it cannot be pushed."))
    if figure_at(state, destination):
        raise IllegalAction(N_("The place behind that figure is taken: it cannot be pushed."))
    origin, target["at"] = target["at"], destination
    return [{"type": "pushed", "figure": target["id"], "by": pusher["id"], "from": origin, "to": destination}]


def do_shift(state: dict, seat, action: dict, rng) -> list[dict]:
    """Décaler: a line or column of cards moves one place, in the active player's orientation."""
    require_board_play(state)
    require_fields(action, kind=str, index=int, direction=str)
    kind, index, direction, size = action["kind"], action["index"], action["direction"], state["size"]
    if kind not in SHIFT_DIRECTIONS or direction not in SHIFT_DIRECTIONS[kind]:
        raise IllegalAction(N_("Shift a line left or right, or a column forward or back."))
    if not 0 <= index < size:
        raise IllegalAction(N_("Lines and columns are numbered from 0 to %(count)s."), count=size - 1)
    side = side_of(state, state["active"])
    cells = [frame_cell(side, index, k, size) if kind == "line" else frame_cell(side, k, index, size)
             for k in range(size)]
    cards = [card(state, cell) for cell in cells]
    riders = [figure_at(state, cell) for cell in cells]
    step, moves = SHIFT_DIRECTIONS[kind][direction], []
    for k, cell in enumerate(cells):
        destination = cells[(k + step) % size]  # the card pushed out comes back on the other side
        state["board"][destination[0]][destination[1]] = cards[k]
        if riders[k]:
            riders[k]["at"] = destination
            moves.append({"figure": riders[k]["id"], "from": cell, "to": destination})
    return [{"type": "shifted", "kind": kind, "index": index, "direction": direction,
             "seat": state["active"], "moves": moves}]


# --- a turn ------------------------------------------------------------------

def start_turn_action(state: dict, seat: int) -> None:
    require_phase(state, "play")
    require_no_fight(state)
    if state["active"] != seat:
        raise IllegalAction(N_("It is %(name)s's turn."), name=seat_name(state, state["active"]))


def refuse_during_chain(state: dict) -> None:
    if state["chain"]:
        raise IllegalAction(N_("Fight again with the figure that just won, or end your turn."))


def do_move(state: dict, seat: int, action: dict, rng) -> list[dict]:
    start_turn_action(state, seat)
    refuse_during_chain(state)
    figure = on_board(own_figure(state, seat, action, "figure"))
    if state["board"] is None:
        events = [{"type": "moved", "figure": figure["id"]}]  # the move happens on the table
    else:
        cell = require_cell(state, action)
        if not adjacent(figure["at"], cell):
            raise IllegalAction(N_("A figure moves to an adjacent place (diagonals are not adjacent)."))
        if figure_at(state, cell):
            raise IllegalAction(N_("That place is taken."))
        events = arrive(state, figure, cell)
    return events + after_turn(state)


def do_retire(state: dict, seat: int, action: dict, rng) -> list[dict]:
    start_turn_action(state, seat)
    refuse_during_chain(state)
    figure = on_board(own_figure(state, seat, action, "figure"))
    if state["board"] is not None and not same_name(card(state, figure["at"])["name"], figure["location"]):
        raise IllegalAction(N_("A figure retires only from its own location, %(location)s, revealed and named."),
                            location=figure["location"])
    return retire(state, figure, automatic=False) + after_turn(state)


def retire(state: dict, figure: dict, automatic: bool) -> list[dict]:
    """1 point, and 1 more for each enemy the figure carries."""
    points = 1 + len(figure["carries"])
    figure["status"], figure["at"] = RETIRED, None
    next(seat for seat in state["seats"] if seat["id"] == figure["seat"])["points"] += points
    entry = {"figure": figure["id"], "seat": figure["seat"], "points": points,
             "carried": list(figure["carries"]), "automatic": automatic}
    state["retires"].append(entry)
    return [{"type": "retired", **entry}]


def do_end_turn(state: dict, seat: int, action: dict, rng) -> list[dict]:
    start_turn_action(state, seat)
    if not state["chain"]:
        raise IllegalAction(N_("Move, attack or retire a figure: that is your turn."))
    state["chain"] = None
    return after_turn(state)


def after_turn(state: dict) -> list[dict]:
    state["selected"] = no_selection()
    holders = seats_on_board(state)
    if len(holders) <= 1:
        return finish(state)
    order, active = state["order"], state["active"]
    start = order.index(active)
    state["active"] = next(order[(start + step) % len(order)] for step in range(1, len(order) + 1)
                           if order[(start + step) % len(order)] in holders)
    state["turn"] += 1
    return [{"type": "turn", "seat": state["active"], "turn": state["turn"]}]


def seats_on_board(state: dict) -> set[int]:
    return {figure["seat"] for figure in state["figures"] if figure["status"] == IN_PLAY}


def finish(state: dict) -> list[dict]:
    """The last player on the board retires every figure left; the highest total wins."""
    events = []
    for figure in state["figures"]:
        if figure["status"] == IN_PLAY:
            events += retire(state, figure, automatic=True)
    best = max(seat["points"] for seat in state["seats"])
    state["winners"] = [seat["id"] for seat in state["seats"] if seat["points"] == best]
    state["phase"], state["active"], state["chain"] = "over", None, None
    scores = [{"seat": seat["id"], "points": seat["points"]} for seat in state["seats"]]
    return events + [{"type": "game_over", "scores": scores, "winners": state["winners"]}]


# --- fights ----------------------------------------------------------------------

def attack_flags(action: dict) -> dict:
    require_fields(action, **{flag: bool for flag in ("ranged", "chain") if flag in action})
    return {"ranged": action.get("ranged", False), "chain": action.get("chain", False)}


def do_attack(state: dict, seat: int, action: dict, rng) -> list[dict]:
    start_turn_action(state, seat)
    flags = attack_flags(action)
    attacker = on_board(own_figure(state, seat, action, "attacker"))
    if state["chain"] and state["chain"]["figure"] != attacker["id"]:
        raise IllegalAction(N_("Fight again with the figure that just won, or end your turn."))
    defender = on_board(chosen_figure(state, action, "defender", "target"))
    if defender["seat"] == seat:
        raise IllegalAction(N_("Attack an enemy, not one of your own figures."))
    if state["board"] is not None and not flags["ranged"] and not adjacent(attacker["at"], defender["at"]):
        raise IllegalAction(N_("Only an adjacent enemy can be attacked (diagonals are not adjacent)."))
    state["chain"] = None
    face = rng.randint(1, FACES, f"{english_name(attacker)} attacks {english_name(defender)}")
    criterion = state["reference"]["criteria"][face - 1]
    fight = {"attacker": attacker["id"], "defender": defender["id"], "face": face, "criterion": criterion,
             "seats": {ATTACKER: attacker["seat"], DEFENDER: defender["seat"]}, **flags}
    rolled = {"type": "fight_rolled", "attacker": attacker["id"], "defender": defender["id"], "face": face,
              "criterion": criterion}
    return [rolled] + open_fight(state, fight, attacker, defender)


def open_fight(state: dict, fight: dict, attacker: dict, defender: dict) -> list[dict]:
    """Decide at once when the companion can; otherwise ask both players."""
    criterion = fight["criterion"]
    kind, direction = state["criteria"][criterion]["kind"], state["criteria"][criterion]["direction"]
    if state["pro"]:
        return ask(state, fight, "judge")
    if kind in ("computed", "facts"):
        values = [attacker["values"].get(criterion), defender["values"].get(criterion)]
        if None in values:
            return ask(state, fight, "judge")
        return settle(state, fight, compare(values, direction), "values", values)
    if kind == "situational":
        measure = BOARD_MEASURES.get(criterion)
        if state["board"] is None or measure is None:
            return ask(state, fight, "values")
        values = [measure(state, attacker), measure(state, defender)]
        return settle(state, fight, compare(values, direction), "board", values)
    winner = house_winner(state, criterion, attacker, defender)
    if winner:
        return settle(state, fight, winner, "house", None)
    return ask(state, fight, "judge")


def compare(values: list, direction: str) -> str:
    attacker, defender = values
    if attacker == defender:
        return TIE
    better = attacker > defender if direction == "max" else attacker < defender
    return ATTACKER if better else DEFENDER


def supports(state: dict, figure: dict) -> int:
    """Allied figures orthogonally adjacent (the Lexique's soutiens)."""
    return sum(1 for cell in neighbours(state, figure["at"])
               if (ally := figure_at(state, cell)) and ally["seat"] == figure["seat"])


def distance_from_start(state: dict, figure: dict) -> int:
    return line_index(side_of(state, figure["seat"]), figure["at"], state["size"])


BOARD_MEASURES = {"most_supports": supports, "farthest_from_start": distance_from_start}


def house_winner(state: dict, criterion: str, attacker: dict, defender: dict) -> str | None:
    pairs = state["house"].get(criterion, [])
    if [attacker["amiibo_id"], defender["amiibo_id"]] in pairs:
        return ATTACKER
    if [defender["amiibo_id"], attacker["amiibo_id"]] in pairs:
        return DEFENDER
    return None


def ask(state: dict, fight: dict, exchange: str) -> list[dict]:
    state["fight"] = {**fight, "exchange": exchange, "answers": {ATTACKER: None, DEFENDER: None}}
    return [{"type": "fight_asks", "exchange": exchange,
             "seats": [fight["seats"][ATTACKER], fight["seats"][DEFENDER]]}]


def answering_role(state: dict, seat: int, exchange: str) -> str:
    fight = state["fight"]
    if not fight or fight["exchange"] != exchange:
        raise IllegalAction(N_("There is nothing to answer."))
    role = next((role for role, owner in fight["seats"].items() if owner == seat), None)
    if role is None:
        raise IllegalAction(N_("Only the two players of the fight answer."))
    if fight["answers"][role] is not None:
        raise IllegalAction(N_("You have already answered."))
    return role


def do_judge(state: dict, seat: int, action: dict, rng) -> list[dict]:
    role = answering_role(state, seat, "judge")
    require_fields(action, winner=int)
    fight = state["fight"]
    if action["winner"] not in (fight["attacker"], fight["defender"]):
        raise IllegalAction(N_("The winner is one of the two figures of the fight."))
    return record_answer(state, seat, role, action["winner"])


def do_enter_value(state: dict, seat: int, action: dict, rng) -> list[dict]:
    role = answering_role(state, seat, "values")
    require_fields(action, value=int)
    if not 0 <= action["value"] <= MAX_VALUE:
        raise IllegalAction(N_("Enter a whole number from 0 to %(count)s."), count=MAX_VALUE)
    return record_answer(state, seat, role, action["value"])


def record_answer(state: dict, seat: int, role: str, answer: int) -> list[dict]:
    fight = state["fight"]
    fight["answers"][role] = answer
    events = [{"type": "answered", "seat": seat}]  # never the answer itself: it stays sealed
    if None in fight["answers"].values():
        return events
    answers = [fight["answers"][ATTACKER], fight["answers"][DEFENDER]]
    if fight["exchange"] == "values":
        direction = state["criteria"][fight["criterion"]]["direction"]
        return events + settle(state, fight, compare(answers, direction), "entries", answers)
    return events + settle_judgement(state, fight, answers)


def settle_judgement(state: dict, fight: dict, answers: list[int]) -> list[dict]:
    """Agreement decides (and a judgement criterion learns it); disagreement is a tie."""
    if answers[0] != answers[1]:
        return settle(state, fight, TIE, "judges", None)
    outcome = ATTACKER if answers[0] == fight["attacker"] else DEFENDER
    events = []
    if state["criteria"][fight["criterion"]]["kind"] == "judgement":
        winner, loser = (fight["attacker"], fight["defender"]) if outcome == ATTACKER else (
            fight["defender"], fight["attacker"])
        events.append(learn(state, fight["criterion"], figure_by_id(state, winner)["amiibo_id"],
                            figure_by_id(state, loser)["amiibo_id"]))
    return events + settle(state, fight, outcome, "judges", None)


def learn(state: dict, criterion: str, winner: str, loser: str) -> dict:
    """The pair and what follows from it by transitivity, for the rest of the game."""
    pairs = state["house"].setdefault(criterion, [])
    above = {winner} | {w for w, beaten in pairs if beaten == winner}
    below = {loser} | {beaten for w, beaten in pairs if w == loser}
    for pair in itertools.product(sorted(above), sorted(below)):
        if list(pair) not in pairs:
            pairs.append(list(pair))
    return {"type": "house_learned", "criterion": criterion, "winner": winner, "loser": loser}


def figure_by_id(state: dict, figure_id: int) -> dict:
    return next(figure for figure in state["figures"] if figure["id"] == figure_id)


def settle(state: dict, fight: dict, outcome: str, by: str, values: list | None) -> list[dict]:
    shown = None if values is None else {ATTACKER: values[0], DEFENDER: values[1]}
    record = {"number": len(state["fights"]) + 1, "attacker": fight["attacker"], "defender": fight["defender"],
              "face": fight["face"], "criterion": fight["criterion"], "values": shown, "winner": outcome,
              "by": by}
    if by == "judges":
        record["answers"] = dict(state["fight"]["answers"])  # both are in: no longer sealed
    state["fights"].append(record)
    state["fight"] = None
    decided = {"type": "fight_decided", **{k: v for k, v in record.items() if k != "number"}}
    events = [decided] + carry_out(state, fight, outcome)
    if outcome == ATTACKER and fight["chain"] and len(seats_on_board(state)) > 1:
        state["chain"] = {"figure": fight["attacker"]}
        return events + [{"type": "chain_offered", "figure": fight["attacker"]}]
    return events + after_turn(state)


def carry_out(state: dict, fight: dict, outcome: str) -> list[dict]:
    """The winner sets the loser aside; a winning attacker takes its place unless the attack was ranged."""
    if outcome == TIE:
        return []
    attacker, defender = figure_by_id(state, fight["attacker"]), figure_by_id(state, fight["defender"])
    winner, loser = (attacker, defender) if outcome == ATTACKER else (defender, attacker)
    place = loser["at"]
    events = [capture(state, winner, loser)]
    if outcome == ATTACKER and state["board"] is not None and not fight["ranged"]:
        events += arrive(state, winner, place)
    return events


def capture(state: dict, winner: dict, loser: dict) -> dict:
    """The loser's own captives go back to their owners, out of the game: the winner carries only the loser."""
    returned = list(loser["carries"])
    for figure_id in returned:
        captive = figure_by_id(state, figure_id)
        captive["status"], captive["captured_by"] = OUT, None
    loser.update(status=CAPTURED, captured_by=winner["id"], at=None, carries=[])
    winner["carries"].append(loser["id"])
    return {"type": "captured", "figure": loser["id"], "by": winner["id"], "returned": returned}


# --- taps on the reader --------------------------------------------------------------

def figure_tapped(state: dict, figure: dict, rng) -> tuple[dict, list[dict]]:
    """A tap selects a figure: the active player's own figure to act, another one as the target."""
    if state["phase"] == "over":
        raise IllegalAction(N_("The game is over."))
    require_no_fight(state)
    ours = next((f for f in state["figures"] if f["id"] == figure.get("id")), None)
    if ours is None:
        raise IllegalAction(N_("There is no such figure in this game."))
    if state["phase"] == "play":
        on_board(ours)
    role = "figure" if state["phase"] == "setup" or ours["seat"] == state["active"] else "target"
    new_state = copy.deepcopy(state)
    new_state["selected"][role] = ours["id"]
    return new_state, [{"type": "figure_selected", "figure": ours["id"], "as": role}]


# --- legal actions ------------------------------------------------------------------

def legal_actions(state: dict, seat) -> list[dict]:
    """Every action ``seat`` (or ``HOST``) may take now, python-chess style.

    Free-text fields are not enumerable: ``name_location`` is never listed and
    ``reveal`` is listed with the home locations not yet on the board.
    """
    if state["phase"] == "over":
        return []
    if seat == HOST:
        return host_actions(state)
    if seat not in seat_ids(state) or state["phase"] != "play":
        return []
    if state["fight"]:
        return answers(state, seat)
    if state["active"] != seat:
        return []
    own = [f for f in state["figures"] if f["seat"] == seat and f["status"] == IN_PLAY]
    if state["chain"]:
        chained = [f for f in own if f["id"] == state["chain"]["figure"]]
        return attacks(state, chained) + [{"type": "end_turn"}]
    return moves(state, own) + attacks(state, own) + retires(state, own)


def answers(state: dict, seat: int) -> list[dict]:
    fight = state["fight"]
    if not any(owner == seat and fight["answers"][role] is None for role, owner in fight["seats"].items()):
        return []
    if fight["exchange"] == "judge":
        return [{"type": "judge", "winner": fight[role]} for role in (ATTACKER, DEFENDER)]
    return [{"type": "enter_value", "value": value} for value in range(MAX_VALUE + 1)]


def moves(state: dict, own: list[dict]) -> list[dict]:
    if state["board"] is None:
        return [{"type": "move", "figure": f["id"]} for f in own]
    return [{"type": "move", "figure": f["id"], "cell": cell}
            for f in own for cell in neighbours(state, f["at"]) if not figure_at(state, cell)]


def attacks(state: dict, own: list[dict]) -> list[dict]:
    enemies = [f for f in state["figures"] if f["status"] == IN_PLAY and own and f["seat"] != own[0]["seat"]]
    listed = []
    for attacker, defender in itertools.product(own, enemies):
        base = {"type": "attack", "attacker": attacker["id"], "defender": defender["id"]}
        near = state["board"] is None or adjacent(attacker["at"], defender["at"])
        if near:
            listed += [base, {**base, "chain": True}]
        listed += [{**base, "ranged": True}, {**base, "ranged": True, "chain": True}]
    return listed


def retires(state: dict, own: list[dict]) -> list[dict]:
    return [{"type": "retire", "figure": f["id"]} for f in own
            if state["board"] is None or same_name(card(state, f["at"])["name"], f["location"])]


def host_actions(state: dict) -> list[dict]:
    if state["fight"]:
        return []
    references = [{"type": "set_reference", "reference": name} for name in sorted(state["references"])]
    references += [{"type": "set_reference", "reference": RANDOM}] if state["references"] else []
    if state["phase"] == "setup":
        return setup_host_actions(state) + references
    if state["board"] is None:
        return references
    return references + board_actions(state)


def setup_host_actions(state: dict) -> list[dict]:
    listed = [{"type": "seat_order", "seats": list(order)} for order in itertools.permutations(state["order"])]
    listed += [{"type": "first_player", "seat": seat} for seat in seat_ids(state)]
    if not setup_needs(state):
        listed.append({"type": "begin"})
    if state["board"] is not None:
        for figure in state["figures"]:
            listed += [{"type": "place", "figure": figure["id"], "cell": cell}
                       for cell in starting_cells(state, figure["seat"])
                       if figure_at(state, cell) in (None, figure)]
    return listed


def all_cells(state: dict) -> list[list[int]]:
    return [[row, column] for row in range(state["size"]) for column in range(state["size"])]


def board_actions(state: dict) -> list[dict]:
    on_the_board = [f for f in state["figures"] if f["status"] == IN_PLAY]
    cells = all_cells(state)
    listed = [{"type": "place", "figure": f["id"], "cell": cell}
              for f in on_the_board for cell in cells if figure_at(state, cell) in (None, f)]
    for cell in cells:
        elsewhere = [card(state, other)["name"] for other in cells if other != cell]
        listed += [{"type": "reveal", "cell": cell, "name": name} for name in home_locations(state)
                   if not any(same_name(name, other) for other in elsewhere)]
    for pusher, target in itertools.permutations(on_the_board, 2):
        if adjacent(pusher["at"], target["at"]):
            destination = [2 * target["at"][k] - pusher["at"][k] for k in (0, 1)]
            if inside(state, destination) and not figure_at(state, destination):
                listed.append({"type": "push", "figure": pusher["id"], "target": target["id"]})
    listed += [{"type": "shift", "kind": kind, "index": index, "direction": direction}
               for kind, directions in SHIFT_DIRECTIONS.items() for index in range(state["size"])
               for direction in directions]
    return listed


# --- view ---------------------------------------------------------------------------------

def view(state: dict, seat) -> dict:
    """Everything but the sealed answers, the house ranking, and the values in PRO mode."""
    shown = {key: copy.deepcopy(value) for key, value in state.items() if key != "house"}
    if state["fight"]:
        shown["fight"] = sealed_fight(state["fight"], seat)
    if state["pro"]:
        for figure in shown["figures"]:
            figure["values"] = {}
    shown["setup"] = setup_info(state)
    shown["needs"] = setup_needs(state) if state["phase"] == "setup" else []
    shown["actions"] = sorted({action["type"] for action in legal_actions(state, seat)}) if seat is not None else []
    return shown


def sealed_fight(fight: dict, seat) -> dict:
    sealed = {key: value for key, value in fight.items() if key != "answers"}
    sealed["answered"] = {role: answer is not None for role, answer in fight["answers"].items()}
    mine = [role for role, owner in fight["seats"].items() if owner == seat]
    sealed["your_answer"] = fight["answers"][mine[0]] if mine else None
    return sealed


def setup_info(state: dict) -> dict:
    """What the host needs to lay out the square, in any mode."""
    return {"size": state["size"], "locations": home_locations(state),
            "forbidden_corners": forbidden_corners(state),
            "sides": [{"seat": seat, "side": side_of(state, seat), "cells": starting_cells(state, seat)}
                      for seat in state["order"]]}


PLAYER_HANDLERS = {"name_location": do_name_location, "move": do_move, "attack": do_attack, "retire": do_retire,
                   "end_turn": do_end_turn, "judge": do_judge, "enter_value": do_enter_value}
HOST_HANDLERS = {"seat_order": do_seat_order, "first_player": do_first_player, "begin": do_begin,
                 "place": do_place, "reveal": do_reveal, "push": do_push, "shift": do_shift,
                 "set_reference": do_set_reference}
HOST_ACTIONS = frozenset(HOST_HANDLERS)


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
    ),
    setup=setup,
    apply=apply,
    view=view,
    check_options=check_options,
    registration=RegistrationRules(unique_figures=True, equal_counts=True),
    figure_tapped=figure_tapped,
    host_actions=HOST_ACTIONS,
))
