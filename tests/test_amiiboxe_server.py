"""Amiiboxe end to end: the real server (python app.py) with the AmiiboAPI
catalogue imported, the udp NFC emulator read through nfcpy's own code, a host
screen and two python-socketio phones playing a whole 2 × 3 game.

Figures are registered by tapping them on the reader; during play a tap picks
the attacker; fights are decided by values, by the players' judgement (both
agree: the house ranking learns it) or by values they enter; captured figures
are carried and retired for points until one player has no figure left."""

from __future__ import annotations

import time

import pytest
import requests

from hardware.emulate import Emulator
from tests import layout_states
from tests.helpers import ENTROPY, bearer
from tests.screen import WAIT, Screen
from tests.server import ServerProcess, server_fixture

# One table's agreement teaches the house ranking here (by default it takes two tables: test_rankings_proposals).
FAST = {"COMPANION_RATE_BURST": "1000", "COMPANION_RATE_PER_SECOND": "1000", "COMPANION_HOUSE_TABLES": "1"}
ANA_FIGURES = [("04a00000000001", "0x0000000000000002", "Mario"), ("04a00000000002", "0x0100000000040002", "Link"),
               ("04a00000000003", "0x0002000000010002", "Peach")]
BO_FIGURES = [("04b00000000001", "0x0005000000140002", "Bowser"), ("04b00000000002", "0x1919000000090002", "Pikachu"),
              ("04b00000000003", "0x1f000000000a0002", "Kirby")]
MAX_ACTIONS = 400


@pytest.fixture
def table_server(tmp_path):
    with Emulator(port=0) as emulator:
        # The server loads the shipped catalogue on its first start: every figure has its name.
        server = ServerProcess(tmp_path, extra_env={"COMPANION_READER": emulator.path, **FAST})
        server.start()
        yield server, emulator
        server.stop()


def registered(count: int, seat: int):
    return lambda view: sum(f["seat"] == seat for f in view["table"]["figures"]["list"]) == count


def register_by_nfc(emulator, host: Screen, phone: Screen, seat: int, figures) -> None:
    phone.play({"type": "figure.adding", "on": True})
    for number, (uid, amiibo_id, _) in enumerate(figures, start=1):
        emulator.place(uid, amiibo_id)
        host.wait_for(registered(number, seat))
        emulator.remove()
    phone.play({"type": "figure.adding", "on": False})


def game(screen: Screen) -> dict:
    return screen.latest["game"]


def choose(view_game: dict, seat: int) -> dict | None:
    """The phone's policy: retire a figure carrying a captive, else attack, else move."""
    own = [f for f in view_game["figures"] if f["seat"] == seat and f["status"] == "in_play"]
    enemies = [f for f in view_game["figures"] if f["seat"] != seat and f["status"] == "in_play"]
    carrying = [f for f in own if f["carries"]]
    if carrying:
        return {"type": "retire", "figure": carrying[0]["id"]}
    if own and enemies:
        return {"type": "attack", "attacker": own[0]["id"], "defender": enemies[0]["id"]}
    return None


def test_a_whole_two_by_three_game_with_figures_tapped_on_the_reader(table_server):
    server, emulator = table_server
    url = server.url
    created = requests.post(f"{url}/api/tables", json={"game": "amiiboxe", "options": {}}, timeout=WAIT).json()
    code = created["code"]
    seats = {name: requests.post(f"{url}/api/tables/{code}/seats", json={"name": name, "entropy": ENTROPY},
                                 timeout=WAIT).json() for name in ("Ana", "Bo")}
    host = Screen(url, code, created["host_token"])
    phones = {name: Screen(url, code, seats[name]["token"]) for name in seats}
    seat_of = {name: seats[name]["seat"] for name in seats}
    screens = [host, *phones.values()]
    try:
        while host.readers.get(timeout=WAIT)["state"] != "connected":
            pass  # "off" until the reader process has opened the emulator
        register_by_nfc(emulator, host, phones["Ana"], seat_of["Ana"], ANA_FIGURES)
        register_by_nfc(emulator, host, phones["Bo"], seat_of["Bo"], BO_FIGURES)
        listed = host.latest["table"]["figures"]["list"]
        assert [f["name"]["en"] for f in listed] == [name for *_, name in ANA_FIGURES + BO_FIGURES]

        requests.post(f"{url}/api/tables/{code}/actions", json={"type": "table.start"}, timeout=WAIT,
                      headers={"Authorization": f"Bearer {created['host_token']}"}).raise_for_status()
        view = host.wait_for(lambda v: v["game"] is not None)
        assert view["game"]["setup"]["size"] == 4 and view["game"]["needs"] == ["first_player"]
        suggested = {f["name"]["en"]: f["location"] for f in view["game"]["figures"]}
        assert suggested == {"Mario": "Royaume Champignon", "Link": "Temple du temps", "Peach": "Château de Peach",
                             "Bowser": "Château de Bowser", "Pikachu": "Bourg Palette", "Kirby": "Dream Land"}

        # Setup: an owner changes a home location, chosen from the table's cards; the phones agree on
        # who plays first, then the host begins.
        bo = phones["Bo"]
        bo.wait_for(lambda v: v["game"] is not None)
        kirby = next(f for f in game(bo)["figures"] if f["name"]["en"] == "Kirby")
        bo.play({"type": "name_location", "figure": kirby["id"], "name": "enfers"})
        for name in ("Ana", "Bo"):
            phones[name].play({"type": "first_player", "player": seat_of["Ana"]})
        host.wait_for(lambda v: v["game"]["needs"] == [])
        host.play({"type": "begin"})
        host.wait_for(lambda v: v["game"]["phase"] == "play")
        assert sorted(game(host)["setup"]["locations"]) == sorted(set(suggested.values()) - {"Dream Land"} | {"Enfers"})

        # A tap on the reader during Ana's turn picks her attacker.
        ana = phones["Ana"]
        emulator.place(*ANA_FIGURES[1][:2])
        ana.wait_for(lambda v: v["game"] is not None and v["game"]["selected"]["figure"] is not None)
        emulator.remove()
        picked = game(ana)["selected"]["figure"]
        assert next(f for f in game(ana)["figures"] if f["id"] == picked)["name"]["en"] == "Link"
        enemy = next(f for f in game(ana)["figures"] if f["seat"] == seat_of["Bo"])
        ana.play({"type": "attack", "defender": enemy["id"], "id": "tap-attack"})

        host.wait_for(lambda v: len(v["game"]["fights"]) == 1 or v["game"]["fight"] is not None)

        actions = 0
        while True:
            version = host.latest["version"]
            for phone in phones.values():  # every screen up to date before anyone decides
                phone.wait_for(lambda v, seen=version: v["version"] >= seen)
            current = game(host)
            if current["phase"] == "over":
                break
            if current["fight"]:
                for name, phone in phones.items():
                    mine = game(phone)["fight"]
                    role = next((r for r, owner in mine["seats"].items() if owner == seat_of[name]), None)
                    if role is None or mine["answered"][role]:
                        continue
                    if mine["exchange"] == "judge":  # both agree: the attacker wins
                        phone.play({"type": "judge", "winner": mine["attacker"], "id": f"j{actions}"})
                    else:
                        phone.play({"type": "enter_value", "value": 2 if role == "attacker" else 1,
                                   "id": f"v{actions}"})
                    actions += 1
                    break  # one action, then look again
            else:
                name = next(n for n in seats if seat_of[n] == current["active"])
                action = choose(game(phones[name]), seat_of[name])
                assert action is not None
                phones[name].play({**action, "id": f"a{actions}"})
                actions += 1
            host.wait_for(lambda v, seen=version: v["version"] > seen)
            assert actions < MAX_ACTIONS, "the game should have ended"

        final = game(host)
        points = {seat["id"]: seat["points"] for seat in final["seats"]}
        # Points only from retires: 1 + the enemies the figure carried.
        from_retires = {seat: 0 for seat in points}
        for retire in final["retires"]:
            from_retires[retire["seat"]] += retire["points"]
        assert points == from_retires and sum(points.values()) > 0
        best = max(points.values())
        assert sorted(final["winners"]) == sorted(seat for seat, score in points.items() if score == best)
        assert all(f["status"] != "in_play" for f in final["figures"])
        assert len(final["fights"]) >= 3 and all(f["winner"] in ("attacker", "defender", "tie") for f in final["fights"])
        for phone in phones.values():
            assert phone.wait_for(lambda v: v["game"]["phase"] == "over")["game"]["winners"] == final["winners"]

        # What the players agreed on is remembered in the house ranking for later games.
        learned = [f for f in final["fights"] if f.get("by") == "agreement" and f["winner"] == "attacker"]
        for fight in learned:
            ids = {f["id"]: f["amiibo_id"] for f in final["figures"]}
            ranking = requests.get(f"{url}/api/rankings/{fight['criterion']}?figures="
                                   f"{ids[fight['attacker']]},{ids[fight['defender']]}", timeout=WAIT).json()
            if ranking["criterion"]["kind"] == "judgement":
                assert ranking["tiers"][0][0]["id"] == ids[fight["attacker"]]
                assert ranking["tiers"][0][0]["source"] == "house"
    finally:
        for screen in screens:
            screen.close()


SEARCHES = {"Ana": ("mario", "LINK", "pikachu"), "Bo": ("bowser", "kirby", "samus"),
            "Cy": ("yoshi", "fox", "ness")}


# COMPANION_READER=none: no reader at all; the shipped catalogue: every figure can be searched by name.
no_reader_server = server_fixture("no-reader", FAST, scope="function")


def pick_by_search(url: str, phone: Screen, query: str) -> str:
    """What the phone's search does: the catalogue in the table's language, then the Smash figure."""
    found = requests.get(f"{url}/api/amiibo", params={"q": query, "limit": 12, "lang": "fr"}, timeout=WAIT).json()
    smash = next(f for f in found["results"] if f["amiibo_series"]["name"] == "Super Smash Bros.")
    phone.play({"type": "figure.pick", "amiibo_id": smash["id"]})
    return smash["id"]


def pick_every_figure_and_start(url: str, created: dict, phones: dict, seat_of: dict, searches: dict) -> None:
    """Each phone picks its figures by search, one after the other; then the host starts the game."""
    for name, queries in searches.items():
        for number, query in enumerate(queries, start=1):
            pick_by_search(url, phones[name], query)
            phones[name].wait_for(registered(number, seat_of[name]))
    requests.post(f"{url}/api/tables/{created['code']}/actions", json={"type": "table.start"}, timeout=WAIT,
                  headers={"Authorization": f"Bearer {created['host_token']}"}).raise_for_status()


def phone_policy(view_game: dict, seat: int) -> dict | None:
    """A phone's choice from its own legal actions: answer for the attacker, retire a carrier,
    attack, else retire, else end the turn."""
    legal = view_game["legal"]
    by_type = {kind: [a for a in legal if a["type"] == kind] for kind in {a["type"] for a in legal}}
    fight = view_game["fight"]
    if fight and by_type.get("judge"):
        return {"type": "judge", "winner": fight["attacker"]}
    if fight and by_type.get("enter_value"):
        role = next(r for r, owner in fight["seats"].items() if owner == seat)
        return {"type": "enter_value", "value": 2 if role == "attacker" else 1}
    carriers = {f["id"] for f in view_game["figures"] if f["carries"]}
    for action in by_type.get("retire", []):
        if action["figure"] in carriers:
            return action
    plain = [a for a in by_type.get("attack", []) if "card" not in a]
    return (plain or by_type.get("retire") or by_type.get("end_turn") or [None])[0]


def test_a_whole_three_player_game_without_a_reader_the_phones_pick_by_search(no_reader_server):
    url = no_reader_server.url
    created = requests.post(f"{url}/api/tables", json={"game": "amiiboxe", "options": {}}, timeout=WAIT).json()
    code = created["code"]
    seats = {name: requests.post(f"{url}/api/tables/{code}/seats", json={"name": name, "entropy": ENTROPY},
                                 timeout=WAIT).json() for name in SEARCHES}
    host = Screen(url, code, created["host_token"])
    phones = {name: Screen(url, code, seats[name]["token"]) for name in seats}
    seat_of = {name: seats[name]["seat"] for name in seats}
    try:
        pick_every_figure_and_start(url, created, phones, seat_of, SEARCHES)
        host.wait_for(lambda v: v["game"] is not None)
        assert host.latest["game"]["setup"]["size"] == 5  # 3 figures + 1, + 1 for three players

        # The phones agree on who plays first; every home card was suggested by the figure's game.
        for name in SEARCHES:
            phones[name].play({"type": "first_player", "player": seat_of["Bo"]})
        host.wait_for(lambda v: v["game"]["needs"] == [])
        host.play({"type": "begin"})
        host.wait_for(lambda v: v["game"]["phase"] == "play")

        actions = 0
        while True:
            version = host.latest["version"]
            for phone in phones.values():
                phone.wait_for(lambda v, seen=version: v["version"] >= seen)
            if host.latest["game"]["phase"] == "over":
                break
            acted = False
            for name, phone in phones.items():
                action = phone_policy(phone.latest["game"], seat_of[name])
                if action is not None:
                    phone.play({**action, "id": f"p{actions}"})
                    actions += 1
                    acted = True
                    break
            assert acted, "nobody could act"
            host.wait_for(lambda v, seen=version: v["version"] > seen)
            assert actions < MAX_ACTIONS, "the game should have ended"

        final = host.latest["game"]
        # The book's scoring: 1 point a retired figure, 1 more a captive it carried; the most points win.
        for retire in final["retires"]:
            assert retire["points"] == 1 + len(retire["carried"])
        points = {seat["id"]: seat["points"] for seat in final["seats"]}
        for seat_id, total in points.items():
            assert total == sum(r["points"] for r in final["retires"] if r["seat"] == seat_id)
        best = max(points.values())
        assert sorted(final["winners"]) == sorted(s for s, total in points.items() if total == best)
        assert final["outcome"]["winners"] == final["winners"]
        assert all(f["status"] != "in_play" for f in final["figures"])
        assert all(f["by"] in ("values", "agreement", "entries", "house", "default", "vote", "no_criterion_left",
                               "tie_on_disagreement") for f in final["fights"])
    finally:
        for screen in [host, *phones.values()]:
            screen.close()


def test_a_phone_that_leaves_during_a_judged_fight_never_stalls_the_table(no_reader_server):
    """A judged fight waits on both phones with the table's deadline; Bo's phone leaves, Ana
    answers, and once the deadline passes the ranking's proposal decides: the game goes on."""
    url = no_reader_server.url
    created = requests.post(f"{url}/api/tables", json={"game": "amiiboxe", "options": {"reference": ["debate"]},
                                                        "timeout": 2}, timeout=WAIT).json()
    code = created["code"]
    seats = {name: requests.post(f"{url}/api/tables/{code}/seats", json={"name": name, "entropy": ENTROPY},
                                 timeout=WAIT).json() for name in ("Ana", "Bo")}
    host = Screen(url, code, created["host_token"])
    phones = {name: Screen(url, code, seats[name]["token"]) for name in seats}
    seat_of = {name: seats[name]["seat"] for name in seats}
    try:
        pick_every_figure_and_start(url, created, phones, seat_of,
                                    {"Ana": ("mario", "link", "peach"), "Bo": ("bowser", "kirby", "samus")})
        host.wait_for(lambda v: v["game"] is not None)
        host.play({"type": "first_player", "player": seat_of["Ana"]})
        host.play({"type": "begin"})
        ana = phones["Ana"]
        game_now = ana.wait_for(lambda v: v["game"] is not None and v["game"]["phase"] == "play")["game"]
        mario = next(f["id"] for f in game_now["figures"] if f["name"]["en"] == "Mario")
        bowser = next(f["id"] for f in game_now["figures"] if f["name"]["en"] == "Bowser")
        ana.play({"type": "attack", "attacker": mario, "defender": bowser})
        asked = host.wait_for(lambda v: v["game"]["fight"] is not None)["game"]
        assert asked["fight"]["exchange"] == "judge" and asked["fight"]["proposal"] is not None
        assert all(wait["timed"] for wait in asked["waiting"])
        phones["Bo"].close()  # Bo's phone leaves in the middle of the judged fight
        ana.play({"type": "judge", "winner": mario})
        decided = host.wait_for(lambda v: v["game"]["fight"] is None and len(v["game"]["fights"]) == 1)["game"]
        assert decided["fights"][0]["by"] in ("default", "house")
        assert decided["active"] == seat_of["Bo"] and decided["phase"] == "play"  # the game goes on
    finally:
        for screen in [host, *phones.values()]:
            screen.close()


away_at_once_server = server_fixture("stop-waiting", {**layout_states.FAST, "COMPANION_AWAY_SECONDS": "0"})


def test_the_host_stops_waiting_at_once_for_an_away_fighters_answer(away_at_once_server):
    """A judged fight against a player who has gone: the host ends the wait now (the game's timeout rule,
    the answer counts as disagreeing) instead of waiting the table's full timeout at each fight."""
    table = layout_states.amiiboxe_judged(away_at_once_server.url)  # Bo's phone never connected: away
    bo = table.seats["Bo"]
    waited = [wait for wait in table.view()["table"]["waiting"] if wait["seat"] == bo]
    assert waited and waited[0]["timed"] and waited[0]["deadline"] > time.time() + 30
    # A seat that is no seat: refused, nothing changes.
    version = table.view()["version"]
    refused = requests.post(f"{table.url}/api/tables/{table.code}/actions", headers=bearer(table.host_token),
                            json={"type": "table.stop_waiting", "seat": 99}, timeout=10)
    assert refused.status_code in (400, 404, 409) and table.view()["version"] == version
    # A phone cannot do it for the host.
    forged = requests.post(f"{table.url}/api/tables/{table.code}/actions", headers=bearer(table.tokens["Ana"]),
                           json={"type": "table.stop_waiting", "seat": bo}, timeout=10)
    assert forged.status_code in (401, 403) and table.view()["version"] == version
    table.act("host", {"type": "table.stop_waiting", "seat": bo})
    after = table.view()
    # That wait is due now: settled at once (Bo's answer counts as disagreeing; with two players the fight
    # may go on to another criterion, which asks Bo again with a deadline of its own), or, while a round of
    # the phones' random contributions is open, as soon as it seals (docs/fairness.md).
    assert not [wait for wait in after["table"]["waiting"]
                if wait["seat"] == bo and wait["for"] == waited[0]["for"] and wait["deadline"] == waited[0]["deadline"]]
    assert after["version"] > version
