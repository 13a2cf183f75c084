"""The wall clock set forward or back (issue 24): deadlines and idle times do not move with it.

A Pi without a battery-backed clock boots with the time it saved at shutdown and jumps forward
when NTP answers; anyone may set a clock back. The server's clock (`companion.clock.SteadyClock`)
reads the wall clock once and then follows the monotonic clock. Here both are the test's own,
injected into a real store, the tables, the sweeper and the presence: the wall clock jumps 25 h
forward or 1 h back while the monotonic clock moves by seconds."""

from __future__ import annotations

import pytest

from companion import waits
from companion.clock import SteadyClock, catch_up_with
from companion.expiry import HOUR, Expiry, Sweeper
from companion.store import Store
from companion.tables import Principal, Tables
from companion.web.sockets import Presence
from tests.helpers import ENTROPY
import tests.tally_game  # noqa: F401  (registers Tally: a game with a timed wait)

START = 1_790_000_000.0  # the wall clock's time when the server starts (late 2026)


class Clocks:
    """The wall clock and the monotonic clock as the test sets them, and the server's clock built on them."""

    def __init__(self, wall: float = START):
        self.wall, self.monotonic = wall, 1000.0
        self.steady = SteadyClock(wall=lambda: self.wall, monotonic=lambda: self.monotonic)

    def later(self, seconds: float, wall_jump: float = 0.0) -> None:
        """``seconds`` pass; the wall clock is also set ``wall_jump`` seconds forward (or back)."""
        self.monotonic += seconds
        self.wall += seconds + wall_jump


@pytest.fixture
def clocks():
    return Clocks()


@pytest.fixture
def tables(tmp_path, clocks):
    store = Store(str(tmp_path / "clock.sqlite3"), clock=clocks.steady)
    yield Tables(store, clock=clocks.steady)
    store.close()


def status(tables: Tables, code: str) -> str:
    with tables.store.reading() as tx:
        return tx.table(code)["status"]


def played_dice(tables: Tables) -> str:
    code = tables.create("dice", {})["code"]
    token = tables.join(code, "Ana", ENTROPY)["token"]
    tables.act(code, token, {"type": "roll"})
    return code


def claimed_tally(tables: Tables) -> tuple[str, int]:
    """A game of Tally (timeout 2 s) where Bo's claim waits for Ana to confirm: a timed wait."""
    created = tables.create("tally", {"target": 3}, timeout=2)
    code = created["code"]
    seats = {name: tables.join(code, name, ENTROPY) for name in ("Ana", "Bo")}
    tables.act(code, created["host_token"], {"type": "table.start"})
    with tables.store.reading() as tx:
        order = tx.table(code)["state"]["order"]
    names = {seat["seat"]: name for name, seat in seats.items()}
    first, second = names[order[0]], names[order[1]]
    tables.act(code, seats[first]["token"], {"type": "pass"})
    tables.act(code, seats[second]["token"], {"type": "claim"})
    with tables.store.reading() as tx:
        timed = [wait for wait in tx.table(code)["waits"] if wait["timed"]]
    assert len(timed) == 1 and timed[0]["deadline"] is not None
    return code, timed[0]["seat"]


def timed_out(tables: Tables, code: str) -> bool:
    with tables.store.reading() as tx:
        return any(entry.get("type") == "timed_out" for entry in tx.log(code))


def test_a_wall_clock_set_forward_25_hours_closes_no_table_played_seconds_before(tables, clocks):
    code = played_dice(tables)
    clocks.later(5, wall_jump=25 * HOUR)  # NTP answers five seconds after the roll
    sweeper = Sweeper(tables, Expiry(), clock=clocks.steady)
    assert sweeper.sweep() == {"closed": 0, "deleted": 0}
    assert status(tables, code) == "playing"
    # What the sweeper did when it read the wall clock: the game of five seconds ago, closed as idle.
    assert Sweeper(tables, Expiry(), clock=lambda: clocks.wall)._codes(("lobby", "playing"), clocks.wall - 24 * HOUR)
    clocks.later(24 * HOUR + 1)  # a real day without a touch: then it is idle
    assert sweeper.sweep()["closed"] == 1 and status(tables, code) == "closed"


def test_a_wall_clock_set_back_an_hour_leaves_no_timed_wait_waiting(tables, clocks):
    code, seat = claimed_tally(tables)
    clocks.later(1, wall_jump=-HOUR)
    assert tables.expire_due() == [] and not timed_out(tables, code)  # one second of two: not yet
    clocks.later(2)
    with tables.store.reading() as tx:
        stored = tx.table(code)["waits"]
    assert waits.first_due(stored, clocks.wall) is None  # by the wall clock, an hour to go
    assert tables.expire_due() == [code] and timed_out(tables, code)


def test_a_wall_clock_set_forward_does_not_end_a_timed_wait_early(tables, clocks):
    code, _ = claimed_tally(tables)
    clocks.later(1, wall_jump=25 * HOUR)
    assert tables.expire_due() == [] and not timed_out(tables, code)
    clocks.later(2)
    assert tables.expire_due() == [code]


def test_a_server_started_with_its_clock_set_back_keeps_the_stored_deadlines(tmp_path, clocks):
    store = Store(str(tmp_path / "restart.sqlite3"), clock=clocks.steady)
    code, _ = claimed_tally(Tables(store, clock=clocks.steady))
    store.close()
    # The server starts again at once, on a machine whose wall clock was set an hour back.
    restarted = Clocks(wall=clocks.wall - HOUR)
    store = Store(str(tmp_path / "restart.sqlite3"), clock=restarted.steady)
    try:
        catch_up_with(store, restarted.steady)
        tables = Tables(store, clock=restarted.steady)
        restarted.later(3)
        assert tables.expire_due() == [code] and timed_out(tables, code)  # not an hour later
    finally:
        store.close()


@pytest.mark.parametrize("jump", [25 * HOUR, -HOUR])
def test_how_long_a_seat_has_been_away_does_not_jump_with_the_wall_clock(clocks, jump):
    presence = Presence(clock=clocks.steady)
    presence.attach("phone", Principal("ABCD", "seat", 1), "token")
    presence.detach("phone")
    clocks.later(2, wall_jump=jump)
    assert presence.away_for("ABCD", 1) == pytest.approx(2)


def test_tables_due_at_once_are_settled_one_at_a_time_with_the_loop_given_back_between(tables, clocks):
    """Fifty silent rounds started together come due together: the server gives its event loop back between
    two tables' transactions (``between``), so that the other tables' actions are not held behind all of them."""
    codes = [claimed_tally(tables)[0] for _ in range(3)]
    clocks.later(3)
    seen = []
    settled = tables.expire_due(between=lambda: seen.append([timed_out(tables, code) for code in codes]))
    assert sorted(settled) == sorted(codes)
    # Called before each table but the first, when exactly the tables before it are settled.
    assert [sum(flags) for flags in seen] == [1, 2]
