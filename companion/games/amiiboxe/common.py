"""What every part of Amiiboxe's rules shares: constants, lookups and the usual refusals."""

from __future__ import annotations

from companion.games.base import N_, IllegalAction, require_fields

FACES = 6
MAX_VALUE = 99
MAX_NAME_LENGTH = 40
MIN_FIGURES = 3  # the book: « au moins 3 amiibo par joueur »
IN_PLAY, RETIRED, CAPTURED, OUT = "in_play", "retired", "captured", "out"
ATTACKER, DEFENDER, TIE = "attacker", "defender", "tie"


def seat_ids(state: dict) -> list[int]:
    return [seat["id"] for seat in state["seats"]]


def seat_name(state: dict, seat_id: int) -> str:
    return next(seat["name"] for seat in state["seats"] if seat["id"] == seat_id)


def seat_record(state: dict, seat_id: int) -> dict:
    return next(seat for seat in state["seats"] if seat["id"] == seat_id)


def figure_by_id(state: dict, figure_id: int) -> dict:
    return next(figure for figure in state["figures"] if figure["id"] == figure_id)


def english_name(figure: dict) -> str:
    return figure["name"].get("en") or figure["amiibo_id"]


def seats_on_board(state: dict) -> set[int]:
    return {figure["seat"] for figure in state["figures"] if figure["status"] == IN_PLAY}


def figure_field(state: dict, action: dict, field: str, selected: str | None = None) -> dict:
    """The figure an action names, or the one a reader tap selected when the field is left out."""
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


def own_figure(state: dict, seat, action: dict, field: str, selected: str | None = "figure") -> dict:
    figure = figure_field(state, action, field, selected)
    if figure["seat"] != seat:
        raise IllegalAction(N_("That figure is not yours."))
    return figure


def require_no_fight(state: dict) -> None:
    if state["fight"]:
        raise IllegalAction(N_("A fight is being decided: wait for it to end."))


def require_flag(action: dict, name: str) -> bool:
    if name in action:
        require_fields(action, **{name: bool})
    return bool(action.get(name, False))
