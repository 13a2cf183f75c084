"""Tables do not live forever: the sweeper closes the finished and idle ones
and, later, deletes what is left of them.

* A table whose game is over (status ``over``) and that nobody touched for
  ``FINISHED_HOURS`` (default 6) is closed; so is any open table (lobby or
  playing) nobody touched for ``IDLE_HOURS`` (default 24). Closing reveals the
  seed, exactly as the host's "close" does, and the log says why ("expired").
  Every screen still connected is told at once.
* A closed table keeps its public log (``GET /api/tables/<code>/log``, the
  verify page) for ``LOG_DAYS`` (default 30) after it closed, so anyone can
  still check its draws; then the table, its seats, its log and its actions are
  deleted, and its code may be drawn again.

The sweeper runs every ``SWEEP_SECONDS`` (default 300) as a background task of
the server (a greenlet under gevent). It works in small batches, one short
transaction per table closed and per handful of tables deleted, and yields
between them, so the phones' actions are never held up behind it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from companion import clock as steady
from companion.tables import TableError

HOUR, DAY = 3600.0, 86400.0
DELETE_BATCH = 20  # tables deleted per transaction: their logs can be long

INDEX = "CREATE INDEX IF NOT EXISTS tables_by_status ON tables (status, updated_at);"


@dataclass(frozen=True)
class Expiry:
    finished_seconds: float = 6 * HOUR
    idle_seconds: float = 24 * HOUR
    log_seconds: float = 30 * DAY

    @classmethod
    def from_config(cls, config: dict) -> "Expiry":
        return cls(float(config["FINISHED_HOURS"]) * HOUR, float(config["IDLE_HOURS"]) * HOUR,
                   float(config["LOG_DAYS"]) * DAY)


class Sweeper:
    def __init__(self, tables, expiry: Expiry, pause: Callable[[], None] = lambda: None,
                 clock: Callable[[], float] = steady.now):
        """``pause`` yields to the other work of the server between two batches; ``clock`` is the one the
        store stamps ``updated_at`` with (`companion.clock`: a wall clock set forward closes nothing)."""
        self.tables, self.expiry, self.pause, self.clock = tables, expiry, pause, clock
        tables.store.ensure_schema(INDEX)

    def _codes(self, statuses: tuple[str, ...], before: float, limit: int = 100) -> list[str]:
        marks = ", ".join("?" for _ in statuses)
        with self.tables.store.reading() as tx:
            rows = tx.execute(f"SELECT code FROM tables WHERE status IN ({marks}) AND updated_at < ? "
                              "ORDER BY updated_at LIMIT ?", (*statuses, before, limit)).fetchall()
        return [row["code"] for row in rows]

    def sweep(self) -> dict:
        """One pass; returns how many tables it closed and deleted."""
        now = self.clock()
        closed = 0
        for statuses, after in ((("over",), self.expiry.finished_seconds),
                                (("lobby", "playing"), self.expiry.idle_seconds)):
            for code in self._codes(statuses, now - after):
                closed += self._close(code, after)
                self.pause()
        deleted = 0
        while codes := self._codes(("closed",), now - self.expiry.log_seconds, DELETE_BATCH):
            with self.tables.store.transaction() as tx:
                tx.executemany("DELETE FROM tables WHERE code = ?", [(code,) for code in codes])
            deleted += len(codes)
            self.pause()
        return {"closed": closed, "deleted": deleted}

    def _close(self, code: str, after: float) -> int:
        with self.tables.store.transaction() as tx:
            table = tx.table(code)
            if table is None or table["updated_at"] >= self.clock() - after:
                return 0  # somebody acted meanwhile
            tx.append_log(code, [{"kind": "table", "type": "expired", "idle_hours": round(after / HOUR, 3)}])
            tx.update_table(code)  # touched: another process sweeping at the same moment leaves it alone
        try:
            self.tables.act_as_host(code, {"type": "table.close"})  # every screen still there is told
        except TableError:
            return 0  # closed meanwhile
        return 1


def run_sweeper(app, socketio) -> None:
    """The background task: a pass every SWEEP_SECONDS; a failed pass is logged and the next one runs."""
    sweeper = Sweeper(app.extensions["companion.tables"], Expiry.from_config(app.config),
                      pause=lambda: socketio.sleep(0))
    while True:
        socketio.sleep(app.config["SWEEP_SECONDS"])
        try:
            with app.app_context():
                sweeper.sweep()
        except Exception:  # a full disk now must not stop the sweeps of later
            app.logger.exception("sweeping expired tables failed")
