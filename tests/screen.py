"""A screen at the table for end-to-end tests: a python-socketio client that keeps
every message it receives (views, reader statuses, the answers to its actions)
and the newest view, so that a test waits on what a phone or a host screen sees."""

from __future__ import annotations

import functools
import queue

import socketio

WAIT = 30  # seconds at most for each awaited message; each wait ends on the message itself


class Screen:
    def __init__(self, url: str, code: str, token: str | None, reconnection: bool = False):
        self.messages: list[tuple[str, object]] = []
        self.views: "queue.Queue[dict]" = queue.Queue()
        self.readers: "queue.Queue[dict]" = queue.Queue()
        self.others: "queue.Queue[tuple[str, object]]" = queue.Queue()  # every other message, in order
        self.latest: dict | None = None
        # Each message is handled in a thread of its own (engine.io's client): messages
        # that arrive together may be recorded in either order; views carry their version.
        self.client = socketio.Client(reconnection=reconnection)
        self.client.on("*", self._record)
        auth = {"table": code, **({"token": token} if token else {})}
        self.client.connect(url, auth=auth, transports=["websocket"], wait_timeout=WAIT)

    def _record(self, event, data=None):
        self.messages.append((event, data))
        if event == "view":
            self.views.put(data)
        elif event == "reader":
            self.readers.put(data)
        else:
            self.others.put((event, data))

    def wait_away(self, seat: int) -> dict:
        """The presence message that shows ``seat`` away after one that showed it here: a seat
        that never connected is away in the messages sent before it did, which must not count."""
        seen_here = False
        while True:
            presence = self.wait_event("presence")
            if seat in presence["online"]:
                seen_here = True
            elif seen_here and str(seat) in presence["away_since"]:
                return presence

    def wait_event(self, name: str) -> object:
        """The data of the next message ``name`` (other than views and reader statuses)."""
        while True:
            event, data = self.others.get(timeout=WAIT)
            if event == name:
                return data

    def act(self, action: dict) -> dict:
        answer = self.client.call("act", action, timeout=WAIT)
        self.messages.append(("answer", answer))
        return answer

    def play(self, action: dict) -> dict:
        """An action the test expects the server to take."""
        answer = self.act(action)
        assert answer["ok"], (action, answer)
        return answer

    def wait_for(self, ready) -> dict:
        """The newest view once ``ready(view)`` holds; older views arriving late are skipped."""
        while self.latest is None or not ready(self.latest):
            view = self.views.get(timeout=WAIT)
            if self.latest is None or view["version"] >= self.latest["version"]:
                # A view shared by several screens leaves out "you": it stays what the connection said.
                self.latest = {**view, "you": view.get("you") or (self.latest or {}).get("you")}
        return self.latest

    def wait_for_game(self, ready) -> dict:
        """The newest view once the game has started and ``ready(game)`` holds."""
        return self.wait_for(lambda view: view["game"] is not None and ready(view["game"]))

    def close(self):
        """Disconnects at once (see `hang_up`)."""
        hang_up(self.client)
        self.client.disconnect()

    @staticmethod
    def refusal(url: str, code: str, token: str | None) -> object:
        """What the server says when it refuses a screen's connection."""
        errors: "queue.Queue[object]" = queue.Queue()
        client = socketio.Client(reconnection=False)
        client.on("connect_error", lambda data=None: errors.put(data))
        client.connect(url, auth={"table": code, **({"token": token} if token else {})}, transports=["websocket"],
                       wait=False)
        try:
            return errors.get(timeout=WAIT)
        finally:
            hang_up(client)
            client.eio.disconnect()


def hang_up(client: socketio.Client) -> None:
    """Makes the next disconnection immediate: websocket-client would otherwise wait up to 3 s
    for the server's closing frame, which the client's own reading thread usually takes first."""
    websocket = getattr(client.eio, "ws", None)
    if websocket is not None:
        websocket.close = functools.partial(websocket.close, timeout=0)
