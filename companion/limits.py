"""Per-client limits: how often one address may create tables, take seats and
miss a table code, and how many Socket.IO connections it may hold open.

A table at home has a handful of phones, each with its own address on the
Wi-Fi; the limits leave them far alone and stop one client that creates
tables by the hundred, takes every seat of a table in a second, sweeps the
space of table codes or holds a thousand websockets. Each rule is a token
bucket: ``BURST/SECONDS`` allows BURST attempts at once, then one more every
SECONDS/BURST seconds. A refusal is a 429 that says how long to wait (and a
``Retry-After`` header). Behind a reverse proxy every phone has the proxy's
address: raise the limits there.

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
from companion.tables import TableError

CREATE, JOIN, LOOKUP, ADMIN, WATCH = "create", "join", "lookup", "admin", "watch"
# ADMIN counts wrong administrator keys: a script that knows the key never comes near it. WATCH
# counts actions sent by a screen that only watches (no seat, no host key): all are refused.
DEFAULT_RULES = {CREATE: "10/600", JOIN: "6/60", LOOKUP: "20/60", ADMIN: "5/600", WATCH: "10/60"}
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
    """Token buckets per (kind, client address)."""

    def __init__(self, rules: dict[str, Rule], clock: Callable[[], float] = time.monotonic):
        self.rules, self.clock = rules, clock
        self._buckets: dict[tuple[str, str], tuple[float, float]] = {}
        self._lock = threading.Lock()

    def _tokens(self, kind: str, address: str, now: float) -> float:
        rule = self.rules[kind]
        tokens, last = self._buckets.get((kind, address), (rule.burst, now))
        return min(rule.burst, tokens + (now - last) * rule.per_second)

    def _refuse(self, kind: str, tokens: float) -> TooManyAttempts:
        return TooManyAttempts(max(1, math.ceil((1 - tokens) / self.rules[kind].per_second)))

    def check(self, kind: str, address: str) -> None:
        """Refuses (`TooManyAttempts`) when this client has no attempt left, without spending one."""
        with self._lock:
            tokens = self._tokens(kind, address, self.clock())
        if tokens < 1:
            raise self._refuse(kind, tokens)

    def charge(self, kind: str, address: str) -> None:
        """Spends one attempt, or refuses when none is left."""
        with self._lock:
            now = self.clock()
            tokens = self._tokens(kind, address, now)
            if tokens < 1:
                self._buckets[(kind, address)] = (tokens, now)
                raise self._refuse(kind, tokens)
            self._buckets[(kind, address)] = (tokens - 1, now)
            if len(self._buckets) > MAX_BUCKETS:
                self._forget_full(now)

    def _forget_full(self, now: float) -> None:
        full = [key for key in self._buckets if self._tokens(*key, now) >= self.rules[key[0]].burst]
        for key in full:
            del self._buckets[key]


def rules_from(config: dict) -> dict[str, Rule]:
    return {kind: Rule.parse(config.get(f"LIMIT_{kind.upper()}") or DEFAULT_RULES[kind]) for kind in DEFAULT_RULES}
