"""Companion: a game-table server that turns every phone into part of the game."""

from __future__ import annotations

import importlib
from typing import Callable

import socketio.packet
from flask import Flask
from flask.sessions import SessionInterface
from flask_socketio import SocketIO

from companion import clock as steady
from companion.amiibo.catalog import Catalog
from companion.amiibo.house import HouseRankings
from companion.amiibo.locations import FigureLocations
from companion.amiibo.proposals import HouseProposals
from companion.amiibo.shipped import SHIPPED, load_shipped
from companion.config import ROOT, check_settings, from_environment
from companion.displays import Displays
from companion.event_loop import gevent_is_running
from companion.expiry import run_sweeper
from companion.store import open_store
from companion.services import CompanionServices
from companion.tables import Tables
from companion.web.wire import PacketJSON


class TextPacket(socketio.packet.Packet):
    """Companion never sends binary data: skip the scan of every payload for it. Its JSON is
    encoded in C, and a view already encoded is put in as it is (`companion.web.wire`)."""

    uses_binary_events = False
    json = PacketJSON


class NoSessions(SessionInterface):
    """Companion keeps no Flask session: a screen is whoever its seat or host token says.
    Flask still opens one for every request context, and Flask-SocketIO pushes one per
    Socket.IO event: with a secret key set, that built a signer and parsed the cookies on
    every roll. The session is Flask's null one (writing to it raises)."""

    def open_session(self, app, request):
        return self.make_null_session(app)

    def save_session(self, app, session, response) -> None:
        pass


def _async_mode() -> str:
    """gevent when the process was monkey-patched (app.py, gunicorn's gevent
    worker); plain threads otherwise (tests with the Flask-SocketIO test client)."""
    return "gevent" if gevent_is_running() else "threading"


def create_app(config: dict | None = None) -> Flask:
    app = Flask(__name__, template_folder=str(ROOT / "templates"), static_folder=str(ROOT / "static"),
                instance_path=str(ROOT / "instance"))
    app.config.update(from_environment())
    app.config.update(config or {})
    check_settings(app.config)
    app.session_interface = NoSessions()
    for module in app.config["GAME_MODULES"]:  # each registers its games on import
        importlib.import_module(module)

    from companion.cli import catalog_cli
    from companion.web import delivery, i18n, sockets
    from companion.web.amiibo_api import amiibo_api
    from companion.web.api import api
    from companion.web.pages import pages
    from companion.web.rankings_api import rankings_api
    from companion.web.security import guard, install_security

    if app.config["PROXIES"]:  # the per-phone limits count phones, not the proxy
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=app.config["PROXIES"], x_proto=app.config["PROXIES"])
    i18n.init_app(app)
    install_security(app)
    delivery.init_app(app)
    app.register_blueprint(pages)
    app.register_blueprint(api)
    app.register_blueprint(amiibo_api)
    app.register_blueprint(rankings_api)
    app.cli.add_command(catalog_cli)

    socketio = SocketIO(app, async_mode=app.config.get("ASYNC_MODE") or _async_mode(),
                        **_message_queue(app.config["MESSAGE_QUEUE"]), max_http_buffer_size=1_000_000,
                        serializer=TextPacket,
                        ping_interval=10, ping_timeout=10,
                        # A screen's events are handled one after another in the greenlet that reads
                        # its connection, not each in a greenlet of its own: in order, and a roll is
                        # handled as soon as it is read (one spawn and one trip through the loop less;
                        # p99 at 100 tables x 6 phones 139-175 ms against 320-1600, bench/run.py).
                        async_handlers=False)
    if socketio.async_mode == "gevent":  # a flooding connection is read at the pace it is handled
        from companion.web.paced_websocket import pace_websockets

        pace_websockets(socketio)
    store = open_store(app.config["DATABASE"], sync=app.config["DB_SYNC"])
    steady.catch_up_with(store)
    catalog = app.extensions["companion.catalog"] = Catalog(store)
    if app.config.get("SHIPPED_CATALOGUE", SHIPPED):  # a fresh install names every known figure offline
        load_shipped(catalog, app.config.get("SHIPPED_CATALOGUE", SHIPPED))
    house = app.extensions["companion.house"] = HouseRankings(store, app.config["HOUSE_TABLES"])
    app.extensions["companion.proposals"] = HouseProposals(store, house)
    services = CompanionServices(catalog, house, FigureLocations(store), language=i18n.current_language)
    hub = sockets.SocketHub(app, socketio)
    app.extensions["companion.tables"] = Tables(store, notify=hub.publish,
                                                rate_capacity=app.config["RATE_BURST"],
                                                rate_per_second=app.config["RATE_PER_SECOND"],
                                                describe_figure=catalog.figure_names,
                                                name_figure=catalog.name_figure, services=services,
                                                away=hub.presence.away_for,
                                                away_after=app.config["AWAY_SECONDS"],
                                                online=hub.presence.online,
                                                round_seconds=app.config["ROUND_SECONDS"],
                                                texts=i18n.every_language(app))
    app.extensions["companion.displays"] = Displays(store, app.extensions["companion.tables"],
                                                   wait=app.config["PAIR_WAIT"])
    app.extensions["companion.socketio"] = socketio
    hub.register()
    guard(app, socketio, app.extensions["companion.tables"])
    _start_reader(app, socketio, hub)
    if app.config["DEADLINE_TICK"] > 0 and not app.testing:
        socketio.start_background_task(_settle_deadlines, app, socketio)
    if app.config["SWEEP_SECONDS"] > 0 and not app.testing:
        socketio.start_background_task(run_sweeper, app, socketio)
    return app


def _message_queue(url: str | None) -> dict:
    """Flask-SocketIO's queue between processes. On Redis, redis-py's default pool refuses a
    101st connection at once ("Too many connections"), which hundreds of greenlets emitting
    together reach: publishers wait for a connection of a bounded pool instead."""
    if not url or not url.startswith(("redis://", "rediss://", "unix://")):
        return {"message_queue": url}
    import redis
    from socketio import RedisManager

    from companion.web.wire import QueueJSON

    class BoundedRedisManager(RedisManager):
        """Also tells when this process's subscription to the queue was made again (`on_resubscribed`):
        Redis drops a subscriber that reads too slowly (client-output-buffer-limit pubsub) or that it
        lost, and what was published until the process subscribed again never reaches it. And a view
        python-socketio could not publish (it gives up after two tries) is published again later."""

        on_resubscribed: Callable[[], None] = staticmethod(lambda: None)
        _subscriptions = 0
        _retrying = False

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._unsent: dict = {}  # (namespace, rooms) -> the newest view not published to them

        def _publish(self, data):
            sent = super()._publish(data)
            if data.get("method") != "emit" or data.get("event") != "view":
                return sent
            # Only the newest view of its rooms matters: it is the whole table, and phones
            # drop a view older than one they have.
            room = data.get("room")
            key = (data.get("namespace"), tuple(room) if isinstance(room, list) else room)
            if sent is not None:
                self._unsent.pop(key, None)
            else:
                self._unsent[key] = data
                if not self._retrying:
                    self._retrying = True
                    self.server.start_background_task(self._publish_unsent)
            return sent

        def _publish_unsent(self):
            delay = 0.5
            while self._unsent:
                self.server.sleep(delay)
                delay = min(2 * delay, 30)
                for key, message in list(self._unsent.items()):
                    if RedisManager._publish(self, message) is None:
                        break  # still failing: all of them later
                    if self._unsent.get(key) is message:
                        del self._unsent[key]
            self._retrying = False

        def set_server(self, server):
            super().set_server(server)
            self.json = QueueJSON  # keeps a view encoded once from one process to the next

        def _redis_connect(self):
            super()._redis_connect()
            self.redis = redis.Redis(connection_pool=redis.BlockingConnectionPool.from_url(
                self.redis_url, max_connections=64, timeout=30))
            self.pubsub = self.redis.pubsub(ignore_subscribe_messages=False)  # `_listen` counts them

        def _listen(self):
            channel = self.channel.encode("utf-8")
            for message in self._redis_listen_with_retries():
                if message["type"] == "subscribe":
                    self._subscriptions += 1
                    if self._subscriptions > 1:  # not the first: messages may have been missed
                        self.server.start_background_task(self.on_resubscribed)
                elif message["channel"] == channel and message["type"] == "message" and "data" in message:
                    yield message["data"]

    return {"message_queue": url, "client_manager": BoundedRedisManager(url, channel="flask-socketio")}


def _settle_deadlines(app: Flask, socketio: SocketIO) -> None:
    """Nothing waits forever: timed waits past their deadline are settled by the server, even when
    no screen acts (each process checks; the table's transaction makes it happen once)."""
    tables = app.extensions["companion.tables"]
    while True:
        socketio.sleep(app.config["DEADLINE_TICK"])
        try:
            with app.app_context():
                tables.expire_due(between=lambda: socketio.sleep(0))
        except Exception:  # a bad table must not stop the clock of the others
            app.logger.exception("settling deadlines failed")


def _start_reader(app: Flask, socketio: SocketIO, hub) -> None:
    import atexit

    from companion.web.i18n import every_language
    from companion.web.reader_bridge import ReaderBridge

    bridge = ReaderBridge(app, socketio, app.extensions["companion.tables"], hub.active_host,
                          texts=every_language(app))
    hub.reader_status = lambda: bridge.status
    app.extensions["companion.reader"] = bridge
    bridge.start(app.config["READER"])
    atexit.register(bridge.stop)
