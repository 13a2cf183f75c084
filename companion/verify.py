"""Check a table's public log without taking the server's word for anything.

Usage: ``python -m companion.verify LOGFILE [--record PHONE.json]`` where LOGFILE
is the JSON document served by ``GET /api/tables/<code>/log`` (``-`` reads
standard input) and PHONE.json a phone's own record of the table (the verify
page downloads it from the phone that kept it).

What is checked, in log order (the verify page does exactly the same: 1-5 and 7 in its own script,
6 by running this very module in the browser, see `page_report` and `companion.rules_bundle`):

1. the revealed seed against the commitment published at creation;
2. every phone's chain: each value it revealed (in a round or with an action)
   hashes to the one before, down to the anchor it joined with;
3. every round: it asks every seated phone that takes part in rounds, and the
   pool it seals is the fold of the values revealed in it;
4. every draw: numbered without gaps, from the latest sealed pool, by a seat
   that was in a pool sealed after its anchor, its result recomputed; a setup's
   draws from the pool its start round sealed, a table call's from a round opened
   for it (`WAITS_FOR`, `TABLE_CALLS`); committed draws (``draw_waits``) run first come,
   first drawn, each from a round opened after it was committed (the queue);
5. every game event that comes from draws agrees with them (the game's
   `GameCheck`, below);
6. the game replays from the log (`companion.replay`): each logged action, run again by the
   game's rules with the log's draws, gives the events logged after it, and the game ends in the
   state the table ended with; a changed, added or missing action is reported at its entry;
7. with a phone's record: the commitment the phone was shown, its anchor and
   every value it revealed are in the log, and every result it displayed is the
   log's (a log rebuilt with another seed, without the phones' entropy, or with
   edited events is caught here even if it is consistent in itself);
8. with a phone's record: every value the phone showed the server is in the log. One that is not
   was seen and not spent: the server refused the action it came with (or failed, or says so), and
   a result it did not want could hide behind it (a veto). Each is reported with its action.

Every difference is reported with the number of the log entry (``i``).
Exit status: 0 when everything checks out, 1 when something does not, 2 when
the log cannot be verified (unreadable, or the seed is not revealed yet because
the table is still open), 3 when the log checks out but the server saw values of
the phone that it did not spend (8: possible vetoes, each listed).

A game plugs its own event rules in with `register_game_check` (see `GameCheck`, in
`companion.game_checks`).
The verify page's script runs the same rules from ``static/js/fairness.js`` (its
``GAME_CHECKS``): add a game to both.

``--rules-hash`` prints the SHA-256 of the zip of this verifier and the games' rules that the
verify page runs (`companion.rules_bundle`): the page shows the hash of the zip it ran.

``--server URL`` compares what a server serves (its pages, scripts, styles and rules zip) with this
checkout's own files (`companion.served`): the verify page runs the server's code, this does not.
"""

from __future__ import annotations

import importlib
import json
import sys
from dataclasses import dataclass, field

from companion import fairness
from companion.game_checks import GAME_CHECKS, GameCheck, Step, register_game_check
from companion.replay import Replay, draw_said, said

RECORD_FORMAT = "companion-phone-record/1"
# The table's draws that wait for a round of their own (`companion.fairness.Entropy.open_for`): the
# setup's, for the round the start opens, and a draw a game asks the table for (``fresh``).
WAITS_FOR = {"setup": "start", "fresh": "fresh"}
# The table's own calls of the rules (a host decision or game action, a withdrawal, a timeout): a table
# draw there waits for a round opened by the call (`companion.night`), when a phone takes part in rounds.
TABLE_CALLS = ("apply", "withdraw", "timeout")


def dice_check() -> GameCheck:
    """Dice: each ``rolled`` event is the action's draws, one per die, by the seat that rolled."""
    expected = {"number": 1}

    def step(step: Step) -> list[tuple[int, str]]:
        faces = [str(v) for v in range(1, int(step.options.get("die", "d6")[1:]) + 1)] \
            if step.options.get("die", "d6") != "custom" else list(step.options.get("faces", []))
        problems = []
        rolled = [(entry["i"], entry["event"]) for entry in step.entries if entry["event"].get("type") == "rolled"]
        if step.draws and not rolled:
            problems.append((step.draws[0]["i"], "a roll's draws have no rolled event: the event was removed"))
        for i, event in rolled:
            results = [draw.get("result") for draw in step.draws]
            if not step.draws:
                problems.append((i, "a rolled event without any draw: the event was forged"))
                continue
            if event.get("values") != results:
                problems.append((i, f"rolled {event.get('values')!r} but the draws give {results!r}"))
            elif event.get("faces") != [faces[v - 1] if isinstance(v, int) and 0 < v <= len(faces) else None
                                        for v in results]:
                problems.append((i, f"rolled faces {event.get('faces')!r} do not match the draws {results!r}"))
            if any(draw.get("by") != event.get("seat") for draw in step.draws):
                problems.append((i, f"rolled by seat {event.get('seat')} but drawn for seat {step.draws[0].get('by')}"))
            if any(draw.get("lo") != 1 or draw.get("hi") != len(faces) for draw in step.draws):
                problems.append((i, f"the draws are not of a die with {len(faces)} faces"))
            if event.get("number") != expected["number"]:
                problems.append((i, f"roll number {event.get('number')}, expected {expected['number']}"))
            expected["number"] = (event.get("number") if isinstance(event.get("number"), int) else expected["number"]) + 1
        return problems

    def shown(item: dict, events: list[tuple[int, dict]]) -> tuple[int | None, str] | None:
        if item.get("type") != "rolled":
            return None
        match = next(((i, e) for i, e in events if e.get("type") == "rolled" and e.get("number") == item.get("number")),
                     None)
        if match is None:
            return None, f"your phone showed roll {item.get('number')}, which the log does not have"
        i, event = match
        if event.get("values") != item.get("values") or event.get("seat") != item.get("seat"):
            return i, (f"your phone showed roll {item.get('number')} by seat {item.get('seat')} as "
                       f"{item.get('values')!r}, the log says seat {event.get('seat')} rolled {event.get('values')!r}")
        return None

    def reset() -> None:
        expected["number"] = 1

    return GameCheck(step=step, shown=shown, reset=reset)


register_game_check("dice", dice_check)


@dataclass
class Report:
    ok: bool
    draws_checked: int
    message: str
    verifiable: bool = True
    problems: list[tuple[int | None, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # What the replay of the game found (`companion.replay`), and what it says of itself (also in
    # ``notes``): the verify page runs this module for them (`page_report`); ``problems`` are the
    # checks its own script makes too.
    replay: list[tuple[int | None, str]] = field(default_factory=list)
    replay_notes: list[str] = field(default_factory=list)
    replayed: int = 0  # the calls of the games' rules replayed to the end without a difference
    # The values a phone's record says it showed the server and the log does not hold (check 8).
    unspent: list[tuple[int | None, str]] = field(default_factory=list)
    # The rounds started again without a phone that did not answer (the host's "Go on without them" or the
    # round's time up): each a veto, visible in the log, counted here with the unspent values.
    restarts: int = 0


class _Walk:
    """The log replayed entry by entry: every problem is kept with its entry number."""

    def __init__(self, document: dict):
        self.seed = document.get("seed")
        self.commitment = document.get("commitment")
        self.problems: list[tuple[int | None, str]] = []
        self.notes: list[str] = []
        self.pool, self.epoch, self.next_n, self.rounds = fairness.EMPTY_POOL, 0, 0, 0
        self.sealed_by: str | None = None  # why the round that sealed the pool was opened (see WAITS_FOR)
        self.seats: dict[int, dict] = {}
        self.present: set[int] = set()
        self.round: dict | None = None
        self.waiting: list[int] = []
        self.last_spent: tuple | None = None
        self.draws = 0
        # seat -> every chain value seen in the log for it (a seat handed to another phone has two chains)
        self.values: dict[int, set[str]] = {}
        self.game, self.options, self.check = document.get("game"), {}, None
        self.step: Step | None = None
        self.events: list[tuple[int, dict]] = []
        self.carried: dict[int, dict] = {}
        self.replay: Replay | None = None
        self.replay_problems: list[tuple[int | None, str]] = []
        self.replay_notes: list[str] = []
        self.replayed = 0
        self.action: dict | None = None  # the action entry whose draws and events come next
        self.unspent: list[tuple[int | None, str]] = []
        # The committed calls waiting for their draws, in the order they were committed (``draw_waits``):
        # [{"seat", "i"}]; and where the open round, and the one that sealed the pool, were opened.
        self.queue: list[dict] = []
        self.sealed_round: int | None = None
        self.restarts = 0

    def problem(self, entry: dict | None, text: str) -> None:
        self.problems.append((entry.get("i") if entry else None, text))

    # Chains ------------------------------------------------------------
    def _chain(self, entry: dict, seat: int, value, k) -> bool:
        book = self.seats.get(seat)
        if book is None:
            self.problem(entry, f"seat {seat} reveals a value but never committed")
            return False
        steps = fairness.steps_to(value, book["head"]) if fairness.is_hash(value) else None
        if steps is None:
            self.problem(entry, f"seat {seat}'s value does not hash to its previous one: not from its committed chain")
            return False
        if k is not None and k != book["k"] + steps:
            self.problem(entry, f"seat {seat}'s value is number {k}, expected {book['k'] + steps}")
        book["head"], book["k"] = value, book["k"] + steps
        self.values.setdefault(seat, set()).add(value)
        return True

    # Entries -----------------------------------------------------------
    def table(self, entry: dict) -> None:
        kind = entry.get("type")
        if kind in ("created", "new_game"):
            if kind == "new_game" and entry.get("commitment") not in (None, self.commitment):
                self.problem(entry, "the new game's commitment is not the one the log announces")
            self.game = entry.get("game", self.game)
            self.options = entry.get("options") or {}
            self.queue = []
            factory = GAME_CHECKS.get(self.game)
            if self.check is None or kind == "created":
                self.check = factory() if factory else None
            elif self.check:
                self.check.reset()
            if factory is None:
                self.notes.append(f"the events of game {self.game!r} are not checked against the draws")
            self._new_replay(entry)
        elif kind == "undone" and self.replay is not None:
            self.replay_problems.extend(self.replay.undone(entry))
        elif kind in ("over", "closed") and self.replay is not None:
            self.replay_problems.extend(self.replay.final(entry))
        elif kind == "joined":
            self.present.add(entry.get("seat"))
        elif kind in ("removed", "left"):
            self.present.discard(entry.get("seat"))
        elif kind == "draw_waits":
            self.queue.append({"seat": entry.get("seat"), "i": entry.get("i")})
        elif kind == "draw_dropped":
            self._dropped(entry)

    def _dropped(self, entry: dict) -> None:
        """A committed call dropped (the rules refuse it once the draws before it ran, or the game ended): the
        queue's head, before a round was opened for it."""
        head = self.queue.pop(0) if self.queue else None
        if head is None or ("seat" in entry and entry["seat"] != head["seat"]):
            self.problem(entry, f"a draw of seat {entry.get('seat')} is dropped out of its turn in the queue")

    def _served(self, entry: dict) -> None:
        """A committed call runs: the queue's head, first come first drawn, from a round opened after it
        was committed (its values were revealed after it was irrevocable)."""
        head = self.queue.pop(0)
        if head["seat"] != entry.get("seat"):
            self.problem(entry, f"seat {entry.get('seat')}'s call runs before seat {head['seat']}'s, committed "
                                "earlier: the queue is first come, first drawn")
        elif self.sealed_round is None or self.sealed_round < (head["i"] or 0):
            self.problem(entry, f"seat {entry.get('seat')}'s committed call is drawn from a round opened before it "
                                "was committed: whoever ran the server could compute its draws first")

    def _new_replay(self, entry: dict) -> None:
        self._replayed()
        if entry.get("actions"):
            self.replay = Replay(self.game)
            if self.replay.game is None:
                self.replay_note(said("this verifier does not know the rules of game %(game)s: it is not replayed",
                                      game=repr(self.game)))
        else:
            self.replay = None
            self.replay_note(said("entry %(i)s: this log does not record the game's actions (older format): the "
                                  "game is not replayed", i=entry.get("i")))

    def replay_note(self, note: str) -> None:
        self.notes.append(note)
        self.replay_notes.append(note)

    def _replayed(self) -> None:
        if self.replay is not None and self.replay.stopped is None and self.replay.calls:
            self.replayed += self.replay.calls
            self.replay_note(said("the game was replayed from its %(count)s logged actions: the same events and "
                                  "the same final state", count=self.replay.calls))

    def commit(self, entry: dict) -> None:
        seat = entry.get("seat")
        if not fairness.is_hash(entry.get("commitment")):
            self.problem(entry, f"seat {seat}'s commitment is malformed")
            return
        self.seats[seat] = {"head": entry["commitment"], "k": 0, "m": 0, "rounds": bool(entry.get("rounds")),
                            "since": None}
        self.present.add(seat)
        self.waiting.append(seat)

    def carry(self, entry: dict) -> None:
        """A new game's log starts from the book as it stood (checked by a phone's record, see ``record``)."""
        seats = entry.get("seats") or {}
        self.seats = {int(s): {**book, "since": None} for s, book in seats.items()}
        self.pool, self.epoch, self.rounds = entry.get("pool"), entry.get("epoch", 0), entry.get("rounds", 0)
        self.sealed_by = None
        self.present = set(entry.get("present") or [])
        self.waiting = sorted(s for s in self.seats if s in self.present)
        self.round = None
        self.carried = {int(s): dict(book) for s, book in seats.items()}

    def open_round(self, entry: dict) -> None:
        number, asked = entry.get("round"), entry.get("asked")
        self.rounds += 1
        if number != self.rounds:
            self.problem(entry, f"round {number}, expected round {self.rounds}")
        if "without" in entry:
            self.restarts += 1
            self.notes.append(f"entry {entry.get('i')}: round {number} started again without seats {entry['without']}, "
                              "whose phones did not answer: a veto, visible in the log")
            before = self.round or {}
            missing = [s for s in before.get("asked", []) if str(s) not in before.get("revealed", {})]
            if before.get("why") == "start":  # a seat that left a start round restarts it, revealed or not
                missing += [s for s in entry["without"] if s not in self.present] \
                    if isinstance(entry["without"], list) else []
            without = entry["without"] if isinstance(entry["without"], list) else []
            if not without or any(s not in missing for s in without):
                self.problem(entry, f"a round restarts without {entry['without']}, but {missing} had not revealed")
            expected = [s for s in before.get("asked", []) if s not in without and s in self.present]
            waiting_for = before.get("for", [])
        else:
            if self.round is not None:
                self.problem(entry, "a round opens while another is still open")
            expected = sorted(s for s in self.present if s in self.seats and self.seats[s]["rounds"])
            away = entry.get("away") if isinstance(entry.get("away"), list) else []
            if away and entry.get("why") == "fresh" and all(s in expected for s in away):
                # A round a draw waits for asks the phones connected then: the server names the others.
                self.notes.append(f"entry {entry.get('i')}: round {number} did not ask seats {away}, away "
                                  "according to the server (only their phones' records can tell)")
                expected = [s for s in expected if s not in away]
            waiting_for, self.waiting = self.waiting, []
        if asked != expected:
            self.problem(entry, f"the round asks seats {asked}, it must ask {expected}: a phone was left out")
        if "without" in entry and entry.get("why") != (self.round or {}).get("why"):
            self.problem(entry, "a round restarts for another purpose than the round it replaces")
        self.round = {"asked": asked or [], "revealed": {}, "for": waiting_for, "why": entry.get("why"),
                      "opened": entry.get("i")}

    def reveal(self, entry: dict) -> None:
        seat = entry.get("seat")
        if self.round is None or seat not in self.round["asked"] or str(seat) in self.round["revealed"]:
            self.problem(entry, f"seat {seat} reveals outside its round")
            return
        before = (self.seats.get(seat) or {}).get("k")
        if self._chain(entry, seat, entry.get("value"), entry.get("k")):
            self.round["revealed"][str(seat)] = entry["value"]
            if self.round.get("why") and self.seats[seat]["k"] != before + 1:
                self.problem(entry, f"seat {seat} skips values in a round opened for a draw, which takes each "
                                    "phone's very next value: a skip would let the phone pick among its values")

    def seal(self, entry: dict) -> None:
        if self.round is None:
            self.problem(entry, "a pool is sealed without a round")
            return
        if sorted(int(s) for s in self.round["revealed"]) != sorted(self.round["asked"]):
            self.problem(entry, "a pool is sealed before every asked phone revealed")
        pool = fairness.seal(self.pool, self.round["revealed"])
        if entry.get("pool") != pool:
            self.problem(entry, "the sealed pool is not the fold of the values revealed in its round")
        if entry.get("for") != self.round["for"]:
            self.problem(entry, f"the pool is sealed for seats {entry.get('for')}, expected {self.round['for']}")
        self.pool, self.epoch, self.sealed_by = pool, self.epoch + 1, self.round.get("why")
        self.sealed_round = self.round.get("opened")
        for seat in self.round["for"]:
            if seat in self.seats and self.seats[seat]["since"] is None:
                self.seats[seat]["since"] = self.epoch
        self.round = None

    def draw(self, entry: dict) -> None:
        # Draws are numbered from 1 for people (the log counts from 0), as on the verify page.
        number = entry["n"] + 1 if isinstance(entry.get("n"), int) else entry.get("n")
        where = f"draw {number} ({draw_said(entry.get('purpose'))})"
        self.draws += 1
        if entry.get("n") != self.next_n:
            self.problem(entry, f"{where}: expected draw number {self.next_n + 1}: a draw is missing or out of order")
        self.next_n = (entry.get("n") if isinstance(entry.get("n"), int) else self.next_n) + 1
        if entry.get("pool") != self.pool:
            self.problem(entry, f"{where}: not drawn from the latest sealed pool")
        call = self.action.get("call") if self.action else None
        waits_for = WAITS_FOR.get(call) or ("fresh" if call in TABLE_CALLS and entry.get("by") is None
                                            and self._phones() else None)
        if waits_for and self.sealed_by != waits_for:
            self.problem(entry, f"{where}: a {call} draw from a pool sealed before the round opened for it: "
                                "whoever ran the server could compute it before it was irrevocable")
        seat = entry.get("by")
        if seat is not None:
            self._seat_draw(entry, where, seat)
        try:
            expected = fairness.recompute(self.seed, entry)
        except (KeyError, TypeError, ValueError) as error:
            self.problem(entry, f"{where}: malformed draw ({error})")
            return
        if entry.get("result") != expected:
            self.problem(entry, f"{where}: logged result {entry.get('result')!r}, recomputed {expected!r}")

    def _phones(self) -> bool:
        """A present seat's phone takes part in rounds (a table of scripts alone has none)."""
        return any(seat in self.seats and self.seats[seat]["rounds"] for seat in self.present)

    def _seat_draw(self, entry: dict, where: str, seat: int) -> None:
        book = self.seats.get(seat)
        if book is None or book["since"] is None:
            self.problem(entry, f"{where}: seat {seat} drew before a pool sealed after its commitment")
            return
        if entry.get("m") != book["m"]:
            self.problem(entry, f"{where}: seat {seat}'s draw number {entry.get('m')}, expected {book['m']}")
        book["m"] += 1
        value = entry.get("reveal")
        if entry.get("alone"):
            self.notes.append(f"{where}: drawn without another phone (no other phone connected, the server says): "
                              f"seat {seat}'s own value alone")
        if value is None:
            if book["rounds"] and self.sealed_by != "fresh":  # else: from a round its action opened
                self.notes.append(f"{where}: seat {seat}'s phone sent no fresh value with its action")
            self.last_spent = None
            return
        if self.last_spent == (seat, value) and value == book["head"]:
            return  # the same action's next draw
        if self._chain(entry, seat, value, None):
            self.last_spent = (seat, value)

    def run(self, entries: list[dict]) -> None:
        handlers = {"commit": self.commit, "round": self.open_round, "reveal": self.reveal, "pool": self.seal,
                    "table": self.table, "carry": self.carry}
        for entry in entries:
            kind = entry.get("kind")
            if kind == "draw":
                if self.step is not None and self.step.entries:  # events, then a draw: a new step
                    self._end_step()
                if self.step is None:
                    self.step = Step(self.options, [], [])
                self.step.draws.append(entry)
                self.draw(entry)
                continue
            if kind == "event":
                if self.step is None:
                    self.step = Step(self.options, [], [])
                self.step.entries.append(entry)
                self.events.append((entry.get("i"), entry.get("event") or {}))
                continue
            self._end_step()
            self.last_spent = None
            if kind == "action":
                self.action = entry
                if self.queue and entry.get("call") in TABLE_CALLS:
                    self._served(entry)
                continue
            if kind in handlers:
                handlers[kind](entry)
            elif kind == "entropy":
                self.notes.append(f"entry {entry.get('i')}: a raw entropy entry (older format) feeds no draw")
        self._end_step()
        self._replayed()

    def _end_step(self) -> None:
        if self.step is not None and any(draw.get("by") is None or draw.get("reveal") is None
                                         for draw in self.step.draws):
            self.sealed_by = None  # a round's pool feeds one call of the table's: the next needs its own
        if self.step is not None and self.check is not None and self._typed(self.step):
            self.problems.extend(self.check.step(self.step))
        if self.replay is not None and self.action is not None:
            step = self.step or Step(self.options, [], [])
            self.replay_problems.extend(self.replay.call(self.action, step.draws, step.entries))
        elif self.replay is not None and self.step is not None:
            self.replay_problems.extend(self.replay.orphan(self.step.draws, self.step.entries))
        self.step, self.action = None, None

    def _typed(self, step: Step) -> bool:
        """The step's draws name their kind: a log from before typed purposes (prose) has its events
        checked by the replay alone, which runs the rules again with its draws."""
        if all(isinstance(draw.get("purpose"), dict) for draw in step.draws):
            return True
        self.notes.append("this log names its draws in prose (an older format): the game's events are checked "
                          "against its draws by the replay only")
        return False

    # A phone's own record ------------------------------------------------
    def record(self, document: dict, record: dict) -> None:
        if record.get("format") != RECORD_FORMAT:
            self.problem(None, "the phone's record is not in a format this verifier knows")
            return
        if record.get("code") != document.get("code"):
            self.problem(None, f"the phone's record is for table {record.get('code')}, the log for {document.get('code')}")
            return
        def this_game(item) -> bool:
            return not isinstance(item, dict) or item.get("game") in (None, document.get("commitment"))

        if document.get("commitment") not in [record.get("commitment"), *(record.get("commitments") or [])]:
            self.problem(None, f"your phone was shown the commitment {record.get('commitment')}, the log has "
                               f"{document.get('commitment')}: the log was rebuilt with another seed")
        seat = record.get("seat")
        anchor = self._record_anchor(record)
        if anchor is None:
            return
        chain = fairness.chain(record["secret"], int(record.get("length", fairness.CHAIN_LENGTH)))
        # A seat handed to another phone commits again: the phone's own commitment is the one to find.
        commits = [e for e in document.get("entries", []) if e.get("kind") == "commit" and e.get("seat") == seat]
        committed = next((e for e in commits if e.get("commitment") == anchor), commits[0] if commits else None)
        carried = self.carried.get(seat)
        if committed is None and carried is not None:  # a later game of the table: the book it starts from
            k = carried.get("k")
            if not isinstance(k, int) or not 0 <= k < len(chain) or chain[k] != carried.get("head"):
                self.problem(None, f"the book this game starts from does not hold your phone's value for seat {seat}")
        elif committed is None or committed.get("commitment") != anchor:
            self.problem(committed, f"your phone's commitment (seat {seat}) is missing from the log or changed")
        for item in filter(this_game, record.get("revealed", [])):
            k = item.get("k") if isinstance(item, dict) else item
            if not isinstance(k, int) or not 0 < k < len(chain) or chain[k] not in self.values.get(seat, ()):
                self.problem(None, f"your phone's random value number {k} is missing from the log: "
                                   "its entropy was removed")
        for item in filter(this_game, record.get("shown", [])):
            found = self.check.shown(item, self.events) if self.check else None
            if found:
                self.problems.append(found)
        self._unspent(seat, chain, [item for item in record.get("sent") or []
                                    if isinstance(item, dict) and this_game(item)])

    def _unspent(self, seat, chain: list[str], sent: list[dict]) -> None:
        """Check 8: each value the phone showed the server (and heard back about) that the log lacks."""
        for item in sent:
            k, answer = item.get("k"), item.get("answer")
            if not isinstance(answer, dict):
                continue  # sent, and no answer yet: the phone does not know what became of it
            if not isinstance(k, int) or not 0 < k < len(chain):
                self.problem(None, f"the phone's record lists a value number {k!r} it cannot have sent")
                continue
            # Refused, then spent in a round opened for a draw (which takes the phone's very next value): the
            # server saw it with the refused action all the same.
            refused = answer.get("ok") is False and answer.get("status") is not None
            if chain[k] not in self.values.get(seat, ()) or refused:
                self.unspent.append((None, unspent_said(k, item.get("type"), answer)))

    def _record_anchor(self, record: dict) -> str | None:
        secret, length = record.get("secret"), record.get("length", fairness.CHAIN_LENGTH)
        if not fairness.is_hash(secret) or not isinstance(length, int) or not 0 < length <= 65536:
            self.problem(None, "the phone's record has no readable secret")
            return None
        anchor = fairness.chain(secret, length)[0]
        if record.get("anchor") != anchor:
            self.problem(None, "the phone's record is inconsistent: its anchor is not its secret's")
        return anchor


def unspent_said(k: int, action, answer: dict):
    """What became of a value shown and not spent, as the phone heard it (the verify page: fairness.js)."""
    status = answer.get("status")
    params = {"k": k, "action": str(action), "status": "?" if status is None else str(status),
              "error": str(answer.get("error") or "")}
    if answer.get("ok"):
        return said("your phone's random value number %(k)s, shown with the action %(action)s, was not spent: "
                    "the server accepted the action without using it", **params)
    if answer.get("fault"):
        return said("your phone's random value number %(k)s, shown with the action %(action)s, was not spent: "
                    "the server said it failed on its side (%(status)s: %(error)s)", **params)
    return said("your phone's random value number %(k)s, shown with the action %(action)s, was not spent: "
                "the server refused the action (%(status)s: %(error)s)", **params)


def verify_log(document: dict, record: dict | None = None) -> Report:
    """Every check of the module docstring; the first problem is the message, all are in ``problems``."""
    seed = document.get("seed")
    if not seed:
        return Report(False, 0, "the seed is not revealed yet: close the table, then verify", verifiable=False)
    walk = _Walk(document)
    try:
        if fairness.commitment_of(seed) != document.get("commitment"):
            walk.problem(None, "the revealed seed does not match the commitment published at creation")
        created = next((e for e in document.get("entries", []) if e.get("type") == "created"), None)
        if created is not None and "commitment" in created and created["commitment"] != document.get("commitment"):
            walk.problem(created, "the commitment logged at creation is not the one the log announces")
        walk.run(document.get("entries", []))
        if record is not None:
            walk.record(document, record)
    except (ValueError, TypeError, AttributeError, KeyError) as error:
        walk.problem(None, f"the log is malformed ({error})")
    if walk.problems or walk.replay_problems:
        where, text = (walk.problems or walk.replay_problems)[0]
        message = f"entry {where}: {text}" if where is not None else text
        return Report(False, walk.draws, message, problems=walk.problems, notes=walk.notes,
                      replay=walk.replay_problems, replay_notes=walk.replay_notes, replayed=walk.replayed,
                      unspent=walk.unspent, restarts=walk.restarts)
    message = f"OK: commitment and {walk.draws} draws verified"
    if walk.restarts:  # in the log for all to see: a phone that did not answer stopped a round
        message += (f"; {walk.restarts} round(s) started again without a phone that did not answer "
                    "(each a veto: the notes name them)")
    if walk.unspent:  # nothing in the log is wrong, but the server kept quiet about what it refused
        message += (f"; but the server saw {len(walk.unspent)} of your phone's random values and did not spend "
                    "them: each may hide a result it refused (a veto)")
    return Report(True, walk.draws, message, notes=walk.notes, replay_notes=walk.replay_notes,
                  replayed=walk.replayed, unspent=walk.unspent, restarts=walk.restarts)


def _for_page(text: str) -> dict:
    """A message as the page's ``t()`` takes it: the English msgid and its fields (a problem
    without a msgid shows in English, as the CLI prints it)."""
    if hasattr(text, "template"):  # a field that is a message itself (the rules' refusal) is translated too
        return {"text": text.template,
                "params": {name: _for_page(value) if hasattr(value, "template") else value
                           for name, value in text.params.items()}}
    return {"text": text, "params": {}}


def page_report(document: dict, record: dict | None = None) -> dict:
    """`verify_log` for the verify page, which runs this module in the browser (Pyodide) from the
    zip of `companion.rules_bundle`, after `companion.rules_imports.import_rules_for` imported the logged
    game's rules (which registers its checks): JSON-ready, each message with its entry number ``i``."""
    report = verify_log(document, record)

    def numbered(found: list[tuple[int | None, str]]) -> list[dict]:
        return [{"i": where, **_for_page(text)} for where, text in found]

    return {"ok": report.ok, "verifiable": report.verifiable, "message": report.message, "replayed": report.replayed,
            "problems": numbered(report.problems), "replay": numbered(report.replay),
            "unspent": numbered(report.unspent),
            "replay_notes": [_for_page(note) for note in dict.fromkeys(report.replay_notes)]}


def _read_json(path: str) -> dict:
    if path == "-":
        document = json.load(sys.stdin)
    else:
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
    if not isinstance(document, dict):
        raise ValueError("it must be a JSON object")
    return document


def main(argv: list[str] | None = None) -> int:
    import argparse  # the command line's alone: the verify page's Python, which imports this module, never needs it

    parser = argparse.ArgumentParser(prog="python -m companion.verify", description=__doc__.splitlines()[0])
    parser.add_argument("logfile", nargs="?", help="the JSON log of a table ('-' for standard input)")
    parser.add_argument("--record", help="a phone's own record of the table (JSON), checked against the log")
    parser.add_argument("--rules-hash", action="store_true",
                        help="print the SHA-256 of the rules this verifier runs, as the verify page shows it")
    parser.add_argument("--server", metavar="URL",
                        help="compare the pages, scripts, styles and rules zip a server serves with this checkout's")
    parser.add_argument("--table", metavar="CODE", help="with --server: the table whose pages are compared too")
    args = parser.parse_args(argv)
    if args.rules_hash:
        from companion.rules_bundle import rules_hash

        print(rules_hash())
        return 0
    if args.server:
        # Imported by name: the rules zip follows this module's imports, and the page never runs this.
        return importlib.import_module("companion.served").main(args.server, args.table)
    if args.logfile is None:
        parser.error("the log file is missing")
    try:
        document = _read_json(args.logfile)
        record = _read_json(args.record) if args.record else None
    except (OSError, ValueError) as error:
        print(f"cannot read the log: {error}", file=sys.stderr)
        return 2
    report = verify_log(document, record)
    print(report.message)
    for where, text in (report.problems + report.replay)[1:]:
        print(f"entry {where}: {text}" if where is not None else text)
    for _, text in report.unspent:
        print(f"not spent: {text}")
    for note in dict.fromkeys(report.notes):  # once each
        print(f"note: {note}")
    if not report.verifiable:
        return 2
    if not report.ok:
        return 1
    return 3 if report.unspent else 0


if __name__ == "__main__":
    sys.exit(main())
