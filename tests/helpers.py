"""Shared helpers for the tests: a table with seats, and a snapshot to prove nothing changed."""

from __future__ import annotations

from companion.tables import Tables

ENTROPY = "5a" * 32


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def new_table(client, game: str = "dice", options: dict | None = None, names=("Ana", "Bo")) -> dict:
    created = client.post("/api/tables", json={"game": game, "options": options or {}})
    assert created.status_code == 201, created.json
    table = {**created.json, "seats": {}}
    for name in names:
        seat = client.post(f"/api/tables/{table['code']}/seats", json={"name": name, "entropy": ENTROPY})
        assert seat.status_code == 201, seat.json
        table["seats"][name] = seat.json
    return table


def snapshot(tables: Tables, code: str) -> tuple:
    """Everything a rejected action must leave untouched."""
    with tables.store.reading() as tx:
        table = tx.table(code)
        return table, tx.seats(code, include_removed=True), tx.log(code)
