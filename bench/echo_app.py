"""The baseline: a bare Flask-SocketIO server that speaks just enough of
Companion's protocol for the benchmark's phones, and nothing else.

``gunicorn -c gunicorn.conf.py bench.echo_app:app`` serves it on the same stack
as Companion (the same gunicorn settings, one gevent worker, the same
Socket.IO settings), so Companion's latency divided by this one's is what the
game logic, the persistence and the per-seat views cost.

Seats and tables live in dicts (the phones must be able to set up exactly as
they do against Companion); an "act" bumps a per-table counter (the phones
match a view to a roll by ``{seat, number}``), emits one small "view" to the
whole table room and acks. No game rules, no database, no rate limit.
"""

from __future__ import annotations

import secrets
import threading

from flask import Flask, jsonify, request
from flask_socketio import ConnectionRefusedError, SocketIO, join_room

app = Flask(__name__)
# The settings Companion passes to SocketIO (companion/__init__.py); the
# gunicorn gevent worker has monkey-patched the process, hence "gevent".
socketio = SocketIO(app, async_mode="gevent", max_http_buffer_size=1_000_000,
                    ping_interval=10, ping_timeout=10, async_handlers=False)

_lock = threading.Lock()
_rolls: dict[str, int] = {}  # table code -> rolls so far
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
        _principals[host_token] = (code, None)
    return jsonify({"code": code, "host_token": host_token}), 201


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
    with _lock:
        _rolls[code] += 1
        number = _rolls[code]
    last = {"seat": seat, "number": number}
    socketio.emit("view", {"version": number, "game": {"last": last}}, to=code)
    return {"ok": True, "events": [{"type": "rolled", **last}]}
