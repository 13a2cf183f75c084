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
from companion.games import Draw  # the games declare their kinds of draw
from companion.verify import verify_log
from tests.rules import a_draw
from tests.server import ROOT

SEED = "5eed" * 16
# Chi-square critical value for 5 degrees of freedom at the 1% level.
CHI2_CRITICAL_5_DOF_1_PERCENT = 15.086


def chi_square(counts: Counter, faces: int, total: int) -> float:
    expected = total / faces
    return sum((counts.get(face, 0) - expected) ** 2 / expected for face in range(1, faces + 1))


def table_rolls(total: int) -> Counter:
    rng = fairness.TableRng(seed=SEED, pool=fairness.EMPTY_POOL, next_n=0)
    return Counter(rng.randint(1, 6, a_draw("chi-square")) for _ in range(total))


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
    value = rng.randint(lo, lo + span, a_draw("range"))
    assert lo <= value <= lo + span
    assert rng.draws[0]["n"] == n and rng.next_n == n + 1


@given(size=st.integers(0, 60), n=st.integers(0, 10**6))
def test_shuffle_is_a_permutation(size, n):
    rng = fairness.TableRng(seed=SEED, pool=fairness.EMPTY_POOL, next_n=n)
    assert sorted(rng.permutation(size, a_draw("deck"))) == list(range(size))


def test_shuffle_positions_are_uniform():
    # Where card 0 of a 4-card deck lands, over 24,000 shuffles: chi-square, 3 degrees of freedom.
    rng = fairness.TableRng(seed=SEED, pool=fairness.EMPTY_POOL, next_n=0)
    landed = Counter(rng.permutation(4, a_draw("deck")).index(0) for _ in range(24_000))
    statistic = sum((landed[i] - 6000) ** 2 / 6000 for i in range(4))
    assert statistic < 11.345  # 3 dof, 1 %


def test_a_chain_hashes_down_to_its_anchor_and_only_hashes_are_accepted():
    values = fairness.chain("ab" * 32, 5)
    assert len(values) == 6 and values[-1] == "ab" * 32
    assert all(fairness.chain_step(values[k + 1]) == values[k] for k in range(5))
    assert fairness.is_hash("AB" * 32)
    for bad in ("ab" * 31, "ab" * 33, "zz" * 32, 12, None):
        assert not fairness.is_hash(bad)


def phones(*seats, length=8):
    return {seat: fairness.chain(format(seat, "02x") * 32, length) for seat in seats}


def test_a_round_seals_the_pool_from_every_asked_phone_in_seat_order():
    chains = phones(1, 2)
    book = fairness.Entropy(None)
    book.commit(1, chains[1][0], True, [1])
    assert not book.may_draw(1)
    book.reveal(1, chains[1][1], [1])
    assert book.may_draw(1) and book.state["epoch"] == 1
    book.commit(2, chains[2][0], True, [1, 2])
    assert book.state["round"]["asked"] == [1, 2] and not book.may_draw(2)
    book.reveal(2, chains[2][1], [1, 2])
    entries = book.reveal(1, chains[1][2], [1, 2])
    first = fairness.mix_pool(fairness.EMPTY_POOL, chains[1][1])
    assert entries[-1]["pool"] == fairness.mix_pool(fairness.mix_pool(first, chains[1][2]), chains[2][1])
    assert book.may_draw(2) and book.state["round"] is None


def test_a_phone_that_joins_during_a_round_waits_for_the_next_one():
    chains = phones(1, 2, 3)
    book = fairness.Entropy(None)
    book.commit(1, chains[1][0], True, [1])
    book.commit(2, chains[2][0], True, [1, 2])  # round 1 asks seat 1 only: it opened before seat 2 joined
    assert book.state["round"]["asked"] == [1]
    entries = book.reveal(1, chains[1][1], [1, 2])
    assert [e["kind"] for e in entries] == ["reveal", "pool", "round"]
    assert entries[-1]["asked"] == [1, 2] and not book.may_draw(2)


def test_a_wrong_or_replayed_value_is_refused_and_changes_nothing():
    chains = phones(1, length=40)
    book = fairness.Entropy(None)
    book.commit(1, chains[1][0], True, [1])
    before = copy.deepcopy(book.state)
    for bad in (chains[1][fairness.MAX_SKIP + 1], chains[1][0], "00" * 32, "xyz"):  # too far, replayed, forged
        with pytest.raises(fairness.EntropyError):
            book.reveal(1, bad, [1])
        assert book.state == before


def test_an_abort_restarts_the_round_with_fresh_values_instead_of_sealing_without_the_missing_phone():
    chains = phones(1, 2)
    book = fairness.Entropy(None)
    book.commit(1, chains[1][0], True, [1])
    book.reveal(1, chains[1][1], [1])
    book.commit(2, chains[2][0], True, [1, 2])
    book.reveal(1, chains[1][2], [1, 2])
    entries = book.restart([1, 2])
    assert entries[0] == {"kind": "round", "round": 3, "asked": [1], "without": [2]}
    with pytest.raises(fairness.EntropyError):
        book.reveal(1, chains[1][2], [1, 2])  # the value seat 2 saw is spent: a fresh one is needed
    entries = book.reveal(1, chains[1][3], [1, 2])
    # Sealed from a value nobody knew when seat 2 withheld its own: seat 2 may draw, it chose nothing.
    assert entries[-1]["pool"] == fairness.mix_pool(fairness.mix_pool(fairness.EMPTY_POOL, chains[1][1]), chains[1][3])
    assert book.may_draw(2) and book.may_draw(1)


def test_a_seats_draws_depend_on_its_fresh_value_and_not_on_other_seats_draws():
    chains = phones(1, 2)
    book = fairness.Entropy(None)
    book.commit(1, chains[1][0], True, [1])
    book.reveal(1, chains[1][1], [1])
    rng = book.rng(SEED, 0, 1, chains[1][2])
    roll = rng.randint(1, 1000, a_draw("roll"))
    shifted = book.rng(SEED, 17, 1, chains[1][2])  # other seats drew meanwhile: the global number moved
    assert shifted.randint(1, 1000, a_draw("roll")) == roll
    assert rng.draws[0]["reveal"] == chains[1][2] and rng.draws[0]["by"] == 1 and rng.draws[0]["m"] == 0
    with pytest.raises(fairness.EntropyError):
        book.rng(SEED, 0, 1, chains[1][1])  # the value the round spent
    book.spent(rng)
    assert book.state["seats"]["1"]["head"] == chains[1][2] and book.state["seats"]["1"]["m"] == 1


# Verification -----------------------------------------------------------------

def make_log() -> dict:
    """A dice table in-process: two phones, a round each, three rolls (one of two dice)."""
    chains = phones(1, 2)
    book = fairness.Entropy(None)
    entries = [{"kind": "table", "type": "created", "game": "dice", "options": {"die": "d6", "faces": [], "count": 1},
                "commitment": fairness.commitment_of(SEED)}]
    n, k = 0, {1: 0, 2: 0}

    def fresh(seat):
        k[seat] += 1
        return chains[seat][k[seat]]

    def roll(seat, dice=1):
        nonlocal n
        rng = book.rng(SEED, n, seat, fresh(seat))
        values = [rng.randint(1, 6, Draw("die_roll", die="d6", seat=seat)) for _ in range(dice)]
        n = rng.next_n
        book.spent(rng)
        number = sum(1 for e in entries if e.get("event", {}).get("type") == "rolled") + 1
        entries.extend({"kind": "draw", **draw} for draw in rng.draws)
        entries.append({"kind": "event", "seat": seat, "event": {"type": "rolled", "seat": seat, "number": number,
                                                                  "values": values, "faces": [str(v) for v in values]}})

    entries.append({"kind": "table", "type": "joined", "seat": 1, "name": "Ana"})
    entries += book.commit(1, chains[1][0], True, [1])
    entries += book.reveal(1, fresh(1), [1])
    roll(1)
    entries.append({"kind": "table", "type": "joined", "seat": 2, "name": "Bo"})
    entries += book.commit(2, chains[2][0], True, [1, 2])
    entries += book.reveal(1, fresh(1), [1, 2])
    entries += book.reveal(2, fresh(2), [1, 2])
    roll(2, dice=2)
    roll(1)
    for i, entry in enumerate(entries):
        entry["i"] = i
    return {"format": "companion-log/1", "code": "ABCD", "game": "dice", "commitment": fairness.commitment_of(SEED),
            "seed": SEED, "entries": entries}


def index(log, kind, nth=0, **match):
    found = [e for e in log["entries"] if e["kind"] == kind and all(e.get(key) == value for key, value in match.items())]
    return found[nth]["i"]


def test_verify_accepts_the_true_log():
    report = verify_log(make_log())
    assert report.ok and report.draws_checked == 4, report.problems


def bump(value):
    return value % 6 + 1


@pytest.mark.parametrize("tamper, complaint", [
    (lambda log: log["entries"][index(log, "draw")].update(result=bump(log["entries"][index(log, "draw")]["result"])),
     "recomputed"),
    (lambda log: log.update(seed="00" * 32), "commitment"),
    (lambda log: log.update(commitment="11" * 32), "commitment"),
    (lambda log: log["entries"].pop(index(log, "draw", 1)), "missing"),
    (lambda log: log["entries"][index(log, "reveal", seat=2)].update(value="ef" * 32), "chain"),
    (lambda log: log["entries"][index(log, "pool", 1)].update(pool=fairness.EMPTY_POOL), "pool"),
    (lambda log: log["entries"][index(log, "round", 1)].update(asked=[1]), "left out"),
    (lambda log: log["entries"][index(log, "draw", 1)].update(reveal=None), "recomputed"),
    (lambda log: log["entries"][index(log, "event", 2)]["event"].update(values=[6]), "draws give"),
])
def test_verify_reports_every_mismatch_with_its_entry(tamper, complaint):
    log = make_log()
    tamper(log)
    report = verify_log(log)
    assert not report.ok
    assert any(complaint in text for _, text in report.problems), report.problems


def test_verify_needs_the_seed():
    log = make_log()
    log["seed"] = None
    report = verify_log(log)
    assert not report.ok and not report.verifiable


def run_cli(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion.verify", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def test_cli_exit_codes(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(make_log()))
    result = run_cli(good)
    assert result.returncode == 0 and "OK" in result.stdout

    tampered = copy.deepcopy(make_log())
    rolled = index(tampered, "event", 2)
    tampered["entries"][rolled]["event"]["values"] = [bump(tampered["entries"][rolled]["event"]["values"][0])]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(tampered))
    result = run_cli(bad)
    assert result.returncode == 1 and f"entry {rolled}:" in result.stdout

    unreadable = tmp_path / "broken.json"
    unreadable.write_text("{not json")
    assert run_cli(unreadable).returncode == 2
