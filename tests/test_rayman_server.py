"""Rayman against the real server: ``python app.py`` on a loopback port, driven
by real python-socketio clients (each phone, the host screen, a spectator)
and by the JSON API.

* Secret choices stay secret on every channel until the last lock: the same
  table, forked on two server processes, is played twice with only one
  player's choices differing; every other client receives the same messages.
* Closing a table before the reveal reveals the seed but no choice and no salt.
* Bad input on the Rayman action path changes nothing.
* A whole Novice race, played by bots from the legal actions, to its ranking.
* A co-op round against a Boss, with random discards only their owner sees.
"""

from __future__ import annotations

import contextlib
import itertools
import secrets
import copy
import hashlib
import json
import sqlite3

import pytest
import requests

from companion.games.rayman import (LAST_COLUMN, PTIZETRES_TO_FINISH, SETUP_PHASES, canonical_json, commitment,
                                    die_level)
from companion.games.rayman.audit import audit
from companion.games.rayman.legal import sample_salt
from companion.verify import verify_log
from tests.helpers import ENTROPY, bearer
from tests.screen import WAIT, Screen
from tests.server import ServerProcess, server_fixture
from tests.test_rayman import initiative

FAST = {"COMPANION_RATE_BURST": "1000", "COMPANION_RATE_PER_SECOND": "1000"}  # bots tap faster than thumbs
NAMES = ("Ana", "Ben", "Chloé")
MAX_ACTIONS = 400
PRIVATE = ("cards", "hand", "discard", "played", "random_discards", "random_ranks", "secret")
CHOICE_KEYS = ("salt", "choice", "left", "second", "left_initiative", "second_initiative")
LOCK, ROLL, BUBBLE = {"type": "lock"}, {"type": "roll"}, {"type": "choose", "bubble": True}


server = server_fixture("rayman", FAST)


# --- a table and its screens ----------------------------------------------------------

class Table:
    """A Rayman table on a running server and its real clients: the host screen, each phone, a spectator.

    ``act`` takes one action and waits until every screen shows what it changed;
    it also checks that each screen received exactly one view for it. Like the phone's
    script, it keeps a tentative ``choose`` on the phone (``picks``: nothing is sent), turns
    ``lock`` into a commitment with a salt of the phone's own, and reveals by itself once
    every phone has locked in. ``boundaries``: how many messages each screen had received
    after each action sent."""

    def __init__(self, url: str, code: str, host_token: str, tokens: dict, commitment_: str):
        self.url, self.code, self.host_token, self.tokens, self.commitment = url, code, host_token, tokens, commitment_
        self.screens: dict = {}
        self.marks: dict = {}
        self.boundaries: list[dict] = []
        self.picks: dict = {}  # seat -> (choice, salt): what each phone keeps in its local storage

    @classmethod
    def create(cls, url: str, options: dict, players: int) -> "Table":
        created = requests.post(f"{url}/api/tables", json={"game": "rayman", "options": options}, timeout=WAIT)
        assert created.status_code == 201, created.text
        table = created.json()
        tokens = {}
        for name in NAMES[:players]:
            seat = requests.post(f"{url}/api/tables/{table['code']}/seats", json={"name": name, "entropy": ENTROPY},
                                 timeout=WAIT)
            assert seat.status_code == 201, seat.text
            tokens[seat.json()["seat"]] = seat.json()["token"]
        return cls(url, table["code"], table["host_token"], tokens, table["commitment"])

    def on(self, url: str) -> "Table":
        """The same table (code, tokens) on another server: a fork of its database."""
        return Table(url, self.code, self.host_token, self.tokens, self.commitment)

    @property
    def seats(self) -> list[int]:
        return sorted(self.tokens)

    def token(self, who):
        return self.host_token if who == "host" else self.tokens.get(who)

    # The screens --------------------------------------------------------------
    def connect(self) -> None:
        self.screens = {"host": Screen(self.url, self.code, self.host_token)}
        self.screens.update({seat: Screen(self.url, self.code, self.tokens[seat]) for seat in self.seats})
        self.screens["spectator"] = Screen(self.url, self.code, None)
        for screen in self.screens.values():
            screen.wait_for(lambda view: True)

    def disconnect(self) -> None:
        for screen in self.screens.values():
            screen.close()

    def start(self) -> None:
        """The host starts the game: the first view every screen gets after all the connections."""
        self.act("host", {"type": "table.start"}, strict=False)

    def game(self, who="host") -> dict:
        return self.screens[who].latest["game"]

    def version(self) -> int:
        return self.screens["host"].latest["version"]

    def act(self, who, action: dict, strict: bool = True) -> dict:
        if action["type"] == "choose":  # the phone keeps it: no byte leaves the phone
            self.picks[who] = (normalized(action), secrets.token_hex(16))
            return {"ok": True, "events": []}
        answer = self.send(who, self.as_sent(who, action), strict)
        if self.game()["phase"] == "revealing":  # every phone opens its commitment by itself
            for seat in [seat for seat in self.seats if seat in self.picks]:
                choice, salt = self.picks.pop(seat)
                self.send(seat, {"type": "reveal", "choice": choice, "salt": salt}, strict)
        while self.game()["phase"] == "initiatives":  # each card played for the first time: its player reads it
            asked = self.game()["round"]["asking"][0]
            self.send(asked["seat"], {"type": "initiative", "seat": asked["seat"], "card": asked["card"],
                                      "initiative": hand_of(self.game(asked["seat"]), asked["seat"])[asked["card"]]},
                      strict)
        return answer

    def as_sent(self, who, action: dict) -> dict:
        if action == LOCK and who in self.picks:
            choice, salt = self.picks[who]
            return {"type": "lock", "commitment": commitment(choice, salt)}
        return action

    def send(self, who, action: dict, strict: bool = True) -> dict:
        version = self.version()
        answer = self.screens[who].play(action)
        for screen in self.screens.values():
            screen.wait_for(lambda view: view["version"] > version)
        for name, screen in self.screens.items():
            assert screen.latest["version"] == version + 1
            received = sorted(kind for kind, _ in screen.messages[self.marks.get(name, 0):])
            if strict:  # one view per action; the actor also gets its answer
                assert received == (["answer", "view"] if name == who else ["view"]), (name, action, received)
            self.marks[name] = len(screen.messages)
        self.boundaries.append(dict(self.marks))
        return answer

    def refused(self, who, action: dict, status: int, complaint: str) -> None:
        """A refusal over Socket.IO that changes nothing: no new version, no view (the next
        ``act`` checks that the other screens got none either)."""
        version = self.version()
        answer = self.screens[who].act(self.as_sent(who, action))
        assert (answer["ok"], answer["status"], answer["error"]) == (False, status, complaint)
        assert [kind for kind, _ in self.screens[who].messages[self.marks[who]:]] == ["answer"]
        self.marks[who] = len(self.screens[who].messages)
        assert self.get(who)["version"] == version

    # The JSON API ---------------------------------------------------------------
    def get(self, who=None) -> dict:
        token = self.token(who)
        response = requests.get(f"{self.url}/api/tables/{self.code}", headers=bearer(token) if token else {},
                                timeout=WAIT)
        assert response.status_code == 200, response.text
        return response.json()

    def log(self) -> dict:
        response = requests.get(f"{self.url}/api/tables/{self.code}/log", timeout=WAIT)
        assert response.status_code == 200, response.text
        return response.json()


def own(game: dict, seat) -> dict:
    return next((player for player in game["players"] if player["seat"] == seat), {}) if game else {}


def normalized(action: dict) -> dict:
    if action.get("bubble"):
        return {"bubble": True, "left": None, "second": None}
    return {"bubble": False, "left": action["left"], "second": action["second"]}


def hand_of(game: dict, seat: int) -> dict:
    """The initiatives a player reads on their cards: different for every card at the table (no tie to roll)."""
    return {card["id"]: initiative(seat, index) for index, card in enumerate(own(game, seat)["cards"])}


def setup_move(table: Table):
    """Characters, the youngest player, the draft (first card offered) and the hands, as the phones and host do."""
    asked = table.game("host")["legal"]
    if asked and table.game("host")["question"]:
        return "host", asked[0]
    for seat in table.seats:
        game, mine = table.game(seat), own(table.game(seat), seat)
        if game["phase"] == "characters" and mine["character"] is None:
            return seat, game["legal"][0]
        if game["phase"] == "draft" and game["legal"]:
            return seat, game["legal"][0]
    raise AssertionError(f"nobody can act in {table.game()['phase']}")


def host_answer(game: dict) -> dict:
    """What the table tells the host screen, among the answers the rules offer. Hit on a
    space: whoever keeps a position there, nobody otherwise. The last players: those who
    keep no position first (their figures never move in these tests). Anything else: the
    first answer offered (the second tile not reached, the Boss moving 3 spaces)."""
    asked, offered = game["question"], game["legal"]
    where = {player["seat"]: player["position"] for player in game["players"]}
    if asked["key"] == "last":
        behind = sorted(asked["choices"], key=lambda seat: (where[seat] is not None, (where[seat] or {}).get("column")))
        value = behind[:asked["count"]]
    elif None in asked.get("choices", ()) and "column" in asked:
        space = {"column": asked["column"], "level": asked["level"]}
        value = next((seat for seat, position in where.items() if position == space), None)
    else:
        return offered[0]
    action = {"type": "answer", "question": asked["key"], "value": value}
    assert action in offered, (action, offered)
    return action


def drive(table: Table, move, done) -> int:
    """Actions chosen by ``move(table)`` until ``done(game)``; how many were taken."""
    for count in range(MAX_ACTIONS):
        if done(table.game()):
            return count
        who, action = move(table)
        table.act(who, action)
    raise AssertionError("the game should have got there")


# --- what a message may not show ----------------------------------------------------------

def entries(value, prune, path=""):
    """Every ``(path, parent, key, item)`` of a message, depth first, except under what ``prune(parent, key)`` cuts."""
    if isinstance(value, dict):
        for key, item in value.items():
            if not prune(value, key):
                yield path, value, key, item
                yield from entries(item, prune, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from entries(item, prune, f"{path}[{index}]")


def is_player(value: dict) -> bool:
    return "hand_size" in value and "seat" in value  # a player in a game view


def is_own(parent: dict, viewer) -> bool:
    return is_player(parent) and parent["seat"] == viewer  # one's own cards and choice may show


def private_leaks(message, viewer) -> list[str]:
    """Paths in a message to ``viewer`` (a seat, or None) that show another player's cards, discards or choice."""
    return [f"{path}.{key}" for path, parent, key, item in entries(message, lambda parent, key: is_own(parent, viewer))
            if is_player(parent) and key in PRIVATE and item is not None]


def choice_leaks(message, viewer, initiatives=frozenset()) -> list[str]:
    """Before the reveal: also no salt, no choice, no revealed entry, no initiative of the chooser anywhere."""
    def prune(parent, key):
        return is_own(parent, viewer) or key == "legal" and "players" in parent  # what the viewer itself may do

    return private_leaks(message, viewer) + [
        f"{path}.{key}" for path, parent, key, item in entries(message, prune)
        if key in CHOICE_KEYS or (key == "revealed" and item) or (key == "type" and item == "revealed")
        or (key == "initiative" and item in initiatives)]


def masked(value, keep: str):
    """Times, salts and the commitments of choices masked: they differ between two runs whatever the choices."""
    if isinstance(value, dict):
        timing = ("time", "at", "since", "away_since", "online")
        return {key: "<time>" if key in timing else "<salt>" if key == "salt" else
                "<commitment>" if key == "commitment" and item != keep else masked(item, keep)
                for key, item in value.items()}
    if isinstance(value, list):
        return [masked(item, keep) for item in value]
    if isinstance(value, tuple):
        return tuple(masked(item, keep) for item in value)
    return value


def events_of(log: dict) -> list[dict]:
    """The public events of a table's log, in order."""
    return [entry["event"] for entry in log["entries"] if entry["kind"] == "event"]


def draws_of(log: dict) -> list[dict]:
    return [entry for entry in log["entries"] if entry["kind"] == "draw"]


def sealed_draws_shown(log: dict) -> list:
    return [entry for entry in draws_of(log) if entry["secret"] and entry["result"] is not None]


# --- 1. secret choices on every channel ---------------------------------------------------

CHOOSER = 1
# Ana's two ways through the same round: four tentative choices ending on two cards, or one Bubble.
ANA_CARDS = ([{"type": "choose", "left": "b1", "second": "b2"}, BUBBLE,
              {"type": "choose", "left": "b2", "second": "b1"}],
             [{"type": "choose", "left": "b8", "second": "b3"}])
ANA_BUBBLE = ([BUBBLE], [])


def fork(server: ServerProcess, workdir) -> ServerProcess:
    """A second server process on a copy of the first one's database, as it is now."""
    twin = ServerProcess(workdir, extra_env=FAST, name="twin")
    with contextlib.closing(sqlite3.connect(server.database)) as source, \
            contextlib.closing(sqlite3.connect(twin.database)) as target:
        source.backup(target)
    return twin.start()


def secrecy_run(table: Table, ana: tuple[list, list]) -> dict:
    """One round of Intermediate (projectile die and all) for three players; Ana's choices are ``ana``.

    Records every message each Socket.IO client receives, and after each step of
    the round the JSON API as a spectator, as Ben (another seat), as the host,
    and the public log."""
    before_lock, after_lock = ana
    polls, steps = [], []
    table.connect()
    try:
        table.start()
        drive(table, setup_move, lambda game: game["phase"] not in SETUP_PHASES)

        def step(who, action):
            table.act(who, action)
            steps.append((who, action))
            polls.append({"private": action["type"] == "choose", "spectator": table.get(None), "seat 2": table.get(2),
                          "host": table.get("host"), "log": table.log()})

        for seat in table.seats:  # everybody keeps a position: the projectile spawns without questions
            step(seat, {"type": "position", "column": 0, "level": 1})
        step(table.game()["roller"], ROLL)
        assert table.game()["phase"] == "choosing" and table.game()["round"]["die"] in range(1, 7)
        step(2, {"type": "choose", "left": "b1", "second": "b2"})
        for action in before_lock:
            step(CHOOSER, action)
        step(2, {"type": "choose", "left": extra_card(table, 2), "second": "b4"})  # Ben changes his mind
        step(2, LOCK)
        step(CHOOSER, {"type": "step", "direction": "up"})  # a public move in the middle of Ana's hesitation
        for action in after_lock:
            step(CHOOSER, action)
        chosen = table.picks[CHOOSER][0]
        step(CHOOSER, LOCK)
        step(3, BUBBLE)
        step(3, {"type": "choose", "left": extra_card(table, 3), "second": "b5"})
        locked = {who: copy.deepcopy(screen.latest) for who, screen in table.screens.items()}
        marks = {who: len(screen.messages) for who, screen in table.screens.items()}
        cuts = {who: [bound[who] for bound in table.boundaries] + [marks[who]] for who in table.screens}
        step(3, LOCK)  # the last lock: the reveal
        return {"messages": {who: list(screen.messages) for who, screen in table.screens.items()},
                "marks": marks, "cuts": cuts, "polls": polls, "steps": steps, "locked": locked, "chosen": chosen,
                "initiatives": set(hand_of(table.game(CHOOSER), CHOOSER).values())}
    finally:
        table.disconnect()


def extra_card(table: Table, seat: int) -> str:
    """The id of an extra action card the player drafted."""
    return next(card["id"] for card in own(table.game(seat), seat)["cards"] if card["extra"])


def windows(messages: list, cuts: list[int], keep: str) -> list[list[str]]:
    """The messages between one action and the next, masked, each window in a canonical order: a
    python-socketio client handles each incoming message in a thread of its own, so that messages
    sent together (at a connection: a view, presences) may be recorded in either order."""
    cuts = [0] + cuts
    return [sorted(json.dumps(masked(message, keep), sort_keys=True) for message in messages[start:end]
                   if not is_presence(message))
            for start, end in zip(cuts, cuts[1:])]


def is_presence(message) -> bool:
    """Who is connected comes and goes with the clients' timing, not with anybody's choice."""
    return isinstance(message, (list, tuple)) and message and message[0] == "presence"


def distinct_in_a_row(polls: list[dict], keep: str) -> list:
    """What a poller can tell apart: polls that repeat the one before are the same observation."""
    seen = []
    for poll in polls:
        shown = masked({key: value for key, value in poll.items() if key != "private"}, keep)
        if not seen or seen[-1] != shown:
            seen.append(shown)
    return seen


def test_a_choice_leaks_to_no_other_client_on_any_channel_until_the_reveal(server, tmp_path):
    """Channels tried: each phone's Socket.IO client, the host screen's client (host
    token), a spectator's client (no token), and the JSON API polled after each step of
    the round: GET the view as a spectator, as another seat (bearer token) and as the
    host, and GET the public log.

    The same table is forked (its database copied to a second server process: same
    seed, code and tokens), then played twice. Only Ana's choices differ: two cards
    after four tentative choices, or one Bubble after one. Everything the other clients
    receive is the same in both runs until the reveal, with salts, commitments of
    choices and times masked, message for message, versions included.

    Also directly: no message to another client before the reveal holds a secret, a
    choice, a salt or the chooser's cards and initiatives; a tentative choice sends no
    message to any other client (each action sends every screen exactly one view, see
    `Table.act`) and keeps the version; after the last lock every client receives the
    reveal and each commitment opens (SHA-256 of the canonical JSON and the salt)."""
    table = Table.create(server.url, {"difficulty": "intermediate"}, players=3)
    twin = fork(server, tmp_path)
    try:
        cards = secrecy_run(table, ANA_CARDS)
        bubble = secrecy_run(table.on(twin.url), ANA_BUBBLE)
    finally:
        twin.stop()
    assert cards["chosen"] == {"bubble": False, "left": "b8", "second": "b3"} and bubble["chosen"]["bubble"] is True
    others = ["host", 2, 3, "spectator"]

    # Until the last lock, the other clients cannot tell the two runs apart: same messages after each
    # public action, same versions.
    for who in others:
        until_reveal = [windows(run["messages"][who], run["cuts"][who], table.commitment) for run in (cards, bubble)]
        assert until_reveal[0] == until_reveal[1], who
        shown = [m for m in cards["messages"][who][:cards["marks"][who]] if not is_presence(m)]
        assert len(until_reveal[0]) > 15 and sum(map(len, until_reveal[0])) == len(shown)
    assert len(cards["polls"]) == len(bubble["polls"]) + 3  # three tentative choices more: three more polls
    assert distinct_in_a_row(cards["polls"][:-1], table.commitment) == distinct_in_a_row(
        bubble["polls"][:-1], table.commitment)
    # ... while Ana's phone saw her own hesitations, and the reveal tells the runs apart for everybody.
    assert cards["messages"][CHOOSER] != bubble["messages"][CHOOSER]
    for who in others:
        assert masked(cards["messages"][who][cards["marks"][who]:], table.commitment) != masked(
            bubble["messages"][who][bubble["marks"][who]:], table.commitment)

    for run in (cards, bubble):
        # Nothing about a pick, on any channel, before the reveal.
        for who in others:
            for message in run["messages"][who][:run["marks"][who]]:
                assert choice_leaks(message, who if who in (2, 3) else None, run["initiatives"]) == [], who
        for poll in run["polls"][:-1]:
            for name in ("spectator", "host", "log"):
                assert choice_leaks(poll[name], None, run["initiatives"]) == [], name
            assert choice_leaks(poll["seat 2"], 2, run["initiatives"]) == []
            assert sealed_draws_shown(poll["log"]) == []
        # A tentative choice: no message to anybody else, the same version, the same answers from the API.
        for index, ((who, _), poll) in enumerate(zip(run["steps"], run["polls"])):
            if poll["private"]:
                seen_by_others = [name for name in ("spectator", "seat 2", "host", "log") if name != f"seat {who}"]
                assert [masked(poll[name], table.commitment) for name in seen_by_others] == [
                    masked(run["polls"][index - 1][name], table.commitment) for name in seen_by_others]
        check_the_reveal(run)


def check_the_reveal(run: dict) -> None:
    """After the last lock every client has the reveal; each commitment published at a lock opens with its salt."""
    log = run["polls"][-1]["log"]
    committed = {event["seat"]: event["commitment"] for event in events_of(log) if event["type"] == "locked"}
    assert sorted(committed) == [1, 2, 3]
    seen_locked = {player["seat"]: player["commitment"] for player in run["locked"]["spectator"]["game"]["players"]}
    assert seen_locked == {**committed, 3: None}  # what the screens showed at each lock, before the reveal
    for who, messages in run["messages"].items():
        views = [data for kind, data in messages[run["marks"][who]:] if kind == "view"]
        # the last lock, then each phone's reveal (public at the last one only), then the initiatives its
        # players read on the cards played for the first time
        assert len(views) >= 4, who
        assert [view["game"]["round"]["revealed"] for view in views[:3]] == [[]] * 3
        revealed = views[3]["game"]["round"]["revealed"]
        assert [entry["seat"] for entry in revealed] == [1, 2, 3]
        for entry in revealed:
            assert entry["commitment"] == committed[entry["seat"]] and len(entry["salt"]) == 32
            assert hashlib.sha256((json.dumps(entry["choice"], sort_keys=True, separators=(",", ":"))
                                   + entry["salt"]).encode()).hexdigest() == entry["commitment"]
            assert commitment(entry["choice"], entry["salt"]) == entry["commitment"]
        assert revealed[0]["choice"] == run["chosen"]  # the last tentative choice, not an earlier one
        assert all("secret" not in player for player in views[3]["game"]["players"])
    assert [choices(event["choices"]) for event in events_of(log) if event["type"] == "revealed"] == [choices(revealed)]
    assert choices(run["polls"][-1]["spectator"]["game"]["round"]["revealed"]) == choices(revealed)


def choices(revealed: list[dict]) -> list[dict]:
    """The revealed choices without their initiatives (told after the reveal for a card played the first time)."""
    return [{key: value for key, value in entry.items() if not key.endswith("_initiative")} for entry in revealed]


# --- 2. closing before the reveal -------------------------------------------------------

def roll_or_answer(table: Table):
    """The round's start: the phone named to roll rolls; the host answers what the table is asked."""
    game = table.game()
    return ("host", host_answer(game)) if game["question"] else (game["roller"], ROLL)


def without_result(entry: dict) -> dict:
    return {key: value for key, value in entry.items() if key != "result"}


def assert_not_stored(server: ServerProcess, secrets_: list[str]) -> None:
    """No byte of these in the server's database files (the database, its journal and WAL)."""
    stored = b"".join(path.read_bytes() for path in server.database.parent.glob(server.database.name + "*"))
    for secret in secrets_:
        assert secret.encode() not in stored, secret


def test_closing_before_the_reveal_shows_the_seed_but_no_choice_and_no_salt(server):
    """Channels checked after the host closes the table with two players locked in and
    one still hesitating: the public log (GET log), the closed views from the JSON API
    (spectator, host, the hesitating seat) and every Socket.IO message the host screen,
    the spectator and the hesitating phone received, the closed view included."""
    table = Table.create(server.url, {"difficulty": "intermediate", "extra_cards": "off"}, players=3)
    table.connect()
    try:
        table.start()
        drive(table, setup_move, lambda game: game["phase"] not in SETUP_PHASES)
        # Nobody keeps a position, but round 1 starts on the start line: nothing to ask.
        drive(table, roll_or_answer, lambda game: game["phase"] == "choosing")
        draws = draws_of(table.log())
        table.act(1, {"type": "choose", "left": "b4", "second": "b6"})
        table.act(1, {"type": "choose", "left": "b6", "second": "b4"})
        table.act(1, LOCK)
        table.act(2, BUBBLE)
        table.act(2, LOCK)
        table.act(3, {"type": "choose", "left": "b1", "second": "b2"})
        held = dict(table.picks)  # on each one's own phone, and only there
        assert held[1][0] == {"bubble": False, "left": "b6", "second": "b4"} and held[2][0]["bubble"]
        salts = [held[1][1], held[2][1], held[3][1]]
        assert draws_of(table.log()) == draws  # a salt is no draw
        assert [own(table.game(seat), seat).get("secret") for seat in table.seats] == [None] * 3
        assert_not_stored(server, salts + [canonical_json(held[seat][0]) for seat in table.seats])

        closed = requests.post(f"{table.url}/api/tables/{table.code}/close", headers=bearer(table.host_token),
                               timeout=WAIT)
        assert closed.status_code == 200
        seed = closed.json()["seed"]
        for screen in table.screens.values():
            screen.wait_for(lambda view: view["table"]["status"] == "closed")
        table.marks = {name: len(screen.messages) for name, screen in table.screens.items()}
        log = table.log()
        assert log["seed"] == seed and hashlib.sha256(bytes.fromhex(seed)).hexdigest() == table.commitment
        report = verify_log(log)
        assert report.ok and report.draws_checked == len(draws) > 0
        assert [without_result(entry) for entry in draws_of(log)] == [without_result(entry) for entry in draws]
        events = events_of(log)
        assert [event["seat"] for event in events if event["type"] == "locked"] == [1, 2]
        assert "revealed" not in [event["type"] for event in events]
        assert [event["column"] for event in events if event["type"] == "projectile_spawned"] == [21]

        spectator = table.get(None)
        assert spectator["table"]["seed"] == seed and spectator["game"]["round"]["revealed"] == []
        seen = {"log": (log, None), "api spectator": (spectator, None), "api host": (table.get("host"), None),
                "api seat 3": (table.get(3), 3), "socket host": (table.screens["host"].messages, None),
                "socket spectator": (table.screens["spectator"].messages, None),
                "socket seat 3": (table.screens[3].messages, 3)}  # (what was received, by whom)
        for name, (received, viewer) in seen.items():
            text = json.dumps(received)
            assert not any(salt in text for salt in salts), name
            assert choice_leaks(received, viewer) == [], name
        for entry in draws_of(log):
            assert "salt" not in json.dumps(entry["purpose"]) and not any(salt in json.dumps(entry) for salt in salts)

        # Closed: the round is never revealed, the last player cannot lock in any more.
        table.refused(3, LOCK, 410, "This table is closed.")
        assert table.get(None)["game"]["phase"] == "choosing"
    finally:
        table.disconnect()


# --- 3. bad input ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def refusing(server):
    """Two Novice tables: one at the secret choice (Ana locked in), one at the turns."""
    tables = {}
    for phase in ("choosing", "turns"):
        table = Table.create(server.url, {}, players=3)
        table.connect()
        table.start()
        drive(table, setup_move, lambda game: game["phase"] == "choosing")
        for seat in table.seats if phase == "turns" else [1]:
            table.act(seat, {"type": "choose", "left": "b1", "second": "b2"})
            table.act(seat, LOCK)
        assert table.game()["phase"] == phase
        table.act("host", RED_ONE)  # the host screen named a captive Ptizêtre's colour
        tables[phase] = table
    yield tables
    for table in tables.values():
        table.disconnect()


OVERSIZED = {"type": "lock", "commitment": "ab" * 32, "padding": "x" * 17_000}
ANY_LOCK = {"type": "lock", "commitment": "ab" * 32}
RED_ONE = {"type": "ptizetre_colour", "ptizetre": 1, "colour": "red"}
UNKNOWN_TABLE = "ZZZZZ"  # well formed, and no table has it: a fifth letter is used only after code collisions
BAD_INPUT = [  # (table, who, action, status, complaint); "idle": a seat whose turn it is not
    ("choosing", 2, {"type": "teleport"}, 400, "Unknown action: teleport."),
    ("choosing", 2, {**ANY_LOCK, "seat": 3}, 403, "You can only act for your own seat."),
    ("turns", "idle", {"type": "end_turn"}, 400, "It is {active}'s turn."),
    ("choosing", 2, {"type": "lock", "commitment": "b1b9"}, 400,
     "A commitment is 64 hexadecimal digits (your phone computes it)."),
    ("choosing", 2, {"type": "reveal", "choice": {"bubble": True}, "salt": "ab" * 16}, 400,
     "Not now: the table is choosing the cards in secret."),
    ("choosing", 1, LOCK, 400, "You have locked in your choice."),
    ("choosing", 1, ANY_LOCK, 400, "You have locked in your choice."),
    ("choosing", "host", ANY_LOCK, 403, "The host screen does not play: act from a seat."),
    ("turns", 2, {"type": "answer", "question": "last", "value": [1]}, 400, "Not now: the table is playing the turns."),
    ("turns", 2, {"type": "next_race"}, 400, "Not now: the table is playing the turns."),
    ("choosing", "spectator", ANY_LOCK, 401, "A seat or host token is needed to act."),
    ("choosing", "forged", LOCK, 401, "This token is not valid."),
    ("choosing", 2, OVERSIZED, 413, "too large (at most 16 KiB)."),
    ("choosing", UNKNOWN_TABLE, ANY_LOCK, 404, f"There is no table with the code {UNKNOWN_TABLE}."),
    # Naming a captive Ptizêtre's colour: the host's, in any phase; a seat's request, even one claiming the
    # host's rights, and every bad name are refused.
    ("turns", 2, {**RED_ONE, "ptizetre": 2, "colour": "blue"}, 400, "Only the host can do that."),
    ("turns", "idle", {**RED_ONE, "ptizetre": 2, "colour": "blue", "as_host": True}, 403, "Only the host can do that."),
    ("choosing", "host", {**RED_ONE, "ptizetre": 2}, 400,
     "Another Ptizêtre already has that colour: each colour names one token."),
    ("choosing", "host", RED_ONE, 400, "That Ptizêtre already has that colour."),
    ("turns", "host", {**RED_ONE, "colour": "teal"}, 400, "Unknown colour: pick one of the palette's colours."),
    ("turns", "host", {**RED_ONE, "ptizetre": 5}, 400, "The captive Ptizêtres are numbered 1 to 4."),
    ("turns", "host", {**RED_ONE, "ptizetre": "2"}, 400, "The action needs the field ptizetre (number)."),
    ("turns", "host", {**RED_ONE, "colour": None}, 400, "The action needs the field colour (text)."),
]


def everything_seen(table: Table) -> list:
    """The table as every viewer sees it from the JSON API (times masked), and the public log."""
    return masked([table.get(who) for who in [None, "host", *table.seats]] + [table.log()], table.commitment)


@pytest.mark.parametrize("channel", ["api", "socket"])
@pytest.mark.parametrize("phase, who, action, status, complaint", BAD_INPUT,
                         ids=[f"{case[1]}-{case[2]['type']}-{case[3]}" for case in BAD_INPUT])
def test_bad_input_is_refused_and_changes_nothing(refusing, channel, phase, who, action, status, complaint):
    """Over the JSON API (POST actions with a bearer token) and over Socket.IO (``act``)."""
    table = refusing[phase]
    game = table.game()
    if who == "idle":
        who = next(seat for seat in table.seats if seat != game["active"])
        complaint = complaint.format(active=own(game, game["active"])["character"])
    before = everything_seen(table)
    code, token = (UNKNOWN_TABLE, table.tokens[2]) if who == UNKNOWN_TABLE else (table.code, table.token(who))
    if who == "forged":
        token = "x" * 32
    if channel == "api":
        refused = requests.post(f"{table.url}/api/tables/{code}/actions", json=action,
                                headers=bearer(token) if token else {}, timeout=WAIT)
        assert (refused.status_code, refused.json()["ok"]) == (status, False)
        assert refused.json()["error"].endswith(complaint)
    elif who in ("forged", UNKNOWN_TABLE):  # refused at the connection already
        assert Screen.refusal(table.url, code, token) == {"message": complaint}
    else:
        answer = table.screens[who].act(action)
        assert (answer["ok"], answer["status"]) == (False, status) and answer["error"].endswith(complaint)
    assert everything_seen(table) == before


# --- 4. a whole Novice race --------------------------------------------------------------

class Racer:
    """A phone's player, deciding from its own view and the legal actions the rules list.

    ``keeps_position``: moves its figure with the stepper and jumps (``position``);
    otherwise the host tells the companion what it needs. ``jump``: columns per
    turn; ``ptizetres``: how many it frees, one per turn; ``bubble_round``: the
    round it declares a Bubble; ``stop``: the column it walks to once it may cross;
    ``distance``: the spaces past the line it enters when it keeps no position."""

    def __init__(self, seat: int, keeps_position=True, jump=0, ptizetres=3, bubble_round=None, stop=None,
                 distance=None):
        self.seat, self.keeps_position, self.jump, self.ptizetres = seat, keeps_position, jump, ptizetres
        self.bubble_round, self.stop, self.distance = bubble_round, stop, distance
        self.turn_done: dict = {}  # round number -> what this turn already did
        self.hesitated = False
        self.picked = None  # (round, choice) the phone holds

    def move(self, game: dict, legal: list[dict]):
        mine, phase = own(game, self.seat), game["phase"]
        if phase == "characters":
            return legal[0] if mine["character"] is None else None
        if phase == "initiatives":  # a card played for the first time: the player reads it
            return next(({"type": "initiative", "seat": self.seat, "card": asked["card"],
                          "initiative": hand_of(game, self.seat)[asked["card"]]}
                         for asked in game["round"]["asking"] if asked["seat"] == self.seat), None)
        if self.keeps_position and mine["position"] is None and phase in ("round_start", "choosing"):
            return self.legal({"type": "position", "column": 0, "level": 1}, legal)
        if phase == "choosing":
            return self.choose(game, mine, legal)
        if phase == "turns" and game["active"] == self.seat:
            return self.turn(game, mine, legal)
        if phase in ("turns", "round_end") and game["race"]["final_round"] and {"type": "crossed"} in legal \
                and not self.keeps_position:
            return {"type": "crossed"}  # past the line, as soon as the final round is on
        if phase == "finish" and self.distance:
            return self.legal({"type": "distance", "spaces": self.distance}, legal)
        if {"type": "no_hit"} in legal:  # no projectile reached them, the free move landed on no enemy
            return {"type": "no_hit"}
        if game["free_mover"] == self.seat:  # the last player moves one space forward, on the same level if free
            forward = {"type": "free_move", "level": mine["position"]["level"]}
            return forward if forward in legal else self.legal({"type": "free_move", "pass": True}, legal)
        return None

    @staticmethod
    def legal(action: dict, legal: list[dict]) -> dict:
        assert action in legal, (action, legal)
        return action

    def choose(self, game: dict, mine: dict, legal: list[dict]):
        """On the phone: picks (changing its mind once, in the first round), then locks in."""
        if mine["locked"]:
            return None
        pairs = [{"type": "choose", "left": left, "second": second}
                 for left, second in itertools.permutations(mine["hand"], 2)]
        if game["round"]["number"] == self.bubble_round or not pairs:
            wanted = BUBBLE
        else:  # the two strongest cards, the stronger on the left
            strength = hand_of(game, self.seat)  # what is printed on the cards
            wanted = max(pairs, key=lambda a: (strength[a["left"]], strength[a["second"]]))
            if not self.hesitated:  # changes its mind once, in the first round
                self.hesitated = True
                return min(pairs, key=lambda a: (strength[a["left"]], strength[a["second"]]))
        if self.picked != (game["round"]["number"], normalized(wanted)):
            self.picked = (game["round"]["number"], normalized(wanted))
            return wanted
        return LOCK

    def turn(self, game: dict, mine: dict, legal: list[dict]):
        done = self.turn_done.setdefault(game["round"]["number"], set())
        position = mine["position"]
        freeing = [action for action in legal if action["type"] == "free"]
        if len(mine["ptizetres"]) < self.ptizetres and "free" not in done:
            done.add("free")
            return freeing[0]
        if self.keeps_position:
            column = position["column"]
            if "jump" not in done and column + self.jump <= LAST_COLUMN:
                done.add("jump")
                return next(action for action in legal if action["type"] == "position"
                            and action["column"] == column + self.jump)
            if self.stop and len(mine["ptizetres"]) >= PTIZETRES_TO_FINISH and column < self.stop:
                return self.legal({"type": "step", "direction": "forward"}, legal)
            if position["level"] > 1:
                return self.legal({"type": "step", "direction": "down"}, legal)
        elif game["race"]["final_round"] and {"type": "crossed"} in legal:
            return {"type": "crossed"}
        return self.legal({"type": "end_turn"}, legal)


def race_move(racers: dict):
    def move(table: Table):
        # A player without a kept position first: they cross the line as soon as the final round is on.
        for seat, racer in sorted(racers.items(), key=lambda item: item[1].keeps_position):
            game = table.game(seat)
            action = racer.move(game, game["legal"])
            if action:
                return seat, action
        game = table.game("host")
        if game["question"]:
            return "host", host_answer(game)
        raise AssertionError(f"nobody acts in {game['phase']}")
    return move


def test_a_whole_novice_race_to_its_ranking(server):
    """Three phones play a whole competitive Novice race; the host screen answers
    what the rules ask (nothing: Chloé keeps no position on her phone, and the phones tell
    what the companion cannot know). Ana jumps and walks her figure past the line
    with 3 Ptizêtres, which starts the final round; Ben declares a Bubble in round 2
    and frees only 2 Ptizêtres; Chloé, with 3, crosses as soon as the final round is on
    and enters her distance. Each action reaches every screen as exactly one view.
    Every screen ends on the same ranking, which follows the distances."""
    table = Table.create(server.url, {}, players=3)
    racers = {1: Racer(1, jump=12, stop=LAST_COLUMN + 2),
              2: Racer(2, jump=5, ptizetres=2, bubble_round=2),
              3: Racer(3, keeps_position=False, distance=5)}
    table.connect()
    try:
        table.start()
        actions = drive(table, race_move(racers), lambda game: game["phase"] == "game_over")
        assert actions > 60

        finals = [screen.latest["game"] for screen in table.screens.values()]
        assert all(game == {**finals[0], "you": game["you"], "players": game["players"]} for game in finals)
        game = finals[0]
        result = game["result"]
        players = {player["seat"]: player for player in game["players"]}
        assert players[1]["position"] == {"column": LAST_COLUMN + 2, "level": 1} and players[1]["crossed"]
        assert players[3]["crossed"] and players[3]["position"] is None and players[3]["distance"] == 5
        assert not players[2]["crossed"] and len(players[2]["ptizetres"]) == 2
        assert players[2]["position"]["column"] <= LAST_COLUMN
        distances = {1: 2, 3: 5}
        assert result["ranking"] == [
            {"seat": 3, "place": 1, "crossed": True, "distance": 5},
            {"seat": 1, "place": 2, "crossed": True, "distance": 2},
            {"seat": 2, "place": 3, "crossed": False, "distance": None}]
        crossed = [entry for entry in result["ranking"] if entry["crossed"]]
        assert [entry["seat"] for entry in crossed] == sorted(distances, key=distances.get, reverse=True)
        assert all(entry["distance"] == distances[entry["seat"]] for entry in crossed)
        assert result["winners"] == [3] and game["phase"] == "game_over"

        # What happened, from the public log: the rounds, the Bubble, the crossing and the host's answers.
        assert audit(table.log()["entries"]) == []  # each reveal opens the commitment its phone published
        events = events_of(table.log())
        kinds = [event["type"] for event in events]
        crossed_at = kinds.index("crossed")
        assert events[crossed_at]["seat"] == 1 and events[crossed_at + 1]["type"] == "final_round"
        assert {"type": "crossed", "seat": 3} in events[crossed_at + 2:]
        final = events[crossed_at + 1]["round"]
        assert final == game["round"]["number"] == kinds.count("revealed") == 3
        assert {"type": "bubble", "seat": 2, "lost_heart": False} in events
        assert [event["question"] for event in events if event["type"] == "answered"] == []  # the host: nothing
        assert kinds.count("ptizetre_freed") == 3 + 2 + 3 and kinds[-3:] == ["distance", "race_over", "game_over"]
        assert kinds.index("race_ending") < kinds.index("distance")
        # The whole race replays from its log, actions and draws, to the state it ended in (companion.replay).
        report = verify_log(table.log())
        assert report.ok and any(note.startswith("the game was replayed") for note in report.notes), report.message
        assert any(event["type"] == "moved" and event["seat"] == 1 and event["column"] == LAST_COLUMN + 1
                   for event in events)
        # Each phone saw only its own hand, from the first view to the last.
        for who, screen in table.screens.items():
            assert all(private_leaks(data, who if who in racers else None) == [] for kind, data in screen.messages
                       if kind == "view"), who
            assert any(data["game"] and data["game"]["phase"] == "finish" for kind, data in screen.messages
                       if kind == "view")
    finally:
        table.disconnect()


# --- 5. a co-op round against a Boss ------------------------------------------------------

def test_a_coop_round_against_the_boss_with_random_discards_seen_only_by_their_owner(server):
    """Two phones against the Crapaud Blindé (co-op Novice). The host enters the
    Boss's movement when asked; Ana rolls the Boss's die on her phone; its level and
    attack card are public. Each player's two random discards reach only their own
    phone: checked on every message of the other phone, the host screen and the
    spectator, and on the JSON API as a spectator. Ana cannot choose a discarded card.
    At the end of the round the Boss moves; the host says it landed on nobody (Ben
    keeps no position) and names the last player."""
    table = Table.create(server.url, {"mode": "coop"}, players=2)
    racers = {1: Racer(1, jump=12), 2: Racer(2, keeps_position=False)}
    table.connect()
    try:
        table.start()
        drive(table, setup_move, lambda game: game["phase"] not in SETUP_PHASES)
        discards = {seat: own(table.game(seat), seat)["random_discards"] for seat in table.seats}
        for seat in table.seats:
            mine = own(table.game(seat), seat)
            assert len(discards[seat]) == 2 and set(discards[seat]) == set(mine["discard"])
            assert not set(discards[seat]) & set(mine["hand"]) and mine["hand_size"] == 6
            assert sorted(mine["random_ranks"]) == mine["random_ranks"] and len(mine["random_ranks"]) == 2

        asked = table.game()["question"]
        assert asked == {"key": "boss_move", "low": 1, "high": 20}
        table.act("host", {"type": "answer", "question": "boss_move", "value": 6})
        assert table.game(1)["legal"][0] == ROLL and ROLL in table.game(2)["legal"]
        table.act(1, ROLL)  # the Boss's die, on Ana's phone (any player may roll it)
        boss = table.game()["boss"]
        rolled = table.game()["round"]["boss_die"]
        assert boss["column"] == 0 and boss["level"] == die_level(rolled) and boss["card"] in (1, 2, 3)
        assert boss["deck"] == 2 and table.game()["phase"] == "choosing"

        hand = own(table.game(1), 1)["hand"]
        with_a_discard = {commitment({"bubble": False, "left": discarded, "second": card}, sample_salt(1))
                          for discarded in discards[1] for card in hand}
        offered = {action["commitment"] for action in table.game(1)["legal"] if action["type"] == "lock"}
        assert offered and not offered & with_a_discard  # a discarded card is no choice
        drive(table, race_move(racers), lambda game: game["phase"] == "turns")
        revealed = table.game()["round"]["revealed"]
        for entry in revealed:
            assert not {entry["choice"]["left"], entry["choice"]["second"]} & set(discards[entry["seat"]])
            assert commitment(entry["choice"], entry["salt"]) == entry["commitment"]
        drive(table, race_move(racers), lambda game: game["round"]["number"] == 2)

        game = table.game()
        assert game["phase"] == "round_start" and game["boss"]["column"] == 6 and game["boss"]["level"] == boss["level"]
        assert all(screen.latest["game"]["boss"] == game["boss"] for screen in table.screens.values())
        assert own(game, 1)["position"]["column"] == 12
        events = events_of(table.log())
        kinds = [event["type"] for event in events]
        assert {"type": "boss_moved", "column": 6, "level": boss["level"]} in events
        assert {"type": "boss_attack", "card": boss["card"]} in events
        assert [(event["question"], event["value"]) for event in events if event["type"] == "answered"] == [
            ("boss_move", 6)]  # where the Boss lands and who is last: the phones say, not the host
        assert kinds.index("boss_moved") < kinds.index("boss_attack") < kinds.index("round_ended")
        assert [event for event in events if event["type"] == "random_discards"] == [
            {"type": "random_discards", "seat": seat, "count": 2} for seat in table.seats]
        log = table.log()
        assert audit(log["entries"]) == []  # the Boss's die and card, and each reveal, from the public log
        assert [entry["result"] for entry in draws_of(log) if entry["purpose"]["kind"] == "random_discard"] == [
            None, None]  # sealed until the table closes

        for who, screen in table.screens.items():
            viewer = who if who in racers else None
            assert all(private_leaks(data, viewer) == [] for kind, data in screen.messages if kind == "view"), who
            if viewer:  # one's own random discards, on one's own phone
                assert any(own(data["game"], who)["random_discards"] == discards[who]
                           for kind, data in screen.messages if kind == "view" and data["game"])
        spectator = table.get(None)
        assert private_leaks(spectator, None) == [] and private_leaks(table.get(2), 2) == []
        assert [player["discard_size"] for player in spectator["game"]["players"]] == [4, 4]  # 2 at random, 2 played
    finally:
        table.disconnect()
