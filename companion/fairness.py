"""The table's committed, verifiable randomness.

How a table's randomness works (format ``companion/v1``):

* At creation the server draws a secret 32-byte *seed* and publishes its
  *commitment* ``SHA-256(seed)``. The seed stays secret until the table closes.
* Phones add entropy when they join. Contributions are folded into a public
  *pool*: ``pool_0`` is 32 zero bytes, ``pool_k = SHA-256(pool_{k-1} || contribution)``.
  The server cannot choose the seed after seeing them (it committed first), and
  it cannot predict the pool before the phones speak.
* Draw number *n* (0, 1, 2, … per table) reads a stream of 64-bit words: block
  *i* of the stream is ``HMAC-SHA256(seed, "companion/v1|<n>|<pool hex>|<i>")``
  cut into four big-endian words.
* A number in ``[0, k)`` takes the next word ``u`` and keeps ``u mod k`` only if
  ``u < 2^64 - (2^64 mod k)``; otherwise it takes the next word (rejection
  sampling: every value is exactly equally likely, no modulo bias).
* An integer draw ``[lo, hi]`` is ``lo + uniform(hi - lo + 1)``. A shuffle of
  ``size`` items is Fisher–Yates on ``range(size)``: for ``i`` from ``size-1``
  down to 1, ``j = uniform(i + 1)``, swap ``i`` and ``j``.

Every draw is written to the table's log with its purpose, parameters, pool and
result, so that once the seed is revealed anybody can recompute all of them
(`companion.verify`, the verify page).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field

FORMAT = "companion/v1"
SEED_BYTES = 32
EMPTY_POOL = "00" * 32
WORD_SPACE = 1 << 64
MIN_ENTROPY_HEX = 32
MAX_ENTROPY_HEX = 128


def new_seed() -> str:
    """A fresh secret seed, as hex."""
    return secrets.token_hex(SEED_BYTES)


def commitment_of(seed_hex: str) -> str:
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


def is_valid_entropy(value: object) -> bool:
    """Phones send 16 to 64 random bytes as hex."""
    if not isinstance(value, str) or not MIN_ENTROPY_HEX <= len(value) <= MAX_ENTROPY_HEX:
        return False
    if len(value) % 2:
        return False
    try:
        bytes.fromhex(value)
    except ValueError:
        return False
    return True


def mix_pool(pool_hex: str, contribution_hex: str) -> str:
    return hashlib.sha256(bytes.fromhex(pool_hex) + bytes.fromhex(contribution_hex)).hexdigest()


class WordStream:
    """The 64-bit words of draw number ``n``."""

    def __init__(self, seed_hex: str, n: int, pool_hex: str):
        self._key = bytes.fromhex(seed_hex)
        self._prefix = f"{FORMAT}|{n}|{pool_hex}|"
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
    stream = WordStream(seed_hex, draw["n"], draw["pool"])
    if draw["type"] == "int":
        return compute_int(stream, draw["lo"], draw["hi"])
    if draw["type"] == "shuffle":
        return compute_shuffle(stream, draw["size"])
    raise ValueError(f"unknown draw type {draw['type']!r}")


@dataclass
class TableRng:
    """The randomness handed to a game's ``setup``/``apply``.

    It records every draw it makes; the table persists them with the action
    that consumed them, or throws them away with a rejected action.
    """

    seed: str
    pool: str
    next_n: int
    draws: list[dict] = field(default_factory=list)

    def _stream(self) -> tuple[int, WordStream]:
        n = self.next_n
        self.next_n += 1
        return n, WordStream(self.seed, n, self.pool)

    def _record(self, n: int, purpose: str, kind: str, params: dict, result, secret: bool):
        self.draws.append({"n": n, "purpose": purpose, "type": kind, **params,
                           "pool": self.pool, "result": result, "secret": secret})

    def randint(self, lo: int, hi: int, purpose: str, secret: bool = False) -> int:
        """An integer in [lo, hi], both included."""
        if hi < lo:
            raise ValueError("randint() needs lo <= hi")
        n, stream = self._stream()
        result = compute_int(stream, lo, hi)
        self._record(n, purpose, "int", {"lo": lo, "hi": hi}, result, secret)
        return result

    def permutation(self, size: int, purpose: str, secret: bool = False) -> list[int]:
        """A uniformly random order of range(size)."""
        n, stream = self._stream()
        result = compute_shuffle(stream, size)
        self._record(n, purpose, "shuffle", {"size": size}, result, secret)
        return result

    def shuffle(self, items: list, purpose: str, secret: bool = False) -> list:
        """A new list with the items in a uniformly random order."""
        return [items[i] for i in self.permutation(len(items), purpose, secret)]

    def choice(self, items: list, purpose: str, secret: bool = False):
        return items[self.randint(0, len(items) - 1, purpose, secret)]

    @staticmethod
    def nonce(bits: int = 128) -> str:
        """A secret the seed cannot recompute, as hex: the salt of a commitment.

        Not a draw, so it is neither recorded nor replayable: a salt drawn from
        the seed would let anyone who reads the seed, revealed when the table
        closes, brute-force a choice still locked in at that moment. Nothing
        needs to verify a salt but the commitment it hides."""
        return secrets.token_hex(bits // 8)

