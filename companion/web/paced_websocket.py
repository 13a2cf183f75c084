"""Websockets read no faster than their messages are handled (under gevent).

Engine.IO's websocket (simple-websocket) reads each connection in a greenlet of its own and keeps
every message it parsed in a list until the connection's handler takes it. A client that sends
without pause (a flood of ``act``, issue 24) kept that greenlet busy: gevent's ``recv`` returns at
once while data is waiting, so the greenlet parsed frame after frame without ever giving the loop
back, and every other table waited (an honest roll took 9 s); the list grew without bound.

Here the reading greenlet gives the loop back after each read that left messages waiting, and stops
reading while ``MAX_PENDING`` of its connection's messages wait: the client's frames then wait in
the kernel's buffers, and once those are full the client's own sends block. A connection is read at
the pace its handler goes, so the answers Companion holds for a client over a limit
(`companion.web.sockets`) slow that client down, not the loop. A phone never has more than a
message or two waiting.
"""

from __future__ import annotations

import gevent
import gevent.event
import simple_websocket
from engineio.async_drivers import gevent as gevent_driver

MAX_PENDING = 16
DRAIN_CHECK_SECONDS = 1.0  # while stopped: how often the reader looks whether its connection closed


class PacedServer(simple_websocket.Server):
    def __init__(self, environ, **kwargs):
        self.drained = gevent.event.Event()  # before the reading greenlet starts (in the base class)
        self.drained.set()
        super().__init__(environ, **kwargs)

    def _handle_events(self) -> bool:
        """After each read, in the reading greenlet."""
        keep_going = super()._handle_events()
        if len(self.input_buffer) > 1:
            gevent.sleep(0)  # the other connections' turn
        while keep_going and self.connected and len(self.input_buffer) >= MAX_PENDING:
            self.drained.clear()
            self.drained.wait(timeout=DRAIN_CHECK_SECONDS)
        return keep_going

    def receive(self, timeout=None):
        message = super().receive(timeout)
        if len(self.input_buffer) < MAX_PENDING:
            self.drained.set()
        return message


class PacedWebSocketWSGI(gevent_driver.WebSocketWSGI):
    """Engine.IO's gevent websocket, with `PacedServer` as its connection."""

    def __call__(self, environ, start_response):
        self.ws = PacedServer(environ, **self.server_args)
        answer = self.app(self)
        # As Engine.IO's own: tell the server the socket was taken over when the connection ends.
        if self.ws.mode == "gunicorn":
            raise StopIteration()
        if self.ws.mode == "werkzeug":
            raise ConnectionError()
        return answer


def pace_websockets(socketio) -> None:
    """Engine.IO's server makes its websockets paced (under gevent, where it uses simple-websocket)."""
    engine = socketio.server.eio
    if engine.async_mode == "gevent" and gevent_driver.SimpleWebSocketWSGI is not None:
        engine._async = {**engine._async, "websocket": PacedWebSocketWSGI}
