"""Which event loop the process runs, and how to keep long work off it.

Under gevent (gunicorn's gevent worker, ``python app.py``) every phone of the server is served by
one loop: a call that holds it (an fsync, compressing a large file) holds every screen. Elsewhere
(the tests' threads, a command-line tool) each request has a thread of its own.
"""

from __future__ import annotations

from typing import Any, Callable


def gevent_is_running() -> bool:
    """True when the process was monkey-patched by gevent."""
    try:
        from gevent import monkey
    except ImportError:
        return False
    return monkey.is_module_patched("socket")


def off_the_loop(function: Callable[..., Any], *args: Any) -> Any:
    """Run ``function`` in a native thread under gevent, so the loop serves the phones meanwhile (what
    releases the GIL, such as zlib or an fsync, then runs beside it); directly otherwise."""
    if not gevent_is_running():
        return function(*args)
    import gevent

    return gevent.get_hub().threadpool.apply(function, args)
