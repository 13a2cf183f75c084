"""The baseline: a bare Flask-SocketIO server that speaks just enough of
Companion's protocol for the benchmark's phones, and nothing else.

``gunicorn -c gunicorn.conf.py bench.echo_app:app`` serves it on the same stack
as Companion (the same gunicorn settings, one gevent worker, the same
Socket.IO settings), so Companion's latency divided by this one's is what the
game logic, the persistence and the per-seat views cost.

Seats and tables live in dicts (the phones must be able to set up exactly as
they do against Companion); an "act" bumps a per-table counter (the phones
match a view to a roll by ``{seat, number}``), emits one "view" to the whole
table room and acks. No game rules, no database, no rate limit, no fairness
rounds (its views ask for none, and it never answers 428).

The view weighs what Companion's dice view weighs (``VIEW_BYTES``: a table of 6 seats
with its 10 last rolls, measured on the wire) and goes through Companion's own
serialiser: encoded once in C (`companion.web.wire.encode`), put into the packet as
it is (`companion.TextPacket`), as `SocketHub.publish` sends a view.
"""

from __future__ import annotations

import secrets
import threading

from flask import Flask, jsonify, request
from flask_socketio import ConnectionRefusedError, SocketIO, join_room

from companion import TextPacket
from companion.web import wire

# Companion's dice view at a table of 6 phones once 10 rolls are in its history (bench/run.py's
# load): 2,295 bytes as `SocketHub.publish` encodes it (the table with its fairness book, the
# game, the presence), measured at commit d99ed33. The echo's view pads its table part to it.
VIEW_BYTES = 2295
HISTORY_KEPT = 10  # as Companion's dice view (companion/games/dice.py)

app = Flask(__name__)
# The settings Companion passes to SocketIO (companion/__init__.py), its serialiser included;
# the gunicorn gevent worker has monkey-patched the process, hence "gevent".
socketio = SocketIO(app, async_mode="gevent", max_http_buffer_size=1_000_000, serializer=TextPacket,
                    ping_interval=10, ping_timeout=10, async_handlers=False)

_lock = threading.Lock()
_rolls: dict[str, int] = {}  # table code -> rolls so far
_history: dict[str, list[dict]] = {}  # table code -> its last rolls, newest first
_seats_taken: dict[str, int] = {}  # table code -> seats handed out
_principals: dict[str, tuple[str, int | None]] = {}  # token -> (table code, seat or None for the host)
_by_sid: dict[str, tuple[str, int | None]] = {}


@app.get("/api/games")
def games():
    # The launcher polls this to know the server is up, as it does for Companion.
    return jsonify({"games": [{"id": "dice"}]})


@app.post("/api/tables")
def create_table():
    code = secrets.token_hex(3).upper()
    host_token = secrets.token_urlsafe(24)
    with _lock:
        _rolls[code] = _seats_taken[code] = 0
        _history[code] = []
        _principals[host_token] = (code, None)
    return jsonify({"code": code, "host_token": host_token}), 201


@app.get("/api/tables/<code>")
def table(code: str):
    # A phone reads the table (its commitment) before it joins: the echo commits to nothing.
    if code not in _rolls:
        return jsonify({"ok": False, "error": "no such table"}), 404
    return jsonify({"table": {"code": code, "commitment": None}})


@app.post("/api/tables/<code>/seats")
def take_seat(code: str):
    token = secrets.token_urlsafe(24)
    with _lock:
        if code not in _rolls:
            return jsonify({"ok": False, "error": "no such table"}), 404
        _seats_taken[code] += 1
        seat = _seats_taken[code]
        _principals[token] = (code, seat)
    return jsonify({"seat": seat, "token": token, "code": code}), 201


@socketio.on("connect")
def on_connect(auth=None):
    principal = _principals.get((auth or {}).get("token"))
    if principal is None:
        raise ConnectionRefusedError("unknown token")
    _by_sid[request.sid] = principal
    join_room(principal[0])


@socketio.on("disconnect")
def on_disconnect(*args):
    _by_sid.pop(request.sid, None)


@socketio.on("act")
def on_act(action=None):
    code, seat = _by_sid[request.sid]
    face = secrets.randbelow(6) + 1
    with _lock:
        _rolls[code] += 1
        number = _rolls[code]
        last = {"seat": seat, "number": number, "values": [face], "faces": [str(face)]}
        _history[code] = history = [last, *_history[code]][:HISTORY_KEPT]
    socketio.emit("view", wire.Serialised(wire.encode(view_of(number, history))), to=code)
    return {"ok": True, "events": [{"type": "rolled", **last}]}


def view_of(version: int, history: list[dict], padding: str | None = None) -> dict:
    return {"version": version, "table": {"padding": _PADDING if padding is None else padding},
            "game": {"die": "d6", "count": 1, "rolls": version, "last": history[0], "history": history}}


def _padding() -> str:
    """What the table part holds so that a view with a full history weighs ``VIEW_BYTES``."""
    roll = {"seat": 6, "number": 1000, "values": [6], "faces": ["6"]}
    bare = len(wire.encode(view_of(1000, [roll] * HISTORY_KEPT, padding="")))
    return "x" * max(0, VIEW_BYTES - bare)


_PADDING = _padding()
