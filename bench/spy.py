"""Where a gunicorn worker's CPU goes under load: py-spy records it during the rolling window
(``bench/run.py --py-spy DIR``) and `breakdown` sorts the samples of its event loop's thread
into the parts of a roll's path. ``python bench/spy.py FILE`` prints the breakdown of a
recording made earlier (py-spy's ``--format raw``, with ``--threads``).

py-spy runs with ``--nonblocking`` (it never stops the worker, so it does not slow it down) and
without ``--native``: time spent in C (SQLite, orjson, the socket calls) is charged to the
Python line that called it. Garbage collection is charged to the allocation that set it off;
its own figures come from `gc.callbacks` (see docs/benchmarks.md).

A thread blocked in ``os.fsync`` is sampled as busy, but it waits on the disk and burns no CPU:
those samples (the event loop's in fsync, and the native threads, which do the group commit's
fsync and the checkpoint) are parts of their own, and the CPU per roll is shared out over the
other samples only (issue 29: at 50 tables 0.40 of 1.31 ms "per roll" were fsync waits). The
wall time spent in fsync is measured apart (bench/fsync_timer).
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

# Each part of the path, by frames that belong to it. A sample goes to the part of the frame
# nearest its leaf that matches (so the JSON encoder called by the store counts as the store).
PARTS = [
    ("group commit (waits, fsync hand-off, checkpoint)", ("GroupSync", "Store._checkpoint", "_WorkerGreenlet", "ThreadPool")),
    ("views: built per audience and seat", ("Tables._views", "Tables._envelope", "Rules.view", "Tables._table_view")),
    ("encoding (orjson, Socket.IO packets)", ("wire.py", "PacketJSON", "Packet.encode")),
    ("emit: rooms, engine.io queues", ("SocketHub.publish", "Server.emit", "_send_packet", "Manager.emit",
                                       "BaseManager")),
    ("websocket writer: frames, socket send", ("_websocket_handler.<locals>.writer", "SimpleWebSocketWSGI.send",
                                               "Base.send")),
    ("store: transaction, cache, SQLite", ("Store.transaction", "Transaction.", "TableCache", "Tables._save",
                                           "Tables._existing_table", "Tables._principal", "hash_token")),
    ("game: rules, draws, fairness book", ("Rules.apply", "Tables._dispatch", "Tables._game_action", "TableRng",
                                           "Tables._checked", "Entropy")),
    ("action checks, limits", ("Tables._act", "Tables.act ", "_check_payload", "RateLimiter", "limits")),
    ("Flask request context per event", ("RequestContext", "SessionInterface", "Flask.request_context",
                                         "SocketIO._handle_event", "AppContext", "do_teardown")),
    ("receive: websocket read, frames, packets", ("Base._thread", "SocketMixin.recv", "WSConnection",
                                                  "_handle_eio_message", "Packet.decode", "_handle_event_internal",
                                                  "_trigger_event", "handle_request", "_handle_and_close")),
    ("gevent hub, timers, pings", ("Hub.run", "_send_ping", "Socket.poll", "sleep")),
]


LOOP_FSYNC = "waiting on disk: fsync on the event loop (not CPU)"
NATIVE_THREADS = "native threads: fsync, checkpoint (mostly waiting on disk, not CPU)"
WAITING = (LOOP_FSYNC, NATIVE_THREADS)


def part_of(frames: list[str]) -> str:
    if frames and "fsync" in frames[-1]:
        return LOOP_FSYNC
    if not frames:
        return "event loop in C, no Python frame (gevent's hub)"
    for frame in reversed(frames):
        for part, markers in PARTS:
            if any(marker in frame for marker in markers):
                return part
    return "other"


def breakdown(raw: str) -> list[tuple[str, int]]:
    """(part, samples) of the busiest thread (the event loop), then the other threads together."""
    stacks = []
    threads: Counter = Counter()
    for line in raw.splitlines():
        if not line.strip():
            continue
        stack, count = line.rsplit(" ", 1)
        frames = stack.split(";")
        stacks.append((frames, int(count)))
        threads[frames[0]] += int(count)
    loop = threads.most_common(1)[0][0] if threads else None
    parts: Counter = Counter()
    for frames, count in stacks:
        parts[NATIVE_THREADS if frames[0] != loop else part_of(frames[1:])] += count
    return parts.most_common()


def table(parts: list[tuple[str, int]], cpu_ms_per_roll: float | None = None) -> str:
    """Each part's share of the samples; with the CPU per roll, each busy part's CPU ms per roll,
    shared out over the samples that were not waiting on the disk."""
    total = sum(count for _, count in parts) or 1
    busy = sum(count for part, count in parts if part not in WAITING) or 1
    header = "| part | share of samples |" + (" CPU ms per roll |" if cpu_ms_per_roll else "")
    lines = [header, "|---|---:|" + ("---:|" if cpu_ms_per_roll else "")]
    for part, count in parts:
        cpu = "—" if part in WAITING else f"{count / busy * cpu_ms_per_roll:.3f}" if cpu_ms_per_roll else ""
        lines.append(f"| {part} | {count / total:.1%} |" + (f" {cpu} |" if cpu_ms_per_roll else ""))
    return "\n".join(lines)


def record(pid: int, seconds: float, output: Path) -> subprocess.Popen:
    """Starts py-spy on ``pid`` for ``seconds`` (it needs ptrace rights: root, or
    kernel.yama.ptrace_scope = 0)."""
    spy = Path(sys.executable).with_name("py-spy")
    return subprocess.Popen([str(spy), "record", "--pid", str(pid), "--duration", str(max(1, int(seconds))),
                             "--rate", "100", "--nonblocking", "--threads", "--format", "raw", "-o", str(output)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


if __name__ == "__main__":
    print(table(breakdown(Path(sys.argv[1]).read_text())))
