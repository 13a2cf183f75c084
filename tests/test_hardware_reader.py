"""The Reader end to end: nfcpy's ContactlessFrontend, over the emulator or a fake device.

Two lowest layers stand in for a reader:

- the emulator (``hardware.emulate``) behind nfcpy's own udp driver;
- ``FakeDevice``, an in-process ``nfc.clf.device.Device`` that can be unplugged,
  answering from the emulator's tag model: everything above it (frontend,
  connect loop, tag activation, Type 2 commands) is nfcpy's own code.

Waits are on events (callbacks, the frames the emulator saw), never sleeps.
"""

from __future__ import annotations

import dataclasses
import errno
import os
import queue
import re
import subprocess
import sys
import threading
from pathlib import Path

import nfc.clf
import nfc.clf.device
import pytest

from hardware.emulate import Tag
from hardware.reader import Reader, Scan, not_type2_reason

ROOT = Path(__file__).resolve().parent.parent
WAIT = 10.0  # s: only a guard against hanging; events normally come in milliseconds

FIGURES = [
    ("04a1b2c3d4e5f6", "0x0000000000340102"),  # three different figures
    ("0411223344556a", "0x01010000000b0002"),
    ("04c0ffee00beef", "0x1f00000002580502"),
]


class Recorder:
    """Collects what the Reader reports; ``wait`` blocks until a condition holds."""

    def __init__(self):
        self.changed = threading.Condition()
        self.scans: list[Scan] = []
        self.errors: list[str] = []
        self.statuses: list[dict] = []
        self.threads: set[str] = set()

    def _add(self, items, item):
        with self.changed:
            items.append(item)
            self.threads.add(threading.current_thread().name)
            self.changed.notify_all()

    def on_scan(self, scan):
        self._add(self.scans, scan)

    def on_error(self, message):
        self._add(self.errors, message)

    def on_status(self, status):
        self._add(self.statuses, status)

    @property
    def state(self):
        return self.statuses[-1]["state"] if self.statuses else None

    def wait(self, predicate, what):
        with self.changed:
            if not self.changed.wait_for(predicate, WAIT):
                raise AssertionError(f"never got {what}: scans={self.scans} errors={self.errors} "
                                     f"statuses={self.statuses}")


@pytest.fixture
def make_reader():
    readers = []

    def make(path, **options):
        recorder = Recorder()
        reader = Reader(path, recorder.on_scan, recorder.on_status, recorder.on_error, **options)
        readers.append(reader)
        reader.start()
        return reader, recorder

    yield make
    for reader in readers:
        reader.stop()


def polled_again(emulator):
    """Wait until the reader polls (sends REQA) after this point: it saw the figure leave."""
    polls = emulator.counts["REQA"]
    assert emulator.wait_until(lambda counts: counts["REQA"] > polls, WAIT)


def take_away(emulator):
    emulator.remove()
    polled_again(emulator)


def take_away_card(emulator):
    """Take a rejected card away and wait for a poll that found nothing.

    The first poll after ``remove`` may still be waiting for an answer when the
    next card is placed (the emulator then answers it late, as real hardware
    would); only a second poll proves that the reader saw it empty.
    """
    emulator.remove()
    polls = emulator.counts["REQA"]
    assert emulator.wait_until(lambda counts: counts["REQA"] >= polls + 2, WAIT)


def test_three_figures_one_after_another_give_three_scans(emulator, make_reader):
    reader, seen = make_reader(emulator.path)
    for number, (uid, amiibo_id) in enumerate(FIGURES, start=1):
        emulator.place(uid, amiibo_id)
        seen.wait(lambda: len(seen.scans) == number, f"scan {number}")
        take_away(emulator)

    assert [(scan.uid, scan.amiibo_id) for scan in seen.scans] == FIGURES
    assert seen.errors == []
    assert seen.statuses[0]["state"] == "connected"
    assert f"udp:127.0.0.1:{emulator.port}" in seen.statuses[0]["model"]
    assert reader.status == {"state": "connected", "model": seen.statuses[0]["model"], "message": None}
    assert seen.threads == {f"nfc-reader {emulator.path}"}  # callbacks run on the reader thread


def test_a_resting_figure_is_one_scan_and_placing_it_again_is_another(emulator, make_reader):
    reader, seen = make_reader(emulator.path)
    uid, amiibo_id = FIGURES[0]
    emulator.place(uid, amiibo_id)
    seen.wait(lambda: len(seen.scans) == 1, "the scan")

    # While it rests, the reader only checks presence (READ): no new poll, no new scan.
    reads, polls = emulator.counts["READ"], emulator.counts["REQA"]
    assert emulator.wait_until(lambda counts: counts["READ"] >= reads + 5, WAIT)
    assert emulator.counts["REQA"] == polls
    assert len(seen.scans) == 1

    take_away(emulator)
    emulator.place(uid, amiibo_id)
    seen.wait(lambda: len(seen.scans) == 2, "the second scan")
    first, second = seen.scans
    assert (second.uid, second.amiibo_id) == (first.uid, first.amiibo_id) == (uid, amiibo_id)
    assert second.at >= first.at
    assert seen.errors == []


def test_a_figure_pulled_away_mid_read_is_an_error_and_the_loop_goes_on(emulator, make_reader):
    reader, seen = make_reader(emulator.path)
    emulator.place(FIGURES[0][0], FIGURES[0][1], vanish_after_reads=0)  # gone at the first READ
    seen.wait(lambda: len(seen.errors) == 1, "the error")
    assert "taken away before it could be read" in seen.errors[0]
    assert emulator.tag.gone and seen.scans == []

    polled_again(emulator)  # the reader noticed and polls again
    emulator.place(*FIGURES[1])
    seen.wait(lambda: len(seen.scans) == 1, "the next scan")
    assert (seen.scans[0].uid, seen.scans[0].amiibo_id) == FIGURES[1]
    assert len(seen.errors) == 1 and reader.status["state"] == "connected"


class VanishingDuringActivation(Tag):
    """Pulled away while nfcpy identifies the chip (GET_VERSION), before any READ."""

    def respond(self, frame):
        if frame == b"\x60":
            self.gone = True
        return super().respond(frame)


def test_a_figure_pulled_away_during_activation_is_the_same_error(emulator, make_reader):
    reader, seen = make_reader(emulator.path)
    emulator.place_tag(VanishingDuringActivation.amiibo(*FIGURES[0]))
    seen.wait(lambda: len(seen.errors) == 1, "the error")
    assert "taken away before it could be read" in seen.errors[0]
    assert emulator.counts["READ"] == 0 and seen.scans == []

    emulator.place(*FIGURES[1])
    seen.wait(lambda: len(seen.scans) == 1, "the next scan")
    assert len(seen.errors) == 1


def test_any_type2_tag_will_do_not_only_an_ntag215(emulator, make_reader):
    reader, seen = make_reader(emulator.path)
    newer_chip = Tag.amiibo("04d00000000001", "0x0000000000340102")
    newer_chip.version = bytes.fromhex("0004040202001103")  # a GET_VERSION nfcpy does not know
    not_nxp = Tag.amiibo("05d00000000002", "0x01010000000b0002")  # another manufacturer: no GET_VERSION asked
    not_nxp.version = None
    for number, tag in enumerate((newer_chip, not_nxp), start=1):
        emulator.place_tag(tag)
        seen.wait(lambda: len(seen.scans) == number, f"scan {number}")
        take_away(emulator)
    assert [(scan.uid, scan.amiibo_id) for scan in seen.scans] == [
        ("04d00000000001", "0x0000000000340102"), ("05d00000000002", "0x01010000000b0002")]
    assert seen.errors == []


@pytest.mark.parametrize("amiibo_id, expected", [
    ("0000000000000000", "Blank tag"),
    ("0102030405060708", "Not an amiibo: its id 0x0102030405060708 does not end in 02"),
])
def test_blank_and_non_amiibo_type2_tags_are_clear_errors(emulator, make_reader, amiibo_id, expected):
    reader, seen = make_reader(emulator.path)
    emulator.place("04112233445566", amiibo_id)
    seen.wait(lambda: len(seen.errors) == 1, "the error")
    assert seen.errors[0].startswith(expected)

    reads = emulator.counts["READ"]  # resting: still one error
    assert emulator.wait_until(lambda counts: counts["READ"] >= reads + 3, WAIT)
    assert len(seen.errors) == 1

    take_away(emulator)
    emulator.place(*FIGURES[2])
    seen.wait(lambda: len(seen.scans) == 1, "a good scan afterwards")
    assert seen.scans[0].uid == FIGURES[2][0]


def test_a_card_that_is_not_a_type2_tag_is_one_clear_error(emulator, make_reader):
    reader, seen = make_reader(emulator.path)
    emulator.place_iso_dep_card("08a1b2c3d4e5f6")
    seen.wait(lambda: len(seen.errors) == 1, "the error")
    assert seen.errors[0] == ("Not an amiibo: this is an ISO-DEP (Type 4) card, such as a bank, transit or ID card, "
                              "not an NFC Forum Type 2 tag.")
    # A screen translates it whole: the msgid, and the card's kind as a msgid of its own.
    assert seen.errors[0].fields() == {"msgid": "Not an amiibo: this is %(kind)s, not an NFC Forum Type 2 tag.",
                                       "params": {"kind": "an ISO-DEP (Type 4) card, such as a bank, transit or ID card"},
                                       "msgids": ["kind"]}

    # Found again by every poll while it rests, but reported once.
    polls = emulator.counts["REQA"]
    assert emulator.wait_until(lambda counts: counts["REQA"] >= polls + 3, WAIT)
    assert len(seen.errors) == 1
    assert emulator.counts["READ"] == 0  # never activated as a tag

    take_away_card(emulator)
    emulator.place_iso_dep_card("08a1b2c3d4e5f6")  # a new tap: a new error
    seen.wait(lambda: len(seen.errors) == 2, "the second error")
    take_away_card(emulator)
    emulator.place(*FIGURES[0])
    seen.wait(lambda: len(seen.scans) == 1, "a scan afterwards")


def test_not_type2_reason_reads_sak_and_sens_res():
    def target(sens_res, sel_res):
        return nfc.clf.RemoteTarget("106A", sens_res=bytes.fromhex(sens_res), sel_res=bytes.fromhex(sel_res))

    assert not_type2_reason(target("4400", "00")) is None  # NTAG
    assert not_type2_reason(target("0400", "08")) == "a MIFARE Classic card"
    assert not_type2_reason(target("0400", "60")) == "a phone or another NFC device"
    assert not_type2_reason(target("000c", "00")) == "a Type 1 (Topaz) tag"


def test_stop_ends_the_thread_while_polling_and_while_a_figure_rests(emulator, make_reader):
    idle, idle_seen = make_reader(emulator.path)
    idle_seen.wait(lambda: idle_seen.state == "connected", "connected")
    polled_again(emulator)  # inside the udp driver's wait for an answer
    idle.stop()
    assert not idle.running
    assert idle.status == {"state": "off", "model": None, "message": "Reader stopped."}
    assert idle_seen.statuses[-1]["state"] == "off"

    resting, resting_seen = make_reader(emulator.path)
    emulator.place(*FIGURES[0])
    resting_seen.wait(lambda: len(resting_seen.scans) == 1, "the scan")
    resting.stop()
    assert not resting.running
    assert resting_seen.state == "off" and resting_seen.errors == []


def test_a_path_with_no_reader_is_absent_not_an_error(make_reader):
    reader, seen = make_reader("usb:ffff:fffe", retry_interval=0.05)
    seen.wait(lambda: seen.state == "absent", "absent")
    assert seen.statuses[0] == {"state": "absent", "model": None, "message": "No reader found at usb:ffff:fffe."}
    assert reader.running  # it keeps looking
    reader.stop()
    assert not reader.running and seen.state == "off"


def test_none_runs_without_a_reader(make_reader):
    reader, seen = make_reader("none")
    seen.wait(lambda: seen.statuses, "a status")
    assert seen.statuses[0] == {"state": "off", "model": None, "message": "No reader configured (device 'none')."}
    reader.stop()
    assert not reader.running


def test_a_failing_callback_does_not_stop_the_loop(emulator, make_reader):
    calls = queue.Queue()

    def on_scan(scan):
        calls.put(scan)
        raise RuntimeError("the app had a bad day")

    reader = Reader(emulator.path, on_scan, lambda status: None)
    reader.start()
    try:
        for figure in FIGURES[:2]:
            emulator.place(*figure)
            assert calls.get(timeout=WAIT).uid == figure[0]
            take_away(emulator)
        assert reader.running
    finally:
        reader.stop()


def test_a_scan_is_frozen_and_formatted(emulator, make_reader):
    reader, seen = make_reader(emulator.path)
    emulator.place("04A1B2C3D4E5F6", "0x0000000000340102")
    seen.wait(lambda: seen.scans, "the scan")
    scan = seen.scans[0]
    assert re.fullmatch(r"[0-9a-f]{14}", scan.uid)
    assert re.fullmatch(r"0x[0-9a-f]{16}", scan.amiibo_id)
    with pytest.raises(dataclasses.FrozenInstanceError):
        scan.uid = "x"


# -- a reader that can be unplugged ----------------------------------------------------------

class FakeDevice(nfc.clf.device.Device):
    """A contactless device answering from an emulated tag, unpluggable at will."""

    def __init__(self, bench):
        self.bench = bench
        self._path = "fake:1"
        self._vendor_name, self._device_name, self._chipset_name = "Companion", "Fake Reader", "TagModel"

    def _check(self):
        if not self.bench.plugged:
            raise IOError(errno.ENODEV, os.strerror(errno.ENODEV))
        if self.bench.broken:
            raise IOError(errno.EIO, "the reader answers garbage")

    def close(self):
        pass

    def mute(self):
        if self.bench.tag is not None:
            self.bench.tag.field_off()

    def sense_tta(self, target):
        with self.bench.changed:
            self.bench.polls += 1
            self.bench.changed.notify_all()
        self._check()
        tag = self.bench.tag
        if tag is None or (sens_res := tag.respond(b"\x26")) is None:
            return None
        uid = b""
        for code in (0x93, 0x95, 0x97):
            sdd_res = tag.respond(bytes([code, 0x20]))
            sel_res = tag.respond(bytes([code, 0x70]) + sdd_res) if sdd_res else None
            if sel_res is None:
                return None
            if not sel_res[0] & 0x04:
                uid += sdd_res[0:4]
                return nfc.clf.RemoteTarget(target.brty, sens_res=sens_res, sel_res=sel_res, sdd_res=uid)
            uid += sdd_res[1:4]

    def sense_ttb(self, target):
        raise nfc.clf.UnsupportedTargetError("type A only")

    sense_ttf = sense_dep = sense_ttb

    def send_cmd_recv_rsp(self, target, data, timeout):
        self._check()
        answer = self.bench.tag.respond(bytes(data)) if self.bench.tag is not None else None
        if answer is None:
            raise nfc.clf.TimeoutError("no answer")
        return bytearray(answer)

    def get_max_send_data_size(self, target):
        return 64

    get_max_recv_data_size = get_max_send_data_size


class Bench:
    """The desk: a fake reader (plugged in or not) and the tag lying on it."""

    def __init__(self):
        self.plugged = True
        self.broken = False
        self.open_error = None
        self.tag = None
        self.polls = 0
        self.changed = threading.Condition()

    def connect(self, path):
        if self.open_error is not None:
            raise self.open_error
        return FakeDevice(self) if self.plugged else None

    def wait_polls(self, count):
        with self.changed:
            target = self.polls + count
            assert self.changed.wait_for(lambda: self.polls >= target, WAIT)


@pytest.fixture
def bench(monkeypatch):
    bench = Bench()
    real_connect = nfc.clf.device.connect
    monkeypatch.setattr(nfc.clf.device, "connect",
                        lambda path: bench.connect(path) if path.startswith("fake") else real_connect(path))
    return bench


def test_an_unplugged_reader_is_picked_up_again_without_a_restart(bench, make_reader):
    bench.plugged = False
    reader, seen = make_reader("fake", retry_interval=0.05)
    seen.wait(lambda: seen.state == "absent", "absent at start")

    bench.plugged = True
    seen.wait(lambda: seen.state == "connected", "connected once plugged in")
    assert seen.statuses[-1]["model"] == "Companion Fake Reader TagModel at fake:1"
    bench.tag = Tag.amiibo(*FIGURES[0])
    seen.wait(lambda: len(seen.scans) == 1, "a scan")
    bench.tag = None

    bench.plugged = False  # pulled out mid-game
    seen.wait(lambda: seen.state == "absent", "absent once unplugged")
    assert seen.statuses[-1]["message"].startswith("Reader disconnected: no reader found at fake")
    assert "[Errno 19]" in seen.statuses[-1]["message"]  # the driver's error, for the log only
    assert "Errno" not in str(seen.statuses[-1]["message"].fields())

    bench.plugged = True
    seen.wait(lambda: seen.state == "connected", "connected once plugged back")
    bench.tag = Tag.amiibo(*FIGURES[1])
    seen.wait(lambda: len(seen.scans) == 2, "a scan after the replug")
    assert [scan.uid for scan in seen.scans] == [FIGURES[0][0], FIGURES[1][0]]
    assert [status["state"] for status in seen.statuses] == ["absent", "connected", "absent", "connected"]
    assert reader.running


def test_a_reader_that_opens_but_fails_is_an_error_until_it_recovers(bench, make_reader):
    bench.broken = True
    reader, seen = make_reader("fake", retry_interval=0.05)
    seen.wait(lambda: seen.state == "error", "error")
    assert "does not work" in seen.statuses[-1]["message"]
    assert "the reader answers garbage" in seen.statuses[-1]["message"]
    bench.wait_polls(2)  # it keeps trying

    bench.broken = False
    seen.wait(lambda: seen.state == "connected", "connected")
    bench.tag = Tag.amiibo(*FIGURES[2])
    seen.wait(lambda: seen.scans, "a scan")
    assert seen.scans[0].amiibo_id == FIGURES[2][1]


def test_a_reader_without_permission_is_an_error_with_a_hint(bench, make_reader):
    bench.open_error = PermissionError(errno.EACCES, os.strerror(errno.EACCES))
    reader, seen = make_reader("fake", retry_interval=0.05)
    seen.wait(lambda: seen.state == "error", "error")
    assert seen.statuses[-1]["message"].startswith("Permission denied on the reader at fake")
    assert "udev" in seen.statuses[-1]["message"]

    bench.open_error = None
    seen.wait(lambda: seen.state == "connected", "connected once allowed")


def test_stop_while_polling_a_fast_reader(bench, make_reader):
    reader, seen = make_reader("fake")
    seen.wait(lambda: seen.state == "connected", "connected")
    bench.wait_polls(3)
    reader.stop()
    assert not reader.running and seen.state == "off"
    assert seen.errors == [] and seen.scans == []


def test_the_reader_module_does_not_import_flask_or_the_app():
    code = ("import sys, hardware.reader, hardware.emulate; "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('flask', 'companion', 'flask_socketio')]; "
            "print(bad); sys.exit(1 if bad else 0)")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
