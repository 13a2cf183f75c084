"""A move and everything it sets off, in the order the book tells it.

1. The piece leaves its square and arrives (capturing an enemy there).
2. While it stands on an item it has not used on this path, the item acts
   (« un objet donné ne peut être utilisé qu'une fois sur le chemin »):
   * banana / bomb: the piece is sent one square orthogonally / diagonally, at
     random among the squares without a piece of its own side; an enemy there
     is captured (« Une pièce adverse pourrait être capturée de cette façon »,
     as the author's code does). The table option ``redirect = free`` reads the
     Bxe4 caption instead (d6, f6 and f8 from e7, not d8 where a bishop
     stands): only squares without any piece. None: it stays;
   * mushroom: a king or a pawn goes one square further in its direction (two
     after a pawn's double step), a knight makes the same jump again, onto a
     square without a piece; a rook, bishop or queen jumps over an adjacent
     piece in its direction if the square after holds no piece of its colour
     (an enemy there is captured);
   * egg: one of eight effects, drawn at random (`EGG_EFFECTS`); the path ends.
3. The items the piece leaves are put down: Toad's mushroom one square before
   its arrival (its start, or the square passed over by a double step), Yoshi's
   egg on the first square orthogonally adjacent to its start in the direction
   of its jump (its start if a piece is there), Donkey's banana / Wario's bomb
   on a random square diagonally / orthogonally adjacent to where it ends, if
   one holds no piece (an item there is replaced, as in the book's Waluigi
   diagram where the banana takes g7's mushroom).

Every step is recorded (`steps`) for the screens, with each random draw's
eligible squares and result.
"""

from __future__ import annotations

from companion.games.base import Draw
from companion.games.chakart.board import (
    BISHOP_STEPS, KING_STEPS, ROOK_STEPS, adjacent, colour_of, coords, kind, last_rank, other, shifted,
    step_between, unit,
)

# The bonus first, then its malus (« présentés sous forme duale »).
EGG_EFFECTS = ("kingboo", "koopa", "toadette", "chomp", "daisy", "bowser", "luigi", "waluigi")
PIECE_NAMES = {"p": "Toad", "n": "Yoshi", "r": "Donkey", "b": "Wario", "q": "Mario", "k": "Peach"}


class Path:
    """The position while a move resolves, and what happened on the way."""

    def __init__(self, state: dict, colour: str, rng):
        self.state = state
        self.pieces = state["pieces"]
        self.items = state["items"]
        self.colour = colour
        self.rng = rng
        self.steps: list[dict] = []
        self.used: set[str] = set()
        self.pending: dict | None = None  # a choice the egg leaves to the mover
        self.hidden = hidden_queen(state, other(colour))

    def record(self, step: dict) -> None:
        self.steps.append(step)

    def capture(self, where: str, by: str) -> None:
        """An enemy on ``where`` is captured (the hidden queen too, when the piece arrives on her square)."""
        if where in self.pieces and colour_of(self.pieces[where]) != self.colour:
            taken = self.pieces.pop(where)
            self.state["captured"][colour_of(taken)].append(taken)
            self.state["immobile"].pop(where, None)  # Bowser held that piece: it is gone
            self.record({"kind": "capture", "square": where, "piece": taken, "by": by})
        elif self.hidden == where:
            queen = "Q" if other(self.colour) == "w" else "q"
            self.state["captured"][other(self.colour)].append(queen)
            owner = self.state["private"][str(self.state["seats"][other(self.colour)])]
            del owner["stealth"], owner["stealth_piece"]
            self.state["queen_hidden"] = [c for c in self.state["queen_hidden"] if c != other(self.colour)]
            self.hidden = None
            self.record({"kind": "capture", "square": where, "piece": queen, "by": by, "hidden": True})

    def place(self, piece: str, where: str) -> None:
        self.capture(where, piece)
        self.pieces[where] = piece


def hidden_queen(state: dict, colour: str) -> str | None:
    """The square of ``colour``'s hidden queen, if she moved in secret: her owner's private data."""
    owner = str(state["seats"][colour])
    return (state.get("private") or {}).get(owner, {}).get("stealth")


def draw_square(path: Path, eligible: list[str], purpose: Draw) -> str:
    return eligible[path.rng.randint(0, len(eligible) - 1, purpose)] if len(eligible) > 1 else eligible[0]


def resolve(state: dict, start: str, end: str, rng, again: bool = False) -> Path:
    """Plays the move ``start``→``end`` of the player to move on ``state`` (changed in place)."""
    colour = state["turn"]
    path = Path(state, colour, rng)
    piece = path.pieces.pop(start)
    path.record({"kind": "move", "piece": piece, "from": start, "to": end})
    path.place(piece, end)
    direction = step_between(start, end)
    where = chain(path, piece, end, direction, start, eggs=not again)
    if leaves_its_item(path):
        drops(path, piece, start, end, where)
    return path


def leaves_its_item(path: Path) -> bool:
    """A piece leaves its item, unless Koopa or Chomp took it and the table plays as the author's site."""
    if path.state["options"].get("leftovers", "left") == "left":
        return True
    taken = any(step["kind"] == "egg" and step["applies"] and step["effect"] in ("koopa", "chomp")
                for step in path.steps)
    if taken:
        path.record({"kind": "no_drop"})
    return not taken


def chain(path: Path, piece: str, where: str, direction: tuple[int, int], start: str, eggs: bool = True) -> str:
    """The items' effects, one after the other; the square where the piece ends."""
    while where in path.items and where not in path.used and where in path.pieces:
        item = path.items.pop(where)
        path.used.add(where)
        path.record({"kind": "item", "item": item, "square": where})
        if item in ("d", "w"):
            moved = redirect(path, piece, where, ROOK_STEPS if item == "d" else BISHOP_STEPS)
        elif item == "m":
            moved = mushroom(path, piece, where, direction)
        else:
            if eggs:
                return egg(path, piece, where, start)
            path.record({"kind": "egg_spent", "square": where})  # Daisy's second move: eggs do nothing
            return where
        if moved is None:
            return where
        direction = step_between(where, moved)
        where = moved
    return where


def move_piece(path: Path, piece: str, source: str, target: str) -> str:
    del path.pieces[source]
    path.place(piece, target)
    return target


def redirect(path: Path, piece: str, where: str, steps) -> str | None:
    eligible = sorted(square for square in adjacent(where, steps) if may_be_sent_to(path, square))
    item = "banana" if steps is ROOK_STEPS else "bomb"
    if not eligible:
        path.record({"kind": "redirect", "item": item, "from": where, "eligible": [], "to": None})
        return None
    target = draw_square(path, eligible, Draw("redirect", item=item, square=where))
    path.record({"kind": "redirect", "item": item, "from": where, "eligible": eligible, "to": target})
    return move_piece(path, piece, where, target)


def may_be_sent_to(path: Path, square: str) -> bool:
    """A banana or a bomb sends a piece onto an enemy (captured) unless the table reads the caption."""
    if square not in path.pieces:
        return True
    captures = path.state["options"].get("redirect", "capture") == "capture"
    return captures and colour_of(path.pieces[square]) != path.colour


def mushroom(path: Path, piece: str, where: str, direction: tuple[int, int]) -> str | None:
    what = kind(piece)
    if what in ("p", "k", "n"):
        target = shifted(where, direction)  # a pawn's double step goes two further: its direction is (0, ±2)
        if target is None or target in path.pieces:
            path.record({"kind": "mushroom", "square": where, "to": None})
            return None
        path.record({"kind": "mushroom", "square": where, "to": target})
        return move_piece(path, piece, where, target)
    step = unit(direction)
    over = shifted(where, step)
    landing = shifted(over, step) if over else None
    if over not in path.pieces or landing is None or (
            landing in path.pieces and colour_of(path.pieces[landing]) == colour_of(piece)):
        path.record({"kind": "mushroom", "square": where, "to": None})
        return None
    path.record({"kind": "mushroom", "square": where, "over": over, "to": landing})
    return move_piece(path, piece, where, landing)


# Eggs ----------------------------------------------------------------------------------
def egg_candidates(path: Path, piece: str, where: str) -> list[str]:
    """The effects that can apply here (the option ``eggs = applicable`` draws among these only)."""
    return [effect for effect in EGG_EFFECTS if applicable(path, effect, piece, where)]


def applicable(path: Path, effect: str, piece: str, where: str) -> bool:
    if effect == "toadette":
        return bool(path.state["captured"][path.colour])  # « si aucune pièce n'a été capturée »
    if effect == "luigi":
        return bool(turncoats(path, other(path.colour)))
    if effect == "waluigi":
        return bool(turncoats(path, path.colour))
    if effect == "kingboo":
        return bool(swap_targets(path.pieces, where))
    return True


def egg(path: Path, piece: str, where: str, start: str) -> str:
    rule = path.state["options"]["eggs"]
    effects = list(EGG_EFFECTS) if rule == "book" else egg_candidates(path, piece, where)
    effect = effects[path.rng.randint(0, len(effects) - 1, Draw("egg", square=where))]
    possible = applicable(path, effect, piece, where)
    path.record({"kind": "egg", "square": where, "effect": effect, "applies": possible, "among": effects})
    if not possible:
        return where  # « certains bonus pourraient ne pas être applicables »: nothing happens
    return EGG_RESOLVERS[effect](path, piece, where, start)


def kingboo(path: Path, piece: str, where: str, start: str) -> str:
    path.pending = {"kind": "swap", "square": where}
    return where


def koopa(path: Path, piece: str, where: str, start: str) -> str:
    if start in path.pieces:
        return where
    path.record({"kind": "back", "from": where, "to": start})
    return move_piece(path, piece, where, start)


def toadette(path: Path, piece: str, where: str, start: str) -> str:
    path.pending = {"kind": "revive", "square": where}
    return where


def chomp(path: Path, piece: str, where: str, start: str) -> str:
    eaten = path.pieces.pop(where)
    path.state["immobile"].pop(where, None)
    path.state["captured"][path.colour].append(eaten)
    path.record({"kind": "eaten", "square": where, "piece": eaten})
    return where


def daisy(path: Path, piece: str, where: str, start: str) -> str:
    path.pending = {"kind": "again", "square": where}
    return where


def bowser(path: Path, piece: str, where: str, start: str) -> str:
    path.state["immobile"][where] = {"colour": path.colour, "since": path.state["ply"]}
    path.record({"kind": "immobile", "square": where})
    return where


def turncoats(path: Path, colour: str) -> list[str]:
    """Pieces of ``colour`` that may change side: no king, no pawn on its new side's last rank."""
    new_side = other(colour)
    return sorted(square for square, piece in path.pieces.items() if colour_of(piece) == colour
                  and kind(piece) != "k" and not (kind(piece) == "p" and coords(square)[1] in (0, 7)
                                                 and coords(square)[1] == last_rank(new_side)))


def change_side(path: Path, colour: str, name: str) -> None:
    eligible = turncoats(path, colour)
    chosen = draw_square(path, eligible, Draw("turncoat", piece=name,
                                                       colour="white" if colour == "w" else "black"))
    turned = path.pieces[chosen]
    path.pieces[chosen] = turned.lower() if turned.isupper() else turned.upper()
    if chosen in path.state["immobile"]:  # Bowser's hold stays with the piece, now of the other side
        path.state["immobile"][chosen]["colour"] = colour_of(path.pieces[chosen])
    path.record({"kind": "turncoat", "square": chosen, "piece": turned, "now": path.pieces[chosen],
                 "eligible": eligible})


def luigi(path: Path, piece: str, where: str, start: str) -> str:
    change_side(path, other(path.colour), "Luigi")
    return where


def waluigi(path: Path, piece: str, where: str, start: str) -> str:
    change_side(path, path.colour, "Waluigi")
    return where


EGG_RESOLVERS = {"kingboo": kingboo, "koopa": koopa, "toadette": toadette, "chomp": chomp, "daisy": daisy,
                 "bowser": bowser, "luigi": luigi, "waluigi": waluigi}


def swap_targets(pieces: dict, where: str) -> list[str]:
    """King Boo: « n'importe quelle autre » piece. The mover's pawn may go anywhere (on its last rank it
    is promoted at once, as after any move); only an enemy pawn is never put on its own last rank, where
    it could neither move nor be promoted (the book is silent on that)."""
    mover = pieces.get(where)
    if mover is None:
        return []
    return sorted(square for square, piece in pieces.items()
                  if square != where and not stuck_enemy_pawn(piece, where, colour_of(mover)))


def stuck_enemy_pawn(piece: str, square: str, mover: str) -> bool:
    """An enemy pawn standing on ``square`` would be on its own last rank."""
    return kind(piece) == "p" and colour_of(piece) != mover and coords(square)[1] == last_rank(colour_of(piece))


# What the piece leaves behind -----------------------------------------------------------
def drops(path: Path, piece: str, start: str, end: str, where: str) -> None:
    what = kind(piece)
    if what == "p":
        (f1, r1), (_, r2) = coords(start), coords(end)
        spot = shifted(start, (0, (r2 - r1) // 2)) if abs(r2 - r1) == 2 else start
        put_item(path, "m", spot)
    elif what == "n":
        jump = step_between(start, end)
        along = (unit(jump)[0], 0) if abs(jump[0]) == 2 else (0, unit(jump)[1])
        spot = shifted(start, along)
        put_item(path, "e", start if spot in path.pieces else spot)
    elif what in ("r", "b"):
        around = where
        eligible = sorted(s for s in adjacent(around, BISHOP_STEPS if what == "r" else ROOK_STEPS)
                          if s not in path.pieces)
        item = "d" if what == "r" else "w"
        name = "banana" if item == "d" else "bomb"
        if not eligible:
            path.record({"kind": "drop", "item": name, "eligible": [], "square": None})
            return
        spot = draw_square(path, eligible, Draw("drop", piece=PIECE_NAMES[what], item=name, square=around))
        path.record({"kind": "drop", "item": name, "eligible": eligible, "square": spot})
        path.items[spot] = item


def put_item(path: Path, item: str, spot: str | None) -> None:
    if spot is None or spot in path.pieces:
        return  # the piece came back onto the square it would leave its item on
    path.items[spot] = item
    path.record({"kind": "drop", "item": {"m": "mushroom", "e": "egg"}[item], "eligible": [spot], "square": spot})


def neighbours(square: str) -> list[str]:
    return adjacent(square, KING_STEPS)
