"""Writes the golden playthroughs (see __init__.py): a whole game of each
configuration in `GOLDEN`, or of those of the games named on the command line."""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any, Iterator

from companion.games import REGISTRY
from tests.random_play import CONFIGS, SEED, Config, Walk, act, choices, pick, start

FOLDER = Path(__file__).parent
PICKS = 7  # the random picker's seed
# One whole game a file, every game and Rayman's modes; the files stay under 2 MB together.
GOLDEN = (("amiiboxe", "free-2p"), ("amiiboxe", "pro-3p-tie"), ("arkade", "strategie-tiles"),
          ("arkade", "arcade-tiles"), ("chakart", "standard"), ("dice", "custom-3x"),
          ("rayman", "novice-2p"), ("rayman", "coop"), ("rayman", "solo"), ("universalis", "short-decks"),
          ("universalis", "one-phone"))
ACTS = " does "  # "step 12 | seat 2 does {...}": the line the replay reads the action from


def config_of(game_id: str, name: str) -> Config:
    return next(config for config in CONFIGS[game_id] if config.name == name)


def viewer_name(viewer: Any) -> str:
    return {None: "public", "host": "host"}.get(viewer, f"seat {viewer}")


# Lists that change wholesale at every step (the legal actions) or slide (the kept history, whose events
# have their own lines): shown by their length; the view's fingerprint still covers every item.
COUNTED = ("legal", "history", "reports")


def flat(tree: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Each leaf of a view as (path, compact JSON): a list of plain values is one leaf."""
    if path.rsplit(".", 1)[-1] in COUNTED and isinstance(tree, list):
        yield path, f"{len(tree)} items"
    elif isinstance(tree, dict) and tree:
        for key in sorted(tree):
            yield from flat(tree[key], f"{path}.{key}" if path else str(key))
    elif isinstance(tree, list) and any(isinstance(item, (dict, list)) for item in tree):
        for number, item in enumerate(tree):
            yield from flat(item, f"{path}.{number}")
    else:
        yield path, compact(tree)


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def changes(before: dict, after: dict) -> str:
    """What changed in a view, leaf by leaf: `path: old -> new` (`+`/`-` for a leaf that came or went)."""
    old, new = dict(before), dict(after)
    said = [f"{path}: {old[path]} -> {value}" if path in old else f"+{path}: {value}"
            for path, value in new.items() if old.get(path) != value]
    said += [f"-{path}" for path in old if path not in new]
    return "; ".join(said)


def fingerprint(view: dict) -> str:
    """The whole view in 8 characters: the line changes whenever anything in the view does."""
    return hashlib.sha256(compact(view).encode()).hexdigest()[:8]


class Recorder:
    """The text of a game: per step the action, each event, and each viewer's view where it changed."""

    def __init__(self, walk: Walk):
        self.walk = walk
        self.seen: dict[str, tuple[str, list]] = {}
        self.lines = [f"# {walk.game.id} {walk.config.name}: seed {SEED}, picks {PICKS}"]
        self.look("setup")

    def look(self, label: str) -> None:
        for viewer in self.walk.viewers:
            name, view = viewer_name(viewer), self.walk.game.view(self.walk.state, viewer)
            mark, leaves = fingerprint(view), list(flat(view))
            if name not in self.seen:
                self.lines.append(f"{label} | {name} #{mark} | {changes([], leaves)}")
            elif self.seen[name][0] != mark:
                self.lines.append(f"{label} | {name} #{mark} | {changes(self.seen[name][1], leaves)}")
            self.seen[name] = (mark, leaves)

    def step(self, seat: Any, action: dict) -> None:
        label = f"step {len(self.walk.steps) + 1}"
        self.lines.append(f"{label} | {viewer_name(seat)}{ACTS}{compact(action)}")
        done = act(self.walk, seat, action)
        for event in done.events:
            fields = {key: value for key, value in event.items() if key != "type"}
            self.lines.append(f"{label} | event {event['type']} {compact(fields)}")
        self.look(label)

    def text(self) -> str:
        outcome = self.walk.game.outcome(self.walk.state)
        return "\n".join(self.lines + [f"end | {compact(outcome)}"]) + "\n"


def record(game_id: str, config_name: str) -> str:
    """A whole game picked at random (the harness's picker), as text."""
    config = config_of(game_id, config_name)
    walk = start(REGISTRY[game_id], config, SEED)
    recorder, picker = Recorder(walk), random.Random(PICKS)
    bound = config.bound(walk.game, walk.options)
    while len(walk.steps) < (config.steps if bound is None else bound) and walk.game.outcome(walk.state) is None:
        recorder.step(*pick(choices(walk), picker, config.prefer, config.prefer_odds))
    return recorder.text()


def replayed(game_id: str, config_name: str, text: str) -> str:
    """The text the recorded actions give today: a rule change shows as the lines it changes."""
    walk = start(REGISTRY[game_id], config_of(game_id, config_name), SEED)
    recorder = Recorder(walk)
    for line in text.splitlines():
        if line.startswith("step ") and ACTS in line:
            who, action = line.split(" | ", 1)[1].split(ACTS, 1)
            seat = "host" if who == "host" else int(who.removeprefix("seat "))
            recorder.step(seat, json.loads(action))
    return recorder.text()


def path_of(game_id: str, config_name: str) -> Path:
    return FOLDER / f"{game_id}-{config_name}.txt"


def main(games: list[str]) -> None:
    for game_id, name in GOLDEN:
        if not games or game_id in games:
            path_of(game_id, name).write_text(record(game_id, name), encoding="utf-8")
            print(path_of(game_id, name), path_of(game_id, name).stat().st_size)


if __name__ == "__main__":
    main(sys.argv[1:])
