"""What the verify page imports from the rules zip (`companion.rules_bundle`) before it replays a log."""

from __future__ import annotations

import importlib
import importlib.util
import sys


def games_of(document: object) -> list:
    """The games a log plays, as it names them (any JSON value): the one it names and those its
    ``created`` and ``new_game`` entries name (where `companion.verify` reads them)."""
    if not isinstance(document, dict):
        return [None]
    entries = document.get("entries") if isinstance(document.get("entries"), list) else []
    return [document.get("game")] + [entry.get("game") for entry in entries if isinstance(entry, dict)
                                     and entry.get("kind") == "table" and entry.get("type") in ("created", "new_game")]


def import_rules_for(document: object) -> None:
    """Imports the rules a log's replay needs: the verifier and the games the log plays, not every game.

    The verify page's Python (Pyodide) compiles each module from source as it imports it, seconds on a
    phone: ``import companion.games`` would compile every game. That package's ``__init__`` only imports
    the games (each registers itself in `base`'s ``REGISTRY``, and its checks) and re-exports ``REGISTRY``:
    here the package is created without running it, then given the logged games. A name that is no game
    of the zip runs the whole ``__init__``, as before (the replay then says it does not know the game).
    Nothing happens once ``companion.games`` is imported (the CLI and the server import it whole).

    A module of its own that imports nothing of the rules: importing any module of the games would run
    the package's ``__init__``, and `companion.rules_bundle` imports what builds zips (more to compile)."""
    if "companion.games" in sys.modules:
        return
    spec = importlib.util.find_spec("companion.games")
    package = importlib.util.module_from_spec(spec)
    sys.modules["companion.games"] = package
    from companion.games.base import REGISTRY

    package.REGISTRY = REGISTRY  # what `Replay` takes from the package
    games = games_of(document)
    for game in games:
        if isinstance(game, str) and game.isidentifier() and importlib.util.find_spec(f"companion.games.{game}"):
            importlib.import_module(f"companion.games.{game}")
    if not all(isinstance(game, str) and game in REGISTRY for game in games):
        spec.loader.exec_module(package)
