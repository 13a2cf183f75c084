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

# Takes a seat for a connection; returns the connection that held it (if any).
ATTACH = """
local previous = redis.call('HGET', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HDEL', KEYS[2], ARGV[1])
return previous
"""
# Frees a seat, if this connection still holds it, and notes when.
DETACH = """
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  redis.call('HDEL', KEYS[1], ARGV[1])
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
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
        self.beat()

    # The process's heartbeat -------------------------------------------------------
    def beat(self) -> None:
        self.redis.set(f"companion:alive:{self.process}", 1, ex=ALIVE_SECONDS)

    def run_heartbeat(self, sleep: Callable[[float], None]) -> None:
        """The background task of each process (a failed beat is tried again at the next)."""
        while True:
            sleep(HEARTBEAT_SECONDS)
            try:
                self.beat()
            except redis.RedisError:
                pass

    def _alive(self, members: list[str]) -> set[str]:
        processes = sorted({member.split("|", 1)[0] for member in members})
        if not processes:
            return set()
        flags = self.redis.mget([f"companion:alive:{process}" for process in processes])
        return {process for process, flag in zip(processes, flags) if flag}

    def _member(self, sid: str) -> str:
        return f"{self.process}|{sid}"

    @staticmethod
    def _sid(member: str) -> str:
        return member.split("|", 1)[1]

    def _held(self, code: str) -> dict[int, str]:
        """Seat -> member, for the seats held by a connection of a living process."""
        held = self.redis.hgetall(f"companion:seat:{code}")
        alive = self._alive(list(held.values()))
        return {int(seat): member for seat, member in held.items() if member.split("|", 1)[0] in alive}

    # Presence's interface ------------------------------------------------------------
    def attach(self, sid: str, principal: Principal, token: str | None) -> str | None:
        with self._lock:
            self._by_sid[sid] = (principal, token)
        if principal.role == "host":
            self.redis.sadd(f"companion:hosts:{principal.code}", self._member(sid))
        if principal.role != "seat":
            return None
        previous = self._attach(keys=[f"companion:seat:{principal.code}", f"companion:left:{principal.code}"],
                                args=[principal.seat, self._member(sid)])
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
                         args=[principal.seat, self._member(sid), self.clock()])
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
        held = self._held(code)
        left = self.redis.hgetall(f"companion:left:{code}")
        return {str(seat): round(float(left.get(str(seat), self.started)), 3) for seat in seats if seat not in held}

    def away_for(self, code: str, seat: int) -> float | None:
        if seat in self._held(code):
            return None
        left = self.redis.hget(f"companion:left:{code}", str(seat))
        return self.clock() - float(left if left is not None else self.started)

    def snapshot(self, code: str, seats) -> tuple[dict, dict[int, str]]:
        """One round trip for the seats and their leaving times, one for the heartbeats: a publish's
        presence and holders (see `companion.web.sockets.Presence.snapshot`)."""
        pipeline = self.redis.pipeline(transaction=False)
        pipeline.hgetall(f"companion:seat:{code}")
        pipeline.hgetall(f"companion:left:{code}")
        members, left = pipeline.execute()
        alive = self._alive(list(members.values()))
        held = {int(seat): member for seat, member in members.items() if member.split("|", 1)[0] in alive}
        presence = {"online": sorted(held),
                    "away_since": {str(seat): round(float(left.get(str(seat), self.started)), 3)
                                   for seat in seats if seat not in held}}
        return presence, {seat: self._sid(member) for seat, member in held.items()}

    def hosts(self, code: str) -> list[str]:
        members = list(self.redis.smembers(f"companion:hosts:{code}"))
        alive = self._alive(members)
        return [self._sid(member) for member in members if member.split("|", 1)[0] in alive]
