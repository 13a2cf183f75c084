"""Cards in play and the counters: playing a card, abilities, PC and PF,
coins, Super Stars, sacrifices, the deck."""

from __future__ import annotations

from typing import Any

from companion.games.base import N_, IllegalAction, Msg
from companion.games.universalis.rules import (
    STAR_PRICE, STARS_TO_WIN, card_in_play, check_deck_list, clean_text, enforce, fold, moments, overriding_card,
    overrides, player, printed_card, same_name,
)

PREPARATION = ("prep1", "prep2")
MAX_DELTA = 999
CATALOGUE_KEPT = 200  # cards typed this evening, offered by name


def is_active(state: dict, seat: Any) -> bool:
    return seat == state["active"]


# Playing a card -------------------------------------------------------------
def check_play(state: dict, seat: int, action: dict, broken: list | None = None) -> None:
    card = printed_card(action.get("card"))
    overriding_card(action)
    if action.get("free") is True:
        # « "Mettre en jeu" une carte, c'est la poser sur le plateau de jeu » and « si on vous demande de mettre
        # une carte en jeu, c'est gratuit » : a card's effect, at the card's moment; not the turn's played Character.
        return
    defending = state["phase"] == "blockers" and seat != state["active"]
    enforce(action, broken, "when", is_active(state, seat) and state["phase"] in PREPARATION
            or defending and card["kind"] == "action",
            N_("Cards are played in your preparation phases; Action cards also while you declare blockers."))
    if card["kind"] == "character":
        enforce(action, broken, "one_character", state["this_turn"]["characters"] < 1,
                N_("Only one Character can be played per turn."))
    enforce(action, broken, "coins", player(state, seat)["coins"] >= card["cost"],
            N_("Not enough coins: this card costs %(cost)s and you have %(coins)s."),
            cost=card["cost"], coins=player(state, seat)["coins"])
    # « Le joueur peut jouer des cartes de sa main » : one of the five zones, whose count the phone keeps
    hand = player(state, seat).get("hand")
    enforce(action, broken, "from_hand", hand is None or hand > 0,
            N_("Cards are played from your hand and it holds none (correct its count under My deck if it is wrong)."))


def play(state: dict, seat: int, action: dict, rng) -> list[dict]:
    broken: list[str] = []
    check_play(state, seat, action, broken)
    card = printed_card(action["card"])
    remember(state, card)
    free = action.get("free") is True
    from_hand(state, seat)
    if not free:  # « "Jouer une carte" signifie "Payer son coût et la mettre en jeu" »
        player(state, seat)["coins"] -= card["cost"]
        if card["kind"] == "character":
            state["this_turn"]["characters"] += 1
    events = overrides(seat, broken, action) + [{"type": "put_into_play" if free else "played", "seat": seat,
                                                 "name": card["name"], "kind": card["kind"],
                                                 "cost": 0 if free else card["cost"]}]
    if card["kind"] == "action":  # used at once, then to the graveyard (the book is silent)
        player(state, seat)["graveyard"].append(card["name"])
        return events
    entered = {**card, "id": state["next_card"], "owner": seat, "controller": seat, "used": []}
    state["next_card"] += 1
    state["in_play"].append(entered)
    return events + apply_hero_rule(state, entered)


def from_hand(state: dict, seat: int) -> None:
    """A card played (or put into play, as Régime de Bananes puts « un Personnage de votre main ») leaves
    the hand; the count never goes below 0 (a card put into play from elsewhere). A duel saved before the
    hand was counted has no count."""
    me = player(state, seat)
    if me.get("hand") is not None:
        me["hand"] = max(0, me["hand"] - 1)


def to_hand(state: dict, seat: int) -> None:
    me = player(state, seat)
    if me.get("hand") is not None:
        me["hand"] += 1


def catalogue_key(card: dict) -> tuple:
    """Two printings may share a name (the two Goombas, #36 and #37): a card is its name and its numbers."""
    return fold(card["name"]), card["kind"], card["cost"], card.get("pf"), card.get("max_pc")


def remember(state: dict, card: dict) -> None:
    """The evening's cards: typed once, then picked by name (the table carries them to the next game)."""
    kept = {key: card[key] for key in ("kind", "name", "other_name", "cost", "types", "colours", "hero", "stops")}
    if card["kind"] == "character":
        kept.update(pf=card["base_pf"], pc=card["max_pc"])
    key = catalogue_key({**kept, "max_pc": kept.get("pc")})
    # (a duel started before the evening's cards were kept has none yet)
    others = [c for c in state.get("catalogue", []) if catalogue_key({**c, "max_pc": c.get("pc")}) != key]
    state["catalogue"] = (others + [kept])[-CATALOGUE_KEPT:]


def check_hero(state: dict, seat: int, action: dict) -> None:
    card_in_play(state, action.get("card"))


def becomes_hero(state: dict, seat: int, action: dict, rng) -> list[dict]:
    """« Si une carte devient de type Héros pendant la partie, la même règle s'applique, même si les autres de
    même nom ne sont pas des Héros »."""
    card = card_in_play(state, action["card"])
    card["hero"] = True
    return [{"type": "became_hero", "seat": seat, "card": card["id"], "name": card["name"]}] + apply_hero_rule(state, card)


def check_card_stops(state: dict, seat: int, action: dict) -> None:
    card_in_play(state, action.get("card"))
    moments(action.get("stops"))


def set_card_stops(state: dict, seat: int, action: dict, rng) -> list[dict]:
    """Where this card asks its controller to act: those phases then wait for them instead of passing."""
    card = card_in_play(state, action["card"])
    card["stops"] = moments(action["stops"])
    return [{"type": "card_stops", "seat": seat, "card": card["id"], "name": card["name"], "stops": card["stops"]}]


def apply_hero_rule(state: dict, entered: dict) -> list[dict]:
    """« si un Héros arrive en jeu alors qu'une (ou plusieurs) autre carte ayant le même nom est
    également en jeu, elles sont retirées de la partie » — all of them, out of the game, not to the graveyard."""
    namesakes = [c for c in state["in_play"] if same_name(c["name"], entered["name"])]
    if not (len(namesakes) > 1 and any(c["hero"] for c in namesakes)):
        return []
    for card in namesakes:
        state["in_play"].remove(card)
        player(state, card["owner"])["removed"].append(card["name"])
    return [{"type": "hero_rule", "name": entered["name"], "cards": [c["id"] for c in namesakes]}]


# Abilities ------------------------------------------------------------------
def check_ability(state: dict, seat: int, action: dict, broken: list | None = None) -> None:
    card = card_in_play(state, action.get("card"))
    if type(action.get("ability")) is not int or not 1 <= action["ability"] <= 4:
        raise IllegalAction(N_("Say which ability of the card: 1 to 4."))
    enforce(action, broken, "own_card", card["controller"] == seat, N_("You can only use the abilities of your own cards."))
    defending = state["phase"] == "blockers" and seat != state["active"]
    enforce(action, broken, "when", is_active(state, seat) and state["phase"] in PREPARATION or defending,
            N_("Abilities are used in your preparation phases, or while you declare blockers."))
    enforce(action, broken, "once_per_turn", action["ability"] not in card["used"],
            N_("Each ability of a card can be used once per turn."))


def use_ability(state: dict, seat: int, action: dict, rng) -> list[dict]:
    broken: list[str] = []
    check_ability(state, seat, action, broken)
    card = card_in_play(state, action["card"])
    card["used"].append(action["ability"])
    return overrides(seat, broken, action) + [{"type": "ability", "seat": seat, "card": card["id"],
                                              "name": card["name"], "ability": action["ability"]}]


# PC, PF and leaving play -------------------------------------------------------
CHANGES = ("pc", "max_pc", "pf", "base_pf")


def deltas(action: dict) -> dict[str, int]:
    found = {name: action[name] for name in CHANGES if name in action}
    if not found or any(type(v) is not int or not -MAX_DELTA <= v <= MAX_DELTA or v == 0 for v in found.values()):
        raise IllegalAction(N_("Say by how much PC, max PC, PF or base PF change (a whole number, not 0)."))
    return found


def check_change(state: dict, seat: int, action: dict, broken: list | None = None) -> None:
    card = card_in_play(state, action.get("card"))
    if card["kind"] != "character":
        raise IllegalAction(N_("Only Characters have PC and PF."))
    deltas(action)


def change(state: dict, seat: int, action: dict, rng) -> list[dict]:
    """A card's effect on a Character: PC never above max nor below 0 (KO at 0); PF never below 0;
    a base PF change lasts, a PF change lasts until the end of the turn."""
    card = card_in_play(state, action["card"])
    for name, delta in deltas(action).items():
        if name in ("max_pc", "base_pf"):
            card[name] = max(0, card[name] + delta)
            if name == "base_pf":
                card["pf"] = max(0, card["pf"] + delta)
        else:
            card[name] = max(0, card[name] + delta)
    card["pc"] = min(card["pc"], card["max_pc"])
    events = [{"type": "changed", "seat": seat, "card": card["id"], "name": card["name"], **deltas(action),
               "now": {name: card[name] for name in CHANGES}}]
    return events + knock_out(state, [card])


def knock_out(state: dict, cards: list[dict]) -> list[dict]:
    """Characters at 0 PC go to their owner's graveyard."""
    events = []
    for card in cards:
        if card["kind"] == "character" and card["pc"] == 0 and card in state["in_play"]:
            state["in_play"].remove(card)
            player(state, card["owner"])["graveyard"].append(card["name"])
            events.append({"type": "ko", "card": card["id"], "name": card["name"], "owner": card["owner"]})
    return events


def asking_card(action: dict) -> str | None:
    """The card that asks for a sacrifice (by a cost or an ability's effect), as the player names it."""
    if action.get("asked_by") in (None, ""):
        return None
    return clean_text(action["asked_by"], Msg(N_("name")))


def check_sacrifice(state: dict, seat: int, action: dict, broken: list | None = None) -> None:
    card = card_in_play(state, action.get("card"))
    enforce(action, broken, "own_sacrifice", card["controller"] == seat,
            N_("You can only sacrifice cards you control."))
    # « il n'est possible de sacrifier une carte que si une autre carte nous le demande, par un coût ou par
    # l'effet d'une capacité » : the companion cannot read that card, so its player names it.
    enforce(action, broken, "asked_sacrifice", asking_card(action) is not None,
            N_("A card is sacrificed only when another card asks for it: say which card asks."))


def sacrifice(state: dict, seat: int, action: dict, rng) -> list[dict]:
    broken: list[str] = []
    check_sacrifice(state, seat, action, broken)
    card = card_in_play(state, action["card"])
    state["in_play"].remove(card)
    player(state, card["owner"])["graveyard"].append(card["name"])
    return overrides(seat, broken, action) + [{"type": "sacrificed", "seat": seat, "card": card["id"],
                                              "name": card["name"], "asked_by": asking_card(action)}]


def check_leave(state: dict, seat: int, action: dict) -> None:
    card_in_play(state, action.get("card"))
    if action.get("to") not in ("graveyard", "removed", "hand"):
        raise IllegalAction(N_("Say where the card goes: graveyard, out of the game or hand."))


def leave(state: dict, seat: int, action: dict, rng) -> list[dict]:
    """A card's effect takes a card out of play (destroyed, removed from the game, back to the hand)."""
    card = card_in_play(state, action["card"])
    state["in_play"].remove(card)
    if action["to"] == "hand":
        to_hand(state, card["owner"])
    else:
        player(state, card["owner"])["graveyard" if action["to"] == "graveyard" else "removed"].append(card["name"])
    return [{"type": "left_play", "seat": seat, "card": card["id"], "name": card["name"], "to": action["to"]}]


# Coins and Super Stars -----------------------------------------------------------
def coins_of(action: dict):
    """Whose coins a card changes: ``of`` (the table keeps ``seat`` for the acting phone's own seat, so a
    phone could not name the other player's coins there); ``seat`` is still read from older clients."""
    return action["of"] if "of" in action else action.get("seat")


def check_coins(state: dict, seat: int, action: dict, broken: list | None = None) -> None:
    target, delta = coins_of(action), action.get("delta")
    if str(target) not in state["players"] or type(target) is not int:
        raise IllegalAction(N_("Say whose coins change."))
    if type(delta) is not int or delta == 0 or abs(delta) > MAX_DELTA:
        raise IllegalAction(N_("Say by how many coins (a whole number, not 0)."))
    enforce(action, broken, "no_debt", player(state, target)["coins"] + delta >= 0,
            N_("Coins cannot go below 0: %(name)s has %(coins)s."), name=state["names"][str(target)],
            coins=player(state, target)["coins"])


def coins(state: dict, seat: int, action: dict, rng) -> list[dict]:
    broken: list[str] = []
    check_coins(state, seat, action, broken)
    target = coins_of(action)
    player(state, target)["coins"] += action["delta"]
    return overrides(seat, broken, action) + [{"type": "coins", "seat": seat, "of": target,
                                              "delta": action["delta"],
                                              "now": player(state, target)["coins"]}]


def check_star(state: dict, seat: int, action: dict, broken: list | None = None) -> None:
    overriding_card(action)
    if action.get("given") is True:  # a card gives a Super Star: nothing is bought, nothing is paid
        return
    enforce(action, broken, "when", is_active(state, seat) and state["phase"] == "prep1",
            N_("A Super Star is bought in your first preparation phase only."))
    enforce(action, broken, "one_star", not state["this_turn"]["star"], N_("Only one Super Star can be bought per turn."))
    enforce(action, broken, "coins", player(state, seat)["coins"] >= STAR_PRICE,
            N_("A Super Star costs 20 coins and you have %(coins)s."), coins=player(state, seat)["coins"])


def buy_star(state: dict, seat: int, action: dict, rng) -> list[dict]:
    broken: list[str] = []
    check_star(state, seat, action, broken)
    me = player(state, seat)
    given = action.get("given") is True
    if not given:
        me["coins"] = max(0, me["coins"] - STAR_PRICE)
        state["this_turn"]["star"] = True
    me["stars"] += 1
    return overrides(seat, broken, action) + [{"type": "star", "seat": seat, "stars": me["stars"], "given": given,
                                               "card": overriding_card(action),
                                               "wins": me["stars"] >= STARS_TO_WIN}]


# The deck ----------------------------------------------------------------------
def draw_card(state: dict, seat: int) -> list[dict]:
    """« Si un joueur devrait piocher une carte alors que son deck est vide, il perd la partie »:
    an empty deck alone loses nothing, drawing from it does."""
    me = player(state, seat)
    if me["deck"] == 0:
        me["decked"] = True
        return [{"type": "drew_from_empty_deck", "seat": seat}]
    me["deck"] -= 1
    to_hand(state, seat)
    return [{"type": "drew", "seat": seat, "deck": me["deck"]}]


def draw(state: dict, seat: int, action: dict, rng) -> list[dict]:
    """A card's effect makes a player draw."""
    return draw_card(state, seat)


def check_deck_count(state: dict, seat: int, action: dict) -> None:
    if type(action.get("count")) is not int or not 0 <= action["count"] <= 200:
        raise IllegalAction(N_("A deck holds 0 to 200 cards."))


def set_deck_count(state: dict, seat: int, action: dict, rng) -> list[dict]:
    """A correction (a card shuffled back, a miscount): the count the player reads on the table."""
    player(state, seat)["deck"] = action["count"]
    return [{"type": "deck_counted", "seat": seat, "deck": action["count"]}]


def check_hand_count(state: dict, seat: int, action: dict) -> None:
    if type(action.get("count")) is not int or not 0 <= action["count"] <= 200:
        raise IllegalAction(N_("A hand holds 0 to 200 cards."))


def set_hand_count(state: dict, seat: int, action: dict, rng) -> list[dict]:
    """A correction (a card searched from the deck, discarded, a miscount): the count the player holds."""
    player(state, seat)["hand"] = action["count"]
    return [{"type": "hand_counted", "seat": seat, "hand": action["count"]}]


def check_deck_list_action(state: dict, seat: int, action: dict) -> None:
    check_deck_list(action.get("names"))


def enter_deck_list(state: dict, seat: int, action: dict, rng) -> list[dict]:
    """The list stays on its owner's phone (private); the table learns that it was checked, and its size."""
    names = check_deck_list(action["names"])
    state.setdefault("private", {}).setdefault(str(seat), {})["deck_list"] = names
    return [{"type": "deck_checked", "seat": seat, "cards": len(names)}]
