"""The NFC reader: nfcpy's ContactlessFrontend in a background thread, reporting amiibo scans.

In the app::

    reader = Reader("usb", on_scan=..., on_status=..., on_error=...)
    reader.start()
    ...
    reader.stop()          # returns once the thread has ended (well under 1 s)

``path`` is an nfcpy device path: ``usb``, ``usb:054c:06c3``, ``tty:AMA0:pn532``,
``tty:serial0:pn532``, ``udp`` or ``udp:127.0.0.1:PORT`` (nfcpy's simulated
reader, answered by ``python -m hardware.emulate``), or ``none`` to run without
a reader.

Callbacks, all called **on the reader thread** (hand work over to your own
thread or event loop if it can block; never call into the thread that may be
waiting in :meth:`Reader.stop`), and an exception they raise is logged, not
propagated:

- ``on_scan(Scan)``: a figure was placed and read.  A figure resting on the
  reader is one scan; taking it away and placing it again is a second scan.
- ``on_status(dict)``: the reader's state changed: ``{"state": "connected" |
  "absent" | "error" | "off", "model": str | None, "message": str | None}``.
  ``absent`` (no reader at the path) is not an error: the app runs without one,
  and the thread keeps looking every ~1.5 s, so a reader plugged in (again) is
  picked up without a restart.  ``off``: not started, stopped, or path ``none``.
- ``on_error(str)``: a tap went wrong (figure pulled away mid-read, a tag that is
  not an amiibo, a blank tag): one message per tap, meant for the host screen.

Every message (a status's ``message``, a tap error) is a :class:`Said`: the English
text for logs and the command line, which also carries its msgid and parameters
(``said.fields()``), so that a screen shows it whole in its own language
(``companion/web/reader_bridge.py``); raw driver errors stay in the English text only.

Also a program, ``python -m hardware.reader``:

- ``--server URL --table CODE --token HOST_TOKEN [--device PATH]`` posts each
  scan to ``URL/api/tables/CODE/actions`` as ``{"type": "table.scan", "uid",
  "amiibo_id", "id"}`` (``id`` is unique per scan, so a retried post is not a
  second scan) and prints the server's answer;
- ``--check [--device PATH]`` diagnoses the reader and prints the usual fixes;
  exit code 0 when a reader answers, 1 otherwise.

This module does not import Flask or ``companion``.
"""

from __future__ import annotations

import argparse
import dataclasses
import errno
import json
import logging
import os
import platform
import queue
import signal
import socket
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path
from typing import Callable

import nfc
import nfc.clf
import nfc.clf.device
import nfc.clf.udp
import nfc.tag
import nfc.tag.tt2

log = logging.getLogger(__name__)


def N_(message: str) -> str:
    """Marks a msgid for the server's catalogue (babel.cfg extracts hardware/ too)."""
    return message


class Said(str):
    """A message for people: the English text (for logs and the command line, with the raw
    driver error as ``detail``), and the msgid and parameters a screen translates it from.
    ``msgids`` names the parameters that are msgids themselves (a card's kind)."""

    msgid: str
    params: dict
    msgids: tuple[str, ...]

    def __new__(cls, msgid: str, detail: object = None, msgids: tuple[str, ...] = (), **params) -> "Said":
        text = msgid % params if params else msgid
        said = super().__new__(cls, f"{text} ({detail})" if detail not in (None, "") else text)
        said.msgid, said.params, said.msgids = msgid, params, tuple(msgids)
        return said

    def fields(self) -> dict:
        return {"msgid": self.msgid, "params": self.params, "msgids": list(self.msgids)}

AMIIBO_ID_PAGE = 0x15  # 8 bytes over pages 0x15-0x16 (tag memory 0x54-0x5B)
RETRY_INTERVAL = 1.5  # s between attempts to open an absent or failing reader
POLL_INTERVAL = 0.1  # s: at most ten polls a second while nothing is on the reader
STOP_TIMEOUT = 2.0  # s: give up waiting for a thread stuck in a driver

STATES = ("connected", "absent", "error", "off")


@dataclasses.dataclass(frozen=True)
class Scan:
    """A figure read on the reader.

    ``uid``: the tag's 7-byte UID as 14 lowercase hex digits; ``amiibo_id``:
    ``"0x"`` and 16 lowercase hex digits (pages 0x15-0x16); ``at``: ``time.time()``
    when it was read.
    """

    uid: str
    amiibo_id: str
    at: float


class FigureError(Exception):
    """A tap that did not give a scan; the message is meant for people."""


REMOVED_MID_READ = N_("The figure was taken away before it could be read: "
                      "place it again and leave it on the reader for a moment.")
NOT_TYPE2 = N_("Not an amiibo: this is %(kind)s, not an NFC Forum Type 2 tag.")


def read_figure(tag: nfc.tag.Tag) -> tuple[str, str]:
    """``(uid, amiibo_id)`` of an amiibo tag, formatted as in :class:`Scan`.

    Any NFC Forum Type 2 tag with a 7-byte UID qualifies (NTAG215, and the
    other chips of newer figures); raises :class:`FigureError` otherwise, for a
    blank tag (id all zeros), an id that fails validation (the last byte of an
    amiibo id is always 02) or a figure pulled away mid-read.
    """
    if not isinstance(tag, nfc.tag.tt2.Type2Tag):
        raise FigureError(Said(N_("Not an amiibo: this is a %(product)s tag, not an NFC Forum Type 2 tag."),
                               product=tag.product))
    uid = bytes(tag.identifier)
    if len(uid) != 7:
        raise FigureError(Said(N_("Not an amiibo: its UID has %(count)s bytes, an amiibo's has 7."), count=len(uid)))
    try:
        data = tag.read(AMIIBO_ID_PAGE)  # READ answers 4 pages: 0x15-0x18
    except nfc.tag.TagCommandError as error:
        if error.errno in (nfc.tag.TIMEOUT_ERROR, nfc.tag.RECEIVE_ERROR):
            raise FigureError(Said(REMOVED_MID_READ)) from error
        if error.errno == nfc.tag.tt2.INVALID_PAGE_ERROR:
            raise FigureError(Said(N_("Not an amiibo: this tag has no readable page 0x15 "
                                      "(too small or read-protected)."))) from error
        raise FigureError(Said(UNREADABLE, detail=error)) from error
    amiibo_id = bytes(data[0:8])
    if not any(amiibo_id):
        raise FigureError(Said(N_("Blank tag: there is no amiibo id on it (pages 0x15-0x16 are all zeros).")))
    if amiibo_id[7] != 0x02:
        raise FigureError(Said(N_("Not an amiibo: its id %(id)s does not end in 02, as every amiibo id does."),
                               id="0x" + amiibo_id.hex()))
    return uid.hex(), "0x" + amiibo_id.hex()


UNREADABLE = N_("The tag could not be read: place it again.")


def not_type2_reason(target: nfc.clf.RemoteTarget) -> str | None:
    """Why a discovered type A target cannot be an amiibo, or None if it may be one.

    Decided from the discovery answers alone (ISO/IEC 14443-3 SENS_RES / SAK),
    so such a card is never activated.
    """
    sens_res, sel_res = target.sens_res, target.sel_res
    if sens_res and sens_res[0] & 0x1F == 0:
        return N_("a Type 1 (Topaz) tag")
    if not sel_res:
        return N_("an unknown type A card")
    sak = sel_res[0]
    if sak & 0x40:
        return N_("a phone or another NFC device")
    if sak & 0x20:
        return N_("an ISO-DEP (Type 4) card, such as a bank, transit or ID card")
    if sak & 0x18:
        return N_("a MIFARE Classic card")
    return None


class _Frontend(nfc.ContactlessFrontend):
    """nfcpy's frontend, keeping the device failure that ``connect()`` only logs.

    ``connect()`` turns an IOError of the driver into a False return value;
    :attr:`failure` keeps the exception so the status can say what happened.
    """

    failure: BaseException | None = None

    def open_quietly(self, path: str) -> bool:
        """:meth:`open` without its error log line each time no reader is found
        (we retry every 1.5 s and report absence through the status)."""
        self.close()
        with self.lock:
            self.device = nfc.clf.device.connect(path)
            return self.device is not None

    def close(self) -> None:
        try:
            super().close()
        except Exception:  # a driver failing on its way out: already reported
            log.debug("closing the reader failed", exc_info=True)
            self.device = None

    def sense(self, *targets, **options):
        try:
            return super().sense(*targets, **options)
        except Exception as error:
            self.failure = error
            raise

    def exchange(self, send_data, timeout):
        try:
            return super().exchange(send_data, timeout)
        except nfc.clf.CommunicationError:  # the tag's business, handled by nfcpy
            raise
        except Exception as error:
            self.failure = error
            raise


def describe_open_error(path: str, error: BaseException) -> Said:
    code = getattr(error, "errno", None)
    if code == errno.EACCES:
        return Said(N_("Permission denied on the reader at %(path)s: add a udev rule or run as root "
                       "(python -m hardware.reader --check explains)."), path=path)
    if code == errno.EBUSY:
        return Said(N_("The reader at %(path)s is busy: another program or the kernel's pn533_usb "
                       "driver holds it (sudo modprobe -r pn533_usb)."), path=path)
    return Said(N_("Cannot open the reader at %(path)s: check the device path and the cable."), detail=error, path=path)


def _is_none(path: str | None) -> bool:
    return path is None or path.strip().lower() in ("", "none")


class Reader:
    """Watches one NFC reader from a background thread; see the module docstring.

    ``retry_interval`` (s) is how often an absent or failing reader is tried
    again; ``poll_interval`` (s) the shortest time between two polls while
    nothing answers (a real reader's poll takes a few ms; the udp driver's
    one second).
    """

    def __init__(self, path: str | None, on_scan: Callable[[Scan], object],
                 on_status: Callable[[dict], object], on_error: Callable[[str], object] | None = None,
                 *, retry_interval: float = RETRY_INTERVAL, poll_interval: float = POLL_INTERVAL):
        self._path = None if _is_none(path) else path.strip()
        self._on_scan = on_scan
        self._on_status = on_status
        self._on_error = on_error
        self._retry_interval = retry_interval
        self._poll_interval = poll_interval
        self._status = {"state": "off", "model": None, "message": None}
        self._status_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._clf: _Frontend | None = None
        # per-session bookkeeping, touched by the reader thread only
        self._model: str | None = None
        self._polled = False
        self._cycles = 0
        self._last_poll = 0.0
        self._lost: str | None = None
        self._rejected_now = False
        self._rejected_streak = False
        self._activating = False

    # -- the interface ----------------------------------------------------

    @property
    def path(self) -> str:
        return self._path or "none"

    @property
    def status(self) -> dict:
        """The last reported status (a copy): ``{"state", "model", "message"}``."""
        with self._status_lock:
            return dict(self._status)

    @property
    def running(self) -> bool:
        """True while the reader thread is alive."""
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        """Start the reader thread (no-op when it already runs)."""
        if self.running:
            return
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"nfc-reader {self.path}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the thread and wait for it to end (it reports the ``off`` state).

        Returns within a fraction of a second (a poll is interrupted; with the
        udp driver, the pending poll is woken up).  A thread stuck inside a
        driver is abandoned after ``STOP_TIMEOUT`` (it is a daemon thread).
        """
        self._stop.set()
        thread = self._thread
        if thread is None or thread is threading.current_thread():
            return
        deadline = time.monotonic() + STOP_TIMEOUT
        while thread.is_alive():
            self._wake_udp_driver()
            thread.join(0.05)
            if time.monotonic() > deadline:
                log.warning("the NFC reader thread did not stop within %.1f s", STOP_TIMEOUT)
                break

    # -- the thread -------------------------------------------------------

    def _run(self) -> None:
        try:
            if self._path is None:
                self._set_status("off", None, Said(N_("No reader configured (device 'none').")))
                self._stop.wait()
                return
            while not self._stop.is_set():
                outcome = self._session()
                if outcome == "lost" and not self._stop.is_set():
                    continue  # it worked a moment ago: look again at once
                self._stop.wait(self._retry_interval)
        except Exception as error:  # a bug here must not take the app down
            log.exception("the NFC reader thread failed")
            self._set_status("error", None, Said(N_("The reader stopped working: restart the server."), detail=error))
        finally:
            self._set_status("off", None, Said(N_("Reader stopped.")))

    def _session(self) -> str:
        """Open the reader and poll until it fails; 'stopped', 'lost' or 'failed'."""
        clf = _Frontend()
        try:
            opened = clf.open_quietly(self._path)
        except Exception as error:
            clf.close()
            self._set_status("error", None, describe_open_error(self._path, error))
            return "failed"
        if not opened:
            if self._lost:
                message = Said(N_("Reader disconnected: no reader found at %(path)s."), detail=self._lost, path=self._path)
            else:
                message = Said(N_("No reader found at %(path)s."), path=self._path)
            self._set_status("absent", None, message)
            return "failed"

        self._clf = clf
        self._model = str(clf.device)
        self._polled = False
        self._cycles = 0
        self._rejected_now = self._rejected_streak = self._activating = False
        log.debug("opened %s", self._model)
        failure: BaseException | None = None
        try:
            while not self._stop.is_set():
                clf.failure = None
                result = clf.connect(rdwr=self._rdwr_options(), terminate=self._terminate)
                if result is False or clf.failure is not None:
                    failure = clf.failure or IOError("the reader stopped answering")
                    break
        except Exception as error:
            failure = error
        finally:
            self._clf = None
            clf.close()
        if self._stop.is_set() or failure is None:
            return "stopped"
        if self._polled:
            self._lost = str(failure) or type(failure).__name__
            log.info("lost the NFC reader %s: %s", self._model, self._lost)
            return "lost"
        self._set_status("error", self._model, Said(N_("The reader at %(path)s does not work: unplug it and plug it "
                                                       "in again."), detail=failure, path=self._path))
        return "failed"

    def _rdwr_options(self) -> dict:
        return {
            "targets": ("106A",),  # amiibo are type A: polling nothing else keeps the loop quick
            "on-discover": self._on_discover,
            "on-connect": self._on_connect,
            "on-release": lambda tag: True,
            "iterations": 1,  # back to terminate() after every poll
            "beep-on-connect": False,  # we beep for good scans only
        }

    def _terminate(self) -> bool:
        """connect()'s terminate callable: also paces the polls and notes that they work."""
        if self._stop.is_set():
            return True
        self._cycles += 1
        if self._cycles > 1:  # a poll (or a tap) went through without a device failure
            self._poll_worked()
        self._rejected_streak, self._rejected_now = self._rejected_now, False
        if self._activating:  # accepted by on-discover, but nfcpy's activation found the tag gone
            self._activating = False
            self._report_error(Said(REMOVED_MID_READ))
        wait = self._poll_interval - (time.monotonic() - self._last_poll)
        if wait > 0 and self._stop.wait(wait):
            return True
        self._last_poll = time.monotonic()
        return False

    def _poll_worked(self) -> None:
        if not self._polled:
            self._polled = True
            self._lost = None
            self._set_status("connected", self._model, None)

    def _on_discover(self, target: nfc.clf.RemoteTarget) -> bool:
        self._poll_worked()
        reason = not_type2_reason(target)
        if reason is None:
            self._activating = True
            return True
        # A card resting on the reader is found by every poll: one error per tap.
        if not self._rejected_streak:
            self._report_error(Said(NOT_TYPE2, msgids=("kind",), kind=reason))
        self._rejected_now = True
        return False

    def _on_connect(self, tag: nfc.tag.Tag) -> bool:
        # Returning True makes nfcpy wait (presence checks) until the tag is
        # taken away: one scan, or one error, per tap.
        self._activating = False
        if self._stop.is_set():
            return True
        try:
            uid, amiibo_id = read_figure(tag)
        except FigureError as error:
            if not self._stop.is_set():
                self._report_error(error.args[0] if isinstance(error.args[0], Said) else Said(UNREADABLE, detail=error))
            return True
        except Exception as error:
            if not self._stop.is_set():
                log.warning("reading a tag failed", exc_info=True)
                self._report_error(Said(UNREADABLE, detail=error))
            return True
        scan = Scan(uid=uid, amiibo_id=amiibo_id, at=time.time())
        log.info("scan %s %s", scan.uid, scan.amiibo_id)
        self._call(self._on_scan, scan)
        try:
            tag.clf.device.turn_on_led_and_buzzer()  # nfcpy turns it off on release
        except Exception:
            log.debug("no beep", exc_info=True)
        return True

    # -- helpers ----------------------------------------------------------

    def _report_error(self, message: Said) -> None:
        log.info("tap: %s", message)
        if self._on_error is not None:
            self._call(self._on_error, message)

    def _set_status(self, state: str, model: str | None, message: Said | None) -> None:
        status = {"state": state, "model": model, "message": message}
        with self._status_lock:
            if status == self._status:
                return
            self._status = status
        log.log(logging.WARNING if state == "error" else logging.INFO, "NFC reader %s: %s%s", state,
                model or "", f" ({message})" if message else "")
        self._call(self._on_status, dict(status))

    @staticmethod
    def _call(callback: Callable, argument) -> None:
        try:
            callback(argument)
        except Exception:
            log.exception("an NFC reader callback failed")

    def _wake_udp_driver(self) -> None:
        """nfcpy's udp driver waits 1 s for an answer to each poll; an RFOFF
        datagram sent to its socket ends that wait at once (nfcpy then sees a
        broken link, and the loop sees the stop flag)."""
        clf = self._clf
        device = getattr(clf, "device", None)
        if not isinstance(device, nfc.clf.udp.Device):
            return
        try:
            port = device.socket.getsockname()[1]
            if port:
                with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as poke:
                    poke.sendto(b"RFOFF", ("127.0.0.1", port))
        except (AttributeError, OSError):  # between two polls: no socket to wake
            pass


# -- python -m hardware.reader ------------------------------------------------

def say(*parts) -> None:
    print(*parts, flush=True)


def post_scan(server: str, table: str, token: str, scan: Scan, scan_id: str,
              *, timeout: float = 5.0) -> tuple[int, str]:
    """POST the scan as a ``table.scan`` action; ``(HTTP status, body)``.

    Raises :class:`urllib.error.URLError` (or OSError) when the server cannot be
    reached; an HTTP error status is returned, not raised.
    """
    url = f"{server.rstrip('/')}/api/tables/{urllib.parse.quote(table, safe='')}/actions"
    body = json.dumps({"type": "table.scan", "uid": scan.uid, "amiibo_id": scan.amiibo_id,
                       "id": scan_id}).encode()
    request = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": "application/json", "Accept": "application/json",
        "Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8", "replace")


class ScanPoster:
    """Posts scans in order from its own thread, so the reader keeps polling.

    A post that cannot reach the server is tried again (same id, so the server
    counts it once) a few times.
    """

    DELAYS = (0.5, 1.0, 2.0)

    def __init__(self, server: str, table: str, token: str):
        self.server, self.table, self.token = server, table, token
        self._queue: queue.Queue[tuple[Scan, str] | None] = queue.Queue()
        self._closing = threading.Event()
        self._thread = threading.Thread(target=self._run, name="scan-poster", daemon=True)
        self._thread.start()

    def submit(self, scan: Scan) -> str:
        scan_id = uuid.uuid4().hex
        self._queue.put((scan, scan_id))
        return scan_id

    def close(self, timeout: float = 10.0) -> None:
        """Post what is queued (giving up on retries), then end the thread."""
        self._closing.set()
        self._queue.put(None)
        self._thread.join(timeout)

    def _run(self) -> None:
        while (item := self._queue.get()) is not None:
            scan, scan_id = item
            for attempt, delay in enumerate((*self.DELAYS, None)):
                try:
                    status, body = post_scan(self.server, self.table, self.token, scan, scan_id)
                except (urllib.error.URLError, OSError) as error:
                    reason = getattr(error, "reason", error)
                    if delay is None or self._closing.is_set():
                        say(f"could not reach the server for scan {scan_id}: {reason}; giving up")
                        break
                    say(f"could not reach the server ({reason}); trying again in {delay:g} s")
                    self._closing.wait(delay)
                    continue
                verdict = "server:" if 200 <= status < 300 else "server refused the scan:"
                say(f"{verdict} HTTP {status} {body.strip()}")
                break


def run_server_mode(device: str, server: str, table: str, token: str) -> int:
    poster = ScanPoster(server, table, token)

    def on_scan(scan: Scan) -> None:
        scan_id = poster.submit(scan)
        say(f"scan: uid {scan.uid} amiibo {scan.amiibo_id} (id {scan_id})")

    def on_status(status: dict) -> None:
        details = " - ".join(part for part in (status["model"], status["message"]) if part)
        say(f"reader {status['state']}" + (f": {details}" if details else ""))

    reader = Reader(device, on_scan, on_status, on_error=lambda message: say(f"tap error: {message}"))
    say(f"posting scans to {server} for table {table}; Ctrl-C to stop")
    reader.start()
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        reader.stop()
        poster.close()
    return 0


# -- --check --------------------------------------------------------------------

READER_NAMES = {
    (0x072F, 0x2200): "ACS ACR122U",
    (0x054C, 0x06C1): "Sony RC-S380",
    (0x054C, 0x06C3): "Sony RC-S380",
    (0x054C, 0x02E1): "Sony RC-S330/360/370",
    (0x04E6, 0x5591): "SCM SCL3711",
    (0x04E6, 0x5593): "SCM SCL3712",
    (0x04CC, 0x2533): "NXP PN533 board",
    (0x054C, 0x0193): "Sony PN531",
    (0x04CC, 0x0531): "Philips PN531 / SCM SCL3710",
}
CHECK_PATHS = ("usb", "tty:serial0:pn532", "tty:AMA0:pn532", "tty:S0:pn532", "tty:USB0:pn532")
KERNEL_NFC_MODULES = ("pn533_usb", "pn533", "nfc")
UDEV_RULES = "/etc/udev/rules.d/60-companion-nfc.rules"


def _usb_readers() -> list[tuple[int, int, int, int]]:
    """(vid, pid, bus, address) of every USB device nfcpy has a driver for."""
    import usb1  # nfcpy's dependency

    with usb1.USBContext() as context:
        return [(d.getVendorID(), d.getProductID(), d.getBusNumber(), d.getDeviceAddress())
                for d in context.getDeviceList(skip_on_error=True)
                if (d.getVendorID(), d.getProductID()) in nfc.clf.device.usb_device_map]


def _pi_boot_file(name: str) -> Path | None:
    for folder in ("/boot/firmware", "/boot"):
        candidate = Path(folder) / name
        if candidate.is_file():
            return candidate
    return None


def _environment_report(paths: list[str]) -> list[str]:
    """What the machine says about readers (facts, printed before trying paths)."""
    lines = []
    if any(path.startswith("usb") for path in paths):
        lines += _usb_report()
    config = _pi_boot_file("config.txt")
    if config is not None:
        text = config.read_text(errors="replace")
        uart = any(line.strip().replace(" ", "") == "enable_uart=1" for line in text.splitlines())
        lines.append(f"Raspberry Pi: {config}: enable_uart=1 {'present' if uart else 'MISSING'}")
    if config is None and not any(path.startswith("tty") for path in paths):
        return lines  # not a Pi, no serial reader asked for: UART facts would be noise
    try:
        cmdline = Path("/proc/cmdline").read_text()
    except OSError:
        cmdline = ""
    for console in ("console=serial0", "console=ttyAMA0", "console=ttyS0"):
        if console in cmdline:
            lines.append(f"kernel: the serial console uses the UART ({console}): a PN532 there gets no answers")
    return lines


def _usb_report() -> list[str]:
    lines = []
    try:
        found = _usb_readers()
    except Exception as error:
        lines.append(f"USB: cannot list devices ({error})")
        found = []
    if not found:
        lines.append("USB: no known NFC reader plugged in (ACR122U, RC-S380, SCL3711...)")
    for vid, pid, bus, address in found:
        node = f"/dev/bus/usb/{bus:03d}/{address:03d}"
        access = "read/write OK" if os.access(node, os.R_OK | os.W_OK) else "NO read/write access for this user"
        name = READER_NAMES.get((vid, pid), nfc.clf.device.usb_device_map[(vid, pid)])
        lines.append(f"USB: {name} ({vid:04x}:{pid:04x}) at usb:{bus:03d}:{address:03d}, {node}: {access}")
    loaded = [name for name in KERNEL_NFC_MODULES if Path("/sys/module", name).exists()]
    if loaded:
        lines.append(f"kernel: NFC modules loaded: {', '.join(loaded)} (they grab PN533-based readers such as "
                     "the ACR122U and SCL3711 before nfcpy can)")
    return lines


def _fixes(paths: list[str]) -> list[str]:
    usb = any(p.startswith("usb") for p in paths)
    tty = any(p.startswith("tty") for p in paths)
    lines = []
    if usb:
        lines += [
            "USB reader (ACR122U, SCL3711, RC-S380...):",
            "  - the kernel's pn533_usb driver may hold it: sudo modprobe -r pn533_usb pn533 nfc",
            "    and keep it away for good:",
            "    printf 'blacklist pn533_usb\\nblacklist pn533\\nblacklist nfc\\n' "
            "| sudo tee /etc/modprobe.d/blacklist-nfc.conf",
            f"  - to use it without root, a udev rule in {UDEV_RULES}:",
        ]
        for vid, pid in nfc.clf.device.usb_device_map:
            lines.append(f'      SUBSYSTEM=="usb", ATTRS{{idVendor}}=="{vid:04x}", '
                         f'ATTRS{{idProduct}}=="{pid:04x}", MODE="0664", GROUP="plugdev"')
        lines += [
            "    then: sudo udevadm control --reload-rules && sudo udevadm trigger, replug the reader,",
            "    and be in the plugdev group: sudo usermod -aG plugdev $USER (log in again)",
            "  - unplug and replug it; try another port or cable; `lsusb` must list it",
        ]
    if tty:
        lines += [
            "PN532 on a Raspberry Pi's UART (tty:AMA0:pn532 or tty:serial0:pn532):",
            "  - enable the UART: enable_uart=1 in /boot/firmware/config.txt (/boot/config.txt before bookworm)",
            "  - disable the serial console: sudo raspi-config > Interface Options > Serial Port:",
            "    login shell 'No', serial hardware 'Yes' (or remove console=serial0,115200 from cmdline.txt); reboot",
            "  - on a Pi 3/4/5, dtoverlay=disable-bt in config.txt gives the PL011 UART (ttyAMA0) to the pins",
            "  - access without root: sudo usermod -aG dialout $USER (log in again)",
            "  - the PN532 board must be in HSU (UART) mode; TX to RX and RX to TX; 3.3 V",
        ]
    return lines


def check(device: str | None) -> int:
    """Diagnose the reader: 0 when one answers, 1 otherwise."""
    say(f"Companion NFC check: nfcpy {nfc.__version__}, Python {platform.python_version()}, "
        f"{platform.system()} {platform.machine()}")
    if device is not None and _is_none(device):
        say("device 'none': Companion runs without a reader (figures are picked by hand); nothing to check.")
        return 1
    paths = [device] if device else list(CHECK_PATHS)
    for line in _environment_report(paths):
        say("  " + line)
    answered = None
    for path in paths:
        say(f"trying {path} ...")
        clf = _Frontend()
        try:
            opened = clf.open_quietly(path)
        except Exception as error:
            say(f"  cannot open: {describe_open_error(path, error)}")
            continue
        if not opened:
            say("  no reader there")
            continue
        model = str(clf.device)
        say(f"  opened: {model}")
        try:
            target = clf.sense(nfc.clf.RemoteTarget("106A"), iterations=1)
        except Exception as error:
            say(f"  but it does not answer a poll: {error}")
            clf.close()
            continue
        if target is None:
            say("  it polls fine (no tag on it right now)")
        else:
            say(f"  it polls fine; on it: a type A tag with UID {bytes(target.sdd_res or b'').hex()}"
                + (f" ({reason}, not an amiibo)" if (reason := not_type2_reason(target)) else ""))
        if path.startswith("udp"):
            say("  note: nfcpy's udp driver opens even when nothing listens; "
                "python -m hardware.emulate answers it")
        clf.close()
        answered = (path, model)
        break
    if answered:
        say(f"OK: a reader answers at {answered[0]}: {answered[1]}")
        say(f"Run Companion with this device path ({answered[0]}).")
        return 0
    say("No reader answers. Common fixes:")
    for line in _fixes(paths):
        say("  " + line)
    return 1


def said_fields(message) -> dict | None:
    """What a screen needs to show a message in its own language (see :class:`Said`)."""
    return message.fields() if isinstance(message, Said) else None


def run_events_mode(path: str) -> int:
    """The reader as the server's child process: one JSON object per line.

    Its own process keeps nfcpy's blocking USB and serial calls away from the
    server's event loop, and a driver crash away from the server. When the
    server goes away (even killed), standard input closes and the reader stops,
    freeing the device for the next server.
    """
    out_lock = threading.Lock()

    def send(event: str, **fields) -> None:
        line = json.dumps({"event": event, **fields})
        with out_lock:
            print(line, flush=True)

    reader = Reader(path,
                    on_scan=lambda scan: send("scan", **dataclasses.asdict(scan)),
                    on_status=lambda status: send("status", **status, said=said_fields(status["message"])),
                    on_error=lambda message: send("error", message=message, said=said_fields(message)))
    reader.start()
    try:
        sys.stdin.read()  # returns at end of file: the server closed the pipe or died
    except KeyboardInterrupt:
        pass
    finally:
        reader.stop()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m hardware.reader",
        description="Companion's NFC reader: post amiibo scans to a Companion server, or check the reader.")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--server", metavar="URL", help="Companion server, e.g. http://127.0.0.1:5000")
    mode.add_argument("--check", action="store_true", help="diagnose the reader and print common fixes")
    mode.add_argument("--events", action="store_true",
                      help="print scans, states and tap errors as JSON lines on standard output, until "
                           "standard input closes (how the Companion server runs its own reader)")
    parser.add_argument("--table", metavar="CODE", help="table code (with --server)")
    parser.add_argument("--token", metavar="HOST_TOKEN", default=os.environ.get("COMPANION_HOST_TOKEN"),
                        help="the table's host token (with --server; default: $COMPANION_HOST_TOKEN)")
    parser.add_argument("--device", metavar="PATH",
                        help="nfcpy device path: usb, usb:054c:06c3, tty:AMA0:pn532, tty:serial0:pn532, "
                             "udp[:HOST:PORT], or none (default: usb; --check tries the usual paths)")
    parser.add_argument("-v", "--verbose", action="store_true", help="show nfcpy's own log")
    options = parser.parse_args(argv)

    logging.basicConfig(level=logging.DEBUG if options.verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    if not options.verbose:
        logging.getLogger("nfc").setLevel(logging.CRITICAL)  # we say what matters ourselves

    if options.check:
        return check(options.device)
    if options.events:
        return run_events_mode(options.device or "usb")
    if not options.table or not options.token:
        parser.error("--server needs --table CODE and --token HOST_TOKEN (or $COMPANION_HOST_TOKEN)")
    if urllib.parse.urlsplit(options.server).scheme not in ("http", "https"):
        parser.error("--server must be an http:// or https:// URL")
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # stop cleanly, like Ctrl-C
    return run_server_mode(options.device or "usb", options.server, options.table, options.token)


if __name__ == "__main__":
    sys.exit(main())
