"""Rayman: a player's turn, in initiative order: hearts, hits, slaps, Ptizêtres, bonus tokens, crossing."""

from __future__ import annotations

from companion.games.base import IllegalAction, N_, Plural, require_fields
from companion.games.rayman.board import check_may_cross, cross, move_to, pushed_to, require_projectile, take_hit
from companion.games.rayman.common import (active_seat, ended, name_of, player_of, require_own_seat,
                                           require_seat_field, require_turn, rule)
from companion.games.rayman.constants import (BUBBLE_MODE_ADVANCE, HURT_CAUSES, LAST_COLUMN, MAX_BONUS,
                                              MAX_SLAP_DISTANCE)


def enter_turns(state: dict, events: list[dict]) -> None:
    state["round"]["turn"] = 0
    if state["round"]["order"]:
        start_turn(state, events)


def start_turn(state: dict, events: list[dict]) -> None:
    player = player_of(state, active_seat(state))
    player["immune"] = False  # damage immunity lasts until the start of the player's next turn
    state["round"]["offer"] = None  # an exchange happens on the turn of one of its two players
    events.append({"type": "turn_started", "seat": player["seat"], "bubble_mode": player["bubble_mode"]})


def turns_over(state: dict) -> bool:
    return state["round"]["turn"] >= len(state["round"]["order"])


def check_end_turn(state: dict, seat, action: dict) -> None:
    if require_turn(state, seat)["bonus_pending"]:
        raise IllegalAction(N_("Use or discard a bonus token first: you may keep only 4."))


def do_end_turn(state: dict, seat, action: dict, rng) -> list[dict]:
    check_end_turn(state, seat, action)
    player = player_of(state, seat)
    events = [{"type": "turn_ended", "seat": seat}]
    if player["bubble_mode"] and player["position"] is not None:
        pushed_to(state, player, player["position"]["column"] + BUBBLE_MODE_ADVANCE, player["position"]["level"],
                  events)
        if ended(state):
            return events  # the last player in co-op has finished
    state["round"]["turn"] += 1
    if state["round"]["turn"] < len(state["round"]["order"]):
        start_turn(state, events)
    return events


def require_acting(state: dict, seat) -> dict:
    """The player whose turn it is, able to use their cards."""
    player = require_turn(state, seat)
    if player["bubble_mode"]:
        raise IllegalAction(N_("In Bubble mode you cannot use your cards: wait for a slap."))
    if player["bonus_pending"]:
        raise IllegalAction(N_("Use or discard a bonus token first: you may keep only 4."))
    return player


def gives_heart(action: dict, seat) -> bool:
    return "to" in action and action["to"] != seat


def check_heart(state: dict, seat, action: dict) -> None:
    """A heart action: take a heart, or in co-op give one when you already hold one."""
    player = require_acting(state, seat)
    if not gives_heart(action, seat):
        return
    if not rule(state, "gift_hearts"):
        raise IllegalAction(N_("Hearts are given only in co-op."))
    if not player["heart"]:
        raise IllegalAction(N_("Take a heart for yourself first."))
    other = require_seat_field(state, action, "to")
    if other["heart"]:
        raise IllegalAction(N_("%(name)s already has a heart."), name=name_of(state, other["seat"]))


def do_heart(state: dict, seat, action: dict, rng) -> list[dict]:
    check_heart(state, seat, action)
    player = player_of(state, seat)
    if gives_heart(action, seat):
        player_of(state, action["to"])["heart"] = True
        return [{"type": "heart_given", "seat": seat, "to": action["to"]}]
    if player["heart"]:
        return [{"type": "heart", "seat": seat, "gained": False}]
    player["heart"] = True
    return [{"type": "heart", "seat": seat, "gained": True}]


def check_spend_heart(state: dict, seat, action: dict) -> None:
    """The Filou turns their heart into a crouch icon."""
    player = require_acting(state, seat)
    if player["legendary"] != "filou":
        raise IllegalAction(N_("Only the Filou can turn a heart into an action."))
    if not player["heart"]:
        raise IllegalAction(N_("You have no heart."))


def do_spend_heart(state: dict, seat, action: dict, rng) -> list[dict]:
    check_spend_heart(state, seat, action)
    player_of(state, seat)["heart"] = False
    return [{"type": "heart_spent", "seat": seat}]


def check_hurt(state: dict, seat, action: dict) -> dict:
    """The player reports a hit: an enemy not slapped, an obstacle, a wall, a projectile, the Boss."""
    player = require_own_seat(state, seat)
    require_fields(action, cause=str)
    cause = action["cause"]
    if cause not in HURT_CAUSES:
        raise IllegalAction(N_("A hit comes from %(choices)s."), choices=", ".join(HURT_CAUSES))
    if player["crossed"]:
        raise IllegalAction(N_("You have finished the race."))
    if cause == "boss" and not state["boss"]:
        raise IllegalAction(N_("There is no Boss in this race."))
    if cause == "projectile":
        require_projectile(state, action)
    return player


def do_hurt(state: dict, seat, action: dict, rng) -> list[dict]:
    check_hurt(state, seat, action)
    player, cause, events = player_of(state, seat), action["cause"], []
    if cause == "projectile":
        projectile = require_projectile(state, action)
        state["projectiles"].remove(projectile)
        events.append({"type": "projectile_hit", "id": projectile["id"], "seat": seat})
    stopped = wall_stops_push(state, player, events) if cause == "wall" else None
    take_hit(state, player, cause, events, moves=stopped != "back")
    end = state["round"]["end"] if state["phase"] == "round_end" else None
    if end and seat in end["landed"]:
        end["landed"].remove(seat)  # what the final round's ranking waited for (``round_end.landed_unsure``)
    return events


def check_slap(state: dict, seat, action: dict) -> None:
    player = require_acting(state, seat)
    if player["crossed"]:
        raise IllegalAction(N_("Past the finish line you can no longer slap."))
    target = require_seat_field(state, action, "target")
    who = name_of(state, target["seat"])
    if target["seat"] == seat:
        raise IllegalAction(N_("You cannot slap yourself."))
    if target["crossed"]:
        raise IllegalAction(N_("%(name)s has finished the race."), name=who)
    if target["bubble"]:
        raise IllegalAction(N_("%(name)s is in a Bubble: no slap this round."), name=who)
    if target["slapped"] and not state["config"]["unlimited_slaps"]:
        raise IllegalAction(N_("%(name)s has already been slapped this round."), name=who)
    slap_distance(state, player, target)
    if not target["bubble_mode"]:
        push_direction(state, player, target, action)


def do_slap(state: dict, seat, action: dict, rng) -> list[dict]:
    check_slap(state, seat, action)
    player, target = player_of(state, seat), player_of(state, action["target"])
    distance = slap_distance(state, player, target)
    target["slapped"] = True
    slapped = {"type": "slapped", "seat": seat, "target": target["seat"], "distance": distance,
               "slaps": slaps_needed(player, distance)}
    if target["bubble_mode"]:
        target["bubble_mode"] = False  # freed from the Bubble, the figure does not move
        return [slapped, {"type": "bubble_mode", "seat": target["seat"], "on": False}]
    events = [slapped]
    push_slapped(state, player, target, action, events)
    return events


def slap_distance(state: dict, player: dict, target: dict):
    """Spaces between slapper and target, checked against the book when both positions are kept.

    « Utilisez 2 Gifles pour toucher une cible à un espace de distance (à gauche, à droite,
    au-dessus ou en dessous) [...] Vous ne pouvez pas toucher une cible à plus de 3 espaces de
    vous. » Walls and thick platforms between them are the players' to see. None: not known."""
    if player["position"] is None or target["position"] is None:
        return None
    columns = abs(player["position"]["column"] - target["position"]["column"])
    levels = abs(player["position"]["level"] - target["position"]["level"])
    who = name_of(state, target["seat"])
    if columns and levels:
        raise IllegalAction(N_("%(name)s is not in a straight line from you: a slap goes left, right, up or down."),
                            name=who)
    if columns + levels > MAX_SLAP_DISTANCE:
        raise IllegalAction(N_("%(name)s is %(count)s spaces away: a slap reaches at most 3 spaces."),
                            name=who, count=columns + levels)
    return columns + levels


def within_reach(state: dict, player: dict, target: dict) -> bool:
    try:
        slap_distance(state, player, target)
    except IllegalAction:
        return False
    return True


def slaps_needed(player: dict, distance) -> int | None:
    """Slap icons the slap costs: one on the same space, one more per space (the Fracasseur: one per space)."""
    if distance is None:
        return None
    if player["legendary"] == "fracasseur":
        return max(1, distance)
    return distance + 1


def push_direction(state: dict, player: dict, target: dict, action: dict):
    """From behind the target moves forward, from the front back; from above or below, the slapper says.
    None: a position is not kept, the players push the figure on the board."""
    if player["position"] is None or target["position"] is None:
        return None
    mine, theirs = player["position"]["column"], target["position"]["column"]
    if mine != theirs:
        return "forward" if mine < theirs else "back"
    if action.get("direction") not in ("forward", "back"):
        raise IllegalAction(N_("Say whether %(name)s goes forward or back."), name=name_of(state, target["seat"]))
    return action["direction"]


def push_slapped(state: dict, player: dict, target: dict, action: dict, events: list[dict]) -> None:
    """The slapped figure moves one space, onto a free one (``board.pushed_to``); the push is kept for the
    round, so that a wall the companion cannot see undoes it when the player reports it (``wall_stops_push``)."""
    direction = push_direction(state, player, target, action)
    if direction is None:
        return
    before = dict(target["position"])
    step = 1 if direction == "forward" else -1
    pushed_to(state, target, before["column"] + step, before["level"], events)
    state["round"].setdefault("pushes", {})[str(target["seat"])] = {
        "from": before, "to": dict(target["position"]), "direction": direction}


def wall_stops_push(state: dict, player: dict, events: list[dict]):
    """A wall reported by a player just pushed by a slap: the figure goes back where it stood, the push's
    direction is returned ("back": the wall is behind the figure); None when no push is undone.

    « Si vous êtes poussé contre un Mur et que vous avez un Jeton Cœur, vous le perdez. Les Murs étant
    infranchissables, vous restez sur votre espace actuel. Si vous n'avez pas de Jeton Cœur, [...] votre
    personnage subit un dégât et doit donc reculer de deux espaces » — and pushed back against it, « comme
    vous ne pouvez pas traverser le Mur, aucun mouvement ni dégâts additionnels ne se produit »."""
    push = state["round"].get("pushes", {}).pop(str(player["seat"]), None)
    if push is None or player["position"] != push["to"]:
        return None  # no push this round, or the player has moved the figure since
    move_to(state, player, push["from"]["column"], push["from"]["level"], events)
    return push["direction"]


def check_free(state: dict, seat, action: dict) -> None:
    player = require_acting(state, seat)
    require_fields(action, ptizetre=int)
    number = action["ptizetre"]
    if not 1 <= number <= state["config"]["captives"]:
        raise IllegalAction(N_("The captive Ptizêtres are numbered 1 to %(high)s."), high=state["config"]["captives"])
    if number in player["ptizetres"]:
        raise IllegalAction(N_("You have already freed that Ptizêtre."))


def do_free(state: dict, seat, action: dict, rng) -> list[dict]:
    check_free(state, seat, action)
    player, number = player_of(state, seat), action["ptizetre"]
    player["ptizetres"] = sorted(player["ptizetres"] + [number])
    return [{"type": "ptizetre_freed", "seat": seat, "ptizetre": number, "count": len(player["ptizetres"])}]


def check_acting(state: dict, seat, action: dict) -> None:
    require_acting(state, seat)


def do_bonus(state: dict, seat, action: dict, rng) -> list[dict]:
    """An enemy defeated: one bonus token; a fifth must be used or discarded at once."""
    player = require_acting(state, seat)
    if player["bonus"] < MAX_BONUS:
        player["bonus"] += 1
        return [{"type": "bonus_gained", "seat": seat, "count": player["bonus"]}]
    player["bonus_pending"] = True
    return [{"type": "bonus_gained", "seat": seat, "count": MAX_BONUS, "fifth": True}]


def check_use_bonus(state: dict, seat, action: dict) -> None:
    player = require_turn(state, seat)
    if player["bonus_pending"]:
        return  # one of the five is used: four remain
    if player["bubble_mode"]:
        raise IllegalAction(N_("In Bubble mode you cannot use your cards: wait for a slap."))
    if player["bonus"] == 0:
        raise IllegalAction(N_("You have no bonus token."))


def do_use_bonus(state: dict, seat, action: dict, rng) -> list[dict]:
    check_use_bonus(state, seat, action)
    player = player_of(state, seat)
    if player["bonus_pending"]:
        player["bonus_pending"] = False
        return [{"type": "bonus_used", "seat": seat, "count": player["bonus"]}]
    player["bonus"] -= 1
    return [{"type": "bonus_used", "seat": seat, "count": player["bonus"]}]


def check_discard_bonus(state: dict, seat, action: dict) -> None:
    if not require_own_seat(state, seat)["bonus_pending"]:
        raise IllegalAction(N_("You may keep your bonus tokens."))


def do_discard_bonus(state: dict, seat, action: dict, rng) -> list[dict]:
    check_discard_bonus(state, seat, action)
    player = player_of(state, seat)
    player["bonus_pending"] = False
    return [{"type": "bonus_discarded", "seat": seat, "count": player["bonus"]}]


def do_give_bonus(state: dict, seat, action: dict, rng) -> list[dict]:
    """Co-op: offers an exchange of bonus tokens (``give`` of mine for ``take`` of theirs); the other accepts.

    « En tant qu'Action gratuite, vous pouvez échanger n'importe quel nombre de Jetons Bonus avec
    un autre joueur sur le même espace ou à côté de vous. Cet échange peut avoir lieu à votre tour
    ou au tour du joueur avec lequel vous échangez. Les deux joueurs doivent accepter l'échange »."""
    check_give_bonus(state, seat, action)
    other, give, take = player_of(state, action["to"]), action.get("give", 1), action.get("take", 0)
    state["round"]["offer"] = {"from": seat, "to": other["seat"], "give": give, "take": take}
    return [{"type": "bonus_offered", "seat": seat, "to": other["seat"], "give": give, "take": take}]


def check_give_bonus(state: dict, seat, action: dict) -> None:
    player = require_own_seat(state, seat)
    if not rule(state, "bonus_exchange"):
        raise IllegalAction(N_("Bonus tokens are exchanged only in co-op."))
    if state["round"].get("offer"):
        raise IllegalAction(N_("An exchange offer is waiting for an answer: accept or withdraw it first."))
    other = require_seat_field(state, action, "to")
    check_exchange(state, player, other, action.get("give", 1), action.get("take", 0))


def check_exchange(state: dict, player: dict, other: dict, give, take) -> None:
    if other["seat"] == player["seat"]:
        raise IllegalAction(N_("Exchange bonus tokens with another player."))
    if active_seat(state) not in (player["seat"], other["seat"]):
        raise IllegalAction(N_("Exchange on your turn or on the other player's turn."))
    if type(give) is not int or type(take) is not int or give < 0 or take < 0 or give + take == 0:
        raise IllegalAction(N_("Say how many tokens you give and how many you take (at least one in all)."))
    if give > player["bonus"]:
        raise IllegalAction(Plural("You have only %(count)s bonus token.", "You have only %(count)s bonus tokens."),
                            count=player["bonus"])
    who = name_of(state, other["seat"])
    if take > other["bonus"]:
        raise IllegalAction(Plural("%(name)s has only %(count)s bonus token.", "%(name)s has only %(count)s bonus tokens."),
                            name=who, count=other["bonus"])
    if other["bonus"] - take + give > MAX_BONUS or player["bonus"] - give + take > MAX_BONUS:
        raise IllegalAction(N_("Nobody may hold more than 4 bonus tokens after the exchange."))
    if not side_by_side(player, other):
        raise IllegalAction(N_("%(name)s is not on your space or next to you: move closer to exchange."), name=who)


def side_by_side(player: dict, other: dict) -> bool:
    """Same space or next to each other (left, right, above, below); unknown positions: the players know."""
    mine, theirs = player["position"], other["position"]
    if mine is None or theirs is None:
        return True
    return abs(mine["column"] - theirs["column"]) + abs(mine["level"] - theirs["level"]) <= 1


def check_answer_offer(state: dict, seat, action: dict) -> None:
    """The other player accepts or refuses; either player may withdraw the offer (``accept: false``)."""
    require_own_seat(state, seat)
    offer = state["round"].get("offer")
    if offer is None or seat not in (offer["from"], offer["to"]):
        raise IllegalAction(N_("Nobody offered you an exchange of bonus tokens."))
    require_fields(action, accept=bool)
    if not action["accept"]:
        return
    if seat != offer["to"]:
        raise IllegalAction(N_("%(name)s must accept your offer on their phone."), name=name_of(state, offer["to"]))
    check_exchange(state, player_of(state, offer["from"]), player_of(state, offer["to"]), offer["give"], offer["take"])


def do_answer_offer(state: dict, seat, action: dict, rng) -> list[dict]:
    check_answer_offer(state, seat, action)
    offer, state["round"]["offer"] = state["round"]["offer"], None
    if not action["accept"]:
        return [{"type": "bonus_declined", "seat": seat, **offer}]
    giver, taker = player_of(state, offer["from"]), player_of(state, offer["to"])
    giver["bonus"] += offer["take"] - offer["give"]
    taker["bonus"] += offer["give"] - offer["take"]
    return [{"type": "bonus_exchanged", **offer}]


def check_use_legendary(state: dict, seat, action: dict) -> None:
    player = require_acting(state, seat)
    if not player["legendary"]:
        raise IllegalAction(N_("You have no legendary card."))
    if state["config"]["limited_legendary"] and player["legendary_uses"] >= 1:
        raise IllegalAction(N_("Your legendary ability is used once per race."))


def do_use_legendary(state: dict, seat, action: dict, rng) -> list[dict]:
    check_use_legendary(state, seat, action)
    player = player_of(state, seat)
    player["legendary_uses"] += 1
    return [{"type": "legendary_used", "seat": seat, "card": player["legendary"]}]


def check_crossed(state: dict, seat, action: dict) -> None:
    player = require_own_seat(state, seat)
    if player["crossed"]:
        raise IllegalAction(N_("You have finished the race."))
    check_may_cross(player)


def do_crossed(state: dict, seat, action: dict, rng) -> list[dict]:
    check_crossed(state, seat, action)
    player, events = player_of(state, seat), []
    if player["position"] is not None and player["position"]["column"] <= LAST_COLUMN:
        player["position"]["column"] = LAST_COLUMN + 1
    cross(state, player, events)
    return events
