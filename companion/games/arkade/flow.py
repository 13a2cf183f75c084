"""Arkade on the kernel: its moves, its phases, what each screen sees, whom it waits on, its end.

Phases: ``roles`` (while the roles are open), ``ready`` then ``countdown``
(Arcade: each phone says ``ready``; when both are, the shared countdown "top
départ" runs and a ``go`` after ``countdown`` seconds starts the game; time is
data, the shell's ``at`` stamp, never a clock read here), ``playing``, ``over``.

In ``playing`` both seats may send moves: Arcade is simultaneous, and in
Stratégie a move says itself whose turn it is ("It is Zoé's turn.") rather
than the kernel's general refusal. A claim, a repair or a heart question
waits for its answer before the game goes on; corrections never wait.
"""

from __future__ import annotations

from typing import Callable

from companion.games.arkade import alien, counters, defender, throwing
from companion.games.arkade.common import action_time, actor_of, other, role_of, saucer_candidates, win
from companion.games.arkade.constants import ALIEN, DEFENDER, ROLES
from companion.games.arkade.setup import assign_roles, phase_after_roles
from companion.games.arkade.throwing import reactor_cell_due
from companion.games.base import HOST, N_, IllegalAction, duel_outcome, plain_copy, require_fields
from companion.games.kernel import ANYONE, KEEP_ALL, Move, Phase, Rules

# The pending question each answering move answers.
ANSWERS = {"repair": "repair", "heart": "heart", "confirm": "claim"}
FREE_MOVES = ("correct", "agree_correction")  # counters can be corrected whatever else waits


def check_pending(state: dict, role: str, kind: str) -> None:
    """A claim, a repair or a heart question waits for its answer before the game goes on."""
    pending = state["pending"]
    answers = ANSWERS.get(kind)
    if answers and (not pending or pending["kind"] != answers):
        raise IllegalAction(N_("There is nothing to answer."))
    if not pending or kind in FREE_MOVES or role == HOST:
        return
    if pending["kind"] == "claim":
        if role == DEFENDER and kind != "confirm":
            raise IllegalAction(N_("Answer the Alien's claim first: is a saucer on the last line?"))
        if role == ALIEN:
            raise IllegalAction(N_("Wait for the Defender to answer your claim."))
    elif role == ALIEN and kind != pending["kind"]:
        raise IllegalAction(N_("Answer the power tile's question first."))
    elif role == DEFENDER and (answers or state["mode"] == "strategie"):
        raise IllegalAction(N_("Wait for the Alien to answer the power tile's question."))


def play_move(check: Callable, run: Callable, candidates: Callable, roles: tuple = ROLES, **kernel) -> Move:
    """A move of the game in play, written for a role: the kernel's check and run get the seat."""

    def full_check(state: dict, seat, action: dict) -> None:
        role = actor_of(state, seat)
        if role != HOST and role not in roles:
            raise IllegalAction(N_("Only the Alien can do that.") if roles == (ALIEN,)
                                else N_("Only the Defender can do that."))
        check_pending(state, role, action["type"])
        check(state, role, action)

    def recorded_run(state: dict, seat, action: dict, rng) -> list[dict]:
        events = run(state, actor_of(state, seat), action, rng)
        if state["started_at"] is None:  # Stratégie: the clock starts with the first action
            state["started_at"] = action_time(action)
        if state["winner"]:
            state["ended_at"] = action_time(action)
        return events

    return Move(run=recorded_run, check=full_check, candidates=candidates, **kernel)


def setup_move(check: Callable, run: Callable, candidates: Callable, **kernel) -> Move:
    return Move(run=lambda state, seat, action, rng: run(state, seat, action), check=check, candidates=candidates,
                **kernel)


# --- roles and the countdown -----------------------------------------------

def check_choose_role(state: dict, seat, action: dict) -> None:
    require_fields(action, role=str)
    if action["role"] not in ROLES:
        raise IllegalAction(N_("The roles are the Alien and the Defender."))


def choose_role(state: dict, seat: int, action: dict) -> list[dict]:
    assign_roles(state, seat, action["role"])
    return [{"type": "roles_chosen", "alien": state["roles"][ALIEN], "defender": state["roles"][DEFENDER]}]


def check_ready(state: dict, seat, action: dict) -> None:
    if state["ready"][role_of(state, seat)]:
        raise IllegalAction(N_("You are ready: wait for the other player."))


def ready(state: dict, seat: int, action: dict) -> list[dict]:
    role = role_of(state, seat)
    state["ready"][role] = True
    events = [{"type": "ready", "role": role}]
    if all(state["ready"].values()):
        state["countdown_from"] = action_time(action) or 0.0
        events.append({"type": "countdown", "seconds": state["countdown_seconds"]})
    return events


def check_go(state: dict, seat, action: dict) -> None:
    """Top départ: either phone sends it when its countdown ends; the server's clock has the last word."""
    at = action_time(action)
    if at is None or at < state["countdown_from"] + state["countdown_seconds"]:
        raise IllegalAction(N_("Wait for the countdown: top départ!"))


def go_candidates(state: dict, seat) -> list[dict]:
    """The shell stamps the time of every action: the one offered is the countdown's end."""
    return [{"at": state["countdown_from"] + state["countdown_seconds"]}]


def go(state: dict, seat: int, action: dict) -> list[dict]:
    state["started_at"] = action_time(action)
    return [{"type": "top_depart"}]


def both_seats(state: dict) -> list[int]:
    return [int(seat) for seat in state["seats"]]


def one(parameters: dict) -> Callable:
    return lambda state, seat: [dict(parameters)]


MOVES = {
    "choose_role": setup_move(check_choose_role, choose_role, lambda s, seat: [{"role": r} for r in ROLES]),
    # The host may say an away phone is ready, throw its dice and end its turn: open steps, no secret.
    "ready": setup_move(check_ready, ready, one({}), proxy=True, label=N_("say ready")),
    "go": setup_move(check_go, go, go_candidates),
    "throw": play_move(throwing.check_throw, throwing.throw, throwing.throw_candidates, proxy=True,
                       label=N_("throw the dice")),
    "end_turn": play_move(throwing.check_end_turn, throwing.end_turn, one({}), proxy=True, label=N_("end the turn")),
    "bonus": play_move(alien.check_bonus, alien.bonus, alien.bonus_candidates, (ALIEN,)),
    "repair": play_move(alien.check_repair, alien.repair, alien.repair_candidates, (ALIEN,), proxy=True,
                        label=N_("repair a saucer")),
    "heart": play_move(alien.check_heart, alien.heart, alien.heart_candidates, (ALIEN,), proxy=True,
                       label=N_("answer the extra life question")),
    "sacrifice": play_move(alien.check_sacrifice, alien.sacrifice, saucer_candidates, (ALIEN,)),
    "lift_field": play_move(alien.check_lift_field, alien.lift_field, one({}), (ALIEN,)),
    "claim": play_move(alien.check_claim, alien.claim, one({}), (ALIEN,)),
    "confirm": play_move(defender.check_confirm, defender.confirm, defender.confirm_candidates, (DEFENDER,),
                         proxy=True, label=N_("answer the last-line claim")),
    "move": play_move(defender.check_move_ship, defender.move_ship, one({}), (DEFENDER,)),
    "nugget": play_move(defender.check_nugget, defender.nugget, defender.nugget_candidates, (DEFENDER,)),
    "gps": play_move(defender.check_gps, defender.gps, defender.gps_candidates, (DEFENDER,)),
    "hit": play_move(defender.check_hit, defender.hit, defender.hit_candidates, (DEFENDER,)),
    "correct": play_move(counters.check_correct, counters.correct, counters.correct_candidates, by=ANYONE),
    "agree_correction": play_move(counters.check_agree, counters.agree, counters.agree_candidates, proxy=True,
                                  label=N_("answer the proposed correction")),
}
PLAYING_MOVES = tuple(kind for kind in MOVES if kind not in ("choose_role", "ready", "go"))

def unless_won(following: Callable[[dict], str | None]) -> Callable[[dict], str | None]:
    """A phase's next: the game is over once someone won (a forfeit can come in any phase)."""
    return lambda state: "over" if state["winner"] else following(state)


PHASES = {
    "roles": Phase(moves=("choose_role",), label=N_("choosing roles"), actors=both_seats,
                   next=unless_won(lambda state: phase_after_roles(state["mode"]) if state["roles"][ALIEN] is not None
                                   else None)),
    "ready": Phase(moves=("ready",), label=N_("getting ready"), actors=both_seats,
                   next=unless_won(lambda state: "countdown" if all(state["ready"].values()) else None)),
    "countdown": Phase(moves=("go",), label=N_("counting down"), actors=both_seats, waits=False,
                       next=unless_won(lambda state: "playing" if state["started_at"] is not None else None)),
    "playing": Phase(moves=PLAYING_MOVES, label=N_("playing the game"), actors=both_seats,
                     next=unless_won(lambda state: None)),
    "over": Phase(moves=(), label=N_("finishing the game"), actors=lambda state: [], waits=False),
}


# --- what each screen sees ------------------------------------------------------

def render(visible: dict, seat) -> dict:
    """Everything but the identity of face-down tiles (in the secret, which nobody sees, not even
    their owner), with what the screens compute from it."""
    shown = plain_copy(visible)  # edited below; the kernel shares the state's data (strip_secrets)
    shown["role"] = next((role for role, owner in visible["roles"].items()
                          if type(seat) is int and owner == seat), None)
    shown["saucers_on_board"] = sum(visible["saucers"]["on_board"].values())
    shown["throws_left"] = throws_left(visible)
    shown["reactor_cell_due"] = reactor_cell_due(visible, DEFENDER)
    return shown


def throws_left(state: dict) -> dict:
    if state["mode"] == "arcade":
        return {ALIEN: None, DEFENDER: None}  # unlimited
    return {role: 0 if state["settled"][role] else state["max_throws"] - state["throws"][role] for role in ROLES}


# --- the end, whom the game waits on, a seat that leaves ----------------------------

OUTCOME_REASONS = {"saucers": N_("Every saucer is off the board: %(winner)s, the Defender, wins."),
                   "last_line": N_("A saucer reached the last line: %(winner)s, the Alien, wins."),
                   "forfeit": N_("%(loser)s left the game: %(winner)s wins by forfeit.")}


def decide(state: dict) -> dict | None:
    if not state["winner"]:
        return None
    winner, loser = state["roles"][state["winner"]], state["roles"][other(state["winner"])]
    return duel_outcome(state["seats"], winner, loser, OUTCOME_REASONS[state["won_by"]])


# What the active player does in a Stratégie turn, named with the role: every screen reads
# "Your move: …" or "Waiting for Ana: …" before it.
TURN_WAITS = {ALIEN: N_("throw the dice and move saucers as the Alien, then end the turn"),
              DEFENDER: N_("throw the dice, shoot and move the ship as the Defender, then end the turn")}


def wait_on(state: dict) -> list[dict]:
    """Whom the game waits on: the claim's answer needs the other phone, so it is timed."""
    roles, pending = state["roles"], state["pending"]

    def entry(seat: int, what: str, timed: bool = False) -> dict:
        return {"seat": seat, "for": what, "params": {}, "timed": timed}

    if state["phase"] == "roles":
        return [entry(seat, N_("choose a role")) for seat in both_seats(state)]
    if state["phase"] == "ready":
        return [entry(roles[role], N_("say ready")) for role in ROLES if not state["ready"][role]]
    if state["phase"] != "playing":
        return []
    if pending and pending["kind"] == "claim":
        return [entry(roles[DEFENDER], N_("answer the Alien's last-line claim"), timed=True)]
    if pending:
        return [entry(roles[ALIEN], N_("answer the power tile's question"))]
    if state["mode"] == "strategie":
        return [entry(roles[state["active"]], TURN_WAITS[state["active"]])]
    return []


def check_leave(state: dict, seat, action: dict) -> None:
    if str(seat) not in state["seats"]:
        raise IllegalAction(N_("You are not playing this game."))


def forfeit(state: dict, seat: int, action: dict, rng) -> list[dict]:
    """Arkade is a duel: the player who stays wins by forfeit (before the roles are chosen, the
    player who leaves is counted as the Alien)."""
    if state["roles"][ALIEN] is None:
        assign_roles(state, seat, ALIEN)
    leaving = role_of(state, seat)
    win(state, other(leaving), "forfeit")
    state["pending"] = None
    return [{"type": "withdrew", "role": leaving}, {"type": "won", "winner": other(leaving)}]


RULES = Rules(moves=MOVES, phases=PHASES, render=render, decide=decide, wait_on=wait_on,
              leave=Move(run=forfeit, check=check_leave), history=KEEP_ALL)
