"""Table lifecycle and the single path every action takes.

Phones and the host act over Socket.IO or the JSON API; both end in
`Tables.act`, which

1. checks the payload and authenticates the token (seat or host),
2. answers a repeated action id with the first answer (a flaky phone's retry
   never rolls twice), then applies the rate limit,
3. inside one store transaction (the table's lock) loads the state, applies
   the action with the table's randomness and writes the new state, the draws,
   the public events and the action,
4. only after the commit hands every viewer's new view to ``notify``.

A rejected action raises `TableError` (or the game's `IllegalAction`) before
anything is written: it changes nothing.
"""

from __future__ import annotations

import json
import re
import secrets
import threading
import time
import unicodedata
from dataclasses import dataclass
from typing import Any, Callable

from companion import clock as steady, fairness, figures, jsontext, text, waits
from companion.amiibo.ids import AmiiboError
from companion.games import REGISTRY, IllegalAction
from companion.games.base import HOST, N_, Game
from companion.errors import TableError, hash_token
from companion.night import NIGHT_ACTIONS, NightActions
from companion.replay import ACTION_PAYLOAD, action_entry, state_digest
from companion.store import CommittedCopy, Store, Transaction

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L look-alikes
CODE_LENGTH = 4
MAX_ACTION_BYTES = 16 * 1024
MAX_NAME_LENGTH = 24
ACTION_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")
SEAT_COLOURS = ("#ff6b6b", "#4dabf7", "#51cf66", "#fcc419", "#cc5de8", "#ff922b",
                "#22b8cf", "#f06595", "#94d82d", "#845ef7", "#20c997", "#e8590c")
# Why a new phone may not sit (it can watch): the join's refusal, by reason.
JOIN_REFUSALS = {
    "closed": N_("Joining is closed at this table: you can watch as a spectator."),
    "started": N_("The game has started: you can watch as a spectator."),
    "full": N_("The table is full (%(count)s seats)."),
}
HOST_ACTIONS = {"table.joining", "table.rename", "table.remove", "table.start", "table.close", "table.scan",
                "table.remove_figure", "table.name_figure", "table.pick_figure", "table.give_figure",
                "table.again", "table.another", "table.handoff", "table.decide", "table.withdraw",
                "table.give_host", "table.undo", "table.entropy_restart", "table.stop_waiting"}
# As in party games, when no seat holds the host's rights the first seat may start the next game.
FIRST_SEAT_ACTIONS = {"table.start", "table.again", "table.another"}
SEAT_ACTIONS = {"seat.undo", "seat.leave", "seat.handoff"}
# A phone's chain value for the open round of random contributions (companion.fairness.Entropy).
REVEAL_ACTION = "entropy.reveal"
# What `Tables._dispatch` says of an action nobody's view shows (a reveal that completes no round): no view
# is built or sent, its answer is all its phone hears (issue 29: a roll's reveals were most of its views).
UNSEEN = "unseen"
SPECTATOR_REFUSED = N_("A seat or host token is needed to act.")
TOO_MANY_ACTIONS = N_("Too many actions: wait a moment and try again.")
FIGURE_ACTIONS = {"figure.adding", "figure.pick", "figure.claim", "figure.remove", "figure.name"}


@dataclass(frozen=True)
class Principal:
    """Who is acting or watching: the host, a seat, or a spectator."""

    code: str
    role: str  # "host", "seat" or "spectator"
    seat: int | None = None
    host: bool = False  # a seat that holds the host's rights (a host phone)
    first: bool = False  # the first seat, at a table where no seat holds the host's rights

    @property
    def is_host(self) -> bool:
        return self.role == "host" or self.host

    @property
    def actor(self) -> str:
        return f"seat:{self.seat}" if self.role == "seat" else self.role


def normalize_code(raw: Any) -> str | None:
    """Table codes are case-insensitive; anything not shaped like one is None."""
    if not isinstance(raw, str):
        return None
    code = raw.strip().upper()
    if not 4 <= len(code) <= 5 or any(char not in CODE_ALPHABET for char in code):
        return None
    return code


def clean_name(raw: Any) -> str:
    """Trimmed, NFC, no control characters, 1 to 24 characters."""
    if not isinstance(raw, str):
        raise TableError(400, N_("A name is needed."))
    name = unicodedata.normalize("NFC", raw).strip()
    unsafe = text.unsafe_character(name)
    if unsafe == text.CONTROL:
        raise TableError(400, N_("A name cannot contain control characters."))
    if unsafe == text.INVISIBLE:
        raise TableError(400, N_("A name cannot contain invisible or direction-changing characters "
                                 "(zero-width spaces, bidi overrides)."))
    if not name:
        raise TableError(400, N_("A name is needed."))
    if len(name) > MAX_NAME_LENGTH:
        raise TableError(400, N_("A name has at most %(count)s characters."), count=MAX_NAME_LENGTH)
    return name


class RateLimiter:
    """A token bucket per actor: bursts are fine, a flood is refused."""

    def __init__(self, capacity: float, per_second: float, clock: Callable[[], float] = time.monotonic):
        self.capacity, self.per_second, self.clock = capacity, per_second, clock
        self._buckets: dict[tuple[str, str], tuple[float, float]] = {}
        self._lock = threading.Lock()

    def _tokens(self, key: tuple[str, str], now: float) -> float:
        tokens, last = self._buckets.get(key, (self.capacity, now))
        return min(self.capacity, tokens + (now - last) * self.per_second)

    def allow(self, key: tuple[str, str]) -> bool:
        with self._lock:
            now = self.clock()
            tokens = self._tokens(key, now)
            if tokens < 1:
                self._buckets[key] = (tokens, now)
                return False
            self._buckets[key] = (tokens - 1, now)
            return True

    def wait_for(self, key: tuple[str, str]) -> float:
        """Seconds until ``key`` may act again (0: now), spending nothing: a flood is refused
        before it reaches the store."""
        with self._lock:
            tokens = self._tokens(key, self.clock())
        return 0.0 if tokens >= 1 else (1 - tokens) / self.per_second


# Gets a table's new views after a commit: every viewer's (public, host, each
# seat), or with partial=True only the actor's, after a private action.
Notify = Callable[..., None]


def describe_by_id(amiibo_id: str) -> dict:
    """Names for a figure when no catalogue is wired in: its id alone."""
    return {"name": {"en": f"figure #{amiibo_id}", "fr": f"figurine #{amiibo_id}"}, "known": False}


class GameServices:
    """The shell's services around pure games; the base class changes nothing.

    ``prepare`` runs in the transaction that starts a game, before ``setup``;
    ``remember`` in the transaction of each action, after ``apply``: what it
    writes commits with the action or not at all. Both raise `IllegalAction`
    to refuse."""

    def prepare(self, game: Game, options: dict, seats: list[dict]) -> tuple[dict, list[dict]]:
        return options, seats

    def remember(self, game: Game, events: list[dict], table: str = "") -> None:
        """``table``: the code of the table the events come from (what it agreed is its word only)."""
        return None


def english(message: str, params: dict) -> dict[str, str]:
    """A message in every language the screens read; without a catalogue, English only."""
    return {"en": message % params if params else message}


class Tables(NightActions):
    def __init__(self, store: Store, notify: Notify | None = None, rate_capacity: float = 10,
                 rate_per_second: float = 5, describe_figure: figures.Describe = describe_by_id,
                 name_figure: Callable[[str, Any, Any], None] | None = None,
                 clock: Callable[[], float] = steady.now, services: "GameServices | None" = None,
                 away: Callable[[str, int], float | None] | None = None, away_after: float = 5,
                 texts: Callable[[str, dict], dict[str, str]] = english,
                 online: Callable[[str], list[int]] | None = None, round_seconds: float = 4):
        self.store = store
        # The seats a screen holds now, from the socket layer (without it: none). A round a draw waits for
        # asks only their phones, and leaves out one silent for ``round_seconds`` (`NightActions`).
        self.online = online or (lambda code: [])
        self.round_seconds = round_seconds
        # How long a seat has been away (None: a screen holds it now), from the socket layer;
        # after ``away_after`` seconds the host may decide or act for it.
        self.away = away or (lambda code, seat: float("inf"))
        self.away_after = away_after
        # A game's message (whom it waits on, a withdrawal rule) in every language, for the views.
        self.texts = texts
        # What pure games cannot do themselves: read the catalogue and the house
        # rankings before a game starts, remember what a game taught afterwards.
        self.services = services or GameServices()
        # The games read no clock: the server's time reaches them as data, the "at" of each action.
        # Deadlines are measured with it too: a clock that never jumps (companion.clock).
        self.clock = clock
        self.describe_figure = describe_figure
        # Remembers a name given to a figure (the catalogue's); raises with a message on a bad name.
        self.name_figure = name_figure
        self.notify = notify or (lambda code, views, **kwargs: None)
        self.limiter = RateLimiter(rate_capacity, rate_per_second)
        # Told whether each table code looked up named a table; raises to refuse a client
        # that guesses codes (the web shell's per-client limit).
        self.code_lookup: Callable[[bool], None] = lambda found: None

    # Creation and joining ------------------------------------------------
    @staticmethod
    def game_of(game_id: Any) -> Game:
        game = REGISTRY.get(game_id) if isinstance(game_id, str) else None
        if game is None:
            raise TableError(400, N_("Unknown game: %(game)s."), game=str(game_id)[:40])
        return game

    def check_options(self, game_id: Any, raw_options: Any) -> dict:
        """A game's options as a new table would take them, or the TableError saying why not
        (the create form asks before creating: one check for both)."""
        game = self.game_of(game_id)
        options = self._checked(lambda: game.normalize_options(raw_options))
        # What Start would refuse is refused now: the options as the setup will receive them, without figures.
        prepared, _ = self._checked(lambda: self.services.prepare(game, options, []))
        self._checked(lambda: game.check_prepared(prepared))
        return options

    def create(self, game_id: Any, raw_options: Any, timeout: Any = None) -> dict:
        game = self.game_of(game_id)
        options = self.check_options(game_id, raw_options)
        settings = {"timeout": self._clean_timeout(timeout)}
        host_token = secrets.token_urlsafe(24)
        seed = fairness.new_seed()
        now = self.clock()
        with self.store.transaction() as tx:
            table = {"code": self._fresh_code(tx), "game": game.id, "options": options, "state": None,
                     "status": "lobby", "joining_open": 1, "host_token_hash": hash_token(host_token),
                     "seed": seed, "commitment": fairness.commitment_of(seed), "pool": fairness.EMPTY_POOL,
                     "next_draw": 0, "version": 1, "created_at": now, "updated_at": now,
                     "figures": {}, "settings": settings, "game_no": 1, "waits": [], "next_deadline": None,
                     "host_seat": None, "undo": [], "handoffs": {}, "history": [],
                     "entropy": fairness.Entropy(None).state}
            tx.insert_table(table)
            tx.append_log(table["code"], [{"kind": "table", "type": "created", "game": game.id,
                                           "options": options, "commitment": table["commitment"], "actions": True}])
            if game.starts_at_once:
                rng = self._rng(table)
                self._save(tx, table, rng, [], status="playing", state=game.setup(options, [], rng),
                           head=[action_entry("setup", options=options, seats=[])])
        return {"code": table["code"], "host_token": host_token, "commitment": table["commitment"]}

    @staticmethod
    def _fresh_code(tx: Transaction) -> str:
        for length in (CODE_LENGTH, CODE_LENGTH, CODE_LENGTH, CODE_LENGTH + 1, CODE_LENGTH + 1):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))
            if not tx.table_code_exists(code):
                return code
        raise TableError(503, N_("No table code is free right now; try again."))

    @staticmethod
    def _clean_timeout(raw: Any) -> int:
        try:
            return waits.clean_timeout(raw)
        except ValueError:
            raise TableError(400, N_("The timeout is a whole number of seconds from %(low)s to %(high)s."),
                             low=waits.MIN_TIMEOUT, high=waits.MAX_TIMEOUT) from None

    @staticmethod
    def _join_refusal(table: dict, game: Game, seat_count: int) -> str | None:
        if not table["joining_open"]:
            return "closed"
        if (table["status"] == "playing" and not game.starts_at_once) or Tables._starting(table):
            return "started"
        return "full" if seat_count >= game.max_seats else None

    def join_refusal(self, raw_code: Any) -> dict | None:
        """Why a phone opening the table now would watch instead of taking a seat (its page says
        so before the name is typed): {"reason": closed | started | full, "max_seats"}, or None."""
        with self.store.reading() as tx:
            table = self._open_table(tx, raw_code)
            game = REGISTRY[table["game"]]
            reason = self._join_refusal(table, game, len(tx.seats(table["code"])))
        return {"reason": reason, "max_seats": game.max_seats} if reason else None

    def join(self, raw_code: Any, raw_name: Any, entropy: Any = None, host_token: Any = None,
             commitment: Any = None) -> dict:
        """A new seat; the screen that holds the host key (a host phone) keeps the host's rights on it.

        Its phone sends ``commitment``, the anchor of its hash chain, and then takes part in
        rounds; ``entropy`` is the same anchor from a client that never reveals (a script)."""
        name = clean_name(raw_name)
        anchor = commitment if commitment is not None else entropy
        if anchor is None:
            raise TableError(400, N_("A phone joins with the commitment to its random numbers: "
                                     "reload the page and join again."))
        if not fairness.is_hash(anchor):
            raise TableError(400, N_("The phone's commitment to its random numbers must be 64 hexadecimal digits."))
        token = secrets.token_urlsafe(24)
        with self.store.transaction() as tx:
            table = self._open_table(tx, raw_code)
            game = REGISTRY[table["game"]]
            seats = tx.seats(table["code"])
            refusal = self._join_refusal(table, game, len(seats))
            if refusal:
                raise TableError(403, JOIN_REFUSALS[refusal], count=game.max_seats)
            used = {seat["colour"] for seat in seats}
            colour = next((c for c in SEAT_COLOURS if c not in used), SEAT_COLOURS[len(seats) % len(SEAT_COLOURS)])
            seat = tx.insert_seat(table["code"], name, colour, hash_token(token))
            entries: list[dict] = [{"kind": "table", "type": "joined", "seat": seat, "name": name}]
            book = fairness.Entropy(table["entropy"], table["pool"])
            entries += book.commit(seat, anchor, commitment is not None, [s["seat"] for s in seats] + [seat])
            fields: dict[str, Any] = {"entropy": book.state, "pool": book.pool}
            head = []
            if table["status"] == "playing":
                fields["state"] = game.seat_added(table["state"], {"id": seat, "name": name})
                head = [action_entry("seat_added", player={"id": seat, "name": name})]
            if isinstance(host_token, str) and secrets.compare_digest(hash_token(host_token),
                                                                      table["host_token_hash"]):
                fields["host_seat"] = seat
                entries.append({"kind": "table", "type": "host_moved", "seat": seat})
            self._save(tx, table, None, entries, head=head, **fields)
            seats = tx.seats(table["code"])
        self.notify(table["code"], self._views(table, seats))
        return {"seat": seat, "token": token, "code": table["code"]}

    # Who is who ----------------------------------------------------------
    def authenticate(self, raw_code: Any, token: Any) -> Principal:
        """The principal behind a token at a table; no token means a spectator."""
        with self.store.reading() as tx:
            table = self._existing_table(tx, raw_code)
            return self._principal(tx, table, token)

    def _principal(self, tx: Transaction | CommittedCopy, table: dict, token: Any) -> Principal:
        code = table["code"]
        if token is None or token == "":
            return Principal(code, "spectator")
        if not isinstance(token, str) or len(token) > 200:
            raise TableError(401, N_("This token is not valid."))
        token_hash = hash_token(token)
        if secrets.compare_digest(token_hash, table["host_token_hash"]):
            return Principal(code, "host")
        seat = tx.seat_by_token_hash(token_hash, code)
        if seat is None and token_hash in table["settings"].get("moved", []):
            raise TableError(401, N_("Your seat moved to another phone. To play on this one, ask the host for a "
                                     "hand-off code."))
        if seat is None:
            raise TableError(401, N_("This token is not valid."))
        if seat["table_code"] != code:
            raise TableError(401, N_("This token belongs to another table."))
        if seat["removed"]:
            raise TableError(401, N_("Your seat was removed by the host."))
        first = table["host_seat"] is None and seat["seat"] == min(s["seat"] for s in tx.seats(code))
        return Principal(code, "seat", seat["seat"], host=table["host_seat"] == seat["seat"], first=first)

    # The one path --------------------------------------------------------
    def act(self, raw_code: Any, token: Any, action: Any) -> dict:
        if token is None or token == "":  # a spectator: refused before any transaction is opened
            raise TableError(401, SPECTATOR_REFUSED)
        return self._act(raw_code, action, lambda tx, table: self._principal(tx, table, token), token)

    def act_as_host(self, code: str, action: Any) -> dict:
        """For the server's own NFC reader, which is part of the host's table box."""
        return self._act(code, action, lambda tx, table: Principal(table["code"], "host"))

    def _act(self, raw_code: Any, action: Any, who: Callable[[Transaction, dict], Principal],
             token: Any = None) -> dict:
        key = self._check_payload(action)
        if token is not None:
            self._refuse_on_the_copy(raw_code, token, action, key)

        def apply(tx: Transaction) -> tuple:
            """The action in the store; on PostgreSQL it may run again, on a newer copy of the table."""
            if key is not None and isinstance(token, str) and 0 < len(token) <= 200:
                tx.expect_action(normalize_code(raw_code), hash_token(token), key)
            table = self._existing_table(tx, raw_code)
            principal = who(tx, table)
            if principal.role == "spectator":
                raise TableError(401, SPECTATOR_REFUSED)
            self._check_actor(principal, action, REGISTRY[table["game"]])
            earlier = tx.find_action(table["code"], principal.actor, key) if key is not None else None
            if earlier is not None:
                return {**earlier, "duplicate": True}, None
            if not self.limiter.allow((table["code"], principal.actor)):
                raise TableError(429, TOO_MANY_ACTIONS)
            self._require_open(table)
            # A deadline that passed since the last tick is settled before the action (the timer may lag).
            settled = self._resolve_due(tx, table)
            extra: dict = {}
            events, private = self._dispatch(tx, table, principal, action, extra)
            result = {"ok": True, "events": events}
            tx.insert_action(table["code"], principal.actor, key, action, result)
            return result, (table, tx.seats(table["code"]), principal, extra, private if not settled else False)

        result, applied = self.store.act(apply)
        if applied is None:  # an action id answered before: its answer again
            return result
        table, seats, principal, extra, private = applied
        # What only the caller may learn (a hand-off code) is neither logged nor kept for a retry.
        revoked = extra.pop("revoked", None)
        result = {**result, **extra}
        if revoked:
            self.notify(table["code"], self._views(table, seats), revoked=revoked)
        elif private == UNSEEN:
            pass
        elif private:  # only the actor's own view changed: nobody else's is even computed
            own = self._envelope(table, seats, principal.seat, "seat", self.clock())
            self.notify(table["code"], {principal.seat: own}, partial=True)
        else:
            self.notify(table["code"], self._views(table, seats))
        return result

    def _refuse_on_the_copy(self, raw_code: Any, token: str, action: dict, key: str | None) -> None:
        """Raises the store's refusal of this action when this process's copy of the table, as committed
        now, decides it (`Store.on_committed_copy`): no write transaction, no wait for the write lock. Ten
        or fifty seats flooding their own tables ("Your draw waits…" to each roll) used to put one
        transaction per refusal in front of every other table's actions until their refusals were spent.

        A copy that is not current is never used (an honest action wrongly refused is worse than a
        transaction): the store's lock and the row's stamp make sure of it. The checks are the
        transaction's own, in its order (`_refusal_on`), and only refusals are decided here: an action
        they let through, or one that needs the table to move first (a deadline due), goes to the store."""
        code = normalize_code(raw_code)
        decided = self.store.on_committed_copy(code, lambda copy: self._refusal_on(copy, token, action, key)) \
            if code else None
        if decided is None:
            return
        refusal, actor = decided
        self.code_lookup(True)  # as `_existing_table`: a client out of lookups hears that first
        if actor is not None and not self.limiter.allow((code, actor)):
            raise TableError(429, TOO_MANY_ACTIONS)
        raise refusal

    def _refusal_on(self, copy: CommittedCopy, token: str, action: dict,
                    key: str | None) -> tuple[TableError, str | None] | None:
        """The refusal `_act`'s transaction would raise, on ``copy``, with the actor whose rate it spends (None:
        refused before the rate counts); None when the transaction would accept the action, or could change
        the table before deciding."""
        table = copy.table
        try:
            principal = self._principal(copy, table, token)
            self._check_actor(principal, action, REGISTRY[table["game"]])
        except TableError as error:
            return error, None
        try:
            self._require_open(table)
            due = table["next_deadline"]
            if due is not None and due <= self.clock():
                return None  # settled first by the transaction (`_resolve_due`), which may change the answer
            if self._is_game_action(action["type"]):
                self._game_gates(table, principal)
        except TableError as error:
            if key is not None and copy.find_action(table["code"], principal.actor, key) is not None:
                return None  # an id answered before: the store answers it again
            return error, principal.actor
        return None

    @staticmethod
    def _check_payload(action: Any) -> str | None:
        if not isinstance(action, dict):
            raise TableError(400, N_("The action must be a JSON object."))
        try:
            size = len(jsontext.dumps(action).encode())  # its UTF-8 bytes
        except (TypeError, ValueError):
            raise TableError(400, N_("The action must be a JSON object."))
        if size > MAX_ACTION_BYTES:
            raise TableError(413, N_("The action is too large (at most 16 KiB)."))
        kind = action.get("type")
        if not isinstance(kind, str) or not 0 < len(kind) <= 40:
            raise TableError(400, N_("The action needs a type."))
        key = action.get("id")
        if key is not None and (not isinstance(key, str) or not ACTION_ID.match(key)):
            raise TableError(400, N_("The action id must be 1 to 64 letters, digits or - _ . :"))
        return key

    @staticmethod
    def _check_actor(principal: Principal, action: dict, game: Game) -> None:
        kind = action["type"]
        is_table_action = kind.startswith("table.")
        if kind in game.host_actions and principal.role == "host":
            return  # the game says which of these a seat may also send (Rayman's roll)
        if "as_host" in action:  # a host phone's seat takes the host's game actions too
            if action["as_host"] is not True or not principal.host or kind not in game.host_actions:
                raise TableError(403, N_("Only the host can do that."))
            return
        prefix = kind.split(".", 1)[0] + "." if "." in kind else ""
        known = {"table.": HOST_ACTIONS, "seat.": SEAT_ACTIONS, "figure.": FIGURE_ACTIONS}.get(prefix)
        if known is not None and kind not in known:
            raise TableError(400, N_("Unknown action: %(action)s."), action=kind)
        if is_table_action:
            if not principal.is_host and not (principal.first and kind in FIRST_SEAT_ACTIONS):
                raise TableError(403, N_("Only the host can do that."))
            return  # a host action's "seat" names the seat it is about
        if prefix == "seat." and principal.role != "seat":
            raise TableError(403, N_("Only a seat can do that."))
        if principal.role == "host":
            raise TableError(403, N_("The host screen does not play: act from a seat."))
        if principal.role == "seat" and "seat" in action and action["seat"] != principal.seat:
            raise TableError(403, N_("You can only act for your own seat."))

    def _dispatch(self, tx: Transaction, table: dict, principal: Principal, action: dict,
                  extra: dict) -> tuple[list[dict], bool]:
        """The action's events, and whether it was private (only its actor may learn it happened), or
        `UNSEEN` (no view changed that any screen is sent).

        ``extra`` receives what only the caller is told (a hand-off code) and
        ``revoked``: seats whose old token stopped working."""
        kind = action["type"]
        if self._is_game_action(kind):
            return self._game_action(tx, table, principal, action)
        if kind.startswith("table."):
            name = kind.split(".", 1)[1]
            if name in NIGHT_ACTIONS:
                return getattr(self, "_host_" + name)(tx, table, action, principal, extra), False
            return getattr(self, "_host_" + name)(tx, table, action), False
        if kind.startswith("seat."):
            return getattr(self, "_seat_" + kind.split(".", 1)[1])(tx, table, action, principal, extra), False
        if kind in FIGURE_ACTIONS:
            return self._figure_action(tx, table, principal.seat, action), False
        return self._reveal(tx, table, principal.seat, action)

    @staticmethod
    def _is_game_action(kind: str) -> bool:
        """An action of the game's rules (a roll, a move), not of the table, a seat, a figure or the pool."""
        return not kind.startswith(("table.", "seat.")) and kind not in FIGURE_ACTIONS and kind != REVEAL_ACTION

    def _game_action(self, tx: Transaction, table: dict, principal: Principal, action: dict) -> tuple[list[dict], bool]:
        self._game_gates(table, principal)
        pending = self._pending(table)
        game = REGISTRY[table["game"]]
        book = fairness.Entropy(table["entropy"], table["pool"])
        rng = self._rng(table, principal.seat, action.get("reveal"), book)
        # A phone's own "at" is overwritten; "as_host" (checked) is the shell's, not the game's, and so is
        # "reveal" (the phone's chain value, in the draws' labels); "proxied" is only the host's decision
        # for an away seat (`night`), never sent by a screen for itself.
        stamped = {**{k: v for k, v in action.items() if k not in ("as_host", "reveal", "proxied")},
                   "at": round(self.clock(), 3)}
        seat = HOST if principal.role == "host" or action.get("as_host") is True else principal.seat
        before = table["state"]
        state, events = self._checked(lambda: game.apply(before, seat, stamped, rng))
        if pending and not (rng.draws and rng.by is not None and book.takes_part(principal.seat)):
            self._require_nothing_pending(table)  # only a phone's action that draws queues behind a waiting draw
        if rng.draws and rng.by is None:  # the host screen's draw is the table's: it waits for a round of its own
            return self._table_call(tx, table, {"call": "apply", "seat": seat, "action": stamped, "event_seat": None,
                                                "head": [action_entry("apply", seat, action=stamped)]}), False
        if rng.draws and not book.may_draw(principal.seat):
            raise TableError(409, N_("Your phone's random numbers are not in the pool yet: "
                                     "wait for the other phones' contributions."))
        fields: dict[str, Any] = {}
        if rng.draws and book.takes_part(principal.seat):
            # Committed now, drawn later (`_seat_call`); behind a draw that waits, queued whoever is here.
            if pending or self._phones_here(tx, table, book, but=principal.seat):
                return self._seat_call(tx, table, book, principal.seat, seat, stamped), False
            if rng.reveal is None:
                # No other phone here: the draws depend on the actor's own next value, shown only to an
                # action that draws (shown to one that does not, the server would know it before the draws
                # it feeds). The phone sends the action again with it.
                raise TableError(428, N_("This action draws: your phone sends it again with its next random value."))
            for draw in rng.draws:  # said in the log and on every screen: no other phone's value is in it
                draw["alone"] = True
            fields["settings"] = {**table["settings"], "alone": principal.seat}
        self._checked(lambda: self.services.remember(game, events, table["code"]))
        private = (self._only_actor_sees(tx, table, game, before, state, events, principal)
                   and game.waiting(before) == game.waiting(state))
        book.spent(rng)
        fields.update(state=state, **({"entropy": book.state} if rng.draws else {}))
        if not private:  # a private action leaves the undo record alone: it would tell others it happened
            fields["undo"] = self._undo_record(tx, table, game, principal, action, before, state, rng, events)
        # A private action is not logged: the log would tell the others it happened (see companion.replay).
        head = [] if private else [action_entry("apply", seat, action=stamped)]
        self._save(tx, table, rng, [{"kind": "event", "seat": principal.seat, "event": e} for e in events],
                   bump=not private, head=head, **fields)
        return events, private

    def _game_gates(self, table: dict, principal: Principal) -> None:
        """What refuses a game action before the rules see it (also decided on a copy, `_refusal_on`)."""
        self._require_playing(table)
        self._require_no_draw_of(table, principal.seat)  # one waiting draw per seat: the queue is bounded

    @staticmethod
    def _require_open(table: dict) -> None:
        if table["status"] == "closed":
            raise TableError(410, N_("This table is closed."))

    @staticmethod
    def _require_playing(table: dict) -> None:
        if table["status"] == "over":
            raise TableError(409, N_("The game is over: play again or pick another game."))
        if table["status"] != "playing":
            raise TableError(409, N_("The game has not started yet."))

    @staticmethod
    def _only_actor_sees(tx: Transaction, table: dict, game: Game, before: dict, after: dict, events: list[dict],
                         principal: Principal) -> bool:
        """True when the action changed nothing anybody but its actor can see.

        A tentative secret choice (Rayman's ``choose``) is such an action. It
        keeps the table's version and reaches only the actor's screens: a
        version that moved, or a view sent to the others, would tell them that
        somebody is still hesitating, and how often."""
        if events or principal.role != "seat":
            return False
        others = [None, HOST] + [s["seat"] for s in tx.seats(table["code"]) if s["seat"] != principal.seat]
        return all(game.view(before, viewer) == game.view(after, viewer) for viewer in others)

    # Random contributions --------------------------------------------------
    def _reveal(self, tx: Transaction, table: dict, seat: int, action: dict) -> tuple[list[dict], bool | str]:
        """A phone's next chain value for the open round; the last one seals the pool.

        Until the last one, nobody is sent a view (`UNSEEN`) and the table's version stays: the phone's
        answer says its value was taken (static/js/record.js notes it spent then), the other screens learn
        nothing a view would show them before the round seals, and the whole table's views go out once,
        when it does (the round's missing phones are shown again then, or when its time is up). One small
        transaction per phone, and no view built, encoded or sent: with n phones, a roll's n - 1 views fewer."""
        book = fairness.Entropy(table["entropy"], table["pool"])
        entries = self._entropy(lambda: book.reveal(seat, action.get("value"), self._present(tx, table)))
        sealed = any(entry["kind"] == "pool" for entry in entries)
        self._save(tx, table, None, entries, bump=sealed, entropy=book.state, pool=book.pool)
        if not sealed:
            return [], UNSEEN
        return self._after_seal(tx, table), False  # a start or a draw waits for the last value

    def _host_entropy_restart(self, tx: Transaction, table: dict, action: dict) -> list[dict]:
        """The host goes on without the phones that did not reveal: the round starts again without them (the
        table's clock does so too once the round's time is up: `NightActions._round_due`).

        In a start round they also leave the table: the game starts without them. A phone that withholds
        there can only veto the setup it computed (a fresh round follows), and the veto costs its seat."""
        book = fairness.Entropy(table["entropy"], table["pool"])
        current = book.state["round"]
        if current is not None and current.get("why") == "start":
            missing = [s for s in current["asked"] if str(s) not in current["revealed"]]
            events = [event for seat in missing for event in self._free_seat(tx, table, seat, "removed")]
            if missing:
                return [{"type": "entropy_restarted", "without": missing}] + events
        entries = self._entropy(lambda: book.restart(self._present(tx, table)))
        self._save(tx, table, None, entries, entropy=book.state, pool=book.pool)
        return [{"type": "entropy_restarted", "without": entries[0].get("without", [])}] + self._after_seal(
            tx, table)

    @staticmethod
    def _present(tx: Transaction, table: dict) -> list[int]:
        return [s["seat"] for s in tx.seats(table["code"])]

    @staticmethod
    def _entropy(change: Callable[[], Any]) -> Any:
        try:
            return change()
        except fairness.EntropyError as error:
            raise TableError(error.status, error.message, **error.params) from error

    # Host actions ----------------------------------------------------------
    def _host_joining(self, tx: Transaction, table: dict, action: dict) -> list[dict]:
        if not isinstance(action.get("open"), bool):
            raise TableError(400, N_("The action needs the field %(field)s (%(kind)s)."), field="open",
                             kind="true/false")
        event = {"type": "joining", "open": action["open"]}
        self._save(tx, table, None, [{"kind": "table", **event}], joining_open=int(action["open"]))
        return [event]

    def _target_seat(self, tx: Transaction, table: dict, action: dict) -> dict:
        number = action.get("seat")
        seat = next((s for s in tx.seats(table["code"]) if s["seat"] == number), None)
        if type(number) is not int or seat is None:
            raise TableError(404, N_("There is no such seat at this table."))
        return seat

    def _host_rename(self, tx: Transaction, table: dict, action: dict) -> list[dict]:
        seat = self._target_seat(tx, table, action)
        name = clean_name(action.get("name"))
        tx.update_seat(table["code"], seat["seat"], name=name)
        event = {"type": "renamed", "seat": seat["seat"], "name": name}
        self._save(tx, table, None, [{"kind": "table", **event}])
        return [event]

    def _host_remove(self, tx: Transaction, table: dict, action: dict) -> list[dict]:
        seat = self._target_seat(tx, table, action)
        return self._free_seat(tx, table, seat["seat"], "removed")

    def _free_seat(self, tx: Transaction, table: dict, seat: int, why: str) -> list[dict]:
        """The seat leaves the table: its token stops working, its figures and host rights are freed."""
        tx.update_seat(table["code"], seat, removed=1)
        event = {"type": why, "seat": seat}
        released = figures.release_seat(figures.normalize(table["figures"]), seat)
        host_seat = None if table["host_seat"] == seat else table["host_seat"]
        book = fairness.Entropy(table["entropy"], table["pool"])
        dropped = book.drop(seat, self._present(tx, table))  # a round it had not answered goes on without it
        self._save(tx, table, None, [{"kind": "table", **event}] + dropped, figures=released, host_seat=host_seat,
                   entropy=book.state, pool=book.pool)
        return [event] + self._after_seal(tx, table)

    def _host_start(self, tx: Transaction, table: dict, action: dict) -> list[dict]:
        """The start is irrevocable from here: the seats, figures and options are fixed, and a round
        asks every phone for a value nobody has seen yet. The setup draws wait for that round
        (`_after_seal`): before the start nobody can compute them, so nobody can re-roll them by
        leaving and joining again in the lobby."""
        if table["status"] != "lobby":
            raise TableError(409, N_("The game has already started."))
        if self._starting(table):
            raise TableError(409, N_("The game is starting: waiting for the phones' random contributions."))
        game = REGISTRY[table["game"]]
        if game.starts_at_once:  # the die draws nothing at its setup: its first draw is a seat's own
            return self._begin(tx, table)
        book = fairness.Entropy(table["entropy"], table["pool"])
        if book.state["round"] is not None:
            raise TableError(409, N_("Waiting for the phones' random contributions: start again in a moment."))
        self._startable(tx, table, game)
        entries = [{"kind": "table", "type": "starting"}]
        entries += self._entropy(lambda: book.open_for("start", self._present(tx, table)))
        # With no phone to ask (scripts only) the round sealed at once and the game starts in this same
        # action: one new version for it, as before.
        self._save(tx, table, None, entries, bump=book.state["round"] is not None, entropy=book.state,
                   pool=book.pool, settings={**table["settings"], "starting": table["game_no"]})
        return [{"type": "starting"}] + self._after_seal(tx, table)

    @staticmethod
    def _starting(table: dict) -> bool:
        """The start was pressed and the game waits for its round of random contributions."""
        return table["status"] == "lobby" and table["settings"].get("starting") == table["game_no"]

    def _startable(self, tx: Transaction, table: dict, game: Game) -> tuple[dict, list[dict]]:
        """The figures and seats a start takes, once the lobby's requirements hold."""
        record = figures.normalize(table["figures"])
        seats = [{"id": s["seat"], "name": s["name"], "figures": figures.owned_by(record, s["seat"])}
                 for s in tx.seats(table["code"])]
        low, high = game.seat_limits(table["options"])  # what the lobby's requirements showed
        if not low <= len(seats) <= high:
            raise TableError(409, N_("This game needs %(low)s to %(high)s players."), low=low, high=high)
        self._checked(lambda: figures.check_start(record, game.registration, [s["id"] for s in seats],
                                                  {s["id"]: s["name"] for s in seats}))
        return record, seats

    def _begin(self, tx: Transaction, table: dict) -> list[dict]:
        """The game's setup, drawn from the pool as it is now (sealed by the start round)."""
        game = REGISTRY[table["game"]]
        record, seats = self._startable(tx, table, game)
        rng = self._rng(table)
        options, seats = self._checked(lambda: self.services.prepare(game, table["options"], seats))
        memory = table["settings"].get("memory", {}).get(game.id)
        if memory is not None:  # in the logged setup's options: a replay starts from the same cards
            options = {**options, "memory": memory}
        state = self._checked(lambda: game.setup(options, seats, rng))
        event = {"type": "started"}
        settings = {key: value for key, value in table["settings"].items() if key != "starting"}
        self._save(tx, table, rng, [{"kind": "table", **event}], status="playing", state=state, settings=settings,
                   head=[action_entry("setup", options=options, seats=seats)])
        return [event]

    def _host_close(self, tx: Transaction, table: dict, action: dict) -> list[dict]:
        event = {"type": "closed", "seed": table["seed"]}
        # The state the game was left in, for the replay (companion.replay); nothing is secret once the seed is out.
        final = {"state": state_digest(table["state"])} if table["state"] is not None else {}
        self._save(tx, table, None, [{"kind": "table", **event, **final}], status="closed", joining_open=0)
        return [event]

    # Figures -------------------------------------------------------------
    def _host_scan(self, tx: Transaction, table: dict, action: dict) -> list[dict]:
        """A tap on the reader (the app's own reader, or one in another process)."""
        uid = self._checked(lambda: figures.clean_uid(action.get("uid")))
        if uid is None:
            raise TableError(400, N_("A figure's UID is 14 hexadecimal digits."))
        amiibo_id = self._checked(lambda: figures.clean_amiibo_id(action.get("amiibo_id")))
        game = REGISTRY[table["game"]]
        adding = (table["status"] == "lobby" and not self._starting(table)) or game.starts_at_once
        return self._change_figures(tx, table, lambda record, names: figures.scan(
            record, uid, amiibo_id, self.describe_figure, game.registration, names, table["joining_open"],
            adding, lambda: secrets.token_urlsafe(12)))

    def _host_remove_figure(self, tx: Transaction, table: dict, action: dict) -> list[dict]:
        if self._starting(table):  # the start took the figures as they were
            raise TableError(409, N_("The game is starting: figures can no longer be added or removed."))
        return self._change_figures(tx, table, lambda record, names: figures.remove(record, action.get("figure"), None))

    def _host_pick_figure(self, tx: Transaction, table: dict, action: dict) -> list[dict]:
        """The host registers a figure picked by name for a seat (a phone without the catalogue search
        at hand, or a player who asks the host)."""
        seat = self._target_seat(tx, table, action)["seat"]
        game = self._adding_figures(table)
        amiibo_id = self._checked(lambda: figures.clean_amiibo_id(action.get("amiibo_id")))
        return self._change_figures(tx, table, lambda record, names: figures.register(
            record, seat, amiibo_id, None, self.describe_figure, game.registration, names))

    def _host_give_figure(self, tx: Transaction, table: dict, action: dict) -> list[dict]:
        """The figure waiting on the host screen (tapped while nobody was adding) goes to a seat: what a
        phone scanning its QR code does, done by the host for that seat."""
        seat = self._target_seat(tx, table, action)["seat"]
        game = self._adding_figures(table)
        pending = figures.normalize(table["figures"])["pending"]
        return self._change_figures(tx, table, lambda record, names: figures.claim(
            record, seat, pending["claim"] if pending else None, self.describe_figure, game.registration, names))

    @staticmethod
    def _adding_figures(table: dict) -> Game:
        game = REGISTRY[table["game"]]
        if (table["status"] != "lobby" and not game.starts_at_once) or Tables._starting(table):
            raise TableError(409, N_("The game has started: figures can no longer be added."))
        return game

    def _host_name_figure(self, tx: Transaction, table: dict, action: dict) -> list[dict]:
        return self._name_figure(tx, table, action, None)

    def _name_figure(self, tx: Transaction, table: dict, action: dict, seat: int | None) -> list[dict]:
        """A name for a figure the catalogue does not know, remembered for next time."""
        if self.name_figure is None:
            raise TableError(400, N_("Figures can be named only with the catalogue."))
        figure = self._checked(lambda: figures.owned(figures.normalize(table["figures"]), action.get("figure"), seat))
        self._checked(lambda: self.name_figure(figure["amiibo_id"], action.get("name"), action.get("lang", "en")))
        return self._change_figures(tx, table, lambda record, names: figures.renamed(
            record, figure["amiibo_id"], self.describe_figure))

    def _figure_action(self, tx: Transaction, table: dict, seat: int, action: dict) -> list[dict]:
        game = REGISTRY[table["game"]]
        if action["type"] == "figure.name":
            # The name is the catalogue's, seen by every table of this server: the host gives it.
            raise TableError(403, N_("Only the host names figures: the name is kept for every table of this server."))
        if self._starting(table):  # the start took the figures as they were
            raise TableError(409, N_("The game is starting: figures can no longer be added or removed."))
        if table["status"] != "lobby" and not game.starts_at_once and action["type"] != "figure.remove":
            raise TableError(409, N_("The game has started: figures can no longer be added."))
        rules, kind = game.registration, action["type"]
        if kind == "figure.adding":
            if not isinstance(action.get("on"), bool):
                raise TableError(400, N_("The action needs the field %(field)s (%(kind)s)."), field="on",
                                 kind="true/false")
            change = lambda record, names: figures.set_registering(record, seat, action["on"], names)  # noqa: E731
        elif kind == "figure.pick":
            amiibo_id = self._checked(lambda: figures.clean_amiibo_id(action.get("amiibo_id")))
            change = lambda record, names: figures.register(  # noqa: E731
                record, seat, amiibo_id, None, self.describe_figure, rules, names)
        elif kind == "figure.claim":
            change = lambda record, names: figures.claim(  # noqa: E731
                record, seat, action.get("claim"), self.describe_figure, rules, names)
        else:
            change = lambda record, names: figures.remove(record, action.get("figure"), seat)  # noqa: E731
        return self._change_figures(tx, table, change)

    def _change_figures(self, tx: Transaction, table: dict, change: Callable) -> list[dict]:
        names = {s["seat"]: s["name"] for s in tx.seats(table["code"])}
        record, events = self._checked(lambda: change(figures.normalize(table["figures"]), names))
        fields: dict[str, Any] = {"figures": record}
        rng = None
        game = REGISTRY[table["game"]]
        tapped = next((e for e in events if e["type"] == "figure_tapped"), None)
        head, game_events = [], []
        if tapped and game.figure_tapped and table["status"] == "playing":
            figure = next(f for f in record["list"] if f["id"] == tapped["figure"])
            rng = self._rng(table)
            fields["state"], game_events = self._checked(lambda: game.figure_tapped(table["state"], figure, rng))
            self._checked(lambda: self.services.remember(game, game_events, table["code"]))
            head = [action_entry("figure", figure=figure)]
        # The table's own figure events are marked: the replay (companion.replay) expects only the game's.
        self._save(tx, table, rng, [{"kind": "event", "event": e, "figures": True} for e in events]
                   + [{"kind": "event", "event": e} for e in game_events], head=head, **fields)
        events = events + game_events
        return events

    # Views ---------------------------------------------------------------
    def figure_ids(self, raw_code: Any) -> list[str]:
        """The amiibo ids registered at a table, in registration order (for the rankings page)."""
        with self.store.reading() as tx:
            table = self._existing_table(tx, raw_code)
        return list(dict.fromkeys(figure["amiibo_id"] for figure in figures.normalize(table["figures"])["list"]))

    def view_for(self, principal: Principal) -> dict:
        with self.store.reading() as tx:
            table = tx.table(principal.code)
            table["history"] = tx.games(principal.code)
            seats = tx.seats(principal.code)
        return self._envelope(table, seats, principal.seat if principal.role == "seat" else None,
                              principal.role, self.clock())

    def current_views(self, code: str) -> dict:
        """Every viewer's view of the table as it is now (what a publish after its last change sent)."""
        with self.store.reading() as tx:
            table = self._existing_table(tx, code)
            seats = tx.seats(table["code"])
        return self._views(table, seats)

    def _views(self, table: dict, seats: list[dict]) -> dict:
        """Every viewer's view: ``None`` for the public one, then one per seat.

        One time stamp for all of them, so that views with the same content stay
        identical and go out as one message. The table's part is built once per
        audience (public, host, the seat holding the host's rights) and shared;
        the game's part is each viewer's own (a seat's private data)."""
        now = self.clock()
        parts: dict[tuple[bool, bool], dict] = {}
        views: dict[int | str | None, dict] = {None: self._envelope(table, seats, None, "public", now, parts),
                                               "host": self._envelope(table, seats, None, "host", now, parts)}
        for seat in seats:
            views[seat["seat"]] = self._envelope(table, seats, seat["seat"], "seat", now, parts)
        return views

    def _envelope(self, table: dict, seats: list[dict], seat: int | None, role: str, now: float,
                  parts: dict | None = None) -> dict:
        """One viewer's view; ``parts`` keeps the table's part of the views of one publish,
        by audience, so that it is built once."""
        game = REGISTRY[table["game"]]
        hosting = role == "host" or (seat is not None and seat == table["host_seat"])
        audience = (role == "host", hosting)
        shared = parts.get(audience) if parts is not None else None
        if shared is None:
            shared = self._table_view(table, seats, game, role, hosting)
            if parts is not None:
                parts[audience] = shared
        # The host screen's view is the game's view for HOST: public, plus its own host actions.
        game_view = game.view(table["state"], HOST if role == "host" else seat) if table["state"] is not None else None
        if parts is not None and game_view is not None:
            game_view = self._shared_game_view(parts, game_view)
        return {
            "version": table["version"],
            "time": round(now, 3),  # lets a screen run a game clock in the server's time
            "table": shared,
            "you": {"role": role, "seat": seat},
            **self._host_game_view(table, game, role, seat),
            "game": game_view,
        }

    @staticmethod
    def _shared_game_view(parts: dict, view: dict) -> dict:
        """The one object of a publish's game views equal to ``view`` (every seat's, in a game without
        secrets or turns): views made of the same objects compare at once and are encoded once
        (`companion.web.sockets.SocketHub.publish`), not once per seat."""
        known = parts.setdefault("games", [])
        for other in known:
            if other == view:
                return other
        known.append(view)
        return view

    def _table_view(self, table: dict, seats: list[dict], game: Game, role: str, hosting: bool) -> dict:
        """The table's part of a view: the same for every seat but the one holding the host's rights;
        the host screen also sees the figures' secrets."""
        revealed = table["status"] in ("over", "closed")
        record = figures.normalize(table["figures"])
        return {
            "code": table["code"], "game": table["game"], "status": table["status"],
            "joining_open": bool(table["joining_open"]), "commitment": table["commitment"],
            "entropy": fairness.Entropy.reading(table["entropy"], table["pool"]).public(),
            "seed": table["seed"] if revealed else None, "options": table["options"],
            "seats": [{"id": s["seat"], "name": s["name"], "colour": s["colour"]} for s in seats],
            "min_seats": game.min_seats, "max_seats": game.max_seats, "uses_figures": game.uses_figures,
            "names": game.names,
            "figures": record if role == "host" else figures.public(record),
            **self._night_view(table, game, hosting),
            "requirements": figures.requirements(game, table["options"], record, [s["seat"] for s in seats])
            if table["status"] == "lobby" else [],
        }

    @staticmethod
    def _host_game_view(table: dict, game: Game, role: str, seat: int | None) -> dict:
        """A seat that holds the host's rights also gets the host screen's view of the game, for the
        game's host actions (the board, the seat order…); it shows nothing a player may not see."""
        if role != "seat" or seat != table["host_seat"] or not game.host_actions or table["state"] is None:
            return {}
        if game.host_acts is not None and not game.host_acts(table["state"]):
            return {}
        return {"host_game": game.view(table["state"], HOST)}

    def summary(self, raw_code: Any) -> dict:
        """What a page needs to know about a table, without its log."""
        with self.store.reading() as tx:
            table = self._existing_table(tx, raw_code)
        return {key: table[key] for key in ("code", "game", "status", "commitment", "joining_open")}

    def public_log(self, raw_code: Any, number: Any = None) -> dict:
        """The log of one game of the table (the current one by default), that anyone may read:
        secret draws stay sealed until that game's seed is revealed (at its end)."""
        with self.store.reading() as tx:
            table = self._existing_table(tx, raw_code)
            number = table["game_no"] if number is None else number
            if type(number) is not int or not 1 <= number <= table["game_no"]:
                raise TableError(404, N_("There is no game %(number)s at this table."), number=str(number)[:12])
            entries = tx.log(table["code"], number)
        finished = next((g for g in table["history"] if g["number"] == number), None)
        if finished:
            game_id, commitment, seed = finished["game"], finished["commitment"], finished["seed"]
        else:
            game_id, commitment = table["game"], table["commitment"]
            seed = table["seed"] if table["status"] in ("over", "closed") else None
        undone = {i for entry in entries if entry.get("type") == "undone" for i in entry.get("entries", [])}
        for entry in entries:
            if entry["kind"] == "draw" and entry.get("secret") and not seed:
                entry["result"] = None
            if entry["kind"] == "action" and not seed:  # a revealed choice and its salt among them
                for key in ACTION_PAYLOAD:
                    entry.pop(key, None)
                entry["sealed"] = True
            if entry["i"] in undone:
                entry["undone"] = True  # kept in the log, marked: the undo entry names it
        return {"format": "companion-log/1", "code": table["code"], "game": game_id, "number": number,
                "games": table["game_no"], "commitment": commitment, "seed": seed,
                "status": table["status"], "entries": entries}

    # Internals -----------------------------------------------------------
    def _existing_table(self, tx: Transaction, raw_code: Any) -> dict:
        code = normalize_code(raw_code)
        table = tx.table(code) if code else None
        self.code_lookup(table is not None)
        if table is None:
            raise TableError(404, N_("There is no table with the code %(code)s."), code=str(raw_code)[:12])
        table["history"] = tx.games(code)
        return table

    def _open_table(self, tx: Transaction, raw_code: Any) -> dict:
        table = self._existing_table(tx, raw_code)
        self._require_open(table)
        return table

    def _rng(self, table: dict, seat: int | None = None, reveal: Any = None,
             book: fairness.Entropy | None = None) -> fairness.TableRng:
        """The randomness of one action: a seat's own draws, or the table's (setup, host, reader)."""
        book = book or fairness.Entropy(table["entropy"], table["pool"])
        return self._entropy(lambda: book.rng(table["seed"], table["next_draw"], seat, reveal))

    @staticmethod
    def _checked(rule: Callable[[], Any]) -> Any:
        """Runs a game rule; a rule violation becomes a 400 with the game's message."""
        try:
            return rule()
        except (IllegalAction, AmiiboError) as error:
            raise TableError(400, error.message, **error.params) from error

    def _save(self, tx: Transaction, table: dict, rng: fairness.TableRng | None, entries: list[dict],
              bump: bool = True, head: list[dict] = (), **fields: Any) -> None:
        """Writes the table's changes, its draws and its public entries; bumps the version
        unless the change is private to its actor. A game whose outcome is known ends here
        (whatever ended it), and whom the game now waits on is brought up to date.

        ``head`` goes before the draws: the ``action`` entry of the call that made them (and the
        table entry that says why it ran), so that the log replays (`companion.replay`)."""
        draws = [{"kind": "draw", **draw} for draw in rng.draws] if rng else []
        if rng:
            fields["next_draw"] = rng.next_n
        entries = [*head] + draws + entries + self._finish_if_over(tx, table, fields)
        asked = self._fresh_round(tx, table, fields)
        if "state" in fields or "status" in fields:
            fields.update(self._refreshed_waits(table, fields))
        if "entropy" in fields or "waits" in fields:
            fields["next_deadline"] = self._next_deadline(table, fields)
        table["version"] += 1 if bump else 0
        table.update(fields)
        tx.update_table(table["code"], version=table["version"], **fields)
        tx.append_log(table["code"], entries + asked, game=table["game_no"])
        if asked and fairness.Entropy(table["entropy"], table["pool"]).state["round"] is None:
            self._after_seal(tx, table)  # no phone to ask: the round sealed at once

    def _fresh_round(self, tx: Transaction, table: dict, fields: dict) -> list[dict]:
        """A game that now asks the table for a draw (Rayman's lost choice) gets it from a round opened
        here, whose values nobody has seen: whoever made the game ask cannot compute the draw then."""
        game = REGISTRY[fields.get("game", table["game"])]
        if "state" not in fields or fields.get("status", table["status"]) != "playing":
            return []
        wanted = self._wants_fresh(game, fields["state"])
        if wanted is None or wanted == self._wants_fresh(game, table["state"]):
            return []
        book = fairness.Entropy(fields.get("entropy", table["entropy"]), fields.get("pool", table["pool"]))
        entries = self._entropy(lambda: book.open_for("fresh", self._present(tx, table)))
        fields.update(entropy=book.state, pool=book.pool)
        return entries
