"""Presence shared by every process of a deployment, in Redis (``COMPANION_MESSAGE_QUEUE=redis://…``).

With several processes behind the proxy, two screens of one table may be connected to
different processes: who holds which seat, since when a seat is away, and which screens
hold the host key must be the same answer everywhere. Otherwise a phone connected to
process A would look away on the screens fed by process B, and a seat opened on a second
phone through process B would not displace the first one on process A.

Each process keeps its own connections' principals and tokens (only the process of a
connection handles its events); what every process must see lives in Redis:

- ``companion:seat:<code>``: seat -> "<process>|<sid>" (the one connection holding it);
- ``companion:left:<code>``: seat -> when its last screen left;
- ``companion:hosts:<code>``: the host screens, "<process>|<sid>";
- ``companion:alive:<process>``: a heartbeat with a time-to-live. A process killed outright
  (SIGKILL, a power cut) cannot detach its connections: once its heartbeat expires, the seats
  it held count as away, and their phones, reconnecting through the proxy to another process,
  take them back.

The displaced connection of a seat is told and disconnected through the message queue, on
whichever process holds it.

Redis is asked on joins and leaves, not on every publish: each process keeps a copy of the
seats and leaving times of the tables it publishes (`_seats_of`), and a join or a leave
anywhere is announced on ``companion:presence`` (by the same script that records it); a
process that hears of a table's change drops its copy, and reads the table's presence again
when it next needs it. The heartbeats are read every `HEARTBEAT_SECONDS` by the same task that
beats, not per publish. While its subscription is down (Redis restarting), a process keeps no
copy and reads Redis every time, as before.
"""

from __future__ import annotations

import threading
import uuid
from typing import Callable

import redis

from companion import clock as steady
from companion.tables import Principal

REDIS_CONNECTIONS = 32
HEARTBEAT_SECONDS = 2
ALIVE_SECONDS = 6  # three missed heartbeats: the process is gone
CHANGES = "companion:presence"  # the channel of joins and leaves: a table's code
COPIES_AT_MOST = 4096  # tables whose presence a process keeps (a few hundred bytes each)

# Takes a seat for a connection; returns the connection that held it (if any).
ATTACH = """
local previous = redis.call('HGET', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('PUBLISH', ARGV[3], ARGV[4])
return previous
"""
# Frees a seat, if this connection still holds it, and notes when.
DETACH = """
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  redis.call('HDEL', KEYS[1], ARGV[1])
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
  redis.call('PUBLISH', ARGV[4], ARGV[5])
  return 1
end
return 0
"""


class SharedPresence:
    """`companion.web.sockets.Presence`'s interface, shared through Redis."""

    def __init__(self, url: str, clock: Callable[[], float] = steady.now):
        # Hundreds of greenlets may ask at once: they wait for one of the pool's connections
        # (redis-py's default pool refuses past 100 with "Too many connections").
        self.redis = redis.Redis(connection_pool=redis.BlockingConnectionPool.from_url(
            url, max_connections=REDIS_CONNECTIONS, timeout=30, decode_responses=True))
        self.clock = clock
        self.process = uuid.uuid4().hex[:12]
        self._lock = threading.Lock()
        self._by_sid: dict[str, tuple[Principal, str | None]] = {}
        self._attach = self.redis.register_script(ATTACH)
        self._detach = self.redis.register_script(DETACH)
        self.redis.set("companion:started", self.clock(), nx=True)
        self.started = float(self.redis.get("companion:started"))
        self._copies: dict[str, tuple[dict, dict]] = {}  # code -> (seat -> member, seat -> when it left)
        self._changes: dict[str, int] = {}  # code -> joins and leaves heard of
        self._listening = False  # subscribed to the changes: copies may be kept
        self._alive_flags: dict[str, bool] = {self.process: True}  # process -> its heartbeat, as last read
        self.beat()

    # The process's heartbeat -------------------------------------------------------
    def beat(self) -> None:
        self.redis.set(f"companion:alive:{self.process}", 1, ex=ALIVE_SECONDS)

    def run_heartbeat(self, sleep: Callable[[float], None]) -> None:
        """The background task of each process (a failed beat is tried again at the next); it also starts
        the one that hears of joins and leaves, and reads the other processes' heartbeats."""
        threading.Thread(target=self._listen, args=(sleep,), daemon=True).start()  # a greenlet under gevent
        while True:
            sleep(HEARTBEAT_SECONDS)
            try:
                self.beat()
                with self._lock:
                    processes = list(self._alive_flags)
                self._read_heartbeats(processes)
            except redis.RedisError:
                pass

    def _listen(self, sleep: Callable[[float], None]) -> None:
        """Drops the copy of a table whose presence changed; keeps none while not subscribed."""
        while True:
            changes = self.redis.pubsub()
            try:
                changes.subscribe(CHANGES)
                for message in changes.listen():
                    with self._lock:
                        if message["type"] == "subscribe":
                            self._copies.clear()  # changes made before went unheard
                            self._listening = True
                        elif message["type"] == "message":
                            self._changed(message["data"])
            except redis.RedisError:
                pass
            finally:
                with self._lock:
                    self._listening = False
                    self._copies.clear()
                try:
                    changes.close()
                except redis.RedisError:
                    pass
            sleep(1)  # Redis is away: try again

    def _changed(self, code: str) -> None:
        """Under the lock: the table's copy is out of date (and a read on its way may be too)."""
        self._changes[code] = self._changes.get(code, 0) + 1
        self._copies.pop(code, None)

    def _read_heartbeats(self, processes: list[str]) -> None:
        flags = self.redis.mget([f"companion:alive:{process}" for process in processes])
        with self._lock:
            self._alive_flags.update({process: bool(flag) for process, flag in zip(processes, flags)})
            self._alive_flags[self.process] = True

    def _alive(self, members: list[str]) -> set[str]:
        """The processes of ``members`` whose heartbeat is on, as last read (a process not seen before
        is read now)."""
        processes = {member.split("|", 1)[0] for member in members}
        unknown = [process for process in processes if process not in self._alive_flags]
        if unknown:
            self._read_heartbeats(unknown)
        with self._lock:
            return {process for process in processes if self._alive_flags.get(process)}

    def _seats_of(self, code: str) -> tuple[dict, dict]:
        """Seat -> member and seat -> when it left, for a table: this process's copy, or read from Redis
        (one round trip) and kept unless a change was heard of meanwhile."""
        with self._lock:
            copy = self._copies.get(code)
            heard = self._changes.get(code, 0)
        if copy is not None:
            return copy
        pipeline = self.redis.pipeline(transaction=False)
        pipeline.hgetall(f"companion:seat:{code}")
        pipeline.hgetall(f"companion:left:{code}")
        members, left = pipeline.execute()
        copy = ({int(seat): member for seat, member in members.items()}, left)
        with self._lock:
            if self._listening and self._changes.get(code, 0) == heard:
                if len(self._copies) >= COPIES_AT_MOST:
                    self._copies.clear()
                self._copies[code] = copy
        return copy

    def _member(self, sid: str) -> str:
        return f"{self.process}|{sid}"

    @staticmethod
    def _sid(member: str) -> str:
        return member.split("|", 1)[1]

    def _held(self, code: str) -> dict[int, str]:
        """Seat -> member, for the seats held by a connection of a living process."""
        held = self._seats_of(code)[0]
        alive = self._alive(list(held.values()))
        return {seat: member for seat, member in held.items() if member.split("|", 1)[0] in alive}

    # Presence's interface ------------------------------------------------------------
    def attach(self, sid: str, principal: Principal, token: str | None) -> str | None:
        with self._lock:
            self._by_sid[sid] = (principal, token)
        if principal.role == "host":
            self.redis.sadd(f"companion:hosts:{principal.code}", self._member(sid))
        if principal.role != "seat":
            return None
        previous = self._attach(keys=[f"companion:seat:{principal.code}", f"companion:left:{principal.code}"],
                                args=[principal.seat, self._member(sid), CHANGES, principal.code])
        with self._lock:  # this process's next publish shows the change, without waiting to hear of it
            self._changed(principal.code)
        if not previous or previous == self._member(sid):
            return None
        return self._sid(previous)

    def detach(self, sid: str) -> Principal | None:
        with self._lock:
            principal, _ = self._by_sid.pop(sid, (None, None))
        if principal is None:
            return None
        if principal.role == "host":
            self.redis.srem(f"companion:hosts:{principal.code}", self._member(sid))
        if principal.role == "seat":
            self._detach(keys=[f"companion:seat:{principal.code}", f"companion:left:{principal.code}"],
                         args=[principal.seat, self._member(sid), self.clock(), CHANGES, principal.code])
            with self._lock:
                self._changed(principal.code)
        return principal

    def of(self, sid: str):
        with self._lock:
            return self._by_sid.get(sid, (None, None))

    def local_tables(self) -> set[str]:
        """The tables with a screen connected to this process."""
        with self._lock:
            return {principal.code for principal, _ in self._by_sid.values()}

    def online(self, code: str) -> list[int]:
        return sorted(self._held(code))

    def holders(self, code: str) -> dict[int, str]:
        return {seat: self._sid(member) for seat, member in self._held(code).items()}

    def away_since(self, code: str, seats) -> dict[str, float]:
        return self.snapshot(code, seats)[0]["away_since"]

    def away_for(self, code: str, seat: int) -> float | None:
        if seat in self._held(code):
            return None
        left = self._seats_of(code)[1].get(str(seat))
        return self.clock() - float(left if left is not None else self.started)

    def snapshot(self, code: str, seats) -> tuple[dict, dict[int, str]]:
        """A publish's presence and holders (see `companion.web.sockets.Presence.snapshot`), from this
        process's copy while no join or leave was heard of."""
        members, left = self._seats_of(code)
        alive = self._alive(list(members.values()))
        held = {seat: member for seat, member in members.items() if member.split("|", 1)[0] in alive}
        presence = {"online": sorted(held),
                    "away_since": {str(seat): round(float(left.get(str(seat), self.started)), 3)
                                   for seat in seats if seat not in held}}
        return presence, {seat: self._sid(member) for seat, member in held.items()}

    def hosts(self, code: str) -> list[str]:
        members = list(self.redis.smembers(f"companion:hosts:{code}"))
        alive = self._alive(members)
        return [self._sid(member) for member in members if member.split("|", 1)[0] in alive]
