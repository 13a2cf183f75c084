"""What every answer carries and what every client is held to: security
headers (on Socket.IO's answers too), JSON that cannot crash the server, the
same-origin rule of the JSON API, and the per-client limits of
`companion.limits`."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

from flask import Flask, g, has_request_context, jsonify, render_template, request
from flask.json.provider import DefaultJSONProvider
from flask_babel import gettext

from companion.errors import fault_answer, log_unspent_value
from companion.games.base import N_
from companion.limits import DEFAULT_CONNECTIONS, LOOKUP, ClientLimits, SeatRefusals, TooManyAttempts, limits_for
from companion.store import StorageError
from companion.tables import Principal
from companion.web import tables

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
])
SECURITY_HEADERS = (
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("X-Frame-Options", "DENY"),
)
# What only a document obeys (the browser reads them on a page, never on a script or a style sheet it
# loads): a static script, style, image or the WebAssembly goes without them, 250 bytes less each on a
# phone's first load of 15 to 30 files. nosniff stays on every answer (it is what keeps a script a script).
DOCUMENT_ONLY = {"content-security-policy", "x-frame-options"}
SUBRESOURCE_TYPES = ("text/javascript", "application/javascript", "text/css", "application/wasm",
                     "application/zip", "image/png", "image/jpeg", "image/webp", "font/")
CONNECTION_RETRY_SECONDS = 10


def security_headers_for(content_type: str | None) -> tuple[tuple[str, str], ...]:
    """The security headers an answer of this Content-Type carries (SVG and HTML are documents)."""
    if (content_type or "").split(";")[0].strip().lower().startswith(SUBRESOURCE_TYPES):
        return tuple((name, value) for name, value in SECURITY_HEADERS if name.lower() not in DOCUMENT_ONLY)
    return SECURITY_HEADERS


def is_cross_origin() -> bool:
    """True when a browser sent this request from a page of another site."""
    origin = request.headers.get("Origin")
    if not origin or origin == "null":
        return origin == "null"
    parts = urlsplit(origin)
    return parts.netloc != request.host or parts.scheme != request.scheme


class SafeJSONProvider(DefaultJSONProvider):
    """A body nested thousands deep exhausts the parser's recursion: that is a
    malformed body (400), not a server error."""

    def loads(self, s, **kwargs):
        try:
            return super().loads(s, **kwargs)
        except RecursionError:
            raise ValueError("JSON nested too deeply") from None


def client_address() -> str:
    return request.remote_addr or "unknown"


def limits() -> ClientLimits:
    from flask import current_app

    return current_app.extensions["companion.limits"]


def refusals() -> SeatRefusals:
    from flask import current_app

    return current_app.extensions["companion.refusals"]


def wait_before_the_store(principal: Principal, address: str) -> float:
    """Seconds until a seat's or the host's next action may open a transaction: its rate of actions,
    and what it and its address spent on refusals the store decided (`SeatRefusals`)."""
    seat = (principal.code, principal.actor)
    return max(tables().limiter.wait_for(seat), refusals().wait_for(seat, address))


def act_in_the_store(principal: Principal, token: str, action, address: str) -> dict:
    """`Tables.act`, its refusal counted against the seat and its address: the one way Socket.IO and
    the JSON API put a seat's or the host's action to the store."""
    return refusals().acting((principal.code, principal.actor), address,
                             lambda: tables().act(principal.code, token, action))


def charge(kind: str) -> None:
    """Spends one of this client's attempts at ``kind`` (`TooManyAttempts` when none is left)."""
    try:
        limits().charge(kind, client_address())
    except TooManyAttempts as error:
        g.retry_after = error.retry_after
        raise


def count_guess(kind: str, right: bool) -> None:
    """For what can be guessed (a table code, the administrator key): a miss spends one of this
    client's attempts, and a client with none left is refused even when right, so guessing gains
    nothing (`TooManyAttempts`)."""
    try:
        if right:
            limits().check(kind, client_address())
        else:
            limits().charge(kind, client_address())
    except TooManyAttempts as error:
        g.retry_after = error.retry_after
        raise


def _code_lookup(found: bool) -> None:
    """Tables' hook: a miss spends an attempt; a client with none left looks up nothing."""
    if has_request_context():  # not the server's own work (the reader, the sweeper)
        count_guess(LOOKUP, found)


class GuardedWSGI:
    """Around everything, Socket.IO included: the security headers on every
    answer, and a cap on the Socket.IO connections one address holds open."""

    def __init__(self, app: Flask, inner, socketio):
        self.app, self.inner, self.socketio = app, inner, socketio
        self.max_connections = int(app.config.get("LIMIT_CONNECTIONS") or DEFAULT_CONNECTIONS)
        self.path = "/" + socketio.server_options.get("socketio_path", "socket.io").strip("/")

    def __call__(self, environ, start_response):
        def with_headers(status, headers, exc_info=None):
            present = {name.lower(): value for name, value in headers}
            headers = list(headers) + [(name, value) for name, value in security_headers_for(present.get("content-type"))
                                       if name.lower() not in present]
            return start_response(status, headers, exc_info) if exc_info else start_response(status, headers)

        if self._is_new_connection(environ) and self._open_connections(environ) >= self.max_connections:
            return self._refuse_connection(environ, with_headers)
        return self.inner(environ, with_headers)

    def _is_new_connection(self, environ) -> bool:
        path = environ.get("PATH_INFO", "").rstrip("/")
        return path == self.path and "sid" not in parse_qs(environ.get("QUERY_STRING", ""))

    def _open_connections(self, environ) -> int:
        address = environ.get("REMOTE_ADDR")
        return sum(1 for other in list(self.socketio.server.environ.values()) if other.get("REMOTE_ADDR") == address)

    def _refuse_connection(self, environ, start_response):
        with self.app.request_context(environ):
            message = gettext(N_("Too many connections from this device (at most %(count)s): close a few pages "
                                 "of this table and try again."), count=self.max_connections)
        body = json.dumps({"ok": False, "error": message}).encode()
        start_response("429 Too Many Requests", [("Content-Type", "application/json"),
                                                 ("Content-Length", str(len(body))),
                                                 ("Retry-After", str(CONNECTION_RETRY_SECONDS))])
        return [body]


def install_security(app: Flask) -> None:
    app.json = SafeJSONProvider(app)
    app.extensions["companion.limits"] = limits_for(app.config)
    app.extensions["companion.refusals"] = SeatRefusals(app.config["RATE_BURST"], app.config["RATE_PER_SECOND"],
                                                        app.extensions["companion.limits"])

    @app.errorhandler(StorageError)
    def storage_failed(error: StorageError):
        message = gettext(error.message, **error.params)
        if request.path.startswith("/api/"):
            log_unspent_value(app.logger, (request.view_args or {}).get("code"), None, request.get_json(silent=True))
            return jsonify(fault_answer(message)), error.status
        return render_template("error.html", message=message), error.status

    @app.after_request
    def security_headers(response):
        for name, value in security_headers_for(response.content_type):
            response.headers.setdefault(name, value)
        if getattr(g, "retry_after", None):
            response.headers["Retry-After"] = str(g.retry_after)
        return response


def guard(app: Flask, socketio, tables) -> None:
    """Once Socket.IO and the tables exist: the outermost WSGI layer, and the code-lookup limit."""
    app.wsgi_app = GuardedWSGI(app, app.wsgi_app, socketio)
    tables.code_lookup = _code_lookup
