"""Rayman on the kernel: its moves, its phases and their stages, whom it waits on and its outcome.

Each move's ``check`` is a predicate that reads the state (as python-chess's ``is_legal``) and that
its handler calls first, so "legal" and "refused" have one source; its ``run`` is the handler on the
kernel's private copy. What happens by itself (a reveal, the dice of a tie, the end of a round, the
ranking) is each phase's and stage's ``begin``, entered when the ``next`` of the one before says so:
the flow is the phase table below. Each phase's ``actors`` are whom the table waits for; a move that
others may send meanwhile (board keeping, a co-op offer, a rename) carries its own actors and its
check refuses it with its own sentence.
"""

from __future__ import annotations

from companion.games.base import HOST, N_, IllegalAction
from companion.games.kernel import ANYONE, HOST_ONLY, Move, Phase, Rules, Stage
from companion.games.rayman.cards import check_initiative, do_initiative
from companion.games.rayman.choosing import (all_locked, all_revealed, begin_initiatives, begin_revealing,
                                             begin_turns, check_fresh_draw, check_lock, check_repick, check_reveal,
                                             do_lock, do_repick, do_reveal, draw_lost_choices)
from companion.games.rayman.common import LABELS, active_seat, choosers, ended, name_of, player_of
from companion.games.rayman.constants import BASE_CARDS, DRAFT_ROUNDS, HISTORY_KEPT
from companion.games.rayman.finish import (begin_finish, begin_ranked, check_distance, check_next_race,
                                           distance_of, do_distance, do_next_race, finish_next, race_over_next)
from companion.games.rayman.layout import joined, pack, unpack
from companion.games.rayman.legal import candidate_actions
from companion.games.rayman.positions import (check_forget_position, check_position, check_second_tile, check_step,
                                              do_forget_position, do_position, do_second_tile, do_step)
from companion.games.rayman.ptizetres import check_ptizetre_colour, do_ptizetre_colour
from companion.games.rayman.questions import check_answer, do_answer, question
from companion.games.rayman.round import (begin_round_start, check_roll, current_roller, do_roll, needs_roll,
                                          round_started)
from companion.games.rayman.round_end import (begin_free_move, begin_moving, begin_round_end, check_free_move,
                                              check_no_hit, do_free_move, do_no_hit, free_mover, landed_unsure,
                                              round_end_next, round_end_waits_on, unsure_of_projectiles)
from companion.games.rayman.setup import (begin_dealing, begin_draft, begin_picking, check_character,
                                          check_correct_initiative, check_exchange_cards, check_pick,
                                          check_pick_legendary, dealing_next, do_character, do_correct_initiative,
                                          do_exchange, do_pick, do_pick_legendary, draft_next, picker, picking_next,
                                          setup_next)
from companion.games.rayman.turns import (check_acting, check_answer_offer, check_crossed, check_discard_bonus,
                                          check_end_turn, check_free, check_give_bonus, check_heart, check_hurt,
                                          check_slap, check_spend_heart, check_use_bonus, check_use_legendary,
                                          do_answer_offer, do_bonus, do_crossed, do_discard_bonus, do_end_turn,
                                          do_free, do_give_bonus, do_heart, do_hurt, do_slap, do_spend_heart,
                                          do_use_bonus, do_use_legendary, turns_over)
from companion.games.rayman.view import render
from companion.games.rayman.withdraw import withdraw_player


def remember(state: dict, events: list[dict]) -> None:
    """The last public events, for the screens to tell what just happened (an event never holds a secret)."""
    if events:
        state["history"] = (state.get("history", []) + events)[-HISTORY_KEPT:]
        state["history_count"] = state.get("history_count", 0) + len(events)


def with_cards(work):
    """A ``begin`` (or a system move's run) that reads or deals the players' cards or the decks: it works on
    the state unpacked (``layout``), packed again after."""
    def run(state: dict, *rest) -> list[dict]:
        unpack(state)
        events = work(state, *rest)
        pack(state)
        return events
    return run


def everyone(state: dict) -> list:
    """The seats a move open to every player accepts (their checks refuse finer, and a seat that left is
    told so by its check)."""
    return [player["seat"] for player in state["players"]] + list(state.get("withdrawn", ()))


def require_racer(state: dict, seat) -> None:
    if seat == HOST:
        return
    if seat in state.get("withdrawn", ()):
        raise IllegalAction(N_("You have left this race."))
    player_of(state, seat)


def move(kind: str, handler, check, by: str = "seat", proxy: bool = False, label=None,
         reads_cards: bool = False) -> tuple[str, Move]:
    """A move whose ``check`` reads the state (never a run on a copy) and whose ``run`` is the handler
    (which checks again: the kernel's copy is unpacked) followed by what then happens by itself.

    ``reads_cards``: its check or its candidates read a player's private part (``layout.PRIVATE``), so
    they get the players joined with it; the other moves read the state as it is, which is cheaper."""
    readable = joined if reads_cards else (lambda state: state)

    def run(state: dict, seat, action: dict, rng) -> list[dict]:
        return with_cards(handler)(state, seat, action, rng)  # on the kernel's private copy

    def checked(state: dict, seat, action: dict) -> None:
        require_racer(state, seat)
        check(readable(state), seat, action)

    def candidates(state: dict, seat) -> list[dict]:
        return [{key: value for key, value in action.items() if key != "type"}
                for action in candidate_actions(readable(state), seat, kind)]

    return kind, Move(run=run, check=checked, candidates=candidates, by=by, proxy=proxy, label=label,
                      actors=None if by == HOST_ONLY else everyone)


MOVES = dict([
    move("character", do_character, check_character),
    move("pick_legendary", do_pick_legendary, check_pick_legendary),
    move("pick", do_pick, check_pick),
    move("exchange", do_exchange, check_exchange_cards, reads_cards=True),
    move("roll", do_roll, check_roll, by=ANYONE),
    move("lock", do_lock, check_lock, reads_cards=True), move("reveal", do_reveal, check_reveal, reads_cards=True),
    move("repick", do_repick, check_repick, reads_cards=True),  # offered beside the choices (which read the hand)
    move("initiative", do_initiative, check_initiative, by=ANYONE),  # the host screen may read a card for a seat
    move("end_turn", do_end_turn, check_end_turn, proxy=True, label=N_("End the turn")),
    move("heart", do_heart, check_heart), move("spend_heart", do_spend_heart, check_spend_heart),
    move("hurt", do_hurt, check_hurt), move("slap", do_slap, check_slap), move("free", do_free, check_free),
    move("bonus", do_bonus, check_acting),
    move("use_bonus", do_use_bonus, check_use_bonus),
    move("discard_bonus", do_discard_bonus, check_discard_bonus, proxy=True, label=N_("Discard a bonus token")),
    move("give_bonus", do_give_bonus, check_give_bonus),
    move("answer_offer", do_answer_offer, check_answer_offer, proxy=True,
         label=N_("Answer the offer of bonus tokens")),
    move("use_legendary", do_use_legendary, check_use_legendary), move("crossed", do_crossed, check_crossed),
    move("free_move", do_free_move, check_free_move, proxy=True, label=N_("Make the free move")),
    move("no_hit", do_no_hit, check_no_hit, proxy=True, label=N_("Say that nothing hit them")),
    move("position", do_position, check_position), move("step", do_step, check_step),
    move("forget_position", do_forget_position, check_forget_position),
    move("second_tile", do_second_tile, check_second_tile),
    move("correct_initiative", do_correct_initiative, check_correct_initiative, reads_cards=True),
    move("distance", do_distance, check_distance),
    move("answer", do_answer, check_answer, by=HOST_ONLY),
    move("next_race", do_next_race, check_next_race, by=HOST_ONLY),
    move("ptizetre_colour", do_ptizetre_colour, check_ptizetre_colour, by=HOST_ONLY),
])
ANY_PHASE = ("ptizetre_colour",)  # naming a token's colour waits for nothing and holds nothing up

BOARD_KEEPING = ("hurt", "position", "step", "forget_position", "second_tile", "correct_initiative")  # in a race
TURN_MOVES = ("end_turn", "heart", "spend_heart", "slap", "free", "bonus", "use_bonus", "discard_bonus",
              "give_bonus", "answer_offer", "use_legendary", "crossed")


def race_next(following):
    """A race phase's ``next``: the game's end when it ended (co-op, solo), else ``following``."""
    return lambda state: "game_over" if ended(state) else following(state)


def nobody(state: dict) -> list:
    return []


def roll_waits(state: dict) -> list:
    roller = current_roller(state)
    asks = question(state) or not needs_roll(state) or state["round"]["rolled"]
    return [roller] if roller is not None and not asks else []


def unrevealed(state: dict) -> list:
    """The phones yet to reveal; a seat whose phone lost its choice waits for the table's fresh draw, not a phone."""
    reveals = (state.get("secret") or {}).get("reveals", {})
    return [p["seat"] for p in choosers(state) if str(p["seat"]) not in reveals and not p.get("lost")]


def turn_waits(state: dict) -> list:
    """The active player, and the player a co-op offer of bonus tokens waits for (``waiting``: timed)."""
    offer = state["round"].get("offer")
    return [active_seat(state)] + ([offer["to"]] if offer else [])


def phase(name: str, moves: tuple[str, ...], actors, **flow) -> Phase:
    return Phase(moves=moves, label=LABELS[name], actors=actors, **flow)


PHASES = {
    "characters": phase("characters", ("character",), lambda s: [p["seat"] for p in s["players"] if not p["character"]],
                        next=setup_next("characters")),
    "legendary": phase("legendary", ("pick_legendary",),
                       lambda s: [p["seat"] for p in s["players"] if not p["legendary"]], next=setup_next("legendary")),
    "draft": phase("draft", ("pick", "answer"), picker, begin=with_cards(begin_draft), next=draft_next,
                   stages={"dealing": Stage(actors=nobody, begin=begin_dealing, next=dealing_next),
                           "picking": Stage(begin=with_cards(begin_picking), next=picking_next)}),
    "exchange": phase("exchange", ("exchange",),  # every card in hand before the race: the hand's size is theirs
                      lambda s: [p["seat"] for p in s["players"] if p["hand_size"] > BASE_CARDS + DRAFT_ROUNDS],
                      next=setup_next("exchange")),
    "round_start": phase("round_start", ("roll", "answer") + BOARD_KEEPING, roll_waits,
                         begin=with_cards(begin_round_start),
                         next=race_next(lambda s: "choosing" if round_started(s) else None)),
    "choosing": phase("choosing", ("lock", "repick") + BOARD_KEEPING,
                      lambda s: [p["seat"] for p in choosers(s) if not p["locked"]],
                      next=race_next(lambda s: "revealing" if all_locked(s) else None)),
    "revealing": phase("revealing", ("reveal", "repick") + BOARD_KEEPING, unrevealed, begin=begin_revealing,
                       next=race_next(lambda s: "choosing" if not all_locked(s)  # a new phone picks again
                                      else "initiatives" if all_revealed(s) else None)),
    "initiatives": phase("initiatives", ("initiative",) + BOARD_KEEPING,
                         lambda s: list(dict.fromkeys(entry["seat"] for entry in s["round"]["asking"])),
                         begin=with_cards(begin_initiatives),
                         next=race_next(lambda s: "turns" if not s["round"]["asking"] else None)),
    "turns": phase("turns", TURN_MOVES + BOARD_KEEPING, turn_waits, begin=with_cards(begin_turns),
                   next=race_next(lambda s: "round_end" if turns_over(s) else None)),
    "round_end": phase("round_end", ("answer", "crossed", "free_move", "no_hit", "discard_bonus") + BOARD_KEEPING,
                       round_end_waits_on, begin=begin_round_end, next=round_end_next,
                       stages={"projectiles": Stage(actors=unsure_of_projectiles,
                                                    next=lambda s: None if unsure_of_projectiles(s) else "moving"),
                               "moving": Stage(actors=nobody, begin=begin_moving, next=lambda s: "free_move"),
                               "free_move": Stage(actors=lambda s: [free_mover(s)] if free_mover(s) is not None else [],
                                                  begin=begin_free_move,
                                                  next=lambda s: "landings" if free_mover(s) is None else None),
                               "landings": Stage(actors=landed_unsure)}),
    "finish": phase("finish", ("distance", "answer", "position", "step", "forget_position"),
                    lambda s: [p["seat"] for p in s["players"] if p["crossed"] and distance_of(p) is None],
                    begin=with_cards(begin_finish), next=finish_next),
    "race_over": phase("race_over", ("next_race",), nobody, begin=begin_ranked, next=race_over_next),
    "game_over": phase("game_over", (), nobody, begin=begin_ranked),
}


# --- whom the table waits on ----------------------------------------------------------------

def waiting(state: dict) -> list[dict]:
    """The actors of the phase (or its stage); in the turns, the player an offer waits for needs another phone
    than the active one: that wait is timed."""
    if state.get("outcome") is not None:
        return []
    now = RULES.now(state)
    seats = list(now.actors(state)) if now.actors else []
    return [{"seat": seat, "for": now.label, "params": {}, "timed": state["phase"] == "turns" and index > 0}
            for index, seat in enumerate(seats)]


def leave(state: dict, seat, action: dict, rng) -> list[dict]:
    """The table takes ``seat`` out of the game: see ``withdraw.WITHDRAW_RULE``."""
    events: list[dict] = []
    with_cards(withdraw_player)(state, seat, events)
    state["private"].pop(str(seat), None)  # the seat's cards leave with it
    return events


def check_leave(state: dict, seat, action: dict) -> None:
    player_of(state, seat)  # a seat not in the race has nothing to leave


def check_timeout(state: dict, seat, action: dict) -> None:
    """Only an exchange offer left unanswered lapses (nothing moves without both consents)."""
    offer = state["round"].get("offer") if state.get("round") else None
    if not (state["phase"] == "turns" and offer and offer["to"] == seat):
        raise IllegalAction(N_("Nothing waits for that seat."))


def lapse_offer(state: dict, seat, action: dict, rng) -> list[dict]:
    return with_cards(do_answer_offer)(state, seat, {"type": "answer_offer", "accept": False}, rng)


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


RULES = Rules(moves=MOVES, phases=PHASES, render=render, decide=decide, wait_on=waiting, always=ANY_PHASE,
              leave=Move(run=leave, check=check_leave), timeout=Move(run=lapse_offer, check=check_timeout),
              fresh=Move(run=with_cards(draw_lost_choices), check=check_fresh_draw))

__all__ = ["RULES", "remember"]
