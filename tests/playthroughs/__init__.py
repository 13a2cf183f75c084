"""Golden playthroughs: what every screen saw in a recorded game, step by step.

Each ``<game>-<config>.jsonl`` file starts with a header line (game, config,
seed, picks), then one line for the views after setup, then one line per
action: the actor, the action, its events and every viewer's view (public,
host, each seat). `tests/test_playthroughs.py` replays the actions and
compares; after a rule change that is meant, regenerate them with

    .venv/bin/python -m tests.playthroughs.make [GAME ...]

and read the diff: it is what each phone would now see differently.
"""
