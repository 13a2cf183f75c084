"""Counters that can be corrected: a real board and the companion disagree sometimes, and the win
is decided from the counters. The host corrects at once; a player proposes, the other agrees or
not. Every correction is an event, so the log keeps it, with the counts before and after."""

from __future__ import annotations

from companion.games.arkade.common import defender_wins_if_board_empty, repairable_colours
from companion.games.arkade.constants import NUGGETS_IN_BOX, PER_COLOUR
from companion.games.base import HOST, N_, IllegalAction, require_fields


def current_counts(state: dict) -> dict:
    saucers = state["saucers"]
    return {"saucers": dict(saucers["on_board"]), "hearts": dict(saucers["extra_lives"]), "nuggets": state["nuggets"]}


def corrected_counts(state: dict, action: dict) -> dict:
    """The counters as the correction would leave them (only the fields it names change)."""
    if not any(name in action for name in ("saucers", "hearts", "nuggets")):
        raise IllegalAction(N_("Say which counters to correct: saucers, hearts or nuggets."))
    counts = current_counts(state)
    for name in ("saucers", "hearts"):
        if name in action:
            require_fields(action, **{name: dict})
            for colour, value in action[name].items():
                if colour not in state["colours"] or type(value) is not int:
                    raise IllegalAction(N_("Correct the saucers by colour (%(choices)s), with whole numbers."),
                                        choices=", ".join(state["colours"]))
                counts[name][colour] = value
    if "nuggets" in action:
        require_fields(action, nuggets=int)
        counts["nuggets"] = action["nuggets"]
    check_counts(state, counts)
    return counts


def check_counts(state: dict, counts: dict) -> None:
    for colour in state["colours"]:
        if not 0 <= counts["saucers"][colour] <= PER_COLOUR:
            raise IllegalAction(N_("A colour has 0 to %(count)s saucers on the board."), count=PER_COLOUR)
        if not 0 <= counts["hearts"][colour] <= counts["saucers"][colour]:
            raise IllegalAction(N_("Hearts go from 0 to the number of saucers of that colour on the board."))
    if not 0 <= counts["nuggets"] <= NUGGETS_IN_BOX:
        raise IllegalAction(N_("The Defender holds 0 to %(count)s nuggets."), count=NUGGETS_IN_BOX)
    if counts == current_counts(state):
        raise IllegalAction(N_("These are the counters already: nothing to correct."))


def check_correct(state: dict, role: str, action: dict) -> None:
    corrected_counts(state, action)


def correct(state: dict, role: str, action: dict, rng) -> list[dict]:
    counts = corrected_counts(state, action)
    if role != HOST:
        state["correction"] = {"by": role, "counts": counts}
        return [{"type": "correction_proposed", "by": role, "counts": counts}]
    return set_counts(state, counts, "host")


def correct_candidates(state: dict, seat) -> list[dict]:
    """A correction's counts are the player's to write: the one offered is one nugget more or
    less, an example of the form (the screens show the whole form)."""
    nuggets = state["nuggets"]
    return [{"nuggets": nuggets - 1 if nuggets else nuggets + 1}]


def set_counts(state: dict, counts: dict, by: str) -> list[dict]:
    before = current_counts(state)
    saucers = state["saucers"]
    saucers["corrected"] += sum(counts["saucers"].values()) - sum(before["saucers"].values())
    saucers["on_board"], saucers["extra_lives"] = dict(counts["saucers"]), dict(counts["hearts"])
    state["nuggets"] = counts["nuggets"]
    state["correction"] = None
    pending = state["pending"]
    if pending and pending["kind"] == "repair":  # a corrected count may change what can be repaired
        pending["colours"] = [c for c in pending["colours"] if c in repairable_colours(state)]
        if not pending["colours"]:
            state["pending"] = None
    return [{"type": "corrected", "by": by, "before": before, "after": counts}] + defender_wins_if_board_empty(state)


def check_agree(state: dict, role: str, action: dict) -> None:
    require_fields(action, accept=bool)
    proposal = state["correction"]
    if not proposal or proposal["by"] == role:
        raise IllegalAction(N_("There is no correction of the other player's to answer."))
    if action["accept"] and proposal["counts"] == current_counts(state):
        raise IllegalAction(N_("These are the counters already: nothing to correct."))


def agree(state: dict, role: str, action: dict, rng) -> list[dict]:
    counts = state["correction"]["counts"]
    if not action["accept"]:
        state["correction"] = None
        return [{"type": "correction_refused", "by": role}]
    return set_counts(state, counts, "both")


def agree_candidates(state: dict, seat) -> list[dict]:
    return [{"accept": True}, {"accept": False}]
