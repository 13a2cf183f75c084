"""Fights (the book's « Attaquer un ennemi adjacent »): the die picks a criterion of the
reference, the criterion names the winner, the winner sets the loser aside.

How a fight is decided, first that applies:
* values the companion knows (computed, facts) or measures on a kept board (situational);
* values the two players enter, sealed (situational, board not kept);
* a judgement: both players answer, sealed. Agreement decides (and the table's house
  ranking learns it). Otherwise the ranking's proposal decides: the house ranking,
  else the project's default ranking. Without a proposal the disagreement rule decides:
  with 3-4 players the others vote (sealed; a majority decides), with 2 players (or a
  tied vote) the die is rolled again until it shows another criterion; or, as a house
  option shown on the table, « tie on disagreement ». A player who does not answer
  before the table's timeout counts as disagreeing.
* PRO with 2 players (the book is silent): a disagreement must not let one player block
  every fight (a tie whenever they say otherwise). What the companion knows decides, as
  an arbiter the players do not see beforehand: the figures' values, the measure on a
  kept board, the table's or the project's ranking; where it knows nothing, the die is
  rolled for another criterion; when none is left, a fair draw between the two figures.
  No answer can then win a fight the arbiter gives to the other figure.
"""

from __future__ import annotations

import itertools

from companion.games.amiiboxe import cards
from companion.games.amiiboxe.board import adjacent, card, figure_at, line_index, neighbours, side_of
from companion.games.amiiboxe.common import ATTACKER, DEFENDER, FACES, MAX_VALUE, TIE, english_name, \
    figure_by_id, on_board, own_figure, figure_field, require_flag, seat_ids, seats_on_board
from companion.games.amiiboxe.scoring import capture
from companion.games.amiiboxe.turns import action_done, arrive
from companion.games.base import N_, Draw, IllegalAction, require_fields
from companion.games.kernel import private_of

MAX_REROLLS = 30  # a die that keeps showing tried criteria ends in a tie rather than forever


# --- attacking ---------------------------------------------------------------------------

def attack_card(state: dict, attacker: dict, action: dict) -> str | None:
    """The card the attacker stands on: read on a kept board, named by the player otherwise."""
    if state["board"] is not None:
        return card(state, attacker["at"])["name"]
    return cards.find_card(state["cards"], action["card"]) if isinstance(action.get("card"), str) else None


def supports_an_adjacent_enemy(state: dict, attacker: dict, defender: dict) -> bool:
    """Bourg Palette's target: an ally adjacent to an enemy that is adjacent to the attacker."""
    return any(enemy["seat"] == defender["seat"] and enemy is not defender and adjacent(enemy["at"], defender["at"])
               for cell in neighbours(state, attacker["at"]) if (enemy := figure_at(state, cell))
               and enemy["seat"] != attacker["seat"])


def attack_plan(state: dict, seat, action: dict) -> dict:
    attacker = on_board(own_figure(state, seat, action, "attacker"))
    step = state["step"]  # the stages let an attack through only as the action or as Enfers' second fight
    second = bool(step and step["kind"] == "second_fight")
    if second and step["figure"] != attacker["id"]:
        raise IllegalAction(N_("Fight again with the figure that just won, or end your turn."))
    defender = on_board(figure_field(state, action, "defender", "target"))
    if defender["seat"] == seat:
        raise IllegalAction(N_("Attack an enemy, not one of your own figures."))
    if state["board"] is not None and "ranged" in action:
        raise IllegalAction(N_("On the kept board, the card is read from the board."))
    if "card" in action:
        require_fields(action, card=str)
        if state["board"] is not None:
            raise IllegalAction(N_("On the kept board, the card is read from the board."))
        if cards.effect_when(action["card"], cards.ATTACK) is None:
            raise IllegalAction(N_("Name the card you stand on for its attack effect: Bourg Palette or Enfers."))
    effect = cards.effect_when(attack_card(state, attacker, action), cards.ATTACK)
    if state["board"] is not None:
        ranged = not adjacent(attacker["at"], defender["at"])
        if ranged and not (effect == cards.RANGED_SUPPORT and supports_an_adjacent_enemy(state, attacker, defender)):
            raise IllegalAction(N_("Only an adjacent enemy can be attacked (diagonals are not adjacent); from "
                                   "Bourg Palette, also a support of an adjacent enemy."))
    else:
        ranged = require_flag(action, "ranged")
        if ranged and effect != cards.RANGED_SUPPORT:
            raise IllegalAction(N_("A ranged attack is made from Bourg Palette: name the card you stand on."))
    first_of_two = effect == cards.SECOND_FIGHT and not second  # a second fight is never chained again
    return {"attacker": attacker, "defender": defender, "ranged": ranged, "first_of_two": first_of_two,
            "second": second, "card": attack_card(state, attacker, action) if effect else None}


def check_attack(state: dict, seat, action: dict) -> None:
    require_flag(action, "hold")
    attack_plan(state, seat, action)


def run_attack(state: dict, seat, action: dict, rng) -> list[dict]:
    plan = attack_plan(state, seat, action)
    attacker, defender = plan["attacker"], plan["defender"]
    attacker["played"], state["step"] = True, None
    face = rng.randint(1, FACES, Draw("fight_die", attacker=english_name(attacker),
                                                 defender=english_name(defender)))
    criterion = state["reference"]["criteria"][face - 1]
    fight = {"attacker": attacker["id"], "defender": defender["id"], "face": face, "criterion": criterion,
             "seats": {ATTACKER: attacker["seat"], DEFENDER: defender["seat"]}, "ranged": plan["ranged"],
             "first_of_two": plan["first_of_two"], "second": plan["second"], "card": plan["card"],
             "hold": require_flag(action, "hold"), "tried": [criterion], "faces": [face]}
    events = [{"type": "fight_rolled", "attacker": attacker["id"], "defender": defender["id"], "face": face,
               "criterion": criterion, "ranged": plan["ranged"], "card": plan["card"]}]
    return events + open_fight(state, fight, rng)


# --- deciding --------------------------------------------------------------------------------

def open_fight(state: dict, fight: dict, rng) -> list[dict]:
    """Decide at once when the companion can; otherwise ask."""
    criterion = fight["criterion"]
    kind, direction = state["criteria"][criterion]["kind"], state["criteria"][criterion]["direction"]
    attacker, defender = figure_by_id(state, fight["attacker"]), figure_by_id(state, fight["defender"])
    if state["pro"]:
        return ask(state, fight, "judge", None)
    if kind in ("computed", "facts"):
        values = [attacker["values"].get(criterion), defender["values"].get(criterion)]
        if None not in values:
            return settle(state, fight, compare(values, direction), "values", values, rng)
        return ask(state, fight, "judge", None)
    if kind == "situational":
        measure = BOARD_MEASURES.get(criterion)
        if state["board"] is None or measure is None:
            return ask(state, fight, "values", None)
        values = [measure(state, attacker), measure(state, defender)]
        return settle(state, fight, compare(values, direction), "board", values, rng)
    return ask(state, fight, "judge", ranking_proposal(state, criterion, attacker, defender))


def compare(values: list, direction: str) -> str:
    attacker, defender = values
    if attacker == defender:
        return TIE
    better = attacker > defender if direction == "max" else attacker < defender
    return ATTACKER if better else DEFENDER


def supports(state: dict, figure: dict) -> int:
    """Allied figures orthogonally adjacent (the Lexique's soutiens)."""
    return sum(1 for cell in neighbours(state, figure["at"])
               if (ally := figure_at(state, cell)) and ally["seat"] == figure["seat"])


def fewest_supports(state: dict, figure: dict) -> int:
    return supports(state, figure)


def distance_from_start(state: dict, figure: dict) -> int:
    return line_index(side_of(state, figure["seat"]), figure["at"], state["size"])


BOARD_MEASURES = {"most_supports": supports, "fewest_supports": fewest_supports,
                  "farthest_from_start": distance_from_start, "closest_to_start": distance_from_start}


def ranking_proposal(state: dict, criterion: str, attacker: dict, defender: dict) -> dict | None:
    """Who the house ranking, else the default ranking, says wins; None when neither orders them."""
    pairs = state["secret"]["house"].get(criterion, [])
    a, d = attacker["amiibo_id"], defender["amiibo_id"]
    if [a, d] in pairs:
        return {"winner": ATTACKER, "by": "house"}
    if [d, a] in pairs:
        return {"winner": DEFENDER, "by": "house"}
    tiers = state["secret"]["defaults"].get(criterion, [])
    rank = {amiibo: number for number, tier in enumerate(tiers) for amiibo in tier}
    if a in rank and d in rank and rank[a] != rank[d]:
        return {"winner": ATTACKER if rank[a] < rank[d] else DEFENDER, "by": "default"}
    return None


def ask(state: dict, fight: dict, exchange: str, proposal: dict | None) -> list[dict]:
    state["fight"] = {**fight, "exchange": exchange, "proposal": proposal,
                      "answered": {ATTACKER: False, DEFENDER: False}, "voters": []}
    state["secret"]["answers"] = {ATTACKER: None, DEFENDER: None}
    return [{"type": "fight_asks", "exchange": exchange, "proposal": proposal,
             "seats": [fight["seats"][ATTACKER], fight["seats"][DEFENDER]]}]


# --- answers, sealed until all are in ----------------------------------------------------------

def answering_role(state: dict, seat, exchanges: tuple[str, ...]) -> str:
    fight = state["fight"]
    if not fight or fight["exchange"] not in exchanges:
        raise IllegalAction(N_("There is nothing to answer."))
    if fight["exchange"] == "vote":
        if seat not in fight["voters"]:
            raise IllegalAction(N_("Only the players outside the fight vote."))
        role = str(seat)
    else:
        role = next((role for role, owner in fight["seats"].items() if owner == seat), None)
        if role is None:
            raise IllegalAction(N_("Only the two players of the fight answer."))
    if fight["answered"][role]:
        raise IllegalAction(N_("You have already answered."))
    return role


def check_judge(state: dict, seat, action: dict) -> None:
    answering_role(state, seat, ("judge", "vote"))
    require_fields(action, winner=int)
    fight = state["fight"]
    if action["winner"] not in (fight["attacker"], fight["defender"]):
        raise IllegalAction(N_("The winner is one of the two figures of the fight."))


def run_judge(state: dict, seat, action: dict, rng) -> list[dict]:
    role = answering_role(state, seat, ("judge", "vote"))
    return record_answer(state, seat, role, action["winner"], rng)


def check_enter_value(state: dict, seat, action: dict) -> None:
    answering_role(state, seat, ("values",))
    require_fields(action, value=int)
    if not 0 <= action["value"] <= MAX_VALUE:
        raise IllegalAction(N_("Enter a whole number from 0 to %(count)s."), count=MAX_VALUE)


def run_enter_value(state: dict, seat, action: dict, rng) -> list[dict]:
    role = answering_role(state, seat, ("values",))
    return record_answer(state, seat, role, action["value"], rng)


def clear_answers(state: dict) -> None:
    state["secret"]["answers"] = {}
    state["private"] = {}  # only sealed answers live there


def record_answer(state: dict, seat, role: str, answer, rng) -> list[dict]:
    state["fight"]["answered"][role] = True
    state["secret"]["answers"][role] = answer
    private_of(state, seat)["answer"] = answer  # the answering phone sees its own answer
    events = [{"type": "answered", "seat": seat}]  # never the answer itself: it stays sealed
    if not all(state["fight"]["answered"].values()):
        return events
    return events + resolve(state, rng)


def time_out(state: dict, seat, rng) -> list[dict]:
    """The seat did not answer in time: it counts as no answer (disagreeing)."""
    fight = state["fight"]
    roles = [role for role, owner in fight["seats"].items() if owner == seat] if fight["exchange"] != "vote" \
        else [str(seat)]
    events = []
    for role in roles:
        if role in fight["answered"] and not fight["answered"][role]:
            fight["answered"][role] = True
            events.append({"type": "timed_out", "seat": seat})
    if events and all(fight["answered"].values()):
        events += resolve(state, rng)
    return events


def resolve(state: dict, rng) -> list[dict]:
    fight, answers = state["fight"], dict(state["secret"]["answers"])
    if fight["exchange"] == "vote":
        return count_votes(state, answers, rng)
    if fight["exchange"] == "values":
        values = [answers[ATTACKER], answers[DEFENDER]]
        if None in values:
            return disagreement(state, rng)
        direction = state["criteria"][fight["criterion"]]["direction"]
        return settle(state, fight, compare(values, direction), "entries", values, rng)
    said = [answers[ATTACKER], answers[DEFENDER]]
    if said[0] is not None and said[0] == said[1]:
        outcome = ATTACKER if said[0] == fight["attacker"] else DEFENDER
        events = learned(state, fight, outcome)
        return events + settle(state, fight, outcome, "agreement", None, rng)
    if fight["proposal"]:
        return settle(state, fight, fight["proposal"]["winner"], fight["proposal"]["by"], None, rng)
    return disagreement(state, rng)


def learned(state: dict, fight: dict, outcome: str) -> list[dict]:
    if state["criteria"][fight["criterion"]]["kind"] != "judgement":
        return []
    winner, loser = (fight["attacker"], fight["defender"]) if outcome == ATTACKER else (
        fight["defender"], fight["attacker"])
    return [learn(state, fight["criterion"], figure_by_id(state, winner)["amiibo_id"],
                  figure_by_id(state, loser)["amiibo_id"])]


def learn(state: dict, criterion: str, winner: str, loser: str) -> dict:
    """The pair and what follows from it by transitivity, for the rest of the game."""
    pairs = state["secret"]["house"].setdefault(criterion, [])
    pairs[:] = [pair for pair in pairs if pair != [loser, winner]]  # the players' agreement overrides
    above = {winner} | {w for w, beaten in pairs if beaten == winner}
    below = {loser} | {beaten for w, beaten in pairs if w == loser}
    for pair in itertools.product(sorted(above), sorted(below)):
        if list(pair) not in pairs and [pair[1], pair[0]] not in pairs:
            pairs.append(list(pair))
    return {"type": "house_learned", "criterion": criterion, "winner": winner, "loser": loser}


def disagreement(state: dict, rng) -> list[dict]:
    fight = state["fight"]
    if state["disagreement"] == "tie":
        return settle(state, fight, TIE, "tie_on_disagreement", None, rng)
    voters = [seat for seat in seat_ids(state) if seat not in fight["seats"].values()]
    if voters:
        fight["first_answers"] = dict(state["secret"]["answers"])
        fight.update(exchange="vote", voters=voters, answered={str(seat): False for seat in voters})
        clear_answers(state)
        state["secret"]["answers"] = {str(seat): None for seat in voters}
        return [{"type": "fight_asks", "exchange": "vote", "proposal": None, "seats": voters}]
    if state["pro"]:
        known = arbiter(state, fight)
        if known is not None:
            return settle(state, fight, known[0], known[1], None, rng)
    return reroll(state, rng)


def arbiter(state: dict, fight: dict) -> tuple[str, str] | None:
    """PRO with 2 players who disagree: (the winner, how) from what the companion knows, or None.
    The values stay sealed (the record keeps no values): only who wins is told."""
    criterion = fight["criterion"]
    kind, direction = state["criteria"][criterion]["kind"], state["criteria"][criterion]["direction"]
    attacker, defender = figure_by_id(state, fight["attacker"]), figure_by_id(state, fight["defender"])
    if kind in ("computed", "facts"):
        sealed = state["secret"]["values"]
        values = [sealed.get(str(f["id"]), {}).get(criterion) for f in (attacker, defender)]
        return None if None in values else (compare(values, direction), "pro_values")
    measure = BOARD_MEASURES.get(criterion)
    if kind == "situational":
        if state["board"] is None or measure is None:
            return None
        return compare([measure(state, attacker), measure(state, defender)], direction), "board"
    proposal = ranking_proposal(state, criterion, attacker, defender)
    return (proposal["winner"], proposal["by"]) if proposal else None


def fair_draw(state: dict, fight: dict, rng) -> list[dict]:
    """PRO with 2 players: no criterion left that anyone can settle: each figure has one chance in two."""
    face = rng.randint(1, 2, Draw("fair_winner", attacker=fight["attacker"], defender=fight["defender"]))
    return settle(state, fight, ATTACKER if face == 1 else DEFENDER, "fair_draw", None, rng)


def count_votes(state: dict, votes: dict, rng) -> list[dict]:
    fight = state["fight"]
    for_attacker = sum(1 for vote in votes.values() if vote == fight["attacker"])
    for_defender = sum(1 for vote in votes.values() if vote == fight["defender"])
    fight["votes"] = votes
    if for_attacker == for_defender:
        return reroll(state, rng)
    return settle(state, fight, ATTACKER if for_attacker > for_defender else DEFENDER, "vote", None, rng)


def reroll(state: dict, rng) -> list[dict]:
    """The die is rolled again until it shows a criterion not tried in this fight."""
    fight = state["fight"]
    fight["rerolled_answers"] = dict(state["secret"]["answers"])
    remaining = set(state["reference"]["criteria"]) - set(fight["tried"])
    for _ in range(MAX_REROLLS if remaining else 0):
        face = rng.randint(1, FACES, Draw("fight_reroll", attacker=fight["attacker"], defender=fight["defender"]))
        criterion = state["reference"]["criteria"][face - 1]
        if criterion in remaining:
            base = {key: fight[key] for key in ("attacker", "defender", "seats", "ranged", "first_of_two",
                                                "second", "card", "hold")}
            base.update(face=face, criterion=criterion, tried=fight["tried"] + [criterion],
                        faces=fight["faces"] + [face])
            state["fight"] = None
            clear_answers(state)
            rolled = {"type": "fight_rerolled", "face": face, "criterion": criterion, "rule": "reroll",
                      "answers": fight.get("first_answers") or fight["rerolled_answers"]}
            return [rolled] + open_fight(state, base, rng)
    if state["pro"] and not [seat for seat in seat_ids(state) if seat not in fight["seats"].values()]:
        return fair_draw(state, fight, rng)
    return settle(state, fight, TIE, "no_criterion_left", None, rng)


# --- the outcome ---------------------------------------------------------------------------------

def settle(state: dict, fight: dict, outcome: str, by: str, values: list | None, rng) -> list[dict]:
    record = {"number": len(state["fights"]) + 1, "attacker": fight["attacker"], "defender": fight["defender"],
              "face": fight["face"], "criterion": fight["criterion"], "faces": fight["faces"],
              "tried": fight["tried"], "values": None if values is None else {ATTACKER: values[0],
                                                                               DEFENDER: values[1]},
              "winner": outcome, "by": by, "ranged": fight["ranged"], "card": fight["card"]}
    if state["fight"] is not None and state["fight"].get("exchange") in ("judge", "values", "vote"):
        record["answers"] = state["fight"].get("first_answers") or dict(state["secret"]["answers"])
        if state["fight"]["exchange"] == "vote":
            record["votes"] = dict(state["secret"]["answers"])
    if state["fight"] is not None and state["fight"].get("proposal"):
        record["proposal"] = state["fight"]["proposal"]
    state["fights"].append(record)
    state["fight"] = None
    clear_answers(state)
    events = [{"type": "fight_decided", **{k: v for k, v in record.items() if k != "number"}}]
    return events + carry_out(state, fight, outcome)


def carry_out(state: dict, fight: dict, outcome: str) -> list[dict]:
    """The winner sets the loser aside; a winning attacker takes its place unless the attack was ranged
    (Bourg Palette) or the first of Enfers' two fights; then the turn goes on or ends."""
    if outcome == TIE:  # « il ne se passe rien et le tour est terminé »
        return action_done(state, fight["hold"])
    attacker, defender = figure_by_id(state, fight["attacker"]), figure_by_id(state, fight["defender"])
    winner, loser = (attacker, defender) if outcome == ATTACKER else (defender, attacker)
    place = loser["at"]
    events = [capture(state, winner, loser)]
    if outcome != ATTACKER:
        return events + action_done(state, fight["hold"])
    if fight["first_of_two"]:
        if len(seats_on_board(state)) > 1:
            state["step"] = {"kind": "second_fight", "figure": attacker["id"]}
            events.append({"type": "second_fight_offered", "figure": attacker["id"], "card": fight["card"]})
        return events + action_done(state, fight["hold"])
    if state["board"] is not None and not fight["ranged"]:
        events += arrive(state, attacker, place, None)
    return events + action_done(state, fight["hold"])
