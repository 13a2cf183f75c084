"""Arkade's new rules and its waiting steps on the real server, with two Socket.IO phones.

The dice and the tiles are the table's (a fresh seed per table): the options make
the draws that matter certain (a shooting die that only shows blue, a box of
asteroids, a box of reactor tiles), and where a die stays random (the movement
die) the test checks the rule against the face the server threw.

Each waiting step of the game loses its phone and the table goes on: the host
decides for the away seat (the last-line claim, the power tile's question, a
Stratégie turn), hands the seat to another phone, or takes it out of the game
(the other player wins by forfeit).
"""

from __future__ import annotations

import time

import pytest
import requests

from tests.helpers import ENTROPY, bearer
from tests.screen import WAIT, Screen
from tests.live_table import LiveTable, closed_after
from tests.server import ServerProcess, server_fixture

ASTEROIDS = ["1 asteroid", "1 asteroid", "2 asteroid", "2 asteroid", "3 asteroid", "3 asteroid"]


server = server_fixture("arkade", {"COMPANION_AWAY_SECONDS": "0", "COMPANION_RATE_BURST": "1000",
                                   "COMPANION_RATE_PER_SECOND": "1000"})


class Duel(LiveTable):
    """An Arkade table: Zoé plays the Alien, Max the Defender, and the host screen watches."""

    def __init__(self, server: ServerProcess, **options):
        super().__init__(server, "arkade", {"alien": "first", **options}, ("Zoé", "Max"))
        self.alien, self.defender = self.phones["Zoé"], self.phones["Max"]

    def game(self, screen: Screen, ready=lambda game: True) -> dict:
        return screen.wait_for_game(ready)["game"]


@pytest.fixture
def duel(server):
    with closed_after(lambda **options: Duel(server, **options)) as open_duel:
        yield open_duel


def pass_turn(screen: Screen) -> None:
    screen.play({"type": "throw"})
    screen.play({"type": "end_turn"})


ALIEN_TURN = "throw the dice and move saucers as the Alien, then end the turn"
DEFENDER_TURN = "throw the dice, shoot and move the ship as the Defender, then end the turn"


def waiting(view: dict) -> list[tuple[int, str, bool]]:
    return [(wait["seat"], wait["text"]["en"], wait["timed"]) for wait in view["table"]["waiting"]]


def away(t: Duel, screen: Screen, name: str) -> None:
    screen.close()
    t.host.wait_away(t.seat(name))  # not an older presence message, from before the phone connected


# --- the asteroid sacrifice ----------------------------------------------------------

def test_asteroid_sacrifice_on_the_server_both_phones_see_the_saucer_and_the_tile_leave(duel):
    t = duel(power_tiles="on", shooting_die=["blue", "blue"], defender_tiles=ASTEROIDS)
    refused = t.alien.act({"type": "sacrifice", "colour": "pink", "id": "too-soon"})
    assert refused["ok"] is False and refused["error"] == "No asteroid lies on the board."
    for second_blue in (False, True):  # two turns: the Defender shoots a blue saucer in each
        pass_turn(t.alien)
        t.defender.play({"type": "throw"})
        t.defender.play({"type": "hit", "colour": "blue"})
        t.defender.play({"type": "end_turn"})
    game = t.game(t.alien, lambda g: g["on_the_board"]["asteroid"] == 1)
    assert [e["kind"] for e in game["history"] if e["type"] == "defender_tile"] == ["asteroid"]
    assert t.defender.act({"type": "sacrifice", "colour": "pink"})["error"] == "Only the Alien can do that."

    t.alien.play({"type": "sacrifice", "colour": "pink", "extra_life": False})
    for screen in (t.alien, t.defender, t.host):
        game = t.game(screen, lambda g: g["saucers"]["sacrificed"]["pink"] == 1)
        assert game["history"][-1] == {"type": "sacrificed", "colour": "pink", "extra_life": False}
        assert game["on_the_board"]["asteroid"] == 0 and game["saucers"]["on_board"]["pink"] == 3
        assert game["saucers"]["sacrificed"]["pink"] == 1 and game["saucers_on_board"] == 9
    log = requests.get(f"{t.url}/api/tables/{t.code}/log", timeout=WAIT).json()
    assert any(e.get("event", {}).get("type") == "sacrificed" for e in log["entries"])


# --- the Arcade reactor ----------------------------------------------------------------

def test_arcade_reactor_on_the_server_only_the_movement_die_frees_the_ship(duel):
    t = duel(mode="arcade", power_tiles="on", countdown=1, alien_tiles=["reactor"] * 6)
    t.alien.play({"type": "ready"})
    t.defender.play({"type": "ready"})
    game = t.game(t.alien, lambda g: g["phase"] == "countdown")
    # The phone's own countdown: it waits, in the server's time, for the end of it.
    time.sleep(max(0.0, game["countdown_from"] + game["countdown_seconds"] - t.alien.latest["time"]))
    t.alien.play({"type": "go"})
    t.defender.play({"type": "throw"})  # a movement die thrown before the damage
    t.alien.play({"type": "throw"})
    t.alien.play({"type": "bonus", "colour": "green"})
    damaged = t.game(t.defender, lambda g: g["reactor"] == "active")
    assert damaged["history"][-1]["kind"] == "reactor"
    assert t.defender.act({"type": "move"})["ok"] is False  # the die thrown before the damage is spent
    assert t.defender.act({"type": "nugget", "to": 2})["error"].startswith("The reactor is damaged")

    t.defender.play({"type": "throw", "dice": [1]})  # the shooting die alone frees nothing
    assert t.game(t.defender, lambda g: g["throws"]["defender"] == 2)["reactor"] == "active"

    answer = t.defender.play({"type": "throw", "dice": [0]})
    face = answer["events"][0]["faces"][0]
    game = t.game(t.alien, lambda g: g["throws"]["defender"] == 3)
    if face in (1, 6):
        assert answer["events"][1] == {"type": "ship_moved", "to": face, "by": "reactor"} and game["ship"] == face
    else:
        assert answer["events"][1] == {"type": "reactor_stuck", "face": face} and game["ship"] == 1
    assert game["reactor"] == "held"  # no other move until the movement die is thrown again
    assert t.defender.act({"type": "gps", "to": 3})["ok"] is False
    t.defender.play({"type": "throw", "dice": [0]})
    assert t.game(t.alien, lambda g: g["throws"]["defender"] == 4)["reactor"] is None


# --- a phone that leaves in each waiting step ------------------------------------------------

def test_vanished_defender_during_a_claim_the_host_answers_after_the_timed_wait(duel):
    t = duel(power_tiles="off")
    t.alien.play({"type": "throw"})
    t.alien.play({"type": "claim"})
    view = t.host.wait_for(lambda v: v["game"] is not None and v["game"]["pending"])
    assert waiting(view) == [(t.seat("Max"), "answer the Alien's last-line claim", True)]
    assert view["table"]["waiting"][0]["deadline"] is not None
    away(t, t.defender, "Max")
    decide = {"type": "table.decide", "seat": t.seat("Max"), "action": {"type": "confirm", "accept": False}}
    assert t.alien.act(decide)["status"] == 403  # a seat cannot decide for the other
    assert t.host.act({**decide, "action": {"type": "hit", "colour": "blue"}})["status"] == 400  # not an open decision
    t.host.play(decide)
    view = t.host.wait_for(lambda v: v["game"]["pending"] is None)
    assert waiting(view) == [(t.seat("Zoé"), ALIEN_TURN, False)]  # the game goes on
    t.alien.play({"type": "end_turn"})


def test_vanished_alien_during_its_turn_the_seat_is_handed_to_another_phone(duel):
    t = duel(power_tiles="off")
    view = t.host.wait_for(lambda v: v["game"] is not None and v["table"]["waiting"])
    assert waiting(view) == [(t.seat("Zoé"), ALIEN_TURN, False)]
    # Who must do what, in every screen's language.
    assert view["table"]["waiting"][0]["text"]["fr"] == ("lancer les dés et avancer des soucoupes en tant qu’Alien, "
                                                         "puis finir le tour")
    old_token = t.seats["Zoé"]["token"]
    away(t, t.alien, "Zoé")
    offer = t.host.play({"type": "table.handoff", "seat": t.seat("Zoé")})["handoff"]
    claimed = requests.post(f"{t.url}/api/tables/{t.code}/handoff", json={"handoff": offer["code"], "entropy": ENTROPY},
                            timeout=WAIT)
    assert claimed.status_code == 201
    refused = requests.post(f"{t.url}/api/tables/{t.code}/actions", json={"type": "throw"}, headers=bearer(old_token),
                            timeout=WAIT)
    assert refused.status_code == 401
    t.alien = Screen(t.url, t.code, claimed.json()["token"])
    assert t.game(t.alien)["role"] == "alien"
    pass_turn(t.alien)
    assert waiting(t.host.wait_for(lambda v: v["game"]["active"] == "defender")) == [
        (t.seat("Max"), DEFENDER_TURN, False)]


def test_vanished_alien_with_a_tile_question_the_host_answers_then_takes_the_seat_out(duel):
    t = duel(power_tiles="on", alien_tiles=["extra_life"] * 6)
    t.alien.play({"type": "throw"})
    t.alien.play({"type": "bonus", "colour": "green"})  # the first green heart: no question
    t.host.play({"type": "correct", "nuggets": 5})  # the host corrects a counter: both phones see it
    for phone in (t.alien, t.defender):
        assert t.game(phone, lambda g: g["nuggets"] == 5)["history"][-1]["type"] == "corrected"
    t.alien.play({"type": "end_turn"})
    pass_turn(t.defender)
    t.alien.play({"type": "throw"})
    t.alien.play({"type": "bonus", "colour": "green"})  # one green heart of four: which saucer?
    view = t.host.wait_for(lambda v: v["game"] is not None and (v["game"]["pending"] or {}).get("kind") == "heart")
    assert waiting(view) == [(t.seat("Zoé"), "answer the power tile's question", False)]
    away(t, t.alien, "Zoé")
    t.host.play({"type": "table.decide", "seat": t.seat("Zoé"), "action": {"type": "heart", "already": False}})
    game = t.game(t.host, lambda g: g["pending"] is None)
    assert game["saucers"]["extra_lives"]["green"] == 2
    assert view["table"]["withdraw_rule"]["en"] == "Arkade is a duel: the other player wins by forfeit."
    t.host.play({"type": "table.withdraw", "seat": t.seat("Zoé")})
    over = t.defender.wait_for(lambda v: v["table"]["outcome"] is not None)
    assert over["table"]["outcome"]["winners"] == [t.seat("Max")]
    assert over["game"]["history"][-2:] == [{"type": "withdrew", "role": "alien"}, {"type": "won", "winner": "defender"}]


def test_undo_a_nugget_spent_by_mistake_but_never_a_throw(duel):
    t = duel(power_tiles="off")
    pass_turn(t.alien)
    t.defender.play({"type": "throw"})
    assert t.defender.act({"type": "seat.undo"})["status"] == 409  # a throw is a draw: it stays
    t.defender.play({"type": "nugget", "to": 2})
    assert t.game(t.alien, lambda g: g["nuggets"] == 5)["ship"] == 2
    t.defender.play({"type": "seat.undo"})
    game = t.game(t.alien, lambda g: g["nuggets"] == 6)
    assert game["ship"] == 1 and game["dice"]["defender"]  # the throw is still there


def test_vanished_phone_while_choosing_roles_and_getting_ready_the_table_goes_on(duel):
    t = duel(mode="arcade", alien="phones")
    view = t.host.wait_for(lambda v: v["game"] is not None and len(v["table"]["waiting"]) == 2)
    assert {wait[1] for wait in waiting(view)} == {"choose a role"}
    away(t, t.defender, "Max")  # the phone left: the other one chooses for both
    t.alien.play({"type": "choose_role", "role": "alien"})
    view = t.host.wait_for(lambda v: v["game"]["phase"] == "ready")
    assert waiting(view) == [(t.seat("Zoé"), "say ready", False), (t.seat("Max"), "say ready", False)]
    t.alien.play({"type": "ready"})
    decide = {"type": "table.decide", "seat": t.seat("Max"), "action": {"type": "ready"}}
    t.host.wait_for(lambda v: [w["seat"] for w in v["table"]["waiting"]] == [t.seat("Max")])
    t.host.play(decide)  # the host says the away phone is ready: the countdown starts
    assert t.game(t.host, lambda g: g["phase"] == "countdown")["ready"] == {"alien": True, "defender": True}
