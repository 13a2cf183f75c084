"""Dice: a shared die that any seat may roll.

The die is a d4, d6, d8, d10, d12 or d20, or a custom list of faces; a roll
throws ``count`` such dice at once. The state keeps the last ten rolls for the
screens; the table log keeps every one of them.
"""

from __future__ import annotations

from companion.games.base import N_, Draw, DrawKind, Game, IllegalAction, Option, declare_draws, register
from companion.games.kernel import Move, Phase, Rules

STANDARD_DICE = ("d4", "d6", "d8", "d10", "d12", "d20")
HISTORY_KEPT = 10  # every view carries it: enough for the screens, small on the wire


def faces_of(options: dict) -> list[str]:
    if options["die"] == "custom":
        return list(options["faces"])
    sides = int(options["die"][1:])
    return [str(value) for value in range(1, sides + 1)]


def check_options(options: dict) -> None:
    if options["die"] == "custom" and len(options["faces"]) < 2:
        raise IllegalAction(N_("A custom die needs at least 2 faces."))


def setup(options: dict, seats: list[dict], rng) -> dict:
    return {"phase": "rolling", "outcome": None, "die": options["die"], "faces": faces_of(options),
            "count": options["count"], "rolls": 0, "history": []}


def roll(state: dict, seat: int, action: dict, rng) -> list[dict]:
    faces = state["faces"]
    values = [rng.randint(1, len(faces), Draw("die_roll", die=state["die"], seat=seat)) for _ in range(state["count"])]
    roll = {"seat": seat, "number": state["rolls"] + 1, "values": values,
            "faces": [faces[value - 1] for value in values]}
    state["rolls"] = roll["number"]
    state["history"] = ([roll] + state["history"])[:HISTORY_KEPT]
    return [{"type": "rolled", **roll}]


def render(state: dict, seat: int | None) -> dict:
    # Nothing about a shared die is secret: every seat sees the same thing.
    return {"die": state["die"], "faces": state["faces"], "count": state["count"],
            "rolls": state["rolls"], "last": state["history"][0] if state["history"] else None,
            "history": state["history"]}


# Any seat rolls at any time, and the die never ends: one phase, nobody waited on.
RULES = Rules(
    moves={"roll": Move(run=roll)},
    phases={"rolling": Phase(moves=("roll",), label=N_("rolling the die"), waits=False)},
    render=render,
)

declare_draws("dice", die_roll=DrawKind(("die", "seat"), N_("roll of the die %(die)s by %(seat)s")))

GAME = register(Game(
    id="dice",
    title=N_("Dice"),
    min_seats=1,
    max_seats=12,
    options=(
        Option("die", N_("Die"), "choice", "d6", choices=STANDARD_DICE + ("custom",),
               choice_labels=STANDARD_DICE + (N_("Custom faces"),)),  # "d6" reads the same in French
        Option("faces", N_("Custom faces"), "list", [], max_items=100, max_length=24),
        Option("count", N_("Dice per roll"), "int", 1, minimum=1, maximum=6),
    ),
    setup=setup,
    starts_at_once=True,
    uses_figures=False,  # a shared die: the screens offer no figures
    check_options=check_options,
    **RULES.hooks(),
))
