"""Arkade end to end: the real server process on a loopback port and real
python-socketio phones.

* A whole Stratégie game, power tiles in play, played to the end by the two
  phones, while a host screen, a spectator and the JSON API record every
  message they receive: no face-down tile ever reaches any of them.
* An Arcade game where both phones throw at the same moment from two threads:
  every throw counted once, none lost, none doubled, even when resent.
"""

from __future__ import annotations

import copy
import json
import threading
import time

import pytest
import requests

from companion.games.arkade import ALIEN, DEFENDER
from companion.verify import verify_log
from tests.helpers import ENTROPY, bearer, new_table, snapshot
from tests.screen import WAIT, Screen
from tests.server import server_fixture

FAST = {"COMPANION_RATE_BURST": "1000", "COMPANION_RATE_PER_SECOND": "1000"}  # a bot plays faster than a thumb
MAX_ACTIONS = 3000


server = server_fixture("arkade-server", FAST)  # one server for the module's whole games: each opens its own table


def open_table(url: str, options: dict) -> tuple[dict, list[dict]]:
    created = requests.post(f"{url}/api/tables", json={"game": "arkade", "options": options}, timeout=WAIT)
    assert created.status_code == 201, created.text
    table = created.json()
    seats = [requests.post(f"{url}/api/tables/{table['code']}/seats", json={"name": name, "entropy": ENTROPY},
                           timeout=WAIT).json() for name in ("Zoé", "Max")]
    return table, seats


def start(url: str, table: dict) -> None:
    response = requests.post(f"{url}/api/tables/{table['code']}/actions", json={"type": "table.start"},
                             headers={"Authorization": f"Bearer {table['host_token']}"}, timeout=WAIT)
    assert response.status_code == 200, response.text


# --- what may never be seen ----------------------------------------------------

def face_down_leaks(message) -> list:
    """Every tile in a message that is face down yet says more than its back (a colour)."""
    found = []
    if isinstance(message, dict):
        if message.get("turned") is False and set(message) - {"turned", "colour"}:
            found.append(message)
        for value in message.values():
            found += face_down_leaks(value)
    elif isinstance(message, list):
        for value in message:
            found += face_down_leaks(value)
    return found


def sealed_draws_leak(log: dict) -> list:
    return [entry for entry in log["entries"] if entry["kind"] == "draw" and entry["secret"]
            and entry["result"] is not None]


# --- a Stratégie player, goal-directed among the legal actions -----------------------

class StrategiePlayer:
    """Picks among the legal actions the rules list, in an order that ends the game:
    the Defender shoots whenever it can; the Alien plays bonus tiles, claims once
    (wrongly: the Defender says no) and otherwise passes."""

    def __init__(self):
        self.claimed = False
        self.bonus_turn = None

    def choose(self, game: dict, seat: int) -> dict | None:
        legal = game["legal"]
        if not legal:
            return None
        by_type = {}
        for action in legal:
            by_type.setdefault(action["type"], []).append(action)
        role = game["role"]
        if "confirm" in by_type:
            return {"type": "confirm", "accept": False}
        if "repair" in by_type:
            return by_type["repair"][-1]
        if "heart" in by_type:
            return {"type": "heart", "already": False}
        if role == DEFENDER:
            return self._defender(game, by_type)
        return self._alien(game, by_type)

    def _defender(self, game, by_type):
        if "hit" in by_type:
            return min(by_type["hit"], key=lambda hit: (hit.get("munitions", False), hit["extra_life"]))
        if "move" in by_type:
            return by_type["move"][0]
        if "throw" in by_type:
            return {"type": "throw", "dice": [1]} if game["dice"][DEFENDER] else {"type": "throw"}
        return {"type": "end_turn"}

    def _alien(self, game, by_type):
        if not game["dice"][ALIEN]:
            return {"type": "throw"}
        if "claim" in by_type and not self.claimed and game["turn"] >= 3:
            self.claimed = True
            return {"type": "claim"}
        if "bonus" in by_type and self.bonus_turn != game["turn"]:
            self.bonus_turn = game["turn"]
            return by_type["bonus"][0]
        return {"type": "end_turn"}


def test_a_whole_strategie_game_and_no_face_down_tile_ever_shown(server):
    url = server.url
    table, seats = open_table(url, {"mode": "strategie"})
    code = table["code"]
    phones = [Screen(url, code, seat["token"]) for seat in seats]
    host = Screen(url, code, table["host_token"])
    spectator = Screen(url, code, None)
    api_answers = []
    try:
        start(url, table)
        for phone in phones:
            phone.wait_for_game(lambda game: game["phase"] == "roles")
        assert phones[1].act({"type": "choose_role", "role": ALIEN, "id": "role-1"})["ok"]
        alien, defender = phones[1], phones[0]
        seat_of = {alien: seats[1]["seat"], defender: seats[0]["seat"]}
        player = StrategiePlayer()
        actions = 0
        while True:
            game = alien.wait_for_game(lambda g: g["phase"] in ("playing", "over"))["game"]
            if game["winner"]:
                break
            mover = defender if game["pending"] and game["pending"]["kind"] == "claim" else (
                alien if game["active"] == ALIEN else defender)
            view = mover.wait_for_game(lambda g, version=game: len(g["history"]) >= len(version["history"]))
            action = player.choose(view["game"], seat_of[mover])
            answer = mover.act({**action, "id": f"a{actions}"})
            assert answer["ok"], (action, answer)
            actions += 1
            assert actions < MAX_ACTIONS, "the game should have ended"
            for screen in phones + [host, spectator]:
                screen.wait_for_game(lambda g, n=len(game["history"]): len(g["history"]) > n)
            if actions % 10 == 0:  # the JSON API, as each viewer, now and then during the game
                for token in [seat["token"] for seat in seats] + [table["host_token"], None]:
                    headers = {"Authorization": f"Bearer {token}"} if token else {}
                    api_answers.append(requests.get(f"{url}/api/tables/{code}", headers=headers, timeout=WAIT).json())
                api_answers.append(requests.get(f"{url}/api/tables/{code}/log", timeout=WAIT).json())

        final = [screen.wait_for_game(lambda g: g["winner"] is not None)["game"] for screen in phones + [host, spectator]]
        assert {json.dumps(game, sort_keys=True) for game in final[2:]} == {
            json.dumps({**final[0], "role": None, "legal": []}, sort_keys=True)}
        game = final[0]
        assert game["winner"] == DEFENDER and game["phase"] == "over"
        assert game["saucers_on_board"] == 0
        assert sum(game["saucers"]["eliminated"].values()) == 12 + game["saucers"]["repairs"]
        assert player.claimed and any(e["type"] == "claim_answered" and not e["accepted"] for e in game["history"])
        assert any(tile["turned"] for tile in game["alien_tiles"] + game["defender_tiles"])
        assert game["turn"] > 2 and game["ended_at"] >= game["started_at"]

        everything = [message for screen in phones + [host, spectator] for message in screen.messages] + api_answers
        assert len(everything) > 4 * actions
        assert face_down_leaks(everything) == []
        # Until the game's seed is revealed (at its end), no face-down tile's draw shows its result.
        sealed = [log for log in api_answers if "entries" in log and not log.get("seed")]
        assert sealed and [sealed_draws_leak(log) for log in sealed] == [[] for _ in sealed]

        # Closed, the table reveals its seed: every draw of the game checks out.
        requests.post(f"{url}/api/tables/{code}/actions", json={"type": "table.close"},
                      headers={"Authorization": f"Bearer {table['host_token']}"}, timeout=WAIT)
        log = requests.get(f"{url}/api/tables/{code}/log", timeout=WAIT).json()
        report = verify_log(log)
        assert report.ok is True and report.draws_checked == len([e for e in log["entries"] if e["kind"] == "draw"])
        assert not [note for note in report.notes if "not checked against the draws" in note]  # Arkade's check ran
        # A throw whose face was changed after the fact, with its draws left alone, is caught at its entry.
        edited = copy.deepcopy(log)
        thrown = next(e for e in edited["entries"] if e["kind"] == "event" and e["event"]["type"] == "thrown"
                      and e["event"]["role"] == DEFENDER)
        thrown["event"]["faces"][0] = thrown["event"]["faces"][0] % 6 + 1
        caught = verify_log(edited)
        assert not caught.ok and [where for where, _ in caught.problems] == [thrown["i"]]
    finally:
        for screen in phones + [host, spectator]:
            screen.close()


def test_arcade_both_phones_throw_at_once_and_no_throw_is_lost_or_doubled(server):
    url = server.url
    table, seats = open_table(url, {"mode": "arcade", "alien": "first", "countdown": 1})
    code = table["code"]
    alien, defender = (Screen(url, code, seat["token"]) for seat in seats)
    host = Screen(url, code, table["host_token"])
    try:
        start(url, table)
        assert alien.act({"type": "ready", "id": "ready-a"})["ok"]
        assert defender.act({"type": "ready", "id": "ready-d"})["ok"]
        game = alien.wait_for_game(lambda g: g["phase"] == "countdown")["game"]
        assert alien.act({"type": "throw", "id": "too-soon"})["ok"] is False  # not before top départ
        # The phone's own countdown: it waits, in the server's time, for the end of it.
        time.sleep(max(0.0, game["countdown_from"] + game["countdown_seconds"] - alien.latest["time"]))
        assert alien.act({"type": "go", "id": "go-a"})["ok"]
        assert defender.act({"type": "go", "id": "go-d"})["ok"] is False  # the second "go" changes nothing

        throws = 25
        barrier = threading.Barrier(2)
        answers = {ALIEN: [], DEFENDER: []}

        def play(phone: Screen, role: str):
            barrier.wait(timeout=WAIT)
            for n in range(throws):
                answers[role].append(phone.act({"type": "throw", "id": f"{role}-{n}"}))
            answers[role].append(phone.act({"type": "throw", "id": f"{role}-{throws - 1}"}))  # a resend

        threads = [threading.Thread(target=play, args=(alien, ALIEN)),
                   threading.Thread(target=play, args=(defender, DEFENDER))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=4 * WAIT)
        for role in (ALIEN, DEFENDER):
            assert all(answer["ok"] for answer in answers[role])
            assert answers[role][-1]["duplicate"] is True and answers[role][-1]["events"] == answers[role][-2]["events"]

        final = [screen.wait_for_game(lambda g: g["throws"][ALIEN] == throws and g["throws"][DEFENDER] == throws)["game"]
                 for screen in (alien, defender, host)]
        thrown = [event for event in final[2]["history"] if event["type"] == "thrown"]
        assert len(thrown) == 2 * throws
        assert sorted(event["throw"] for event in thrown if event["role"] == ALIEN) == list(range(1, throws + 1))
        assert sorted(event["throw"] for event in thrown if event["role"] == DEFENDER) == list(range(1, throws + 1))
        assert final[0]["history"] == final[1]["history"] == final[2]["history"]
        log = requests.get(f"{url}/api/tables/{code}/log", timeout=WAIT).json()
        assert len([entry for entry in log["entries"] if entry["kind"] == "draw"]) == 2 * throws * 2
        # Both phones saw the other's throws live, in the order the server took them.
        # (Messages that arrive together may be recorded in either order: the views are taken by version.)
        views = sorted((v for e, v in alien.messages if e == "view" and v["game"]), key=lambda v: v["version"])
        seen_by_alien = [view["game"]["throws"][DEFENDER] for view in views]
        assert seen_by_alien == sorted(seen_by_alien) and seen_by_alien[-1] == throws
    finally:
        for screen in (alien, defender, host):
            screen.close()


# --- bad input through the JSON API, in-process: a clear error and nothing changed ----

def arkade_in_play(client) -> tuple[str, dict, dict]:
    table = new_table(client, "arkade", {"alien": "first"}, names=("Zoé", "Max"))
    started = client.post(f"/api/tables/{table['code']}/actions", json={"type": "table.start"},
                          headers=bearer(table["host_token"]))
    assert started.status_code == 200, started.json
    return table["code"], table, table["seats"]


@pytest.mark.parametrize("who, action, status, complaint", [
    ("Max", {"type": "throw"}, 400, "It is Zoé's turn."),  # out of turn: the Alien plays first
    ("Zoé", {"type": "move"}, 400, "Only the Defender can do that."),  # the other role's action
    ("Zoé", {"type": "hit", "colour": "blue"}, 400, "Only the Defender can do that."),
    ("Zoé", {"type": "throw", "dice": [5]}, 400,
     "Choose which dice to throw: a list of die numbers from 0 to 1."),  # malformed
    ("Zoé", {"type": "bonus", "colour": "blue"}, 400, "Throw your dice first."),
    ("Zoé", {"type": "choose_role", "role": "defender"}, 400, "Not now: the table is playing the game."),
    ("Zoé", {"type": "teleport"}, 400, "Unknown action: teleport."),
    ("Zoé", {"type": "throw", "seat": 2}, 403, "You can only act for your own seat."),  # for another seat
    ("host", {"type": "throw"}, 403, "The host screen does not play: act from a seat."),
    ("forged", {"type": "throw"}, 401, None),
])
def test_bad_arkade_actions_are_refused_and_change_nothing(client, tables, who, action, status, complaint):
    code, table, seats = arkade_in_play(client)
    token = {"host": table["host_token"], "forged": "x" * 32}.get(who) or seats[who]["token"]
    before = snapshot(tables, code)
    refused = client.post(f"/api/tables/{code}/actions", json=action, headers=bearer(token))
    assert refused.status_code == status
    if complaint:
        assert refused.json["error"] == complaint
    assert snapshot(tables, code) == before


def test_a_phone_cannot_choose_the_time_of_its_action(client, tables):
    """The shell stamps "at" itself: a phone claiming a later time cannot cut the countdown short."""
    table = new_table(client, "arkade", {"alien": "first", "mode": "arcade", "countdown": 10}, names=("Zoé", "Max"))
    code, seats = table["code"], table["seats"]
    client.post(f"/api/tables/{code}/actions", json={"type": "table.start"}, headers=bearer(table["host_token"]))
    for name in ("Zoé", "Max"):
        assert client.post(f"/api/tables/{code}/actions", json={"type": "ready"},
                           headers=bearer(seats[name]["token"])).status_code == 200
    early = client.post(f"/api/tables/{code}/actions", json={"type": "go", "at": 4_000_000_000},
                        headers=bearer(seats["Zoé"]["token"]))
    assert early.status_code == 400 and early.json["error"] == "Wait for the countdown: top départ!"
