"""The table's randomness: uniform, unbiased, reproducible from the seed, verifiable."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion import fairness
from companion.verify import verify_log
from tests.server import ROOT

SEED = "5eed" * 16
# Chi-square critical value for 5 degrees of freedom at the 1% level.
CHI2_CRITICAL_5_DOF_1_PERCENT = 15.086


def chi_square(counts: Counter, faces: int, total: int) -> float:
    expected = total / faces
    return sum((counts.get(face, 0) - expected) ** 2 / expected for face in range(1, faces + 1))


def table_rolls(total: int) -> Counter:
    rng = fairness.TableRng(seed=SEED, pool=fairness.EMPTY_POOL, next_n=0)
    return Counter(rng.randint(1, 6, "chi-square") for _ in range(total))


def test_60000_d6_rolls_pass_chi_square_at_1_percent():
    counts = table_rolls(60_000)
    assert sum(counts.values()) == 60_000
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert chi_square(counts, 6, 60_000) < CHI2_CRITICAL_5_DOF_1_PERCENT


def test_a_biased_mapping_fails_the_same_chi_square():
    # Mapping 4 random bits to a d6 with a plain modulo: faces 1-4 get 3/16, faces 5-6 get 2/16.
    stream = fairness.WordStream(SEED, 0, fairness.EMPTY_POOL)
    counts = Counter((stream.next_word() & 0xF) % 6 + 1 for _ in range(60_000))
    assert chi_square(counts, 6, 60_000) > CHI2_CRITICAL_5_DOF_1_PERCENT


class FixedWords(fairness.WordStream):
    def __init__(self, words):
        self._queue = list(words)

    def next_word(self):
        return self._queue.pop(0)


def test_rejection_sampling_skips_words_in_the_biased_tail():
    # For k = 6 the last 2^64 mod 6 = 4 words would favour faces 0-3: they are rejected.
    top = fairness.WORD_SPACE - 1
    stream = FixedWords([top, top - 3, 7])
    assert stream.uniform(6) == 7 % 6
    assert stream._queue == []


def test_the_same_seed_pool_and_number_give_the_same_draw_and_others_differ():
    a = fairness.recompute(SEED, {"n": 3, "pool": fairness.EMPTY_POOL, "type": "shuffle", "size": 20})
    b = fairness.recompute(SEED, {"n": 3, "pool": fairness.EMPTY_POOL, "type": "shuffle", "size": 20})
    c = fairness.recompute(SEED, {"n": 4, "pool": fairness.EMPTY_POOL, "type": "shuffle", "size": 20})
    other_pool = fairness.mix_pool(fairness.EMPTY_POOL, "ab" * 32)
    d = fairness.recompute(SEED, {"n": 3, "pool": other_pool, "type": "shuffle", "size": 20})
    assert a == b
    assert a != c and a != d


@given(lo=st.integers(-1000, 1000), span=st.integers(0, 10_000), n=st.integers(0, 10**6))
def test_randint_stays_in_range(lo, span, n):
    rng = fairness.TableRng(seed=SEED, pool=fairness.EMPTY_POOL, next_n=n)
    value = rng.randint(lo, lo + span, "range")
    assert lo <= value <= lo + span
    assert rng.draws[0]["n"] == n and rng.next_n == n + 1


@given(size=st.integers(0, 60), n=st.integers(0, 10**6))
def test_shuffle_is_a_permutation(size, n):
    rng = fairness.TableRng(seed=SEED, pool=fairness.EMPTY_POOL, next_n=n)
    assert sorted(rng.permutation(size, "deck")) == list(range(size))


def test_shuffle_positions_are_uniform():
    # Where card 0 of a 4-card deck lands, over 24,000 shuffles: chi-square, 3 degrees of freedom.
    rng = fairness.TableRng(seed=SEED, pool=fairness.EMPTY_POOL, next_n=0)
    landed = Counter(rng.permutation(4, "deck").index(0) for _ in range(24_000))
    statistic = sum((landed[i] - 6000) ** 2 / 6000 for i in range(4))
    assert statistic < 11.345  # 3 dof, 1 %


def test_entropy_validation():
    assert fairness.is_valid_entropy("ab" * 16)
    assert fairness.is_valid_entropy("AB" * 64)
    for bad in ("ab" * 15, "ab" * 65, "zz" * 16, "abc" * 11, 12, None):
        assert not fairness.is_valid_entropy(bad)


# Verification -----------------------------------------------------------------

def make_log() -> dict:
    rng = fairness.TableRng(seed=SEED, pool=fairness.EMPTY_POOL, next_n=0)
    entries = [{"i": 0, "kind": "table", "type": "created"}]
    rng.randint(1, 6, "first roll")
    entries += [{"i": len(entries), "kind": "draw", **rng.draws.pop()}]
    contribution = "cd" * 32
    rng.pool = fairness.mix_pool(rng.pool, contribution)
    entries.append({"i": len(entries), "kind": "entropy", "seat": 1, "value": contribution, "pool": rng.pool})
    rng.shuffle(list("abcdefgh"), "deck", secret=True)
    entries += [{"i": len(entries), "kind": "draw", **rng.draws.pop()}]
    rng.randint(1, 20, "d20")
    entries += [{"i": len(entries), "kind": "draw", **rng.draws.pop()}]
    return {"format": "companion-log/1", "commitment": fairness.commitment_of(SEED), "seed": SEED,
            "entries": entries}


def test_verify_accepts_the_true_log():
    report = verify_log(make_log())
    assert report.ok and report.draws_checked == 3


@pytest.mark.parametrize("tamper, complaint", [
    (lambda log: log["entries"][1].update(result=log["entries"][1]["result"] % 6 + 1), "recomputed"),
    (lambda log: log["entries"][3].update(result=list(range(8))), "recomputed"),
    (lambda log: log.update(seed="00" * 32), "commitment"),
    (lambda log: log.update(commitment="11" * 32), "commitment"),
    (lambda log: log["entries"].pop(1), "missing"),
    (lambda log: log["entries"][2].update(value="ef" * 32), "pool"),
    (lambda log: log["entries"][4].update(pool=fairness.EMPTY_POOL), "pool"),
])
def test_verify_reports_the_first_mismatch(tamper, complaint):
    log = make_log()
    tamper(log)
    report = verify_log(log)
    assert not report.ok
    assert complaint in report.message


def test_verify_needs_the_seed():
    log = make_log()
    log["seed"] = None
    report = verify_log(log)
    assert not report.ok and not report.verifiable


def run_cli(path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion.verify", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def test_cli_exit_codes(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(make_log()))
    result = run_cli(good)
    assert result.returncode == 0 and "OK" in result.stdout

    tampered = copy.deepcopy(make_log())
    tampered["entries"][4]["result"] += 1 if tampered["entries"][4]["result"] < 20 else -1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(tampered))
    result = run_cli(bad)
    assert result.returncode == 1 and "d20" in result.stdout

    unreadable = tmp_path / "broken.json"
    unreadable.write_text("{not json")
    assert run_cli(unreadable).returncode == 2
