"""What the moves of both roles share: who plays, whose turn it is, the dice in hand, the end."""

from __future__ import annotations

from companion.games.arkade.constants import ALIEN, DEFENDER, PER_COLOUR
from companion.games.base import HOST, N_, IllegalAction, require_fields


def other(role: str) -> str:
    return DEFENDER if role == ALIEN else ALIEN


def role_of(state: dict, seat) -> str:
    for role, owner in state["roles"].items():
        if owner == seat and seat is not None:
            return role
    raise IllegalAction(N_("Only the Alien and the Defender play Arkade."))


def actor_of(state: dict, seat) -> str:
    """The seat's role, or HOST for the host screen."""
    return HOST if seat == HOST else role_of(state, seat)


def action_time(action: dict) -> float | None:
    """The shell's time stamp of the action (seconds); None when it gave none (tests of other rules)."""
    at = action.get("at")
    return float(at) if isinstance(at, (int, float)) and not isinstance(at, bool) else None


def check_turn(state: dict, role: str) -> None:
    if state["mode"] == "strategie" and state["active"] != role:
        raise IllegalAction(N_("It is %(name)s's turn."), name=state["names"][state["active"]])


def require_dice(state: dict, role: str) -> None:
    if not state["dice"][role]:
        raise IllegalAction(N_("Throw your dice first."))


def settle(state: dict, role: str) -> None:
    """In Stratégie a used result ends the throwing: only the last throw counts."""
    if state["mode"] == "strategie":
        state["settled"][role] = True


def require_colour(state: dict, action: dict) -> str:
    require_fields(action, colour=str)
    if action["colour"] not in state["colours"]:
        raise IllegalAction(N_("Saucers are %(choices)s."), choices=", ".join(state["colours"]))
    return action["colour"]


def require_flag(action: dict, name: str) -> None:
    if name in action:
        require_fields(action, **{name: bool})


def win(state: dict, role: str, how: str) -> None:
    state["winner"], state["won_by"], state["active"] = role, how, None


def defender_wins_if_board_empty(state: dict) -> list[dict]:
    """Every saucer is off the board, and no repair can bring one back: the Defender wins."""
    pending = state["pending"]
    if sum(state["saucers"]["on_board"].values()) or (pending and pending["kind"] == "repair"):
        return []
    win(state, DEFENDER, "saucers")
    return [{"type": "won", "winner": DEFENDER}]


def heart_unknown(state: dict, colour: str) -> bool:
    """Some saucers of that colour show their heart and some do not: only the board can tell which."""
    saucers = state["saucers"]
    return 0 < saucers["extra_lives"][colour] < saucers["on_board"][colour]


def heart_of(state: dict, colour: str, action: dict) -> tuple[bool, bool]:
    """Whether the saucer showed its heart, and whether the heart counter had to follow the board."""
    saucers = state["saucers"]
    hearts, plain = saucers["extra_lives"][colour], saucers["on_board"][colour] - saucers["extra_lives"][colour]
    extra_life = action.get("extra_life", hearts > 0 and plain == 0)
    if extra_life and hearts == 0:
        saucers["extra_lives"][colour] += 1  # it showed a heart the counters missed
        return True, True
    if not extra_life and plain == 0:
        saucers["extra_lives"][colour] -= 1  # it showed no heart, though the counters said so
        return False, True
    return extra_life, False


def check_saucer_declared(state: dict, action: dict, colour: str) -> None:
    """A hit or a sacrifice names a saucer on the board and, when the counters cannot tell, its heart."""
    require_flag(action, "extra_life")
    if state["saucers"]["on_board"][colour] == 0:
        raise IllegalAction(N_("No %(colour)s saucer is left on the board: correct the counters if the board "
                               "says otherwise."), colour=colour)
    if "extra_life" not in action and heart_unknown(state, colour):
        raise IllegalAction(N_("Say whether the %(colour)s saucer showed its heart."), colour=colour)


def saucer_candidates(state: dict, seat) -> list[dict]:
    return [{"colour": c, "extra_life": life} for c in state["colours"] for life in (False, True)]


def repairable_colours(state: dict) -> list[str]:
    """Colours with fewer saucers on the board than at the start: one lies in the discard."""
    return [c for c in state["colours"] if state["saucers"]["on_board"][c] < PER_COLOUR]
