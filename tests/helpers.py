"""Shared helpers for the tests: a table with seats, and a snapshot to prove nothing changed."""

from __future__ import annotations

import contextlib
import io

from companion.tables import Tables

ENTROPY = "5a" * 32
# For page.wait_for_function: every image in view has loaded. A lazy one out of view (the phone's QR code,
# folded away or below the screen) loads only when scrolled to: it is not waited for.
IMAGES_IN_VIEW_LOADED = """() => [...document.images].every((img) => {
  const box = img.getBoundingClientRect();
  // A closed fold's content keeps its boxes in Chromium (content-visibility), but is never drawn: out of view.
  const folded = img.closest('details:not([open])') && !img.closest('summary');
  const outOfView = folded || !img.getClientRects().length || box.top >= innerHeight || box.bottom <= 0;
  return (img.complete && (img.naturalWidth > 0 || !img.src)) || (img.loading === 'lazy' && outOfView);
})"""


def verify_here(*argv) -> tuple[int, str]:
    """``python -m companion.verify *argv`` run by its ``main`` in this process: its exit status and what it
    printed, without a Python start (a test that checks the command itself runs it as a process)."""
    from companion.verify import main

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        status = main([str(arg) for arg in argv])
    return status, printed.getvalue()


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
