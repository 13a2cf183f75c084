"""How Chakart's events follow from the table's draws, for the verifier.

Every step of a move that needed chance records what it was drawn among:
a banana's or a bomb's redirect and a rook's or bishop's item (the squares
without a piece around it), Luigi's and Waluigi's piece (the pieces that may
change side), an egg's effect (the effects it was drawn among). Each such step
consumed one draw, in order; a step with a single possibility drew nothing.
So the verifier can replay the chance of every move from the log alone: the
draw's range must be the number of possibilities, and the possibility it
picks must be the one the event says happened.
"""

from __future__ import annotations

from companion.games.base import purpose_kind
from companion.games.chakart.effects import EGG_EFFECTS

SETUP_DRAWS = ("white_player", "start_light_bishop", "start_dark_bishop", "start_other_pieces")
CHOSEN = {"redirect": "to", "drop": "square", "turncoat": "square"}


def chance_steps(entries: list[dict]) -> list[tuple[int, list, object]]:
    """(entry number, what was drawn among, what the event says was drawn) for each step that drew."""
    found = []
    for entry in entries:
        for step in (entry.get("event") or {}).get("steps") or []:
            kind = step.get("kind")
            if kind in CHOSEN and len(step.get("eligible") or []) > 1:
                found.append((entry.get("i"), step["eligible"], step.get(CHOSEN[kind])))
            elif kind == "egg":
                found.append((entry.get("i"), step.get("among") or [], step.get("effect")))
    return found


def check(options: dict, draws: list[dict], entries: list[dict]) -> list[tuple[int, str]]:
    moves = [draw for draw in draws if purpose_kind(draw.get("purpose")) not in SETUP_DRAWS]
    told = chance_steps(entries)
    # Where a difference shows: the move's event (where a step went missing or was added), else its first draw.
    where = (told[0][0] if told else None) or (entries[0].get("i") if entries else None) or (
        moves[0].get("i") if moves else None)
    if len(moves) != len(told):
        return [(where, f"the move drew {len(moves)} times but its steps tell of {len(told)} draws: "
                        "a step was changed, added or removed")]
    problems = []
    for draw, (i, among, said) in zip(moves, told):
        if options.get("eggs", "book") == "book" and among and said in EGG_EFFECTS and among != list(EGG_EFFECTS):
            problems.append((i, "an egg's effect was drawn among fewer than the book's eight"))
        if draw.get("lo") != 0 or draw.get("hi") != len(among) - 1:
            problems.append((i, f"a draw among {draw.get('hi', -1) - draw.get('lo', 0) + 1} possibilities is told "
                                f"as one among {len(among)}"))
            continue
        result = draw.get("result")
        if isinstance(result, int) and 0 <= result < len(among) and among[result] != said:
            problems.append((i, f"the log says {said!r} but the draw gives {among[result]!r}"))
    return problems
