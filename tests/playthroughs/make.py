"""Regenerates the golden playthroughs (see __init__.py): one per configuration
of tests/random_play.py, or those of the games named on the command line."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from companion.games import REGISTRY
from tests.random_play import CONFIGS, SEED, Walk, act, choices, pick, start

FOLDER = Path(__file__).parent
STEPS = 25  # enough to cross the first phases of every game; the files stay small
PICKS = 7  # the random picker's seed


def viewer_key(viewer) -> str:
    return {None: "public", "host": "host"}.get(viewer, str(viewer))


def views_of(walk: Walk) -> dict:
    return {viewer_key(viewer): walk.game.view(walk.state, viewer) for viewer in walk.viewers}


def record(game_id: str, config_name: str) -> list[dict]:
    import random

    config = next(c for c in CONFIGS[game_id] if c.name == config_name)
    walk = start(REGISTRY[game_id], config, SEED)
    picker = random.Random(PICKS)
    lines = [{"game": game_id, "config": config.name, "seed": SEED, "picks": PICKS},
             {"setup": True, "views": views_of(walk)}]
    while len(walk.steps) < STEPS and walk.game.outcome(walk.state) is None:
        listed = choices(walk)
        if not listed:
            break
        seat, action = pick(listed, picker)
        step = act(walk, seat, action)
        lines.append({"seat": seat, "action": step.action, "events": step.events, "views": views_of(walk)})
    return lines


def path_of(game_id: str, config_name: str) -> Path:
    return FOLDER / f"{game_id}-{config_name}.jsonl"


def write(game_id: str, config_name: str) -> Path:
    path = path_of(game_id, config_name)
    text = "".join(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n" for line in record(game_id, config_name))
    path.write_text(text, encoding="utf-8")
    return path


def main(games: list[str]) -> None:
    for game_id in games or list(CONFIGS):
        for config in CONFIGS[game_id]:
            print(write(game_id, config.name))


if __name__ == "__main__":
    main(sys.argv[1:])
