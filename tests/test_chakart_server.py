"""Chakart end to end: the real server process, two python-socketio phones, a
host screen and a spectator. A short game with Mario's stealth move is played
twice, the queen hiding on a different square each time: everything the
opponent's phone, the host screen, the spectator and the JSON API received
before she comes back is identical in both games — so none of it can tell
where she went. Bad input over Socket.IO changes nothing."""

from __future__ import annotations

import pytest
import requests

from tests.helpers import ENTROPY, bearer
from tests.screen import WAIT, Screen
from tests.server import ServerProcess, server_fixture

# A bot plays faster than a thumb; a phone that leaves is away at once.
FAST = {"COMPANION_RATE_BURST": "1000", "COMPANION_RATE_PER_SECOND": "1000", "COMPANION_AWAY_SECONDS": "0"}


# One server for the module: each test opens tables of its own (each with its own seed), as the
# stealth test's two games always had.
server = server_fixture("chakart-server", FAST)


def open_game(server: ServerProcess) -> dict:
    created = requests.post(f"{server.url}/api/tables", json={"game": "chakart", "options": {"colours": "first"}},
                            timeout=WAIT)
    assert created.status_code == 201, created.text
    table = created.json()
    tokens = {}
    for name in ("Ana", "Bo"):
        joined = requests.post(f"{server.url}/api/tables/{table['code']}/seats", json={"name": name, "entropy": ENTROPY},
                               timeout=WAIT)
        assert joined.status_code == 201, joined.text
        tokens[name] = joined.json()["token"]
    started = requests.post(f"{server.url}/api/tables/{table['code']}/actions", json={"type": "table.start"},
                            headers=bearer(table["host_token"]), timeout=WAIT)
    assert started.status_code == 200, started.text
    code = table["code"]
    return {"code": code, "tokens": tokens, "white": Screen(server.url, code, tokens["Ana"]),
            "black": Screen(server.url, code, tokens["Bo"]), "host": Screen(server.url, code, table["host_token"]),
            "spectator": Screen(server.url, code, None)}


def at_ply(screen: Screen, ply: int, phase: str = "move") -> dict:
    """The screen's view once it has seen the game reach this ply and phase (plies only grow)."""
    return screen.wait_for_game(lambda g: (g["ply"], g["phase"]) == (ply, phase) or g["ply"] > ply)["game"]


def turn(phone: Screen, action: dict, ply: int) -> None:
    """A move and "board done" at this ply; then the other side's turn has begun."""
    phone.play(action)
    phone.play({"type": "board_done"})
    at_ply(phone, ply + 1)


def game_parts(messages: list) -> list:
    """What a screen received, without the clock: the game of each view (by version) and each answer."""
    views = sorted(((data["version"], data["game"]) for event, data in messages if event == "view"),
                   key=lambda item: item[0])
    return views + [data for event, data in messages if event == "answer"]


def api_snapshot(server: ServerProcess, code: str, token: str | None) -> tuple:
    headers = bearer(token) if token else {}
    view = requests.get(f"{server.url}/api/tables/{code}", headers=headers, timeout=WAIT).json()
    log = requests.get(f"{server.url}/api/tables/{code}/log", timeout=WAIT).json()
    entries = [{key: value for key, value in entry.items() if key != "at"} for entry in log["entries"]
               if entry.get("kind") in ("event", "draw")]
    return view["game"], entries


def stealth_game(server: ServerProcess, hiding: str) -> dict:
    table = open_game(server)
    white, black = table["white"], table["black"]
    turn(white, {"type": "move", "from": "e2", "to": "e4"}, ply=0)
    at_ply(black, 1)
    turn(black, {"type": "move", "from": "e7", "to": "e5"}, ply=1)
    at_ply(white, 2)
    white.play({"type": "stealth", "from": "d1", "to": hiding})
    assert at_ply(white, 2, "board")["hidden_queen"] == hiding
    white.play({"type": "board_done"})
    at_ply(black, 3)
    black.play({"type": "move", "from": "g8", "to": "f6"})
    for name in ("black", "host", "spectator"):
        at_ply(table[name], 3, "board")
    before_reveal = {name: game_parts(table[name].messages) for name in ("black", "host", "spectator")}
    before_reveal["api as Bo"] = api_snapshot(server, table["code"], table["tokens"]["Bo"])
    before_reveal["api as a spectator"] = api_snapshot(server, table["code"], None)
    owner = game_parts(white.messages)
    black.play({"type": "board_done"})
    revealed = at_ply(black, 4)
    for screen in ("white", "black", "host", "spectator"):
        table[screen].close()
    return {"before": before_reveal, "owner": owner, "revealed": revealed}


def test_the_stealth_queens_square_reaches_no_other_screen_before_she_comes_back(server):
    on_h5, on_g4 = stealth_game(server, "h5"), stealth_game(server, "g4")
    for channel in on_h5["before"]:
        assert on_h5["before"][channel] == on_g4["before"][channel], channel
    assert on_h5["before"]["black"], "the opponent's phone received nothing"
    assert on_h5["owner"] != on_g4["owner"], "the comparison could not tell the squares apart even on the owner's phone"
    # Once back, she is where she went, on every screen.
    assert on_h5["revealed"]["pieces"]["h5"] == "Q" and on_g4["revealed"]["pieces"]["g4"] == "Q"
    assert on_h5["revealed"]["report"]["revealed"]["square"] == "h5"


def test_bad_input_over_socketio_changes_nothing(server):
    table = open_game(server)
    white, black = table["white"], table["black"]
    version = white.wait_for_game(lambda g: True)["version"]
    tried = {
        "another seat's move (Black in White's turn)": (black, {"type": "move", "from": "e7", "to": "e5"}),
        "an illegal move": (white, {"type": "move", "from": "e2", "to": "e5"}),
        "a malformed square": (white, {"type": "move", "from": "e2", "to": 42}),
        "an unknown action": (white, {"type": "castle"}),
        "board done before moving": (white, {"type": "board_done"}),
        "the host's table action from a seat": (white, {"type": "table.close"}),
    }
    for what, (phone, action) in tried.items():
        answer = phone.act(action)
        assert answer["ok"] is False and answer["error"], what
    view = requests.get(f"{server.url}/api/tables/{table['code']}", timeout=WAIT).json()
    assert view["version"] == version and view["game"]["pieces"]["e2"] == "P"
    for screen in ("white", "black", "host", "spectator"):
        table[screen].close()


@pytest.mark.parametrize("token_kind", ["forged", "spectator"])
def test_a_move_without_a_seats_token_is_refused(server, token_kind):
    table = open_game(server)
    headers = bearer("forged-token-123") if token_kind == "forged" else {}
    answer = requests.post(f"{server.url}/api/tables/{table['code']}/actions",
                           json={"type": "move", "from": "e2", "to": "e4"}, headers=headers, timeout=WAIT)
    assert answer.status_code == 401
    for screen in ("white", "black", "host", "spectator"):
        table[screen].close()


def test_a_phone_that_leaves_mid_turn_never_blocks_the_game(server):
    """White's phone leaves before "board done": the host confirms the board for it (named in both
    languages), then takes White out: Black wins by forfeit."""
    table = open_game(server)
    white, black, host = table["white"], table["black"], table["host"]
    white.play({"type": "move", "from": "e2", "to": "e4"})
    white.close()
    seat = at_ply(black, 0, "board") and black.latest["game"]["seats"]["w"]
    host.wait_away(seat)
    view = host.wait_for(lambda v: v["table"].get("proxy", {}).get(str(seat)))
    choice = view["table"]["proxy"][str(seat)][0]
    assert choice["type"] == "board_done" and choice["label"]["fr"] == "le plateau est prêt"
    host.play({"type": "table.decide", "seat": seat, "action": choice})
    at_ply(black, 1)
    host.play({"type": "table.withdraw", "seat": seat})
    over = black.wait_for(lambda v: v["table"]["status"] == "over")
    assert over["table"]["outcome"]["winners"] == [black.latest["game"]["seats"]["b"]]
    for screen in ("black", "host", "spectator"):
        table[screen].close()
