"""The verify page checks Amiiboxe's fights as the CLI does: the same steps (a fight's
die, re-rolls for another criterion), true and edited, give the same problems at the
same entries from `companion/games/amiiboxe/draws.py` and from the page's
`static/js/games/amiiboxe-draws.js` in Chromium."""

from __future__ import annotations

from companion.games.amiiboxe.draws import step_problems
from tests.rules import ScriptedRng
from tests.test_amiiboxe import ANA, BEN, LEAST_CLOTHED, TALLEST, act, events_of
from tests.test_amiiboxe_rules import judged, roll, started
from tests.test_browser import PHONE, browser, open_context, server  # noqa: F401


def steps() -> dict[str, tuple[list, list]]:
    """(draws, entries) of real fights, then edited as a forger would."""
    state, _ = judged()
    state = act(state, ANA, {"type": "judge", "winner": 1})
    again = ScriptedRng(("fight_reroll", LEAST_CLOTHED), ("fight_reroll", TALLEST))
    _, events = events_of(state, BEN, {"type": "judge", "winner": 4}, again)
    rerolled = [{"i": 10 + n, "event": event} for n, event in enumerate(events)]
    attack = roll(TALLEST)
    _, events = events_of(started(), ANA, {"type": "attack", "attacker": 1, "defender": 4}, attack)
    fight = [{"i": n, "event": event} for n, event in enumerate(events)]
    for n, draw in enumerate(attack.draws + again.draws):
        draw["i"] = 100 + n
    changed_face = [{**e, "event": {**e["event"], "face": 6}} if e["event"]["type"] == "fight_rolled" else e
                    for e in fight]
    changed_reroll = [{**e, "event": {**e["event"], "face": 6}} if e["event"]["type"] == "fight_rerolled" else e
                      for e in rerolled]
    return {"fight": (attack.draws, fight), "re-rolls": (again.draws, rerolled),
            "changed face": (attack.draws, changed_face), "changed re-roll": (again.draws, changed_reroll),
            "forged": ([], fight), "removed": (attack.draws, fight[1:])}


def test_the_page_and_the_cli_find_the_same_problems_in_amiiboxe_fights(server, open_context):
    page = open_context(**PHONE).new_page()
    page.goto(f"{server.url}/join")
    cases = steps()
    in_page = page.evaluate("""async (cases) => {
        const { stepProblems } = await import('/static/js/games/amiiboxe-draws.js');
        return Object.fromEntries(Object.entries(cases).map(([name, [draws, entries]]) =>
            [name, stepProblems(draws, entries).map((problem) => problem.i)]));
    }""", cases)
    in_python = {name: [where for where, _ in step_problems(draws, entries)] for name, (draws, entries) in cases.items()}
    assert in_page == in_python
    assert in_python["fight"] == [] and in_python["re-rolls"] == []
    assert all(in_python[name] for name in ("changed face", "changed re-roll", "forged", "removed"))
