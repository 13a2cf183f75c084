"""Chakart by random legal play: a seeded set of whole games, every one under a
different mix of the table's options, that together reach every item, every
way an item acts, every egg effect and every promotion path, with every piece
on the board, captured or hidden by its owner after every action.

The shared harness (tests/random_play.py) checks views, refusals and secrets
at every step of a few long walks; this walker checks only the rules, so that
it can afford enough games to meet every effect. `python -m tests.test_chakart_random`
prints the figures (games, actions, plies, effects reached, pieces conserved)."""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

from companion.fairness import EMPTY_POOL, TableRng
from companion.games import get_game
from companion.games.chakart.board import kind
from companion.games.chakart.effects import EGG_EFFECTS
from companion.games.chakart.turn import PROMOTIONS
from tests.random_play import chakart_invariants

GAME = get_game("chakart")
SEATS = [{"id": 1, "name": "Ana", "figures": []}, {"id": 2, "name": "Bo", "figures": []}]
GAMES = 32  # every effect below met at least twice (about 15 s on the 2-core machine)
MAX_ACTIONS = 2500
# Pawns one step from a last rank of eggs: promotions on an egg (Daisy's among them) in a few moves.
EGG_RALLY = "eeeeeeee/PPPPPPPP/8/3k4/8/4K3/pppppppp/eeeeeeee"
# Two queens on an open board: a stealth move, then the other side's onto her hidden square.
QUEENS = "r2qk2r/8/8/8/8/8/8/R2QK2R"
# Eggs everywhere: Bowser and King Boo in the same few turns.
EGG_FIELD = "rn2k1nr/pppppppp/eeeeeeee/eeeeeeee/eeeeeeee/eeeeeeee/PPPPPPPP/RN2K1NR"
OPTION_MIX = (
    {"start": "standard"},
    {"start": "random", "eggs": "applicable"},
    {"start": "mirrored", "redirect": "free", "leftovers": "none"},
    {"start": "random", "no_move": "lose", "redirect": "free"},
    {"position": [EGG_RALLY]},
    {"position": [QUEENS], "no_move": "lose"},
    {"position": [QUEENS], "redirect": "free", "leftovers": "none"},
    {"position": [EGG_FIELD], "eggs": "applicable"},
)
# What the games together must reach (the book's items and effects, and how a pawn is promoted).
ITEMS = ("mushroom", "egg", "banana", "bomb")
ITEM_EFFECTS = ("banana redirect", "bomb redirect", "redirect capture", "mushroom step", "mushroom jump",
                "mushroom jump capture", "hidden queen captured", "stealth", "stealth onto the hidden queen", "shell",
                "no item left", "King Boo moves a piece Bowser holds")
PROMOTION_PATHS = ("by a step", "carried by an item", "then Daisy's move")


@dataclass
class Tally:
    games: int = 0
    actions: int = 0
    plies: int = 0
    conserved: int = 0  # actions after which every piece was on the board, captured or hidden
    items: Counter = field(default_factory=Counter)
    effects: Counter = field(default_factory=Counter)
    eggs: Counter = field(default_factory=Counter)
    promotions: Counter = field(default_factory=Counter)
    endings: Counter = field(default_factory=Counter)

    def missing(self) -> list[str]:
        wanted = ([f"item {name}" for name in ITEMS if not self.items[name]]
                  + [f"effect {name}" for name in ITEM_EFFECTS if not self.effects[name]]
                  + [f"egg {name}" for name in EGG_EFFECTS if not self.eggs[name]]
                  + [f"promotion to {piece}" for piece in PROMOTIONS if not self.promotions[piece]]
                  + [f"promotion {path}" for path in PROMOTION_PATHS if not self.promotions[path]])
        return wanted


def material(state: dict) -> int:
    """Every piece: on the board, captured, or hidden by its owner (the stealth queen)."""
    hidden = sum(1 for data in state["private"].values() if "stealth" in data)
    return len(state["pieces"]) + len(state["captured"]["w"]) + len(state["captured"]["b"]) + hidden


def hidden_squares(state: dict) -> list[str]:
    return [data["stealth"] for data in state["private"].values() if "stealth" in data]


def pick(state: dict, listed: list[tuple[int, dict]], picker: random.Random) -> tuple[int, dict]:
    """An action type first, then one of its actions (as the shared harness picks), but the rare cases
    first: a stealth move onto the other side's hidden queen (the walker may know what a player cannot:
    it looks for the rule), else half the time an open move onto her; King Boo's swap with a piece
    Bowser holds; a stealth move one time in five; a pawn move half the time, so that pawns reach the
    last rank in a short game."""
    hidden = hidden_squares(state)
    onto_her = [(seat, a) for seat, a in listed if a["type"] in ("move", "stealth") and a["to"] in hidden]
    secretly = [(seat, a) for seat, a in onto_her if a["type"] == "stealth"]
    if secretly or (onto_her and picker.random() < 0.5):
        return picker.choice(secretly or onto_her)
    held = [(seat, a) for seat, a in listed if a["type"] == "swap" and a["with"] in state["immobile"]]
    if held:
        return picker.choice(held)
    stealthy = [(seat, a) for seat, a in listed if a["type"] == "stealth"]
    if stealthy and picker.random() < 0.2:
        return picker.choice(stealthy)
    pawn_moves = [(seat, a) for seat, a in listed if a["type"] == "move" and a.get("pawn")]
    if pawn_moves and picker.random() < 0.5:
        return picker.choice(pawn_moves)
    kinds = sorted({action["type"] for _, action in listed})
    chosen = picker.choice(kinds)
    return picker.choice([(seat, action) for seat, action in listed if action["type"] == chosen])


def listed_actions(state: dict) -> list[tuple[int, dict]]:
    found = []
    for seat in (1, 2):
        for action in GAME.legal_actions(state, seat):
            pawn = action["type"] == "move" and kind(state["pieces"][action["from"]]) == "p"
            found.append((seat, {**action, "pawn": True} if pawn else action))
    return found


def count(tally: Tally, state: dict, before: dict, action: dict, events: list[dict]) -> None:
    for event in events:
        for step in event.get("steps") or []:
            count_step(tally, step)
        if event["type"] == "stealth":
            tally.effects["stealth"] += 1
    if action["type"] == "stealth" and action["to"] in hidden_squares(before):
        tally.effects["stealth onto the hidden queen"] += 1
    if action["type"] == "swap" and action["with"] in before["immobile"]:
        tally.effects["King Boo moves a piece Bowser holds"] += 1
    if action["type"] == "promote":
        tally.promotions[action["piece"]] += 1
        if before["pending"].get("then") == "again":
            tally.promotions["then Daisy's move"] += 1
        carried = any(step["kind"] in ("redirect", "mushroom") and step.get("to")
                      for step in before["report"]["steps"])
        tally.promotions["carried by an item" if carried else "by a step"] += 1


def count_step(tally: Tally, step: dict) -> None:
    what = step["kind"]
    if what == "item":
        tally.items[{"m": "mushroom", "e": "egg", "d": "banana", "w": "bomb"}[step["item"]]] += 1
    elif what == "redirect" and step["to"]:
        tally.effects[f"{step['item']} redirect"] += 1
    elif what == "mushroom" and step["to"]:
        tally.effects["mushroom jump" if step.get("over") else "mushroom step"] += 1
    elif what == "egg" and step["applies"]:
        tally.eggs[step["effect"]] += 1
    elif what == "capture" and step.get("hidden"):
        tally.effects["hidden queen captured"] += 1
    elif what in ("shell", "no_drop"):
        tally.effects["shell" if what == "shell" else "no item left"] += 1


def count_captures_by_items(tally: Tally, events: list[dict]) -> None:
    """A capture right after a redirect or a mushroom jump: the item carried the piece onto an enemy."""
    for event in events:
        previous = None
        for step in event.get("steps") or []:
            if step["kind"] == "capture" and previous and previous.get("to") == step["square"]:
                if previous["kind"] == "redirect":
                    tally.effects["redirect capture"] += 1
                elif previous["kind"] == "mushroom" and previous.get("over"):
                    tally.effects["mushroom jump capture"] += 1
            previous = step


def play_one(tally: Tally, number: int) -> None:
    options = {**OPTION_MIX[number % len(OPTION_MIX)], "colours": "first"}
    rng = TableRng(seed=f"{number:064x}", pool=EMPTY_POOL, next_n=0)
    picker = random.Random(number)
    state = GAME.setup(GAME.normalize_options(options), SEATS, rng)
    pieces = material(state)
    for _ in range(MAX_ACTIONS):
        outcome = GAME.outcome(state)
        if outcome is not None:
            tally.endings[outcome["reason"]] += 1
            break
        seat, action = pick(state, listed_actions(state), picker)
        action = {key: value for key, value in action.items() if key != "pawn"}
        before = state
        state, events = GAME.apply(state, seat, action, rng)
        tally.actions += 1
        tally.plies += state["ply"] - before["ply"]
        assert material(state) == pieces, f"game {number}: a piece vanished or appeared on {action}: {events}"
        chakart_invariants(state, events)  # no square holds a piece and an item, nor a piece and a hidden queen
        tally.conserved += 1
        count(tally, state, before, action, events)
        count_captures_by_items(tally, events)
    else:
        tally.endings["unfinished"] += 1
    tally.games += 1


def play_all(games: int = GAMES) -> Tally:
    tally = Tally()
    for number in range(games):
        play_one(tally, number)
    return tally


def test_random_games_reach_every_item_every_effect_and_every_promotion_with_no_piece_lost():
    tally = play_all()
    assert tally.games == GAMES and tally.conserved == tally.actions
    assert tally.missing() == []
    assert tally.endings["unfinished"] == 0, tally.endings


def test_a_seeded_game_is_played_again_the_same():
    first, second = Tally(), Tally()
    play_one(first, 5)
    play_one(second, 5)
    assert (first.actions, first.items, first.eggs) == (second.actions, second.items, second.eggs)


if __name__ == "__main__":
    started = time.perf_counter()
    figures = play_all(int(sys.argv[1]) if len(sys.argv) > 1 else GAMES)
    print(f"{figures.games} games, {figures.actions} actions, {figures.plies} plies, "
          f"{time.perf_counter() - started:.1f} s")
    print(f"pieces conserved after {figures.conserved} of {figures.actions} actions")
    print("items:", dict(figures.items))
    print("effects:", dict(figures.effects))
    print("eggs:", dict(figures.eggs))
    print("promotions:", dict(figures.promotions))
    print("endings:", dict(figures.endings))
    print("missing:", figures.missing())
