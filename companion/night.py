"""A table outlives its games: what `companion.tables.Tables` does for a whole evening.

* **Game over, play again, another game.** When a game's ``outcome`` is known the
  table's status becomes ``over`` and the game's seed is revealed; the finished
  game stays in the table's history. The next game (the same one again, or
  another) commits to a new seed, with a new pool that the phones feed again:
  each game of a table has its own commitment, draws and verifiable log.
* **Nothing waits forever on a phone that left.** The table remembers whom the
  game waits on (``Game.waiting``) and since when; a timed wait gets a deadline
  that the server enforces (`expire_due`, on a timer and before each action):
  past it the game's ``on_timeout`` rule settles it, or the host is asked to
  decide. For an away seat the host can hand the seat to another phone (a
  one-time code; the old token stops working at once), decide for it (the
  game's ``proxy_actions`` only: never a secret choice) or take it out of the
  game (``withdraw``).
* **Host rights on a seat**: a host phone, or rights handed from a TV to a seat.
* **Undo** of a seat's own bookkeeping actions (``Game.undoable``), until another
  seat acts or a draw depends on them. The log keeps what was undone.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from companion import fairness, waits
from companion.errors import TableError, hash_token
from companion.games import REGISTRY
from companion.games.base import N_, Game
from companion.option_texts import options_shown
from companion.replay import action_entry, state_digest
from companion.store import Transaction

# Host actions of this module (``table.<name>``), handled by ``_host_<name>``.
NIGHT_ACTIONS = {"again", "another", "handoff", "decide", "withdraw", "give_host", "undo", "stop_waiting"}
HANDOFF_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L look-alikes, as table codes
HANDOFF_LENGTH = 6
HANDOFF_SECONDS = 600  # a hand-off code not used in 10 minutes expires
UNDO_DEPTH = 5  # a seat's consecutive bookkeeping actions that can be undone, newest first
MAX_TIMEOUT_STEPS = 20  # deadlines settled in one go (a game rule that keeps waiting cannot loop)
MOVED_TOKENS_KEPT = 32  # old tokens of seats handed on that are told so (a long evening's hand-offs)


digest = state_digest


def moved_tokens(table: dict, seat: dict) -> list[str]:
    """The hashes of tokens whose seat moved to another phone, this seat's old one last: such a phone is
    told its seat moved rather than that its token is not valid."""
    return [*table["settings"].get("moved", []), seat["token_hash"]][-MOVED_TOKENS_KEPT:]


class NightActions:
    """Mixed into `Tables`: uses its ``_save``, ``_rng``, ``_checked``, ``_target_seat`` and ``notify``."""

    # The views' part ---------------------------------------------------------
    def _night_view(self, table: dict, game: Game, hosting: bool) -> dict:
        state, status = table["state"], table["status"]
        outcome = game.outcome(state) if state is not None and status in ("over", "closed") else None
        top = table["undo"][-1] if table["undo"] else None
        view = {
            "game_no": table["game_no"], "timeout": table["settings"].get("timeout", waits.DEFAULT_TIMEOUT),
            "host_seat": table["host_seat"], "away_after": self.away_after,
            "waiting": [{**wait, "text": self.texts(wait["for"] or "", waits.params_of(wait))}
                        for wait in table["waits"]] if status == "playing" else [],
            "outcome": self._outcome_view(outcome),
            # The table's finished games, small: every view carries them (the verify page has the rest).
            "history": [{"number": record["number"], "game": record["game"], "seed": record["seed"],
                         "outcome": self._outcome_view(record["outcome"])} for record in table.get("history", [])],
            "undo": {"seat": top["seat"], "type": top["type"]} if top else None,
            # Every screen sees a seat being moved to another phone (never the code); the seat's own
            # phone, while it is here, is asked to allow it (`_seat_handoff`).
            "handoffs": [{"seat": offer["seat"], "allowed": bool(offer.get("allowed"))}
                         for offer in table["handoffs"].values() if offer["expires"] > self.clock()],
            "draw": self._draw_view(table),
        }
        if status == "lobby":  # what the players agree to before the start, in each screen's language
            view["options_shown"] = options_shown(game, table["options"], self.texts)
        # "Another game" is offered at the end of a game, or at any time in one that never ends (the die).
        view["endless"] = game.starts_at_once and status == "playing"
        if hosting and status == "playing" and table["waits"]:  # the host's tools for a seat it stands in for
            view["proxy"] = self._proxy_choices(table, game)
            view["withdraw_rule"] = self.texts(game.withdraw_rule, {})
        return view

    def _draw_view(self, table: dict) -> dict:
        """Every screen sees a draw waiting for the phones' values (whose action or call it is: the queue's
        head), the seats whose draws wait behind it (``queue``, first come first drawn), and whose last draw
        held no other phone's value (no other phone was connected: "drawn without another phone")."""
        pending = self._pending(table)
        playing = table["status"] == "playing"
        return {"waits": pending is not None, "seat": self._drawer(pending) if pending else None,
                "queue": [self._drawer(call) for call in self._queued(table)],
                "alone": table["settings"].get("alone") if playing else None}

    @staticmethod
    def _drawer(call: dict) -> Any:
        """Whose draw a call is: the acting seat's, or the seat a table call is about."""
        return call.get("by", call["seat"])

    def _outcome_view(self, outcome: dict | None) -> dict | None:
        if outcome is None:
            return None
        return {**outcome, "text": self.texts(outcome.get("reason") or "", outcome.get("params") or {})}

    def _proxy_choices(self, table: dict, game: Game) -> dict[str, list[dict]]:
        """For each seat the game waits on, the open decisions the host may take for it, each
        with its "label" in both languages when the game names its kind (taken off again by `_host_decide`)."""
        choices = {}
        for seat in {wait["seat"] for wait in table["waits"] if isinstance(wait["seat"], int)}:
            legal = game.legal_actions(table["state"], seat)
            choices[str(seat)] = [{**action, **({"label": self.texts(game.action_labels[action["type"]], {})}
                                                if action["type"] in game.action_labels else {})}
                                  for action in legal if action.get("type") in game.proxy_actions]
        return choices

    # Game over and the waits, on every save ----------------------------------
    def _finish_if_over(self, tx: Transaction, table: dict, fields: dict) -> list[dict]:
        """When the new state has an outcome: the game ends, its seed is revealed and kept in the history."""
        status = fields.get("status", table["status"])
        if fields.get("state") is None or status != "playing":
            return []
        outcome = REGISTRY[fields.get("game", table["game"])].outcome(fields["state"])
        if outcome is None:
            return []
        names = {str(seat["seat"]): seat["name"] for seat in tx.seats(table["code"])}
        self._record_game(tx, table, {**outcome, "names": names})
        fields.update(status="over", undo=[])
        return [{"kind": "table", "type": "over", "outcome": outcome, "seed": table["seed"],
                 "state": digest(fields["state"])}]

    def _record_game(self, tx: Transaction, table: dict, outcome: dict | None) -> None:
        record = {"number": table["game_no"], "game": table["game"], "commitment": table["commitment"],
                  "seed": table["seed"], "outcome": outcome, "ended_at": round(self.clock(), 3)}
        tx.insert_game(table["code"], record)
        table["history"] = [*table.get("history", []), record]

    def _refreshed_waits(self, table: dict, fields: dict) -> dict:
        status = fields.get("status", table["status"])
        state = fields.get("state", table["state"])
        game = REGISTRY[fields.get("game", table["game"])]
        current = game.waiting(state) if status == "playing" and state is not None else []
        timeout = table["settings"].get("timeout", waits.DEFAULT_TIMEOUT)
        fresh = waits.refresh(table["waits"], current, self.clock(), timeout)
        return {"waits": fresh, "next_deadline": waits.next_deadline(fresh)}

    # Deadlines -----------------------------------------------------------------
    def expire_due(self, between: Callable[[], None] = lambda: None) -> list[str]:
        """Settles every timed wait past its deadline, at every table; returns the tables changed.
        ``between`` runs before each table after the first: the server gives its event loop back there, so
        that many tables due at once (fifty silent rounds started together) do not hold every other table's
        actions behind their transactions."""
        with self.store.reading() as tx:
            codes = tx.due_tables(self.clock())
        changed = []
        for number, code in enumerate(codes):
            if number:
                between()
            with self.store.transaction() as tx:
                table = self._existing_table(tx, code)
                settled = self._resolve_due(tx, table)
                seats = tx.seats(code)
            if settled:
                changed.append(code)
                self.notify(code, self._views(table, seats))
        return changed

    def _resolve_due(self, tx: Transaction, table: dict) -> bool:
        """Inside the table's transaction: the game's timeout rule, or the host is asked to decide."""
        settled = self._round_due(tx, table)
        for _ in range(MAX_TIMEOUT_STEPS):
            due = waits.first_due(table["waits"], self.clock()) if table["status"] == "playing" else None
            if due is None or self._pending(table):  # a draw waits for its round: nothing moves meanwhile
                break
            settled = True
            game = REGISTRY[table["game"]]
            entry = {"kind": "table", "type": "timed_out", "seat": due["seat"], "for": due["for"]}
            if game.on_timeout is None:
                self._mark_expired(tx, table, due, [entry])
                continue
            if fairness.Entropy(table["entropy"], table["pool"]).state["round"] is not None:
                break  # its draws may need a round of their own: settled once the open one is sealed
            self._table_call(tx, table, {"call": "timeout", "seat": due["seat"], "due": due, "marks": {"timeout": True},
                                         "head": [entry, action_entry("timeout", due["seat"])]})
        return settled

    def _round_due(self, tx: Transaction, table: dict) -> bool:
        """Any round past its deadline (a join's, a start's, a draw's, a game's fresh one): the phones that did
        not answer are left out and it starts again, every other phone revealing a fresh value (a seal without
        them would let the last one choose between two pools it can compute). Logged as ``round_timed_out``: a
        visible veto. Nothing ever waits forever on a phone that left.

        In a start round a phone that is here and withholds loses its seat, as with the host's "Go on without
        them" (the veto of a setup costs the seat); a phone that is away (asleep, its page closed) keeps it."""
        book = fairness.Entropy(table["entropy"], table["pool"])
        current = book.state["round"]
        if table["status"] == "closed" or current is None or current.get("deadline") is None \
                or current["deadline"] > self.clock():
            return False
        missing = [s for s in current["asked"] if str(s) not in current["revealed"]]
        self._save(tx, table, None, [{"kind": "table", "type": "round_timed_out", "round": current["number"],
                                      "without": missing}])
        here = set(self.online(table["code"])) if current.get("why") == "start" else set()
        withholding = [seat for seat in missing if seat in here]
        for seat in withholding:  # each makes the start round start again without it (`Entropy.drop`)
            self._free_seat(tx, table, seat, "removed")
        if withholding:
            return True
        entries = self._entropy(lambda: book.restart(self._present(tx, table)))
        self._save(tx, table, None, entries, entropy=book.state, pool=book.pool)
        self._after_seal(tx, table)
        return True

    def _next_deadline(self, table: dict, fields: dict) -> float | None:
        """When the table must next act by itself: a timed wait's deadline, or an open round's (stamped here
        when it opens or starts again: ``round_seconds`` for its phones to answer, on the table's clock)."""
        entropy = fields.get("entropy", table["entropy"]) or {}
        # A closed table's round is over for good: no deadline, or the timer would visit it at every tick.
        current = entropy.get("round") if fields.get("status", table["status"]) != "closed" else None
        if current is not None and "deadline" not in current:
            current["deadline"] = round(self.clock() + self.round_seconds, 3)
        deadlines = [waits.next_deadline(fields.get("waits", table["waits"])), (current or {}).get("deadline")]
        return min((d for d in deadlines if d is not None), default=None)

    def _phones_here(self, tx: Transaction, table: dict, book: fairness.Entropy, but: Any = None) -> list[int]:
        """The seated phones that take part in rounds and that a screen holds now (but ``but``)."""
        here = set(self.online(table["code"]))
        return [seat for seat in self._present(tx, table) if seat in here and seat != but and book.takes_part(seat)]

    # The table's own calls of the rules ------------------------------------------
    @staticmethod
    def _pending(table: dict) -> dict | None:
        """The committed call whose draws are served next (the queue's head): a call of the rules the table
        made on its own (see `_table_call`) or a seat's action (`_seat_call`), waiting for its round."""
        return table["settings"].get("pending") if table["status"] == "playing" else None

    @staticmethod
    def _queued(table: dict) -> list[dict]:
        """The seats' committed actions waiting behind the head, first come first drawn (`_queue_call`)."""
        return table["settings"].get("queued", []) if table["status"] == "playing" else []

    def _draw_waits_for(self, table: dict, seat: int | None) -> bool:
        """Whether the seat has a committed draw waiting (at most one each: the queue cannot be flooded)."""
        pending = self._pending(table)
        calls = ([pending] if pending else []) + self._queued(table)
        return seat is not None and any(call.get("by") == seat for call in calls)

    def _table_call(self, tx: Transaction, table: dict, call: dict) -> list[dict]:
        """A call of the game's rules the table makes on its own: a host decision, a withdrawal, a
        timeout, the host screen's own game action. Its draws would be the table's (``table|n``), from
        a pool the operator reads: it could compute them and choose whether or when to make the call.
        So a call that draws is committed here and waits for a round opened now (``fresh``); it runs
        when that round seals (`_after_seal`), and nothing else moves the game meanwhile.

        ``call``: ``call`` (apply, withdraw or timeout), ``seat``, ``action`` (apply), ``head`` (its log
        entries), ``marks`` (on its events), ``lead`` (events told before the game's), ``remember``."""
        if self._pending(table):
            raise TableError(409, N_("A draw waits for the phones' random contributions: try again in a moment."))
        rng = self._rng(table)
        state, events = self._run_call(table, call, rng)
        book = fairness.Entropy(table["entropy"], table["pool"])
        if rng.draws and any(book.takes_part(seat) for seat in self._present(tx, table)):
            return self._commit_call(tx, table, book, call)
        return self._save_call(tx, table, call, rng, state, events)

    def _seat_call(self, tx: Transaction, table: dict, book: fairness.Entropy, by: int, seat: Any,
                   action: dict) -> list[dict]:
        """A seat's own action that draws, with another phone here. Its draws would depend on the seed, the
        pool and the actor's next chain value: the operator reads the first two, an accomplice phone knows
        the third, so together they could compute the outcome and choose whether (and which) action to make.
        So the action is committed here, irrevocable, and drawn from a round opened by it (every connected
        phone, the actor's included, reveals a value nobody has seen), as the table's own calls are."""
        return self._commit_call(tx, table, book, {
            "call": "apply", "seat": seat, "by": by, "event_seat": by, "action": action,
            "head": [action_entry("apply", seat, action=action)]})

    def _commit_call(self, tx: Transaction, table: dict, book: fairness.Entropy, call: dict) -> list[dict]:
        """The call is saved as pending (``draw_waits`` in the log) with a round opened for it; a join's round
        still open seals first, then the call's own round opens (`_pending_step`). Behind a draw that waits
        already, it joins the queue."""
        if self._pending(table):
            return self._queue_call(tx, table, call)
        current = book.state["round"]
        if current is not None and current.get("why") is not None:
            raise TableError(409, N_("Waiting for the phones' random contributions: try again in a moment."))
        entries = [{"kind": "table", "type": "draw_waits", "call": call["call"], "seat": call["seat"]}]
        call = {**call, "after": None if current is not None else book.state["epoch"]}
        if current is None:
            entries += self._call_round(tx, table, book, call)
        self._save(tx, table, None, entries, entropy=book.state, pool=book.pool,
                   settings={**table["settings"], "pending": call})
        done = self._after_seal(tx, table)  # no phone connected: its round asked nobody and sealed at once
        if not self._pending(table):
            return done
        return [{"type": "draw_waits", "seat": call.get("by", call["seat"])}] + done

    def _queue_call(self, tx: Transaction, table: dict, call: dict) -> list[dict]:
        """A seat's action that draws, committed while another draw waits: irrevocable like the first
        (``draw_waits`` in the log, with its place), it waits in the store's queue. Its own round opens only
        once the draws before it ran (`_serve_next`), so its values, too, are revealed after it was committed."""
        queue = self._queued(table)
        entries = [{"kind": "table", "type": "draw_waits", "call": call["call"], "seat": call["seat"],
                    "queued": len(queue) + 1}]
        self._save(tx, table, None, entries, settings={**table["settings"], "queued": [*queue, {**call, "after": None}]})
        return [{"type": "draw_waits", "seat": self._drawer(call), "queued": len(queue) + 1}]

    def _call_round(self, tx: Transaction, table: dict, book: fairness.Entropy, call: dict) -> list[dict]:
        """The round a call waits for asks the phones connected now and the actor's; the others are named
        as away in its entry (with none connected it asks nobody and seals at once: the log says so). A seat's
        call whose round asks no other phone than its own is marked: drawn without another phone."""
        present = self._present(tx, table)
        here = set(self.online(table["code"])) | {call.get("by")}
        entries = self._entropy(lambda: book.open_for("fresh", present, tuple(s for s in present if s not in here)))
        if call.get("by") is not None and not set(entries[0]["asked"]) - {call["by"]}:
            call["alone"] = True
        return entries

    def _run_call(self, table: dict, call: dict, rng) -> tuple[dict, list[dict]]:
        game = REGISTRY[table["game"]]
        if call["call"] == "withdraw":
            return self._checked(lambda: game.withdraw(table["state"], call["seat"], rng))
        if call["call"] == "timeout":
            return self._checked(lambda: game.on_timeout(table["state"], call["seat"], rng))
        return self._checked(lambda: game.apply(table["state"], call["seat"], call["action"], rng))

    def _save_call(self, tx: Transaction, table: dict, call: dict, rng, state: dict, events: list[dict],
                   **fields: Any) -> list[dict]:
        game = REGISTRY[table["game"]]
        if call.get("remember", True):
            self._checked(lambda: self.services.remember(game, events, table["code"]))
        seat = call.get("event_seat", call["seat"])
        self._save(tx, table, rng, [{"kind": "event", "seat": seat, "event": event, **call.get("marks", {})}
                                    for event in events], state=state, undo=[], head=call["head"], **fields)
        due = call.get("due")
        still = waits.first_due(table["waits"], self.clock()) if due else None
        if still is not None and waits.key_of(still) == waits.key_of(due):  # the rule did not settle it
            self._mark_expired(tx, table, due, [])
        return call.get("lead", []) + events

    def _mark_expired(self, tx: Transaction, table: dict, due: dict, entries: list[dict]) -> None:
        marked = waits.mark_expired(table["waits"], due)
        self._save(tx, table, None, entries, waits=marked, next_deadline=waits.next_deadline(marked))

    # The next game -------------------------------------------------------------
    def _host_again(self, tx: Transaction, table: dict, action: dict, who, extra: dict) -> list[dict]:
        """The same game again. It starts by itself once every seat's phone has added its randomness
        to the new pool (one tap, as in party games); until then the lead can start it by hand."""
        if table["status"] != "over":
            raise TableError(409, N_("The game is not over yet."))
        return self._next_game(tx, table, REGISTRY[table["game"]], table["options"], start=True)

    def _host_another(self, tx: Transaction, table: dict, action: dict, who, extra: dict) -> list[dict]:
        if self._starting(table):
            raise TableError(409, N_("The game is starting: waiting for the phones' random contributions."))
        self._require_nothing_pending(table)  # the die's committed rolls are drawn first
        current = REGISTRY[table["game"]]
        endless = table["status"] == "playing" and current.starts_at_once  # the shared die never ends
        if table["status"] not in ("lobby", "over") and not endless:
            raise TableError(409, N_("Another game can be picked before the start or once the game is over."))
        game = self.game_of(action.get("game"))
        options = self.check_options(game.id, action.get("options"))
        return self._next_game(tx, table, game, options)

    def _next_game(self, tx: Transaction, table: dict, game: Game, options: dict, start: bool = False) -> list[dict]:
        """Same seats and figures; once a game was played, a new seed, commitment and pool.

        ``start`` (play again): the new game is committed to start, and the round that asks every phone
        after the new commitment is its start round (`Tables._host_start`)."""
        fields: dict[str, Any] = {"game": game.id, "options": options, "state": None, "status": "lobby", "undo": [],
                                  "settings": self._carried(table)}
        if table["status"] != "lobby":
            if table["status"] == "playing":  # an endless game left: its seed is revealed all the same
                self._record_game(tx, table, None)
            seed = fairness.new_seed()
            fields.update(seed=seed, commitment=fairness.commitment_of(seed), pool=fairness.EMPTY_POOL,
                          next_draw=0, game_no=table["game_no"] + 1)
        event = {"type": "new_game", "number": fields.get("game_no", table["game_no"]), "game": game.id,
                 "options": options, "commitment": fields.get("commitment", table["commitment"]), "actions": True}
        start = start and not game.starts_at_once and "seed" in fields and self._may_start(tx, table, game)
        if "seed" in fields:  # the phones reveal again after the new commitment (companion.fairness.Entropy)
            book = fairness.Entropy(table["entropy"], table["pool"])
            renewed = book.renew([s["seat"] for s in tx.seats(table["code"])], "start" if start else None)
            fields.update(entropy=book.state, pool=book.pool)
        if start:
            fields["settings"] = {**fields["settings"], "starting": fields["game_no"]}
        self._save(tx, table, None, [{"kind": "table", **event}], **fields)
        if "seed" in fields:
            self._save(tx, table, None, ([{"kind": "table", "type": "starting"}] if start else []) + renewed)
        if game.starts_at_once:
            return [event] + self._host_start(tx, table, {})
        return [event] + ([{"type": "starting"}] + self._after_seal(tx, table) if start else [])

    def _carried(self, table: dict) -> dict:
        """The table's settings with what the game ending now leaves for the evening's next games (not
        whose last draw was made alone: that was said of the game ending)."""
        settings = {key: value for key, value in table["settings"].items()
                    if key not in ("alone", "pending", "queued")}
        ending = REGISTRY[table["game"]]
        if ending.carry is None or table["state"] is None:
            return settings
        return {**settings, "memory": {**settings.get("memory", {}), ending.id: ending.carry(table["state"])}}

    def _after_seal(self, tx: Transaction, table: dict) -> list[dict]:
        """What waited for the round that just sealed: the game's start (its setup draws), a draw the game
        asked the table for (`fresh`), or the committed call at the queue's head. Each takes values revealed
        after it was irrevocable."""
        book = fairness.Entropy(table["entropy"], table["pool"])
        pending = self._pending(table)
        if pending and pending.get("after") is not None:  # its own round is open, or just sealed
            return self._pending_step(tx, table, book, pending)
        if book.state["round"] is not None:
            return []
        if self._starting(table):
            if book.sealed_by != "start":
                return []
            try:
                return self._begin(tx, table)
            except TableError:  # a seat left and the game cannot start as it is now: the lead starts it again
                settings = {key: value for key, value in table["settings"].items() if key != "starting"}
                self._save(tx, table, None, [{"kind": "table", "type": "start_cancelled"}], settings=settings)
                return [{"type": "start_cancelled"}]
        done = self._fresh_draw(tx, table, book)
        pending = self._pending(table)  # behind a join's round, or the game's fresh one: its own round now
        return done + (self._pending_step(tx, table, fairness.Entropy(table["entropy"], table["pool"]), pending)
                       if pending else [])

    def _pending_step(self, tx: Transaction, table: dict, book: fairness.Entropy, call: dict) -> list[dict]:
        """A pending call once a round sealed: its own round opens if it waited behind a join's; it runs once
        a round opened after it (``after``: the epoch then) sealed its pool."""
        if call.get("after") is None:
            if book.state["round"] is not None:
                return []
            call = {**call, "after": book.state["epoch"]}
            entries = self._call_round(tx, table, book, call)
            self._save(tx, table, None, entries, entropy=book.state, pool=book.pool,
                       settings={**table["settings"], "pending": call})
        if book.sealed_by == "fresh" and book.state["epoch"] > call["after"]:
            return self._run_pending(tx, table, book, call)
        return []

    def _run_pending(self, tx: Transaction, table: dict, book: fairness.Entropy, call: dict) -> list[dict]:
        """The call that waited for this round, with its draws from the pool it sealed: the table's
        (``table|n``), or the acting seat's (``seat|s|m|-``: the seat's draw count, no value of its own
        but the one it revealed in the round). Then the next queued draw is served."""
        queue = self._queued(table)
        settings = {key: value for key, value in table["settings"].items()
                    if key not in ("pending", "queued") and (key != "alone" or call.get("by") is None)}
        by = call.get("by")
        rng = self._rng(table, by, None, book) if by is not None else self._rng(table, book=book)
        fields: dict[str, Any] = {"settings": settings}
        if call.get("alone"):
            settings["alone"] = by
        try:
            state, events = self._run_call(table, call, rng)
            if by is not None:
                book.spent(rng)
                fields["entropy"] = book.state
            for draw in rng.draws if call.get("alone") else []:  # its round held no other phone's value
                draw["alone"] = True
            done = self._save_call(tx, table, call, rng, state, events, **fields)
        except TableError:  # cannot happen while nothing moves; said all the same, never silent
            self._save(tx, table, None, [{"kind": "table", "type": "draw_dropped", "call": call["call"],
                                          "seat": call["seat"]}], settings=settings)
            done = [{"type": "draw_dropped", "seat": self._drawer(call)}]
        return done + self._serve_next(tx, table, queue)

    def _serve_next(self, tx: Transaction, table: dict, queue: list[dict]) -> list[dict]:
        """The queue's next call becomes the head once the draw before it ran; its round opens now (or once a
        round the game opened meanwhile sealed), after it was committed. The state moved since it was accepted:
        an action the rules refuse now, or any left when the game ended, is dropped (``draw_dropped``) before
        its round opens, so before anyone could know its draws: the rules decide, nobody chooses."""
        done: list[dict] = []
        while queue:
            call, queue = queue[0], queue[1:]
            settings = {**table["settings"], "queued": queue} if queue else \
                {key: value for key, value in table["settings"].items() if key != "queued"}
            why = "over" if table["status"] != "playing" else self._refused_now(table, call)
            if why is not None:
                self._save(tx, table, None, [{"kind": "table", "type": "draw_dropped", "call": call["call"],
                                              "seat": call["seat"], "why": why}], settings=settings)
                done.append({"type": "draw_dropped", "seat": self._drawer(call), "why": why})
                continue
            self._save(tx, table, None, [], settings={**settings, "pending": call})
            return done + self._after_seal(tx, table)
        return done

    def _refused_now(self, table: dict, call: dict) -> str | None:
        """Whether the rules refuse the queued call on the state as it is now (a trial run whose draws, from
        the current pool, are thrown away): "refused", or None."""
        try:
            self._run_call(table, call, self._rng(table, call.get("by")))
        except TableError:
            return "refused"
        return None

    def _fresh_draw(self, tx: Transaction, table: dict, book: fairness.Entropy) -> list[dict]:
        """The table's draw a game asked for (Rayman's lost choice), from the pool its own round sealed."""
        game = REGISTRY[table["game"]]
        if table["status"] != "playing" or book.sealed_by != "fresh" or not self._wants_fresh(game, table["state"]):
            return []
        rng = self._rng(table, book=book)
        state, events = self._checked(lambda: game.fresh_draw(table["state"], rng))
        self._save(tx, table, rng, [{"kind": "event", "event": event} for event in events], state=state, undo=[],
                   head=[action_entry("fresh")])
        return events

    def _require_nothing_pending(self, table: dict) -> None:
        if self._pending(table):
            raise TableError(409, N_("A draw waits for the phones' random contributions: try again in a moment."))

    def _require_no_draw_of(self, table: dict, seat: int | None) -> None:
        """A seat's second action while its draw waits is refused before anything is read or written."""
        if self._draw_waits_for(table, seat):
            raise TableError(409, N_("Your draw waits for the phones' random numbers: you can act again once it "
                                     "is drawn."))

    def _may_start(self, tx: Transaction, table: dict, game: Game) -> bool:
        """Whether the seats and figures meet the game's requirements (else the lead starts it by hand)."""
        try:
            self._startable(tx, table, game)
        except TableError:
            return False
        return True

    @staticmethod
    def _wants_fresh(game: Game, state: Any):
        """What the game waits for a fresh table draw for (None: nothing)."""
        return game.wants_fresh_draw(state) if game.wants_fresh_draw and state is not None else None

    def _seat_leave(self, tx: Transaction, table: dict, action: dict, who, extra: dict) -> list[dict]:
        if table["status"] == "playing" and not REGISTRY[table["game"]].starts_at_once:
            raise TableError(409, N_("Leave between games; during a game the host can take your seat out."))
        return self._free_seat(tx, table, who.seat, "left")

    # An away seat ----------------------------------------------------------------
    def _host_handoff(self, tx: Transaction, table: dict, action: dict, who, extra: dict) -> list[dict]:
        """A one-time code for the seat: the phone that opens it takes the seat."""
        seat = self._target_seat(tx, table, action)["seat"]
        if table["status"] == "lobby":  # nothing to keep yet: the seat is freed, a new phone joins
            raise TableError(409, N_("The game has not started: remove the away seat instead, and let the new "
                                     "phone join with the QR code."))
        now = self.clock()
        code = "".join(secrets.choice(HANDOFF_ALPHABET) for _ in range(HANDOFF_LENGTH))
        offers = {key: offer for key, offer in table["handoffs"].items()
                  if offer["seat"] != seat and offer["expires"] > now}
        offers[hash_token(code)] = {"seat": seat, "expires": round(now + HANDOFF_SECONDS, 3)}
        event = {"type": "handoff_offered", "seat": seat}
        self._save(tx, table, None, [{"kind": "table", **event}], handoffs=offers)
        extra["handoff"] = {"code": code, "seat": seat, "expires": offers[hash_token(code)]["expires"]}
        return [event]

    def claim_handoff(self, raw_code: Any, raw_handoff: Any, entropy: Any = None, commitment: Any = None) -> dict:
        """The phone that opened a hand-off code gets the seat and a new token; the old one is refused.

        It brings its own hash chain (``commitment``, or ``entropy`` from a script): the seat's draws
        then wait for a round sealed after that anchor, as a new seat's do."""
        handoff = raw_handoff.strip().upper() if isinstance(raw_handoff, str) and len(raw_handoff) <= 20 else ""
        anchor = commitment if commitment is not None else entropy
        if anchor is not None and not fairness.is_hash(anchor):
            raise TableError(400, N_("The phone's commitment to its random numbers must be 64 hexadecimal digits."))
        token = secrets.token_urlsafe(24)
        with self.store.transaction() as tx:
            table = self._open_table(tx, raw_code)
            if self._starting(table):  # the start round's phones are fixed
                raise TableError(409, N_("The game is starting: waiting for the phones' random contributions."))
            offer = table["handoffs"].get(hash_token(handoff)) if handoff else None
            seat = next((s for s in tx.seats(table["code"]) if offer and s["seat"] == offer["seat"]), None)
            if offer is None or offer["expires"] <= self.clock() or seat is None:
                raise TableError(403, N_("This hand-off code is not valid (used, expired or mistyped): "
                                         "ask the host for a new one."))
            if anchor is None:  # a seat without a chain could never draw: refused, the code still good
                raise TableError(400, N_("A phone takes a seat with its commitment to its random numbers: open the "
                                         "hand-off code in the companion's phone page."))
            if not offer.get("allowed") and not self._away_long_enough(table, seat["seat"]):
                raise TableError(409, N_("%(name)s's phone is at the table: the seat moves once that phone allows "
                                         "it, or once it has been away for a while."), name=seat["name"])
            tx.update_seat(table["code"], seat["seat"], token_hash=hash_token(token))
            offers = {key: value for key, value in table["handoffs"].items() if key != hash_token(handoff)}
            entries = [{"kind": "table", "type": "handed", "seat": seat["seat"]}]
            book = fairness.Entropy(table["entropy"], table["pool"])
            entries += book.commit(seat["seat"], anchor, commitment is not None,
                                   [s["seat"] for s in tx.seats(table["code"])])
            fields: dict[str, Any] = {"handoffs": offers, "entropy": book.state, "pool": book.pool,
                                      "settings": {**table["settings"], "moved": moved_tokens(table, seat)}}
            self._save(tx, table, None, entries, **fields)
            seats = tx.seats(table["code"])
        self.notify(table["code"], self._views(table, seats), revoked=[seat["seat"]])
        return {"seat": seat["seat"], "token": token, "code": table["code"]}

    def _seat_handoff(self, tx: Transaction, table: dict, action: dict, who, extra: dict) -> list[dict]:
        """The seat's own phone answers a hand-off of its seat: allowed, the code takes the seat at
        once; refused, every code for the seat is dropped (the host may ask again)."""
        allow = action.get("allow")
        if not isinstance(allow, bool):
            raise TableError(400, N_("The answer needs the field %(field)s (%(kind)s)."), field="allow",
                             kind="true/false")
        now = self.clock()
        mine = {key for key, offer in table["handoffs"].items() if offer["seat"] == who.seat and offer["expires"] > now}
        if not mine:
            raise TableError(409, N_("Nobody is moving your seat to another phone."))
        if allow:
            offers = {key: {**offer, "allowed": True} if key in mine else offer
                      for key, offer in table["handoffs"].items()}
        else:
            offers = {key: offer for key, offer in table["handoffs"].items() if key not in mine}
        event = {"type": "handoff_allowed" if allow else "handoff_refused", "seat": who.seat}
        self._save(tx, table, None, [{"kind": "table", **event}], handoffs=offers)
        return [event]

    def _away_long_enough(self, table: dict, seat: int) -> bool:
        """A seat no screen has held for the table's grace: its hand-off needs no consent (a lost phone)."""
        away = self.away(table["code"], seat)
        return away is not None and away >= self.away_after

    def _host_decide(self, tx: Transaction, table: dict, action: dict, who, extra: dict) -> list[dict]:
        """An open decision taken by the host for an away seat (or one whose deadline passed)."""
        self._require_playing(table)
        seat = self._target_seat(tx, table, action)["seat"]
        game = REGISTRY[table["game"]]
        decision = action.get("action")
        if not isinstance(decision, dict) or decision.get("type") not in game.proxy_actions:
            raise TableError(400, N_("The host can decide for a seat only where the game allows it, "
                                     "never a secret choice."))
        if not waits.waits_on(table["waits"], seat):
            raise TableError(409, N_("The game is not waiting on this seat."))
        if not self._may_stand_in(table, seat):
            raise TableError(409, N_("This seat's player is here: let them decide, or wait for the deadline."))
        # "proxied": the game may tell a decision the host took for an away seat from the seat's own
        # (Amiiboxe lets only the host pass an away player's turn); a phone cannot send it (`tables`).
        stamped = {**{k: v for k, v in decision.items() if k not in ("id", "label")}, "proxied": True,
                   "at": round(self.clock(), 3)}
        return self._table_call(tx, table, {"call": "apply", "seat": seat, "action": stamped, "marks": {"proxy": True},
                                            "head": [action_entry("apply", seat, action=stamped)]})

    def _host_stop_waiting(self, tx: Transaction, table: dict, action: dict, who, extra: dict) -> list[dict]:
        """The host ends at once a timed wait on an away seat, as its deadline would (the game's timeout
        rule, or the host decides): a player who has gone is not waited on the full timeout at each
        new step (Amiiboxe's judged fights)."""
        self._require_playing(table)
        seat = self._target_seat(tx, table, action)["seat"]
        timed = [wait for wait in waits.waits_on(table["waits"], seat) if wait["timed"] and not wait["expired"]]
        if not timed:
            raise TableError(409, N_("The game is not waiting on this seat."))
        if not self._may_stand_in(table, seat):
            raise TableError(409, N_("This seat's player is here: let them decide, or wait for the deadline."))
        now = round(self.clock(), 3)
        ending = {waits.key_of(wait) for wait in timed}
        ended = [{**wait, "deadline": now} if waits.key_of(wait) in ending else wait for wait in table["waits"]]
        # Saved first: while a round of random contributions is open the rule waits for its seal (a timeout's
        # draws need a round of their own), and the wait, now due, is settled as soon as it seals.
        self._save(tx, table, None, [], waits=ended, next_deadline=waits.next_deadline(ended))
        self._resolve_due(tx, table)
        return []

    def _may_stand_in(self, table: dict, seat: int) -> bool:
        expired = any(wait["expired"] for wait in waits.waits_on(table["waits"], seat))
        return expired or self._away_long_enough(table, seat)

    def _host_withdraw(self, tx: Transaction, table: dict, action: dict, who, extra: dict) -> list[dict]:
        """The seat leaves the game by the game's own rule (``withdraw_rule``, shown before confirming)."""
        self._require_playing(table)
        seat = self._target_seat(tx, table, action)["seat"]
        event = {"type": "withdrawn", "seat": seat}
        return self._table_call(tx, table, {"call": "withdraw", "seat": seat, "lead": [event], "remember": False,
                                            "head": [{"kind": "table", **event}, action_entry("withdraw", seat)]})

    # Host rights ---------------------------------------------------------------
    def _host_give_host(self, tx: Transaction, table: dict, action: dict, who, extra: dict) -> list[dict]:
        """The seat's phone gets the host's rights; the old host key stops working (a TV becomes a display)."""
        seat = self._target_seat(tx, table, action)["seat"]
        event = {"type": "host_moved", "seat": seat}
        self._save(tx, table, None, [{"kind": "table", **event}], host_seat=seat,
                   host_token_hash=hash_token(secrets.token_urlsafe(24)))
        extra["revoked"] = ["host"]
        return [event]

    # Undo ----------------------------------------------------------------------
    def _undo_record(self, tx: Transaction, table: dict, game: Game, who, action: dict, before: dict,
                     after: dict, rng: fairness.TableRng, events: list[dict]) -> list[dict]:
        """The undo stack after an accepted game action: a seat's bookkeeping actions pile up;
        a draw, another actor or another kind of action clears it."""
        if who.role != "seat" or rng.draws or action["type"] not in game.undoable:
            return []
        stack = table["undo"] if table["undo"] and table["undo"][-1]["seat"] == who.seat else []
        first = tx.next_log_index(table["code"])
        # The action's own entry (companion.replay) and its events: no draw comes between them.
        entry = {"seat": who.seat, "type": action["type"], "before": before, "after": digest(after),
                 "entries": list(range(first, first + 1 + len(events)))}
        return [*stack, entry][-UNDO_DEPTH:]

    def _undo(self, tx: Transaction, table: dict, seat: int, by: str) -> list[dict]:
        self._require_playing(table)
        self._require_nothing_pending(table)
        stack = table["undo"]
        if not stack or stack[-1]["seat"] != seat:
            raise TableError(409, self._why_not_undone(tx, table, seat))
        top = stack[-1]
        if digest(table["state"]) != top["after"]:
            raise TableError(409, N_("That can no longer be undone: the game moved on."))
        event = {"type": "undone", "seat": seat, "action": top["type"], "entries": top["entries"], "by": by}
        self._save(tx, table, None, [{"kind": "table", **event}], state=top["before"], undo=stack[:-1])
        return [event]

    @staticmethod
    def _why_not_undone(tx: Transaction, table: dict, seat: int) -> str:
        """Why the seat's last action cannot be undone, read from the log's action entries (companion.replay)."""
        entries = tx.log(table["code"], table["game_no"])
        undone = {i for entry in entries if entry.get("type") == "undone" for i in entry.get("entries", [])}
        actions = [entry for entry in entries if entry["kind"] == "action"]
        mine = [entry for entry in actions if entry.get("seat") == seat and entry["i"] not in undone]
        if not mine:
            return N_("This seat has no action left to undo in this game.")
        last = mine[-1]
        if any(entry["i"] > last["i"] for entry in actions):  # an undone one counts: the stack went to its seat
            return N_("Another seat has acted since: this seat's last action can no longer be undone.")
        after = entries[entries.index(last) + 1:]
        if after and after[0]["kind"] == "draw":  # an action's draws come right after it
            return N_("That action drew at random (a die, a shuffle): it cannot be undone, the draw stands.")
        if (last.get("action") or {}).get("type") not in REGISTRY[table["game"]].undoable:
            return N_("That action cannot be undone: only bookkeeping (positions, counters, tokens) can.")
        return N_("Nothing more of this seat can be undone: only its last few actions can.")

    def _host_undo(self, tx: Transaction, table: dict, action: dict, who, extra: dict) -> list[dict]:
        return self._undo(tx, table, self._target_seat(tx, table, action)["seat"], "host")

    def _seat_undo(self, tx: Transaction, table: dict, action: dict, who, extra: dict) -> list[dict]:
        return self._undo(tx, table, who.seat, "seat")
