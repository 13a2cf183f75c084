"""The server's own NFC reader, wired to the tables.

The reader (`hardware.reader`) runs in a child process that reports scans,
states and tap errors as JSON lines (``python -m hardware.reader --events``):
nfcpy's USB and serial calls block, and must never freeze the event loop that
serves every phone; a driver that crashes takes only the child down (it is
started again). Here a tap becomes the host action ``table.scan`` of the table
whose host screen (or host phone) was opened last, through the same single
action path as everything else.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from types import SimpleNamespace
from typing import Any, Callable

from flask import Flask
from flask_babel import force_locale
from flask_socketio import SocketIO

from companion.config import ROOT
from companion.games.base import N_, Msg
from companion.tables import TableError, Tables
from companion.web.i18n import translate

log = logging.getLogger(__name__)
HOSTS_ROOM = "hosts"
PHONES_ROOM = "phones"  # every seat's and spectator's screen: they learn whether a reader is there
RESTART_DELAY = 2.0  # s before a reader process that ended by itself is started again

# The reader process says each state and failed tap as a msgid with its parameters (hardware.reader.Said;
# its raw driver errors stay in its English log): screens get it whole in every language.
UNKNOWN_TAP = {"msgid": N_("The tag could not be read: place it again."), "params": {}, "msgids": []}
PROCESS_ENDED = {"msgid": N_("The reader's process ended: it is started again in a moment."), "params": {},
                 "msgids": []}


def reader_room(code: str) -> str:
    """The screens that show a table's reader: its host screens and its host phone."""
    return f"{code}/reader"


def said_texts(texts: Callable[[str, dict], dict[str, str]], said: Any) -> dict[str, str] | None:
    """A reader message ({"msgid", "params", "msgids"}) in each language of the screens; None for none.
    A malformed one (the reader process is ours, but a line can be cut) reads as an unreadable tag."""
    if said is None:
        return None
    if not (isinstance(said, dict) and isinstance(said.get("msgid"), str) and isinstance(said.get("params"), dict)):
        said = UNKNOWN_TAP
    msgids = set(said.get("msgids") or ())
    params = {name: Msg(value) if name in msgids and isinstance(value, str) else value
              for name, value in said["params"].items()}
    return texts(said["msgid"], params)


def phone_status(status: dict) -> dict:
    """What a phone is told of the reader: whether it is there (and its model), so that it asks for
    taps only when a figure can be tapped; the technical details stay on the host screen."""
    return {"state": status.get("state", "off"), "model": status.get("model")}


class ReaderBridge:
    def __init__(self, app: Flask, socketio: SocketIO, tables: Tables, active_host: Callable[[], tuple | None],
                 texts: Callable[[str, dict], dict[str, str]]):
        self.app, self.socketio, self.tables = app, socketio, tables
        self.active_host = active_host  # () -> (table code, language) of the newest host screen, or None
        self.texts = texts  # a message in every language of the screens (companion.web.i18n.every_language)
        # What screens get: the state, the model, and the message in each language (never the raw English).
        self.status: dict[str, Any] = {"state": "off", "model": None, "text": None}
        self.process: subprocess.Popen | None = None
        self.stopping = False

    def start(self, path: str) -> None:
        if path.strip().lower() == "none":
            return
        self.socketio.start_background_task(self._run, path)

    def stop(self) -> None:
        """Ends the reader process (closing its standard input is enough; it stops in well under 1 s)."""
        self.stopping = True
        if self.process and self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(timeout=1)
            except subprocess.TimeoutExpired:
                self.process.kill()

    def _run(self, path: str) -> None:
        while not self.stopping:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "hardware.reader", "--events", "--device", path], cwd=ROOT,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
            for line in self.process.stdout:
                self._dispatch(line)
            self.process.wait()
            if not self.stopping:
                log.warning("the NFC reader process ended (%s); starting it again", self.process.returncode)
                self.on_status({"state": "error", "model": None, "said": PROCESS_ENDED})
                self.socketio.sleep(RESTART_DELAY)

    def _dispatch(self, line: str) -> None:
        try:
            event = json.loads(line)
            kind = event.pop("event")
        except (ValueError, KeyError, AttributeError, TypeError):  # not JSON, not an object, no event
            log.warning("unexpected line from the NFC reader process: %r", line[:200])
            return
        if kind == "scan":
            self.on_scan(SimpleNamespace(**event))
        elif kind == "status":
            self.on_status(event)
        elif kind == "error":
            self.on_tap_error(event.get("said") or UNKNOWN_TAP)

    # On the event loop -----------------------------------------------------
    def on_status(self, status: dict) -> None:
        before = phone_status(self.status)
        self.status = {"state": status.get("state"), "model": status.get("model"),
                       "text": said_texts(self.texts, status.get("said"))}
        self.socketio.emit("reader", self.status, to=HOSTS_ROOM)
        if phone_status(self.status) != before:
            self.socketio.emit("reader", phone_status(self.status), to=PHONES_ROOM)

    def on_scan(self, scan) -> None:
        target = self.active_host()
        if target is None:
            self._emit_tap_error(None, "en", self.texts(N_("A figure was tapped, but no table's host screen is open."), {}))
            return
        code, language = target
        action = {"type": "table.scan", "uid": scan.uid, "amiibo_id": scan.amiibo_id}
        with self.app.app_context():
            try:
                self.tables.act_as_host(code, action)
            except TableError as refusal:
                texts = {}
                for each in self.app.config["LANGUAGES"]:
                    with self.app.test_request_context(), force_locale(each):
                        texts[each] = translate(refusal)
                self._emit_tap_error(code, language, texts)

    def on_tap_error(self, said: dict) -> None:
        target = self.active_host()
        code, language = target if target else (None, "en")
        self._emit_tap_error(code, language, said_texts(self.texts, said) or {})

    def _emit_tap_error(self, code: str | None, language: str, texts: dict[str, str]) -> None:
        """A failed tap: ``tap_texts`` in every language (each screen of the table shows its own) and
        ``tap_error`` in the language of the screen the tap was for."""
        self.socketio.emit("reader", {**self.status, "tap_error": texts.get(language) or texts.get("en", ""),
                                      "tap_texts": texts},
                           to=reader_room(code) if code else HOSTS_ROOM)
