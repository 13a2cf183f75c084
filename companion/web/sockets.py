"""Socket.IO: phones and the host screen connect, act, and receive their views.

Rooms: ``<code>`` (everyone at the table: presence), ``<code>/host`` and
``<code>/public`` (the public view) and ``<code>/seat/<n>`` (one seat's view).
A seat is held by one connection at a time: a newer connection with the same
token (a reload, a phone waking up) takes it over and the older one is told
it was replaced, so two phones never hold one seat.
"""

from __future__ import annotations

import json
import math
import threading
from typing import Any, Callable, NamedTuple

from flask import Flask, g, has_app_context, has_request_context, request
from flask_babel import force_locale, get_locale
from flask_socketio import ConnectionRefusedError, SocketIO, disconnect, emit, join_room

from companion import clock as steady
from companion.errors import SERVER_FAILED, fault_answer, log_unspent_value
from companion.games.base import N_, Plural
from companion.limits import WATCH, TooManyAttempts
from companion.store import StorageError
from companion.tables import SPECTATOR_REFUSED, TOO_MANY_ACTIONS, Principal, TableError, normalize_code
from companion.web import tables, wire
from companion.web.i18n import translate
from companion.web.reader_bridge import HOSTS_ROOM, PHONES_ROOM, phone_status, reader_room
from companion.web.links import seat_cookie_name
from companion.web.security import act_in_the_store, client_address, limits, refusals

# The longest a refusal over a limit is held (see `SocketHub._refused_before_the_store`): under the ping timeout.
HOLD_AT_MOST = 1.0
MAX_TEXTS = 4096  # refusals kept translated (`SocketHub._text`): far more than there are messages and languages


def acting_sid() -> str | None:
    """The connection whose event is being handled, if any (`SocketHub.on_act_event` runs without a request)."""
    if has_request_context():
        return getattr(request, "sid", None)
    return g.get("acting_sid") if has_app_context() else None


class Screen(NamedTuple):
    """A connection as it connected: what its events are answered with, outside its request."""
    address: str
    language: str | None  # the screen's (`companion.web.i18n.select_locale`); None: the request's, within it


class Screens:
    """Each connection's `Screen`, from its connect to its disconnect."""

    def __init__(self):
        self._by_sid: dict[str, Screen] = {}

    def keep(self, sid: str, screen: Screen) -> None:
        self._by_sid[sid] = screen

    def forget(self, sid: str) -> None:
        self._by_sid.pop(sid, None)

    def get(self, sid: str) -> Screen | None:
        return self._by_sid.get(sid)

    def __len__(self) -> int:
        return len(self._by_sid)


def seat_room(code: str, seat: int) -> str:
    return f"{code}/seat/{seat}"


def view_room(code: str, viewer: int | str | None) -> str:
    """The room of a view's key in `Tables` views: a seat, "host", or None (the public)."""
    if viewer is None:
        return f"{code}/public"
    return f"{code}/host" if viewer == "host" else seat_room(code, viewer)


class Presence:
    """Which connection holds which seat, in this process, indexed by table, and since
    when each seat nobody holds has been away (a seat never seen since the process
    started counts from the start)."""

    def __init__(self, clock: Callable[[], float] = steady.now):
        self._lock = threading.Lock()
        self._by_sid: dict[str, tuple[Principal, str | None]] = {}
        self._holders: dict[str, dict[int, str]] = {}  # table code -> seat -> sid
        self._left: dict[tuple[str, int], float] = {}  # (table code, seat) -> when its last screen left
        self.clock = clock
        self.started = clock()

    def attach(self, sid: str, principal: Principal, token: str | None) -> str | None:
        """Records the connection; returns the connection it displaced, if any."""
        with self._lock:
            self._by_sid[sid] = (principal, token)
            if principal.role != "seat":
                return None
            seats = self._holders.setdefault(principal.code, {})
            previous = seats.get(principal.seat)
            seats[principal.seat] = sid
            self._left.pop((principal.code, principal.seat), None)
            return previous if previous != sid else None

    def detach(self, sid: str) -> Principal | None:
        with self._lock:
            principal, _ = self._by_sid.pop(sid, (None, None))
            if principal and principal.role == "seat":
                seats = self._holders.get(principal.code, {})
                if seats.get(principal.seat) == sid:
                    del seats[principal.seat]
                    self._left[(principal.code, principal.seat)] = self.clock()
                if not seats:
                    self._holders.pop(principal.code, None)
            return principal

    def of(self, sid: str) -> tuple[Principal, str | None] | tuple[None, None]:
        with self._lock:
            return self._by_sid.get(sid, (None, None))

    def online(self, code: str) -> list[int]:
        with self._lock:
            return sorted(self._holders.get(code, {}))

    def holders(self, code: str) -> dict[int, str]:
        with self._lock:
            return dict(self._holders.get(code, {}))

    def away_since(self, code: str, seats) -> dict[str, float]:
        """When each of ``seats`` that no screen holds was last held (JSON keys: strings)."""
        with self._lock:
            held = self._holders.get(code, {})
            return {str(seat): round(self._left.get((code, seat), self.started), 3)
                    for seat in seats if seat not in held}

    def away_for(self, code: str, seat: int) -> float | None:
        """Seconds since a screen last held the seat; None while one does."""
        with self._lock:
            if seat in self._holders.get(code, {}):
                return None
            return self.clock() - self._left.get((code, seat), self.started)

    def hosts(self, code: str) -> list[str]:
        with self._lock:
            return [sid for sid, (principal, _) in self._by_sid.items()
                    if principal.code == code and principal.role == "host"]

    def snapshot(self, code: str, seats) -> tuple[dict, dict[int, str]]:
        """What every view of a publish carries (who is here, since when the others are away)
        and who holds which seat, read once."""
        return {"online": self.online(code), "away_since": self.away_since(code, seats)}, self.holders(code)


class SocketHub:
    def __init__(self, app: Flask, socketio: SocketIO):
        self.app = app
        self.socketio = socketio
        queue = app.config.get("MESSAGE_QUEUE") or ""
        if queue.startswith(("redis://", "rediss://", "unix://")):
            # Several processes: who holds which seat is shared (companion/web/shared_presence.py).
            from companion.web.shared_presence import SharedPresence

            self.presence = SharedPresence(queue)
            socketio.start_background_task(self.presence.run_heartbeat, socketio.sleep)
            socketio.server.manager.on_resubscribed = self.resend_views
        else:
            self.presence = Presence()
        # A view encoded once goes out as it is, in this process or through the Redis queue
        # (companion.web.wire); another queue carries it decoded again.
        self._send_encoded = not queue or queue.startswith(("redis://", "rediss://", "unix://"))
        self.reader_status: Callable[[], dict] = lambda: {"state": "off", "model": None, "text": None}
        self._host_screens: dict[str, tuple[str, str]] = {}  # sid -> (table code, language), oldest first
        self._known_seats: dict[str, list[int]] = {}  # table code -> its seats, as last published
        self.screens = Screens()  # each connection's address and language, read when it connected
        self._texts: dict[tuple[str, str], str] = {}  # (language, msgid) -> a refusal's text

    def active_host(self) -> tuple[str, str] | None:
        """The table and language of the host screen opened last: the reader's taps go there."""
        return next(reversed(self._host_screens.values()), None)

    # Outgoing ------------------------------------------------------------
    def resend_views(self) -> None:
        """Each table with a screen on this process gets its current views again, from this process
        only: called when its subscription to the queue between processes was made again, since
        whatever the other processes published meanwhile never came (a view is the whole table,
        so the newest one makes up for every one missed)."""
        with self.app.app_context():
            for code in self.presence.local_tables():
                try:
                    self.publish(code, tables().current_views(code), local=True)
                except (TableError, StorageError):  # a table removed meanwhile: nothing to show
                    continue

    def publish(self, code: str, views: dict, partial: bool = False, revoked: list | tuple = (),
                local: bool = False) -> None:
        """After a commit: every seat its own view, the host its own, spectators the public one.

        Each view is encoded once, with the presence every view carries; views that
        encode the same (all of them, in a game without secrets) go out as one message
        to all their rooms, and the encoded text is sent as it is. "you" stays out of
        these: each screen learnt who it is from its connect view. ``local``: to this
        process's screens only (`resend_views`).
        """
        seats = [seat for seat in views if isinstance(seat, int)]
        if not partial:
            self._known_seats[code] = seats
        presence, holders = self.presence.snapshot(code, seats if not partial else self._known_seats.get(code, seats))
        groups: dict[str, list[str]] = {}
        encoded: list[tuple[dict, str]] = []  # views the same but for "you" share their parts' objects: fast to compare
        for seat, view in views.items():
            content = {name: value for name, value in view.items() if name != "you"}
            body = next((text for other, text in encoded if other == content), None)
            if body is None:
                body = wire.encode({**content, **presence})
                encoded.append((content, body))
            groups.setdefault(body, []).append(view_room(code, seat))
        for body, rooms in groups.items():
            self.socketio.emit("view", wire.Serialised(body) if self._send_encoded else json.loads(body), to=rooms,
                               ignore_queue=local)
        self._revoke(code, revoked)
        if not partial:  # a partial publish names only its actor: the other seats are still there
            self._evict_removed(code, views, holders)

    def _presence_of(self, code: str, seats: list[int]) -> dict:
        return self.presence.snapshot(code, seats)[0]

    def _revoke(self, code: str, revoked) -> None:
        """Screens whose token stopped working (a seat handed to another phone, host rights handed to a
        seat) are told and disconnected at once; their next try is refused."""
        for who in revoked:
            if who == "host":
                sids = self.presence.hosts(code)
            else:
                sids = [sid for seat, sid in self.presence.holders(code).items() if seat == who]
            for sid in sids:
                self.socketio.emit("revoked", {"code": code, "who": who}, to=sid)
                self._host_screens.pop(sid, None)
                self.presence.detach(sid)
                self._cut_off(sid)
            if sids and who != "host":
                self._announce_presence(code)

    def _evict_removed(self, code: str, views: dict, holders: dict[int, str]) -> None:
        for seat, sid in holders.items():
            if seat not in views:
                self.socketio.emit("removed", {"code": code}, to=sid)
                self.presence.detach(sid)
                self._cut_off(sid)

    def _cut_off(self, sid: str) -> None:
        """Disconnects a screen; the one whose action caused it first gets its answer (the screen
        hangs up when told), and meanwhile hears nothing more of the table."""
        if sid != acting_sid():
            self.socketio.server.disconnect(sid)
            return
        for room in self.socketio.server.rooms(sid):
            if room != sid:
                self.socketio.server.leave_room(sid, room)

    def _announce_presence(self, code: str, seats: list[int] | None = None) -> None:
        seats = seats if seats is not None else self._known_seats.get(code, [])
        self.socketio.emit("presence", self._presence_of(code, seats), to=code)

    # Incoming ------------------------------------------------------------
    def register(self) -> None:
        self.app.extensions["companion.hub"] = self
        self.socketio.on_event("connect", self.on_connect)
        self.socketio.on_event("disconnect", self.on_disconnect)
        self.socketio.server.on("act", self.on_act_event)

    def on_connect(self, auth: Any = None) -> None:
        if not isinstance(auth, dict):
            auth = {}
        # A phone whose local storage was wiped still has its seat cookie.
        code = normalize_code(auth.get("table"))
        token = auth.get("token") or (request.cookies.get(seat_cookie_name(code)) if code else None)
        try:
            principal = tables().authenticate(auth.get("table"), token)
        except (TableError, StorageError) as error:
            raise ConnectionRefusedError(translate(error))
        sid = request.sid
        self.screens.keep(sid, Screen(client_address(), str(get_locale())))
        displaced = self.presence.attach(sid, principal, token)
        if displaced:
            self.socketio.emit("replaced", {"code": principal.code}, to=displaced)
            self.presence.detach(displaced)
            self.socketio.server.disconnect(displaced)
        join_room(principal.code)
        if principal.is_host:  # the host screen, or the phone whose seat holds the host's rights
            join_room(HOSTS_ROOM)
            join_room(reader_room(principal.code))
            self._host_screens[sid] = (principal.code, str(get_locale()))
            emit("reader", self.reader_status())
        else:  # a phone asks for taps only while a reader is there
            join_room(PHONES_ROOM)
            emit("reader", phone_status(self.reader_status()))
        if principal.role == "seat":
            join_room(seat_room(principal.code, principal.seat))
        else:
            join_room(f"{principal.code}/{'host' if principal.role == 'host' else 'public'}")
        view = tables().view_for(principal)
        self._known_seats[principal.code] = [seat["id"] for seat in view["table"]["seats"]]
        emit("view", {**view, **self._presence_of(principal.code, self._known_seats[principal.code])})
        self._announce_presence(principal.code)

    def on_disconnect(self, *args: Any) -> None:
        self._host_screens.pop(request.sid, None)
        self.screens.forget(request.sid)
        principal = self.presence.detach(request.sid)
        if principal is not None and principal.role == "seat":
            self._announce_presence(principal.code)

    def _refused_before_the_store(self, principal: Principal, screen: Screen) -> dict | None:
        """What never reaches the store: a spectator's action (a spectator may not act; each one counts
        against its address, `companion.limits.WATCH`) and a seat's or the host's action over its rate
        or past its refusals (`companion.limits.SeatRefusals`). Past a limit the answer is held for as
        long as the screen must wait: the events of a connection are read one after another, so its next
        ones are read only then, and a flooding screen slows itself, not the other tables."""
        if principal.role == "spectator":
            try:
                limits().charge(WATCH, screen.address)
            except TooManyAttempts as error:
                return self._held(error, screen, error.retry_after)
            return self._refusal(TableError(401, SPECTATOR_REFUSED), screen)
        seat = (principal.code, principal.actor)
        rate_wait = tables().limiter.wait_for(seat)
        refusals_wait = refusals().wait_for(seat, screen.address)
        if refusals_wait > 0:
            # Held the longest: an address's refusals are shared by its seats, so with fifty of them
            # flooding a seat's own turn is further off than the bucket's wait says (held that long,
            # fifty seats came back ten times a second each and cost the server more than the store did).
            return self._held(TableError(429, TOO_MANY_ACTIONS), screen, max(rate_wait, refusals_wait),
                              hold=HOLD_AT_MOST)
        if rate_wait > 0:
            return self._held(TableError(429, TOO_MANY_ACTIONS), screen, rate_wait)
        return None

    def _held(self, error: TableError, screen: Screen, wait: float, hold: float | None = None) -> dict:
        self.socketio.sleep(min(wait if hold is None else hold, HOLD_AT_MOST))
        return {**self._refusal(error, screen), "retry_after": max(1, math.ceil(wait))}

    def _refusal(self, error: TableError | StorageError, screen: Screen) -> dict:
        """The acknowledgement of a refused action, in the screen's language."""
        answer = {"ok": False, "error": self._text(error, screen.language), "status": error.status}
        if getattr(error, "retry_after", None):
            answer["retry_after"] = error.retry_after
        return answer

    def _text(self, error: TableError | StorageError, language: str | None) -> str:
        """`translate` in ``language`` (None: the request's). A message without parameters (most refusals:
        "Your draw waits", "Too many actions") is translated once per language: Flask-Babel's lookups were
        a tenth of a refusal's CPU once the request was gone."""
        if language is None:
            return translate(error)
        if error.params or isinstance(error.message, Plural):
            with force_locale(language):
                return translate(error)
        key = (language, error.message)
        text = self._texts.get(key)
        if text is None:
            with force_locale(language):
                text = translate(error)
            if len(self._texts) < MAX_TEXTS:
                self._texts[key] = text
        return text

    def on_act_event(self, sid: str, action: Any = None) -> dict:
        """The "act" event, registered on the Socket.IO server itself: a screen's action runs in an
        application context only, its answer in the language the screen connected with. Flask's request
        context per event (a URL adapter, a session, the request's parsing) was 4-8 % of a roll's CPU
        (issue 29), and half of what a flooder's refusal cost: only a connection this process no longer
        knows goes through it (`on_act`).

        A refused action gives the loop back before its connection's next event is read: a flooding
        screen's events wait in a row, and a burst of refusals one after another (each a transaction
        when the store decides it) kept every other table waiting until the screen was held."""
        answer = self._answer_act(sid, action)
        if not answer.get("ok"):
            self.socketio.sleep(0)
        return answer

    def _answer_act(self, sid: str, action: Any) -> dict:
        principal, token = self.presence.of(sid)
        screen = self.screens.get(sid)
        if principal is None or screen is None:  # replaced, revoked, or closed meanwhile
            return self._in_request(sid, self.on_act, action)
        with self.app.app_context():
            g.acting_sid = sid
            return self._act(principal, token, action, screen)

    def _in_request(self, sid: str, handler: Callable[..., dict], *args: Any) -> dict:
        """``handler`` within the request that opened the connection, as Flask-SocketIO runs an event
        (a connection closed meanwhile has none left: its answer, which nobody reads, is in English)."""
        environ = self.socketio.server.get_environ(sid)
        with self.app.request_context(environ) if environ else self.app.test_request_context():
            request.sid, request.namespace = sid, "/"
            return handler(*args)

    def on_act(self, action: Any = None) -> dict:
        """An action of a connection this process no longer knows, within its request: a screen replaced
        or revoked is disconnected; one that closed meanwhile is answered as it was."""
        principal, token = self.presence.of(request.sid)
        if principal is None:
            disconnect()
            return {"ok": False, "error": translate(TableError(401, N_("This token is not valid.")))}
        return self._act(principal, token, action, Screen(client_address(), None))

    def _act(self, principal: Principal, token: str | None, action: Any, screen: Screen) -> dict:
        """A screen's action, and the answer in its language."""
        if action is wire.TOO_DEEP:
            return self._refusal(TableError(400, N_("The action is nested too deeply.")), screen)
        refused = self._refused_before_the_store(principal, screen)
        if refused is not None:
            return refused
        try:
            return act_in_the_store(principal, token, action, screen.address)
        except TableError as error:
            if getattr(error, "held_for", 0) > 0:
                # The refusal that spent the last of its seat's or its address's budget is held as those
                # after it are: fifty seats of one flooding address are held from their first refusal on
                # once the address's are spent, not answered one more time each first.
                self.socketio.sleep(HOLD_AT_MOST)
            return self._refusal(error, screen)
        except Exception as error:
            return self._failed_act(error, principal, action, screen)

    def _failed_act(self, error: Exception, principal: Principal, action: Any, screen: Screen) -> dict:
        """The answer to an action that raised, not refused: the store failed, or a bug."""
        if isinstance(error, StorageError):  # a full disk answers at once too, as the server's fault
            log_unspent_value(self.app.logger, principal.code, principal.seat, action)
            return fault_answer(self._text(error, screen.language), error.status)
        # A bug: the phone hears of it, and its connection (which reads its events) stays up.
        self.app.logger.error("the action %r at table %s failed", action, principal.code, exc_info=error)
        log_unspent_value(self.app.logger, principal.code, principal.seat, action)
        return fault_answer(self._text(TableError(500, SERVER_FAILED), screen.language), 500)
