"""The verifier's check of Amiiboxe's fights against their draws (`companion.game_checks.GameCheck`).

A fight's die is drawn when the attack is made (``fight_die``), and again while the criterion it
shows was already tried in that fight (``fight_reroll``): the ``fight_rolled`` face must be the attack's draw and every
``fight_rerolled`` face one of the re-draws that follow, in order (the re-draws that
showed a tried criterion leave no event). A fight event without a draw was forged; an
attack's draw without its event was removed.
"""

from __future__ import annotations

from companion.games.base import purpose_kind


def step_problems(draws: list[dict], entries: list[dict]) -> list[tuple[int, str]]:
    problems = []
    fight_draws = [d for d in draws if purpose_kind(d.get("purpose")) == "fight_die"]
    rerolls = [d for d in draws if purpose_kind(d.get("purpose")) == "fight_reroll"]
    rolled = [(e["i"], e["event"]) for e in entries if e["event"].get("type") == "fight_rolled"]
    again = [(e["i"], e["event"]) for e in entries if e["event"].get("type") == "fight_rerolled"]
    if fight_draws and not rolled:
        problems.append((fight_draws[0].get("i", 0), "an attack's die has no fight_rolled event: it was removed"))
    for (i, event), draw in zip(rolled, fight_draws + [None] * len(rolled)):
        if draw is None:
            problems.append((i, "a fight_rolled event without its draw: the event was forged"))
        elif event.get("face") != draw.get("result"):
            problems.append((i, f"the fight's die shows {event.get('face')!r} but the draw gives {draw.get('result')!r}"))
    results = [d.get("result") for d in rerolls]
    position = 0
    for i, event in again:
        while position < len(results) and results[position] != event.get("face"):
            position += 1  # a re-draw that showed a criterion already tried
        if position == len(results):
            problems.append((i, f"the die rolled again shows {event.get('face')!r}, which no draw gives"))
        position += 1
    return problems
