"""Criteria rankings over JSON, for the rankings page and scripts.

* ``GET /api/criteria``: every criterion and reference, worded in the caller's language.
* ``GET /api/rankings/<criterion>?figures=0x…,0x…`` (or ``?table=CODE`` for the
  figures registered at a table): the figures in order, best first, in tiers of
  tied figures, with their values (or the house ranking for judgement criteria).
* ``PUT /api/rankings/<criterion>`` ``{"table": CODE, "tiers": [[id…]…]}`` with a
  host or seat token of that table: a drag-and-drop edit of the house ranking,
  remembered for later games.
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, request

from companion.amiibo.criteria import CRITERIA, REFERENCES, describe_criterion, describe_reference, get_criterion
from companion.amiibo.house import HouseRankings, rankings
from companion.amiibo.ids import AmiiboError
from companion.games.base import N_, IllegalAction
from companion.tables import TableError
from companion.web import tables
from companion.web.amiibo_api import catalog
from companion.web.api import bearer_token, json_body, refuse_other_origins
from companion.web.i18n import current_language, translate

rankings_api = Blueprint("rankings_api", __name__, url_prefix="/api")

MAX_FIGURES = 60  # a whole table's figures and more; keeps one request cheap


def house_rankings() -> HouseRankings:
    return current_app.extensions["companion.house"]


rankings_api.before_request(refuse_other_origins)


@rankings_api.errorhandler(TableError)
@rankings_api.errorhandler(IllegalAction)
@rankings_api.errorhandler(AmiiboError)
def refused(error):
    return jsonify({"ok": False, "error": translate(error)}), getattr(error, "status", 400)


@rankings_api.get("/criteria")
def criteria():
    return jsonify({"criteria": [describe_criterion(criterion_id, current_language()) for criterion_id in CRITERIA],
                    "references": [describe_reference(reference_id, current_language()) for reference_id in REFERENCES]})


def requested_figures() -> list[str]:
    if request.args.get("table"):
        return tables().figure_ids(request.args["table"])
    raw = request.args.get("figures", "")
    ids = [part.strip() for part in raw.split(",") if part.strip()]
    if len(ids) > MAX_FIGURES:
        raise TableError(400, N_("At most %(count)s figures at a time."), count=MAX_FIGURES)
    return list(dict.fromkeys(ids))


@rankings_api.get("/rankings/<criterion_id>")
def ranking(criterion_id: str):
    criterion = get_criterion(criterion_id)
    figures = [catalog().describe(amiibo_id, current_language()) for amiibo_id in requested_figures()]
    return jsonify(rankings(criterion.id, figures, current_language(), house_rankings().get(criterion.id)))


@rankings_api.put("/rankings/<criterion_id>")
def edit_ranking(criterion_id: str):
    criterion = get_criterion(criterion_id)
    body = json_body()
    principal = tables().authenticate(body.get("table"), bearer_token())
    if principal.role not in ("host", "seat"):
        raise TableError(401, N_("A seat or host token is needed to change the house ranking."))
    edited = house_rankings().reorder(criterion.id, body.get("tiers"))
    figures = [catalog().describe(amiibo_id, current_language()) for tier in body["tiers"] for amiibo_id in tier]
    return jsonify(rankings(criterion.id, figures, current_language(), edited))

