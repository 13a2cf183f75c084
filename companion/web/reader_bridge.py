"""The server's own NFC reader, wired to the tables.

The reader (`hardware.reader.Reader`) runs nfcpy in a native thread: USB and
serial calls block, and must not freeze the event loop. Its callbacks are
handed over to the event loop here, where a tap becomes the host action
``table.scan`` of the table whose host screen was opened last (the table on
the TV), through the same single action path as everything else.
"""

from __future__ import annotations

import logging
from typing import Any, Callable

from flask import Flask
from flask_babel import force_locale, gettext
from flask_socketio import SocketIO

from companion.games.base import N_
from companion.tables import TableError, Tables
from companion.web.i18n import translate

log = logging.getLogger(__name__)
HOSTS_ROOM = "hosts"


def _on_event_loop(socketio: SocketIO) -> Callable[[Callable], Callable]:
    """Wraps a callback of the reader's thread so that it runs on the event loop."""
    if socketio.async_mode == "gevent":
        import gevent

        hub = gevent.get_hub()

        def wrap(callback):
            return lambda *args: hub.loop.run_callback_threadsafe(gevent.spawn, callback, *args)
        return wrap
    return lambda callback: lambda *args: socketio.start_background_task(callback, *args)


class ReaderBridge:
    def __init__(self, app: Flask, socketio: SocketIO, tables: Tables, active_host: Callable[[], tuple | None]):
        self.app, self.socketio, self.tables = app, socketio, tables
        self.active_host = active_host  # () -> (table code, language) of the newest host screen, or None
        self.status: dict[str, Any] = {"state": "off", "model": None, "message": None}
        self.reader = None

    def start(self, path: str) -> None:
        if path == "none":
            return
        from hardware.reader import Reader

        on_loop = _on_event_loop(self.socketio)
        self.reader = Reader(path, on_scan=on_loop(self.on_scan), on_status=on_loop(self.on_status),
                             on_error=on_loop(self.on_tap_error))
        self.reader.start()

    def stop(self) -> None:
        if self.reader is not None:
            self.reader.stop()

    # On the event loop -----------------------------------------------------
    def on_status(self, status: dict) -> None:
        self.status = {**self.status, **status}
        self.socketio.emit("reader", self.status, to=HOSTS_ROOM)

    def on_scan(self, scan) -> None:
        target = self.active_host()
        if target is None:
            self._tell_hosts(None, "en", N_("A figure was tapped, but no table's host screen is open."))
            return
        code, language = target
        action = {"type": "table.scan", "uid": scan.uid, "amiibo_id": scan.amiibo_id}
        with self.app.app_context():
            try:
                self.tables.act_as_host(code, action)
            except TableError as refusal:
                with self.app.test_request_context(), force_locale(language):
                    self.socketio.emit("reader", {**self.status, "tap_error": translate(refusal)},
                                       to=f"{code}/host")

    def on_tap_error(self, message: str) -> None:
        target = self.active_host()
        self._tell_hosts(target[0] if target else None, target[1] if target else "en", message)

    def _tell_hosts(self, code: str | None, language: str, message: str) -> None:
        with self.app.test_request_context(), force_locale(language):
            text = gettext(message)
        self.socketio.emit("reader", {**self.status, "tap_error": text},
                           to=f"{code}/host" if code else HOSTS_ROOM)
