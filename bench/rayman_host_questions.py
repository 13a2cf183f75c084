"""How many questions the host screen answers per round of Rayman: the same game, played by bots.

Usage: ``python -m bench.rayman_host_questions [ROUNDS]``. Measured with 8 rounds: 7.0 host questions per round
from round 3 before issue 17 (commit 736c845), 0.0 after. Four players at Intermediate (projectiles),
nobody keeps a position on their phone: the case issue 17 measured (7 questions a round from round 3).
The bots take the first legal action of a fixed order of types, the host the first answer offered,
("nobody" when a hit is asked) with the same seed, so the game is the same whatever the rules ask of the host.

It also counts the card initiatives the phones are asked (each card once, the first time it is played), where
each player typed all 8 before round 1 until the cards were asked when played.
"""

from __future__ import annotations

import sys
from collections import Counter

from companion.fairness import EMPTY_POOL, TableRng
from companion.games.rayman import GAME, HOST, legal_actions

ORDER = ("character", "pick", "initiative", "roll", "reveal", "lock", "end_turn", "free_move", "no_hit")


def seats(count: int) -> list[dict]:
    return [{"id": seat, "name": f"P{seat}", "figures": []} for seat in range(1, count + 1)]


def host_questions_per_round(rounds: int, cards: Counter | None = None) -> dict[int, list[str]]:
    """The host's questions per round (0: the setup); ``cards`` counts the phones' card questions per round."""
    rng = TableRng(seed="ab" * 32, pool=EMPTY_POOL, next_n=0)
    state = GAME.setup(GAME.normalize_options({"difficulty": "intermediate"}), seats(4), rng)
    asked: dict[int, list[str]] = {}
    cards = Counter() if cards is None else cards
    for _ in range(5000):
        if state.get("outcome") or (state["round"] and state["round"]["number"] > rounds):
            break
        answers = [action for action in legal_actions(state, HOST) if action["type"] == "answer"]
        answers.sort(key=lambda action: action["value"] is not None)  # "nobody was hit" when it is offered
        if answers:
            key = answers[0]["question"].split("_")[0] if answers[0]["question"].startswith("projectile_") else \
                answers[0]["question"]
            asked.setdefault(state["round"]["number"] if state["round"] else 0, []).append(key)
            state, _ = GAME.apply(state, HOST, answers[0], rng)
            continue
        seat, action = next_move(state)
        if action["type"] == "initiative":
            cards[state["round"]["number"]] += 1
        state, _ = GAME.apply(state, seat, action, rng)
    return asked


def next_move(state: dict) -> tuple:
    """The first action, in ``ORDER``, of a seat the game waits on (else of anybody)."""
    waited = [wait["seat"] for wait in GAME.waiting(state)]
    others = [p["seat"] for p in state["players"] if p["seat"] not in waited]
    offers = [(seat, action) for seat in waited + others + [HOST] for action in legal_actions(state, seat)]
    for kind in ORDER:
        for seat, action in offers:
            if action["type"] == kind:
                return seat, action
    raise RuntimeError(f"nobody moves in {state['phase']}")


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    cards: Counter = Counter()
    asked = host_questions_per_round(rounds, cards)
    for number in range(0, rounds + 1):
        keys = asked.get(number, [])
        where = f"round {number}" if number else "setup"
        print(f"{where}: {len(keys)} host questions {dict(Counter(keys))}")
    print(f"rounds 3 to {rounds}: {sum(len(asked.get(n, [])) for n in range(3, rounds + 1)) / (rounds - 2):.1f} "
          "host questions per round")
    print(f"card initiatives asked of the phones: {dict(sorted(cards.items()))} per round, {sum(cards.values())} "
          "in all (each card once, when first played)")


if __name__ == "__main__":
    main()
