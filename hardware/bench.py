"""Figures for the reader loop over the emulator: tap latency, removal, stop time.

    python -m hardware.bench [--taps 50] [--stops 20] [--raw-taps 20]

- tap: from ``Emulator.place()`` to ``on_scan`` (the reader's whole path: poll,
  anticollision, nfcpy's NTAG215 identification, READ of page 0x15);
- raw tap: the same with the emulator answering only fresh REQAs (no late answer),
  i.e. the bare behaviour of nfcpy's udp driver, which polls once a second;
- removal: from ``Emulator.remove()`` to the reader polling again;
- stop: ``Reader.stop()`` while polling with nothing on the reader (the udp
  driver is inside its one-second wait) and while a figure rests.

Loopback only.  Prints percentiles; no pass/fail.
"""

from __future__ import annotations

import argparse
import queue
import statistics
import time

from hardware.emulate import Emulator
from hardware.reader import Reader

WAIT = 10.0


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)

    def at(fraction: float) -> float:
        return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]

    return (f"n={len(ordered)} p50={at(0.5) * 1e3:.1f} ms p99={at(0.99) * 1e3:.1f} ms "
            f"max={ordered[-1] * 1e3:.1f} ms mean={statistics.fmean(ordered) * 1e3:.1f} ms")


def figure(number: int) -> tuple[str, str]:
    return f"04{number:012x}", f"0x{number:012x}0002"


def taps(count: int, answer_late: bool) -> tuple[list[float], list[float]]:
    scans: queue.Queue[float] = queue.Queue()
    connected: queue.Queue[dict] = queue.Queue()
    latencies, removals = [], []
    with Emulator(port=0, answer_late=answer_late) as emulator:
        reader = Reader(emulator.path, lambda scan: scans.put(time.perf_counter()),
                        lambda status: connected.put(status), lambda message: print("tap error:", message))
        reader.start()
        try:
            while connected.get(timeout=WAIT)["state"] != "connected":
                pass
            for number in range(count):
                placed = time.perf_counter()
                emulator.place(*figure(number + 1))
                latencies.append(scans.get(timeout=WAIT) - placed)
                polls = emulator.counts["REQA"]
                removed = time.perf_counter()
                emulator.remove()
                if not emulator.wait_until(lambda counts: counts["REQA"] > polls, WAIT):
                    raise RuntimeError("the reader never polled again")
                removals.append(time.perf_counter() - removed)
        finally:
            reader.stop()
    return latencies, removals


def stops(count: int) -> tuple[list[float], list[float]]:
    idle, resting = [], []
    with Emulator(port=0) as emulator:
        for number in range(count):
            for samples, with_figure in ((idle, False), (resting, True)):
                scans: queue.Queue = queue.Queue()
                statuses: queue.Queue = queue.Queue()
                reader = Reader(emulator.path, scans.put, statuses.put)
                reader.start()
                while statuses.get(timeout=WAIT)["state"] != "connected":
                    pass
                if with_figure:
                    emulator.place(*figure(number + 1))
                    scans.get(timeout=WAIT)
                    reads = emulator.counts["READ"]  # inside nfcpy's presence-check loop
                    emulator.wait_until(lambda counts: counts["READ"] >= reads + 2, WAIT)
                else:
                    polls = emulator.counts["REQA"]  # wait until a poll is pending in the driver
                    emulator.wait_until(lambda counts: counts["REQA"] > polls, WAIT)
                started = time.perf_counter()
                reader.stop()
                samples.append(time.perf_counter() - started)
                if reader.running:
                    raise RuntimeError("the reader thread survived stop()")
                emulator.remove()
    return idle, resting


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hardware.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=50)
    parser.add_argument("--raw-taps", type=int, default=20)
    parser.add_argument("--stops", type=int, default=20)
    options = parser.parse_args(argv)

    latencies, removals = taps(options.taps, answer_late=True)
    print("tap -> on_scan          ", percentiles(latencies))
    print("remove -> polling again ", percentiles(removals))
    if options.raw_taps:
        raw, _ = taps(options.raw_taps, answer_late=False)
        print("tap -> on_scan (raw udp)", percentiles(raw))
    idle, resting = stops(options.stops)
    print("stop() while polling    ", percentiles(idle))
    print("stop() with a figure on ", percentiles(resting))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
