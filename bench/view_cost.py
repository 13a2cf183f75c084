"""What one screen's view costs, per game, over random play:
``.venv/bin/python bench/view_cost.py [--games rayman chakart] [--steps 300] [--walks 3]``.

Each game walks its configurations of the shared random-play harness (`tests.random_play.CONFIGS`),
picking random legal actions; after every action the view of every screen (the public, the host and
each seat) is built and timed (``time.perf_counter``), as the server builds them after every action.
Prints, per game, the number of views timed and their median and maximum cost in milliseconds, then
Rayman's median over Chakart's (the goal of issue 25: at most 2).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.games import REGISTRY  # noqa: E402
from tests.random_play import CONFIGS, act, choices, pick, start  # noqa: E402


def view_costs(game_id: str, steps: int, walks: int) -> list[float]:
    """Seconds per view, over ``walks`` random walks of each configuration of the game."""
    game, costs = REGISTRY[game_id], []
    for config in CONFIGS[game_id]:
        for number in range(walks):
            picker, walk = random.Random(number), start(game, config)
            for _ in range(steps):
                for viewer in walk.viewers:
                    began = time.perf_counter()
                    game.view(walk.state, viewer)
                    costs.append(time.perf_counter() - began)
                listed = choices(walk)
                if game.outcome(walk.state) is not None or not listed:
                    break
                act(walk, *pick(listed, picker))
    return costs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=["rayman", "chakart"])
    parser.add_argument("--steps", type=int, default=300, help="actions per walk at most")
    parser.add_argument("--walks", type=int, default=3, help="walks per configuration")
    arguments = parser.parse_args()
    medians = {}
    for game_id in arguments.games:
        costs = view_costs(game_id, arguments.steps, arguments.walks)
        medians[game_id] = statistics.median(costs)
        print(f"{game_id:12} {len(costs):6} views  median {medians[game_id] * 1000:.3f} ms  "
              f"max {max(costs) * 1000:.3f} ms")
    if "rayman" in medians and "chakart" in medians:
        print(f"rayman / chakart (median): {medians['rayman'] / medians['chakart']:.1f}x")


if __name__ == "__main__":
    main()
