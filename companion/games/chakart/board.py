"""The board: squares, the position in the book's notation, and how pieces move.

A position is two maps: ``pieces`` (square → FEN letter: upper case white,
lower case black) and ``items`` (square → ``m`` mushroom, ``e`` egg, ``d``
banana, ``w`` bomb). A square holds a piece or an item, never both. The book
writes a position as a FEN whose ranks mix both (``1BwP4``: a white bishop, a
bomb, a white pawn).

Pieces move as in chess, without castling nor en passant. Sliders pass over
eggs and mushrooms (they lie flat) and stop on a banana or a bomb (arriving
on it sets it off); any piece may end its move on an item, which it takes.
Pawns may also take an item diagonally.
"""

from __future__ import annotations

from companion.games.base import N_, IllegalAction

FILES = "abcdefgh"
ITEMS = {"m": "mushroom", "e": "egg", "d": "banana", "w": "bomb"}
PASSABLE_ITEMS = ("m", "e")
PIECES = "pnbrqk"
STANDARD = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
ROOK_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))
BISHOP_STEPS = ((1, 1), (1, -1), (-1, 1), (-1, -1))
KING_STEPS = ROOK_STEPS + BISHOP_STEPS
KNIGHT_STEPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


def square(file: int, rank: int) -> str:
    return f"{FILES[file]}{rank + 1}"


def coords(name: str) -> tuple[int, int]:
    return FILES.index(name[0]), int(name[1]) - 1


def on_board(file: int, rank: int) -> bool:
    return 0 <= file < 8 and 0 <= rank < 8


def shifted(name: str, step: tuple[int, int]) -> str | None:
    try:
        return SHIFTS[name, step]
    except KeyError:  # a step of no piece's own (an item's direction after a double step: (0, ±2))
        file, rank = coords(name)
        return square(file + step[0], rank + step[1]) if on_board(file + step[0], rank + step[1]) else None


def _shifts() -> dict:
    """Every square one step of a piece away from every square (the phones ask for every legal move at
    each view: a table lookup, not string arithmetic)."""
    table = {}
    for file in range(8):
        for rank in range(8):
            for step in KING_STEPS + KNIGHT_STEPS + ((0, 2), (0, -2)):
                target = (file + step[0], rank + step[1])
                table[square(file, rank), step] = square(*target) if on_board(*target) else None
    return table


SHIFTS = _shifts()


def is_square(value) -> bool:
    return isinstance(value, str) and len(value) == 2 and value[0] in FILES and value[1] in "12345678"


def colour_of(piece: str) -> str:
    return "w" if piece.isupper() else "b"


def other(colour: str) -> str:
    return "b" if colour == "w" else "w"


def kind(piece: str) -> str:
    return piece.lower()


def forward(colour: str) -> int:
    return 1 if colour == "w" else -1


def last_rank(colour: str) -> int:
    return 7 if colour == "w" else 0


def adjacent(name: str, steps) -> list[str]:
    return [target for target in (shifted(name, step) for step in steps) if target]


# The book's notation -----------------------------------------------------------
def parse_fen(text: str) -> tuple[dict, dict]:
    """Pieces and items from a FEN of the book (its first field; anything after a space is ignored)."""
    if not isinstance(text, str):
        raise IllegalAction(N_("A position is a FEN of 8 ranks, such as the book's diagrams."))
    ranks = text.strip().split(" ")[0].split("/")
    if len(ranks) != 8:
        raise IllegalAction(N_("A position is a FEN of 8 ranks, such as the book's diagrams."))
    pieces, items = {}, {}
    for row, rank_text in enumerate(ranks):
        file = 0
        for char in rank_text:
            if char in "12345678":
                file += int(char)
            elif char.lower() in PIECES or char in ITEMS:
                if file > 7:
                    raise IllegalAction(N_("Each rank of the position must have 8 squares."))
                (pieces if char.lower() in PIECES else items)[square(file, 7 - row)] = char
                file += 1
            else:
                raise IllegalAction(N_("Unknown letter in the position: %(letter)s."), letter=char[:1])
        if file != 8:
            raise IllegalAction(N_("Each rank of the position must have 8 squares."))
    check_material(pieces)
    return pieces, items


MAX_PIECES = 32  # a chess set: Luigi and Waluigi change sides, never the count
MAX_KINGS = 9  # one, and eight pawns promoted to kings (« Si des pions se sont promus en roi »)


def check_material(pieces: dict) -> None:
    """What a real chess set can show: a king each, not too many kings nor pieces."""
    for king in ("K", "k"):
        count = sum(1 for piece in pieces.values() if piece == king)
        if count == 0:
            raise IllegalAction(N_("Each side needs at least one king (Peach)."))
        if count > MAX_KINGS:
            raise IllegalAction(N_("A side has at most %(count)s kings: one, and eight promoted pawns."),
                                count=MAX_KINGS)
    if len(pieces) > MAX_PIECES:
        raise IllegalAction(N_("A position has at most %(count)s pieces."), count=MAX_PIECES)


def side_to_move(text: str) -> str:
    """The side to move, if the FEN says it after the board (``… b``); White otherwise."""
    fields = text.split()
    return "b" if len(fields) > 1 and fields[1] == "b" else "w"


def to_fen(pieces: dict, items: dict) -> str:
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            name = square(file, rank)
            char = pieces.get(name) or items.get(name)
            if char is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + char
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


# Where pieces go ---------------------------------------------------------------------
def free_of_pieces(pieces: dict, name: str) -> bool:
    return name not in pieces


def slides(pieces: dict, items: dict, start: str, steps, colour: str, reach: int = 8) -> list[str]:
    """Squares a slider (or, with reach 1, a king) can go to."""
    targets = []
    for step in steps:
        current = start
        for _ in range(reach):
            current = shifted(current, step)
            if current is None:
                break
            if current in pieces:
                if colour_of(pieces[current]) != colour:
                    targets.append(current)
                break
            targets.append(current)
            if current in items and items[current] not in PASSABLE_ITEMS:
                break  # a banana or a bomb: it stops the slide, and goes off
    return targets


def pawn_targets(pieces: dict, items: dict, start: str, colour: str) -> list[str]:
    file, rank = coords(start)
    ahead = forward(colour)
    targets = []
    one = shifted(start, (0, ahead))
    if one and one not in pieces:
        targets.append(one)
        home = 1 if colour == "w" else 6
        two = shifted(start, (0, 2 * ahead))
        if rank == home and two and two not in pieces and items.get(one) in (None,) + PASSABLE_ITEMS:
            targets.append(two)
    for side in (-1, 1):
        diagonal = shifted(start, (side, ahead))
        if diagonal and ((diagonal in pieces and colour_of(pieces[diagonal]) != colour) or diagonal in items):
            targets.append(diagonal)  # a capture, or an item taken diagonally
    return targets


def targets_of(pieces: dict, items: dict, start: str) -> list[str]:
    piece = pieces[start]
    colour, what = colour_of(piece), kind(piece)
    if what == "p":
        return pawn_targets(pieces, items, start, colour)
    if what == "n":
        return [t for t in adjacent(start, KNIGHT_STEPS) if t not in pieces or colour_of(pieces[t]) != colour]
    if what == "k":
        return slides(pieces, items, start, KING_STEPS, colour, reach=1)
    steps = {"r": ROOK_STEPS, "b": BISHOP_STEPS, "q": KING_STEPS}[what]
    return slides(pieces, items, start, steps, colour)


def shell_targets(pieces: dict, items: dict, start: str, colour: str) -> list[str]:
    """Peach's shell « sur un ennemi à portée de dame »: the enemies a queen standing on Peach's square
    could take (over eggs and mushrooms, not past a banana or a bomb, as in the author's code)."""
    return [target for target in slides(pieces, items, start, KING_STEPS, colour) if target in pieces]


def stealth_targets(pieces: dict, items: dict, start: str, colour: str) -> list[str]:
    """Mario's stealth move: a queen move to an empty square (no piece, no item)."""
    return [t for t in slides(pieces, items, start, KING_STEPS, colour) if t not in pieces and t not in items]


def step_between(start: str, end: str) -> tuple[int, int]:
    (f1, r1), (f2, r2) = coords(start), coords(end)
    return f2 - f1, r2 - r1


def unit(step: tuple[int, int]) -> tuple[int, int]:
    return (step[0] > 0) - (step[0] < 0), (step[1] > 0) - (step[1] < 0)
