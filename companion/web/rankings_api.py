"""Criteria rankings over JSON, for the rankings page and scripts.

* ``GET /api/criteria``: every criterion and reference, worded in the caller's language.
* ``GET /api/rankings/<criterion>?figures=0x…,0x…`` (or ``?table=CODE`` for the
  figures registered at a table): the figures in order, best first, in tiers of
  tied figures, with their values (or the house ranking for judgement criteria).
* ``PUT /api/rankings/<criterion>`` ``{"table": CODE, "tiers": [[id…]…]}`` with a
  host or seat token of that table: a drag-and-drop edit of the house ranking,
  as a proposal of that table (`companion.amiibo.proposals`): 200 with the new
  ranking when agreed at once (the host, or nobody else seated), else 202 with
  the proposal, which every other seat's phone shows (Socket.IO ``proposals``).
* ``GET /api/rankings/proposals?table=CODE``: the table's pending proposals.
* ``POST /api/rankings/proposals/<id>`` ``{"table": CODE, "agree": bool}`` with
  a seat or host token: a seat's agreement or refusal, or the host's decision.
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, request

from companion.amiibo.criteria import CRITERIA, REFERENCES, describe_criterion, describe_reference, get_criterion
from companion.amiibo.house import HouseRankings, rankings
from companion.amiibo.proposals import HouseProposals
from companion.amiibo.ids import AmiiboError
from companion.games.base import N_, IllegalAction
from companion.tables import Principal, TableError
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


def proposals() -> HouseProposals:
    return current_app.extensions["companion.proposals"]


def table_member(raw_code) -> Principal:
    principal = tables().authenticate(raw_code, bearer_token())
    if principal.role not in ("host", "seat"):
        raise TableError(401, N_("A seat or host token is needed to change the house ranking."))
    return principal


def seat_list(code: str) -> list[dict]:
    return tables().view_for(Principal(code, "spectator"))["table"]["seats"]


def described(proposal: dict) -> dict:
    """A proposal as the phones show it, in both languages (one message reaches every phone of the table)."""
    seats = {f"seat:{seat['id']}": seat["name"] for seat in seat_list(proposal["table"])}
    names = {figure: catalog().figure_names(figure)["name"] for tier in proposal["tiers"] for figure in tier}
    return {**proposal, "wording": {lang: describe_criterion(proposal["criterion"], lang)["wording"]
                                    for lang in ("en", "fr")},
            "proposer_name": seats.get(proposal["proposer"]),
            "labels": names, "seat_names": {key.split(":")[1]: name for key, name in seats.items()}}


def announce(code: str, settled: dict | None = None) -> None:
    """Every screen of the table learns the pending proposals (and the one just settled)."""
    payload = {"pending": [described(proposal) for proposal in proposals().pending(code)],
               "settled": described(settled) if settled else None}
    current_app.extensions["companion.socketio"].emit("proposals", payload, to=code)


@rankings_api.put("/rankings/<criterion_id>")
def edit_ranking(criterion_id: str):
    criterion = get_criterion(criterion_id)
    body = json_body()
    principal = table_member(body.get("table"))
    seats = [seat["id"] for seat in seat_list(principal.code)]
    proposal = proposals().propose(principal, criterion.id, body.get("tiers"), seats,
                                   tables().figure_ids(principal.code))
    announce(principal.code, proposal if proposal["status"] != "pending" else None)
    if proposal["status"] == "pending":
        return jsonify({"ok": True, "proposal": described(proposal)}), 202
    figures = [catalog().describe(amiibo_id, current_language()) for tier in proposal["tiers"] for amiibo_id in tier]
    return jsonify({**rankings(criterion.id, figures, current_language(), house_rankings().get(criterion.id)),
                    "proposal": described(proposal)})


@rankings_api.get("/rankings/proposals")
def pending_proposals():
    code = tables().summary(request.args.get("table"))["code"]
    return jsonify({"pending": [described(proposal) for proposal in proposals().pending(code)]})


@rankings_api.post("/rankings/proposals/<int:proposal_id>")
def answer_proposal(proposal_id: int):
    body = json_body()
    principal = table_member(body.get("table"))
    proposal = proposals().answer(principal, proposal_id, body.get("agree"))
    announce(principal.code, proposal if proposal["status"] != "pending" else None)
    return jsonify({"ok": True, "proposal": described(proposal)})

