"""The figure catalogue over JSON: what an amiibo id is, and a search by name
(phones without a reader pick figures with it).

``GET /api/amiibo/<id>`` and ``GET /api/amiibo?q=TEXT&limit=N``; errors are
``{"ok": false, "error": "<message in the caller's language>"}`` with a 4xx,
like the rest of the API.
"""

from __future__ import annotations

import secrets

from flask import Blueprint, current_app, jsonify, request

from companion.amiibo.catalog import MAX_LIMIT, MAX_QUERY, Catalog
from companion.amiibo.ids import AmiiboError
from companion.games.base import N_
from companion.web.i18n import current_language, translate
from companion.limits import ADMIN, TooManyAttempts
from companion.web.security import count_guess, is_cross_origin

amiibo_api = Blueprint("amiibo_api", __name__, url_prefix="/api/amiibo")

DEFAULT_LIMIT = 20


class RequestError(AmiiboError):
    """A refused request, with its HTTP status."""

    def __init__(self, status: int, message: str, **params):
        super().__init__(message, **params)
        self.status = status


def catalog() -> Catalog:
    return current_app.extensions["companion.catalog"]


def failure(status: int, error: AmiiboError):
    return jsonify({"ok": False, "error": translate(error)}), status


@amiibo_api.errorhandler(AmiiboError)
def refused(error: AmiiboError):
    return failure(getattr(error, "status", 400), error)


@amiibo_api.before_request
def refuse_other_origins():
    if is_cross_origin() or request.method == "OPTIONS":
        raise RequestError(403, N_("Requests from other sites are refused."))


@amiibo_api.get("/<amiibo_id>")
def describe(amiibo_id: str):
    return jsonify(catalog().describe(amiibo_id, current_language()))


@amiibo_api.put("/<amiibo_id>/name")
def name_figure(amiibo_id: str):
    """The server's administrator names a figure in the catalogue (``COMPANION_ADMIN_KEY``)."""
    key = current_app.config.get("ADMIN_KEY")
    given = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    if not key:
        raise RequestError(403, N_("This server has no administrator key: figures are named by the host of a table."))
    right = secrets.compare_digest(given.encode(), key.encode())
    try:
        count_guess(ADMIN, right)
    except TooManyAttempts as error:
        raise RequestError(429, error.message, **error.params) from None
    if not right:
        raise RequestError(401, N_("The administrator key is needed to name a figure in the catalogue."))
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise RequestError(400, N_("The body must be a JSON object."))
    return jsonify(catalog().name_figure(amiibo_id, body.get("name"), body.get("lang", "en")))


@amiibo_api.get("")
def search():
    text = request.args.get("q", "")
    if len(text) > MAX_QUERY:
        raise RequestError(400, N_("The search text has at most %(count)s characters."), count=MAX_QUERY)
    raw_limit = request.args.get("limit", str(DEFAULT_LIMIT)).strip()
    if not raw_limit.isdigit() or not 1 <= int(raw_limit) <= MAX_LIMIT:
        raise RequestError(400, N_("The limit is a whole number from 1 to %(count)s."), count=MAX_LIMIT)
    return jsonify({"query": text, "results": catalog().search(text, current_language(), int(raw_limit))})
