"""A virtual NTAG215 figure for nfcpy's ``udp`` driver.

An unmodified ``nfc.ContactlessFrontend("udp")`` (or ``"udp:127.0.0.1:PORT"``)
reads the figure placed on this emulator as if it were an amiibo on a real
reader.  What crosses the wire is nfcpy's udp framing: one datagram per frame,
``b"106A " + hex(frame)``, without CRC bytes (the udp driver neither adds nor
checks them: CRC_A is the radio chip's business), and ``b"RFOFF"`` when the
driver switches its field off (``mute()``, before every new poll).

The tag answers, like an NTAG215 in ISO/IEC 14443-3 type A:

- REQA (26) and WUPA (52) with SENS_RES ``44 00`` (double-size UID);
- the anticollision cascade for a 7-byte UID: SDD_REQ ``93 20`` answers the
  cascade tag 88, UID0-UID2 and BCC0, ``95 20`` answers UID3-UID6 and BCC1;
  SEL_REQ ``93 70 ...`` answers SAK 04 (UID not complete), ``95 70 ...`` SAK 00;
- once selected: READ (30, 16 bytes, rolling over past the last page), FAST_READ
  (3A), GET_VERSION (60: ``00 04 04 02 01 00 11 03``, which nfcpy maps to its
  NTAG215 class), READ_SIG (3C, 32 bytes), HLTA (50 00);
- silence for anything else (and back to IDLE, as the chip does), which is what
  nfcpy's probing for Ultralight C (1A) expects.  A page address past the end
  gets a NAK (a single 00 byte).

Memory: 135 pages of 4 bytes.  Pages 0-2 hold the UID and its BCCs as on a real
NTAG215, page 3 the capability container ``E1 10 3E 00``, pages 0x15-0x16 the
8-byte amiibo id, pages 0x82-0x84 the usual amiibo lock/configuration bytes;
the password pages read as zeros.  READ_SIG returns 32 bytes derived from the
UID: the right length, not a valid NXP ECC signature.

One liberty with physics, to keep taps fast: the udp driver sends a single REQA
and then waits a whole second for an answer, where a real reader repeats its
REQA every few milliseconds.  A figure placed while such a REQA is still
waiting answers it at once (``answer_late=True``), as it would on real hardware.

Run it as a process, driven by lines on standard input::

    python -m hardware.emulate [--port N]          # 54321 by default, 0: any

    place <uid: 14 hex digits> <amiibo id: 16 hex digits>
    place-partial <uid> <amiibo id> [N]    # vanishes at read number N+1 (N=0:
                                           # the very first read: pulled away
                                           # mid-read)
    place-type4 <uid>                      # an ISO-DEP card (bank, transit...)
    remove
    quit

It prints ``ready udp:127.0.0.1:PORT`` once listening, then answers each line
with ``ok`` or ``error: ...``.  Or use it in-process::

    with Emulator(port=0) as emulator:      # serving in a thread
        emulator.place("04a1b2c3d4e5f6", "0x0000000000000002")
        nfc.ContactlessFrontend(emulator.path)...

It only listens on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import select
import socket
import sys
import threading
import time
from typing import Callable

HOST = "127.0.0.1"
DEFAULT_PORT = 54321  # nfcpy's udp driver default

PAGES = 135  # NTAG215: 135 pages of 4 bytes (0x00-0x86)
AMIIBO_ID_PAGE = 0x15  # the 8-byte id spans pages 0x15-0x16 (bytes 0x54-0x5B)
NTAG215_VERSION = bytes.fromhex("0004040201001103")
CAPABILITY_CONTAINER = bytes.fromhex("E1103E00")

SENS_RES_DOUBLE_UID = bytes.fromhex("4400")  # ATQA 0x0044
SENS_RES_TRIPLE_UID = bytes.fromhex("8400")
SENS_RES_SINGLE_UID = bytes.fromhex("0400")
SAK_TYPE2 = 0x00
SAK_ISO_DEP = 0x20
CASCADE_TAG = 0x88
SEL_CODES = (0x93, 0x95, 0x97)  # cascade levels 1, 2, 3
LATE_WINDOW = 0.8  # s: the udp driver waits 1.0 s for a SENS_RES

IDLE, READY, ACTIVE, HALT = "idle", "ready", "active", "halt"


def bcc(octets: bytes) -> int:
    """The block check character of anticollision: XOR of the bytes."""
    value = 0
    for octet in octets:
        value ^= octet
    return value


def parse_hex(text: str, length: int, what: str) -> bytes:
    """``text`` (hex digits, optional 0x prefix, ``:``/``-``/space separators) as bytes."""
    digits = text.strip().lower()
    if digits.startswith("0x"):
        digits = digits[2:]
    digits = digits.replace(":", "").replace("-", "").replace(" ", "")
    if len(digits) != 2 * length or any(c not in "0123456789abcdef" for c in digits):
        raise ValueError(f"{what} must be {2 * length} hex digits")
    return bytes.fromhex(digits)


def _as_bytes(value: bytes | str, length: int, what: str) -> bytes:
    if isinstance(value, str):
        return parse_hex(value, length, what)
    value = bytes(value)
    if len(value) != length:
        raise ValueError(f"{what} must be {length} bytes")
    return value


def ntag215_memory(uid: bytes, amiibo_id: bytes) -> bytearray:
    """The 540 bytes of an amiibo's NTAG215, with everything but the id zeroed."""
    if len(uid) != 7 or len(amiibo_id) != 8:
        raise ValueError("an NTAG215 has a 7-byte UID; an amiibo id is 8 bytes")
    memory = bytearray(PAGES * 4)
    memory[0:3] = uid[0:3]
    memory[3] = bcc(bytes([CASCADE_TAG]) + uid[0:3])  # BCC0
    memory[4:8] = uid[3:7]
    memory[8] = bcc(uid[3:7])  # BCC1
    memory[9] = 0x48  # internal
    memory[10:12] = b"\x0f\xe0"  # static lock bytes as on amiibo
    memory[12:16] = CAPABILITY_CONTAINER
    memory[16] = 0xA5  # amiibo data start
    memory[AMIIBO_ID_PAGE * 4:AMIIBO_ID_PAGE * 4 + 8] = amiibo_id
    memory[0x82 * 4:0x83 * 4] = bytes.fromhex("01000FBD")  # dynamic lock bytes
    memory[0x83 * 4:0x84 * 4] = bytes.fromhex("00000004")  # CFG0 (AUTH0 = 4)
    memory[0x84 * 4:0x85 * 4] = bytes.fromhex("5F000000")  # CFG1 (ACCESS)
    return memory  # PWD (0x85) and PACK (0x86) read as zeros


class Tag:
    """One ISO/IEC 14443-3 type A tag in the field: frames in, answers out.

    ``respond(frame)`` returns the answer bytes, or None for silence.  Not
    thread-safe: :class:`Emulator` serialises calls.  A tag with ``memory``
    answers the NTAG commands; one without (an ISO-DEP card) only goes through
    anticollision.  With ``vanish_after_reads=N`` the tag leaves the field for
    good (silent to everything) when READ/FAST_READ number N+1 arrives: a
    figure pulled away mid-read.
    """

    def __init__(self, uid: bytes, *, sel_res: int, memory: bytes | None = None,
                 version: bytes | None = None, signature: bytes | None = None,
                 vanish_after_reads: int | None = None):
        if len(uid) not in (4, 7, 10):
            raise ValueError("a type A UID has 4, 7 or 10 bytes")
        self.uid = bytes(uid)
        self.sel_res = sel_res
        self.memory = bytes(memory) if memory is not None else None
        self.version = version
        self.signature = signature
        self.vanish_after_reads = vanish_after_reads
        self.sens_res = {4: SENS_RES_SINGLE_UID, 7: SENS_RES_DOUBLE_UID, 10: SENS_RES_TRIPLE_UID}[len(uid)]
        self.reads = 0
        self.gone = False
        self.state = IDLE
        self._level = 0
        # What each cascade level answers to SDD_REQ: 4 UID bytes (or 88 and
        # 3 UID bytes when more levels follow) then their BCC.
        parts, rest = [], self.uid
        while len(rest) > 4:
            parts.append(bytes([CASCADE_TAG]) + rest[:3])
            rest = rest[3:]
        parts.append(rest)
        self._levels = [part + bytes([bcc(part)]) for part in parts]

    @classmethod
    def amiibo(cls, uid: bytes | str, amiibo_id: bytes | str, *,
               vanish_after_reads: int | None = None) -> "Tag":
        """An amiibo figure: an NTAG215 holding ``amiibo_id`` at pages 0x15-0x16."""
        uid = _as_bytes(uid, 7, "uid")
        amiibo_id = _as_bytes(amiibo_id, 8, "amiibo id")
        signature = hashlib.sha256(b"companion emulator signature|" + uid).digest()
        return cls(uid, sel_res=SAK_TYPE2, memory=ntag215_memory(uid, amiibo_id),
                   version=NTAG215_VERSION, signature=signature,
                   vanish_after_reads=vanish_after_reads)

    @classmethod
    def iso_dep_card(cls, uid: bytes | str) -> "Tag":
        """A type 4 (ISO-DEP) card, such as a bank or transit card: not a Type 2 tag."""
        return cls(_as_bytes(uid, 7, "uid"), sel_res=SAK_ISO_DEP)

    def field_off(self) -> None:
        """The reader switched its field off: power loss resets the tag to IDLE."""
        self.state = IDLE
        self._level = 0

    def respond(self, frame: bytes) -> bytes | None:
        if self.gone:
            return None
        if frame == b"\x52" or (frame == b"\x26" and self.state != HALT):
            self.state, self._level = READY, 0
            return self.sens_res
        if self.state == READY:
            return self._anticollision(frame)
        if self.state == ACTIVE:
            return self._command(frame)
        return None

    def _anticollision(self, frame: bytes) -> bytes | None:
        code = SEL_CODES[self._level]
        level = self._levels[self._level]
        if frame == bytes([code, 0x20]):  # SDD_REQ
            return level
        if frame == bytes([code, 0x70]) + level:  # SEL_REQ
            if self._level + 1 < len(self._levels):
                self._level += 1
                return bytes([self.sel_res | 0x04])  # cascade bit: UID not complete
            self.state = ACTIVE
            return bytes([self.sel_res & ~0x04 & 0xFF])
        self.field_off()
        return None

    def _command(self, frame: bytes) -> bytes | None:
        if self.memory is None:  # ISO-DEP card: we do not speak ISO-DEP
            self.field_off()
            return None
        pages = len(self.memory) // 4
        if frame[:1] in (b"\x30", b"\x3a") and self.vanish_after_reads is not None:
            if self.reads >= self.vanish_after_reads:
                self.gone = True
                return None
        if len(frame) == 2 and frame[0] == 0x30:  # READ: 4 pages
            self.reads += 1
            start = frame[1]
            if start >= pages:
                self.field_off()
                return b"\x00"  # NAK
            return bytes(self.memory[((start + i) % pages) * 4 + j] for i in range(4) for j in range(4))
        if len(frame) == 3 and frame[0] == 0x3A:  # FAST_READ: pages start..end
            self.reads += 1
            start, end = frame[1], frame[2]
            if start > end or end >= pages:
                self.field_off()
                return b"\x00"
            return self.memory[start * 4:(end + 1) * 4]
        if frame == b"\x60" and self.version is not None:  # GET_VERSION
            return self.version
        if frame == b"\x3c\x00" and self.signature is not None:  # READ_SIG
            return self.signature
        if frame == b"\x50\x00":  # HLTA: no answer
            self.state = HALT
            return None
        self.field_off()
        return None


def _frame_name(frame: bytes) -> str:
    if frame == b"\x26":
        return "REQA"
    if frame == b"\x52":
        return "WUPA"
    if len(frame) == 2 and frame[0] in SEL_CODES and frame[1] == 0x20:
        return "SDD_REQ"
    if len(frame) >= 2 and frame[0] in SEL_CODES and frame[1] == 0x70:
        return "SEL_REQ"
    return {0x30: "READ", 0x3A: "FAST_READ", 0x60: "GET_VERSION", 0x3C: "READ_SIG",
            0x50: "HLTA"}.get(frame[0] if frame else -1, "OTHER")


class Emulator:
    """Answers nfcpy's udp driver on 127.0.0.1:``port`` with the tag placed on it.

    The socket is bound on creation (``port=0`` picks a free port; see
    :attr:`port` and :attr:`path`).  :meth:`start` serves in a daemon thread,
    :meth:`stop` ends it; :meth:`place`, :meth:`place_iso_dep_card`,
    :meth:`remove` may be called from any thread.  :attr:`counts` counts the
    frames received by kind (``REQA``, ``READ``, ``RFOFF``...) and
    :meth:`wait_until` waits on them, which lets a test await what the reader
    did instead of sleeping.
    """

    def __init__(self, port: int = DEFAULT_PORT, *, answer_late: bool = True):
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            self._socket.bind((HOST, port))
        except OSError:
            self._socket.close()
            raise
        self._port = self._socket.getsockname()[1]
        self._wake_r, self._wake_w = socket.socketpair()
        self._changed = threading.Condition()
        self._tag: Tag | None = None
        self._pending_reqa: tuple[tuple[str, int], float] | None = None
        self._thread: threading.Thread | None = None
        self._closed = False
        self.answer_late = answer_late
        self.counts: collections.Counter[str] = collections.Counter()

    @property
    def port(self) -> int:
        return self._port

    @property
    def path(self) -> str:
        """The nfcpy device path that reaches this emulator."""
        return f"udp:{HOST}:{self.port}"

    @property
    def tag(self) -> Tag | None:
        return self._tag

    # -- the figure -------------------------------------------------------

    def place(self, uid: bytes | str, amiibo_id: bytes | str, *, vanish_after_reads: int | None = None) -> Tag:
        """Put an amiibo figure on the reader (replacing whatever was there)."""
        return self.place_tag(Tag.amiibo(uid, amiibo_id, vanish_after_reads=vanish_after_reads))

    def place_iso_dep_card(self, uid: bytes | str) -> Tag:
        """Put a bank-card-like ISO-DEP (type 4) card on the reader."""
        return self.place_tag(Tag.iso_dep_card(uid))

    def place_tag(self, tag: Tag) -> Tag:
        with self._changed:
            self._tag = tag
            pending, self._pending_reqa = self._pending_reqa, None
            if self.answer_late and pending and time.monotonic() - pending[1] < LATE_WINDOW:
                self.counts["late SENS_RES"] += 1
                self._send(tag.respond(b"\x26"), pending[0])
            self._changed.notify_all()
        return tag

    def remove(self) -> None:
        """Take the figure away."""
        with self._changed:
            self._tag = None
            self._changed.notify_all()

    # -- serving ----------------------------------------------------------

    def start(self) -> "Emulator":
        if self._thread is None:
            self._thread = threading.Thread(target=self.serve_forever, name="nfc-emulator", daemon=True)
            self._thread.start()
        return self

    def serve_forever(self) -> None:
        try:
            while True:
                readable, _, _ = select.select([self._socket, self._wake_r], [], [])
                if self._wake_r in readable:
                    return
                try:
                    datagram, address = self._socket.recvfrom(4096)
                except OSError:  # e.g. a late ICMP error for an earlier answer
                    continue
                self.handle(datagram, address)
        finally:
            self._socket.close()

    def stop(self) -> None:
        """Stop serving and close the socket (the port is free again afterwards)."""
        if self._closed:
            return
        self._closed = True
        if self._thread is not None:
            self._wake_w.send(b"x")
            self._thread.join()
        else:
            self._socket.close()
        self._wake_r.close()
        self._wake_w.close()

    def __enter__(self) -> "Emulator":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def handle(self, datagram: bytes, address: tuple[str, int]) -> None:
        """One datagram from the driver: answer it (or not)."""
        with self._changed:
            try:
                self._handle(datagram, address)
            finally:
                self._changed.notify_all()

    def _handle(self, datagram: bytes, address: tuple[str, int]) -> None:
        if datagram.startswith(b"RFOFF"):
            self.counts["RFOFF"] += 1
            if self._tag is not None:
                self._tag.field_off()
            if self._pending_reqa and self._pending_reqa[0] == address:
                self._pending_reqa = None
            return
        try:
            technology, payload = datagram.split()
            frame = bytes.fromhex(payload.decode("ascii"))
        except ValueError:
            self.counts["malformed"] += 1
            return
        if technology != b"106A" or not frame:
            self.counts["other technology"] += 1  # we are a type A tag only
            return
        name = _frame_name(frame)
        self.counts[name] += 1
        answer = self._tag.respond(frame) if self._tag is not None else None
        if name in ("REQA", "WUPA") and answer is None:
            self._pending_reqa = (address, time.monotonic())
        elif self._pending_reqa and self._pending_reqa[0] == address:
            self._pending_reqa = None
        self._send(answer, address)

    def _send(self, answer: bytes | None, address: tuple[str, int]) -> None:
        if answer is None:
            self.counts["silent"] += 1
            return
        try:
            self._socket.sendto(b"106A " + answer.hex().encode("ascii"), address)
        except OSError:  # the driver's socket is gone: nothing to do
            self.counts["send failed"] += 1

    def wait_until(self, predicate: Callable[[collections.Counter], bool], timeout: float) -> bool:
        """Block until ``predicate(counts)`` holds (True) or ``timeout`` s pass (False)."""
        with self._changed:
            return self._changed.wait_for(lambda: predicate(self.counts), timeout)


# -- command line ------------------------------------------------------------

HELP = ("commands: place <uid> <amiibo id> | place-partial <uid> <amiibo id> [reads] | "
        "place-type4 <uid> | remove | quit")


def run_command(emulator: Emulator, line: str) -> str | None:
    """Execute one stdin command; returns the answer line, or None to quit."""
    words = line.split()
    if not words:
        return "error: empty line; " + HELP
    command, args = words[0].lower(), words[1:]
    try:
        if command == "place":
            if len(args) != 2:
                return "error: usage: place <uid: 14 hex digits> <amiibo id: 16 hex digits>"
            emulator.place(args[0], args[1])
        elif command == "place-partial":
            if len(args) not in (2, 3):
                return "error: usage: place-partial <uid> <amiibo id> [reads before vanishing]"
            reads = 0
            if len(args) == 3:
                if not args[2].isdigit():
                    return "error: reads must be a whole number"
                reads = int(args[2])
            emulator.place(args[0], args[1], vanish_after_reads=reads)
        elif command == "place-type4":
            if len(args) != 1:
                return "error: usage: place-type4 <uid: 14 hex digits>"
            emulator.place_iso_dep_card(args[0])
        elif command == "remove":
            if args:
                return "error: remove takes no argument"
            emulator.remove()
        elif command in ("quit", "exit"):
            return None
        elif command == "help":
            return "ok " + HELP
        else:
            return f"error: unknown command {command!r}; " + HELP
    except ValueError as error:
        return f"error: {error}"
    return "ok"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m hardware.emulate",
        description="Emulate an amiibo (NTAG215) for nfcpy's udp driver on 127.0.0.1. "
                    "Commands on standard input: " + HELP)
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"UDP port to listen on (default {DEFAULT_PORT}, nfcpy's; 0 for any free port)")
    options = parser.parse_args(argv)
    try:
        emulator = Emulator(options.port)
    except OSError as error:
        print(f"error: cannot listen on {HOST}:{options.port}: {error.strerror or error}", flush=True)
        return 1
    with emulator:
        print(f"ready {emulator.path}", flush=True)
        for line in sys.stdin:
            answer = run_command(emulator, line)
            if answer is None:
                print("ok", flush=True)
                break
            print(answer, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
