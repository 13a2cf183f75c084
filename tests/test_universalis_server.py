"""Mario Universalis end to end: the real server process, two python-socketio
phones and a host screen play the first four turns of a duel, with a combat of
two attackers — one blocked by two blockers, one unblocked — and the coins, PC
and KOs are checked on every screen. Bad input over Socket.IO changes nothing."""

from __future__ import annotations

import pytest
import requests

from companion.verify import verify_log
from tests.helpers import ENTROPY, bearer
from tests.screen import WAIT, Screen
from tests.server import ServerProcess

# A bot plays faster than a thumb; a phone that leaves is away at once.
FAST = {"COMPANION_RATE_BURST": "1000", "COMPANION_RATE_PER_SECOND": "1000", "COMPANION_AWAY_SECONDS": "0"}


@pytest.fixture
def duel(tmp_path):
    """A started duel; the phones and the host screen connected; who plays first as the table drew it."""
    server = ServerProcess(tmp_path, extra_env=FAST).start()
    created = requests.post(f"{server.url}/api/tables", json={"game": "universalis", "options": {"starting_coins": 10}},
                            timeout=WAIT)
    assert created.status_code == 201, created.text
    table = created.json()
    seats = {}
    for name in ("Ana", "Bo"):
        joined = requests.post(f"{server.url}/api/tables/{table['code']}/seats",
                               json={"name": name, "entropy": ENTROPY}, timeout=WAIT)
        assert joined.status_code == 201, joined.text
        seats[name] = joined.json()
    started = requests.post(f"{server.url}/api/tables/{table['code']}/actions", json={"type": "table.start"},
                            headers=bearer(table["host_token"]), timeout=WAIT)
    assert started.status_code == 200, started.text
    phones = {seats[name]["seat"]: Screen(server.url, table["code"], seats[name]["token"]) for name in seats}
    host = Screen(server.url, table["code"], table["host_token"])
    first = phones[next(iter(phones))].wait_for_game(lambda game: True)["game"]["active"]
    yield {"phones": phones, "host": host, "first": first,
           "second": next(seat for seat in phones if seat != first), "url": server.url, "table": table}
    for screen in [*phones.values(), host]:
        screen.close()
    server.stop()


def step_to(phone: Screen, phase: str) -> dict:
    """The active phone taps "next" until the phase is reached; the view then."""
    # A view from before the turn passed to this phone could lie: wait until it says this phone plays.
    game = phone.wait_for(lambda v: v["game"] is not None and v["game"]["active"] == v["you"]["seat"])["game"]
    while game["phase"] != phase:
        phone.play({"type": "next"})
        game = phone.wait_for_game(lambda g, left=game["phase"]: g["phase"] != left)["game"]
    return game


def pass_turn(phone: Screen) -> dict:
    """The active phone ends its turn; the view once the other player's turn has started (its start, refill and
    draw pass by themselves)."""
    game = phone.wait_for(lambda v: v["game"] is not None and v["game"]["active"] == v["you"]["seat"])["game"]
    turn = game["turn"]
    phone.play({"type": "end_turn"})
    return phone.wait_for_game(lambda g: g["turn"] == turn + 1 and g["phase"] == "prep1")


def card_id(game: dict, name: str) -> int:
    return next(card["id"] for card in game["in_play"] if card["name"] == name)


def play_character(phone: Screen, name: str, cost: int, pf: int, pc: int) -> dict:
    phone.play({"type": "play", "card": {"kind": "character", "name": name, "cost": cost, "pf": pf, "pc": pc}})
    return phone.wait_for_game(lambda g: any(c["name"] == name for c in g["in_play"]))["game"]


def test_four_turns_of_a_duel_with_a_combat_on_two_phones(duel):
    first, second = duel["phones"][duel["first"]], duel["phones"][duel["second"]]
    # Turn 1: the first player plays Koopa (PF 3, PC 5) and Goomba (next turn); no attack in global turn 1.
    game = step_to(first, "prep1")
    assert [e["type"] for e in game["history"]] == ["turn", "no_refill", "no_draw"]  # they passed by themselves
    game = play_character(first, "Koopa", cost=3, pf=3, pc=5)
    assert first.act({"type": "attack", "attackers": [card_id(game, "Koopa")]})["ok"] is False
    pass_turn(first)
    # Turn 2: the second player plays Boo (PF 1, PC 3).
    step_to(second, "prep1")
    play_character(second, "Boo", cost=2, pf=1, pc=3)
    pass_turn(second)
    # Turn 3: the first player plays Goomba (PF 2, PC 4)... and the second puts Bill into play, as a card says.
    step_to(first, "prep1")
    play_character(first, "Goomba", cost=2, pf=2, pc=4)
    second.play({"type": "play", "card": {"kind": "character", "name": "Bill", "cost": 0, "pf": 2, "pc": 2},
                 "free": True})
    first.wait_for_game(lambda g: any(card["name"] == "Bill" for card in g["in_play"]))
    game = step_to(first, "attackers")
    coins_before = {seat: game["players"][str(seat)]["coins"] for seat in (duel["first"], duel["second"])}
    koopa, goomba, boo, bill = (card_id(game, name) for name in ("Koopa", "Goomba", "Boo", "Bill"))
    first.play({"type": "attack", "attackers": [koopa, goomba]})
    game = second.wait_for_game(lambda g: g["phase"] == "blockers")["game"]
    assert game["waiting"][0]["seat"] == duel["second"] and game["waiting"][0]["timed"] is True
    second.play({"type": "block", "blocks": {str(boo): koopa, str(bill): koopa}})
    first.wait_for_game(lambda g: g["phase"] == "sharing")
    first.play({"type": "share", "shares": {str(koopa): {str(boo): 3, str(bill): 0}}})
    # Boo would be KO'd: the damage waits, per card, on both phones, before it is dealt.
    shown = second.wait_for_game(lambda g: g["phase"] == "damage")["game"]
    assert shown["combat"]["damage"]["losses"][str(boo)] == 3 and any(c["name"] == "Boo" for c in shown["in_play"])
    first.play({"type": "deal"})
    for screen in (first, second, duel["host"]):
        game = screen.wait_for_game(lambda g: g["turn"] == 3 and g["phase"] == "prep2")["game"]
        names = {card["name"]: card for card in game["in_play"]}
        assert "Boo" not in names  # 1 PC left of 3, minus Koopa's 3: KO
        assert names["Koopa"]["pc"] == 5 - 1 - 2 and names["Bill"]["pc"] == 2 and names["Goomba"]["pc"] == 4
        assert game["players"][str(duel["first"])]["coins"] == coins_before[duel["first"]] + 2  # Goomba passed
        assert game["players"][str(duel["second"])]["coins"] == coins_before[duel["second"]] - 1
        assert game["players"][str(duel["second"])]["graveyard"] == ["Boo"]
        assert any(event["type"] == "put_into_play" for event in game["history"])
        combat = next(event for event in game["history"] if event["type"] == "combat")
        assert {(c["name"], c["loss"]) for c in combat["cards"]} == {("Koopa", 3), ("Boo", 3), ("Bill", 0)}
    # Turn 4: the second player's; the first player's PF are back to base, the turn counter moved on.
    game = pass_turn(first)["game"]
    assert game["turn"] == 4 and game["active"] == duel["second"] and game["global_turn"] == 2
    # A card asks for a die: the table's fair draw, on every screen.
    second.play({"type": "roll", "what": "die"})
    rolled = duel["host"].wait_for_game(lambda g: g["roll"] is not None)["game"]["roll"]
    assert rolled["seat"] == duel["second"] and 1 <= rolled["result"] <= 6
    # The duel's draws (who plays first, the die) verify, with the verifier's own check of the duel.
    closed = requests.post(f"{duel['url']}/api/tables/{duel['table']['code']}/close",
                           headers=bearer(duel["table"]["host_token"]), timeout=WAIT)
    assert closed.status_code == 200, closed.text
    report = verify_log(requests.get(f"{duel['url']}/api/tables/{duel['table']['code']}/log", timeout=WAIT).json())
    assert report.ok and report.draws_checked >= 2 and not [n for n in report.notes if "not checked" in n]


def test_bad_input_over_socketio_changes_nothing(duel):
    first, second = duel["phones"][duel["first"]], duel["phones"][duel["second"]]
    version = first.wait_for_game(lambda g: True)["version"]
    tried = {
        "unknown action": {"type": "shuffle"},
        "out of turn": {"type": "next"},
        "malformed card": {"type": "play", "card": {"name": 5}},
        "a card not in play": {"type": "sacrifice", "card": 404},
        "the host's table action from a seat": {"type": "table.close"},
    }
    for what, action in tried.items():
        answer = (first if what != "out of turn" else second).act(action)
        assert answer["ok"] is False and answer["error"], what
    assert requests.get(f"{duel['url']}/api/tables/{duel['table']['code']}", timeout=WAIT).json()["version"] == version


def test_a_player_takes_back_a_mistaken_card_until_the_other_acts(duel):
    first, second = duel["phones"][duel["first"]], duel["phones"][duel["second"]]
    step_to(first, "prep1")
    play_character(first, "Koopa", cost=3, pf=3, pc=5)
    first.play({"type": "seat.undo"})
    game = second.wait_for_game(lambda g: g["in_play"] == [])["game"]
    assert game["players"][str(duel["first"])]["coins"] == 10 and game["this_turn"]["characters"] == 0
    play_character(first, "Koopa", cost=3, pf=3, pc=5)
    second.play({"type": "coins", "seat": duel["second"], "delta": 1})
    assert first.act({"type": "seat.undo"})["ok"] is False  # the other player acted since


def test_a_defender_whose_phone_left_mid_combat_never_blocks_the_duel(duel):
    """The host decides for the away defender (no blockers, named in both languages), then takes
    the player out: the duel is lost by forfeit."""
    first, second = duel["phones"][duel["first"]], duel["phones"][duel["second"]]
    step_to(first, "prep1")
    play_character(first, "Koopa", cost=3, pf=3, pc=5)
    pass_turn(first)
    second.wait_for_game(lambda g: g["turn"] == 2)
    pass_turn(second)
    first.wait_for_game(lambda g: g["turn"] == 3)
    step_to(first, "prep1")
    first.play({"type": "attack", "attackers": [card_id(first.latest["game"], "Koopa")]})
    second.close()
    duel["host"].wait_away(duel["second"])
    view = duel["host"].wait_for(lambda v: v["table"].get("proxy", {}).get(str(duel["second"])))
    choice = view["table"]["proxy"][str(duel["second"])][0]
    assert choice["type"] == "no_block" and choice["label"] == {
        "en": "no blockers: every attacker passes", "fr": "aucun bloquant\u00a0: tous les attaquants passent"}
    duel["host"].play({"type": "table.decide", "seat": duel["second"], "action": choice})
    game = first.wait_for_game(lambda g: g["turn"] == 3 and g["phase"] == "prep2")["game"]
    passed = next(e for e in game["history"] if e["type"] == "combat")["passed"]
    assert passed == [{"card": card_id(game, "Koopa"), "name": "Koopa"}]
    duel["host"].play({"type": "table.withdraw", "seat": duel["second"]})
    over = first.wait_for(lambda v: v["table"]["status"] == "over")
    assert over["table"]["outcome"]["winners"] == [duel["first"]]


def test_a_phone_changes_the_other_players_coins_as_a_card_says(duel):
    """A card's effect on the opponent's coins names them with "of" (the table reads "seat" as the acting seat)."""
    first = duel["phones"][duel["first"]]
    before = first.wait_for_game(lambda g: True)["game"]["players"][str(duel["second"])]["coins"]
    first.play({"type": "coins", "of": duel["second"], "delta": 2})
    game = duel["phones"][duel["second"]].wait_for_game(
        lambda g: g["players"][str(duel["second"])]["coins"] == before + 2)["game"]
    assert game["history"][-1] == {"type": "coins", "seat": duel["first"], "of": duel["second"], "delta": 2,
                                   "now": before + 2}


def test_the_host_screen_plays_a_duel_without_phones_and_a_tv_that_only_displays_cannot(tmp_path):
    """« a single phone (or the TV) keeps both players' counters »: two names, no seat; the host screen
    (its host token) acts for whoever the duel waits on; a display without the token is refused."""
    server = ServerProcess(tmp_path, extra_env=FAST).start()
    try:
        table = requests.post(f"{server.url}/api/tables", json={"game": "universalis", "options": {
            "opponent": ["Ana", "Bo"], "first": "first_seat", "starting_coins": 10}}, timeout=WAIT).json()
        url = f"{server.url}/api/tables/{table['code']}/actions"
        started = requests.post(url, json={"type": "table.start"}, headers=bearer(table["host_token"]), timeout=WAIT)
        assert started.status_code == 200, started.text
        host, tv = Screen(server.url, table["code"], table["host_token"]), Screen(server.url, table["code"], None)
        game = host.wait_for_game(lambda g: True)["game"]
        assert game["host_plays"] and game["acting"] == -1 and {"type": "end_turn", "as": -1} in game["legal"]
        assert tv.wait_for_game(lambda g: True)["game"]["legal"] == []
        assert tv.act({"type": "end_turn", "as": -1})["ok"] is False
        host.play({"type": "play", "card": {"kind": "character", "name": "Koopa", "cost": 3, "pf": 3, "pc": 5},
                   "as": -1})
        host.play({"type": "end_turn", "as": -1})
        game = tv.wait_for_game(lambda g: g["turn"] == 2)["game"]
        assert game["acting"] == -2 and game["players"]["-1"]["coins"] == 7
        assert game["in_play"][0]["controller"] == -1
        host.close()
        tv.close()
    finally:
        server.stop()
