"""The NTAG215 emulator, read by nfcpy's own, unmodified udp driver and tag classes."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
from pathlib import Path

import nfc
import nfc.tag.tt2
import nfc.tag.tt2_nxp
import pytest

from hardware.emulate import NTAG215_VERSION, Tag, bcc, parse_hex, run_command

ROOT = Path(__file__).resolve().parent.parent
UID = "04a1b2c3d4e5f6"
AMIIBO_ID = "0x01020304050a0b02"


@pytest.fixture
def frontend():
    opened = []

    def open_(path):
        clf = nfc.ContactlessFrontend(path)
        opened.append(clf)
        return clf

    yield open_
    for clf in opened:
        clf.close()


def activate(clf):
    """One activation with nfcpy's own connect(); the tag object, not yet released."""
    return clf.connect(rdwr={"targets": ("106A",), "on-connect": lambda tag: False},
                       terminate=lambda: False)


def test_nfcpy_reads_the_in_process_emulator_as_an_ntag215(emulator, frontend):
    emulator.place(UID, AMIIBO_ID)
    clf = frontend(emulator.path)
    tag = activate(clf)

    assert isinstance(tag, nfc.tag.tt2_nxp.NTAG215)
    assert tag.product == "NXP NTAG215"
    assert tag.identifier == bytes.fromhex(UID)
    assert tag.read(0x15)[0:8] == bytes.fromhex(AMIIBO_ID[2:])
    assert tag.transceive(b"\x3a\x15\x16") == bytes.fromhex(AMIIBO_ID[2:])  # FAST_READ
    pages = tag.read(0)
    uid = bytes.fromhex(UID)
    assert pages[0:3] == uid[0:3] and pages[3] == 0x88 ^ uid[0] ^ uid[1] ^ uid[2]
    assert pages[4:8] == uid[3:7] and pages[8] == uid[3] ^ uid[4] ^ uid[5] ^ uid[6]
    assert pages[12:16] == bytes.fromhex("E1103E00")
    signature = tag.signature  # READ_SIG
    assert len(signature) == 32 and any(signature)
    assert tag.is_present

    emulator.remove()
    assert not tag.is_present
    assert emulator.counts["GET_VERSION"] >= 1 and emulator.counts["READ_SIG"] == 1


def test_nfcpy_reads_a_4_page_window_that_rolls_over_at_the_end(emulator, frontend):
    emulator.place(UID, AMIIBO_ID)
    tag = activate(frontend(emulator.path))
    last = tag.read(0x85)  # pages 0x85, 0x86, then 0x00, 0x01
    assert last[0:8] == bytes(8)  # PWD and PACK read as zeros
    assert last[8:16] == tag.read(0)[0:8]
    with pytest.raises(nfc.tag.tt2.Type2TagCommandError):
        tag.read(0x87)  # past the end: NAK


def test_emulator_as_a_process_driven_over_stdin(frontend):
    process = subprocess.Popen([sys.executable, "-m", "hardware.emulate", "--port", "0"], cwd=ROOT,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line.strip()) for line in process.stdout], daemon=True).start()

    def send(command):
        process.stdin.write(command + "\n")
        process.stdin.flush()
        return lines.get(timeout=10)

    try:
        ready = lines.get(timeout=10)
        assert ready.startswith("ready udp:127.0.0.1:")
        path = ready.split()[1]

        assert send("place 04a1b2 0102030405060702") == "error: uid must be 14 hex digits"
        assert send(f"place {UID} 010203") == "error: amiibo id must be 16 hex digits"
        assert send("dance").startswith("error: unknown command 'dance'")
        assert send(f"place {UID} 0102030405060702") == "ok"

        clf = frontend(path)
        tag = activate(clf)
        assert tag.identifier.hex() == UID
        assert tag.read(0x15)[0:8].hex() == "0102030405060702"
        assert tag.is_present

        assert send("remove") == "ok"
        assert not tag.is_present
        assert send("quit") == "ok"
        assert process.wait(timeout=10) == 0
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        process.stdin.close()
        process.stdout.close()


def test_anticollision_of_a_7_byte_uid():
    uid = bytes.fromhex(UID)
    tag = Tag.amiibo(uid, AMIIBO_ID)
    assert tag.respond(b"\x30\x00") is None  # not selected: silent
    assert tag.respond(b"\x26") == bytes.fromhex("4400")  # REQA: double-size UID
    cl1 = tag.respond(b"\x93\x20")
    assert cl1 == bytes([0x88, *uid[0:3], bcc(bytes([0x88, *uid[0:3]]))])
    assert tag.respond(b"\x93\x70" + cl1) == b"\x04"  # SAK: UID not complete
    cl2 = tag.respond(b"\x95\x20")
    assert cl2 == uid[3:7] + bytes([bcc(uid[3:7])])
    assert tag.respond(b"\x95\x70" + cl2) == b"\x00"  # SAK: Type 2 tag, selected
    assert tag.respond(b"\x60") == NTAG215_VERSION
    assert tag.respond(b"\x30\x15")[0:8] == bytes.fromhex(AMIIBO_ID[2:])


def test_unknown_commands_get_silence_and_send_the_tag_back_to_idle():
    tag = Tag.amiibo(UID, AMIIBO_ID)
    select(tag)
    assert tag.respond(b"\x1a\x00") is None  # Ultralight C's AUTHENTICATE: not an NTAG215 command
    assert tag.respond(b"\x30\x00") is None  # idle now: READ is not answered
    select(tag)
    assert len(tag.respond(b"\x30\x00")) == 16
    assert tag.respond(b"\x3a\x10\x05") == b"\x00"  # FAST_READ with start > end: NAK...
    assert tag.respond(b"\x30\x00") is None  # ...and back to idle
    select(tag)
    assert tag.respond(b"\x50\x00") is None  # HLTA
    assert tag.respond(b"\x26") is None  # halted: REQA is ignored...
    assert tag.respond(b"\x52") == bytes.fromhex("4400")  # ...WUPA is not


def test_a_figure_that_vanishes_after_some_reads():
    tag = Tag.amiibo(UID, AMIIBO_ID, vanish_after_reads=1)
    select(tag)
    assert len(tag.respond(b"\x30\x00")) == 16
    assert tag.respond(b"\x30\x15") is None
    assert tag.respond(b"\x26") is None  # gone for good: not even REQA
    assert tag.gone


def test_an_iso_dep_card_stops_at_anticollision():
    tag = Tag.iso_dep_card("08112233445566")
    tag.respond(b"\x26")
    tag.respond(b"\x93\x70" + tag.respond(b"\x93\x20"))
    assert tag.respond(b"\x95\x70" + tag.respond(b"\x95\x20")) == b"\x20"  # SAK: ISO-DEP
    assert tag.respond(b"\xe0\x80") is None  # RATS: we do not speak ISO-DEP


def test_command_lines_and_hex_parsing(emulator):
    assert parse_hex("0x0102030405060702", 8, "amiibo id") == bytes.fromhex("0102030405060702")
    assert parse_hex("04:A1:B2:C3:D4:E5:F6", 7, "uid") == bytes.fromhex(UID)
    assert run_command(emulator, f"place-partial {UID} 0102030405060702 3") == "ok"
    assert emulator.tag.vanish_after_reads == 3
    assert run_command(emulator, "place-type4 08112233445566") == "ok"
    assert emulator.tag.memory is None
    assert run_command(emulator, "place-partial x").startswith("error: usage: place-partial")
    assert run_command(emulator, "remove") == "ok" and emulator.tag is None
    assert run_command(emulator, "quit") is None


def test_the_emulator_listens_on_loopback_only(emulator):
    assert emulator.path == f"udp:127.0.0.1:{emulator.port}"
    assert emulator._socket.getsockname()[0] == "127.0.0.1"


def select(tag):
    tag.field_off()
    tag.respond(b"\x26")
    for code in (0x93, 0x95):
        answer = tag.respond(bytes([code, 0x20]))
        tag.respond(bytes([code, 0x70]) + answer)
    assert tag.state == "active"
