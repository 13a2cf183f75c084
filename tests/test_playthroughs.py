"""Replays every golden playthrough (tests/playthroughs/*.txt): the recorded
actions must give today the same text, line for line: the same events and, for
each screen, the same changes of its view."""

from __future__ import annotations

import difflib

import pytest

from tests.playthroughs.make import FOLDER, GOLDEN, path_of, replayed
from tests.random_play import CONFIGS

FILES = sorted(FOLDER.glob("*.txt"))


def test_every_game_has_a_whole_game_recorded():
    assert {path.stem for path in FILES} == {f"{game_id}-{name}" for game_id, name in GOLDEN}
    assert {game_id for game_id, _ in GOLDEN} == set(CONFIGS)
    for path in FILES:
        last = path.read_text(encoding="utf-8").splitlines()[-1]
        assert last.startswith("end | ") and (last != "end | null" or path.stem.startswith("dice-")), path.stem


def test_the_recordings_stay_small():
    assert sum(path.stat().st_size for path in FILES) < 2_000_000


@pytest.mark.parametrize("game_id, name", GOLDEN, ids=lambda value: value)
def test_a_recorded_game_replays_to_what_every_screen_saw(game_id, name):
    recorded = path_of(game_id, name).read_text(encoding="utf-8")
    now = replayed(game_id, name, recorded)
    changed = list(difflib.unified_diff(recorded.splitlines(), now.splitlines(), "recorded", "now", n=0,
                                        lineterm=""))
    assert not changed, "\n".join(changed[:40])
