"""Rayman's waiting steps on the real server, with Socket.IO phones: a phone that leaves in each of
them and the table goes on.

* the reveal (a phone's own secret): the seat is handed to another phone, which has no pick, so it
  chooses again, every screen is told, and the round goes on; the old token is refused;
* an offer of bonus tokens (co-op, the other player's consent): the host decides for the away seat;
* a turn: the host ends it for the away seat, then takes a seat out of the game: the race goes on
  for the others, as the rule shown to the host says;
* the free move of the last player who keeps a position: the host decides for the away seat.
"""

from __future__ import annotations

import pytest
import requests

from companion.games.rayman import commitment
from companion.verify import verify_log
from tests.helpers import ENTROPY, bearer
from tests.screen import WAIT, Screen
from tests.live_table import LiveTable, closed_after
from tests.server import ServerProcess, server_fixture

NAMES = ("Zoé", "Max", "Léa")


server = server_fixture("rayman-table", {"COMPANION_AWAY_SECONDS": "0", "COMPANION_RATE_BURST": "1000",
                                         "COMPANION_RATE_PER_SECOND": "1000"})


class Race(LiveTable):
    """A Rayman table on the server: a phone per player and the host screen, through the setup."""

    def __init__(self, server: ServerProcess, players: int, **options):
        super().__init__(server, "rayman", options, NAMES[:players])
        for name, phone in self.phones.items():
            phone.play({"type": "character", "name": name})

    def game(self, screen: Screen | None = None, ready=lambda game: True) -> dict:
        return (screen or self.host).wait_for_game(ready)["game"]

    def mine(self, name: str, phase: str = "choosing") -> dict:
        game = self.game(self.phones[name], lambda g: g["you"] == self.seat(name) and g["phase"] == phase)
        return next(player for player in game["players"] if player["seat"] == self.seat(name))

    def lock(self, name: str, pick: tuple) -> tuple[dict, str]:
        """The phone locks in: its pick and salt stay with it, the server gets the commitment."""
        choice = {"bubble": False, "left": pick[0], "second": pick[1]}
        salt = f"{self.seat(name):02x}" * 16
        self.phones[name].play({"type": "lock", "commitment": commitment(choice, salt)})
        return choice, salt

    def choose_all(self, picks: dict) -> None:
        held = {name: self.lock(name, pick) for name, pick in picks.items()}
        for name, (choice, salt) in held.items():
            self.phones[name].play({"type": "reveal", "choice": choice, "salt": salt})
        self.tell_initiatives()

    def tell_initiatives(self) -> None:
        """Each phone tells the initiative printed on a card it plays for the first time (10 × its rank + seat)."""
        game = self.game(ready=lambda g: g["phase"] in ("initiatives", "turns", "round_end"))
        names = {self.seat(name): name for name in self.phones}
        for asked in game["round"]["asking"] if game["phase"] == "initiatives" else []:
            value = (10 * int(asked["card"][1:]) + asked["seat"]) % 100
            self.phones[names[asked["seat"]]].play({"type": "initiative", "seat": asked["seat"], "card": asked["card"],
                                                   "initiative": value})



@pytest.fixture
def race(server):
    with closed_after(lambda players, **options: Race(server, players, **options)) as open_race:
        yield open_race


def waiting(view: dict) -> list[tuple[int, str, bool]]:
    return [(wait["seat"], wait["text"]["en"], wait["timed"]) for wait in view["table"]["waiting"]]


def test_a_phone_lost_at_the_reveal_hands_its_seat_over_and_its_choice_is_drawn(race):
    t = race(2)
    t.lock("Zoé", ("b1", "b2"))
    old_token = t.seats["Max"]["token"]
    t.lock("Max", ("b3", "b4"))
    view = t.host.wait_for(lambda v: v["game"] and v["game"]["phase"] == "revealing")
    assert sorted(waiting(view)) == [(t.seat("Zoé"), "revealing the chosen cards", False),
                                     (t.seat("Max"), "revealing the chosen cards", False)]
    t.phones["Zoé"].play({"type": "reveal", "choice": {"bubble": False, "left": "b1", "second": "b2"},
                          "salt": f"{t.seat('Zoé'):02x}" * 16})
    t.away("Max")  # Max's phone is lost with his pick
    offer = t.host.play({"type": "table.handoff", "seat": t.seat("Max")})["handoff"]
    claimed = requests.post(f"{t.url}/api/tables/{t.code}/handoff", json={"handoff": offer["code"], "entropy": ENTROPY},
                            timeout=WAIT)
    assert claimed.status_code == 201
    refused = requests.post(f"{t.url}/api/tables/{t.code}/actions", json={"type": "repick"},
                            headers=bearer(old_token), timeout=WAIT)
    assert refused.status_code == 401
    t.phones["Max"] = Screen(t.url, t.code, claimed.json()["token"])
    # Zoé's choice is revealed (in the store): Max's new phone may not choose again knowing it. His
    # commitment stands and his choice is drawn (these script phones take part in no round: at once).
    t.phones["Max"].play({"type": "repick"})
    told = t.phones["Zoé"].wait_for(lambda v: v["game"] and {"type": "choice_drawn", "seat": t.seat("Max")}
                                  in v["game"]["history"])
    assert {"type": "choice_lost", "seat": t.seat("Max")} in told["game"]["history"]
    t.tell_initiatives()
    game = t.game(ready=lambda g: g["phase"] == "turns")
    maxs = next(entry for entry in game["round"]["revealed"] if entry["seat"] == t.seat("Max"))
    assert "drawn" in maxs and maxs["salt"] is None
    assert next(e for e in game["round"]["revealed"] if e["seat"] == t.seat("Zoé"))["choice"]["left"] == "b1"


def test_an_away_player_offered_bonus_tokens_the_host_declines_for_them(race):
    t = race(2, mode="coop", boss_move=5)
    t.host.play({"type": "roll"})
    t.choose_all({name: tuple(t.mine(name)["hand"][:2]) for name in t.seats})  # two were discarded at random
    game = t.game(ready=lambda g: g["phase"] == "turns")
    first = next(name for name in t.seats if t.seat(name) == game["active"])
    other = next(name for name in t.seats if name != first)
    t.phones[first].play({"type": "bonus"})
    t.phones[first].play({"type": "give_bonus", "to": t.seat(other), "give": 1, "take": 0})
    view = t.host.wait_for(lambda v: v["game"] and v["game"]["round"]["offer"] is not None)
    assert (t.seat(other), "playing the turns", True) in waiting(view)  # a second phone: timed
    t.away(other)
    decline = {"type": "table.decide", "seat": t.seat(other), "action": {"type": "answer_offer", "accept": False}}
    assert t.phones[first].act(decline)["status"] == 403  # a seat cannot decide for another
    t.host.play(decline)
    game = t.game(ready=lambda g: g["round"]["offer"] is None)
    assert game["history"][-1]["type"] == "bonus_declined"
    assert [player["bonus"] for player in game["players"] if player["seat"] == t.seat(first)] == [1]
    t.phones[first].play({"type": "end_turn"})  # the game goes on


def test_an_away_player_in_their_turn_the_host_ends_it_then_takes_the_seat_out(race):
    t = race(3)
    t.choose_all({"Zoé": ("b7", "b8"), "Max": ("b1", "b2"), "Léa": ("b3", "b4")})
    game = t.game(ready=lambda g: g["phase"] == "turns")
    assert game["active"] == t.seat("Zoé")
    view = t.host.wait_for(lambda v: v["game"] and v["game"]["phase"] == "turns" and v["table"]["waiting"])
    assert waiting(view) == [(t.seat("Zoé"), "playing the turns", False)]
    assert view["table"]["withdraw_rule"]["en"].startswith("The player leaves the race")
    t.away("Zoé")
    t.host.play({"type": "table.decide", "seat": t.seat("Zoé"), "action": {"type": "end_turn"}})
    game = t.game(ready=lambda g: g["active"] != t.seat("Zoé"))
    t.host.play({"type": "table.withdraw", "seat": t.seat("Zoé")})
    game = t.game(t.phones["Max"], lambda g: all(p["seat"] != t.seat("Zoé") for p in g["players"]))
    assert game["phase"] == "turns" and game["outcome"] is None  # the race goes on without her
    assert t.seat("Zoé") not in game["round"]["order"]
    names = {t.seat(name): name for name in t.seats}
    while game["phase"] == "turns":  # the others end their turns: the round ends without her
        t.phones[names[game["active"]]].play({"type": "end_turn"})
        game = t.game(ready=lambda g, active=game["active"]: g["active"] != active)
    game = t.game(ready=lambda g: g["round"]["number"] == 2)
    assert [player["seat"] for player in game["players"]] == [t.seat("Max"), t.seat("Léa")]


def test_an_away_last_player_keeping_a_position_the_host_decides_the_free_move(race):
    t = race(2)
    for name, column in (("Zoé", 3), ("Max", 1)):
        t.phones[name].play({"type": "position", "column": column, "level": 1})
    t.choose_all({"Zoé": ("b7", "b8"), "Max": ("b1", "b2")})
    for name in ("Zoé", "Max"):
        t.phones[name].play({"type": "end_turn"})
    view = t.host.wait_for(lambda v: v["game"] and v["game"]["free_mover"] == t.seat("Max"))
    assert waiting(view) == [(t.seat("Max"), "ending the round", False)]
    t.away("Max")
    t.host.play({"type": "table.decide", "seat": t.seat("Max"), "action": {"type": "free_move", "level": 2}})
    game = t.game(ready=lambda g: g["round"]["number"] == 2)
    assert next(p for p in game["players"] if p["seat"] == t.seat("Max"))["position"] == {"column": 2, "level": 2}


def test_play_again_remembers_the_initiatives_told_and_asks_them_no_more(race):
    """Solo: Zoé reads two new cards, is defeated; Play again: her character's cards start with those two
    initiatives (the table remembers them for the evening), and the new game's logged setup holds them (a
replay starts from the same cards)."""
    t = race(1, mode="solo", boss_move=4)
    t.host.play({"type": "roll"})  # the Boss's die
    hand = t.mine("Zoé")["hand"]  # two of the eight were discarded at random
    t.choose_all({"Zoé": (hand[0], hand[1])})
    game = t.game(ready=lambda g: g["phase"] == "turns")
    told = sorted(event["initiative"] for event in game["history"] if event["type"] == "initiative_told")
    assert len(told) == 2
    t.phones["Zoé"].play({"type": "hurt", "cause": "enemy"})  # solo, no heart: defeated
    t.host.wait_for(lambda v: v["table"]["status"] == "over")
    t.host.play({"type": "table.again"})  # a start: this script phone takes part in no round, it plays at once
    t.host.wait_for(lambda v: v["table"]["game_no"] == 2 and v["table"]["status"] == "playing")
    t.phones["Zoé"].play({"type": "character", "name": "Zoé"})
    mine = t.mine("Zoé", phase="round_start")
    assert sorted(card["initiative"] for card in mine["cards"] if card["initiative"] is not None) == told
    assert sum(card["initiative"] is None for card in mine["cards"]) == 6
    t.host.play({"type": "table.close"})  # the logged actions are sealed until the seed is revealed
    setup = next(entry for entry in t.log(2)["entries"] if entry.get("call") == "setup")
    assert setup["options"]["memory"]["characters"] == {"Zoé": told}
    assert verify_log(t.log(2)).ok  # replayed from its log, the remembered cards included


def test_the_host_phone_names_the_ptizetres_by_colour_and_the_table_keeps_them_for_the_evening(race):
    """Solo, hosted from Zoé's phone: in the setup it names two captive tokens by their colours (the host's
    game action, from a phone); every screen sees them, the freed token is the blue one; Play again starts with
    the same colours, kept in the logged setup, and both games replay from their logs."""
    t = race(1, mode="solo", boss_move=4)
    zoe = t.phones["Zoé"]
    t.host.play({"type": "table.give_host", "seat": t.seat("Zoé")})  # the TV hands its rights to the phone
    zoe.wait_for(lambda v: v["table"]["host_seat"] == t.seat("Zoé"))
    tv, t.host = t.host, zoe  # her phone is the host screen now (the TV's key no longer works)
    tv.close()
    for number, colour in ((1, "blue"), (2, "pink")):
        zoe.play({"type": "ptizetre_colour", "ptizetre": number, "colour": colour, "as_host": True})
    game = t.game(zoe, lambda g: len(g["ptizetre_colours"]) == 2)
    assert game["ptizetre_colours"] == {"1": "blue", "2": "pink"} and game["phase"] == "round_start"
    public = requests.get(f"{t.url}/api/tables/{t.code}", timeout=WAIT).json()["game"]
    assert public["ptizetre_colours"] == game["ptizetre_colours"]
    # Her own seat (without the host's flag) may not: it is the host's action.
    refused = zoe.act({"type": "ptizetre_colour", "ptizetre": 3, "colour": "red"})
    assert (refused["ok"], refused["status"], refused["error"]) == (False, 400, "Only the host can do that.")

    zoe.play({"type": "roll"})  # the Boss's die
    hand = t.mine("Zoé")["hand"]
    t.choose_all({"Zoé": (hand[0], hand[1])})
    t.game(zoe, lambda g: g["phase"] == "turns" and g["active"] == t.seat("Zoé"))
    zoe.play({"type": "free", "ptizetre": 1})
    zoe.play({"type": "hurt", "cause": "enemy"})  # solo, no heart: defeated
    zoe.wait_for(lambda v: v["table"]["status"] == "over")
    freed = [e for e in t.log()["entries"] if e["kind"] == "event" and e["event"]["type"] == "ptizetre_freed"]
    assert [e["event"]["ptizetre"] for e in freed] == [1]
    zoe.play({"type": "table.again"})  # a start: this script phone takes part in no round, it plays at once
    zoe.wait_for(lambda v: v["table"]["game_no"] == 2 and v["table"]["status"] == "playing")
    game = t.game(zoe, lambda g: g["phase"] == "characters")
    assert game["ptizetre_colours"] == {"1": "blue", "2": "pink"}  # nothing asked again
    zoe.play({"type": "table.close"})
    setup = next(entry for entry in t.log(2)["entries"] if entry.get("call") == "setup")
    assert setup["options"]["memory"]["ptizetre_colours"] == {"1": "blue", "2": "pink"}
    assert verify_log(t.log(1)).ok and verify_log(t.log(2)).ok
