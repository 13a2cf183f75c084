"""A seat flooding its own table (issue 24 §5), against the real server process with real Socket.IO
phones: its refusals write nothing, and once it has spent its refusals it is refused before the store
(held, 429), while the honest phone at its table and another table play on.

The server runs with RATE_PER_SECOND 0.5: the seat's refusals then come back at 0.1 a second
(`companion.limits.SeatRefusals`), so none comes back during the test and each step's answer is
known; the seat's own rate (10 at once) still has actions left when its refusals are spent, which is
what tells the two apart."""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager

import pytest
import requests
import socketio

from companion.limits import SeatRefusals
from tests.helpers import ENTROPY, bearer
from tests.helpers import new_table as new_table_in_process
from tests.phones import ChainPhone, answer_rounds
from tests.screen import Screen
from tests.server import ServerProcess, server_fixture

TIMEOUT = 20
DRAW_WAITS = "Your draw waits for the phones' random numbers: you can act again once it is drawn."
TOO_MANY = "Too many actions: wait a moment and try again."
DRAW_WAITS_FR = ("Votre tirage attend les nombres aléatoires des téléphones\u00a0: vous pourrez agir à nouveau "
                 "une fois qu’il sera tiré.")
TOO_MANY_FR = "Trop d’actions\u00a0: attendez un instant et réessayez."
SPECTATOR_REFUSED_FR = "Il faut le jeton d’une place ou de l’hôte pour agir."


server = server_fixture("flood-seats", {"COMPANION_RATE_BURST": "10", "COMPANION_RATE_PER_SECOND": "0.5"})


def new_table(server) -> str:
    created = requests.post(f"{server.url}/api/tables", json={"game": "dice", "options": {}}, timeout=TIMEOUT)
    assert created.status_code == 201, created.text
    return created.json()["code"]


def connected(url: str, code: str, token: str) -> Screen:
    screen = Screen(url, code, token)
    screen.wait_for(lambda view: True)  # its first view came: the server counts it as here
    return screen


def phone_speaking(language: str, url: str, code: str, token: str) -> socketio.Client:
    """A phone's connection whose browser asks for ``language`` (its Accept-Language), connected: the
    server has run its connect handler once this returns."""
    client = socketio.Client(reconnection=False)
    client.connect(url, auth={"table": code, "token": token}, headers={"Accept-Language": language},
                   transports=["websocket"], wait_timeout=TIMEOUT)
    return client


def store_rows(server) -> dict[str, int]:
    """What the operator counts in the database file: every table's rows."""
    with sqlite3.connect(f"file:{server.database}?mode=ro", uri=True) as db:
        names = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {name: db.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0] for name in names}


def table_stamp(server, code: str) -> tuple:
    """The table's row as the operator reads it: its version and the time of its last change."""
    with sqlite3.connect(f"file:{server.database}?mode=ro", uri=True) as db:
        return db.execute("SELECT version, updated_at FROM tables WHERE code = ?", (code,)).fetchone()


@contextmanager
def write_lock_held(server):
    """Another connection holds the database's write lock: an action that opens a write transaction
    waits for it (SQLite's busy timeout, 30 s, longer than a test's call may wait)."""
    locker = sqlite3.connect(server.database, timeout=0)
    try:
        locker.execute("BEGIN IMMEDIATE")
        yield
        locker.rollback()
    finally:
        locker.close()


def test_a_flooding_seat_writes_nothing_and_is_refused_before_the_store_while_others_play(server):
    code = new_table(server)
    ana, mallory = ChainPhone(server.url, code, "Ana"), ChainPhone(server.url, code, "Mallory")
    screens = {"ana": connected(server.url, code, ana.token), "mallory": connected(server.url, code, mallory.token)}
    answer_rounds(ana, mallory)
    # Mallory's roll is committed and waits for a round of both phones, which Mallory never answers.
    rolled = screens["mallory"].act({"type": "roll"})
    assert rolled["ok"] and rolled["events"] == [{"type": "draw_waits", "seat": mallory.seat}], rolled
    rows, stamp = store_rows(server), table_stamp(server, code)
    with write_lock_held(server):
        # Its next rolls are refused as before, without a write transaction: decided on the server's copy
        # of the table (before, each waited for this lock). Each after the first spends one of its five
        # refusals, with an id or without.
        refused = [screens["mallory"].client.call("act", {"type": "roll", **({"id": f"m{n}"} if n % 2 else {})},
                                                  timeout=10) for n in range(6)]
        assert [answer["status"] for answer in refused] == [409] * 6
        assert {answer["error"] for answer in refused} == {DRAW_WAITS}
        # Past its refusals, its next rolls are answered 429 at once: nothing reaches the store.
        held = [screens["mallory"].client.call("act", {"type": "roll"}, timeout=10) for _ in range(2)]
    for answer in held:
        assert answer["status"] == 429 and answer["error"] == TOO_MANY and answer["retry_after"] >= 1
    assert store_rows(server) == rows and table_stamp(server, code) == stamp  # eight refusals changed nothing
    # Ana, at the same table and from the same address, is not slowed: her value for the round goes in.
    assert ana.asked()
    assert screens["ana"].act({"type": "entropy.reveal", "value": ana.chain[ana.k + 1]})["ok"] is True
    assert not ana.asked()
    # Another table's phone rolls while Mallory is still refused before the store.
    other = new_table(server)
    bo = requests.post(f"{server.url}/api/tables/{other}/seats", json={"name": "Bo", "entropy": ENTROPY},
                       timeout=TIMEOUT).json()
    bos_screen = connected(server.url, other, bo["token"])
    assert bos_screen.act({"type": "roll"})["ok"] is True
    assert screens["mallory"].act({"type": "roll"})["status"] == 429
    for screen in [*screens.values(), bos_screen]:
        screen.close()


def test_a_copy_another_process_made_old_refuses_nothing(server):
    """Two server processes on one database: the first's copy of a table still shows Mallory's draw
    waiting after the second drew it. Mallory's next roll through the first is not refused from that
    old copy: the store decides it, on the table as it is."""
    twin = ServerProcess(server.workdir, extra_env={"COMPANION_RATE_BURST": "10",
                                                    "COMPANION_RATE_PER_SECOND": "0.5"}).start()
    try:
        code = new_table(server)
        ana, mallory = ChainPhone(server.url, code, "Ana"), ChainPhone(server.url, code, "Mallory")
        screens = [connected(server.url, code, ana.token), connected(server.url, code, mallory.token)]
        answer_rounds(ana, mallory)
        assert screens[1].act({"type": "roll"})["events"] == [{"type": "draw_waits", "seat": mallory.seat}]
        assert screens[1].act({"type": "roll"})["error"] == DRAW_WAITS  # the first process's copy: current
        for phone in (ana, mallory):  # through the second process, both answer the round: the roll is drawn
            phone.url = twin.url
        answer_rounds(ana, mallory)
        assert ana.view()["table"]["draw"]["waits"] is False  # as the second process sees the table
        again = screens[1].act({"type": "roll"})
        assert again["ok"] is True, again
        for screen in screens:
            screen.close()
    finally:
        twin.stop()


@pytest.mark.parametrize("language, draw_waits, too_many", [("fr", DRAW_WAITS_FR, TOO_MANY_FR),
                                                           ("en", DRAW_WAITS, TOO_MANY)])
def test_a_flooding_phone_is_refused_in_its_own_language(server, language, draw_waits, too_many):
    """Its refusals are answered outside its connection's request, in the language it connected with:
    the store's (409), then those held before the store (429), each as it was within the request."""
    code = new_table(server)
    ana, mallory = ChainPhone(server.url, code, "Ana"), ChainPhone(server.url, code, "Mallory")
    anas = connected(server.url, code, ana.token)
    mallorys = phone_speaking(language, server.url, code, mallory.token)
    answer_rounds(ana, mallory)
    assert mallorys.call("act", {"type": "roll"}, timeout=TIMEOUT)["ok"] is True  # its draw now waits
    refused = [mallorys.call("act", {"type": "roll"}, timeout=TIMEOUT) for _ in range(6)]
    assert refused == [{"ok": False, "error": draw_waits, "status": 409}] * 6
    held = mallorys.call("act", {"type": "roll"}, timeout=TIMEOUT)
    assert held["retry_after"] >= 1 and held == {"ok": False, "error": too_many, "status": 429,
                                                 "retry_after": held["retry_after"]}
    mallorys.disconnect()
    anas.close()


NOT_IN_POOL = "Your phone's random numbers are not in the pool yet: wait for the other phones' contributions."


def test_over_the_json_api_a_seats_refusals_count_as_over_socketio(server):
    """A script flooding a seat's actions over HTTP spends the same refusals (before, each one opened
    a transaction, as many as the seat's rate allowed); past them it is told to wait, before the store."""
    code = new_table(server)
    mallory = ChainPhone(server.url, code, "Mallory")  # never answers its join's round: never in the pool
    rows = store_rows(server)
    refused = [mallory.post({"type": "roll"}) for _ in range(6)]  # the first is free, the next five spend
    assert [answer.status_code for answer in refused] == [409] * 6
    assert refused[0].json()["error"] == NOT_IN_POOL
    locker = sqlite3.connect(server.database, timeout=0)
    try:
        locker.execute("BEGIN IMMEDIATE")  # had it reached the store, it would wait for this lock
        held = mallory.post({"type": "roll"})
        locker.rollback()
    finally:
        locker.close()
    assert held.status_code == 429 and held.json() == {"ok": False, "error": TOO_MANY}
    assert int(held.headers["Retry-After"]) >= 1
    assert store_rows(server) == rows
    # Another table's phone, from the same address, rolls.
    other = new_table(server)
    bo = requests.post(f"{server.url}/api/tables/{other}/seats", json={"name": "Bo", "entropy": ENTROPY},
                       timeout=TIMEOUT).json()
    rolled = requests.post(f"{server.url}/api/tables/{other}/actions", json={"type": "roll"},
                           headers=bearer(bo["token"]), timeout=TIMEOUT)
    assert rolled.status_code == 200 and rolled.json()["ok"] is True, rolled.text


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_refusal_counts_after_another_and_an_address_is_held_across_its_seats():
    """The 428 that asks a phone for its value costs it nothing, nor does a tap refused now and then;
    a phone that ignores the ask, or taps on while refused, pays from the second refusal in a row on.
    An address flooding from many seats runs out once, for all of them."""
    clock = Clock()
    refusals = SeatRefusals(burst=10, per_second=5, clock=clock)  # the defaults: 5 at once, 1 a second
    honest = ("T1", "1")
    for status in [428, 409] * 10:  # asked for its value (or refused), then accepted
        refusals.answered(honest, "10.0.0.1", status)
        refusals.answered(honest, "10.0.0.1", None)
    assert refusals.wait_for(honest, "10.0.0.1") == 0
    deaf = ("T2", "1")
    for _ in range(6):  # the first ask is free, the next five spend its refusals
        refusals.answered(deaf, "10.0.0.2", 428)
    assert refusals.wait_for(deaf, "10.0.0.2") == pytest.approx(1.0)
    clock.now += 1.0
    assert refusals.wait_for(deaf, "10.0.0.2") == 0
    for seat in range(10):  # ten seats of one address, six refusals each: the address's fifty are spent
        for _ in range(6):
            refusals.answered((f"F{seat}", "1"), "10.0.0.3", 409)
    # A seat of that address is held from its first refusal on (the first is free, but its address is spent);
    # a seat playing by the rules is never held for its address's refusals, nor another address's seat.
    fresh, fine = ("F-new", "1"), ("F-fine", "1")
    for seat, address in [(fresh, "10.0.0.3"), (fine, "10.0.0.3"), (fresh, "10.0.0.4")]:
        assert refusals.wait_for(seat, address) == 0
    refusals.answered(fresh, "10.0.0.3", 409)
    refusals.answered(fine, "10.0.0.3", None)
    assert refusals.wait_for(fresh, "10.0.0.3") > 0 and refusals.wait_for(fine, "10.0.0.3") == 0


def test_refusals_from_the_store_spend_their_address_from_the_first_and_hold_the_one_that_spent_it():
    """Fifty seats of one address spend its fifty refusals with their first ones (before, each first one
    was free, and the fifty came after): the refusal that spent the last is held at once (`answered`
    says how long). The 428 that asks a phone for its value spends nothing and is never held."""
    clock = Clock()
    refusals = SeatRefusals(burst=10, per_second=5, clock=clock)  # an address's budget: 50 at once, 10 a second
    holds = [refusals.answered((f"F{seat}", "1"), "10.0.0.5", 409) for seat in range(50)]
    assert holds[:49] == [0.0] * 49 and holds[49] > 0
    late = ("F50", "1")
    assert refusals.wait_for(late, "10.0.0.5") == 0  # its last action was accepted: it reaches the store
    assert refusals.answered(late, "10.0.0.5", 409) > 0  # refused there: held, its address being spent
    asked = ("A1", "1")
    assert refusals.answered(asked, "10.0.0.5", 428) == 0  # the protocol's ask: answered at once
    assert refusals.answered(asked, "10.0.0.5", None) == 0
    assert refusals.wait_for(asked, "10.0.0.5") == 0
    clock.now += 0.5  # five of the address's refusals back: four seats' next ones answered at once, the fifth
    # spends the last and is held, and so is the sixth
    assert [refusals.answered((f"F{seat}", "1"), "10.0.0.5", 409) > 0 for seat in range(6)] == [False] * 4 + [True] * 2


# In this process: the connections' own bookkeeping --------------------------------------------

@pytest.fixture
def app_config():
    """As the server above: a seat's refusals come back at 0.1 a second, so none does during a test."""
    return {"RATE_BURST": 10, "RATE_PER_SECOND": 0.5}


def test_a_known_screens_refusals_open_no_request(app, socket_client, monkeypatch):
    """A French phone's refusals, from the store and held before it, and a spectator's, are answered in
    French without the connection's Flask request (each request context opened is counted)."""
    client = app.test_client()
    table = new_table_in_process(client)
    code = table["code"]
    mallory = socket_client(code, table["seats"]["Ana"]["token"], **{"Accept-Language": "fr"})
    spectator = socket_client(code, **{"Accept-Language": "fr"})
    closed = client.post(f"/api/tables/{code}/close", headers=bearer(table["host_token"]))
    assert closed.status_code == 200, closed.json
    opened = []
    for name in ("request_context", "test_request_context"):
        real = getattr(app, name)
        monkeypatch.setattr(app, name, lambda *args, real=real, **kwargs: opened.append(args) or real(*args, **kwargs))
    refused = [mallory.emit("act", {"type": "roll"}, callback=True) for _ in range(6)]
    assert refused == [{"ok": False, "error": "Cette table est fermée.", "status": 410}] * 6
    held = mallory.emit("act", {"type": "roll"}, callback=True)
    assert held["status"] == 429 and held["error"] == TOO_MANY_FR
    watching = spectator.emit("act", {"type": "roll"}, callback=True)
    assert watching == {"ok": False, "error": SPECTATOR_REFUSED_FR, "status": 401}
    assert opened == []


def test_a_screen_is_forgotten_when_it_disconnects(app, socket_client):
    """What each connection keeps for its answers (its address, its language) goes with it: many
    connections opened and closed, or replaced by a newer one with the same token, leave nothing."""
    hub = app.extensions["companion.hub"]
    table = new_table_in_process(app.test_client())
    token = table["seats"]["Bo"]["token"]
    before = len(hub.screens)
    for _ in range(40):
        connection = socket_client(table["code"], token, **{"Accept-Language": "fr"})
        assert len(hub.screens) == before + 1
        connection.disconnect()
    older = socket_client(table["code"], token)
    newer = socket_client(table["code"], token)  # takes the seat over: the older is disconnected
    assert not older.is_connected() and len(hub.screens) == before + 1
    newer.disconnect()
    assert len(hub.screens) == before
