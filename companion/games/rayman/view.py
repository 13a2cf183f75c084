"""Rayman: what each screen may see."""

from __future__ import annotations

from companion.games.base import HOST
from companion.games.rayman.choosing import may_bubble, must_bubble
from companion.games.rayman.common import active_seat, positions_known
from companion.games.rayman.constants import LAST_COLUMN, MAX_BONUS, MAX_COLUMN, RACE_PHASES, SETUP_PHASES
from companion.games.rayman.layout import PRIVATE, joined
from companion.games.rayman.questions import question
from companion.games.rayman.round import current_roller
from companion.games.rayman.round_end import free_mover


def render(state: dict, seat) -> dict:
    """What ``seat`` may see: their own hand and tentative choice; of the others, counts only.

    The kernel adds the keys every game shares: ``phase`` and its label, ``legal`` (this viewer's
    legal actions, for its buttons), ``waiting`` and ``outcome``; the screen reads the rules' numbers
    and which part of the game a phase is here, never from copies of its own."""
    # Stripped for this viewer by the kernel (its own cards only) but shared with the state: what the view
    # edits below (the players, the decks' sizes) are fresh dicts, the rest is the state's own, only read.
    shown = joined(state)
    shown.update({  # what the screens would otherwise recompute from the rules
        "you": seat if any(p["seat"] == seat for p in state["players"]) and seat != HOST else None,
        "question": question(state), "active": active_seat(state),
        "roller": current_roller(state) if state["phase"] == "round_start" else None,
        "positions_known": positions_known(state), "free_mover": free_mover(state),
        "setting_up": state["phase"] in SETUP_PHASES, "racing": state["phase"] in RACE_PHASES,
        "last_column": LAST_COLUMN, "max_column": MAX_COLUMN, "max_bonus": MAX_BONUS,
    })
    for player in shown["players"]:
        if player["seat"] != seat or seat == HOST:
            hide_private(player)
        elif state["round"]:  # for the phone's Bubble button (the choice itself stays on the phone)
            player["may_bubble"] = may_bubble(state, player) or must_bubble(player)
    for part in ("draft", "boss"):  # a deck shows its size (its order is in the table's secret)
        if shown[part]:
            shown[part] = {**{key: value for key, value in shown[part].items() if key != "deck_size"},
                           "deck": shown[part]["deck_size"]}
    return shown


def hide_private(player: dict) -> None:
    """Another seat's cards never reach this view (the kernel strips them by layout, see ``layout``):
    their keys stay, empty, so that every screen reads one shape of player."""
    for key in PRIVATE:
        player[key] = None
