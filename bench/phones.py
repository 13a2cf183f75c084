"""One client process of the benchmark: the phones and host screens of some tables.

``python bench/phones.py PLAN.json RESULT.json`` connects every screen of the
tables in the plan (python-socketio clients, websocket transport only), prints
``ready`` once every phone's random numbers are in its table's pool, waits for a
start time on stdin, makes every phone roll once per period at its own random phase
for the duration, waits for the last views, and writes the raw timings to RESULT.json.

The phones speak the protocol of static/js's phone (phone.js, record.js): each one
joined with the anchor of its own hash chain (bench/run.py seats them) and answers
every round of the table's random numbers it is asked in, with its next chain value,
as soon as a view shows the round; its actions go one at a time, and one that draws
goes first without a value, then again with the phone's next value when the server
answers 428. A roll's latency runs from the tap (the schedule) to its view, so the
428 and the resend, and a roll waiting behind the phone's previous one, are in it.

The process is monkey-patched by gevent: a python-socketio client runs each
incoming message in a new "thread" and has reader and writer threads of its
own, so hundreds of clients on OS threads would measure the GIL and the
scheduler, not the server. A roller and every receiver of its table live in
this process, so all their timestamps come from one `time.perf_counter`.
"""

from gevent import monkey

monkey.patch_all()

import gc  # noqa: E402 (after the monkey-patching, on purpose)
import json  # noqa: E402
import logging  # noqa: E402
import random  # noqa: E402
import resource  # noqa: E402
import secrets  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from contextlib import contextmanager  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402

import gevent  # noqa: E402
import socketio  # noqa: E402
from gevent.event import AsyncResult, Event  # noqa: E402
from gevent.fileobject import FileObject  # noqa: E402
from gevent.lock import Semaphore  # noqa: E402
from gevent.pool import Pool  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from companion import fairness  # noqa: E402

CONNECTS_AT_ONCE = 20  # parallel handshakes: enough to be quick, few enough not to be a storm
# websocket-client checks that every text frame is UTF-8 in pure Python (about
# 0.15 ms per KB here) unless wsaccel is installed. A phone's browser does that
# natively; here it would be charged to the server that sends the bigger views.
WEBSOCKET_OPTIONS = {"skip_utf8_validation": True}
DISCONNECT_TIMEOUT = 5.0
IN_POOL_TIMEOUT = 30.0  # for the rounds of the joins to be answered and sealed

RollKey = tuple[int, int]  # (seat, roll number): what a view's game.last says
ASKS_FOR_A_VALUE = 428  # the action draws: send it again with the phone's next chain value


@dataclass
class Roll:
    seat: int
    sent: float
    acked: float | None = None
    response: dict | None = None

    drawn: RollKey | None = None  # a roll committed first and drawn later: its (seat, number), from a view

    @property
    def key(self) -> RollKey | None:
        """The roll's (seat, number) once the server accepted it: from its answer, or, for a roll whose
        draw waited for a round of the phones (the answer says ``draw_waits``), from the view that
        showed it."""
        if not (self.response or {}).get("ok"):
            return None
        rolled = next((event for event in self.response.get("events") or () if event.get("type") == "rolled"), None)
        return (rolled["seat"], rolled["number"]) if rolled else self.drawn


class Screen:
    """One Socket.IO connection: a phone (seat) or the host screen (seat None)."""

    def __init__(self, code: str, seat: int | None, token: str, secret: str | None = None):
        self.code, self.seat, self.token = code, seat, token
        # The phone's hash chain, anchor first (its anchor is the commitment it joined with).
        self.chain = fairness.chain(secret) if secret else None
        self.k = 0  # the last chain value the server holds (its view says so)
        self.burnt = 0  # the last value shown to the server and not spent: never sent again
        self.in_pool: bool | None = None  # None: the table's views ask nothing of it (the echo)
        self.revealing: int | None = None  # the round whose value is on its way
        self.entropy: dict | None = None  # the newest view's fairness book
        self.actions = Semaphore()  # one action at a time, as phone.js's queue
        self.value_free = Event()  # no chain value is on its way to the server
        self.value_free.set()
        self.resent = 0  # rolls sent again with a chain value after a 428
        self.reveals = 0  # chain values sent for rounds
        self.reveals_refused = 0
        # Rolls answered before their draw (it waits for a round of the phones), and the roll numbers
        # of this seat that views showed and that answers named: to tell which view shows which roll.
        self.awaiting: list[Roll] = []
        self.numbers_seen: set[int] = set()
        self.numbers_taken: set[int] = set()
        self.connected = False
        self.disconnects = 0
        self.first_seen: dict[RollKey, float] = {}  # each roll's arrival as view.game.last
        self.version_of: dict[RollKey, int] = {}  # the table version of the view that showed each roll
        self.in_history: set[RollKey] = set()  # rolls a later view listed in its history
        self.versions: set[int] = set()  # every table version received: a hole is a view skipped
        self.rolls: list[Roll] = []
        self.client = socketio.Client(reconnection=False, websocket_extra_options=WEBSOCKET_OPTIONS)
        self.last_view_at: float | None = None
        self.client.on("view", self.on_view)
        self.client.on("connect", self.on_connect)
        self.client.on("disconnect", self.on_disconnect)

    def connect(self, url: str) -> str | None:
        """Connects; returns an error message instead of raising."""
        try:
            self.client.connect(url, transports=["websocket"], wait_timeout=30,
                                auth={"table": self.code, "token": self.token})
        except Exception as error:  # any failure is a figure of the report, not a crash
            return f"{type(error).__name__}: {error}"
        self.connected = True
        return None

    def on_view(self, view: dict) -> None:
        arrived = self.last_view_at = time.perf_counter()  # first: parsing below must not count as latency
        game = view.get("game") or {}
        last = game.get("last")
        version = view.get("version")
        if isinstance(version, int):
            self.versions.add(version)
        if last:
            key = (last["seat"], last["number"])
            self.first_seen.setdefault(key, arrived)
            if isinstance(version, int):
                self.version_of.setdefault(key, version)
        # Companion's view carries the last rolls: a roll whose own view was
        # overtaken by a newer one still reached the phone, just coalesced.
        for roll in game.get("history") or ():
            self.in_history.add((roll["seat"], roll["number"]))
        if self.awaiting:  # rolls drawn after their answer: the numbers of this phone's rolls shown
            self.numbers_seen.update(item["number"] for item in [last, *(game.get("history") or ())]
                                     if item and item.get("seat") == self.seat)
            self._note_drawn()
        entropy = (view.get("table") or {}).get("entropy")
        if entropy and self.chain:
            self.entropy = entropy
            self.observe()

    def _note_drawn(self) -> None:
        """This phone's rolls that waited for their draw get, in order, the numbers of its rolls the
        views showed that no answer named."""
        free = sorted(self.numbers_seen - self.numbers_taken)
        for roll, number in zip(list(self.awaiting), free):
            roll.drawn = (self.seat, number)
            self.numbers_taken.add(number)
            self.awaiting.remove(roll)

    @staticmethod
    def _draw_waits(roll: Roll) -> bool:
        response = roll.response or {}
        return bool(response.get("ok")) and any(event.get("type") == "draw_waits" for event in response.get("events") or ())

    # The phone's part in the table's randomness (static/js/record.js's PhoneChain) ------------
    def on_connect(self) -> None:
        self.observe()  # the connect view came before the connection was usable

    def observe(self) -> None:
        """Notes the value the server spent and answers an open round that asks this phone."""
        mine = self.entropy["seats"].get(str(self.seat)) if self.entropy else None
        if not mine:
            return
        if self.k < mine["k"] < len(self.chain) and self.chain[mine["k"]] == mine["head"]:
            self.k = mine["k"]
        self.in_pool = mine["in_pool"]
        asked = self.entropy.get("round")
        if (asked and self.seat in asked["asked"] and self.seat not in asked["revealed"]
                and self.revealing != asked["number"] and mine["k"] == self.k and "/" in self.client.namespaces):
            self.revealing = asked["number"]
            gevent.spawn(self._reveal, bool(asked.get("why")))

    def next_value(self) -> int:
        """After the last value spent, past any a refused action showed, at most MAX_SKIP on."""
        return min(max(self.k, self.burnt) + 1, self.k + fairness.MAX_SKIP)

    def _reveal(self, very_next: bool = False) -> None:
        """The round's value goes at once, not behind a roll (a roll may wait for this very round);
        only a value already on its way is waited for, so that the two never cross. A round opened
        for a draw (``why``) takes the very next value, past none that were refused."""
        with self._showing_value(very_next) as index:
            self.reveals += 1
            answer = self._call({"type": "entropy.reveal", "value": self.chain[index]})
            if answer.get("ok"):  # taken: no view says so until the round seals (record.js's noteSpent)
                self.k = max(self.k, index)
            else:
                self.reveals_refused += 1

    @contextmanager
    def _showing_value(self, very_next: bool = False):
        """The index of the next chain value, shown to the server inside the block; a value the
        server did not spend by the answer stays burnt (record.js's settle)."""
        self.value_free.wait()
        self.value_free.clear()
        index = self.k + 1 if very_next else self.next_value()
        try:
            yield index
        finally:
            if index > self.k:
                self.burnt = max(self.burnt, index)
            self.value_free.set()

    def _call(self, action: dict) -> dict:
        """Sends an action with a fresh id (as connection.js does for each send) and waits for its answer."""
        answer = AsyncResult()
        try:
            self.client.emit("act", {**action, "id": secrets.token_hex(12)},
                             callback=lambda *reply: answer.set(reply[0] if reply else None))
        except Exception as error:  # a closed connection
            return {"ok": False, "error": f"emit failed: {type(error).__name__}"}
        reply = answer.get()
        return reply if isinstance(reply, dict) else {"ok": False, "error": repr(reply)}

    def shows(self, key: RollKey, version: int | None) -> bool:
        """Whether this screen's newest view includes the roll: it came as the roll's own view,
        inside a later view's history, or a view of a later table version arrived (a view is
        the whole table, so the screen shows the roll's outcome even if its own view never came)."""
        return (key in self.first_seen or key in self.in_history
                or (version is not None and bool(self.versions) and max(self.versions) >= version))

    def skipped_versions(self) -> int:
        """Table versions between the first and the newest view that never arrived."""
        if not self.versions:
            return 0
        return max(self.versions) - min(self.versions) + 1 - len(self.versions)

    def on_disconnect(self, *reason) -> None:
        if self.connected:
            self.disconnects += 1
        self.connected = False

    def roll(self) -> None:
        """The tap: the roll goes when the phone's previous action is answered (phone.js's queue)."""
        roll = Roll(self.seat, time.perf_counter())
        self.rolls.append(roll)
        gevent.spawn(self._send_roll, roll)

    def _send_roll(self, roll: Roll) -> None:
        with self.actions:
            action = {"type": "roll"}
            answer = self._call(action)
            if answer.get("status") == ASKS_FOR_A_VALUE and self.chain:
                self.resent += 1
                with self._showing_value() as index:
                    answer = self._call({**action, "reveal": self.chain[index]})
            roll.acked, roll.response = time.perf_counter(), answer
            if roll.key:
                self.numbers_taken.add(roll.key[1])
            elif self._draw_waits(roll):
                self.awaiting.append(roll)
                self.numbers_seen.update(number for seat, number in self.first_seen if seat == self.seat)
                self._note_drawn()


@dataclass
class Table:
    code: str
    phones: list[Screen]
    host: Screen

    @classmethod
    def from_plan(cls, plan: dict) -> "Table":
        return cls(plan["code"], [Screen(plan["code"], seat["seat"], seat["token"], seat.get("secret"))
                                  for seat in plan["seats"]],
                   Screen(plan["code"], None, plan["host_token"]))

    @property
    def screens(self) -> list[Screen]:
        return [*self.phones, self.host]

    def rolls(self) -> list[Roll]:
        return [roll for phone in self.phones for roll in phone.rolls]

    def roll_versions(self) -> dict[RollKey, int]:
        """Each roll's table version, as any screen of the table saw it."""
        versions: dict[RollKey, int] = {}
        for screen in self.screens:
            versions.update(screen.version_of)
        return versions

    def settled(self) -> bool:
        """Every roll of a connected phone answered, and every accepted one shown by every connected screen."""
        rolls = self.rolls()
        if any(roll.response is None for phone in self.phones if phone.connected for roll in phone.rolls):
            return False
        versions = self.roll_versions()
        keys = [roll.key for roll in rolls if roll.key]
        # A view overtaken by a newer one (published by another process) may still be on its way:
        # a hole in a screen's versions is waited for too, so that one left at the end was dropped.
        return all(screen.shows(key, versions.get(key)) for screen in self.screens if screen.connected
                   for key in keys) and not any(screen.skipped_versions() for screen in self.screens
                                                if screen.connected and not screen.disconnects)


@dataclass
class Tally:
    """What one process measured; merged by the runner."""

    screens: int = 0
    connect_errors: list[str] = field(default_factory=list)
    rolls_sent: int = 0
    rolls_accepted: int = 0
    refusals: dict[str, int] = field(default_factory=dict)  # error message -> count
    unanswered: int = 0  # no answer within the drain
    acks_late: int = 0  # of those, answered during the settle time
    views_expected: int = 0
    views_received: int = 0
    views_coalesced: int = 0  # only seen in a later view (its history, or a newer table version)
    views_late: int = 0  # arrived after the drain, while the run waited to settle
    views_to_dropped: int = 0  # owed to a screen whose connection dropped (a phone reconnecting gets the table)
    views_lost: int = 0  # a screen still connected at the end never showed the roll, even after settling
    # Phone views that never came within the drain: of rolls refused or never answered (every phone
    # of the table), late, lost, or owed to a dropped phone. They count in the percentiles as
    # infinitely slow: a roll the server dropped must not leave its percentiles looking better.
    phone_views_missing: int = 0
    versions_skipped: int = 0  # holes left after the settle time in the versions a screen connected throughout got
    # A few lost views, to tell why: (table, seat or None, the roll's version, the screen's newest
    # version, seconds from the roll's ack to the screen's last view, to the end of the run).
    lost_samples: list[tuple] = field(default_factory=list)
    disconnects: int = 0
    not_in_pool: int = 0  # phones whose random numbers were still not in their table's pool at the start
    rolls_resent: int = 0  # rolls the server answered 428, sent again with the phone's next chain value
    reveals: int = 0  # chain values the phones sent for rounds
    reveals_refused: int = 0
    phone_latencies_ms: list[float] = field(default_factory=list)
    host_latencies_ms: list[float] = field(default_factory=list)
    ack_latencies_ms: list[float] = field(default_factory=list)
    # (seconds from the start when the roll was sent, its slowest view in ms):
    # shows whether slow views are spread out or come in bursts.
    timeline: list[tuple[float, float]] = field(default_factory=list)
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0

    def count_roll(self, roll: Roll, receivers: list[Screen], start: float, drain_end: float,
                   versions: dict[RollKey, int]) -> None:
        self.rolls_sent += 1
        if roll.response is None or roll.acked > drain_end:  # not answered in time, as before the settle time
            self.unanswered += 1
            self.acks_late += roll.response is not None
            self.phone_views_missing += sum(screen.seat is not None for screen in receivers)
            return
        if roll.key is None:
            error = str(roll.response.get("error"))
            self.refusals[error] = self.refusals.get(error, 0) + 1
            self.phone_views_missing += sum(screen.seat is not None for screen in receivers)
            return
        self.rolls_accepted += 1
        self.ack_latencies_ms.append(_ms(roll.acked - roll.sent))
        arrivals = (self._count_view(roll, screen, drain_end, versions.get(roll.key)) for screen in receivers)
        latencies = [latency for latency in arrivals if latency is not None]
        if latencies:
            self.timeline.append((round(roll.sent - start, 3), max(latencies)))

    def _count_view(self, roll: Roll, screen: Screen, drain_end: float, version: int | None) -> float | None:
        """Counts one expected view; returns its latency if it arrived before the drain ended."""
        self.views_expected += 1
        arrived = screen.first_seen.get(roll.key)
        if arrived is not None and arrived > drain_end:
            self.views_late += 1
            self.phone_views_missing += screen.seat is not None
            return None
        if arrived is None:
            if screen.shows(roll.key, version):
                self.views_coalesced += 1
                return None
            if not screen.connected:
                self.views_to_dropped += 1
            else:
                self.views_lost += 1
                self._sample_lost(roll, screen, version)
            self.phone_views_missing += screen.seat is not None
            return None
        self.views_received += 1
        latency = _ms(arrived - roll.sent)
        (self.host_latencies_ms if screen.seat is None else self.phone_latencies_ms).append(latency)
        return latency


    def _sample_lost(self, roll: Roll, screen: Screen, version: int | None) -> None:
        if len(self.lost_samples) < 10:
            last = round(screen.last_view_at - roll.acked, 3) if screen.last_view_at else None
            self.lost_samples.append((screen.code, screen.seat, version, max(screen.versions, default=None), last,
                                      round(time.perf_counter() - roll.acked, 3)))


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


def connect_all(url: str, tables: list[Table], tally: Tally) -> None:
    pool = Pool(CONNECTS_AT_ONCE)
    screens = [screen for table in tables for screen in table.screens]
    errors = pool.map(lambda screen: screen.connect(url), screens)
    tally.screens = sum(screen.connected for screen in screens)
    tally.connect_errors = [error for error in errors if error]


def wait_in_pool(tables: list[Table], tally: Tally, seconds: float) -> None:
    """Until every connected phone's random numbers are in its table's pool (its rounds answered):
    a roll before that is refused. Phones still out at the deadline are counted."""
    phones = [phone for table in tables for phone in table.phones if phone.connected]
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline and any(phone.in_pool is False for phone in phones):
        gevent.sleep(0.05)
    tally.not_in_pool = sum(phone.in_pool is False for phone in phones)


def wait_for_start() -> float:
    """Says ready, reads the start time (wall clock) and turns it into this
    process's perf_counter time. Reading stdin cooperatively keeps the
    clients answering the server's pings meanwhile."""
    print("ready", flush=True)
    line = FileObject(sys.stdin.fileno(), "r").readline()
    start_wall = float(line)
    return time.perf_counter() + (start_wall - time.time())


def roll_on_schedule(phone: Screen, start: float, duration: float, period: float) -> None:
    """Once per period at a random phase, so the tables' rolls spread over time."""
    phase = random.uniform(0, period)
    offsets = [phase + period * k for k in range(int(duration / period) + 1) if phase + period * k < duration]
    for offset in offsets:
        gevent.sleep(max(0.0, start + offset - time.perf_counter()))
        if phone.connected:
            phone.roll()


def run_load(tables: list[Table], start: float, duration: float, period: float, drain: float,
             settle: float) -> float:
    """Rolls, then waits up to ``drain`` for the last acks and views (those count in the latencies),
    then up to ``settle`` more for views still on their way (counted late, not lost); returns when
    the drain ended."""
    rollers = [gevent.spawn(roll_on_schedule, phone, start, duration, period)
               for table in tables for phone in table.phones if phone.connected]
    gevent.joinall(rollers)
    drain_end = _wait_settled(tables, drain)
    _wait_settled(tables, settle)
    return drain_end


def _wait_settled(tables: list[Table], seconds: float) -> float:
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline and not all(table.settled() for table in tables):
        gevent.sleep(0.05)
    return min(time.perf_counter(), deadline)


def tally_up(tables: list[Table], tally: Tally, start: float, drain_end: float) -> Tally:
    for table in tables:
        receivers = [screen for screen in table.screens if screen.connected or screen.disconnects]
        versions = table.roll_versions()
        for roll in table.rolls():
            tally.count_roll(roll, receivers, start, drain_end, versions)
        tally.disconnects += sum(screen.disconnects for screen in table.screens)
        tally.rolls_resent += sum(phone.resent for phone in table.phones)
        tally.reveals += sum(phone.reveals for phone in table.phones)
        tally.reveals_refused += sum(phone.reveals_refused for phone in table.phones)
        tally.versions_skipped += sum(screen.skipped_versions() for screen in receivers if not screen.disconnects)
    return tally


def disconnect_all(tables: list[Table]) -> None:
    screens = [screen for table in tables for screen in table.screens if screen.connected]
    for screen in screens:
        screen.connected = False  # a disconnect we asked for is not a failure
    jobs = [gevent.spawn(screen.client.disconnect) for screen in screens]
    gevent.joinall(jobs, timeout=DISCONNECT_TIMEOUT)


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main(plan_path: str, result_path: str) -> None:
    # A client whose server stalls for 15 s logs "packet queue is empty" and
    # drops: the tally counts those disconnects, hundreds of log lines would bury them.
    logging.getLogger("engineio.client").setLevel(logging.CRITICAL)
    with open(plan_path) as file:
        plan = json.load(file)
    tables = [Table.from_plan(table) for table in plan["tables"]]
    tally = Tally()
    connect_all(plan["url"], tables, tally)
    wait_in_pool(tables, tally, IN_POOL_TIMEOUT)
    start = wait_for_start()
    # A full collection here stalls every screen of the process for tens of ms,
    # a pause of the harness that real phones would not add: none during the run.
    gc.collect()
    gc.disable()
    gevent.sleep(max(0.0, start - time.perf_counter()))
    cpu_before, wall_before = cpu_seconds(), time.perf_counter()
    drain_end = run_load(tables, start, plan["duration"], plan["period"], plan["drain"], plan.get("settle", 0))
    tally.cpu_seconds, tally.wall_seconds = cpu_seconds() - cpu_before, time.perf_counter() - wall_before
    tally_up(tables, tally, start, drain_end)
    with open(result_path, "w") as file:
        json.dump(tally.__dict__, file)
    disconnect_all(tables)


if __name__ == "__main__":
    main(*sys.argv[1:3])
