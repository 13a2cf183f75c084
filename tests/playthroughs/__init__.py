"""Golden playthroughs: whole games as every screen saw them, as text.

Each ``<game>-<config>.txt`` file holds one whole game of a configuration of
tests/random_play.py (`make.GOLDEN`), picked at random: a header, then for the
setup and for every step

    step 12 | seat 2 does {"type":"roll"}        the action
    step 12 | event rolled {"seat":2,"value":5}  each event it made
    step 12 | seat 1 #3fa2c9d1 | phase: "choosing" -> "revealing"; ...

one line per viewer (public, host, each seat) whose view changed: its
fingerprint (the whole view, hashed) and the leaves that changed. The last line
is the outcome. `tests/test_playthroughs.py` replays the actions and compares
the text line for line; after a rule change that is meant, regenerate them with

    .venv/bin/python -m tests.playthroughs.make [GAME ...]

and read the diff: it is what each phone would now see differently.
"""
