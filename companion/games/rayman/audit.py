"""Rayman's own checks of a table's public log: what `companion.verify` cannot know about this game.

`companion.verify` recomputes every draw from the revealed seed. This checks that the game's
events say what those draws gave, and that every revealed choice opens the commitment its phone
published at the lock:

* each projectile die and Boss die is the draw of that round, and its level follows from it;
* each tie-break roll of a reveal is the draw made for it, in order;
* each co-op random discard is the shuffle drawn for it (two cards, or the whole hand when it holds
  fewer): the cards stay secret, so the count is what the event can be held to;
* every draw is used by an event: by an event of the action that drew it, but for the extra cards'
  shuffle (used by the draft, before the race starts) and the first roller (by round 1's projectile
  die); one left over is reported at its entry;
* the player named to roll the first projectile die is the one drawn;
* the Boss's attack cards and the extra cards on the table follow the shuffles drawn for them
  (once the table is closed: their results are sealed until then);
* each revealed choice hashes, with its salt, to the commitment published when its phone locked in
  (the last one, if the seat's phone picked again).

A pure function of the log's entries (``GET /api/tables/<code>/log``): each problem names the
number of the entry (``i``) where it shows.

`draw_check` plugs the same checks into `companion.verify` (step by step, one `Audit` per game), and
``static/js/games/rayman-draws.js`` runs them on the verify page: change both together.
"""

from __future__ import annotations

from collections import defaultdict, deque

from companion.games.rayman.common import die_level
from companion.games.rayman.constants import BOSS_DECK, EXTRA_CARDS, RANDOM_DISCARDS, commitment
from companion.game_checks import GameCheck, Step
from companion.games.base import purpose_kind
from companion.replay import draw_said

# The draws a later action uses (the draft's shuffle by the race's start, the first roller by round 2):
# any other draw is used by the events of the action that made it. A table closed before then leaves
# one waiting, honestly; a second one of the same kind, or that moment passing, shows it was not used.
FIRST_ROLLER = "first_roller"
LATER = ("extra_cards_shuffle", FIRST_ROLLER)


class Audit:
    def __init__(self) -> None:
        self.problems: list[tuple] = []  # (entry number, text)
        self.draws: dict[str, deque] = defaultdict(deque)  # kind -> draws not matched yet
        self.round = 0
        self.locked: dict = {}  # seat -> the commitment its phone published this round
        self.drawn_choices: dict = {}  # seat -> the draw of the choice its phone lost this round (its result)
        self.seats: list = []
        self.boss_deck: list[int] = []
        self.draft_deck: list[int] | None = None

    def check(self, entries: list[dict]) -> list[tuple]:
        """Every problem found so far, after these entries (the next ones of the log): ``(entry number, text)``."""
        for number, entry in enumerate(entries):
            where = entry.get("i", number)
            if entry.get("kind") == "draw":
                self.draws[purpose_kind(entry.get("purpose"))].append(entry)
            elif entry.get("kind") == "event" and isinstance(entry.get("event"), dict):
                self.event(where, entry["event"])
        return self.problems

    def problem(self, where, text: str) -> None:
        self.problems.append((where, text))

    def drawn(self, where, kind: str, what: str):
        """The next draw of this kind; None (and a problem) when there is none."""
        pending = self.draws[kind]
        if not pending:
            self.problem(where, f"{what}: no draw was made for it")
            return None
        return pending.popleft()

    def event(self, where, event: dict) -> None:
        kind = event.get("type")
        handler = getattr(self, f"on_{kind}", None)
        if handler is not None:
            handler(where, event)

    def on_character_chosen(self, where, event: dict) -> None:
        if event.get("seat") not in self.seats:
            self.seats = sorted(self.seats + [event.get("seat")])

    def on_next_race(self, where, event: dict) -> None:
        self.draft_deck = None  # a new race drafts from a new shuffle

    def on_race_started(self, where, event: dict) -> None:
        self.unused(["extra_cards_shuffle"])  # the draft is over

    def on_round_started(self, where, event: dict) -> None:
        self.round = event.get("round", self.round)
        if self.round != 1:
            self.unused([FIRST_ROLLER])  # round 1's projectile die is rolled

    def on_choosing(self, where, event: dict) -> None:
        self.locked, self.drawn_choices = {}, {}

    def on_choice_drawn(self, where, event: dict) -> None:
        draw = self.drawn(where, "lost_choice", f"seat {event.get('seat')}'s drawn choice")
        self.drawn_choices[event.get("seat")] = draw.get("result") if draw else None

    def on_locked(self, where, event: dict) -> None:
        self.locked[event.get("seat")] = event.get("commitment")

    def on_choice_reset(self, where, event: dict) -> None:
        self.locked.pop(event.get("seat"), None)

    def on_projectile_roll(self, where, event: dict) -> None:
        if self.round == 1 and event.get("seat") is not None:
            self.check_first_roller(where, event["seat"])
        draw = self.drawn(where, "projectile_level", "a projectile die")
        self.check_die(where, event, draw, "projectile")

    def check_first_roller(self, where, seat) -> None:
        draw = self.drawn(where, FIRST_ROLLER, "the first roller")
        if draw is None or draw.get("result") is None or not self.seats:
            return
        if not 0 <= draw["result"] < len(self.seats) or differs(seat, self.seats[draw["result"]]):
            self.problem(where, f"the first projectile die was given to seat {seat}, the draw chose another")

    def on_boss_roll(self, where, event: dict) -> None:
        self.check_die(where, event, self.drawn(where, "boss_level", "a Boss die"), "Boss")

    def check_die(self, where, event: dict, draw, what: str) -> None:
        if draw is None or draw.get("result") is None:
            return
        if differs(event.get("die"), draw["result"]):
            self.problem(where, f"the {what} die says {event.get('die')}, draw {draw.get('n')} gave {draw['result']}")
        if differs(event.get("level"), die_level(draw["result"])):
            self.problem(where, f"the {what} level {event.get('level')} does not follow from the die")

    def on_boss_card(self, where, event: dict) -> None:
        if not self.boss_deck:
            draw = self.drawn(where, "boss_cards_shuffle", "the Boss's attack cards")
            order = draw.get("result") if draw else None
            if order is None:  # sealed until the table closes
                return
            self.boss_deck = [index + 1 for index in order][:BOSS_DECK]
            if not self.boss_deck:
                return
        card = self.boss_deck.pop(0)
        if differs(event.get("card"), card):
            self.problem(where, f"the Boss's attack card is n°{event.get('card')}, the shuffle gave n°{card}")

    def on_draft_revealed(self, where, event: dict) -> None:
        if self.draft_deck is None:
            draw = self.drawn(where, "extra_cards_shuffle", "the extra cards")
            order = draw.get("result") if draw else None
            if order is None or len(order) != EXTRA_CARDS:  # sealed, or a later race (cards already held)
                self.draft_deck = []
                return
            self.draft_deck = [index + 1 for index in order]
        if not self.draft_deck:
            return
        shown = event.get("cards") if isinstance(event.get("cards"), list) else []
        cards, self.draft_deck = self.draft_deck[:len(shown)], self.draft_deck[len(shown):]
        if not isinstance(event.get("cards"), list) or any(map(differs, event["cards"], cards)) \
                or len(event["cards"]) != len(cards):
            self.problem(where, f"the extra cards on the table are {event.get('cards')}, the shuffle gave {cards}")

    def on_random_discards(self, where, event: dict) -> None:
        draw = self.drawn(where, "random_discard", f"seat {event.get('seat')}'s random discard")
        size = draw.get("size") if draw else None
        if type(size) is int and differs(event.get("count"), min(RANDOM_DISCARDS, size)):
            leaving = min(RANDOM_DISCARDS, size)
            self.problem(where, f"seat {event.get('seat')} discards {event.get('count')} cards at random, "
                                f"draw {number_of(draw)} shuffled a hand of {size}: {leaving} leave it")

    def unused(self, kinds=None) -> None:
        """Reports the draws of these kinds that no event used (by default: those of the action just
        done, and of a later action's kind all but the newest, which waits for its event)."""
        for kind, pending in self.draws.items():
            keep = 1 if kinds is None and kind in LATER else 0
            if kinds is not None and kind not in kinds:
                continue
            while len(pending) > keep:
                draw = pending.popleft()
                self.problem(draw.get("i"), f"draw {number_of(draw)} ({draw_said(draw.get('purpose'))}) was made but "
                                            "no event uses it")

    def on_revealed(self, where, event: dict) -> None:
        for entry in event.get("choices", []):
            seat = entry.get("seat")
            if "drawn" in entry:  # its phone lost it after a reveal: drawn by the table, it opens nothing
                if seat not in self.drawn_choices:
                    self.problem(where, f"seat {seat}'s choice is said drawn at random, but no draw was made for it")
                elif self.drawn_choices[seat] is not None and differs(entry["drawn"], self.drawn_choices[seat]):
                    self.problem(where, f"seat {seat}'s drawn choice is number {entry['drawn']}, the draw gave "
                                        f"{self.drawn_choices[seat]}")
            else:
                try:
                    opens = commitment(entry["choice"], entry["salt"]) == entry["commitment"]
                except (KeyError, TypeError):
                    opens = False
                if not opens:
                    self.problem(where, f"seat {seat}'s revealed choice does not open its commitment")
            if seat not in self.locked or self.locked[seat] != entry.get("commitment"):
                self.problem(where, f"seat {seat}'s commitment is not the one published when it locked in")
        for tie in event.get("tie_rolls", []):
            for seat, roll in zip(tie.get("seats", []), tie.get("rolls", [])):
                draw = self.drawn(where, "tie_break", f"seat {seat}'s tie-break roll")
                if draw is not None and draw.get("result") is not None and differs(draw["result"], roll):
                    self.problem(where, f"seat {seat}'s tie-break roll is {roll}, draw {draw.get('n')} gave "
                                        f"{draw['result']}")


def differs(logged, expected) -> bool:
    """Not the same number: ``true`` is no 1 here, as on the verify page (Python alone would take it for one)."""
    return isinstance(logged, bool) != isinstance(expected, bool) or logged != expected


def number_of(draw: dict):
    """A draw's number for people (from 1, as the verifier counts)."""
    return draw["n"] + 1 if isinstance(draw.get("n"), int) and not isinstance(draw.get("n"), bool) else draw.get("n")


def audit(entries: list[dict]) -> list[str]:
    """Every problem found in a Rayman table's log entries (empty: everything checks out)."""
    audit_ = Audit()
    audit_.check(entries)
    audit_.unused()
    return [f"entry {where}: {text}" for where, text in audit_.problems]


def draw_check() -> GameCheck:
    """The verifier's hook (`companion.game_checks.GameCheck`): each step's draws then events go to one `Audit`,
    in log order, as the whole log would; a new game at the table starts a new one."""
    audits = [Audit()]

    def step(step: Step) -> list[tuple]:
        audit_ = audits[0]
        before = len(audit_.problems)
        audit_.check(step.draws + step.entries)
        audit_.unused()
        return audit_.problems[before:]

    def reset() -> None:
        audits[0] = Audit()

    return GameCheck(step=step, reset=reset)
