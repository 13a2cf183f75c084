"""The square of location cards, when the host screen keeps it: sides, cells, adjacency,
and the generic board operations (repousser, décaler, swapping cards or figures).

A cell is ``[row, column]``: row 0 is the north side, column 0 the west side.
Seats sit clockwise from the south side (two players face each other, south
and north; with three, the east side is empty).
"""

from __future__ import annotations

from collections import Counter

from companion.games.amiiboxe.common import IN_PLAY
from companion.games.base import N_, IllegalAction, require_fields

SIDES_BY_PLAYERS = {2: ("south", "north"), 3: ("south", "west", "north"), 4: ("south", "west", "north", "east")}
EXTRA_CARDS_PER_SIDE = {2: 0, 3: 1, 4: 2}  # the book: +1 card per side with 3 players, +2 with 4
# A player's frame: (forward, right) as (row, column) steps; forward leaves their starting line.
FRAMES = {"south": ((-1, 0), (0, 1)), "north": ((1, 0), (0, -1)),
          "west": ((0, 1), (1, 0)), "east": ((0, -1), (-1, 0))}
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))  # orthogonal only: diagonals are not adjacent
DIAGONALS = ((-1, -1), (-1, 1), (1, -1), (1, 1))
SHIFT_DIRECTIONS = {"line": {"right": 1, "left": -1}, "column": {"forward": 1, "back": -1}}


def square_size(per_player: int, players: int) -> int:
    return per_player + 1 + EXTRA_CARDS_PER_SIDE[players]


def new_board(size: int) -> list[list[dict]]:
    """Rows of location cards, all face down; a card's name is known once someone names it."""
    return [[{"revealed": False, "name": None} for _ in range(size)] for _ in range(size)]


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


def offset(cell: list[int], step: tuple[int, int], times: int = 1) -> list[int]:
    return [cell[0] + step[0] * times, cell[1] + step[1] * times]


def neighbours(state: dict, cell: list[int], steps=STEPS) -> list[list[int]]:
    return [offset(cell, step) for step in steps if inside(state, offset(cell, step))]


def adjacent(a: list[int] | None, b: list[int] | None) -> bool:
    return a is not None and b is not None and abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def diagonal(a: list[int], b: list[int]) -> bool:
    return abs(a[0] - b[0]) == 1 and abs(a[1] - b[1]) == 1


def between(a: list[int], b: list[int]) -> list[int] | None:
    """The cell in the middle when ``b`` is two places from ``a`` in a straight line."""
    delta = (b[0] - a[0], b[1] - a[1])
    if sorted(map(abs, delta)) != [0, 2]:
        return None
    return [a[0] + delta[0] // 2, a[1] + delta[1] // 2]


def figure_at(state: dict, cell: list[int]) -> dict | None:
    return next((f for f in state["figures"] if f["status"] == IN_PLAY and f["at"] == cell), None)


def card(state: dict, cell: list[int]) -> dict:
    return state["board"][cell[0]][cell[1]]


def all_cells(state: dict) -> list[list[int]]:
    return [[row, column] for row in range(state["size"]) for column in range(state["size"])]


def require_board(state: dict) -> list[list[dict]]:
    if state["board"] is None:
        raise IllegalAction(N_("The companion does not keep the board in this game."))
    return state["board"]


def require_cell(state: dict, action: dict, field: str = "cell") -> list[int]:
    require_fields(action, **{field: list})
    cell = action[field]
    if len(cell) != 2 or not all(type(k) is int for k in cell) or not inside(state, cell):
        raise IllegalAction(N_("A place is [row, column] inside the square of %(count)s cards a side."),
                            count=state["size"])
    return list(cell)


def reveal(state: dict, cell: list[int]) -> list[dict]:
    """Turns a face-down card over (its name is given by whoever turns it)."""
    if card(state, cell)["revealed"]:
        return []
    card(state, cell)["revealed"] = True
    return [{"type": "location_revealed", "cell": cell, "name": card(state, cell)["name"]}]


# --- generic board operations ------------------------------------------------------

def push_destination(state: dict, pusher: dict, target: dict) -> list[int]:
    """Repousser: one place away from the pusher; refused at the edge or onto a figure."""
    if not adjacent(pusher["at"], target["at"]):
        raise IllegalAction(N_("Only an adjacent figure can be pushed."))
    destination = [2 * target["at"][k] - pusher["at"][k] for k in (0, 1)]
    if not inside(state, destination):
        raise IllegalAction(N_("That figure is at the edge of the square: it cannot be pushed."))
    if figure_at(state, destination):
        raise IllegalAction(N_("The place behind that figure is taken: it cannot be pushed."))
    return destination


def shift_cells(state: dict, seat_id: int, kind: str, index: int) -> list[list[int]]:
    """The cells of a line (parallel to ``seat_id``'s starting line) or column, from their left or start."""
    side, size = side_of(state, seat_id), state["size"]
    return [frame_cell(side, index, k, size) if kind == "line" else frame_cell(side, k, index, size)
            for k in range(size)]


def shift(state: dict, seat_id: int, kind: str, index: int, direction: str) -> list[dict]:
    """Décaler: every card of the line or column moves one place; the one pushed out comes back on
    the other side. The figures ride with their cards."""
    cells = shift_cells(state, seat_id, kind, index)
    cards = [card(state, cell) for cell in cells]
    riders = [figure_at(state, cell) for cell in cells]
    step, size, moves = SHIFT_DIRECTIONS[kind][direction], state["size"], []
    for k, cell in enumerate(cells):
        destination = cells[(k + step) % size]
        state["board"][destination[0]][destination[1]] = cards[k]
        if riders[k]:
            riders[k]["at"] = destination
            moves.append({"figure": riders[k]["id"], "from": cell, "to": destination})
    return moves


def swap_cards(state: dict, first: list[int], second: list[int]) -> list[dict]:
    """Two cards change places, each with the figure standing on it (as a card that is décalé)."""
    a, b = card(state, first), card(state, second)
    rider_a, rider_b = figure_at(state, first), figure_at(state, second)
    state["board"][first[0]][first[1]], state["board"][second[0]][second[1]] = b, a
    moves = []
    for rider, origin, destination in ((rider_a, first, second), (rider_b, second, first)):
        if rider:
            rider["at"] = destination
            moves.append({"figure": rider["id"], "from": origin, "to": destination})
    return moves


def swap_figures(first: dict, second: dict) -> None:
    first["at"], second["at"] = second["at"], first["at"]
