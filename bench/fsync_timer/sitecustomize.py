"""Times every ``os.fsync`` of a server the bench starts (``bench/run.py``): imported by Python at
start-up when this folder is on PYTHONPATH and ``BENCH_FSYNC_TIMES`` names a file.

The server's group commit (`companion.store.GroupSync`) makes actions durable with ``os.fsync`` of
the WAL, on the event loop while the disk is fast, in a native thread otherwise. A process waiting
in fsync sleeps: that wall time is not CPU time, and the bench reports it apart. This wrapper adds
each call's wall time and count to four doubles in the file (mapped shared, so gunicorn's forked
worker writes where the bench reads): seconds and calls on the main thread (the event loop), then
seconds and calls in other threads. No server code changes for it.
"""

import os

_path = os.environ.get("BENCH_FSYNC_TIMES")

if _path:
    import _thread
    import mmap
    import struct
    import time

    _FORMAT = "4d"
    with open(_path, "wb") as _file:
        _file.write(bytes(struct.calcsize(_FORMAT)))
    with open(_path, "r+b") as _file:
        _totals = mmap.mmap(_file.fileno(), struct.calcsize(_FORMAT))
    _main_thread = _thread.get_ident()  # before gevent patches the module: the OS thread's own id
    _get_ident = _thread.get_ident
    _lock = _thread.allocate_lock()  # an OS lock: the loop's fsync and a native thread's may end together
    _fsync = os.fsync

    def _timed_fsync(fd):
        started = time.perf_counter()
        try:
            return _fsync(fd)
        finally:
            took = time.perf_counter() - started
            where = 0 if _get_ident() == _main_thread else 2
            with _lock:
                values = list(struct.unpack_from(_FORMAT, _totals))
                values[where] += took
                values[where + 1] += 1
                struct.pack_into(_FORMAT, _totals, 0, *values)

    os.fsync = _timed_fsync


def read_totals(path) -> dict:
    """The totals so far: seconds and calls on the event loop and in threads."""
    import struct

    with open(path, "rb") as file:
        loop_seconds, loop_calls, thread_seconds, thread_calls = struct.unpack("4d", file.read(32))
    return {"loop_seconds": loop_seconds, "loop_calls": int(loop_calls), "thread_seconds": thread_seconds,
            "thread_calls": int(thread_calls)}
