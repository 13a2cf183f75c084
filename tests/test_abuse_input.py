"""Hostile input against the real server process: JSON nested 8,000 deep or
malformed (a 400, never a 500, over HTTP and Socket.IO), the security headers
on every kind of answer (Socket.IO's included), and names, figure names and
die faces that would lie on another screen (control, bidi-override and
zero-width characters) refused with a clear message, nothing changed."""

from __future__ import annotations

import pytest
import requests

from tests.helpers import ENTROPY, bearer
from tests.screen import Screen
from tests.server import server_fixture

DEEP = 8000
HEADERS = {"Content-Security-Policy": "frame-ancestors 'none'", "X-Content-Type-Options": "nosniff",
           "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer"}


server = server_fixture("abuse-input")


def new_table(server, names=("Ana",), **options) -> dict:
    created = requests.post(f"{server.url}/api/tables", json={"game": "dice", "options": options}, timeout=10)
    assert created.status_code == 201, created.text
    table = {**created.json(), "seats": {}}
    for name in names:
        seat = requests.post(f"{server.url}/api/tables/{table['code']}/seats", json={"name": name, "entropy": ENTROPY},
                             timeout=10)
        assert seat.status_code == 201, seat.text
        table["seats"][name] = seat.json()
    return table


def log_of(server, code: str) -> list:
    return requests.get(f"{server.url}/api/tables/{code}/log", timeout=10).json()["entries"]


def post_raw(server, path: str, body: str, **headers):
    return requests.post(server.url + path, data=body.encode(), timeout=10,
                         headers={"Content-Type": "application/json", **headers})


@pytest.mark.parametrize("attack, body", [
    ("nested lists 8000 deep", b"[" * DEEP + b"]" * DEEP),
    ("nested objects 3000 deep (16 KiB at most)", b'{"":' * 3000 + b"1" + b"}" * 3000),
    ("truncated JSON", b'{"game": "dice", "options": {'),
    ("not JSON at all", b"game=dice"),
    ("a JSON list, not an object", b'["dice"]'),
    ("invalid UTF-8", b'{"game": "\xff"}'),
])
def test_a_malformed_or_deep_body_is_a_400_with_a_clear_message(server, attack, body):
    response = requests.post(server.url + "/api/tables", data=body, headers={"Content-Type": "application/json"},
                             timeout=10)
    assert response.status_code == 400, (attack, response.status_code, response.text[:200])
    assert response.json() == {"ok": False, "error": "The body must be a JSON object."}


def test_a_deep_action_changes_nothing_and_the_table_plays_on(server):
    table = new_table(server)
    token = table["seats"]["Ana"]["token"]
    before = log_of(server, table["code"])
    deep_action = '{"type": "roll", "x": ' + "[" * DEEP + "]" * DEEP + "}"
    response = post_raw(server, f"/api/tables/{table['code']}/actions", deep_action, **bearer(token))
    assert response.status_code == 400 and response.json()["ok"] is False
    assert log_of(server, table["code"]) == before
    rolled = requests.post(f"{server.url}/api/tables/{table['code']}/actions", json={"type": "roll"},
                           headers=bearer(token), timeout=10)
    assert rolled.status_code == 200 and rolled.json()["ok"] is True


def test_a_socket_io_packet_nested_8000_deep_changes_nothing_and_others_play_on(server):
    table = new_table(server, names=("Ana", "Bo"))
    attacker = Screen(server.url, table["code"], table["seats"]["Ana"]["token"])
    honest = Screen(server.url, table["code"], table["seats"]["Bo"]["token"])
    try:
        attacker.wait_for(lambda view: True)
        before = log_of(server, table["code"])
        # Written by hand: the client's own encoder would refuse to nest this deep.
        attacker.client.eio.send('2["act",{"type":"roll","x":' + "[" * DEEP + "]" * DEEP + "}]")
        attacker.client.eio.send('2["act",{"type":"roll","x":' + '{"a":' * DEEP + "1" + "}" * DEEP + "}]")
        # The same connection's next action is read after them: only it leaves a trace.
        attacker.play({"type": "roll"})
        added = log_of(server, table["code"])[len(before):]
        assert [entry["event"]["type"] for entry in added if entry["kind"] == "event"] == ["rolled"]
        assert honest.play({"type": "roll"})["ok"] is True
    finally:
        attacker.close()
        honest.close()


def socket_io_handshake(server):
    return requests.get(f"{server.url}/socket.io/?EIO=4&transport=polling", timeout=10)


@pytest.mark.parametrize("answer", ["home page", "phone page of an unknown table", "static script", "API 201",
                                    "API 404", "API 405", "Socket.IO handshake", "Socket.IO bad request",
                                    "Socket.IO unknown session"])
def test_security_headers_on_every_answer(server, answer):
    url = server.url
    response = {
        "home page": lambda: requests.get(url + "/", timeout=10),
        "phone page of an unknown table": lambda: requests.get(url + "/t/ZZZZ", timeout=10),
        "static script": lambda: requests.get(url + "/static/js/ui.js", timeout=10),
        "API 201": lambda: requests.post(url + "/api/tables", json={"game": "dice"}, timeout=10),
        "API 404": lambda: requests.get(url + "/api/nothing", timeout=10),
        "API 405": lambda: requests.delete(url + "/api/games", timeout=10),
        "Socket.IO handshake": lambda: socket_io_handshake(server),
        "Socket.IO bad request": lambda: requests.get(url + "/socket.io/?EIO=3&transport=polling", timeout=10),
        "Socket.IO unknown session": lambda: requests.get(url + "/socket.io/?EIO=4&transport=polling&sid=nope",
                                                          timeout=10),
    }[answer]()
    # A script or a style sheet is no document: the browser obeys no policy or framing rule on it (they are
    # left out: 250 bytes a file on a phone's first load), only nosniff, which keeps it a script.
    document_only = ("Content-Security-Policy", "X-Frame-Options") if answer == "static script" else ()
    for name, expected in HEADERS.items():
        if name in document_only:
            assert name not in response.headers, (answer, name, response.headers)
        else:
            assert expected in response.headers.get(name, ""), (answer, name, response.headers)


BAD_NAMES = [
    ("right-to-left override", "Ana\u202egnp.exe", "invisible or direction-changing"),
    ("left-to-right isolate", "\u2066Ana", "invisible or direction-changing"),
    ("right-to-left mark", "Ana\u200f", "invisible or direction-changing"),
    ("zero-width space inside", "An\u200ba", "invisible or direction-changing"),
    ("zero-width joiner between Latin letters", "A\u200dna", "invisible or direction-changing"),
    ("byte order mark", "\ufeffAna", "invisible or direction-changing"),
    ("Hangul filler only", "\u3164", "invisible or direction-changing"),
    ("line separator", "Ana\u2028Bo", "invisible or direction-changing"),
    ("terminal escape", "Ana\x1b[2J", "control characters"),
    ("newline", "Ana\nBo", "control characters"),
    ("NUL", "Ana\x00", "control characters"),
]


@pytest.mark.parametrize("attack, name, reason", BAD_NAMES, ids=[case[0] for case in BAD_NAMES])
def test_a_name_that_would_lie_on_other_screens_is_refused(server, attack, name, reason):
    table = new_table(server, names=())
    before = log_of(server, table["code"])
    response = requests.post(f"{server.url}/api/tables/{table['code']}/seats", json={"name": name, "entropy": ENTROPY}, timeout=10)
    assert response.status_code == 400 and reason in response.json()["error"], response.text
    assert log_of(server, table["code"]) == before


def test_the_host_cannot_rename_a_seat_with_a_bidi_override_and_the_refusal_is_translated(server):
    table = new_table(server)
    host = Screen(server.url, table["code"], table["host_token"])
    try:
        answer = host.act({"type": "table.rename", "seat": 1, "name": "\u202eanA"})
        assert answer["ok"] is False and "direction-changing" in answer["error"]
    finally:
        host.close()
    french = requests.post(f"{server.url}/api/tables/{table['code']}/seats?lang=fr", json={"name": "Bo\u200b", "entropy": ENTROPY},
                           timeout=10)
    assert french.status_code == 400 and "invisibles" in french.json()["error"]


@pytest.mark.parametrize("name", ["👨‍👩‍👧", "علی‌رضا", "🏴󠁧󠁢󠁳󠁣󠁴󠁿 Iain", "Zoë", "क्‍षमा"])
def test_names_in_any_script_and_emoji_sequences_are_welcome(server, name):
    table = new_table(server, names=())
    response = requests.post(f"{server.url}/api/tables/{table['code']}/seats", json={"name": name, "entropy": ENTROPY}, timeout=10)
    assert response.status_code == 201, response.text


@pytest.mark.parametrize("attack, faces", [
    ("bell character", ["1", "\x07"]),
    ("right-to-left override", ["heads", "tails\u202e"]),
    ("zero-width space", ["\u200b", "x"]),
    ("terminal escape", ["\x1b[31mred", "blue"]),
])
def test_a_custom_die_face_that_would_lie_is_refused(server, attack, faces):
    options = {"die": "custom", "faces": faces}
    response = requests.post(f"{server.url}/api/tables", json={"game": "dice", "options": options}, timeout=10)
    assert response.status_code == 400
    assert "no control, invisible or direction-changing characters" in response.json()["error"]


def test_a_figure_name_with_a_bidi_override_is_refused(server):
    table = new_table(server)
    token = table["seats"]["Ana"]["token"]
    picked = requests.post(f"{server.url}/api/tables/{table['code']}/actions", timeout=10, headers=bearer(token),
                           json={"type": "figure.pick", "amiibo_id": "0x3f00000004290502"})
    assert picked.status_code == 200, picked.text
    figure = picked.json()["events"][0]["figure"]["id"]
    response = requests.post(f"{server.url}/api/tables/{table['code']}/actions", timeout=10,
                             headers=bearer(table["host_token"]),
                             json={"type": "table.name_figure", "figure": figure, "name": "Mario\u202eoiraM"})
    assert response.status_code == 400 and "direction-changing" in response.json()["error"]


@pytest.mark.parametrize("name", ["Ray\u202eman", "Glo\u200bbox", "Bar\x1bbara"])
def test_a_rayman_character_name_that_would_lie_is_refused(name):
    from tests.test_rayman import new_game, refused

    refused(new_game(2), 1, {"type": "character", "name": name}, "direction-changing")


# Inputs that crashed the server (issue 24): each gets a clear 400 and changes nothing -------------
@pytest.mark.parametrize("number", ["²", "x", "-1", "1.0", "9" * 40])
def test_a_game_number_that_is_not_ascii_digits_is_a_400_on_the_log_and_the_verify_page(server, number):
    table = new_table(server)
    log = requests.get(f"{server.url}/api/tables/{table['code']}/log", params={"game": number}, timeout=10)
    assert log.status_code == 400, (number, log.text[:200])
    assert log.json() == {"ok": False, "error": "The game number is a whole number, such as 1 or 2."}
    page = requests.get(f"{server.url}/t/{table['code']}/verify", params={"game": number, "lang": "fr"}, timeout=10)
    assert page.status_code == 400 and "Le numéro de la partie est un nombre entier" in page.text, number
    assert requests.get(f"{server.url}/t/{table['code']}/verify", params={"game": "1"}, timeout=10).status_code == 200


@pytest.mark.parametrize("changed", [["faces"], {"option": "faces"}, 3, True])
def test_a_changed_field_that_is_not_an_option_name_is_a_400(server, changed):
    body = {"game": "dice", "options": {"die": "custom", "faces": []}, "changed": changed}
    response = requests.post(f"{server.url}/api/options/check", json=body, timeout=10)
    assert response.status_code == 400, response.text[:200]
    assert response.json() == {"ok": False, "error": "The field “changed” is the name of one option of the game."}
    body["changed"] = "faces"  # the same check with a name: the refusal is the option's, next to it
    named = requests.post(f"{server.url}/api/options/check", json=body, timeout=10)
    assert named.status_code == 200 and named.json()["ok"] is False and named.json()["option"] == "faces"


def send_with_answer(screen: Screen, raw_event: str) -> dict:
    """Sends a Socket.IO event written by hand (the client's encoder refuses to nest this deep)
    with an acknowledgement id, and returns the server's answer to it."""
    import queue

    answers: "queue.Queue[dict]" = queue.Queue()
    ack = screen.client._generate_ack_id("/", lambda *data: answers.put(data[0] if data else None))
    screen.client.eio.send(f"2{ack}{raw_event}")
    return answers.get(timeout=10)


@pytest.mark.parametrize("shape", ["lists", "objects"])
def test_a_socket_io_act_nested_too_deep_is_answered_and_changes_nothing(server, shape):
    table = new_table(server)
    phone = Screen(server.url, table["code"], table["seats"]["Ana"]["token"])
    try:
        phone.wait_for(lambda view: True)
        before = log_of(server, table["code"])
        deep = "[" * DEEP + "]" * DEEP if shape == "lists" else '{"a":' * DEEP + "1" + "}" * DEEP
        answer = send_with_answer(phone, '["act",{"type":"roll","x":' + deep + "}]")
        assert answer == {"ok": False, "error": "The action is nested too deeply.", "status": 400}
        assert log_of(server, table["code"]) == before
        assert phone.act({"type": "roll"})["ok"] is True  # the same connection plays on
    finally:
        phone.close()


# A bot taps faster than a thumb: no per-seat rate limit in its way.
fast_server = server_fixture("abuse-input-fast", {"COMPANION_RATE_BURST": "1000", "COMPANION_RATE_PER_SECOND": "1000"})


@pytest.fixture(scope="module")
def sharing_duel(fast_server):
    """A Universalis duel where Koopa (PF 3), blocked by Boo and Bill, waits for its PF to be shared."""
    from tests.test_universalis_server import card_id, pass_turn, play_character, step_to

    created = requests.post(f"{fast_server.url}/api/tables", json={"game": "universalis"}, timeout=10).json()
    seats = [requests.post(f"{fast_server.url}/api/tables/{created['code']}/seats",
                           json={"name": name, "entropy": ENTROPY}, timeout=10).json() for name in ("Ana", "Bo")]
    requests.post(f"{fast_server.url}/api/tables/{created['code']}/actions", json={"type": "table.start"},
                  headers=bearer(created["host_token"]), timeout=10).raise_for_status()
    phones = {seat["seat"]: Screen(fast_server.url, created["code"], seat["token"]) for seat in seats}
    first_seat = next(iter(phones.values())).wait_for_game(lambda game: True)["game"]["active"]
    first = phones[first_seat]
    second = next(phone for seat, phone in phones.items() if seat != first_seat)
    step_to(first, "prep1")
    play_character(first, "Koopa", cost=3, pf=3, pc=5)
    pass_turn(first)
    step_to(second, "prep1")
    play_character(second, "Boo", cost=2, pf=1, pc=3)
    pass_turn(second)
    step_to(first, "prep1")
    second.play({"type": "play", "card": {"kind": "character", "name": "Bill", "cost": 0, "pf": 2, "pc": 2},
                 "free": True, "override": True})  # a card allows it, as in tests/test_universalis_server.py
    first.wait_for_game(lambda g: any(card["name"] == "Bill" for card in g["in_play"]))
    game = step_to(first, "attackers")
    koopa, boo, bill = (card_id(game, name) for name in ("Koopa", "Boo", "Bill"))
    first.play({"type": "attack", "attackers": [koopa]})
    second.wait_for_game(lambda g: g["phase"] == "blockers")
    second.play({"type": "block", "blocks": {str(boo): koopa, str(bill): koopa}})
    first.wait_for_game(lambda g: g["phase"] == "sharing")
    yield {"code": created["code"], "phone": first, "koopa": str(koopa), "boo": str(boo), "bill": str(bill)}
    for phone in phones.values():
        phone.close()


@pytest.mark.parametrize("key", ["x", "1.0", "²", "-1", " 1", "01"])
def test_a_universalis_share_with_a_key_that_names_no_blocker_is_refused(fast_server, sharing_duel, key):
    duel = sharing_duel
    before = log_of(fast_server, duel["code"])
    shares = {duel["boo"]: 1, duel["bill"]: 0, key: 2}  # 3 in all: Koopa's PF, a part of it to no card
    answer = duel["phone"].act({"type": "share", "shares": {duel["koopa"]: shares}})
    assert answer == {"ok": False, "status": 400, "error": "Say how each attacker's PF is shared among its blockers."}
    assert log_of(fast_server, duel["code"]) == before
    assert duel["phone"].latest["game"]["phase"] == "sharing"
