"""A game replayed from its public log: the verifier's proof that the log holds the whole game.

The table writes, before the draws and events of every change to a game's state, an ``action``
entry saying which of the game's rules it ran and with what (``call``):

* ``setup``: ``options`` and ``seats`` (as the game's ``setup`` received them),
* ``apply``: ``seat`` (a seat number, or ``"host"``) and the ``action`` as the rules received it
  (stamped with its ``at``; the host deciding for an away seat writes the seat it decided for),
* ``timeout``, ``withdraw``: the ``seat`` whose deadline passed, or who left the game,
* ``figure``: the ``figure`` tapped on the reader during the game,
* ``seat_added``: the ``player`` who joined a game that was already playing,
* ``fresh``: the table's draw the game asked for (``Game.fresh_draw``), from the round opened for it.

`Replay` runs the same rules again, with the draws of the log (each one checked against what
the rules ask for: the same kind, range and purpose) and compares the events each call gives
with the events logged after it. An ``undone`` table entry takes the state back to before the
action it names; the ``over`` and ``closed`` entries carry the digest of the final state, which
the replayed state must match. The first difference stops the replay: later entries follow from
a state the log does not describe.

While a game is played the public log shows only which call ran and for whom: the actions
themselves (a revealed choice and its salt among them) are sealed until the seed is revealed.
A private action (one only its actor may learn happened) is not logged at all; no game has one
today, and a game that adds one cannot be replayed.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from companion.games.base import DRAW_KINDS, Draw, IllegalAction, Msg

CALLS = ("setup", "apply", "timeout", "withdraw", "figure", "seat_added", "fresh")


class Said(str):
    """A problem or note in English, as the CLI prints it, that keeps its message (an English msgid
    with ``%(name)s`` fields) and the values of those fields: the verify page runs this module in the
    browser and shows the message in the page's language (``said`` marks the messages for the
    browser's catalogue, babel-js.cfg)."""

    template: str
    params: dict

    def __new__(cls, template: str, params: dict, text: str | None = None):
        said = super().__new__(cls, template % params if text is None else text)
        said.template, said.params = template, params
        return said

    def prefixed(self, prefix: str) -> "Said":
        """The same message, printed after ``prefix`` (the page shows it under its own heading)."""
        return Said(self.template, self.params, prefix + self)


def said(template: str, **params) -> Said:
    """A message for the CLI and the verify page: the values are written as the CLI shows them."""
    return Said(template, {name: value if isinstance(value, (int, str)) else repr(value)
                           for name, value in params.items()})


def draw_said(purpose: Any) -> str:
    """A logged draw's purpose as the CLI says it: its kind's sentence, a seat as "seat 2" (the verify
    page names the player: static/js/draw-kinds.js); a purpose in prose (an older log) as it is."""
    declared = DRAW_KINDS.get(purpose.get("kind")) if isinstance(purpose, dict) else None
    if declared is None:
        return purpose if isinstance(purpose, str) else repr(purpose)
    fields = {name: said_field(name, purpose.get(name)) for name in declared.fields}
    return declared.sentence % fields


def said_field(name: str, value: Any) -> str:
    if name == "seat":
        return "the table" if value is None else f"seat {value}"
    return ", ".join(map(str, value)) if isinstance(value, list) else str(value)


def refusal_said(refusal: IllegalAction) -> Said:
    """The rules' refusal (an English msgid from the games' catalogue, the server's) as a message of its
    own, quoted inside the replay's: the CLI prints its English, the verify page translates it and its
    fields that are msgids themselves (`Msg`)."""
    params = {name: Said(value, {}) if isinstance(value, Msg) else value if isinstance(value, (int, str)) else str(value)
              for name, value in refusal.params.items()}
    return Said(refusal.message, params, str(refusal))


MISSING = said("the game's events here follow no action: the action that made them is missing from the log")
ACTION_PAYLOAD = ("action", "options", "seats", "figure", "player")  # sealed in the public log till the seed is out


def action_entry(call: str, seat: Any = None, **payload: Any) -> dict:
    """The log entry the table writes before the draws and events of one call of the game's rules."""
    return {"kind": "action", "call": call, "seat": seat, **payload}


def state_digest(state: Any) -> str:
    """What the log keeps of a final state (in its ``over`` and ``closed`` entries)."""
    return hashlib.sha256(json.dumps(state, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def plain(value: Any) -> Any:
    """As the store keeps it (JSON): what the server's next action starts from."""
    return json.loads(json.dumps(value))


class Diverged(Exception):
    """The replay cannot go on: ``where`` is the entry number, ``text`` what differs; ``also``: the entry
    of the event that differs, when it is not ``where``."""

    def __init__(self, where, text: str, also=None):
        super().__init__(text)
        self.where, self.text, self.also = where, text, also


class LoggedDraws:
    """The randomness of one replayed call: the draws the log holds for it, in order.

    Each is checked against what the rules ask for; the results themselves the verifier has
    already recomputed from the revealed seed."""

    def __init__(self, draws: list[dict], where):
        self.draws, self.used, self.where = draws, 0, where

    def _next(self, kind: str, purpose: Draw, secret: bool, **params) -> Any:
        if self.used >= len(self.draws):
            raise Diverged(self.where, said("the rules draw (%(purpose)s) but the log holds no draw for it here",
                                            purpose=draw_said(purpose.as_json())))
        draw = self.draws[self.used]
        self.used += 1
        asked = {"type": kind, "purpose": purpose.as_json(), "secret": secret, **params}
        if not isinstance(draw.get("purpose"), dict):
            del asked["purpose"]  # a log from before typed purposes names its draws in prose: the rest must match
        logged = {key: draw.get(key) for key in asked}
        if logged != asked:
            raise Diverged(self.where, said("entry %(action)s's action, replayed, draws %(asked)s; the log has "
                                            "%(logged)s (entry %(draw)s)", action=self.where, asked=asked,
                                            logged=logged, draw=draw.get("i")), draw.get("i"))
        return draw.get("result")

    def randint(self, lo: int, hi: int, purpose: Draw, secret: bool = False) -> int:
        return self._next("int", purpose, secret, lo=lo, hi=hi)

    def permutation(self, size: int, purpose: Draw, secret: bool = False) -> list[int]:
        return list(self._next("shuffle", purpose, secret, size=size))

    def shuffle(self, items: list, purpose: Draw, secret: bool = False) -> list:
        return [items[i] for i in self.permutation(len(items), purpose, secret)]

    def choice(self, items: list, purpose: Draw, secret: bool = False):
        return items[self.randint(0, len(items) - 1, purpose, secret)]

    def nonce(self, bits: int = 128) -> str:
        raise Diverged(self.where, said("the rules use a secret the seed cannot give: this call cannot be replayed"))

    def left_over(self) -> list[dict]:
        return self.draws[self.used:]


class Replay:
    """One game of a table's log, replayed call by call (see the module docstring)."""

    def __init__(self, game_id: str | None):
        from companion.games import REGISTRY  # here: the games import the verifier, which imports this

        self.game = REGISTRY.get(game_id) if isinstance(game_id, str) else None
        self.state: Any = None
        self.started = False
        self.stopped: tuple | None = None  # (entry number, why) once the replay cannot go on
        self.calls = 0
        self.before: dict[int, Any] = {}  # action entry -> the state before it (for an undo)
        self.after: dict[int, str] = {}  # action entry -> the digest of the state after it
        self.taken_back: set[int] = set()  # the action entries undone

    @property
    def active(self) -> bool:
        return self.game is not None and self.stopped is None

    def call(self, action: dict, draws: list[dict], entries: list[dict]) -> list[tuple]:
        """Runs one logged call with its draws; the problems (entry number, text), at most one."""
        if not self.active:
            return []
        where = action.get("i")
        # One save writes an action with its draws and events, all stamped with the same time: one stamped
        # otherwise was written by another save, whose action is missing (the verify page checks this too).
        stray = next((entry for entry in draws + entries if "at" in action and entry.get("at") != action["at"]), None)
        if stray is not None:
            return self._stop(stray.get("i"), MISSING)
        try:
            self.calls += 1
            rng = LoggedDraws(draws, where)
            state, events, logged = self._run(action, rng, entries)
            if rng.left_over():
                extra = rng.left_over()[0]
                raise Diverged(extra.get("i"), said("the log holds a draw (%(purpose)s) the rules do not make "
                                                    "here", purpose=draw_said(extra.get("purpose"))))
            self._compare(events, logged, where)
        except Diverged as stop:
            found = self._stop(stop.where, stop.text)
            return found + ([(stop.also, found[0][1])] if stop.also not in (None, stop.where) else [])
        except IllegalAction as refusal:
            return self._stop(where, self._refused(action, refusal_said(refusal)))
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
            return self._stop(where, self._failed(action, repr(error)))
        self.before[where] = self.state
        self.state = plain(state)
        self.started = True
        self.after[where] = state_digest(self.state)
        return []

    @staticmethod
    def _kind(action: dict):
        payload = action.get("action")
        return payload.get("type") if isinstance(payload, dict) else None

    def _refused(self, action: dict, refusal: Said) -> Said:
        if self._kind(action):  # the refusal is a message of its own: the page shows it in its language too
            return said("the rules refuse this action %(kind)s of seat %(seat)s: %(refusal)s",
                        kind=repr(self._kind(action)), seat=repr(action.get("seat")), refusal=refusal)
        return said("the rules refuse this %(call)s call: %(refusal)s", call=repr(action.get("call")), refusal=refusal)

    def _failed(self, action: dict, error: str) -> Said:
        if self._kind(action):
            return said("this action %(kind)s of seat %(seat)s cannot be replayed (%(error)s)",
                        kind=repr(self._kind(action)), seat=repr(action.get("seat")), error=error)
        return said("this %(call)s call cannot be replayed (%(error)s)", call=repr(action.get("call")), error=error)

    def _run(self, action: dict, rng: LoggedDraws, entries: list[dict]) -> tuple[Any, list, list]:
        call, seat = action.get("call"), action.get("seat")
        logged = [e for e in entries if not e.get("figures")]  # not the table's own figure events
        if call not in CALLS:
            raise Diverged(action.get("i"), said("an action entry with an unknown call %(call)s", call=repr(call)))
        if call == "setup":
            if self.started:
                raise Diverged(action.get("i"), said("the game is set up a second time"))
            return self.game.setup(action["options"], action["seats"], rng), [], logged
        if not self.started:
            raise Diverged(action.get("i"), said("an action before the game was set up: its setup is missing"))
        state = self.state
        if call == "apply":
            if not isinstance(action.get("action"), dict):
                raise Diverged(action.get("i"), said("an action entry without its action (sealed, or removed)"))
            return (*self.game.apply(state, seat, action["action"], rng), logged)
        if call == "timeout":
            if self.game.on_timeout is None:
                raise Diverged(action.get("i"), said("a deadline settled by a game that has no rule for it"))
            return (*self.game.on_timeout(state, seat, rng), logged)
        if call == "withdraw":
            return (*self.game.withdraw(state, seat, rng), logged)
        if call == "seat_added":
            return self.game.seat_added(state, action["player"]), [], logged
        if call == "fresh":
            if self.game.fresh_draw is None:
                raise Diverged(action.get("i"), said("a table draw asked for by a game that asks for none"))
            return (*self.game.fresh_draw(state, rng), logged)
        if self.game.figure_tapped is None:
            raise Diverged(action.get("i"), said("a figure tapped in a game that does not use the reader"))
        return (*self.game.figure_tapped(state, action["figure"], rng), logged)

    @staticmethod
    def _compare(events: list, logged: list[dict], where) -> None:
        """The replayed events against those logged after the action (reported at both entries)."""
        replayed = plain(events)
        for mine, entry in zip(replayed, logged):
            if mine != entry.get("event"):
                raise Diverged(where, said("entry %(action)s's action, replayed, gives the event %(event)s where "
                                           "the log has %(logged)s (entry %(entry)s)", action=where, event=mine,
                                           logged=entry.get("event"), entry=entry.get("i")), entry.get("i"))
        counts = {"action": where, "count": len(replayed), "logged": len(logged)}
        if len(replayed) > len(logged):
            raise Diverged(where, said("entry %(action)s's action, replayed, gives %(count)s events; the log has "
                                       "%(logged)s: its event %(event)s was removed", **counts,
                                       event=replayed[len(logged)]))
        if len(replayed) < len(logged):
            extra = logged[len(replayed)]
            raise Diverged(where, said("entry %(action)s's action, replayed, gives %(count)s events; the log has "
                                       "%(logged)s: from entry %(entry)s on, they follow no action (an action "
                                       "is missing) or were added", **counts, entry=extra.get("i")), extra.get("i"))

    def orphan(self, draws: list[dict], entries: list[dict]) -> list[tuple]:
        """Draws or events of the game that no action entry precedes: the action that made them is missing.
        (The table's own figure events, marked, need none.)"""
        made = draws + [entry for entry in entries if not entry.get("figures")]
        if not self.active or not self.started or not made:
            return []
        return self._stop(made[0].get("i"), MISSING)

    def undone(self, entry: dict) -> list[tuple]:
        """An undo takes the game back to before the action it names, which must be the last one's state."""
        if not self.active or not self.started:
            return []
        named = [i for i in entry.get("entries") or [] if i in self.before]
        if not named:
            return self._stop(entry.get("i"), said("an undo that names no action of the log"))
        action = min(named)
        latest = max(i for i in self.before if i not in self.taken_back)  # the verify page checks this too
        if action != latest or state_digest(self.state) != self.after[action]:
            return self._stop(entry.get("i"), said("an undo of entry %(action)s, but the game had moved on since",
                                                   action=action))
        self.state = self.before[action]
        self.taken_back.add(action)
        return []

    def final(self, entry: dict) -> list[tuple]:
        """The ``over`` or ``closed`` entry: the replayed state is the one the table ended with."""
        if not self.active or not self.started or "state" not in entry:
            return []
        if entry["state"] != state_digest(self.state):
            return self._stop(entry.get("i"), said("the replayed game does not end in the state the table ended "
                                                   "with: an action or an event of the log was changed"))
        return []

    def _stop(self, where, text: Said) -> list[tuple]:
        self.stopped = (where, text)
        return [(where, text.prefixed("replay: "))]
