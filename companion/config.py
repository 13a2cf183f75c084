"""Settings, with embedded defaults, read from COMPANION_* environment variables."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


ADMIN_KEY_MIN_LENGTH = 32


class BadSetting(ValueError):
    """A setting the server must not start with; the message says which and what to do."""


def check_settings(config: dict) -> None:
    """Refuses settings that would leave the server open: an administrator key short enough to guess."""
    key = config.get("ADMIN_KEY")
    if key is not None and len(key) < ADMIN_KEY_MIN_LENGTH:
        raise BadSetting(f"COMPANION_ADMIN_KEY has {len(key)} characters: it needs at least {ADMIN_KEY_MIN_LENGTH}, "
                         "so that it cannot be guessed. Make one with: python -c \"import secrets; "
                         "print(secrets.token_urlsafe(32))\"")


def _int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return int(value) if value else default


def _secret_key(instance: Path) -> str:
    """A key kept under instance/ so that signed cookies survive restarts."""
    explicit = os.environ.get("COMPANION_SECRET_KEY")
    if explicit:
        return explicit
    path = instance / "secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        instance.mkdir(parents=True, exist_ok=True)
        key = secrets.token_hex(32)
        path.write_text(key)
        path.chmod(0o600)
        return key


def from_environment() -> dict:
    instance = Path(os.environ.get("COMPANION_INSTANCE", ROOT / "instance"))
    return {
        "HOST": os.environ.get("COMPANION_HOST", "0.0.0.0"),
        "PORT": _int("COMPANION_PORT", 5000),
        "DATABASE": os.environ.get("COMPANION_DATABASE", str(instance / "companion.sqlite3")),
        # The NFC reader: usb, usb:054c:06c3, tty:AMA0:pn532, udp (the emulator) or none.
        "READER": os.environ.get("COMPANION_READER", "usb"),
        "DB_SYNC": os.environ.get("COMPANION_DB_SYNC", "FULL"),
        "PUBLIC_URL": os.environ.get("COMPANION_PUBLIC_URL", "").rstrip("/"),
        "SECRET_KEY": _secret_key(instance),
        # Flood control per phone: a burst of RATE_BURST actions, then RATE_PER_SECOND (a fraction is fine);
        # its refusals the store decided count on their own (companion.limits.SeatRefusals).
        "RATE_BURST": _int("COMPANION_RATE_BURST", 10),
        "RATE_PER_SECOND": float(os.environ.get("COMPANION_RATE_PER_SECOND") or 5),
        # A seat whose screen left this many seconds ago is away: the host may stand in for it.
        "AWAY_SECONDS": float(os.environ.get("COMPANION_AWAY_SECONDS") or 5),
        # Seconds a round of random numbers that a draw waits for waits on a connected phone: a phone
        # silent that long is left out and the round starts again with the others' fresh values.
        "ROUND_SECONDS": float(os.environ.get("COMPANION_ROUND_SECONDS") or 4),
        # How many tables must agree on a pair's order before the server-wide house ranking takes it.
        "HOUSE_TABLES": _int("COMPANION_HOUSE_TABLES", 2),
        # Seconds a TV names the table that typed its code before showing it (the room may object).
        "PAIR_WAIT": float(os.environ.get("COMPANION_PAIR_WAIT") or 10),
        # How often the server settles timed waits past their deadline (seconds; 0: never by itself).
        "DEADLINE_TICK": float(os.environ.get("COMPANION_DEADLINE_TICK") or 1),
        # Extra game modules to load (comma-separated import paths), for games kept outside the package.
        "GAME_MODULES": [name for name in os.environ.get("COMPANION_GAME_MODULES", "").split(",") if name],
        "MESSAGE_QUEUE": os.environ.get("COMPANION_MESSAGE_QUEUE") or None,
        # The pages' scripts bundled and minified while static/bundles/ is up to date (companion/web/bundles.py);
        # 0: the modules as written, to read them in the browser.
        "BUNDLED": os.environ.get("COMPANION_BUNDLED", "1") != "0",
        # Reverse proxies in front (deploy/nginx.conf: 1) whose X-Forwarded-For names the phone.
        "PROXIES": _int("COMPANION_PROXIES", 0),
        # Per client address (see companion/limits.py): BURST/SECONDS, and open Socket.IO connections.
        "LIMIT_CREATE": os.environ.get("COMPANION_LIMIT_CREATE") or None,
        "LIMIT_JOIN": os.environ.get("COMPANION_LIMIT_JOIN") or None,
        "LIMIT_LOOKUP": os.environ.get("COMPANION_LIMIT_LOOKUP") or None,
        "LIMIT_ADMIN": os.environ.get("COMPANION_LIMIT_ADMIN") or None,
        "LIMIT_WATCH": os.environ.get("COMPANION_LIMIT_WATCH") or None,
        "LIMIT_HANDOFF": os.environ.get("COMPANION_LIMIT_HANDOFF") or None,
        "LIMIT_CONNECTIONS": _int("COMPANION_LIMIT_CONNECTIONS", 30),
        # Expiry (companion/expiry.py): finished and idle tables close, closed ones are deleted.
        "FINISHED_HOURS": float(os.environ.get("COMPANION_FINISHED_HOURS") or 6),
        "IDLE_HOURS": float(os.environ.get("COMPANION_IDLE_HOURS") or 24),
        "LOG_DAYS": float(os.environ.get("COMPANION_LOG_DAYS") or 30),
        "SWEEP_SECONDS": float(os.environ.get("COMPANION_SWEEP_SECONDS") or 300),
        # Lets a script name figures in the catalogue (PUT /api/amiibo/<id>/name); none by default.
        "ADMIN_KEY": os.environ.get("COMPANION_ADMIN_KEY") or None,
        "MAX_CONTENT_LENGTH": 16 * 1024,
        "BABEL_DEFAULT_LOCALE": "en",
        "LANGUAGES": ("en", "fr"),
    }


def tune_garbage_collector() -> None:
    """For a long-running server process, once the app is loaded.

    Start-up objects (modules, the app, templates) never become garbage:
    freezing them keeps full collections from walking them again and again.
    Each view creates many short-lived dicts, so young collections run less
    often. Both shortened the pauses every phone feels under load (bench/).
    """
    import gc

    thresholds = os.environ.get("COMPANION_GC_THRESHOLDS", "20000,20,20")
    gc.collect()
    gc.freeze()
    gc.set_threshold(*(int(value) for value in thresholds.split(",")))
