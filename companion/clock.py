"""The server's clock for deadlines and idle times: one that never jumps.

The wall clock moves when it is set: a Raspberry Pi has no battery-backed clock, boots with the
time it saved at shutdown and jumps forward when NTP answers (25 h after a day switched off), and
anyone may set it back by hand. Deadlines (timed waits, hand-off codes, a TV's pairing code), idle
times (the sweeper, away seats) and the rates of the limits measured with it would jump along: a
game played seconds before closed as idle for a day, a 2-second timed wait lasted an hour.

`SteadyClock` reads the wall clock once, when the process starts, and from then on adds the
monotonic clock's progress: seconds since the epoch, as stored and displayed, that only move
forward at the pace of real time. What is stored from it (``updated_at``, deadlines) stays
comparable from one start of the server to the next; a start with the wall clock behind the
newest stored time (`not_before`) starts from that time instead, so no stored deadline is left
an hour in the future.
"""

from __future__ import annotations

import threading
import time
from typing import Callable


class SteadyClock:
    def __init__(self, wall: Callable[[], float] = time.time, monotonic: Callable[[], float] = time.monotonic):
        self._monotonic = monotonic
        self._offset = wall() - monotonic()
        self._lock = threading.Lock()

    def __call__(self) -> float:
        return self._offset + self._monotonic()

    def not_before(self, stamp: float | None) -> None:
        """From now on, reads no earlier than ``stamp`` (the newest time the store has seen)."""
        with self._lock:
            behind = (stamp or 0.0) - self()
            if behind > 0:
                self._offset += behind


# The process's clock: every deadline and idle time of the server reads it.
now = SteadyClock()


def catch_up_with(store, clock: SteadyClock = now) -> None:
    """At start: ``clock`` reads no earlier than the newest ``updated_at`` of the store's tables (a wall
    clock set back while the server was stopped would leave every stored deadline in the future)."""
    with store.reading() as tx:
        row = tx.execute("SELECT MAX(updated_at) AS latest FROM tables").fetchone()
    clock.not_before(row["latest"] if row else None)
