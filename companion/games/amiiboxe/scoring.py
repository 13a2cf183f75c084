"""Points (the book's « But du jeu » and « Fin de la partie »): captures carried,
figures retired from their own location, the end when one player is left."""

from __future__ import annotations

from companion.games.amiiboxe.common import CAPTURED, IN_PLAY, OUT, RETIRED, figure_by_id, seat_name, seat_record, \
    seats_on_board
from companion.games.base import N_


def capture(state: dict, winner: dict, loser: dict) -> dict:
    """The winner sets the loser aside and carries it; the loser's own captives go back to their
    owners, out of the game: nobody scores for them (the book's second example)."""
    returned = list(loser["carries"])
    for figure_id in returned:
        captive = figure_by_id(state, figure_id)
        captive["status"], captive["captured_by"] = OUT, None
    loser.update(status=CAPTURED, captured_by=winner["id"], at=None, carries=[])
    winner["carries"].append(loser["id"])
    return {"type": "captured", "figure": loser["id"], "by": winner["id"], "returned": returned}


def retire(state: dict, figure: dict, automatic: bool) -> list[dict]:
    """1 point, and 1 more for each enemy the figure carries."""
    points = 1 + len(figure["carries"])
    figure["status"], figure["at"] = RETIRED, None
    seat_record(state, figure["seat"])["points"] += points
    entry = {"figure": figure["id"], "seat": figure["seat"], "points": points,
             "carried": list(figure["carries"]), "automatic": automatic}
    state["retires"].append(entry)
    return [{"type": "retired", **entry}]


def game_ends(state: dict) -> bool:
    return len(seats_on_board(state)) <= 1


def finish(state: dict) -> list[dict]:
    """The last player on the board retires every figure left and scores them normally;
    the highest total wins (equal totals share the win)."""
    events = []
    for figure in state["figures"]:
        if figure["status"] == IN_PLAY:
            events += retire(state, figure, automatic=True)
    best = max(seat["points"] for seat in state["seats"])
    state["winners"] = [seat["id"] for seat in state["seats"] if seat["points"] == best]
    state["active"], state["step"], state["fight"] = None, None, None  # the phase "over" follows
    scores = [{"seat": seat["id"], "points": seat["points"]} for seat in state["seats"]]
    return events + [{"type": "game_over", "scores": scores, "winners": state["winners"]}]


def outcome(state: dict) -> dict | None:
    if state["phase"] != "over":
        return None
    totals = sorted({seat["points"] for seat in state["seats"]}, reverse=True)
    ranking = [[seat["id"] for seat in state["seats"] if seat["points"] == total] for total in totals]
    return {"winners": list(state["winners"]), "reason": N_("The most points, from the figures retired: %(names)s."),
            "params": {"names": ", ".join(seat_name(state, seat) for seat in state["winners"])},
            "ranking": ranking}


def withdraw_figures(state: dict, seat_id: int) -> list[dict]:
    """A seat leaving for good: its figures leave the board and score nothing; what they carried
    goes back to its owners, out of the game."""
    events = []
    for figure in state["figures"]:
        if figure["seat"] == seat_id and figure["status"] == IN_PLAY:
            for captive_id in figure["carries"]:
                captive = figure_by_id(state, captive_id)
                captive["status"], captive["captured_by"] = OUT, None
            figure.update(status=OUT, at=None, carries=[])
            events.append({"type": "left_the_board", "figure": figure["id"]})
    return events
