"""Rayman on the kernel: its moves, its phases, whom it waits on and its outcome.

Each move's ``run`` is the rules' handler followed by what then happens by itself
(reveals, rolls for ties, the end of a round: ``advance``). Its ``check`` is the
same handler run on a copy with a source of randomness that refuses to draw, so
"legal" and "refused" have one source; the three moves whose handler draws (the
roll, the lock, the next race) have their checks apart.
"""

from __future__ import annotations

from companion.games.base import HOST, N_, IllegalAction, plain_copy
from companion.games.kernel import ANYONE, HOST_ONLY, Move, Phase, Rules
from companion.games.rayman.cards import do_initiative
from companion.games.rayman.choosing import (advance_choosing, advance_initiatives, advance_revealing, check_lock,
                                           check_repick, check_reveal, do_lock, do_repick, do_reveal)
from companion.games.rayman.common import LABELS, active_seat, choosers, name_of, player_of
from companion.games.rayman.constants import BASE_CARDS, DRAFT_ROUNDS, HISTORY_KEPT, RACE_PHASES
from companion.games.rayman.finish import advance_finish, distance_of, do_distance, do_next_race
from companion.games.rayman.layout import pack, unpack
from companion.games.rayman.legal import candidate_actions
from companion.games.rayman.positions import (check_forget_position, check_position, check_second_tile, check_step,
                                              do_forget_position, do_position, do_second_tile, do_step)
from companion.games.rayman.ptizetres import do_ptizetre_colour
from companion.games.rayman.questions import do_answer, question
from companion.games.rayman.round import advance_round_start, check_roll, current_roller, do_roll, needs_roll
from companion.games.rayman.round_end import advance_round_end, do_free_move, free_mover
from companion.games.rayman.setup import (advance_draft, advance_setup, do_character,
                                          do_correct_initiative, do_exchange, do_pick, do_pick_legendary)
from companion.games.rayman.turns import (advance_turns, check_hurt, do_answer_offer, do_bonus, do_crossed,
                                          do_discard_bonus, do_end_turn, do_free, do_give_bonus, do_heart, do_hurt,
                                          do_slap, do_spend_heart, do_use_bonus, do_use_legendary)
from companion.games.rayman.view import render

AUTOMATIC = {"characters": advance_setup, "legendary": advance_setup, "exchange": advance_setup,
             "draft": advance_draft, "round_start": advance_round_start,
             "choosing": advance_choosing, "revealing": advance_revealing, "initiatives": advance_initiatives,
             "turns": advance_turns,
             "round_end": advance_round_end,
             "finish": advance_finish}


def advance(state: dict, rng, events: list[dict]) -> None:
    """Runs what happens by itself (reveals, rolls for ties, round ends) until someone must act."""
    while True:
        step = AUTOMATIC.get(state["phase"])
        if step is None or not step(state, rng, events):
            return


def remember(state: dict, events: list[dict]) -> None:
    """The last public events, for the screens to tell what just happened (an event never holds a secret)."""
    if events:
        state["history"] = (state.get("history", []) + events)[-HISTORY_KEPT:]
        state["history_count"] = state.get("history_count", 0) + len(events)


class NoDraws:
    """The randomness a check gets: a check that tried to draw would be a bug."""

    def __getattr__(self, name: str):
        raise RuntimeError(f"a move's check must not draw ({name})")


NO_DRAWS = NoDraws()


def require_racer(state: dict, seat) -> None:
    if seat == HOST:
        return
    if seat in state.get("withdrawn", ()):
        raise IllegalAction(N_("You have left this race."))
    player_of(state, seat)


def move(kind: str, handler, check=None, by: str = "seat", proxy: bool = False, label=None) -> tuple[str, Move]:
    def run(state: dict, seat, action: dict, rng) -> list[dict]:
        unpack(state)  # the kernel's private copy
        events = handler(state, seat, action, rng)
        advance(state, rng, events)
        remember(state, events)
        pack(state)
        return events

    def checked(state: dict, seat, action: dict) -> None:
        require_racer(state, seat)
        whole = unpack(plain_copy(state))
        if check is not None:
            check(whole, seat, action)
        else:  # the handler itself, on a copy: it refuses exactly what apply would refuse
            handler(whole, seat, action, NO_DRAWS)

    def candidates(state: dict, seat) -> list[dict]:
        return [{key: value for key, value in action.items() if key != "type"}
                for action in candidate_actions(unpack(plain_copy(state)), seat) if action["type"] == kind]

    return kind, Move(run=run, check=checked, candidates=candidates, by=by, proxy=proxy, label=label)


def no_objection(state: dict, seat, action: dict) -> None:
    return None


MOVES = dict([
    move("character", do_character), move("pick_legendary", do_pick_legendary), move("pick", do_pick),
    move("exchange", do_exchange),
    move("roll", do_roll, check=check_roll, by=ANYONE),
    move("lock", do_lock, check=check_lock), move("reveal", do_reveal, check=check_reveal),
    move("repick", do_repick, check=check_repick),
    move("initiative", do_initiative, by=ANYONE),  # the host screen may read a card for a seat
    move("end_turn", do_end_turn, proxy=True, label=N_("End the turn")),
    move("heart", do_heart), move("spend_heart", do_spend_heart),
    move("hurt", do_hurt, check=check_hurt), move("slap", do_slap), move("free", do_free), move("bonus", do_bonus),
    move("use_bonus", do_use_bonus),
    move("discard_bonus", do_discard_bonus, proxy=True, label=N_("Discard a bonus token")),
    move("give_bonus", do_give_bonus),
    move("answer_offer", do_answer_offer, proxy=True, label=N_("Answer the offer of bonus tokens")),
    move("use_legendary", do_use_legendary), move("crossed", do_crossed),
    move("free_move", do_free_move, proxy=True, label=N_("Make the free move")),
    move("position", do_position, check=check_position), move("step", do_step, check=check_step),
    move("forget_position", do_forget_position, check=check_forget_position),
    move("second_tile", do_second_tile, check=check_second_tile),
    move("correct_initiative", do_correct_initiative),
    move("distance", do_distance),
    move("answer", do_answer, by=HOST_ONLY),
    move("next_race", do_next_race, check=no_objection, by=HOST_ONLY),  # only between races (its phase)
    move("ptizetre_colour", do_ptizetre_colour, by=HOST_ONLY),
])
ANY_PHASE = ("ptizetre_colour",)  # naming a token's colour waits for nothing and holds nothing up

BOARD_KEEPING = ("hurt", "position", "step", "forget_position", "second_tile", "correct_initiative")  # in a race
TURN_MOVES = ("end_turn", "heart", "spend_heart", "slap", "free", "bonus", "use_bonus", "discard_bonus",
              "give_bonus", "answer_offer", "use_legendary", "crossed")


def phase(moves: tuple[str, ...], name: str) -> Phase:
    # The seats acting are checked by each move (in a turn, the others still report hits or move
    # their figures); whom the table waits on is ``waiting`` below.
    return Phase(moves=moves, label=LABELS[name])


PHASES = {
    "characters": phase(("character",), "characters"),
    "legendary": phase(("pick_legendary",), "legendary"),
    "draft": phase(("pick", "answer"), "draft"),
    "exchange": phase(("exchange",), "exchange"),
    "round_start": phase(("roll", "answer") + BOARD_KEEPING, "round_start"),
    "choosing": phase(("lock", "repick") + BOARD_KEEPING, "choosing"),
    "revealing": phase(("reveal", "repick") + BOARD_KEEPING, "revealing"),
    "initiatives": phase(("initiative",) + BOARD_KEEPING, "initiatives"),
    "turns": phase(TURN_MOVES + BOARD_KEEPING, "turns"),
    "round_end": phase(("answer", "crossed", "free_move", "discard_bonus") + BOARD_KEEPING, "round_end"),
    "finish": phase(("distance", "answer", "position", "step", "forget_position"), "finish"),
    "race_over": phase(("next_race",), "race_over"),
    "game_over": phase((), "game_over"),
}


# --- whom the table waits on ----------------------------------------------------------------

def waiting(state: dict) -> list[dict]:
    if state.get("outcome") is not None:
        return []
    label = LABELS[state["phase"]]
    return [{"seat": seat, "for": label, "params": {}, "timed": timed} for seat, timed in waited_on(state)]


def waited_on(state: dict) -> list[tuple[int, bool]]:
    """(seat, timed): timed when the step needs another phone than the one whose turn it is."""
    phase_name, players = state["phase"], state["players"]
    if phase_name == "characters":
        return [(p["seat"], False) for p in players if not p["character"]]
    if phase_name == "legendary":
        return [(p["seat"], False) for p in players if not p["legendary"]]
    if phase_name == "exchange":
        return [(p["seat"], False) for p in players if p["hand_size"] > BASE_CARDS + DRAFT_ROUNDS]  # all in hand
    if phase_name == "draft":
        draft = state["draft"]
        return [(draft["order"][draft["turn"]], False)] if draft["table"] and draft["turn"] < len(draft["order"]) \
            else []
    if phase_name == "round_start":
        roller = current_roller(state)
        asks = question(state) or not needs_roll(state) or state["round"]["rolled"]
        return [(roller, False)] if roller is not None and not asks else []
    if phase_name == "choosing":
        return [(p["seat"], False) for p in choosers(state) if not p["locked"]]
    if phase_name == "revealing":  # the phones reveal by themselves; a phone away holds the table
        reveals = (state.get("secret") or {}).get("reveals", {})
        return [(p["seat"], False) for p in choosers(state) if str(p["seat"]) not in reveals]
    if phase_name == "initiatives":
        return [(seat, False) for seat in dict.fromkeys(entry["seat"] for entry in state["round"]["asking"])]
    if phase_name == "turns":
        offer = state["round"].get("offer")
        return [(active_seat(state), False)] + ([(offer["to"], True)] if offer else [])
    if phase_name == "round_end":
        mover = free_mover(state)
        return [(mover, False)] if mover is not None else []
    if phase_name == "finish":
        return [(p["seat"], False) for p in players if p["crossed"] and distance_of(p) is None]
    return []


def on_timeout(state: dict, seat, rng) -> tuple[dict, list[dict]]:
    """An exchange offer left unanswered lapses (nothing moves without both consents)."""
    offer = state["round"].get("offer") if state.get("round") else None
    if state["phase"] == "turns" and offer and offer["to"] == seat:
        return RULES.apply(state, seat, {"type": "answer_offer", "accept": False}, rng)
    return state, []


# --- the outcome ------------------------------------------------------------------------

COOP_REASONS = {
    "all_finished": N_("Every player finished the race before the Boss."),
    "defeated": N_("%(name)s was defeated."),
    "all_in_bubbles": N_("Every player was in a Bubble at once."),
    "boss_finished": N_("The Boss finished the race first."),
    "nobody_left": N_("Nobody is left in the race."),
}


def decide(state: dict) -> dict | None:
    if state["phase"] != "game_over":
        return None
    result = state["result"] or {}
    if result.get("kind") == "coop":
        seats = [player["seat"] for player in state["players"]]
        named = {"name": name_of(state, result["seat"])} if "seat" in result else {}
        return {"winners": seats if result["won"] else [], "reason": COOP_REASONS[result["reason"]], "params": named,
                "ranking": [seats] if result["won"] and seats else []}
    tournament = state["tournament"]
    if tournament is not None:
        order = sorted({s["points"] for s in tournament["standings"]}, reverse=True)
        ranking = [[s["seat"] for s in tournament["standings"] if s["points"] == points] for points in order]
        return {"winners": tournament["winners"], "reason": N_("Most tournament points: %(names)s."),
                "params": {"names": names_of(state, tournament["winners"])}, "ranking": ranking}
    places = sorted({entry["place"] for entry in result["ranking"]})
    ranking = [[e["seat"] for e in result["ranking"] if e["place"] == place] for place in places]
    reason = N_("The Boss finished the race first.") if result["boss_won"] else N_("Farthest past the finish line: %(names)s.")
    return {"winners": result["winners"], "reason": reason, "params": {"names": names_of(state, result["winners"])},
            "ranking": ranking}


def names_of(state: dict, seats: list) -> str:
    """The winners by name, for the reason every screen shows."""
    return ", ".join(name_of(state, seat) for seat in seats)


RULES = Rules(moves=MOVES, phases=PHASES, render=render, decide=decide, wait_on=waiting, always=ANY_PHASE)

__all__ = ["RULES", "RACE_PHASES", "advance", "on_timeout", "remember"]
