"""The kernel every game is written on: declared phases and moves, secrets by
layout, one outcome (in the spirit of boardgame.io's flow and python-chess's
one source for "legal").

A game declares

* its **moves**: one `Move` per action type, with one ``check`` predicate that
  raises `IllegalAction` when the action is not legal. The same predicate
  refuses an action in ``apply`` and filters the candidates of
  ``legal_actions``: "legal" has one source;
* its **phases**: one `Phase` per value of ``state["phase"]``, naming the move
  types allowed in it, the seats that may act (``actors``), what comes next
  (``next``) and what happens on entering it (``begin``). Off-phase and
  out-of-turn actions never reach a move;
* its **stages** (boardgame.io's): a phase may hold declared sub-steps, one
  `Stage` per value of ``state["stage"]``, each with its own moves, actors,
  ``next`` and ``begin``. What may be done now is looked up stage → phase: a
  stage that leaves its moves or actors undeclared takes the phase's. A `Move`
  may carry its own ``actors`` too (board keeping open to every racer while
  the phase's actors are the choosers);
* its **system moves**: what happens when a seat ``leave``s the game for good,
  when a timed wait on a seat passes the table's ``timeout`` and when the table
  makes a ``fresh`` draw the game asked for (``Game.wants_fresh_draw``); they run
  through the same path as every move (copy, advance, decide, history once),
  as boardgame.io's ``onPlayerLeave``;
* where its **secrets** live: a seat's private data in
  ``state["private"][str(seat)]``, the table's (decks, face-down tiles) in
  ``state["secret"]``. Views are rendered from `strip_secrets`, so a new
  private field is private by layout, not by remembering to hide it;
* its **outcome**: ``decide(state)`` returns None while the game runs, then
  ``{"winners": [seat, ...], "reason": msgid, "ranking": [[seat, ...], ...]}``;
  the kernel stores it in ``state["outcome"]`` and refuses every action after.

`Rules` turns these declarations into the ``apply``, ``view``,
``legal_actions``, ``outcome``, ``waiting``, ``host_actions`` and
``proxy_actions`` of a `companion.games.base.Game`::

    RULES = Rules(moves=MOVES, phases=PHASES, render=render, decide=decide)
    GAME = register(Game(id="dice", ..., setup=setup, **RULES.hooks()))

A move's ``run`` gets a private deep copy of the state and changes it in place
(it returns the list of public events); ``apply`` never mutates its input.
With ``history=n`` the kernel keeps the last n public events in
``state["history"]`` (every move's, every begin's, a leave's, a timeout's),
so that a game never appends them itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from companion.games.base import HOST, N_, IllegalAction, Msg, plain_copy

SEAT = "seat"  # a move a seated player sends (for themselves)
HOST_ONLY = "host"  # a move of the host screen (board keeping, questions put to the table)
ANYONE = "anyone"  # either

MAX_PHASE_STEPS = 100  # phases that chain into each other on one action: a loop is a bug
KEEP_ALL = -1  # Rules(history=KEEP_ALL): the game's history keeps every event
LEAVE, TIMEOUT, FRESH = "leave", "timeout", "fresh"  # the system moves' action types (in their ``run``'s action)


def _no_objection(state: dict, seat: Any, action: dict) -> None:
    return None


def _no_parameters(state: dict, seat: Any) -> Iterable[dict]:
    return ({},)


@dataclass(frozen=True)
class Move:
    """One action type.

    ``run(state, seat, action, rng) -> events`` changes the state (a private
    copy) in place; ``check(state, seat, action)`` raises `IllegalAction` when
    the action is not legal and never changes the state; ``candidates(state,
    seat)`` lists the parameter sets worth offering (``legal_actions`` keeps
    those ``check`` accepts; a free-text move offers an example)."""

    run: Callable[[dict, Any, dict, Any], list[dict] | None]
    check: Callable[[dict, Any, dict], None] = _no_objection
    candidates: Callable[[dict, Any], Iterable[dict]] = _no_parameters
    by: str = SEAT
    # The host may take this move for a seat that is away (an open decision:
    # never a secret choice, which only its phone may make).
    proxy: bool = False
    # What the move is called on the host's button when it decides for a seat (a msgid).
    label: str | None = None
    # The seats that may send it now, when not the stage's or the phase's (board keeping open to
    # every racer while the phase waits on the choosers).
    actors: Callable[[dict], Iterable[int]] | None = None


@dataclass(frozen=True)
class Stage:
    """A declared sub-step of a phase (the card a figure turned over waits for its name, a fight
    waits for its answers): its own moves and actors, what comes next and what happens on entering
    it. The kernel keeps its name in ``state["stage"]``. ``moves``, ``actors``, ``label``, ``waits``
    and ``timed`` left as None are the phase's; ``next(state)`` names the stage of the same phase
    to go to (None: stay)."""

    moves: tuple[str, ...] | None = None
    label: str | None = None
    actors: Callable[[dict], Iterable[int]] | None = None
    next: Callable[[dict], str | None] | None = None
    begin: Callable[[dict, Any], list[dict] | None] | None = None
    waits: bool | None = None
    timed: bool | None = None


@dataclass(frozen=True)
class Phase:
    """One step of the game's flow.

    ``actors(state)`` is the seats that may act now (None: every seat, for
    games such as the shared die); ``next(state)`` is checked after every
    action and names the phase to go to (None: stay); ``begin(state, rng)``
    runs on entering the phase and returns events. ``waits`` says whether the
    table waits on the actors (so the screens say "waiting for …"), ``timed``
    whether such a wait needs another phone and so gets the table's deadline."""

    moves: tuple[str, ...]
    # msgid: what the table is doing, read as "the table is <label>" ("choosing roles";
    # French: "la table est en train de <label>", "choisir les rôles"), in refusals and waits.
    label: str
    actors: Callable[[dict], Iterable[int]] | None = None
    next: Callable[[dict], str | None] | None = None
    begin: Callable[[dict, Any], list[dict] | None] | None = None
    waits: bool = True
    timed: bool = False
    # Its sub-steps; entering the phase enters ``first_stage`` (None: the first declared).
    stages: dict[str, Stage] = field(default_factory=dict)
    first_stage: str | None = None

    def starting_stage(self) -> str | None:
        return self.first_stage or next(iter(self.stages), None)


@dataclass(frozen=True)
class Now:
    """What the state's phase and stage allow: the lookup stage → phase, made once."""

    phase: Phase
    stage_name: str | None
    moves: tuple[str, ...]
    label: str
    actors: Callable[[dict], Iterable[int]] | None
    waits: bool
    timed: bool


def strip_secrets(state: dict, seat: Any) -> dict:
    """``state`` holding only what ``seat`` may see: no ``secret``, and in ``private`` only the
    seat's own entry. Its values are the state's own, not copies (a view is built for every
    screen after every action; a deep copy per screen was the largest part of it): a game's
    render reads them and never changes them, which the random play checks for every game
    (tests/random_play.py, ``check_views``)."""
    visible = {key: value for key, value in state.items() if key not in ("secret", "private")}
    own = (state.get("private") or {}).get(str(seat)) if type(seat) is int else None
    if own is not None:
        visible["private"] = {str(seat): own}
    return visible


def private_of(state: dict, seat: int) -> dict:
    """The seat's private data (created empty on first use)."""
    return state.setdefault("private", {}).setdefault(str(seat), {})


@dataclass(frozen=True)
class Rules:
    """A game's declarations, and the functions the table calls, built from them."""

    moves: dict[str, Move]
    phases: dict[str, Phase]
    # (state stripped for the viewer, viewer) -> the game's view; the stripped state shares the state's
    # data: a render that edits what it got in place copies it first (Rayman's, Arkade's).
    render: Callable[[dict, Any], dict]
    decide: Callable[[dict], dict | None] = lambda state: None
    # Whom the game waits on, when the phases' default (their actors) is not enough.
    wait_on: Callable[[dict], list[dict]] | None = None
    always: tuple[str, ...] = field(default=())  # moves allowed in every phase (corrections, say)
    # A seat leaves for good (run(state, seat, action, rng) -> events); a timed wait on a seat passed
    # the table's deadline. None: the game goes on as it is / the host decides for the seat.
    leave: Move | None = None
    timeout: Move | None = None
    # A draw the game asks the table for (``Game.wants_fresh_draw``), made when a round of the phones' values
    # opened for it seals: run(state, seat=None, action, rng) -> events; its check says no when nothing waits.
    fresh: Move | None = None
    history: int = 0  # the last events kept in state["history"] (0: none, KEEP_ALL: every one)
    # `now` by (phase, stage): every view of every screen asks it several times per action.
    _nows: dict = field(default_factory=dict, compare=False, repr=False)

    # The table's hooks ------------------------------------------------------
    def hooks(self) -> dict:
        """The `Game` fields the kernel provides."""
        hooks = {"apply": self.apply, "view": self.view, "legal_actions": self.legal_actions,
                 "outcome": self.outcome, "waiting": self.waiting,
                 "host_actions": frozenset(k for k, m in self.moves.items() if m.by in (HOST_ONLY, ANYONE)),
                 "proxy_actions": frozenset(k for k, m in self.moves.items() if m.proxy),
                 "action_labels": {k: m.label for k, m in self.moves.items() if m.label},
                 "phase_labels": tuple(dict.fromkeys(
                     [phase.label for phase in self.phases.values()]
                     + [stage.label for phase in self.phases.values() for stage in phase.stages.values() if stage.label]))}
        if self.leave is not None:
            hooks["withdraw"] = self.withdraw
        if self.timeout is not None:
            hooks["on_timeout"] = self.on_timeout
        if self.fresh is not None:
            hooks["fresh_draw"] = self.fresh_draw
        return hooks

    def apply(self, state: dict, seat: Any, action: dict, rng) -> tuple[dict, list[dict]]:
        kind = action.get("type") if isinstance(action, dict) else None
        move = self.moves.get(kind) if isinstance(kind, str) else None
        if move is None:
            raise IllegalAction(N_("Unknown action: %(action)s."), action=str(kind)[:40])
        self._refuse_if_not_allowed(state, seat, kind, move)
        move.check(state, seat, action)
        return self._run(move, state, seat, action, rng)

    def withdraw(self, state: dict, seat: int, rng) -> tuple[dict, list[dict]]:
        """The seat leaves the game for good, by the game's ``leave`` move."""
        return self._system(self.leave, state, seat, {"type": LEAVE}, rng)

    def on_timeout(self, state: dict, seat: int, rng) -> tuple[dict, list[dict]]:
        """A timed wait on the seat passed the table's deadline: the game's ``timeout`` move."""
        return self._system(self.timeout, state, seat, {"type": TIMEOUT}, rng)

    def fresh_draw(self, state: dict, rng) -> tuple[dict, list[dict]]:
        """The table's draw the game asked for (``Game.fresh_draw``), by the game's ``fresh`` move."""
        return self._system(self.fresh, state, None, {"type": FRESH}, rng)

    def legal_actions(self, state: dict, seat: Any) -> list[dict]:
        """Every action ``seat`` may send now, from the same predicates as the refusals."""
        if seat is None or state.get("outcome") is not None:
            return []
        found = []
        now = self.now(state)
        for kind in now.moves + self.always:
            move = self.moves[kind]
            if not self._may_act(state, seat, move, now):
                continue
            for parameters in move.candidates(state, seat):
                action = {**parameters, "type": kind}
                try:
                    move.check(state, seat, action)
                except IllegalAction:
                    continue
                found.append(action)
        return found

    def view(self, state: dict, seat: Any) -> dict:
        """The game's view for ``seat``, rendered from what it may see, with the
        keys every game shares: phase (its name and its label, a msgid the screen translates),
        legal actions, whom the game waits on, outcome."""
        rendered = self.render(strip_secrets(state, seat), seat)
        # A candidate marked "proxied" is a decision only the host takes for the seat when it is away
        # (`companion.night`): listed among the host's choices, not on the seat's own screen.
        legal = [action for action in self.legal_actions(state, seat) if action.get("proxied") is not True]
        now = self.now(state)
        shown = {**rendered, "phase": state["phase"], "phase_label": now.phase.label, "legal": legal,
                 "waiting": self.waiting(state), "outcome": state.get("outcome")}
        if now.stage_name is not None:  # only a phase that has stages shows one
            shown["stage"], shown["stage_label"] = now.stage_name, now.label
        return shown

    def outcome(self, state: dict) -> dict | None:
        return state.get("outcome") if isinstance(state, dict) else None

    def waiting(self, state: dict) -> list[dict]:
        if state.get("outcome") is not None:
            return []
        if self.wait_on is not None:
            return self.wait_on(state)
        now = self.now(state)
        if not now.waits or now.actors is None:
            return []
        return [{"seat": seat, "for": now.label, "params": {}, "timed": now.timed}
                for seat in now.actors(state)]

    def now(self, state: dict) -> Now:
        """The phase and stage the state is in, and what they allow (a stage's undeclared parts are the
        phase's). A state saved before its phase had stages is in the phase's first stage."""
        stage = state.get("stage")
        key = (state["phase"], stage if type(stage) is str else None)  # any other stage is the first one
        found = self._nows.get(key)
        if found is None:
            found = self._nows[key] = self._now(*key)
        return found

    def _now(self, phase_name: str, stage_name: Any) -> Now:
        phase = self.phases[phase_name]
        name = stage_name if phase.stages else None
        name = name if name in phase.stages else phase.starting_stage()
        stage = phase.stages.get(name) if name is not None else None
        if stage is None:
            return Now(phase, None, phase.moves, phase.label, phase.actors, phase.waits, phase.timed)
        return Now(phase, name, phase.moves if stage.moves is None else stage.moves, stage.label or phase.label,
                   stage.actors or phase.actors, phase.waits if stage.waits is None else stage.waits,
                   phase.timed if stage.timed is None else stage.timed)

    # Inside -----------------------------------------------------------------
    def _may_act(self, state: dict, seat: Any, move: Move, now: Now) -> bool:
        if seat == HOST:
            return move.by in (HOST_ONLY, ANYONE)
        if type(seat) is not int or move.by == HOST_ONLY:
            return False
        actors = move.actors or now.actors
        return actors is None or seat in set(actors(state))

    def _refuse_if_not_allowed(self, state: dict, seat: Any, kind: str, move: Move) -> None:
        if state.get("outcome") is not None:
            raise IllegalAction(N_("The game is over."))
        now = self.now(state)
        if kind not in now.moves + self.always:
            raise IllegalAction(N_("Not now: the table is %(phase)s."), phase=Msg(now.label))
        if seat == HOST and move.by == SEAT:
            raise IllegalAction(N_("Only a player can do that, on their phone."))
        if seat != HOST and move.by == HOST_ONLY:
            raise IllegalAction(N_("Only the host can do that."))
        if not self._may_act(state, seat, move, now):
            raise IllegalAction(N_("Not your turn: the table is %(phase)s."), phase=Msg(now.label))

    def _system(self, move: Move, state: dict, seat: int, action: dict, rng) -> tuple[dict, list[dict]]:
        """A leave or a timeout: never refused (the table must be able to go on), so a check that
        says no means the move has nothing to do (the game is over, the seat plays no part, the
        wait was answered)."""
        if state.get("outcome") is not None:
            return state, []
        try:
            move.check(state, seat, action)
        except IllegalAction:
            return state, []
        return self._run(move, state, seat, action, rng)

    def _run(self, move: Move, state: dict, seat: Any, action: dict, rng) -> tuple[dict, list[dict]]:
        """Copy, run, advance, decide and keep the history: once, for every kind of move."""
        work = plain_copy(state)
        events = list(move.run(work, seat, action, rng) or [])
        events += self._advance(work, rng)
        work["outcome"] = self.decide(work)
        if self.history:
            kept = work.get("history", []) + events
            work["history"] = kept if self.history == KEEP_ALL else kept[-self.history:]
        return work, events

    def _advance(self, state: dict, rng) -> list[dict]:
        """Moves through the phases, and the stages within them, whose end the action brought about."""
        events: list[dict] = []
        for _ in range(MAX_PHASE_STEPS):
            phase = self.phases[state["phase"]]
            following = phase.next(state) if phase.next else None
            if following is not None and following != state["phase"]:
                events += self._enter_phase(state, following, rng)
                continue
            now = self.now(state)
            stage = phase.stages.get(now.stage_name) if now.stage_name is not None else None
            following = stage.next(state) if stage is not None and stage.next else None
            if following is None or following == now.stage_name:
                return events
            events += self._enter_stage(state, phase, following, rng)
        raise RuntimeError("the phases or stages loop: check their next()")

    def _enter_phase(self, state: dict, name: str, rng) -> list[dict]:
        if name not in self.phases:
            raise KeyError(f"phase {name!r} is not declared")
        state["phase"] = name
        entered = self.phases[name]
        state.pop("stage", None)
        events = list(entered.begin(state, rng) or []) if entered.begin else []
        first = entered.starting_stage()
        return events + (self._enter_stage(state, entered, first, rng) if first is not None else [])

    @staticmethod
    def _enter_stage(state: dict, phase: Phase, name: str, rng) -> list[dict]:
        if name not in phase.stages:
            raise KeyError(f"stage {name!r} is not declared in its phase")
        state["stage"] = name
        stage = phase.stages[name]
        return list(stage.begin(state, rng) or []) if stage.begin else []
