"""Per-client limits with their default values, against the real server
process listening on both 127.0.0.1 and ::1: the two loopback addresses are
two clients. One client that creates tables by the hundred, takes every seat
of a table, sweeps table codes or holds connections open is told to wait
(429, ``Retry-After``, in its language), and the other client is not."""

from __future__ import annotations

import socket
import sqlite3
from contextlib import contextmanager

import pytest
import requests

from companion.limits import DEFAULT_CONNECTIONS, DEFAULT_RULES, Rule
from tests.screen import Screen
from tests.server import TEST_LIMITS, ServerProcess
from tests.helpers import ENTROPY
from tests.phones import ChainPhone

DEFAULTS = {f"COMPANION_{name}": "" for name in TEST_LIMITS}  # empty: the server's own defaults


def ipv6_loopback_works() -> bool:
    with socket.socket(socket.AF_INET6) as probe:
        probe.bind(("::1", 0))
    return True


@pytest.fixture
def server(tmp_path):
    assert ipv6_loopback_works()  # the second client's address
    process = ServerProcess(tmp_path, extra_env={**DEFAULTS, "COMPANION_HOST": "::"}).start()
    process.other_url = f"http://[::1]:{process.port}"
    yield process
    process.stop()


def burst(kind: str) -> int:
    return Rule.parse(DEFAULT_RULES[kind]).burst


def attempts_until_refused(attempt, at_most: int) -> tuple[int, requests.Response]:
    """How many attempts passed before the first 429 (a few may pass more if the
    machine is slow enough for the bucket to refill), and that refusal."""
    for made in range(at_most):
        response = attempt()
        if response.status_code == 429:
            return made, response
    raise AssertionError(f"no refusal in {at_most} attempts")


def assert_says_wait(response: requests.Response, french: bool = False) -> None:
    seconds = int(response.headers["Retry-After"])
    assert seconds >= 1
    body = response.json()
    assert body["ok"] is False
    if french:
        assert body["error"] == f"Trop de tentatives depuis cet appareil\u00a0: attendez {seconds} s puis réessayez."
    else:
        assert body["error"] == f"Too many attempts from this device: wait {seconds} s and try again."


def create(url: str, lang: str = "en") -> requests.Response:
    return requests.post(f"{url}/api/tables?lang={lang}", json={"game": "dice"}, timeout=10)


def test_creating_tables_by_the_hundred_is_refused_and_another_client_still_creates(server):
    accepted, refusal = attempts_until_refused(lambda: create(server.url), 3 * burst("create"))
    assert accepted >= burst("create")
    assert_says_wait(refusal)
    assert_says_wait(create(server.url, "fr"), french=True)
    assert int(refusal.headers["Retry-After"]) <= 60  # 10 per 600 s: one more each minute
    assert create(server.other_url).status_code == 201


def test_taking_every_seat_of_a_table_at_once_is_refused_and_the_table_keeps_its_seats(server):
    code = create(server.other_url).json()["code"]
    def join():
        return requests.post(f"{server.url}/api/tables/{code}/seats", json={"name": "Bot", "entropy": ENTROPY}, timeout=10)

    accepted, refusal = attempts_until_refused(join, 12)
    assert burst("join") <= accepted < 12  # a table of 12 seats is never filled by one client at once
    assert_says_wait(refusal)
    seats = requests.get(f"{server.other_url}/api/tables/{code}", timeout=10).json()["table"]["seats"]
    assert len(seats) == accepted
    honest = requests.post(f"{server.other_url}/api/tables/{code}/seats", json={"name": "Ana", "entropy": ENTROPY}, timeout=10)
    assert honest.status_code == 201


def test_sweeping_table_codes_is_stopped_even_for_a_code_that_exists(server):
    code = create(server.other_url).json()["code"]
    guesses = iter(f"Z{a}{b}{c}" for a in "2345" for b in "6789" for c in "ABCD")
    guess = lambda: requests.get(f"{server.url}/api/tables/{next(guesses)}", timeout=10)  # noqa: E731
    misses, refusal = attempts_until_refused(guess, 3 * burst("lookup"))
    assert misses >= burst("lookup")
    assert_says_wait(refusal)
    # Stopped, the sweeper learns nothing: a code that exists is refused too, on every path.
    assert requests.get(f"{server.url}/api/tables/{code}", timeout=10).status_code == 429
    page = requests.get(f"{server.url}/t/{code}", timeout=10)
    assert page.status_code == 429 and "Retry-After" in page.headers
    refused = Screen.refusal(server.url, code, None)
    assert "Too many attempts from this device" in str(refused)
    # The table's own phones, elsewhere, see nothing of it.
    assert requests.get(f"{server.other_url}/api/tables/{code}", timeout=10).status_code == 200


def handshake(url: str) -> requests.Response:
    return requests.get(f"{url}/socket.io/?EIO=4&transport=polling", timeout=10)


def test_holding_connections_open_is_capped_per_client(server):
    sessions = []
    for _ in range(DEFAULT_CONNECTIONS):
        response = handshake(server.url)
        assert response.status_code == 200, response.text
        sessions.append(response.text.split('"sid":"')[1].split('"')[0])
    refused = handshake(server.url)
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert f"at most {DEFAULT_CONNECTIONS}" in refused.json()["error"]
    assert handshake(server.other_url).status_code == 200  # another phone is not held up
    # A connection closed is a connection free again.
    closed = requests.post(f"{server.url}/socket.io/?EIO=4&transport=polling&sid={sessions[0]}", data="1",
                           timeout=10)
    assert closed.status_code == 200
    assert handshake(server.url).status_code == 200


def test_a_bucket_refills_evenly_and_says_how_long_to_wait():
    from companion.limits import ClientLimits, TooManyAttempts

    now = [0.0]
    limits = ClientLimits({"create": Rule.parse("2/10")}, clock=lambda: now[0])
    limits.charge("create", "10.0.0.2")
    limits.charge("create", "10.0.0.2")
    with pytest.raises(TooManyAttempts) as refused:
        limits.charge("create", "10.0.0.2")
    assert refused.value.retry_after == 5 and refused.value.status == 429
    limits.charge("create", "10.0.0.3")  # another client
    with pytest.raises(TooManyAttempts):
        limits.check("create", "10.0.0.2")  # a check spends nothing, and refuses alike
    now[0] = 5.0
    limits.check("create", "10.0.0.2")
    limits.charge("create", "10.0.0.2")
    with pytest.raises(TooManyAttempts):
        limits.charge("create", "10.0.0.2")


@pytest.mark.parametrize("raw", ["10", "0/60", "10/0", "ten/60"])
def test_a_malformed_limit_setting_stops_the_server_with_its_format(raw):
    with pytest.raises(ValueError):
        Rule.parse(raw)


ADMIN_KEY = "k" * 40


def name_figure(url: str, key: str) -> requests.Response:
    return requests.put(f"{url}/api/amiibo/0x01000000fffe0002/name", json={"name": "Newcomer"},
                        headers={"Authorization": f"Bearer {key}"}, timeout=10)


def test_guessing_the_administrator_key_is_stopped_per_client_even_for_the_right_key(tmp_path):
    process = ServerProcess(tmp_path, extra_env={**DEFAULTS, "COMPANION_HOST": "::",
                                                 "COMPANION_ADMIN_KEY": ADMIN_KEY}).start()
    try:
        guesses = iter(f"guess-{n:04d}".ljust(40, "x") for n in range(100))
        misses, refusal = attempts_until_refused(lambda: name_figure(process.url, next(guesses)), 3 * burst("admin"))
        assert misses >= burst("admin") and misses < 3 * burst("admin")
        assert_says_wait(refusal)
        assert name_figure(process.url, ADMIN_KEY).status_code == 429  # stopped, a guess learns nothing
        assert name_figure(f"http://[::1]:{process.port}", ADMIN_KEY).status_code == 200  # another client
    finally:
        process.stop()


@pytest.mark.parametrize("length", [1, 16, 31])
def test_an_administrator_key_under_32_characters_stops_the_server_with_a_clear_message(tmp_path, length):
    process = ServerProcess(tmp_path, extra_env={"COMPANION_ADMIN_KEY": "k" * length})
    with pytest.raises(RuntimeError) as refused:
        process.start()
    assert f"COMPANION_ADMIN_KEY has {length} characters: it needs at least 32" in str(refused.value)
    assert "Traceback" not in str(refused.value)


def test_a_spectator_flooding_act_is_refused_without_the_store_and_slowed_alone(server):
    """A screen with no token may not act: its actions are refused before any transaction is opened
    (here, while another connection holds the database's write lock, they are still answered at once;
    before, each waited for the lock), and past its address's limit it is told to wait, while the
    seats of the table play on."""
    created = create(server.url).json()
    code = created["code"]
    seat = requests.post(f"{server.url}/api/tables/{code}/seats", json={"name": "Ana", "entropy": ENTROPY},
                         timeout=10).json()
    spectator = Screen(server.url, code, None)
    phone = Screen(server.url, code, seat["token"])
    spectator.wait_for(lambda view: True)
    log_before = requests.get(f"{server.url}/api/tables/{code}/log", timeout=10).json()["entries"]
    locker = sqlite3.connect(server.database, timeout=0)
    try:
        locker.execute("BEGIN IMMEDIATE")  # the store's write lock, held by someone else
        answers = [spectator.client.call("act", {"type": "roll"}, timeout=10) for _ in range(burst("watch") + 2)]
        locker.rollback()
    finally:
        locker.close()
    refused = {"ok": False, "status": 401, "error": "A seat or host token is needed to act."}
    assert answers[:burst("watch")] == [refused] * burst("watch")
    for answer in answers[burst("watch"):]:
        assert answer["status"] == 429 and answer["retry_after"] >= 1
        assert answer["error"] == f"Too many attempts from this device: wait {answer['retry_after']} s and try again."
    assert requests.get(f"{server.url}/api/tables/{code}/log", timeout=10).json()["entries"] == log_before
    assert phone.act({"type": "roll"})["ok"] is True  # a seat, from the same address, is not slowed
    other = Screen(server.other_url, code, None)  # another address's spectator is refused plainly
    assert other.act({"type": "roll"}) == refused
    for screen in (spectator, phone, other):
        screen.close()


def test_flooding_a_tables_hand_off_stops_the_flooder_not_the_phone_given_the_code(server):
    """The limit on hand-off claims is per address: a client trying codes by the dozen at a table is told
    to wait; the phone the host gave the code to, elsewhere, takes the seat."""
    created = create(server.other_url).json()  # the shared die: a game from the start
    code = created["code"]
    seat = requests.post(f"{server.other_url}/api/tables/{code}/seats", json={"name": "Ana", "entropy": ENTROPY},
                         timeout=10).json()
    host, ana = Screen(server.other_url, code, created["host_token"]), Screen(server.other_url, code, seat["token"])
    try:
        offer = host.play({"type": "table.handoff", "seat": seat["seat"]})["handoff"]
        ana.play({"type": "seat.handoff", "allow": True})  # her phone is here: the seat moves once she allows it
    finally:
        host.close()
        ana.close()
    guesses = iter(f"ZZZZ{n:02d}" for n in range(100))
    claim = lambda: requests.post(f"{server.url}/api/tables/{code}/handoff", timeout=10,  # noqa: E731
                                  json={"handoff": next(guesses), "commitment": "6b" * 32})
    tries, refusal = attempts_until_refused(claim, 3 * burst("handoff"))
    assert burst("handoff") <= tries < 3 * burst("handoff")
    assert_says_wait(refusal)
    claimed = requests.post(f"{server.other_url}/api/tables/{code}/handoff", timeout=10,
                            json={"handoff": offer["code"], "commitment": "6b" * 32})
    assert claimed.status_code == 201 and claimed.json()["seat"] == seat["seat"]


@contextmanager
def processes_sharing_redis(tmp_path, settings: dict):
    """Two Companion processes on one database, sharing a Redis queue (how several processes run),
    the second on both loopback addresses."""
    from scripts.cluster import Cluster

    redis_server = Cluster(tmp_path / "redis", processes=0)
    redis_server.workdir.mkdir()
    redis_server._start_redis()
    shared = {**settings, "COMPANION_MESSAGE_QUEUE": redis_server.queue,
              "COMPANION_DATABASE": str(tmp_path / "shared.sqlite3")}
    processes = [ServerProcess(tmp_path, extra_env=shared, name=f"node{index}") for index in range(2)]
    try:
        yield [process.start() for process in processes]
    finally:
        for process in processes:
            process.stop()
        redis_server.stop()


@pytest.fixture
def two_processes_and_redis(tmp_path):
    with processes_sharing_redis(tmp_path, DEFAULTS) as processes:
        yield processes


def test_with_several_processes_a_client_gets_each_limit_once_not_once_per_process(two_processes_and_redis):
    first, second = two_processes_and_redis
    created = 0
    for attempt in range(4 * burst("create")):
        answer = create((first, second)[attempt % 2].url)
        if answer.status_code == 429:
            break
        assert answer.status_code == 201, answer.text
        created += 1
    assert burst("create") <= created < 2 * burst("create")  # 10 in all, not 10 on each process
    assert create(first.url).status_code == create(second.url).status_code == 429


def test_with_several_processes_an_address_spends_its_refusals_once_not_once_per_process(tmp_path):
    """A client flooding seats' actions through every process of a cluster spends its address's refusals
    (`companion.limits.SeatRefusals`) once: they are kept in Redis, like the limits above."""
    # One refusal at once per seat, ten per address, and none back during the test (one per 50 s).
    slow = {"COMPANION_RATE_BURST": "2", "COMPANION_RATE_PER_SECOND": "0.01", "COMPANION_HOST": "::"}
    with processes_sharing_redis(tmp_path, slow) as (first, second):
        def refusals_of_a_new_seat(url: str, count: int) -> list[int]:
            """A phone alone at a table of its own, never in its pool: each roll is refused by the store."""
            phone = ChainPhone(url, create(url).json()["code"], "Mallory")
            return [phone.post({"type": "roll"}).status_code for _ in range(count)]

        for _ in range(5):  # five seats through the first process: two refusals each, the address's ten
            assert refusals_of_a_new_seat(first.url, 2) == [409, 409]
        # Through the second process a new seat's first refusal reaches the store (its last action was not
        # refused), the next is held: its address has none left (each process on its own would have let it
        # reach the store again).
        assert refusals_of_a_new_seat(second.url, 2) == [409, 429]
        other_url = f"http://[::1]:{second.port}"  # another client's seats are not held
        assert refusals_of_a_new_seat(other_url, 2) == [409, 409]
