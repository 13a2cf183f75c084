"""Replays every golden playthrough (tests/playthroughs/*.jsonl): the same
actions must give the same events and the same view on every screen."""

from __future__ import annotations

import json

import pytest

from companion.games import REGISTRY
from tests.playthroughs.make import FOLDER, views_of
from tests.random_play import CONFIGS, start

FILES = sorted(FOLDER.glob("*.jsonl"))


def test_every_configuration_has_a_playthrough():
    recorded = {path.stem for path in FILES}
    assert {f"{game_id}-{config.name}" for game_id, configs in CONFIGS.items() for config in configs} <= recorded


def differences(recorded: dict, now: dict) -> list[str]:
    return [viewer for viewer in sorted(set(recorded) | set(now)) if recorded.get(viewer) != now.get(viewer)]


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.stem)
def test_a_recorded_game_replays_to_what_every_screen_saw(path):
    header, setup, *steps = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    config = next(c for c in CONFIGS[header["game"]] if c.name == header["config"])
    walk = start(REGISTRY[header["game"]], config, header["seed"])
    assert differences(setup["views"], views_of(walk)) == [], "the views after setup differ"
    for number, step in enumerate(steps, start=1):
        seat = step["seat"]
        walk.state, events = walk.game.apply(walk.state, seat, step["action"], walk.rng)
        assert events == step["events"], f"step {number} ({step['action']['type']}): the events differ"
        changed = differences(step["views"], views_of(walk))
        assert changed == [], f"step {number} ({step['action']['type']}): the views of {changed} differ"
