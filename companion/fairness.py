"""The table's committed, verifiable randomness (format ``companion/v2``).

Who can choose a draw: nobody, not the operator who runs the server, not a
player, not both together (``docs/fairness.md`` gives the threat model). How:

* **The server's seed.** At creation the server draws a secret 32-byte *seed*
  and publishes ``SHA-256(seed)``, the *commitment*, before any phone speaks.
  The seed is revealed when the table closes.
* **Each phone's hash chain.** A phone draws a secret ``x`` and computes the
  chain ``c_L = x``, ``c_{i-1} = SHA-256(c_i)`` down to ``c_0``, its *anchor*,
  which it sends when it joins (no anchor, no seat). Later it reveals ``c_1``,
  ``c_2``… one at a time; the server checks each against the last
  (``SHA-256(c_i) == c_{i-1}``). Nobody, the phone included, can change a value
  once the anchor is published, and nobody else can compute it before it is
  revealed.
* **Rounds close the pool.** Each join opens a *round*: every seated phone that
  takes part in rounds (``rounds``: it joined with ``commitment``) reveals its next
  chain value; the round's *asked* set is fixed when it opens, so a phone that
  joins meanwhile waits for the next round. When every asked phone has revealed,
  the round *seals* the next pool: ``pool_{e+1}`` folds the values in seat order
  into ``pool_e`` (``pool = SHA-256(pool || value)``; ``pool_0`` is 32 zero
  bytes). A seat draws only once a pool sealed after its anchor exists, so its
  anchor could not be ground against that pool. A phone that never reveals can
  only stop the round: the host restarts it without that phone, and every other
  phone reveals a fresh value (an abort is a visible veto, never a choice
  between two known pools). A round opened for a purpose (``why``: "start", the
  one a game's setup draws wait for; "fresh", the one an action's or a call's
  draws wait for) is opened once that draw is irrevocable, so nobody can compute
  it before, and it takes each phone's very next value (no skip: the phone that
  answers last could otherwise pick among its values). A "fresh" round may leave
  out phones that are not connected (``away`` in its entry).
* **A seat's action that draws is committed first** (``companion.night``): saved
  as pending, drawn when the round it opened seals, with the label
  ``seat|<s>|<m>|-`` from that pool. When the action became irrevocable an honest
  phone's value of that pool was still unknown, so nobody, the operator and the
  actor together included, could compute its draws or choose whether to act.
  Another seat's drawing action while one waits is committed too and queued: its
  own round opens only once the draws ahead of it ran (first come, first drawn).
* **The actor's fresh value, alone.** With no other phone connected, the action
  carries ``reveal``, the seat's next chain value, and its draws depend on it
  (marked ``alone``: "drawn without another phone"). Until the phone acts, the
  server cannot compute them; the phone and the operator together can.

Draw number *n* (0, 1, 2… per table, in log order) reads a stream of 64-bit
words: block *i* is ``HMAC-SHA256(seed, "companion/v2|<pool>|<label>|<i>")``
cut into four big-endian words. The *label* is ``seat|<s>|<m>|<reveal or ->``
for the *m*-th draw of seat *s*'s actions (the number of draws of that seat
before it: another seat cannot burn a draw to shift it), and ``table|<n>`` for
a draw the table makes on its own (setup, the host screen, the reader).

* A number in ``[0, k)`` takes the next word ``u`` and keeps ``u mod k`` only if
  ``u < 2^64 - (2^64 mod k)``; otherwise it takes the next word (rejection
  sampling: every value is exactly equally likely, no modulo bias).
* An integer draw ``[lo, hi]`` is ``lo + uniform(hi - lo + 1)``. A shuffle of
  ``size`` items is Fisher–Yates on ``range(size)``: for ``i`` from ``size-1``
  down to 1, ``j = uniform(i + 1)``, swap ``i`` and ``j``.

Every commitment, reveal, sealed pool and draw is written to the table's log, so
that once the seed is revealed anybody can recompute all of them
(`companion.verify`, the verify page).
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from typing import Any

from companion.games.base import Draw, plain_copy

FORMAT = "companion/v2"
SEED_BYTES = 32
EMPTY_POOL = "00" * 32
WORD_SPACE = 1 << 64
HASH_HEX = 64
# How many values a phone's chain holds: one per round and one per action that draws.
CHAIN_LENGTH = 1024
MAX_SKIP = 16


def new_seed() -> str:
    """A fresh secret seed, as hex."""
    return secrets.token_hex(SEED_BYTES)


def commitment_of(seed_hex: str) -> str:
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


def is_hash(value: object) -> bool:
    """32 bytes as 64 hexadecimal digits: a commitment or a chain value."""
    if not isinstance(value, str) or len(value) != HASH_HEX:
        return False
    try:
        bytes.fromhex(value)
    except ValueError:
        return False
    return True


def chain_step(value_hex: str) -> str:
    """The chain value before this one: ``SHA-256(value)``."""
    return hashlib.sha256(bytes.fromhex(value_hex)).hexdigest()


def chain(secret_hex: str, length: int = CHAIN_LENGTH) -> list[str]:
    """A phone's chain, anchor first: ``[c_0, c_1, …, c_length]`` with ``c_length`` the secret."""
    values = [secret_hex]
    for _ in range(length):
        values.append(chain_step(values[-1]))
    return values[::-1]


def steps_to(value_hex: str, head_hex: str) -> int | None:
    """How many chain steps lead from a value down to the head (1: the very next value), at most
    ``MAX_SKIP``. A phone skips the value an action that was refused showed to the server: a value
    the server saw before the draws it feeds would let it predict them."""
    for steps in range(1, MAX_SKIP + 1):
        value_hex = chain_step(value_hex)
        if value_hex == head_hex:
            return steps
    return None


def mix_pool(pool_hex: str, contribution_hex: str) -> str:
    return hashlib.sha256(bytes.fromhex(pool_hex) + bytes.fromhex(contribution_hex)).hexdigest()


def seal(pool_hex: str, revealed: dict) -> str:
    """The pool a round seals: its values folded in seat order."""
    for seat in sorted(revealed, key=int):
        pool_hex = mix_pool(pool_hex, revealed[seat])
    return pool_hex


def draw_label(draw: dict) -> str:
    if draw.get("by") is None:
        return f"table|{draw['n']}"
    return f"seat|{draw['by']}|{draw['m']}|{draw.get('reveal') or '-'}"


class WordStream:
    """The 64-bit words of one draw (its label: see ``draw_label``)."""

    def __init__(self, seed_hex: str, label: str | int, pool_hex: str):
        if isinstance(label, int):  # a number alone: the table's own draw number n
            label = f"table|{label}"
        self._key = bytes.fromhex(seed_hex)
        self._prefix = f"{FORMAT}|{pool_hex}|{label}|"
        self._block = 0
        self._words: list[int] = []

    def next_word(self) -> int:
        if not self._words:
            message = (self._prefix + str(self._block)).encode()
            digest = hmac.new(self._key, message, hashlib.sha256).digest()
            self._words = [int.from_bytes(digest[i:i + 8], "big") for i in range(0, 32, 8)]
            self._block += 1
        return self._words.pop(0)

    def uniform(self, k: int) -> int:
        """A number in [0, k), by rejection sampling."""
        if k <= 0:
            raise ValueError("uniform() needs a positive bound")
        limit = WORD_SPACE - (WORD_SPACE % k)
        while True:
            word = self.next_word()
            if word < limit:
                return word % k


def compute_int(stream: WordStream, lo: int, hi: int) -> int:
    return lo + stream.uniform(hi - lo + 1)


def compute_shuffle(stream: WordStream, size: int) -> list[int]:
    order = list(range(size))
    for i in range(size - 1, 0, -1):
        j = stream.uniform(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def recompute(seed_hex: str, draw: dict) -> object:
    """The result a logged draw must have, from the seed."""
    stream = WordStream(seed_hex, draw_label(draw), draw["pool"])
    if draw["type"] == "int":
        return compute_int(stream, draw["lo"], draw["hi"])
    if draw["type"] == "shuffle":
        return compute_shuffle(stream, draw["size"])
    raise ValueError(f"unknown draw type {draw['type']!r}")


class EntropyError(Exception):
    """A refused contribution: an HTTP status and an English message (translated by the shell)."""

    def __init__(self, status: int, message: str, **params: Any):
        super().__init__(message % params if params else message)
        self.status, self.message, self.params = status, message, params


def N_(message: str) -> str:
    return message


class Entropy:
    """The table's book of phone contributions: anchors, chain heads, rounds, pools.

    A plain JSON document (``state``) kept with the table; every method returns
    the public log entries of what it changed. The server's own state, nothing
    secret: all of it may be shown to every screen."""

    def __init__(self, state: dict | None, pool: str = EMPTY_POOL):
        self.state = plain_copy(state) if state else {"epoch": 0, "pool": pool, "seats": {}, "round": None,
                                                         "rounds": 0, "waiting": []}

    @classmethod
    def reading(cls, state: dict | None, pool: str = EMPTY_POOL) -> "Entropy":
        """The book to read only (`public`): the table's own state, not a copy of it (two copies
        per action, one per audience's view, were 2-3 % of a roll's CPU); it must not be changed."""
        if not state:
            return cls(None, pool)
        book = cls.__new__(cls)
        book.state = state
        return book

    @property
    def pool(self) -> str:
        return self.state["pool"]

    def _seat(self, seat: int) -> dict:
        return self.state["seats"][str(seat)]

    # Joining -------------------------------------------------------------
    def commit(self, seat: int, anchor: str, rounds: bool, present: list[int]) -> list[dict]:
        """A new seat's anchor; it takes part in the next round (which opens now if none is open)."""
        anchor = anchor.lower()
        self.state["seats"][str(seat)] = {"head": anchor, "k": 0, "m": 0, "rounds": rounds, "since": None}
        entries = [{"kind": "commit", "seat": seat, "commitment": anchor, "rounds": rounds}]
        self.state["waiting"].append(seat)
        if self.state["round"] is None:
            entries += self._open(present)
        return entries

    def _open(self, present: list[int], why: str | None = None, away: tuple = ()) -> list[dict]:
        """A round asks every present seat that takes part in rounds; with nobody to ask it seals at once.

        ``why``: "start" (the round the game's setup draws wait for, opened once the start is
        irrevocable) or "fresh" (the one a draw waits for, opened once the action or call that
        makes it is irrevocable). ``away``: seats whose phone is not connected, left out of a fresh
        round (named in its entry: nothing waits on a phone that left)."""
        self.state["rounds"] += 1
        phones = [s for s in sorted(present) if str(s) in self.state["seats"] and self._seat(s)["rounds"]]
        asked = [s for s in phones if s not in away]
        left_out = [s for s in phones if s in away]
        self.state["round"] = {"number": self.state["rounds"], "asked": asked, "revealed": {},
                               "for": list(self.state["waiting"]), **({"why": why} if why else {})}
        self.state["waiting"] = []
        entries = [{"kind": "round", "round": self.state["rounds"], "asked": asked, **({"why": why} if why else {}),
                    **({"away": left_out} if left_out else {})}]
        return entries + (self._seal(present) if not asked else [])

    def open_for(self, why: str, present: list[int], away: tuple = ()) -> list[dict]:
        """A round whose values nobody has seen, for draws that must wait for it (see ``_open``)."""
        if self.state["round"] is not None:
            raise EntropyError(409, N_("Waiting for the phones' random contributions: try again in a moment."))
        return self._open(present, why, away)

    @property
    def sealed_by(self) -> str | None:
        """Why the round that sealed the current pool was opened (None: a join's round)."""
        return self.state.get("sealed_by")

    def reveal(self, seat: int, value: Any, present: list[int]) -> list[dict]:
        """A phone's chain value for the open round."""
        current = self.state["round"]
        if current is None or seat not in current["asked"]:
            raise EntropyError(409, N_("No random contribution is asked of this phone now."))
        if str(seat) in current["revealed"]:
            raise EntropyError(409, N_("This phone already sent its random contribution for this round."))
        if current.get("why") and steps_to(self.check_reveal(seat, value), self._seat(seat)["head"]) != 1:
            # A round opened for a draw takes each phone's very next value: were a skip allowed, the phone that
            # answers last (it can read the others' values with the operator) could pick among its next values.
            raise EntropyError(400, N_("A round opened for a draw takes the phone's very next random value: "
                                       "reload the page."))
        self._advance(seat, value)
        current["revealed"][str(seat)] = value.lower()
        entries = [{"kind": "reveal", "seat": seat, "round": current["number"], "k": self._seat(seat)["k"],
                    "value": value.lower()}]
        if len(current["revealed"]) == len(current["asked"]):
            entries += self._seal(present)
        return entries

    def check_reveal(self, seat: int, value: Any) -> str:
        """The seat's next chain value, checked (not yet spent)."""
        book = self.state["seats"].get(str(seat))
        if book is None:
            raise EntropyError(409, N_("This seat has no commitment to its random numbers: join again."))
        if not is_hash(value):
            raise EntropyError(400, N_("The phone's random contribution must be 64 hexadecimal digits."))
        if steps_to(value.lower(), book["head"]) is None:
            raise EntropyError(400, N_("The phone's random contribution does not match its commitment: "
                                       "reload the page."))
        return value.lower()

    def _advance(self, seat: int, value: Any) -> None:
        value = self.check_reveal(seat, value)
        book = self._seat(seat)
        book["head"], book["k"] = value, book["k"] + steps_to(value, book["head"])

    def _seal(self, present: list[int]) -> list[dict]:
        current = self.state["round"]
        self.state["pool"] = seal(self.state["pool"], current["revealed"])
        self.state["epoch"] += 1
        self.state["sealed_by"] = current.get("why")
        for seat in current["for"]:
            if str(seat) in self.state["seats"] and self._seat(seat)["since"] is None:
                self._seat(seat)["since"] = self.state["epoch"]
        self.state["round"] = None
        entries = [{"kind": "pool", "round": current["number"], "epoch": self.state["epoch"],
                    "pool": self.state["pool"], "for": current["for"]}]
        if self.state["waiting"]:
            entries += self._open(present)
        return entries

    def drop(self, seat: int, present: list[int]) -> list[dict]:
        """A seat left while the open round still waited on it: the round starts again without it.

        A start round starts again whenever a seat leaves, even one that revealed: the same values
        with one seat fewer would give a setup that whoever made it leave could compute."""
        current = self.state["round"]
        if current is None:
            return []
        if current.get("why") != "start" and (seat not in current["asked"] or str(seat) in current["revealed"]):
            return []
        return self._again(current, [seat], present)

    def restart(self, present: list[int]) -> list[dict]:
        """The open round starts again without the phones that did not reveal (the host's decision).

        Not a seal without them: that would let the last phone choose between two pools it
        can compute. Every other phone reveals a fresh value, unknown to all until then."""
        current = self.state["round"]
        if current is None:
            raise EntropyError(409, N_("No round of random contributions is waiting."))
        missing = [s for s in current["asked"] if str(s) not in current["revealed"]]
        if not missing:
            raise EntropyError(409, N_("No round of random contributions is waiting."))
        return self._again(current, missing, present)

    def _again(self, current: dict, missing: list[int], present: list[int]) -> list[dict]:
        self.state["rounds"] += 1
        asked = [s for s in current["asked"] if s not in missing and s in present]
        why = {"why": current["why"]} if current.get("why") else {}
        self.state["round"] = {"number": self.state["rounds"], "asked": asked, "revealed": {},
                               "for": current["for"], **why}
        entries = [{"kind": "round", "round": self.state["rounds"], "asked": asked, "without": missing, **why}]
        return entries + (self._seal(present) if not asked else [])

    def renew(self, present: list[int], why: str | None = None) -> list[dict]:
        """A new game committed to a new seed: every seat waits for a pool sealed after it.

        The operator drew that seed knowing the pools so far; only values revealed after its
        commitment make the new game's draws its own. The log of the new game starts with the
        book as it stands (``carry``, checked against each phone's own record), then a round
        that asks every phone again (an open round is replaced: its values were seen)."""
        carry = {"kind": "carry", "epoch": self.state["epoch"], "pool": self.pool, "rounds": self.state["rounds"],
                 "present": sorted(present), "seats": copy.deepcopy(self.state["seats"])}
        self.state["waiting"] = sorted(int(s) for s in self.state["seats"] if int(s) in present)
        for book in self.state["seats"].values():
            book["since"] = None
        self.state["round"] = None
        return [carry] + self._open(present, why)

    # Drawing -------------------------------------------------------------
    def may_draw(self, seat: int | None) -> bool:
        """A seat draws once a pool sealed after its anchor exists (the table always may)."""
        if seat is None:
            return True
        book = self.state["seats"].get(str(seat))
        return book is None or book["since"] is not None  # no book: a seat from before format v2

    def takes_part(self, seat: int | None) -> bool:
        """The seat's phone keeps a chain and takes part in rounds (not a script)."""
        book = self.state["seats"].get(str(seat)) if seat is not None else None
        return bool(book and book["rounds"])

    def rng(self, seed: str, next_n: int, seat: int | None, reveal: Any = None) -> "TableRng":
        book = self.state["seats"].get(str(seat)) if seat is not None else None
        value = self.check_reveal(seat, reveal) if reveal is not None else None
        return TableRng(seed=seed, pool=self.pool, next_n=next_n, by=seat if book is not None else None,
                        m=book["m"] if book else 0, reveal=value, epoch=self.state["epoch"])

    def spent(self, rng: "TableRng") -> None:
        """After an accepted action: its seat's draws are counted and its chain value is spent."""
        if rng.by is None or not rng.draws:
            return
        book = self._seat(rng.by)
        book["m"] = rng.m
        if rng.reveal is not None:
            book["head"], book["k"] = rng.reveal, book["k"] + steps_to(rng.reveal, book["head"])

    def public(self) -> dict:
        """What every screen may see: the pool, the open round and each seat's place in it."""
        current = self.state["round"]
        return {"epoch": self.state["epoch"], "pool": self.pool,
                "round": None if current is None else {"number": current["number"], "asked": current["asked"],
                                                       "revealed": sorted(int(s) for s in current["revealed"]),
                                                       "why": current.get("why")},
                "seats": {seat: {"head": book["head"], "k": book["k"], "in_pool": book["since"] is not None}
                          for seat, book in self.state["seats"].items()}}


@dataclass
class TableRng:
    """The randomness handed to a game's ``setup``/``apply``.

    It records every draw it makes; the table persists them with the action
    that consumed them, or throws them away with a rejected action. ``by`` is
    the acting seat (None: the table itself), ``m`` its next draw number and
    ``reveal`` the chain value its phone sent with the action."""

    seed: str
    pool: str
    next_n: int
    draws: list[dict] = field(default_factory=list)
    by: int | None = None
    m: int = 0
    reveal: str | None = None
    epoch: int = 0

    def _stream(self) -> tuple[dict, WordStream]:
        where = {"n": self.next_n, "by": self.by, "epoch": self.epoch, "pool": self.pool}
        if self.by is not None:
            where.update(m=self.m, reveal=self.reveal)
            self.m += 1
        self.next_n += 1
        return where, WordStream(self.seed, draw_label(where), self.pool)

    def _record(self, where: dict, purpose: Draw, kind: str, params: dict, result, secret: bool):
        self.draws.append({**where, "purpose": purpose.as_json(), "type": kind, **params, "result": result,
                           "secret": secret})

    def randint(self, lo: int, hi: int, purpose: Draw, secret: bool = False) -> int:
        """An integer in [lo, hi], both included."""
        if hi < lo:
            raise ValueError("randint() needs lo <= hi")
        where, stream = self._stream()
        result = compute_int(stream, lo, hi)
        self._record(where, purpose, "int", {"lo": lo, "hi": hi}, result, secret)
        return result

    def permutation(self, size: int, purpose: Draw, secret: bool = False) -> list[int]:
        """A uniformly random order of range(size)."""
        where, stream = self._stream()
        result = compute_shuffle(stream, size)
        self._record(where, purpose, "shuffle", {"size": size}, result, secret)
        return result

    def shuffle(self, items: list, purpose: Draw, secret: bool = False) -> list:
        """A new list with the items in a uniformly random order."""
        return [items[i] for i in self.permutation(len(items), purpose, secret)]

    def choice(self, items: list, purpose: Draw, secret: bool = False):
        return items[self.randint(0, len(items) - 1, purpose, secret)]

    @staticmethod
    def nonce(bits: int = 128) -> str:
        """A secret the seed cannot recompute, as hex: the salt of a commitment.

        Not a draw, so it is neither recorded nor replayable: a salt drawn from
        the seed would let anyone who reads the seed, revealed when the table
        closes, brute-force a choice still locked in at that moment. Nothing
        needs to verify a salt but the commitment it hides."""
        return secrets.token_hex(bits // 8)
