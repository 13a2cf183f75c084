"""The rules of the duel that the companion keeps (the rule book's words in
French where they name a rule), as checks and their effects.

Every check raises `Broken` (an `IllegalAction` naming the rule) when the
action breaks a rule of the book; an action that carries ``"override": true``
("a card allows it": the book's first rule, « TOUTES les règles du jeu sont
écrasées par les capacités des cartes ») goes through instead, and the rules
it broke are logged and shown to the opponent. Checks that are not rules of
the game (a card that is not in play, a malformed field) cannot be overridden.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from companion.games.base import N_, IllegalAction, Msg

STAR_PRICE = 20
STARS_TO_WIN = 3
REFILL_COINS = 6
MAX_COPIES = 4  # « Un deck ne peut pas contenir plus de 4 cartes de même nom »
CARD_KINDS = ("character", "action", "event", "terrain", "powerup")
# Where a card of the player's asks to act: the phases that otherwise pass by themselves, and the damage.
MOMENTS = ("start", "refill", "draw", "end", "damage")
MAX_VALUE = 999  # costs, PC and PF printed on a card stay far below this
MAX_TEXT = 40


class Broken(IllegalAction):
    """A rule of the book says no; a card may allow it (``override``)."""

    def __init__(self, rule: str, message: str, **params: Any):
        super().__init__(message, **params)
        self.rule = rule


def enforce(action: dict, broken: list | None, rule: str, allowed: bool, message: str, **params: Any) -> None:
    """Refuses unless ``allowed``, or the action overrides the rule (then ``broken`` collects it)."""
    if allowed:
        return
    if action.get("override") is True:
        if broken is not None:
            broken.append(rule)
        return
    raise Broken(rule, message, **params)


def overriding_card(action: dict) -> str | None:
    """The card that allows what the rules forbid, as the player names it (``by_card``), if named."""
    if action.get("by_card") is None:
        return None
    return clean_text(action["by_card"], Msg(N_("name")))


def overrides(seat: int, broken: list[str], action: dict) -> list[dict]:
    """The event that tells the opponent a card allowed what the rules forbid, and which card."""
    if not broken:
        return []
    return [{"type": "override", "seat": seat, "rules": broken, "card": overriding_card(action)}]


def other(state: dict, seat: int) -> int:
    return next(s for s in state["order"] if s != seat)


def player(state: dict, seat: int) -> dict:
    return state["players"][str(seat)]


def global_turn(state: dict) -> int:
    """A global turn is both players' turns: turns 1-2 are global turn 1."""
    return (state["turn"] + 1) // 2


def card_in_play(state: dict, card_id: Any) -> dict:
    card = next((c for c in state["in_play"] if c["id"] == card_id), None)
    if card is None:
        raise IllegalAction(N_("There is no such card in play."))
    return card


def same_name(first: str, second: str) -> bool:
    return fold(first) == fold(second)


def fold(name: str) -> str:
    """Names compare without case or accents (« Goomba » is « goomba »)."""
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(char for char in decomposed if not unicodedata.combining(char)).casefold().strip()


# Cards entered from the phone -------------------------------------------------
def clean_text(value: Any, field: str) -> str:
    if not isinstance(value, str) or not 0 < len(value.strip()) <= MAX_TEXT:
        raise IllegalAction(N_("The card's %(field)s must be text of 1 to %(length)s characters."),
                            field=field, length=MAX_TEXT)
    if any(unicodedata.category(char) in ("Cc", "Cf") for char in value):
        raise IllegalAction(N_("The card's %(field)s cannot contain control characters."), field=field)
    return value.strip()


def clean_number(value: Any, field: str, low: int = 0) -> int:
    if type(value) is not int or not low <= value <= MAX_VALUE:
        raise IllegalAction(N_("The card's %(field)s must be a whole number from %(low)s to %(high)s."),
                            field=field, low=low, high=MAX_VALUE)
    return value


def clean_words(value: Any, field: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > 7:
        raise IllegalAction(N_("The card's %(field)s must be a list of at most 7 words."), field=field)
    return [clean_text(word, field) for word in value]


def printed_card(raw: Any) -> dict:
    """A card as printed, typed on the phone: what the companion needs of it."""
    if not isinstance(raw, dict):
        raise IllegalAction(N_("The action needs the card as printed (an object)."))
    kind = raw.get("kind", "character")
    if kind not in CARD_KINDS:
        raise IllegalAction(N_("A card is a character, an action, an event, a terrain or a power-up."))
    card = {"kind": kind, "name": clean_text(raw.get("name"), Msg(N_("name"))),
            "cost": clean_number(raw.get("cost"), Msg(N_("cost"))),
            "colours": clean_words(raw.get("colours"), Msg(N_("colours"))),
            "types": clean_words(raw.get("types"), Msg(N_("types")))}
    card["hero"] = raw.get("hero") is True or any(same_name(t, "Héros") or same_name(t, "Hero") for t in card["types"])
    # The name in the other language, to find the card again from a few letters either way.
    card["other_name"] = clean_text(raw["other_name"], Msg(N_("name"))) if raw.get("other_name") else None
    card["stops"] = moments(raw.get("stops"))
    if kind == "character":
        card["base_pf"] = card["pf"] = clean_number(raw.get("pf"), Msg(N_("PF")))
        card["max_pc"] = card["pc"] = clean_number(raw.get("pc"), Msg(N_("PC")), low=1)
    return card


def moments(value: Any) -> list[str]:
    """A card's (or a player's) moments to stop at: some of `MOMENTS`."""
    if value is None:
        return []
    if not isinstance(value, list) or any(moment not in MOMENTS for moment in value):
        raise IllegalAction(N_("A card asks to act at the start, the refill, the draw, the end or the damage."))
    return [moment for moment in MOMENTS if moment in value]


def check_deck_list(names: Any) -> list[str]:
    """At most 4 cards of the same name, whatever their variant (« 2 Goombas verts et 3 Goombas marrons »: 5 Goombas)."""
    if not isinstance(names, list) or not 0 < len(names) <= 200:
        raise IllegalAction(N_("A deck list is a list of 1 to 200 card names."))
    cleaned = [clean_text(name, Msg(N_("name"))) for name in names]
    counts: dict[str, int] = {}
    for name in cleaned:
        counts[fold(name)] = counts.get(fold(name), 0) + 1
    spelled = {}  # one name per group, as first typed
    for name in cleaned:
        spelled.setdefault(fold(name), name)
    over = sorted(key for key, count in counts.items() if count > MAX_COPIES)
    if over:
        raise IllegalAction(N_("A deck holds at most 4 cards of the same name: %(names)s."),
                            names=", ".join(f"{spelled[key]} ×{counts[key]}" for key in over))
    return cleaned
