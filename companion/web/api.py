"""The JSON API: the same actions as Socket.IO, for scripts and tests.

Every action goes through `Tables.act`, the one path. Errors are JSON
``{"ok": false, "error": "<message in the caller's language>"}`` with a 4xx.
"""

from __future__ import annotations

import math
from typing import Any

from flask import Blueprint, current_app, g, jsonify, request, url_for
from werkzeug.exceptions import HTTPException

from companion.errors import SERVER_FAILED, fault_answer, log_unspent_value
from companion.games import REGISTRY
from companion.games.base import N_, Msg
from companion.option_texts import stored_options
from companion.tables import TOO_MANY_ACTIONS, TableError
from companion.web import game_number, tables
from companion.web.i18n import translate
from companion.web.links import join_url, public_base, seat_cookie_name
from companion.web.openapi import openapi_document
from companion.limits import CREATE, HANDOFF, JOIN, WATCH
from companion.web.security import act_in_the_store, charge, client_address, is_cross_origin, wait_before_the_store

api = Blueprint("api", __name__, url_prefix="/api")


def failure(error: TableError):
    return jsonify({"ok": False, "error": translate(error)}), error.status


@api.errorhandler(TableError)
def table_error(error: TableError):
    return failure(error)


@api.errorhandler(HTTPException)
def http_error(error: HTTPException):
    messages = {
        404: N_("There is nothing at this address."),
        405: N_("This method is not allowed here."),
        413: N_("The request is too large (at most 16 KiB)."),
        500: SERVER_FAILED,  # an exception no handler expected (Flask has logged it)
    }
    message = messages.get(error.code, N_("The request is malformed."))
    if error.code == 500:  # the server's fault, not a refusal: a phone that showed a value counts it unspent
        log_unspent_value(current_app.logger, (request.view_args or {}).get("code"), None, request.get_json(silent=True))
        return jsonify(fault_answer(translate(TableError(500, message)))), 500
    return failure(TableError(error.code or 400, message))


@api.before_request
def refuse_other_origins():
    # Browsers on another site must not drive a table (CORS is never granted).
    if is_cross_origin() or request.method == "OPTIONS":
        raise TableError(403, N_("Requests from other sites are refused."))


def json_body() -> dict:
    body = request.get_json(silent=True)
    if not request.is_json or not isinstance(body, dict):
        raise TableError(400, N_("The body must be a JSON object."))
    return body


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise TableError(401, N_("Use the header Authorization: Bearer <token>."))
    return token.strip()


@api.get("/openapi.json")
def openapi():
    return jsonify(openapi_document())


@api.get("/games")
def games():
    return jsonify({"games": [{"id": game.id, "title": game.title, "min_seats": game.min_seats,
                               "max_seats": game.max_seats, "options": game.options_schema()}
                              for game in REGISTRY.values()]})


@api.post("/options/check")
def check_options():
    """The create form checks each option as it is set, with the rules a new table applies.
    A refusal names the field to show it next to: the option the error is about, else the
    one just ``changed`` (a combination the change made impossible)."""
    body = json_body()
    game = tables().game_of(body.get("game"))
    changed = body.get("changed")
    if changed is not None and not isinstance(changed, str):
        raise TableError(400, N_("The field “changed” is the name of one option of the game."))
    try:
        options = tables().check_options(game.id, stored_options(game.id, body.get("options"), tables().texts))
    except TableError as error:
        names = {option.name: option for option in game.options}
        blamed = error.params.get("option")
        blamed = blamed if blamed in names else changed if changed in names else None
        if blamed and "option" in error.params:  # the form's label, not the option's id
            error = TableError(error.status, error.message, **{**error.params, "option": Msg(names[blamed].label)})
        return jsonify({"ok": False, "error": translate(error), "option": blamed})
    return jsonify({"ok": True, "options": options})


@api.post("/tables")
def create_table():
    charge(CREATE)
    body = json_body()
    # A list item typed by its name, in the page's language or another, is stored as its id.
    options = stored_options(body.get("game"), body.get("options"), tables().texts)
    created = tables().create(body.get("game"), options, body.get("timeout"))
    return jsonify({**created, "join_url": join_url(created["code"])}), 201


@api.post("/tables/<code>/seats")
def take_seat(code: str):
    charge(JOIN)
    body = json_body()
    # A host phone taking a seat sends its host key: the seat keeps the host's rights.
    seat = tables().join(code, body.get("name"), body.get("entropy"), host_token=bearer_token(),
                         commitment=body.get("commitment"))
    return seated(seat), 201


def seated(seat: dict):
    response = jsonify(seat)
    response.set_cookie(seat_cookie_name(seat["code"]), seat["token"], max_age=30 * 24 * 3600,
                        httponly=True, samesite="Lax")
    return response


@api.post("/tables/<code>/handoff")
def claim_handoff(code: str):
    """The phone that opened a seat's one-time hand-off code takes the seat."""
    charge(HANDOFF)  # per address: a client flooding a table's claims stops itself, not the real claimant
    body = json_body()
    return seated(tables().claim_handoff(code, body.get("handoff"), body.get("entropy"),
                                                body.get("commitment"))), 201


@api.get("/tables/<code>")
def table_view(code: str):
    principal = tables().authenticate(code, bearer_token())
    return jsonify(tables().view_for(principal))


def act(code: str, action: Any):
    """A seat's or the host's action, held to its rate and its refusals as over Socket.IO
    (`companion.web.security.act_in_the_store`); past them, a 429 that says how long to wait."""
    token = bearer_token()
    if token is None:  # refused without the store; a flood of them is stopped per address
        charge(WATCH)
        return jsonify(tables().act(code, token, action))
    principal = tables().authenticate(code, token)
    wait = wait_before_the_store(principal, client_address())
    if wait > 0:
        g.retry_after = max(1, math.ceil(wait))
        raise TableError(429, TOO_MANY_ACTIONS)
    return jsonify(act_in_the_store(principal, token, action, client_address()))


@api.post("/tables/<code>/actions")
def table_action(code: str):
    return act(code, json_body())


@api.post("/tables/<code>/close")
def close_table(code: str):
    act(code, {"type": "table.close"})
    return jsonify({"ok": True, "seed": tables().public_log(code)["seed"]})


@api.get("/tables/<code>/log")
def table_log(code: str):
    """The log of one game of the table: ``?game=<number>`` (the current game by default)."""
    return jsonify(tables().public_log(code, game_number(request.args.get("game"))))


# A TV paired with a table by a short code (companion/displays.py) --------------------------------
def displays():
    from flask import current_app

    return current_app.extensions["companion.displays"]


@api.post("/displays")
def new_display():
    """A TV at /screen asks for its code (and the key that learns which table it shows)."""
    charge(CREATE)
    pairing = displays().new_pairing()
    return jsonify({**pairing, "pair_url": public_base() + url_for("pages.pair", pairing=pairing["code"])}), 201


def with_address(status: dict) -> dict:
    if status["state"] == "paired":
        status["url"] = url_for("pages.screen", code=status["table"])
    return status


@api.get("/displays/mine")
def display_status():
    """What the TV holding this key shows: its code still waiting, expired, the tables asking for it,
    or the table it now displays."""
    return jsonify(with_address(displays().status(bearer_token())))


@api.post("/displays/mine")
def display_choice():
    """The TV itself shows one of the tables that asked for it ({"table": CODE}) or refuses them all (null)."""
    return jsonify(with_address(displays().choose(bearer_token(), json_body().get("table"))))


@api.post("/tables/<code>/display")
def pair_display(code: str):
    """The host's phone sends the code its TV shows: the TV names the table, then shows it; a TV that
    shows a table already moves only with that table's host token ("current")."""
    body = json_body()
    return jsonify(displays().pair(code, bearer_token(), body.get("pairing"), body.get("current")))
