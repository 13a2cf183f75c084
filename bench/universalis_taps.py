"""Taps per ordinary turn of a Mario Universalis duel, played by a script on the rules.

    .venv/bin/python -m bench.universalis_taps [TURNS]

Two players play the same ordinary evening on the phone's buttons: each turn
the player whose turn it is plays one Character in the first preparation (the
card typed once, then picked by name: not counted here, it costs the same
whatever the turn machinery does), attacks with every Character it has once
attacking is allowed, the defender lets them pass (one tap: "Confirm the
blocks" with nobody blocking), and the turn goes to the other player. A tap is
a button the phone shows: each action sent, and each attacker ticked on the
attack form. A second evening has every Character at 1 PC and the defender
block with one: each combat then KOs, and stops at the damage for the players
to see it ("Deal the damage", one tap more). The script reads the view's legal actions and takes the fewest
taps the screen offers, so it measures the rules of the commit it runs on.
"""

from __future__ import annotations

import sys

from companion.games import get_game
from tests.rules import ScriptedRng

GAME = get_game("universalis")
SEATS = [{"id": 1, "name": "Ana", "figures": []}, {"id": 2, "name": "Bo", "figures": []}]


def legal_types(state, seat) -> set[str]:
    return {action["type"] for action in GAME.legal_actions(state, seat)}


def apply(state, seat, action):
    state, _ = GAME.apply(state, seat, action, ScriptedRng())
    return state


def mine(state, seat) -> list[int]:
    return [c["id"] for c in state["in_play"] if c["kind"] == "character" and c["controller"] == seat]


def one_turn(state, pc: int = 9, block: bool = False) -> tuple[dict, int, int]:
    """Plays the active player's turn; returns the state once the other plays, the active player's
    taps and the defender's."""
    seat, turn, taps, defender_taps = state["active"], state["turn"], 0, 0
    played = attacked = False
    for _ in range(40):
        if state["turn"] != turn or GAME.outcome(state):
            return state, taps, defender_taps
        phase, types = state["phase"], legal_types(state, seat)
        if phase == "prep1" and not played:
            state, played = apply(state, seat, {"type": "play", "card": {
                "kind": "character", "name": f"Goomba {turn}", "cost": 1, "pf": 1, "pc": pc}}), True
        elif phase == "blockers":
            defender = next(s for s in state["order"] if s != seat)
            blocks = {str(mine(state, defender)[0]): state["combat"]["attackers"][0]} if block and mine(state, defender) else {}
            # one tap: "Confirm the blocks" (a blocker picked costs one more)
            state, defender_taps = apply(state, defender, {"type": "block", "blocks": blocks}), defender_taps + 1 + len(blocks)
        elif phase in ("prep1", "attackers") and not attacked and state["turn"] > 2 and "attack" in types:
            attackers = mine(state, seat)
            # "Attack with all" is one button where the screen offers it; else each attacker is ticked.
            one_button = "end_turn" in types
            if phase == "prep1" and not one_button:
                state, taps = apply(state, seat, {"type": "next"}), taps + 1
                continue
            state, attacked = apply(state, seat, {"type": "attack", "attackers": attackers}), True
            taps += 1 if one_button else len(attackers) + 1
        elif "end_turn" in types:
            state, taps = apply(state, seat, {"type": "end_turn"}), taps + 1
        elif "deal" in types:
            state, taps = apply(state, seat, {"type": "deal"}), taps + 1
        else:
            state, taps = apply(state, seat, {"type": "next"}), taps + 1
    raise AssertionError("a turn never ended")


def measure(turns: int = 12, pc: int = 9, block: bool = False) -> dict:
    state = GAME.setup(GAME.normalize_options({"starting_coins": 20}), SEATS, ScriptedRng(("first_player", 0)))
    per_turn = []
    for _ in range(turns):
        if GAME.outcome(state):
            break
        state, taps, defender = one_turn(state, pc, block)
        per_turn.append((taps, defender))
    attacking = per_turn[2:]  # from the second global turn, every turn has a combat
    return {"turns": per_turn, "first_global_turn": [t for t, _ in per_turn[:2]],
            "ordinary_turn": max(t for t, _ in attacking), "defender": max(d for _, d in attacking),
            "total": sum(t + d for t, d in per_turn)}


def report(title: str, result: dict) -> None:
    print(title)
    print(f"  taps per turn (player, defender): {result['turns']}")
    print(f"  first global turn: {result['first_global_turn']} taps")
    print(f"  ordinary turn (with a combat): {result['ordinary_turn']} taps for the player, "
          f"{result['defender']} for the defender; {result['total']} taps in {len(result['turns'])} turns")


if __name__ == "__main__":
    turns = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    report("Every attacker passes (no KO):", measure(turns))
    report("A blocker is KO'd in every combat (the damage waits for the players):", measure(turns, pc=1, block=True))
