"""Recompute every draw of a table's public log.

Usage: ``python -m companion.verify LOGFILE`` where LOGFILE is the JSON document
served by ``GET /api/tables/<code>/log`` (``-`` reads standard input).
Exit status: 0 when the commitment and every draw check out, 1 at the first
mismatch, 2 when the log cannot be verified (unreadable, or the seed is not
revealed yet because the table is still open).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass

from companion import fairness


@dataclass
class Report:
    ok: bool
    draws_checked: int
    message: str
    verifiable: bool = True


class Mismatch(Exception):
    pass


def _check_draw(entry: dict, seed: str, expected_n: int, pool: str) -> None:
    where = f"entry {entry.get('i')} (draw {entry.get('n')}, {entry.get('purpose')!r})"
    if entry.get("n") != expected_n:
        raise Mismatch(f"{where}: expected draw number {expected_n}: a draw is missing or out of order")
    if entry.get("pool") != pool:
        raise Mismatch(f"{where}: the entropy pool does not match the contributions logged before it")
    try:
        expected = fairness.recompute(seed, entry)
    except (KeyError, TypeError, ValueError) as error:
        raise Mismatch(f"{where}: malformed draw ({error})") from error
    if entry.get("result") != expected:
        raise Mismatch(f"{where}: logged result {entry.get('result')!r}, recomputed {expected!r}")


def _check_entropy(entry: dict, pool: str) -> str:
    value = entry.get("value")
    if not fairness.is_valid_entropy(value):
        raise Mismatch(f"entry {entry.get('i')}: malformed entropy contribution")
    pool = fairness.mix_pool(pool, value)
    if entry.get("pool") != pool:
        raise Mismatch(f"entry {entry.get('i')}: the pool after this contribution is wrong")
    return pool


def verify_log(document: dict) -> Report:
    """Check the commitment and recompute every draw, in log order."""
    seed = document.get("seed")
    commitment = document.get("commitment")
    if not seed:
        return Report(False, 0, "the seed is not revealed yet: close the table, then verify", verifiable=False)
    try:
        if fairness.commitment_of(seed) != commitment:
            raise Mismatch("the revealed seed does not match the commitment published at creation")
        pool, next_n, checked = fairness.EMPTY_POOL, 0, 0
        for entry in document.get("entries", []):
            if entry.get("kind") == "entropy":
                pool = _check_entropy(entry, pool)
            elif entry.get("kind") == "draw":
                _check_draw(entry, seed, next_n, pool)
                next_n += 1
                checked += 1
    except (Mismatch, ValueError) as error:
        return Report(False, 0, str(error))
    return Report(True, checked, f"OK: commitment and {checked} draws verified")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.verify", description=__doc__.splitlines()[0])
    parser.add_argument("logfile", help="the JSON log of a table ('-' for standard input)")
    args = parser.parse_args(argv)
    try:
        if args.logfile == "-":
            document = json.load(sys.stdin)
        else:
            with open(args.logfile, encoding="utf-8") as handle:
                document = json.load(handle)
        if not isinstance(document, dict):
            raise ValueError("the log must be a JSON object")
    except (OSError, ValueError) as error:
        print(f"cannot read the log: {error}", file=sys.stderr)
        return 2
    report = verify_log(document)
    print(report.message)
    if not report.verifiable:
        return 2
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
