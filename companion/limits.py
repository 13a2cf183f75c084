"""Per-client limits: how often one address may create tables, take seats and
miss a table code, and how many Socket.IO connections it may hold open.

A table at home has a handful of phones, each with its own address on the
Wi-Fi; the limits leave them far alone and stop one client that creates
tables by the hundred, takes every seat of a table in a second, sweeps the
space of table codes or holds a thousand websockets. Each rule is a token
bucket: ``BURST/SECONDS`` allows BURST attempts at once, then one more every
SECONDS/BURST seconds. A refusal is a 429 that says how long to wait (and a
``Retry-After`` header). Behind a reverse proxy every phone has the proxy's
address: raise the limits there (or name the proxy: ``COMPANION_PROXIES``).
Several processes sharing a Redis queue share the buckets too, in Redis
(`SharedLimits`): a client gets the limit once, not once per process.

Code lookups count only the misses (a code that names no table): a phone
that types its table's code once never comes near the limit, while a client
that guesses codes is stopped; once it is stopped, it can look up no code at
all (hit or miss) until it has waited, so guessing gains nothing.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass
from typing import Callable

from companion.games.base import N_
from companion.tables import RateLimiter, TableError

CREATE, JOIN, LOOKUP, ADMIN, WATCH, HANDOFF = "create", "join", "lookup", "admin", "watch", "handoff"
REFUSALS = "refusals"  # what an address spent on refusals the store decided (`SeatRefusals`)
# ADMIN counts wrong administrator keys: a script that knows the key never comes near it. WATCH
# counts actions sent by a screen that only watches (no seat, no host key): all are refused.
# HANDOFF counts claims of a seat's hand-off code: per address, so that a client flooding a table's
# claims stops itself, never the phone the host gave the code to.
DEFAULT_RULES = {CREATE: "10/600", JOIN: "6/60", LOOKUP: "20/60", ADMIN: "5/600", WATCH: "10/60", HANDOFF: "6/60"}
DEFAULT_CONNECTIONS = 30
MAX_BUCKETS = 50_000  # beyond this many clients, full (idle) buckets are forgotten


@dataclass(frozen=True)
class Rule:
    burst: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.burst / self.seconds

    @classmethod
    def parse(cls, raw: str) -> "Rule":
        """``"BURST/SECONDS"``, e.g. ``"10/600"``: ten at once, ten per ten minutes."""
        burst, _, seconds = raw.partition("/")
        rule = cls(int(burst), float(seconds))
        if rule.burst < 1 or rule.seconds <= 0:
            raise ValueError(f"a limit is BURST/SECONDS with both above zero, not {raw!r}")
        return rule


class TooManyAttempts(TableError):
    def __init__(self, seconds: int):
        super().__init__(429, N_("Too many attempts from this device: wait %(seconds)s s and try again."),
                         seconds=seconds)
        self.retry_after = seconds


class ClientLimits:
    """Token buckets per (kind, client address), in this process's memory."""

    def __init__(self, rules: dict[str, Rule], clock: Callable[[], float] = time.monotonic):
        self.rules, self.clock = rules, clock
        self._buckets: dict[tuple[str, str], tuple[float, float]] = {}
        self._lock = threading.Lock()

    def check(self, kind: str, address: str) -> None:
        """Refuses (`TooManyAttempts`) when this client has no attempt left, without spending one."""
        tokens = self._tokens_left(kind, address, spend=False)
        if tokens < 1:
            raise self._refuse(kind, tokens)

    def charge(self, kind: str, address: str) -> None:
        """Spends one attempt, or refuses when none is left."""
        tokens = self._tokens_left(kind, address, spend=True)
        if tokens < 1:
            raise self._refuse(kind, tokens)

    def wait_for(self, kind: str, address: str) -> float:
        """Seconds until this client has an attempt again (0: now), spending nothing."""
        return self._wait(kind, self._tokens_left(kind, address, spend=False))

    def spend(self, kind: str, address: str) -> float:
        """Spends one attempt if one is left, refusing nothing: for what was already refused elsewhere.
        Returns the seconds until this client has an attempt again (0: now), read in the same step."""
        tokens = self._tokens_left(kind, address, spend=True)
        return self._wait(kind, tokens - 1 if tokens >= 1 else tokens)

    def _wait(self, kind: str, tokens: float) -> float:
        return 0.0 if tokens >= 1 else (1 - tokens) / self.rules[kind].per_second

    def _refuse(self, kind: str, tokens: float) -> TooManyAttempts:
        return TooManyAttempts(max(1, math.ceil((1 - tokens) / self.rules[kind].per_second)))

    def _tokens_left(self, kind: str, address: str, spend: bool) -> float:
        """The attempts this client had left; with ``spend``, one of them is spent (if there was one)."""
        with self._lock:
            now = self.clock()
            tokens = self._tokens(kind, address, now)
            if spend:
                self._buckets[(kind, address)] = (tokens - 1 if tokens >= 1 else tokens, now)
                if len(self._buckets) > MAX_BUCKETS:
                    self._forget_full(now)
            return tokens

    def _tokens(self, kind: str, address: str, now: float) -> float:
        rule = self.rules[kind]
        tokens, last = self._buckets.get((kind, address), (rule.burst, now))
        return min(rule.burst, tokens + (now - last) * rule.per_second)

    def _forget_full(self, now: float) -> None:
        full = [key for key in self._buckets if self._tokens(*key, now) >= self.rules[key[0]].burst]
        for key in full:
            del self._buckets[key]


# One bucket, read and (with ARGV[4] = 1) spent in one step, so that processes never both take the
# last attempt. A bucket left alone until it is full again expires: a full bucket is no key.
TAKE = """
local burst, rate, now, spend = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4] == '1'
local kept = redis.call('HMGET', KEYS[1], 'tokens', 'last')
local tokens, last = tonumber(kept[1]), tonumber(kept[2])
if tokens == nil then tokens, last = burst, now end
tokens = math.min(burst, tokens + math.max(0, now - last) * rate)
if spend then
  local left = tokens
  if left >= 1 then left = left - 1 end
  redis.call('HSET', KEYS[1], 'tokens', tostring(left), 'last', tostring(now))
  redis.call('EXPIRE', KEYS[1], math.ceil(burst / rate) + 1)
end
return tostring(tokens)
"""


class SharedLimits(ClientLimits):
    """The same buckets in Redis, for several processes behind one proxy (``COMPANION_MESSAGE_QUEUE``):
    in each process's memory, every process would give a client the whole limit again (two processes,
    20 tables where the limit says 10). Each process reads its own clock, one that never jumps
    (`companion.clock`); the processes' clocks differ by a few milliseconds at most, which a bucket
    refilled in seconds does not notice (a time that seems to go back refills nothing)."""

    def __init__(self, rules: dict[str, Rule], url: str, clock: Callable[[], float] | None = None):
        import redis

        from companion import clock as steady

        super().__init__(rules, clock or steady.now)
        self.redis = redis.Redis.from_url(url, socket_timeout=5)
        self._take = self.redis.register_script(TAKE)

    def _tokens_left(self, kind: str, address: str, spend: bool) -> float:
        import redis

        rule = self.rules[kind]
        try:
            answer = self._take(keys=[f"companion:limit:{kind}:{address}"],
                                args=[rule.burst, rule.per_second, repr(self.clock()), "1" if spend else "0"])
        except redis.RedisError:  # Redis unreachable: this process's own buckets meanwhile, not a 500
            return super()._tokens_left(kind, address, spend)
        return float(answer)


# A refusal decided in the store (out of turn, "a draw waits", a table closed) costs a transaction
# the server could have spent on another table: it costs its seat as much as this many accepted actions.
REFUSAL_COST = 5
# An address's refusals may be as many as those of this many seats: a table at home has each phone on
# its own address, one client flooding from many seats of its own tables is held as one.
SEATS_PER_ADDRESS = 10
# The refusal that asks a phone alone at its table for its next chain value: the protocol, not a fault.
ASKS_FOR_VALUE = 428


def refusal_rules(burst: float, per_second: float) -> tuple[Rule, Rule]:
    """What a seat, and an address, may spend on refusals: half of the seat's rate burst at once,
    then its rate / REFUSAL_COST a second; an address SEATS_PER_ADDRESS times that."""
    at_once, refill = max(1.0, burst / 2), per_second / REFUSAL_COST
    seat = Rule(math.ceil(at_once), math.ceil(at_once) / refill)
    return seat, Rule(seat.burst * SEATS_PER_ADDRESS, seat.seconds)


class SeatRefusals:
    """What a seat (or the host screen) spent on refusals the store decided, and its address.

    A flooding seat's actions are mostly refused: out of turn, while a draw waits for the phones'
    values, with no value when one is asked for. The seat's rate (`RateLimiter`, RATE_BURST then
    RATE_PER_SECOND) let each of those open a transaction, five a second per seat, so ten or fifty
    flooding phones cost the tables playing honestly more than their own rolls. Here refusals count
    against a bucket of their seat (`refusal_rules`: five at once, then one a second by default) and one
    of their address (SEATS_PER_ADDRESS times as large); once either is empty, the seat's next actions
    are refused before the store (Socket.IO holds them, `companion.web.sockets`; the JSON API answers
    429), and the refusal that emptied it is held too (`hold_after`).

    The seat's bucket counts a refusal only when the seat's previous action was refused too. The 428
    that asks a phone alone at its table for its next chain value is the protocol, not a fault: the
    phone sends the action again with it, and spends nothing; nor does a player whose tap is refused
    now and then ("a draw waits" when two players tap at once) and whose next one goes through. A
    phone that never sends its value, or taps on while it is refused, spends one for each refusal
    after the first.

    The address's bucket counts every refusal but that first 428: fifty flooding seats of one address
    spend it with their first refusals, not with fifty first refusals for free and then its fifty (the
    flood's first half second was those hundred answers, every honest table waiting behind them). It
    is read only after a refusal: a seat whose last action was accepted never waits on it, nor pays a
    trip to Redis for it. A phone playing honestly behind the same address as a flooder (one NAT, one
    proxy) is held, for a second at most, only after a refusal of its own, and then answered "Too many
    actions" or its refusal's answer late: the one that is refused is refused still, only later, and
    every action it makes by the rules goes to the store as before. A per-address limit cannot tell
    the two apart; the alternative, an address's flooders each getting their own refusals at once,
    cost every table on the server. The address's bucket is one of ``addresses`` (`ClientLimits`): in
    Redis when several processes share a queue, so a client flooding through all of them is held once."""

    def __init__(self, burst: float, per_second: float, addresses: ClientLimits | None = None,
                 clock: Callable[[], float] = time.monotonic):
        seat, address = refusal_rules(burst, per_second)
        self._by_seat = RateLimiter(seat.burst, seat.per_second, clock)
        self.addresses = addresses or ClientLimits({REFUSALS: address}, clock)
        self._refused: set[tuple[str, str]] = set()  # seats whose last action was refused
        self._lock = threading.Lock()

    def wait_for(self, seat: tuple[str, str], address: str) -> float:
        """Seconds until this seat's next action may reach the store again (0: now)."""
        with self._lock:
            refused_last = seat in self._refused
        if not refused_last:
            return 0.0
        return max(self._by_seat.wait_for(seat), self.addresses.wait_for(REFUSALS, address))

    def answered(self, seat: tuple[str, str], address: str, status: int | None) -> float:
        """After the store answered one of the seat's actions (``status`` None: accepted). Returns how long
        the answer is held: 0, or the seconds until the seat's next action may reach the store, when
        this refusal spent the last of the seat's or its address's budget (see the class)."""
        with self._lock:
            refused_before = seat in self._refused
            if status is None:
                self._refused.discard(seat)
            else:
                self._refused.add(seat)
        if status is None or (status == ASKS_FOR_VALUE and not refused_before):
            return 0.0
        if refused_before:
            self._by_seat.allow(seat)  # spends one, down to none left
        address_wait = self.addresses.spend(REFUSALS, address)
        return max(self._by_seat.wait_for(seat), address_wait)

    def acting(self, seat: tuple[str, str], address: str, act: Callable[[], dict]) -> dict:
        """``act()`` (an action in the store), its refusal counted against the seat and its address; a
        refusal carries how long its answer is held (``held_for``, see `answered`)."""
        try:
            answer = act()
        except TableError as error:
            error.held_for = self.answered(seat, address, error.status)
            raise
        self.answered(seat, address, None)
        return answer


def limits_for(config: dict) -> ClientLimits:
    """In Redis when the processes share a Redis queue, in this process's memory otherwise."""
    queue = config.get("MESSAGE_QUEUE") or ""
    if queue.startswith(("redis://", "rediss://", "unix://")):
        return SharedLimits(rules_from(config), queue)
    return ClientLimits(rules_from(config))


def rules_from(config: dict) -> dict[str, Rule]:
    """The configured limits (``LIMIT_<KIND>``), and an address's refusals from the actions' rate."""
    rules = {kind: Rule.parse(config.get(f"LIMIT_{kind.upper()}") or DEFAULT_RULES[kind]) for kind in DEFAULT_RULES}
    rules[REFUSALS] = refusal_rules(config["RATE_BURST"], config["RATE_PER_SECOND"])[1]
    return rules
