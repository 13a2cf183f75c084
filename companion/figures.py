"""Figures registered at a table: who owns which amiibo, and what a tap means.

Pure functions over the table's ``figures`` record (JSON, stored with the
table), in the style of the games: they return a new record and public
events, or raise `IllegalAction` with a message a player understands.

A tap on the reader (``scan``) means, in this order:
1. a figure already at the table: it is identified ("tapped");
2. a seat pressed "add my figures": the figure goes to that seat;
3. joining is open: the figure waits on the host screen with a QR code that
   lets the phone scanning it claim it (``claim``), with a new seat or its own;
4. otherwise the tap is refused with a message for the host screen.

Phones without a reader pick figures from the catalogue (``register`` with no
UID). Two copies of one figure are told apart by their UID.
"""

from __future__ import annotations

import re
from typing import Callable

from companion.amiibo import ids
from companion.games.base import N_, IllegalAction, Plural, RegistrationRules

UID = re.compile(r"^[0-9a-f]{14}$")

Describe = Callable[[str], dict]  # amiibo id -> {"name": {"en", "fr"}, "known": bool}


def empty() -> dict:
    return {"list": [], "registering": None, "pending": None, "last_tap": None, "next_id": 1}


def normalize(figures: dict | None) -> dict:
    return {**empty(), **(figures or {})}


def clean_uid(raw: object) -> str | None:
    if raw is None:
        return None
    uid = raw.lower().replace(":", "") if isinstance(raw, str) else ""
    if not UID.match(uid):
        raise IllegalAction(N_("A figure's UID is 14 hexadecimal digits."))
    return uid


def clean_amiibo_id(raw: object) -> str:
    try:
        return ids.normalize(raw)
    except ids.InvalidAmiiboId as error:
        raise IllegalAction(error.message, **error.params) from error


def owned_by(figures: dict, seat: int) -> list[dict]:
    return [figure for figure in figures["list"] if figure["seat"] == seat]


def _english(figure: dict) -> str:
    return figure["name"]["en"]


def _check_rules(figures: dict, seat: int, amiibo_id: str, uid: str | None, rules: RegistrationRules,
                 seat_names: dict[int, str]) -> None:
    for figure in figures["list"]:
        if uid is not None and figure["uid"] == uid:
            raise IllegalAction(N_("This figure is already registered, to %(name)s."),
                                name=seat_names.get(figure["seat"], "?"))
        if rules.unique_figures and figure["amiibo_id"] == amiibo_id:
            raise IllegalAction(N_("%(figure)s is already in this game, with %(name)s."),
                                figure=_english(figure), name=seat_names.get(figure["seat"], "?"))
    if rules.per_seat is not None and len(owned_by(figures, seat)) >= rules.per_seat:
        raise IllegalAction(Plural("%(name)s already has %(count)s figure, the most for this game.",
                                   "%(name)s already has %(count)s figures, the most for this game."),
                            name=seat_names.get(seat, "?"), count=rules.per_seat)


def register(figures: dict, seat: int, amiibo_id: str, uid: str | None, describe: Describe,
             rules: RegistrationRules, seat_names: dict[int, str]) -> tuple[dict, list[dict]]:
    _check_rules(figures, seat, amiibo_id, uid, rules, seat_names)
    described = describe(amiibo_id)
    figure = {"id": figures["next_id"], "uid": uid, "amiibo_id": amiibo_id, "seat": seat,
              "name": described["name"], "known": described["known"]}
    pending = figures["pending"]
    if pending and pending["amiibo_id"] == amiibo_id and pending["uid"] == uid:
        pending = None
    new = {**figures, "list": [*figures["list"], figure], "next_id": figures["next_id"] + 1, "pending": pending}
    return new, [{"type": "figure_registered", "figure": figure}]


def scan(figures: dict, uid: str, amiibo_id: str, describe: Describe, rules: RegistrationRules,
         seat_names: dict[int, str], joining_open: bool, adding_allowed: bool,
         new_claim: Callable[[], str]) -> tuple[dict, list[dict]]:
    known = next((f for f in figures["list"] if f["uid"] == uid), None)
    if known is None:
        known = next((f for f in figures["list"] if f["uid"] is None and f["amiibo_id"] == amiibo_id), None)
    if known is not None:
        tap = {"figure": known["id"], "seat": known["seat"], "uid": uid}
        return {**figures, "last_tap": tap}, [{"type": "figure_tapped", **tap}]
    if not adding_allowed:
        raise IllegalAction(N_("The game has started: figures can no longer be added."))
    if figures["registering"] is not None:
        return register(figures, figures["registering"], amiibo_id, uid, describe, rules, seat_names)
    if joining_open:
        described = describe(amiibo_id)
        pending = {"uid": uid, "amiibo_id": amiibo_id, "name": described["name"], "known": described["known"],
                   "claim": new_claim()}
        return {**figures, "pending": pending}, [{"type": "figure_waiting", "amiibo_id": amiibo_id}]
    raise IllegalAction(N_("Nobody is adding figures: press “Add my figures” on a phone first."))


def claim(figures: dict, seat: int, token: object, describe: Describe, rules: RegistrationRules,
          seat_names: dict[int, str]) -> tuple[dict, list[dict]]:
    pending = figures["pending"]
    if not pending or not isinstance(token, str) or token != pending["claim"]:
        raise IllegalAction(N_("This figure is no longer waiting: tap it on the reader again."))
    return register(figures, seat, pending["amiibo_id"], pending["uid"], describe, rules, seat_names)


def set_registering(figures: dict, seat: int, on: bool, seat_names: dict[int, str]) -> tuple[dict, list[dict]]:
    current = figures["registering"]
    if on and current not in (None, seat):
        raise IllegalAction(N_("%(name)s is adding figures: wait until they are done."),
                            name=seat_names.get(current, "?"))
    if not on and current != seat:
        return figures, []
    registering = seat if on else None
    return {**figures, "registering": registering}, [{"type": "figure_registering", "seat": registering}]


def remove(figures: dict, figure_id: object, seat: int | None) -> tuple[dict, list[dict]]:
    """Takes a figure off the table: its owner (``seat``) or the host (``None``) may."""
    owned(figures, figure_id, seat)
    rest = [f for f in figures["list"] if f["id"] != figure_id]
    return {**figures, "list": rest}, [{"type": "figure_removed", "figure": figure_id}]


def owned(figures: dict, figure_id: object, seat: int | None) -> dict:
    """The figure, if ``seat`` owns it (``None``: the host, who may touch any)."""
    figure = next((f for f in figures["list"] if f["id"] == figure_id and type(figure_id) is int), None)
    if figure is None:
        raise IllegalAction(N_("There is no such figure at this table."))
    if seat is not None and figure["seat"] != seat:
        raise IllegalAction(N_("You can only act for your own seat."))
    return figure


def renamed(figures: dict, amiibo_id: str, describe: Describe) -> tuple[dict, list[dict]]:
    """After a figure was given a name: every copy of it at the table shows the new one."""
    described = describe(amiibo_id)
    updated = [{**f, "name": described["name"]} if f["amiibo_id"] == amiibo_id else f for f in figures["list"]]
    return {**figures, "list": updated}, [{"type": "figure_named", "amiibo_id": amiibo_id}]


def release_seat(figures: dict, seat: int) -> dict:
    """A removed seat's figures leave the table with it."""
    registering = None if figures["registering"] == seat else figures["registering"]
    return {**figures, "list": [f for f in figures["list"] if f["seat"] != seat], "registering": registering}


def check_start(figures: dict, rules: RegistrationRules, seats: list[int], seat_names: dict[int, str]) -> None:
    """Before a game starts: every seat has its figures, in equal numbers when the game asks."""
    if not rules.equal_counts:
        return
    counts = {seat: len(owned_by(figures, seat)) for seat in seats}
    wanted = rules.per_seat if rules.per_seat is not None else max(counts.values(), default=0)
    short = [seat for seat, count in counts.items() if count != wanted]
    if short or wanted == 0:
        seat = short[0] if short else seats[0]
        raise IllegalAction(Plural("Every player needs %(count)s figure; %(name)s has %(has)s.",
                                   "Every player needs %(count)s figures; %(name)s has %(has)s."),
                            count=max(wanted, 1), name=seat_names.get(seat, "?"), has=counts.get(seat, 0))


def public(figures: dict) -> dict:
    """What every screen sees: the claim token of a waiting figure is for the host screen only."""
    pending = figures["pending"]
    if pending:
        pending = {key: value for key, value in pending.items() if key != "claim"}
    return {**figures, "pending": pending}


def per_seat_needed(rules: RegistrationRules, options: dict, counts: list[int]) -> int | None:
    """How many figures each player must bring before the start, or None when any number does.
    A game that asks for equal counts may say how many with its "figures_per_player" option."""
    if not rules.equal_counts:
        return None
    wanted = options.get("figures_per_player", rules.per_seat)
    return wanted if isinstance(wanted, int) else max(max(counts, default=0), 1)


def requirements(game, options: dict, figures: dict, seats: list[int]) -> list[dict]:
    """What a table in its lobby still needs before the host can start: players, then each
    player's figures, each with what it has and needs (the screens say "2 of 3 figures")."""
    try:
        low, high = game.seat_limits(options)
    except (KeyError, TypeError, ValueError):  # options stored by an older version: the game's bounds
        low, high = game.min_seats, game.max_seats
    needs = [{"kind": "players", "have": len(seats), "need": low, "max": high, "met": low <= len(seats) <= high}]
    counts = {seat: len(owned_by(figures, seat)) for seat in seats}
    wanted = per_seat_needed(game.registration, options, list(counts.values())) if game.uses_figures else None
    if wanted is not None:
        needs += [{"kind": "figures", "seat": seat, "have": count, "need": wanted, "met": count == wanted}
                  for seat, count in counts.items()]
    return needs
