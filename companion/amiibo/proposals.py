"""Changing a house ranking by agreement.

A house ranking is shared by every table of this server, so no single phone
rewrites it: an edit from the rankings page is a *proposal* of the table it
comes from. It may order only the figures seated at that table, and only for
a judgement criterion (facts and the board are not voted on). Every other
seat of the table agrees on its phone, or the host confirms for the table;
one refusal drops it; a newer proposal for the same criterion replaces a
pending one. The proposal, each agreement and the outcome go into the
table's public log. An agreed proposal is that table's word on the pairs it
orders: the house ranking takes a pair's order only once another table agreed
the same (`companion.amiibo.house.HouseRankings.endorse`), so that no table
alone, and no table's host, rewrites it.

Where nobody else sits at the table (one player alone), there is nobody to
ask: the edit is agreed at once, and logged all the same.
"""

from __future__ import annotations

import json
import time
from typing import Any

from companion.amiibo.criteria import JUDGEMENT, SITUATIONAL, get_criterion
from companion.amiibo.house import HouseRankings, _order
from companion.games.base import N_
from companion.tables import Principal, TableError

SCHEMA = """
CREATE TABLE IF NOT EXISTS house_proposals (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    table_code  TEXT NOT NULL REFERENCES tables(code) ON DELETE CASCADE,
    criterion   TEXT NOT NULL,
    tiers       TEXT NOT NULL,
    proposer    TEXT NOT NULL,
    needed      TEXT NOT NULL,
    agreed      TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('pending', 'agreed', 'refused', 'replaced')),
    created_at  REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS house_proposals_by_table ON house_proposals (table_code, status);
"""
PENDING, AGREED, REFUSED, REPLACED = "pending", "agreed", "refused", "replaced"


def _row(row) -> dict:
    return {"id": row["id"], "table": row["table_code"], "criterion": row["criterion"],
            "tiers": json.loads(row["tiers"]), "proposer": row["proposer"], "needed": json.loads(row["needed"]),
            "agreed": json.loads(row["agreed"]), "status": row["status"]}


def check_editable(criterion_id: str) -> None:
    """Only judgement criteria have a house ranking to agree on; the others say why not."""
    criterion = get_criterion(criterion_id)
    if criterion.kind == SITUATIONAL:
        raise TableError(409, N_("This criterion is decided by the board at the moment of the fight: it has no "
                                 "ranking to edit."))
    if criterion.kind != JUDGEMENT:
        raise TableError(409, N_("This criterion is decided by facts (each figure's value), not by the table: its "
                                 "ranking cannot be edited. Judgement criteria can."))


class HouseProposals:
    def __init__(self, store, house: HouseRankings):
        self.store, self.house = store, house
        store.ensure_schema(SCHEMA)

    def propose(self, principal: Principal, criterion_id: str, raw_tiers: Any, seats: list[int],
                seated_figures: list[str]) -> dict:
        """A new proposal from this principal's table; agreed at once by the host or
        when nobody else is seated. Returns it."""
        check_editable(criterion_id)
        tiers = _order(raw_tiers)
        listed = [figure for tier in tiers for figure in tier]
        if len(listed) < 2:
            raise TableError(400, N_("Rank at least two figures."))
        stranger = next((figure for figure in listed if figure not in seated_figures), None)
        if stranger:
            raise TableError(403, N_("Only the figures seated at this table can be ranked from it: %(figure)s is "
                                     "not one of them."), figure=stranger)
        needed = [seat for seat in seats if principal.role != "seat" or seat != principal.seat]
        with self.store.transaction() as tx:
            tx.execute("UPDATE house_proposals SET status = ? WHERE table_code = ? AND criterion = ? AND status = ?",
                       (REPLACED, principal.code, criterion_id, PENDING))
            cursor = tx.execute(
                "INSERT INTO house_proposals (table_code, criterion, tiers, proposer, needed, agreed, status, "
                "created_at) VALUES (?, ?, ?, ?, ?, '[]', ?, ?) RETURNING id",
                (principal.code, criterion_id, json.dumps(tiers), principal.actor, json.dumps(needed), PENDING,
                 time.time()))
            proposal = self._load(tx, cursor.fetchone()[0])
            tx.append_log(principal.code, [{"kind": "house", "type": "proposed", "proposal": proposal["id"],
                                            "criterion": criterion_id, "tiers": tiers, "by": principal.actor,
                                            "needed": needed}])
            # The host (the host screen, or the phone whose seat holds the host's rights) confirms for the table.
            if principal.is_host or not needed:
                proposal = self._settle(tx, proposal, AGREED, [principal.actor])
        return proposal

    def answer(self, principal: Principal, proposal_id: Any, agree: Any) -> dict:
        """A seat's (or the host's) answer to a pending proposal of its table. Returns it."""
        if not isinstance(agree, bool):
            raise TableError(400, N_("The answer needs the field %(field)s (%(kind)s)."), field="agree",
                             kind="true/false")
        with self.store.transaction() as tx:
            proposal = self._load(tx, proposal_id) if type(proposal_id) is int else None
            if proposal is None or proposal["table"] != principal.code:
                raise TableError(404, N_("There is no such proposal at this table."))
            if proposal["status"] != PENDING:
                raise TableError(409, N_("This proposal is already settled."))
            player = principal.role == "seat" and not principal.is_host
            if player and principal.seat not in proposal["needed"]:
                raise TableError(403, N_("This proposal does not wait for your seat."))
            if player and principal.seat in proposal["agreed"]:
                raise TableError(409, N_("You have already agreed to this proposal."))
            if not agree:
                return self._settle(tx, proposal, REFUSED, [principal.actor])
            if principal.is_host:
                return self._settle(tx, proposal, AGREED, [*self._agreed_by(proposal), principal.actor])
            proposal["agreed"].append(principal.seat)
            tx.execute("UPDATE house_proposals SET agreed = ? WHERE id = ?",
                       (json.dumps(proposal["agreed"]), proposal["id"]))
            tx.append_log(principal.code, [{"kind": "house", "type": "agreement", "proposal": proposal["id"],
                                            "by": principal.actor}])
            if set(proposal["needed"]) <= set(proposal["agreed"]):
                return self._settle(tx, proposal, AGREED, self._agreed_by(proposal))
            return proposal

    def pending(self, code: str) -> list[dict]:
        with self.store.reading() as tx:
            rows = tx.execute("SELECT * FROM house_proposals WHERE table_code = ? AND status = ? ORDER BY id",
                              (code, PENDING)).fetchall()
        return [_row(row) for row in rows]

    @staticmethod
    def _agreed_by(proposal: dict) -> list[str]:
        return [proposal["proposer"], *(f"seat:{seat}" for seat in proposal["agreed"])]

    def _settle(self, tx, proposal: dict, status: str, by: list[str]) -> dict:
        house = None
        if status == AGREED:  # in the same transaction: the table's word with the record of the agreement
            house = self.house.endorse(proposal["criterion"], proposal["tiers"], proposal["table"])
            house = {"changed": len(house["changed"]), "waiting": len(house["waiting"]),
                     "tables_needed": self.house.tables_needed}
        tx.execute("UPDATE house_proposals SET status = ? WHERE id = ?", (status, proposal["id"]))
        tx.append_log(proposal["table"], [{"kind": "house", "type": status, "proposal": proposal["id"],
                                           "criterion": proposal["criterion"], "by": by,
                                           **({"house": house} if house else {})}])
        return {**proposal, "status": status, "settled_by": by, **({"house": house} if house else {})}

    @staticmethod
    def _load(tx, proposal_id: int) -> dict | None:
        row = tx.execute("SELECT * FROM house_proposals WHERE id = ?", (proposal_id,)).fetchone()
        return _row(row) if row else None
