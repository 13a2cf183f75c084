"""Tables brought to each state of each game through the JSON API, for the layout suite.

Each builder takes the server's address and returns a `Table`: its code, the host key, each
seat's token, and which seat's phone the state is about (the one asked to act, when one is).
The moves come from the rules' own legal actions (read from each seat's view) or, where
the rules need free text (names, initiatives), from the same helpers as the game tests."""

from __future__ import annotations

from dataclasses import dataclass, field

import secrets

import requests

from companion.amiibo.catalog import Catalog
from companion.games import arkade, rayman
from companion.store import Store
from tests.helpers import ENTROPY, bearer
from tests.test_arkade_server import StrategiePlayer
from tests.test_rayman_server import Racer, host_answer, normalized, own

WAIT = 20
FAST = {"COMPANION_RATE_BURST": "1000", "COMPANION_RATE_PER_SECOND": "1000"}  # the API drives faster than thumbs
MAX_ACTIONS = 600


@dataclass
class Table:
    url: str
    code: str
    host_token: str
    tokens: dict[str, str] = field(default_factory=dict)  # name -> seat token
    seats: dict[str, int] = field(default_factory=dict)  # name -> seat id
    phone: str = ""  # whose phone the state is about

    @classmethod
    def create(cls, url: str, game: str, options: dict, names: tuple[str, ...]) -> "Table":
        created = requests.post(f"{url}/api/tables", json={"game": game, "options": options}, timeout=WAIT)
        assert created.status_code == 201, created.text
        table = cls(url, created.json()["code"], created.json()["host_token"])
        for name in names:
            seat = requests.post(f"{url}/api/tables/{table.code}/seats", json={"name": name, "entropy": ENTROPY},
                                 timeout=WAIT)
            assert seat.status_code == 201, seat.text
            table.tokens[name], table.seats[name] = seat.json()["token"], seat.json()["seat"]
        table.phone = names[0] if names else ""
        return table

    def token(self, who: str) -> str:
        return self.host_token if who == "host" else self.tokens[who]

    def act(self, who: str, action: dict) -> dict:
        answer = requests.post(f"{self.url}/api/tables/{self.code}/actions", json=action, timeout=WAIT,
                               headers=bearer(self.token(who)))
        assert answer.status_code == 200, (who, action, answer.text)
        return answer.json()

    def view(self, who: str = "host") -> dict:
        answer = requests.get(f"{self.url}/api/tables/{self.code}", headers=bearer(self.token(who)), timeout=WAIT)
        assert answer.status_code == 200, answer.text
        return answer.json()

    def game(self, who: str = "host") -> dict:
        return self.view(who)["game"]

    def name_of(self, seat: int) -> str:
        return next(name for name, seat_id in self.seats.items() if seat_id == seat)

    def start(self) -> None:
        self.act("host", {"type": "table.start"})

    def rayman(self, who: str, action: dict) -> None:
        """A Rayman action as the phone sends it: a tentative choice stays on the phone, the lock sends
        its commitment, and every phone opens its own once all have locked in."""
        picks = self.__dict__.setdefault("picks", {})
        if action["type"] == "choose":
            picks[who] = (normalized(action), secrets.token_hex(16))
            return
        if action["type"] == "lock" and who in picks:
            action = {"type": "lock", "commitment": rayman.commitment(*picks[who])}
        self.act(who, action)
        if self.game()["phase"] == "revealing":
            for name in [name for name in self.seats if name in picks]:
                choice, salt = picks.pop(name)
                self.act(name, {"type": "reveal", "choice": choice, "salt": salt})


# --- Dice ----------------------------------------------------------------------------------

def dice_fresh(url: str) -> Table:
    return Table.create(url, "dice", {"die": "d6"}, ("Ana",))


def dice_six_d20_rolled(url: str) -> Table:
    table = Table.create(url, "dice", {"die": "d20", "count": 6}, ("Ana", "Bo"))
    for turn in range(12):
        table.act(("Ana", "Bo")[turn % 2], {"type": "roll"})
    return table


def dice_long_faces_rolled(url: str) -> Table:
    faces = ["Critical hit!", "Miss", "Fumble: drop your weapon", "Double damage", "Heal 2", "Skip a turn"]
    table = Table.create(url, "dice", {"die": "custom", "faces": faces, "count": 2}, ("Ana", "Bo"))
    for _ in range(3):
        table.act("Bo", {"type": "roll"})
    return table


# --- Arkade --------------------------------------------------------------------------------

def arkade_roles(url: str) -> Table:
    table = Table.create(url, "arkade", {"mode": "strategie"}, ("Zoé", "Max"))
    table.start()
    return table


def arkade_ready(url: str) -> Table:
    table = Table.create(url, "arkade", {"mode": "arcade"}, ("Zoé", "Max"))
    table.start()
    table.act("Zoé", {"type": "choose_role", "role": arkade.ALIEN})
    table.act("Zoé", {"type": "ready"})
    table.phone = "Max"
    return table


def arkade_countdown(url: str) -> Table:
    """Both ready: the countdown runs until a phone says "go" after it (the host screen never does)."""
    table = Table.create(url, "arkade", {"mode": "arcade", "countdown": 10}, ("Zoé", "Max"))
    table.start()
    table.act("Zoé", {"type": "choose_role", "role": arkade.ALIEN})
    table.act("Zoé", {"type": "ready"})
    table.act("Max", {"type": "ready"})
    return table


def arkade_claim(url: str) -> Table:
    """The Alien claims a saucer reached the last line: Max's phone (the Defender) confirms or denies it."""
    table = Table.create(url, "arkade", {"mode": "strategie", "alien": "first", "power_tiles": "off"}, ("Zoé", "Max"))
    table.start()
    table.act("Zoé", {"type": "throw"})
    table.act("Zoé", {"type": "claim"})
    table.phone = "Max"
    return table


def play_arkade(table: Table, until) -> None:
    """Stratégie turns from the rules' legal actions until ``until(game)``."""
    player = StrategiePlayer()
    for _ in range(MAX_ACTIONS):
        if until(table.game()):
            return
        for name, seat in table.seats.items():
            game = table.game(name)
            # A correction of the nuggets is always open to both: it is nobody's turn.
            action = player.choose({**game, "legal": [a for a in game["legal"] if a["type"] != "correct"]}, seat)
            if action:
                table.act(name, action)
                break
        else:
            raise AssertionError("nobody can act in Arkade")
    raise AssertionError("Arkade should have got there")


def arkade_playing(url: str) -> Table:
    """The Defender's turn, its dice thrown, a few turns in (a history to show)."""
    table = arkade_roles(url)
    table.act("Zoé", {"type": "choose_role", "role": arkade.ALIEN})
    play_arkade(table, lambda game: game["turn"] >= 4 and game["active"] == arkade.DEFENDER
                and game["dice"][arkade.DEFENDER] and not game["pending"])
    table.phone = "Max"
    return table


def arkade_over(url: str) -> Table:
    table = arkade_roles(url)
    table.act("Zoé", {"type": "choose_role", "role": arkade.ALIEN})
    play_arkade(table, lambda game: game["winner"] is not None)
    return table


def arkade_over_crowded(url: str) -> Table:
    """The end of a game whose Defender turned all six tiles and keeps a mini-tower: the tallest side the
    TV shows (on about one end in two, which made ``arkade_over`` fail now and then). Games are played
    until one ends so, since the table's seed is its own."""
    for _ in range(40):
        table = arkade_over(url)
        game = table.game()
        if game["tower"] and all(tile["turned"] for tile in game["defender_tiles"]):
            return table
    raise AssertionError("no Arkade game ended with a mini-tower and the Defender's six tiles turned")


# --- Rayman --------------------------------------------------------------------------------

RAYMAN_NAMES = ("Ana", "Ben")


def rayman_started(url: str, options: dict | None = None) -> Table:
    """The host screen named two captive Ptizêtres by their colours (the phones show them), not the others."""
    table = Table.create(url, "rayman", options or {}, RAYMAN_NAMES)
    table.start()
    name_two_ptizetres(table, "host")
    return table


def name_two_ptizetres(table: Table, host: str) -> None:
    for number, colour in ((1, "white"), (2, "purple")):
        table.act(host, {"type": "ptizetre_colour", "ptizetre": number, "colour": colour,
                         **({"as_host": True} if host != "host" else {})})


def rayman_characters(url: str) -> Table:
    return rayman_started(url)


def rayman_named(url: str, options: dict | None = None) -> Table:
    """Both characters named: the first round, nothing typed before it."""
    return name_characters(rayman_started(url, options))


def name_characters(table: Table) -> Table:
    """Each phone takes the first character it is offered."""
    for name in RAYMAN_NAMES:
        table.act(name, table.game(name)["legal"][0])
    return table


def rayman_initiatives(url: str) -> Table:
    """Both revealed two cards the companion does not know yet: Ana's phone asks their initiatives."""
    table = rayman_named(url)
    race_until(table, lambda game, players: game["phase"] == "choosing")
    for name in RAYMAN_NAMES:
        table.rayman(name, choice_of(table, name))
        table.rayman(name, {"type": "lock"})
    assert table.game()["phase"] == "initiatives", table.game()["phase"]
    table.phone = "Ana"
    return table


def rayman_choosing(url: str) -> Table:
    """Ana has locked in her choice, Ben is choosing."""
    table = rayman_named(url)
    race_until(table, lambda game, players: game["phase"] == "choosing")
    table.rayman("Ana", choice_of(table, "Ana"))
    table.rayman("Ana", {"type": "lock"})
    table.phone = "Ben"
    return table


def choice_of(table: Table, name: str) -> dict:
    seat = table.seats[name]
    hand = own(table.game(name), seat)["hand"]  # a choice is the phone's own: the rules list only the lock
    return {"type": "choose", "left": hand[0], "second": hand[1]}


def rayman_turns(url: str) -> Table:
    """Choices revealed, the first player's turn."""
    table = rayman_choosing(url)
    race_until(table, lambda game, players: game["phase"] == "turns", unplaced_racers(table))
    table.phone = table.name_of(table.game()["active"])
    return table


def rayman_roll(url: str) -> Table:
    """A projectile in play: the first round waits for the phone the table drew to roll its die."""
    table = rayman_named(url, {"projectile": "missile"})
    game = table.game()
    assert game["phase"] == "round_start", game["phase"]
    table.phone = table.name_of(game["round"]["roller"])
    return table


def rayman_question(url: str) -> Table:
    """Intermediate: the extra cards' draft waits for the host screen to name the youngest player."""
    table = Table.create(url, "rayman", {"difficulty": "intermediate"}, RAYMAN_NAMES)
    table.start()
    name_characters(table)
    assert table.game()["question"], table.game()["phase"]
    return table


def rayman_choosing_extras(url: str) -> Table:
    """Intermediate: Ana chooses among her eight cards and her two extra cards (the longest captions)."""
    table = rayman_question(url)
    for _ in range(MAX_ACTIONS):
        game = table.game()
        if game["phase"] == "choosing":
            table.phone = "Ana"
            return table
        if game["question"] or game["phase"] == "round_start":  # the host answers and rolls
            table.act("host", host_answer(game) if game["question"] else {"type": "roll"})
            continue
        picker = table.name_of(game["draft"]["order"][game["draft"]["turn"]])
        table.act(picker, next(action for action in table.game(picker)["legal"] if action["type"] == "pick"))
    raise AssertionError("Rayman should have got there")


def unplaced_racers(table: Table) -> dict:
    """Players who keep no position on their phones: the host screen answers for the board."""
    return {name: Racer(seat, keeps_position=False) for name, seat in table.seats.items()}


def race_until(table: Table, done, racers: dict | None = None) -> None:
    racers = racers or {}
    for _ in range(MAX_ACTIONS):
        game = table.game()
        players = {name: table.game(name) for name in table.seats}
        if done(game, players):
            return
        for name, racer in racers.items():  # in the racers' order: who acts first when several may
            action = racer.move(players[name], players[name]["legal"])
            if action:
                table.rayman(name, action)
                break
        else:
            if game["question"]:
                table.act("host", host_answer(game))
            elif game["phase"] == "round_start":  # nobody's phone rolls: the host rolls for them
                table.act("host", {"type": "roll"})
            elif not racers:
                raise AssertionError(f"nobody acts in {game['phase']}")
            else:
                raise AssertionError(f"nobody acts in {game['phase']}")
    raise AssertionError("Rayman should have got there")


def rayman_over(url: str) -> Table:
    """A whole Novice race: Ana jumps to the line and crosses, Ben follows behind."""
    table = rayman_started(url)
    ana, ben = table.seats["Ana"], table.seats["Ben"]
    racers = {"Ana": Racer(ana, jump=12, stop=rayman.LAST_COLUMN + 2), "Ben": Racer(ben, jump=5, ptizetres=2)}
    race_until(table, lambda game, players: game["phase"] == "game_over", racers)
    return table


# --- Amiiboxe ------------------------------------------------------------------------------

ANA_FIGURES = ["0x0000000000000002", "0x0100000000040002", "0x0002000000010002"]  # Mario, Link, Peach
BO_FIGURES = ["0x0005000000140002", "0x1919000000090002", "0x1f000000000a0002"]  # Bowser, Pikachu, Kirby
CY_FIGURES = ["0x0003000000020002", "0x0008000000030002", "0x0080000000040002"]  # Yoshi, Donkey Kong, Samus
NO_DATE = {"au": None, "eu": None, "jp": None, "na": None}
CATALOGUE = {  # the nine figures (the book's minimum is 3 a player), in the AmiiboAPI format
    "amiibos": {amiibo_id: {"name": name, "release": NO_DATE} for amiibo_id, name in zip(
        ANA_FIGURES + BO_FIGURES, ("Mario", "Link", "Peach", "Bowser", "Pikachu", "Kirby"))},
    "amiibo_series": {}, "game_series": {}, "types": {}, "characters": {}}


def import_catalogue(database) -> None:
    """The figures' names in the server's database before it starts, as `flask catalog import` gives them."""
    store = Store(str(database))
    Catalog(store).import_document(CATALOGUE)
    store.close()


def amiiboxe_registration(url: str) -> Table:
    """The lobby: Ana has registered one of her three figures, Bo none yet."""
    table = Table.create(url, "amiiboxe", {"figures_per_player": 3}, ("Ana", "Bo"))
    table.act("Ana", {"type": "figure.pick", "amiibo_id": ANA_FIGURES[0]})
    return table


def amiiboxe_adding_without_reader(url: str) -> Table:
    """Ana asked to add figures by tapping, but the server has no reader: her phone says so and
    points to the search by name."""
    table = amiiboxe_registration(url)
    table.act("Ana", {"type": "figure.adding", "on": True})
    return table


def amiiboxe_started(url: str, options: dict) -> Table:
    table = Table.create(url, "amiiboxe", {"figures_per_player": 3, **options}, ("Ana", "Bo"))
    for name, figures in (("Ana", ANA_FIGURES), ("Bo", BO_FIGURES)):
        for amiibo_id in figures:
            table.act(name, {"type": "figure.pick", "amiibo_id": amiibo_id})
    table.start()
    return table


def name_locations(table: Table) -> None:
    for figure in table.game()["figures"]:
        if figure["location"] is None:
            table.act(table.name_of(figure["seat"]), {"type": "name_location", "figure": figure["id"],
                                                      "name": "Enfers"})


def amiiboxe_placement(url: str) -> Table:
    """The board kept: home locations named, the host lays out the square and places the figures."""
    table = amiiboxe_started(url, {"board": "kept"})
    name_locations(table)
    return table


def amiiboxe_hold(url: str) -> Table:
    """The board kept: Ana's first figure arrived on a card whose effect the companion does not know;
    the game holds until the table has applied it (Ana's phone confirms)."""
    table = amiiboxe_placement(url)
    game = table.game()
    for seat in game["setup"]["sides"]:
        own = [f for f in game["figures"] if f["seat"] == seat["seat"]]
        for figure, cell in zip(own, seat["cells"]):
            table.act("host", {"type": "place", "figure": figure["id"], "cell": cell})
    table.act("host", {"type": "first_player", "player": table.seats["Ana"]})
    table.act("host", {"type": "begin"})
    game = table.game("Ana")
    move = next(action for action in game["legal"] if action["type"] == "move" and "swap_with" not in action
                and action["cell"][0] == game["setup"]["sides"][0]["cells"][0][0] - 1)
    unknown = next(card for card in game["cards"] if card not in game["effect_cards"])  # a home card
    table.act("Ana", {**move, "card": unknown})
    return table


def amiiboxe_turn(url: str) -> Table:
    table = amiiboxe_started(url, {})
    name_locations(table)
    table.act("host", {"type": "first_player", "player": table.seats["Ana"]})
    table.act("host", {"type": "begin"})
    return table


def amiiboxe_effects(url: str) -> Table:
    """Ana moved and holds her turn open for its effects: ending the turn is what her phone does next."""
    table = amiiboxe_turn(url)
    figure = next(f["id"] for f in table.game()["figures"] if f["seat"] == table.seats["Ana"])
    table.act("Ana", {"type": "move", "figure": figure, "hold": True})
    return table


def amiiboxe_fight(url: str) -> Table:
    """Mario attacks Bowser; the phones answer when the criterion asks them (Bo's phone shown)."""
    return mario_attacks_bowser(amiiboxe_turn(url))


def mario_attacks_bowser(table: Table) -> Table:
    """Ana's Mario attacks Bo's Bowser; Bo's phone is the one shown."""
    game = table.game("Ana")
    mario, bowser = (next(f["id"] for f in game["figures"] if f["amiibo_id"] == amiibo_id)
                     for amiibo_id in (ANA_FIGURES[0], BO_FIGURES[0]))
    table.act("Ana", {"type": "attack", "attacker": mario, "defender": bowser})
    table.phone = "Bo"
    return table


def amiiboxe_judged(url: str) -> Table:
    """PRO: Mario attacks Bowser and the players judge the fight; Bo's phone asks him who wins."""
    table = amiiboxe_started(url, {"pro": "on"})
    name_locations(table)
    table.act("host", {"type": "first_player", "player": table.seats["Ana"]})
    table.act("host", {"type": "begin"})
    return mario_attacks_bowser(table)


def amiiboxe_over(url: str) -> Table:
    """Ana retires her figures one by one; the other player answers every fight for the attacker."""
    table = amiiboxe_turn(url)
    for _ in range(MAX_ACTIONS):
        game = table.game()
        if game["phase"] == "over":
            return table
        for name, seat in table.seats.items():
            legal = table.game(name)["legal"]
            if legal:
                table.act(name, next((a for a in legal if a["type"] == "retire"), None)
                          or next((a for a in legal if a["type"] in ("judge", "enter_value", "end_turn")), legal[0]))
                break
        else:
            raise AssertionError(f"nobody acts in Amiiboxe's {game['phase']}")
    raise AssertionError("Amiiboxe should have ended")


# --- Chakart and Mario Universalis -----------------------------------------------------------------

def having(table: Table, kind: str) -> tuple[str, dict]:
    """The seat whose legal actions include one of type ``kind``, and the first such action."""
    for name in table.seats:
        action = next((a for a in table.game(name)["legal"] if a["type"] == kind), None)
        if action:
            return name, action
    raise AssertionError(f"nobody may {kind}")


def chakart_start(url: str) -> Table:
    table = Table.create(url, "chakart", {}, ("Ana", "Bo"))
    table.start()
    table.phone = having(table, "move")[0]
    return table


def chakart_board(url: str) -> Table:
    """A move made: the mover tells what happened on the board."""
    table = chakart_start(url)
    table.act(*having(table, "move"))
    table.phone = having(table, "board_done")[0]
    return table


def chakart_pass(url: str) -> Table:
    """White's king walled in by its own pawns: nothing can move, the phone passes."""
    table = Table.create(url, "chakart", {"colours": "first", "position": ["6PK/6PP/8/8/8/8/8/k7 w"]}, ("Ana", "Bo"))
    table.start()
    table.phone = having(table, "pass")[0]
    return table


def universalis_start(url: str) -> Table:
    """The first player's first preparation (the start, refill and draw passed by themselves)."""
    table = Table.create(url, "universalis", {}, ("Ana", "Bo"))
    table.start()
    table.phone = having(table, "end_turn")[0]
    return table


def universalis_preparation(url: str) -> Table:
    """The first player played a Character and ended the turn: the second player prepares."""
    table = universalis_start(url)
    table.act(table.phone, {"type": "play", "card": {"kind": "character", "name": "Koopa Troopa Rouge", "cost": 4,
                                                     "pf": 3, "pc": 4, "types": ["Koopa", "Carapace"]}})
    table.act(table.phone, {"type": "end_turn"})
    table.phone = having(table, "end_turn")[0]
    return table


def universalis_attacked(url: str) -> Table:
    """Global turn 2: the first player attacks with every Character; the defender's phone declares blockers."""
    table = universalis_preparation(url)
    table.act(table.phone, {"type": "play", "card": {"kind": "character", "name": "Boo", "cost": 2, "pf": 1, "pc": 3}})
    table.act(table.phone, {"type": "end_turn"})
    table.act(*having(table, "attack"))
    table.phone = having(table, "block")[0]
    return table


# --- A host phone (the table created on a phone that also takes a seat) ----------------------------

def with_host_phone(table: Table, name: str) -> Table:
    """``name`` joins with the host key: that phone holds the host's rights and a seat."""
    seat = requests.post(f"{table.url}/api/tables/{table.code}/seats", json={"name": name, "entropy": ENTROPY},
                         headers=bearer(table.host_token), timeout=WAIT)
    assert seat.status_code == 201, seat.text
    table.tokens[name], table.seats[name] = seat.json()["token"], seat.json()["seat"]
    table.phone = name
    return table


def dice_host_phone(url: str) -> Table:
    table = with_host_phone(Table.create(url, "dice", {"die": "d20"}, ()), "Ana")
    requests.post(f"{url}/api/tables/{table.code}/seats", json={"name": "Bo", "entropy": ENTROPY}, timeout=WAIT)
    table.act("Ana", {"type": "roll"})
    return table


def arkade_host_phone(url: str) -> Table:
    """Arkade under way, hosted from Zoé's phone: Max's seat is away, so her phone has the host's tools."""
    table = with_host_phone(Table.create(url, "arkade", {"mode": "strategie"}, ()), "Zoé")
    bo = requests.post(f"{url}/api/tables/{table.code}/seats", json={"name": "Max", "entropy": ENTROPY}, timeout=WAIT)
    table.tokens["Max"], table.seats["Max"] = bo.json()["token"], bo.json()["seat"]
    table.start()
    table.act("Zoé", {"type": "choose_role", "role": arkade.ALIEN})
    play_arkade(table, lambda game: game["active"] == arkade.DEFENDER)
    table.phone = "Zoé"
    return table


def rayman_host_phone(url: str) -> Table:
    """Rayman's setup hosted from Ana's phone: her host controls name the captive Ptizêtres by colour."""
    table = with_host_phone(Table.create(url, "rayman", {}, ()), "Ana")
    ben = requests.post(f"{url}/api/tables/{table.code}/seats", json={"name": "Ben", "entropy": ENTROPY}, timeout=WAIT)
    table.tokens["Ben"], table.seats["Ben"] = ben.json()["token"], ben.json()["seat"]
    table.start()
    name_two_ptizetres(table, "Ana")
    return table


UNKNOWN_FIGURE = "0x3f00000000ff0002"  # newer than the catalogue: the host names it


def amiiboxe_host_phone(url: str) -> Table:
    """Amiiboxe's lobby hosted from Ana's phone: Bo added a figure the catalogue does not know, a figure
    tapped on the reader waits for a player, and Cy's phone has not sent its random numbers."""
    table = with_host_phone(Table.create(url, "amiiboxe", {"figures_per_player": 3}, ()), "Ana")
    for name, body in (("Bo", {"entropy": ENTROPY}), ("Cy", {"commitment": "ab" * 32})):
        seat = requests.post(f"{url}/api/tables/{table.code}/seats", json={"name": name, **body}, timeout=WAIT)
        table.tokens[name], table.seats[name] = seat.json()["token"], seat.json()["seat"]
    table.act("Bo", {"type": "figure.pick", "amiibo_id": UNKNOWN_FIGURE})
    table.act("host", {"type": "table.scan", "uid": "04a1b2c3d4e5f6", "amiibo_id": ANA_FIGURES[1]})
    table.phone = "Ana"
    return table


def tv_waiting_for_a_phone(url: str) -> Table:
    """Not a table: the pairing code a TV at /screen shows (its ``code``), for the phone's /pair/<code> page."""
    answer = requests.post(f"{url}/api/displays", timeout=WAIT)
    assert answer.status_code == 201, answer.text
    return Table(url, answer.json()["code"], "")


# --- More waiting steps: each phone's one thing to do (the layout suite asserts it is in view) ------

def arkade_heart(url: str) -> Table:
    """The Alien's extra-life tile on a colour of which some saucers already show their heart: the Alien's
    phone says whether the saucer on the bonus cell showed its own."""
    table = Table.create(url, "arkade", {"mode": "strategie", "alien": "first", "power_tiles": "on",
                                         "alien_tiles": ["extra_life"] * 6}, ("Zoé", "Max"))
    table.start()
    colour = table.game()["colours"][0]
    table.act("host", {"type": "correct", "hearts": {colour: 1}})
    table.act("Zoé", {"type": "throw"})
    table.act("Zoé", {"type": "bonus", "colour": colour})
    assert table.game()["pending"]["kind"] == "heart", table.game()["pending"]
    return table


def rayman_legendary(url: str) -> Table:
    """Legendary player cards: Ana's phone picks hers."""
    table = Table.create(url, "rayman", {"legendary": "on"}, RAYMAN_NAMES)
    table.start()
    name_characters(table)
    assert table.game()["phase"] == "legendary", table.game()["phase"]
    return table


def rayman_draft(url: str) -> Table:
    """Intermediate: the youngest named, the extra cards lie face up and the picker's phone takes one."""
    table = rayman_question(url)
    while table.game()["question"]:
        table.act("host", host_answer(table.game()))
    game = table.game()
    assert game["phase"] == "draft", game["phase"]
    table.phone = table.name_of(game["draft"]["order"][game["draft"]["turn"]])
    return table


def rayman_free_move(url: str) -> Table:
    """The round's end: the last player (who keeps a position) may move one space forward."""
    table = rayman_named(url)
    racers = {"Ana": Racer(table.seats["Ana"], jump=12), "Ben": Racer(table.seats["Ben"], jump=5)}
    race_until(table, lambda game, players: game["free_mover"] is not None, racers)
    table.phone = table.name_of(table.game()["free_mover"])
    return table


def rayman_offer(url: str) -> Table:
    """Co-op: the player whose turn it is gained a bonus token and offers it; the other phone accepts or refuses."""
    table = rayman_named(url, {"mode": "coop"})
    race_until(table, lambda game, players: game["phase"] == "turns", unplaced_racers(table))
    giver = table.name_of(table.game()["active"])
    other = next(name for name in RAYMAN_NAMES if name != giver)
    table.act(giver, {"type": "bonus"})
    table.act(giver, {"type": "give_bonus", "to": table.seats[other], "give": 1, "take": 0})
    table.phone = other
    return table


def amiiboxe_values(url: str) -> Table:
    """Situational criteria and no kept board: each fighter's phone enters its figure's value (Bo's shown)."""
    reference = ["most_supports", "fewest_supports", "farthest_from_start", "closest_to_start", "heaviest", "tallest"]
    for _ in range(20):  # the die picks the criterion: another table when it fell on a value the companion knows
        table = amiiboxe_started(url, {"reference": reference})
        name_locations(table)
        table.act("host", {"type": "first_player", "player": table.seats["Ana"]})
        table.act("host", {"type": "begin"})
        mario_attacks_bowser(table)
        if (table.game()["fight"] or {}).get("exchange") == "values":
            return table
    raise AssertionError("the die never fell on a situational criterion")


def amiiboxe_vote(url: str) -> Table:
    """PRO with three players: Ana and Bo judge Mario against Bowser differently, so Cy's phone votes."""
    table = Table.create(url, "amiiboxe", {"figures_per_player": 3, "pro": "on"}, ("Ana", "Bo", "Cy"))
    for name, figures in (("Ana", ANA_FIGURES), ("Bo", BO_FIGURES), ("Cy", CY_FIGURES)):
        for amiibo_id in figures:
            table.act(name, {"type": "figure.pick", "amiibo_id": amiibo_id})
    table.start()
    name_locations(table)
    table.act("host", {"type": "first_player", "player": table.seats["Ana"]})
    table.act("host", {"type": "begin"})
    mario_attacks_bowser(table)
    fight = table.game()["fight"]
    for name, role in (("Ana", "attacker"), ("Bo", "defender")):  # each says their own figure wins
        table.act(name, {"type": "judge", "winner": fight[role]})
    assert table.game()["fight"]["exchange"] == "vote", table.game()["fight"]
    table.phone = "Cy"
    return table


def chakart_promotion(url: str) -> Table:
    """A pawn reached the last rank: after the board, its phone chooses the new piece."""
    table = Table.create(url, "chakart", {"colours": "first", "position": ["k7/4P3/8/8/8/8/8/4K3 w"]}, ("Ana", "Bo"))
    table.start()
    table.act("Ana", {"type": "move", "from": "e7", "to": "e8"})
    for _ in range(3):
        if table.game()["phase"] == "choice":
            break
        table.act(*having(table, "board_done"))
    assert table.game()["phase"] == "choice", table.game()["phase"]
    table.phone = "Ana"
    return table


# A pawn steps onto an egg on e3 after Black's pawn took White's knight (so that Toadette has a piece to
# bring back): every egg that asks the mover something can be drawn there.
EGG_POSITION = "r3k3/pppp2p1/7N/8/8/4e3/4P3/R3K3 b"


def chakart_egg_of(url: str, pending: str) -> Table:
    """The mover's phone after the board is told, its egg's choice waiting: ``pending`` is King Boo's "swap",
    Toadette's "revive" or Daisy's "again". The effect is drawn: tables until the wanted one comes up."""
    for _ in range(60):
        table = Table.create(url, "chakart", {"colours": "first", "eggs": "applicable", "position": [EGG_POSITION]},
                             ("Ana", "Bo"))
        table.start()
        for who, move in (("Bo", {"from": "g7", "to": "h6"}), ("Ana", {"from": "e2", "to": "e3"})):
            table.act(who, {"type": "move", **move})
            for _ in range(3):
                if table.game()["phase"] != "board":
                    break
                table.act(*having(table, "board_done"))
        if table.game()["phase"] == "choice" and table.game()["pending"]["kind"] == pending:
            table.phone = "Ana"
            return table
    raise AssertionError(f"no egg left the choice {pending}")


def chakart_egg(url: str) -> Table:
    """King Boo's egg: the phone taps the piece to swap with (or declines)."""
    return chakart_egg_of(url, "swap")


def chakart_toadette(url: str) -> Table:
    """Toadette's egg: the phone picks the captured knight, then the square it comes back to (or declines)."""
    return chakart_egg_of(url, "revive")


def chakart_daisy(url: str) -> Table:
    """Daisy's egg: the pawn moves again, its squares shown at once (or the bonus is declined)."""
    return chakart_egg_of(url, "again")


def chakart_stealth(url: str) -> Table:
    """White's queen on d1 with her stealth move unused: from d1 to d4 she may go openly or in secret (the
    phone asks which once both squares are tapped)."""
    table = Table.create(url, "chakart", {"colours": "first", "position": ["k7/8/8/8/8/8/8/3QK3 w"]}, ("Ana", "Bo"))
    table.start()
    legal = table.game("Ana")["legal"]
    assert {"move", "stealth"} <= {a["type"] for a in legal if a.get("from") == "d1" and a.get("to") == "d4"}, legal
    table.phone = "Ana"
    return table


def rayman_distance(url: str) -> Table:
    """The race's end: Ben keeps no position on his phone and crossed the line; his phone asks how many
    spaces past it his figure got."""
    table = rayman_started(url)
    # Ben first: he crosses as soon as the final round is on, before Ana's turn could end the race.
    racers = {"Ben": Racer(table.seats["Ben"], keeps_position=False),
              "Ana": Racer(table.seats["Ana"], jump=12, stop=rayman.LAST_COLUMN + 2)}
    race_until(table, lambda game, players: {"type": "distance", "spaces": 1} in players["Ben"]["legal"], racers)
    table.phone = "Ben"
    return table


def rayman_choosing_quick(url: str) -> Table:
    """Quick hand entry: Ana types the initiatives of her two cards (the number pad) and locks in."""
    table = rayman_named(url, {"hand_entry": "quick"})
    race_until(table, lambda game, players: game["phase"] == "choosing")
    table.phone = "Ana"
    return table
