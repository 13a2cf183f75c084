"""Every waiting step of every game loses its phone, and the table goes on: the real server
process and real Socket.IO screens (`tests/live_table.py`).

For each step a game waits on (its ``waiting``), the waited-on phone really closes its
socket; every other screen (the host screen, the other phones, a display without a token)
is told that the seat is away and still reads whom the table waits on and for what. Then
the table goes on by each way that applies to the step (issue 12, §1):

* ``handoff``: the host hands the seat to another phone, which plays the step; the old
  token is refused at once, over HTTP and over Socket.IO;
* ``decide``: the host takes the game's open decision for the away seat (its
  ``proxy_actions``); where the step is a secret or the player's own action, nothing is
  offered and a decision sent anyway is refused;
* ``withdraw``: the host takes the seat out, by the game's rule;
* ``timeout``: a timed wait (a step that needs another phone) passes its deadline (the
  table's shortest timeout): the game's rule settles it, or every screen shows it expired
  and the host decides.

Refused on the way: the old token (an action and a view over HTTP, a Socket.IO connection),
the host deciding a secret or a player's own action, and a revealed secret choice never
reaches the phone that takes the seat before every phone has revealed.

The draws are the table's (a fresh seed per table): the tests play legal actions read from
the views and never assume what a die shows.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Iterator

import pytest
import requests

from companion import waits
from companion.games.rayman import commitment
from companion.verify import verify_log
from tests.helpers import ENTROPY, bearer
from tests.layout_states import ANA_FIGURES, BO_FIGURES, import_catalogue
from tests.live_table import LiveTable, closed_after
from tests.screen import WAIT, Screen
from tests.phones import ChainPhone, answer_rounds
from tests.server import server_fixture

TIMED = waits.MIN_TIMEOUT  # the shortest timeout a table takes: the timed waits end in 2 s
MAX_DECISIONS = 12  # actions that may take to get past a step (a Stratégie turn: three throws and its end)


server = server_fixture("ways", {"COMPANION_AWAY_SECONDS": "0", "COMPANION_DEADLINE_TICK": "0.2",
                                 "COMPANION_RATE_BURST": "1000", "COMPANION_RATE_PER_SECOND": "1000"},
                        prepare=import_catalogue)  # Amiiboxe's six figures, by name


class Night(LiveTable):
    """A table of one game at its waiting step: the host screen, a phone per seat and a display."""

    def __init__(self, server, game: str, options: dict, names: tuple, timeout: int | None = None,
                 figures: dict | None = None):
        super().__init__(server, game, options, names, start=not figures and game != "dice",  # the die starts at once
                         **({"timeout": timeout} if timeout else {}))
        self.display = Screen(self.url, self.code, None)  # a TV showing the table, without host rights
        for name, amiibo_ids in (figures or {}).items():
            for amiibo_id in amiibo_ids:
                self.phones[name].play({"type": "figure.pick", "amiibo_id": amiibo_id})
        if figures:
            self.host.play({"type": "table.start"})

    def now(self, name: str | None = None) -> dict:
        """What the server shows now to ``name``'s phone (the host screen by default): never stale."""
        token = self.seats[name]["token"] if name else self.host_token
        answer = requests.get(f"{self.url}/api/tables/{self.code}", headers=bearer(token), timeout=WAIT)
        assert answer.status_code == 200, answer.text
        return answer.json()

    def game(self, name: str | None = None) -> dict:
        return self.now(name)["game"]

    def name_of(self, seat: int) -> str:
        return next(name for name in self.seats if self.seat(name) == seat)

    def legal(self, name: str, kind: str) -> dict:
        action = next((a for a in self.game(name)["legal"] if a["type"] == kind), None)
        assert action is not None, f"{name} may not {kind} now"
        return action

    def others(self, name: str) -> list[Screen]:
        return [self.host, self.display, *(phone for other, phone in self.phones.items() if other != name)]

    def close(self) -> None:
        super().close()
        if self.display.client.connected:
            self.display.close()


@pytest.fixture
def night(server):
    with closed_after(lambda *args, **kwargs: Night(server, *args, **kwargs)) as open_table:
        yield open_table


@dataclass(frozen=True)
class Step:
    """A waiting step of a game: how a table gets to it, and how each way gets past it."""

    game: str
    name: str  # in the test's id
    reach: Callable[[Night], str]  # plays up to the step; the name of the seat it waits on
    past: Callable[[dict, dict], bool]  # (the host's view at the step, a view now): the table is past it
    ways: tuple[str, ...]
    options: dict = field(default_factory=dict)
    names: tuple = ("Zoé", "Max")
    # The actions that get past the step (the host's decisions, or the new phone's), most wanted
    # first: an action matches when it has every key and value of one of these.
    prefer: tuple[dict, ...] = ()
    resume: Callable[[Night, str], None] | None = None  # the new phone's play, when not `prefer`
    rule: Callable[[dict], None] | None = None  # checks the game's own rule for a deadline passed (the host's view)
    figures: dict | None = None
    ends: bool = False  # the step is the game's last: past it, the game is over


def waits_on(view: dict, seat: int) -> list[dict]:
    return [wait for wait in view["table"]["waiting"] if wait["seat"] == seat]


def pick(actions: list[dict], prefer: tuple[dict, ...]) -> dict | None:
    for wanted in prefer:
        for action in actions:
            if all(action.get(key) == value for key, value in wanted.items()):
                return action
    return None


# --- the four ways ---------------------------------------------------------------------------------

def lose(t: Night, name: str, at_step: dict, settled: Callable[[dict], bool] = lambda view: False) -> None:
    """``name``'s phone closes its socket: every other screen shows the seat away and still reads
    whom the table waits on, and for what, in both languages (unless ``settled``: a short deadline
    may pass, and the game's rule settle the step, before a screen on a busy machine is looked at)."""
    seat = t.seat(name)
    [wanted] = [wait["text"] for wait in waits_on(at_step, seat)][:1]
    assert wanted["en"] and wanted["fr"]
    t.phones[name].close()
    for screen in t.others(name):
        presence = screen.wait_away(seat)
        assert seat not in presence["online"] and str(seat) in presence["away_since"]
        view = screen.wait_for(lambda v: any(w["text"] == wanted for w in waits_on(v, seat))
                               or (v["version"] > at_step["version"] and settled(v)))
        assert view["table"]["status"] == "playing"


MOVED = "Your seat moved to another phone. To play on this one, ask the host for a hand-off code."


def hand_over(t: Night, step: Step, name: str, at_step: dict) -> None:
    """The host hands the seat to another phone; the old token is refused; the new phone plays the step."""
    seat, old_token = t.seat(name), t.seats[name]["token"]
    offer = t.host.play({"type": "table.handoff", "seat": seat})["handoff"]
    claimed = requests.post(f"{t.url}/api/tables/{t.code}/handoff", json={"handoff": offer["code"], "entropy": ENTROPY},
                            timeout=WAIT)
    assert claimed.status_code == 201 and claimed.json()["seat"] == seat, claimed.text
    version = t.now()["version"]
    assert t.http(old_token, step.prefer[0]).status_code == 401
    assert requests.get(f"{t.url}/api/tables/{t.code}", headers=bearer(old_token), timeout=WAIT).status_code == 401
    assert Screen.refusal(t.url, t.code, old_token) == {"message": MOVED}  # told where the seat went
    assert Screen.refusal(t.url, t.code, "forged-token") == {"message": "This token is not valid."}
    assert t.now()["version"] == version  # the refused action changed nothing
    t.seats[name] = claimed.json()
    t.phones[name] = Screen(t.url, t.code, claimed.json()["token"])
    view = t.phones[name].wait_for(lambda v: v["game"] is not None)
    assert view["you"] == {"role": "seat", "seat": seat} and waits_on(view, seat)
    if step.resume:
        step.resume(t, name)
        return
    for _ in range(MAX_DECISIONS):
        if step.past(at_step, t.now()):
            return
        action = pick(t.game(name)["legal"], step.prefer)
        assert action is not None, (step.name, t.game(name)["legal"])
        t.phones[name].play(action)
    raise AssertionError(f"the new phone never got past {step.name}")


def decide(t: Night, step: Step, name: str, at_step: dict) -> None:
    """The host takes the game's open decisions for the away seat until the table is past the step."""
    seat = t.seat(name)
    for _ in range(MAX_DECISIONS):
        view = t.now()
        if step.past(at_step, view):
            return
        choice = pick(view["table"]["proxy"][str(seat)], step.prefer)
        assert choice is not None, (step.name, view["table"]["proxy"])
        assert choice["label"]["en"] and choice["label"]["fr"]  # the host's button names it in both languages
        t.host.play({"type": "table.decide", "seat": seat, "action": choice})
    raise AssertionError(f"the host never got past {step.name}")


def time_out(t: Night, step: Step, name: str, at_step: dict) -> None:
    """The deadline passes: the game's rule settles the step, or every screen shows the wait
    expired and the host decides."""
    seat = t.seat(name)
    [wait] = waits_on(at_step, seat)[:1]
    assert wait["timed"] and wait["deadline"] is not None and at_step["table"]["timeout"] == TIMED
    for screen in t.others(name):
        screen.wait_for(lambda v: v["version"] > at_step["version"]  # not a view from before the step
                        and (step.past(at_step, v) or any(w["expired"] for w in waits_on(v, seat))))
    entries = t.log()["entries"]
    if step.rule:
        assert any(entry.get("timeout") for entry in entries)  # the game's rule, marked in the log
        step.rule(t.now())
    else:
        assert any(entry.get("type") == "timed_out" for entry in entries)
        decide(t, step, name, at_step)


def host_plays(t: Night, step: Step, name: str, at_step: dict) -> None:
    """The game lets the host take the step's action itself, for the whole table."""
    for _ in range(MAX_DECISIONS):
        if step.past(at_step, t.now()):
            return
        action = pick(t.game()["legal"], step.prefer)
        assert action is not None, (step.name, t.game()["legal"])
        t.host.play(action)
    raise AssertionError(f"the host never got past {step.name}")


def take_out(t: Night, step: Step, name: str, at_step: dict) -> None:
    """The host takes the seat out, by the game's rule (shown to the host before confirming)."""
    assert at_step["table"]["withdraw_rule"]["en"] and at_step["table"]["withdraw_rule"]["fr"]
    t.host.play({"type": "table.withdraw", "seat": t.seat(name)})
    WITHDRAWN[step.game](t, name, at_step)


WAYS = {"handoff": hand_over, "decide": decide, "withdraw": take_out, "timeout": time_out, "host": host_plays}


def go_on(night, step: Step, way: str) -> None:
    go_past(step, way, *arrive(night, step, way))


def arrive(night, step: Step, way: str) -> tuple[Night, str, dict]:
    """A table at the step, whose waited-on phone is lost: the table, the seat's name, the host's view at the step."""
    t = night(step.game, step.options, step.names, timeout=TIMED if way == "timeout" else None, figures=step.figures)
    name = step.reach(t)
    at_step = t.now()
    seat = t.seat(name)
    assert waits_on(at_step, seat), (step.name, at_step["table"]["waiting"])
    if "decide" not in step.ways:
        # A secret or the player's own action: the host is offered nothing to decide, and is refused.
        assert at_step["table"]["proxy"][str(seat)] == []
        refused = t.host.act({"type": "table.decide", "seat": seat, "action": step.prefer[0]})
        assert refused["status"] == 400 and t.now()["version"] == at_step["version"], refused
    lose(t, name, at_step, (lambda view: step.past(at_step, view)) if way == "timeout" else (lambda view: False))
    return t, name, at_step


def go_past(step: Step, way: str, t: Night, name: str, at_step: dict) -> None:
    """The table goes on by ``way``, and every screen sees it."""
    seat = t.seat(name)
    WAYS[way](t, step, name, at_step)
    final = t.now()
    if way != "withdraw":
        assert step.past(at_step, final) and final["table"]["status"] == ("over" if step.ends else "playing")
    assert not any(wait["seat"] == seat and wait in at_step["table"]["waiting"] for wait in final["table"]["waiting"])
    for screen in [*t.others(name), *([t.phones[name]] if way == "handoff" else [])]:
        screen.wait_for(lambda v: v["version"] >= final["version"])  # every screen sees the table go on


def cases(steps: list[Step]) -> list:
    """Every way of every step but the timeout: the timed waits pass their deadlines together (the last test)."""
    return [pytest.param(step, way, id=f"{step.name}-{way}") for step in steps for way in step.ways if way != "timeout"]


# --- the end of a duel by forfeit, and the other games' withdrawal rules -----------------------------

def forfeit(t: Night, name: str, at_step: dict) -> None:
    other = next(seat for seat in (t.seat(n) for n in t.seats) if seat != t.seat(name))
    for screen in t.others(name):
        over = screen.wait_for(lambda v: v["table"]["status"] == "over")
        assert over["table"]["outcome"]["winners"] == [other]


def left_the_race(t: Night, name: str, at_step: dict) -> None:
    game = t.game()
    assert all(player["seat"] != t.seat(name) for player in game["players"])
    other = next(other for other in t.seats if other != name)
    if at_step["game"]["phase"] == "finish":  # the race ends with the others, and the leaver is not ranked
        assert game["outcome"]["ranking"] == [[t.seat(other)]]
        return
    assert game["outcome"] is None
    if at_step["game"]["phase"] == "round_start":  # the die the leaver was to roll: another player rolls it
        t.phones[other].play({"type": "roll"})
        assert t.game()["phase"] != "round_start"
    assert [wait["seat"] for wait in t.now()["table"]["waiting"]] == [t.seat(other)]  # the race goes on


def left_the_board(t: Night, name: str, at_step: dict) -> None:
    game = t.game()
    were_in_play = {f["id"] for f in at_step["game"]["figures"] if f["seat"] == t.seat(name) and f["status"] == "in_play"}
    gone = [figure for figure in game["figures"] if figure["id"] in were_in_play]
    assert gone and all(figure["status"] == "out" and figure["at"] is None for figure in gone)
    assert [seat["points"] for seat in game["seats"] if seat["id"] == t.seat(name)] == [0]


WITHDRAWN = {"arkade": forfeit, "chakart": forfeit, "universalis": forfeit, "rayman": left_the_race,
             "amiiboxe": left_the_board}


# --- Dice: it waits on nobody ---------------------------------------------------------------------

def test_dice_an_away_seat_never_blocks_a_roll_and_every_way_leaves_the_die_as_it_was(night):
    t = night("dice", {"die": "d20"}, ("Ana", "Bo"))
    bo = t.seat("Bo")
    t.phones["Bo"].play({"type": "roll"})
    old_token = t.seats["Bo"]["token"]
    t.phones["Bo"].close()
    for screen in t.others("Bo"):
        assert bo not in screen.wait_away(bo)["online"]
        assert screen.wait_for(lambda v: v["game"]["rolls"] == 1)["table"]["waiting"] == []
    t.phones["Ana"].play({"type": "roll"})  # nobody is waited on: the die rolls on
    assert t.now()["table"].get("proxy") is None  # nothing to decide for anyone
    refused = t.host.act({"type": "table.decide", "seat": bo, "action": {"type": "roll"}})
    assert refused["status"] == 400  # a roll is the seat's own, never the host's to take for it
    t.host.play({"type": "table.withdraw", "seat": bo})
    game = t.game()
    assert game["rolls"] == 2 and t.now()["table"]["status"] == "playing"  # the withdrawal did nothing to the die

    offer = t.host.play({"type": "table.handoff", "seat": bo})["handoff"]
    claimed = requests.post(f"{t.url}/api/tables/{t.code}/handoff", json={"handoff": offer["code"], "entropy": ENTROPY},
                            timeout=WAIT)
    assert claimed.status_code == 201
    assert t.http(old_token, {"type": "roll"}).status_code == 401
    # The old phone is told where its seat went, and how to play on it again.
    assert Screen.refusal(t.url, t.code, old_token) == {"message": MOVED}
    t.phones["Bo"] = Screen(t.url, t.code, claimed.json()["token"])
    t.phones["Bo"].play({"type": "roll"})
    assert t.phones["Ana"].wait_for(lambda v: v["game"]["rolls"] == 3)["game"]["last"]["seat"] == bo


def test_dice_a_seat_handed_to_a_phone_with_its_own_hash_chain_rolls_verifiable_draws(night):
    """The new phone commits to a chain of its own when it takes the seat: its rolls wait for a round sealed
    after that anchor, and the closed table's log verifies with each phone's own record."""
    t = night("dice", {"die": "d6"}, ())
    ana, bo = ChainPhone(t.url, t.code, "Ana"), ChainPhone(t.url, t.code, "Bo")
    answer_rounds(ana, bo)
    assert bo.roll().status_code == 200
    bo_screen = Screen(t.url, t.code, bo.token)
    bo_screen.wait_for(lambda v: True)
    bo_screen.close()  # Bo's phone is lost, its chain with it
    t.host.wait_away(bo.seat)
    offer = t.host.play({"type": "table.handoff", "seat": bo.seat})["handoff"]
    new = ChainPhone(t.url, t.code, "", handoff=offer["code"])
    assert new.seat == bo.seat and bo.roll().status_code == 401  # the old phone's token is refused
    early = new.roll()
    assert early.status_code == 409  # no round sealed after its anchor yet: its values are not in the pool
    answer_rounds(ana, new)
    assert new.roll().status_code == 200 and ana.roll().status_code == 200
    t.host.play({"type": "table.close"})
    log = t.log()
    for phone in (ana, bo, new):  # the lost phone's record too: its values stay in the log
        report = verify_log(log, phone.record)
        assert report.ok and report.draws_checked == 3, (phone.seat, report.problems)


# --- Arkade ---------------------------------------------------------------------------------------

def arkade_roles(t: Night) -> str:
    t.host.wait_for(lambda v: v["game"] is not None and len(v["table"]["waiting"]) == 2)
    return "Max"


def arkade_ready(t: Night) -> str:
    t.phones["Zoé"].play({"type": "ready"})
    return "Max"


def arkade_claim(t: Night) -> str:
    t.phones["Zoé"].play({"type": "throw"})
    t.phones["Zoé"].play({"type": "claim"})
    return "Max"


def arkade_question(t: Night) -> str:
    """Two green hearts of four (the box holds only extra lives): the second asks which saucer."""
    zoe, max_ = t.phones["Zoé"], t.phones["Max"]
    for phone in (zoe, max_, zoe):
        phone.play({"type": "throw"})
        if phone is zoe:
            phone.play({"type": "bonus", "colour": "green"})
        if (t.game()["pending"] or {}).get("kind") != "heart":
            phone.play({"type": "end_turn"})
    assert t.game()["pending"]["kind"] == "heart"
    return "Zoé"


def phase_left(at_step: dict, view: dict) -> bool:
    return view["game"]["phase"] != at_step["game"]["phase"]


def answered(at_step: dict, view: dict) -> bool:
    return view["game"]["pending"] is None


def turn_passed(at_step: dict, view: dict) -> bool:
    return view["game"]["active"] != at_step["game"]["active"]


ARKADE = [
    Step("arkade", "roles", arkade_roles, phase_left, ("handoff", "withdraw"), {"alien": "phones"},
         prefer=({"type": "choose_role", "role": "defender"},)),
    Step("arkade", "ready", arkade_ready, phase_left, ("decide", "handoff", "withdraw"),
         {"mode": "arcade", "alien": "first"}, prefer=({"type": "ready"},)),
    Step("arkade", "turn", lambda t: "Zoé", turn_passed, ("decide", "handoff", "withdraw"),
         {"alien": "first", "power_tiles": "off"},
         prefer=({"type": "end_turn"}, {"type": "throw"})),
    Step("arkade", "claim", arkade_claim, answered, ("timeout", "decide", "handoff", "withdraw"),
         {"alien": "first", "power_tiles": "off"}, prefer=({"type": "confirm", "accept": False},)),
    Step("arkade", "question", arkade_question, answered, ("decide", "handoff", "withdraw"),
         {"alien": "first", "power_tiles": "on", "alien_tiles": ["extra_life"] * 6},
         prefer=({"type": "heart", "already": False},)),
]


@pytest.mark.parametrize("step, way", cases(ARKADE))
def test_arkade_each_waiting_step_goes_on_without_its_phone_and_its_old_token_is_refused(night, step, way):
    go_on(night, step, way)


# --- Rayman ---------------------------------------------------------------------------------------

def rayman_ready(t: Night) -> None:
    """The characters named: the first round's choosing begins (nothing to type before it)."""
    for name in t.phones:
        rayman_character(t, name)


def rayman_character(t: Night, name: str) -> None:
    t.phones[name].play({"type": "character", "name": name})


def rayman_tell(t: Night, name: str) -> None:
    """The initiatives read on the cards played for the first time: different for every card at the table."""
    seat = t.seat(name)
    for asked in [asked for asked in t.game()["round"]["asking"] if asked["seat"] == seat]:
        t.phones[name].play({"type": "initiative", "seat": seat, "card": asked["card"],
                             "initiative": 10 * (int(asked["card"][1:]) - 1) + seat})


def rayman_characters(t: Night) -> str:
    rayman_character(t, "Zoé")
    return "Max"


def rayman_legendary(t: Night) -> str:
    rayman_character(t, "Zoé")
    rayman_character(t, "Max")
    t.phones["Zoé"].play(t.legal("Zoé", "pick_legendary"))
    return "Max"


def rayman_draft(t: Night) -> str:
    """The extra action cards: the players pick in turn from the cards on the table."""
    rayman_character(t, "Zoé")
    rayman_character(t, "Max")
    t.host.play(next(a for a in t.game()["legal"] if a["type"] == "answer"))  # the host names the youngest player
    draft = t.game()["draft"]
    return t.name_of(draft["order"][draft["turn"]])


def rayman_initiatives(t: Night) -> str:
    """Both revealed cards played for the first time; Zoé has read hers, the table waits on Max's."""
    rayman_ready(t)
    rayman_choose_all(t, {"Zoé": ("b1", "b2"), "Max": ("b3", "b4")}, tell=False)
    rayman_tell(t, "Zoé")
    assert t.game()["phase"] == "initiatives"
    return "Max"


def rayman_roll(t: Night) -> str:
    """A projectile: the table drew who rolls its die in the first round."""
    rayman_ready(t)
    game = t.game()
    assert game["phase"] == "round_start"
    return t.name_of(game["round"]["roller"])


def rayman_lock(t: Night, name: str, pick_: tuple) -> None:
    """The phone locks in: its pick and salt stay with it (here, on the test's table), the server gets the commitment."""
    choice, salt = {"bubble": False, "left": pick_[0], "second": pick_[1]}, f"{t.seat(name):02x}" * 16
    t.__dict__.setdefault("picks", {})[name] = (choice, salt)
    t.phones[name].play({"type": "lock", "commitment": commitment(choice, salt)})


def rayman_reveal(t: Night, name: str) -> None:
    choice, salt = t.picks[name]
    t.phones[name].play({"type": "reveal", "choice": choice, "salt": salt})


def rayman_choose_all(t: Night, picks: dict, tell: bool = True) -> None:
    for name, pick_ in picks.items():
        rayman_lock(t, name, pick_)
    for name in picks:
        rayman_reveal(t, name)
    for name in picks if tell else ():
        rayman_tell(t, name)


def rayman_choosing(t: Night) -> str:
    rayman_ready(t)
    rayman_lock(t, "Zoé", ("b1", "b2"))
    return "Max"


def rayman_revealing(t: Night) -> str:
    rayman_ready(t)
    rayman_lock(t, "Zoé", ("b1", "b2"))
    rayman_lock(t, "Max", ("b3", "b4"))
    rayman_reveal(t, "Zoé")
    return "Max"


def rayman_choose_again(t: Night, name: str) -> None:
    """The new phone holds no pick. Before any phone revealed it chooses again (never the host); once one
    has, its commitment stands and its choice is drawn at random (these script phones take part in no
    round: the draw is made at once). Then every phone reveals. A choice another phone already revealed
    stays sealed until all have: no screen has received it."""
    for other in t.picks:
        if other != name and any(str(e["seat"]) == str(t.seat(other)) for e in revealed(t)):
            choice, salt = t.picks[other]
            for screen in (t.phones[name], t.host, t.display):
                assert salt not in str(screen.messages)
    if t.game()["phase"] == "revealing" and revealed(t):
        t.phones[name].play({"type": "repick"})
        history = t.game()["history"]
        assert {"type": "choice_lost", "seat": t.seat(name)} in history
        assert {"type": "choice_drawn", "seat": t.seat(name)} in history
    else:
        if t.game()["phase"] == "revealing":
            t.phones[name].play({"type": "repick"})
            assert t.game()["history"][-1] == {"type": "choice_reset", "seat": t.seat(name)}
        rayman_lock(t, name, ("b5", "b6"))
    for who in t.seats:
        if t.game()["phase"] == "revealing" and str(t.seat(who)) not in {str(e["seat"]) for e in revealed(t)}:
            rayman_reveal(t, who)
    for who in t.seats:
        if t.game()["phase"] == "initiatives":
            rayman_tell(t, who)


def revealed(t: Night) -> list[dict]:
    return [entry for entry in t.game()["history"] if entry["type"] == "revealed_by"]


def rayman_offer(t: Night) -> str:
    """Co-op: the active player offers a bonus token to the other, who must consent (a timed wait)."""
    rayman_ready(t)
    t.host.play({"type": "roll"})  # two cards of each hand are discarded at random: each keeps its first two left
    rayman_choose_all(t, {name: tuple(own(t.game(name), t.seat(name))["hand"][:2]) for name in t.seats})
    first = t.name_of(t.game()["active"])
    other = next(name for name in t.seats if name != first)
    t.phones[first].play({"type": "bonus"})
    t.phones[first].play({"type": "give_bonus", "to": t.seat(other), "give": 1, "take": 0})
    return other


def rayman_turn(t: Night) -> str:
    rayman_ready(t)
    rayman_choose_all(t, {"Zoé": ("b7", "b8"), "Max": ("b1", "b2")})
    return t.name_of(t.game()["active"])


def rayman_free_move(t: Night) -> str:
    """The last player who kept a position moves freely at the round's end."""
    rayman_ready(t)
    for name, column in (("Zoé", 3), ("Max", 1)):
        t.phones[name].play({"type": "position", "column": column, "level": 1})
    rayman_choose_all(t, {"Zoé": ("b7", "b8"), "Max": ("b1", "b2")})
    for name in ("Zoé", "Max"):
        t.phones[name].play({"type": "end_turn"})
    assert t.game()["free_mover"] == t.seat("Max")
    return "Max"


def rayman_finish(t: Night) -> str:
    """Zoé frees three Ptizêtres and crosses the line in the first round: at its end the table settles the
    ranking, and her phone says how far past the line she got."""
    rayman_ready(t)
    rayman_choose_all(t, {"Zoé": ("b7", "b8"), "Max": ("b1", "b2")})
    for number in (1, 2, 3):
        t.phones["Zoé"].play({"type": "free", "ptizetre": number})
    t.phones["Zoé"].play({"type": "crossed"})
    for name in ("Zoé", "Max"):
        if t.game()["phase"] == "turns":
            t.phones[t.name_of(t.game()["active"])].play({"type": "end_turn"})
    assert t.game()["phase"] == "finish"
    return "Zoé"


def own(game: dict, seat: int) -> dict:
    return next(player for player in game["players"] if player["seat"] == seat)


def in_phase(phase: str) -> Callable[[dict, dict], bool]:
    return lambda at_step, view: view["game"]["phase"] == phase


def offer_answered(at_step: dict, view: dict) -> bool:
    return view["game"]["round"]["offer"] is None


def offer_lapsed(view: dict) -> None:
    """Nothing moves without both consents: an offer unanswered in time is declined."""
    assert view["game"]["history"][-1]["type"] == "bonus_declined"


def round_over(at_step: dict, view: dict) -> bool:
    return view["game"]["round"]["number"] > at_step["game"]["round"]["number"]


SECRET = {"type": "lock", "commitment": "0" * 64}  # what the host may never send for a seat
RAYMAN = [
    Step("rayman", "characters", rayman_characters, phase_left, ("handoff", "withdraw"),
         prefer=({"type": "character"},)),
    Step("rayman", "legendary", rayman_legendary, phase_left, ("handoff", "withdraw"), {"legendary": "on"},
         prefer=({"type": "pick_legendary"},)),
    Step("rayman", "draft", rayman_draft, lambda at_step, view: view["game"]["phase"] != "draft"
         or view["game"]["draft"]["turn"] != at_step["game"]["draft"]["turn"], ("handoff", "withdraw"),
         {"extra_cards": "on"}, prefer=({"type": "pick"},)),
    Step("rayman", "initiatives", rayman_initiatives, phase_left, ("host", "handoff", "withdraw"),
         prefer=({"type": "initiative"},), resume=rayman_tell),
    # The die of the round: its roller's phone, or the host (the game lets the host roll for the table).
    Step("rayman", "roll", rayman_roll, phase_left, ("host", "handoff", "withdraw"), {"projectile": "missile"},
         prefer=({"type": "roll"},)),
    Step("rayman", "choosing", rayman_choosing, in_phase("turns"), ("handoff", "withdraw"), prefer=(SECRET,),
         resume=rayman_choose_again),
    Step("rayman", "revealing", rayman_revealing, in_phase("turns"), ("handoff", "withdraw"),
         prefer=({"type": "reveal"},), resume=rayman_choose_again),
    Step("rayman", "offer", rayman_offer, offer_answered, ("decide", "timeout", "handoff", "withdraw"),
         {"mode": "coop", "boss_move": 5}, prefer=({"type": "answer_offer", "accept": False},), rule=offer_lapsed),
    Step("rayman", "turn", rayman_turn, turn_passed, ("decide", "handoff", "withdraw"), prefer=({"type": "end_turn"},)),
    Step("rayman", "finish", rayman_finish, phase_left, ("handoff", "withdraw"), prefer=({"type": "distance"},),
         ends=True),
    Step("rayman", "free-move", rayman_free_move, round_over, ("decide", "handoff", "withdraw"),
         prefer=({"type": "free_move"},)),
]


@pytest.mark.parametrize("step, way", cases(RAYMAN))
def test_rayman_each_waiting_step_goes_on_without_its_phone_and_its_old_token_is_refused(night, step, way):
    go_on(night, step, way)


# --- Amiiboxe -------------------------------------------------------------------------------------

def amiiboxe_begun(t: Night) -> None:
    """Home locations named, the host sets who plays first (Ana) and begins."""
    for figure in t.game()["figures"]:
        if figure["location"] is None:
            t.phones[t.name_of(figure["seat"])].play({"type": "name_location", "figure": figure["id"], "name": "Enfers"})
    t.host.play({"type": "first_player", "player": t.seat("Ana")})
    t.host.play({"type": "begin"})


def amiiboxe_fight(t: Night) -> str:
    """PRO mode: the players judge every fight; Ana has said who wins, Bo has not."""
    amiiboxe_begun(t)
    figures = t.game()["figures"]
    mario, bowser = (next(f["id"] for f in figures if f["amiibo_id"] == amiibo_id)
                     for amiibo_id in (ANA_FIGURES[0], BO_FIGURES[0]))
    t.phones["Ana"].play({"type": "attack", "attacker": mario, "defender": bowser})
    t.phones["Ana"].play({"type": "judge", "winner": mario})
    return "Bo"


def amiiboxe_vote(t: Night) -> str:
    """Three players: the fighters disagree, so the third votes (a timed wait)."""
    amiiboxe_fight(t)
    bowser = next(f["id"] for f in t.game()["figures"] if f["amiibo_id"] == BO_FIGURES[0])
    t.phones["Bo"].play({"type": "judge", "winner": bowser})
    assert t.game()["fight"]["exchange"] == "vote"
    return "Cy"


def vote_over(at_step: dict, view: dict) -> bool:
    fight = view["game"]["fight"]
    return not fight or fight["exchange"] != "vote" or fight["tried"] != at_step["game"]["fight"]["tried"]


def no_vote_counts(view: dict) -> None:
    """A vote not given in time is no vote: none for either figure, so the die is rolled again."""
    game = view["game"]
    assert (game["fight"] and len(game["fight"]["tried"]) == 2) or game["fights"][-1]["by"] == "no_criterion_left"


def amiiboxe_turn(t: Night) -> str:
    amiiboxe_begun(t)
    return "Ana"


def amiiboxe_effects(t: Night) -> str:
    """Ana moved and holds her turn open for its effects: only ending it is left."""
    amiiboxe_begun(t)
    figure = next(f["id"] for f in t.game()["figures"] if f["seat"] == t.seat("Ana"))
    t.phones["Ana"].play({"type": "move", "figure": figure, "hold": True})
    return "Ana"


def silent_disagrees(view: dict) -> None:
    """Past the deadline the silent player (the defender) counts as disagreeing, whatever the attacker said
    (a judgement or a value): a tie, by this table's option."""
    fight = view["game"]["fights"][-1]
    assert fight["by"] == "tie_on_disagreement" and fight["answers"]["defender"] is None
    assert fight["answers"]["attacker"] is not None


def amiiboxe_card_effect(t: Night) -> str:
    """Ana's figure arrives on a card whose effect the companion does not know (one the host added):
    the game waits for the table to apply it on the real board and confirm."""
    amiiboxe_begun(t)
    t.host.play({"type": "add_card", "name": "Cuisine de Peach"})
    figure = next(f["id"] for f in t.game()["figures"] if f["seat"] == t.seat("Ana"))
    t.phones["Ana"].play({"type": "move", "figure": figure, "card": "Cuisine de Peach"})
    assert t.game()["step"]["kind"] == "hold"
    return "Ana"


def amiiboxe_values(t: Night) -> str:
    """A criterion the board decides, with the board not kept: both players enter their figure's value.
    The reference holds four such criteria of six; a fight the players judge instead ends in a tie
    (they disagree, and the table's option makes a disagreement a tie), and the next turn attacks again."""
    amiiboxe_begun(t)
    for _ in range(20):
        game = t.game()
        attacker = t.name_of(game["active"])
        figures = [f for f in game["figures"] if f["status"] == "in_play"]
        own_figure = next(f["id"] for f in figures if f["seat"] == game["active"])
        enemy = next(f["id"] for f in figures if f["seat"] != game["active"])
        t.phones[attacker].play({"type": "attack", "attacker": own_figure, "defender": enemy})
        fight = t.game()["fight"]
        if fight and fight["exchange"] == "values":
            t.phones[attacker].play({"type": "enter_value", "value": 2})
            return next(name for name in t.seats if name != attacker)
        if fight:
            defender = next(name for name in t.seats if name != attacker)
            t.phones[attacker].play({"type": "judge", "winner": own_figure})
            t.phones[defender].play({"type": "judge", "winner": enemy})
    raise AssertionError("no fight asked for values in 20 attacks")


def fight_settled(at_step: dict, view: dict) -> bool:
    return len(view["game"]["fights"]) > len(at_step["game"]["fights"])


BOARD_CRITERIA = ["most_supports", "fewest_supports", "farthest_from_start", "closest_to_start", "oldest_figure",
                  "newest_figure"]
CY_FIGURES = ["0x00aa000000010002", "0x00aa000000020002", "0x00aa000000030002"]  # unknown to the catalogue
AMIIBOXE_TABLE = {"names": ("Ana", "Bo"), "figures": {"Ana": ANA_FIGURES, "Bo": BO_FIGURES}}
AMIIBOXE = [
    Step("amiiboxe", "fight", amiiboxe_fight, fight_settled, ("timeout", "handoff", "withdraw"),
         {"pro": "on", "disagreement": "tie"}, prefer=({"type": "judge"},), rule=silent_disagrees,
         **AMIIBOXE_TABLE),
    # The host passes the turn of an away player; the new phone takes its action (a player at the table never passes).
    Step("amiiboxe", "values", amiiboxe_values, fight_settled, ("timeout", "handoff", "withdraw"),
         {"disagreement": "tie", "reference": BOARD_CRITERIA}, prefer=({"type": "enter_value"},),
         rule=silent_disagrees, **AMIIBOXE_TABLE),
    Step("amiiboxe", "vote", amiiboxe_vote, vote_over, ("timeout", "handoff", "withdraw"), {"pro": "on"},
         prefer=({"type": "judge"},), rule=no_vote_counts, names=("Ana", "Bo", "Cy"),
         figures={**AMIIBOXE_TABLE["figures"], "Cy": CY_FIGURES}),
    Step("amiiboxe", "turn", amiiboxe_turn, turn_passed, ("decide", "handoff", "withdraw"),
         prefer=({"type": "move"}, {"type": "pass"}), **AMIIBOXE_TABLE),
    Step("amiiboxe", "card-effect", amiiboxe_card_effect, turn_passed, ("decide", "handoff", "withdraw"),
         prefer=({"type": "confirm_effect"},), **AMIIBOXE_TABLE),
    Step("amiiboxe", "effects", amiiboxe_effects, turn_passed, ("decide", "handoff", "withdraw"),
         prefer=({"type": "end_turn"},), **AMIIBOXE_TABLE),
]


@pytest.mark.parametrize("step, way", cases(AMIIBOXE))
def test_amiiboxe_each_waiting_step_goes_on_without_its_phone_and_its_old_token_is_refused(night, step, way):
    go_on(night, step, way)


# --- Chakart --------------------------------------------------------------------------------------

NO_MOVE = "6PK/6PP/8/8/8/8/8/k7 w"  # White's king walled in by its own pawns: nothing can move
EGGS = "4k3/8/eeeeeeee/eeeeeeee/eeeeeeee/eeeeeeee/8/RRRRKRRR w"  # White's rooks face rows of eggs


def mover(t: Night) -> str:
    game = t.game()
    return t.name_of(game["seats"][game["turn"]])


def chakart_board(t: Night) -> str:
    name = mover(t)
    t.phones[name].play(t.legal(name, "move"))
    return name


def chakart_egg_choice(t: Night) -> str:
    """White moves rooks onto eggs (Black's king keeps off the items) until an egg leaves White a
    choice (King Boo's swap, Daisy's second move, Toadette's revival); each egg is the table's draw."""
    for _ in range(60):
        game, name = t.game(), mover(t)
        if game["phase"] == "choice":
            return name
        if game["phase"] == "board":
            t.phones[name].play({"type": "board_done"})
            continue
        # No move takes a king (the game would end), and Black moves its king only: a rook Waluigi turned
        # black would otherwise take White's king.
        moves = [a for a in t.game(name)["legal"] if a["type"] == "move"
                 and game["pieces"].get(a["to"], "").lower() != "k"
                 and (game["turn"] == "w" or game["pieces"][a["from"]] == "k")]
        eggs = [a for a in moves if game["items"].get(a["to"]) == "e" and game["turn"] == "w"]
        t.phones[name].play((eggs or [a for a in moves if a["to"] not in game["items"]] or moves)[0])
    raise AssertionError("no egg left a choice in 30 turns")


def ply_passed(at_step: dict, view: dict) -> bool:
    return view["game"]["ply"] > at_step["game"]["ply"]


def choice_made(at_step: dict, view: dict) -> bool:
    return view["game"]["phase"] != "choice"


CHAKART = [
    Step("chakart", "move", mover, ply_passed, ("handoff", "withdraw"), {"colours": "first"},
         names=("Ana", "Bo"), prefer=({"type": "move"}, {"type": "board_done"})),
    Step("chakart", "board", chakart_board, ply_passed, ("decide", "handoff", "withdraw"), {"colours": "first"},
         names=("Ana", "Bo"), prefer=({"type": "board_done"},)),
    Step("chakart", "pass", mover, ply_passed, ("decide", "handoff", "withdraw"),
         {"colours": "first", "position": [NO_MOVE]}, names=("Ana", "Bo"), prefer=({"type": "pass"},)),
    Step("chakart", "egg-choice", chakart_egg_choice, choice_made, ("handoff", "withdraw"),
         {"colours": "first", "position": [EGGS], "eggs": "applicable"}, names=("Ana", "Bo"),
         prefer=({"type": "decline"}, {"type": "swap"}, {"type": "revive"}, {"type": "move"})),
]


@pytest.mark.parametrize("step, way", cases(CHAKART))
def test_chakart_each_waiting_step_goes_on_without_its_phone_and_its_old_token_is_refused(night, step, way):
    go_on(night, step, way)


# --- Mario Universalis ----------------------------------------------------------------------------

def active(t: Night) -> str:
    return t.name_of(t.game()["active"])


def tap_next_until(t: Night, phase: str) -> str:
    """The active phone taps "next" until the turn reaches ``phase``."""
    name = active(t)
    while t.game()["phase"] != phase:
        t.phones[name].play({"type": "next"})
    return name


def end_turn(t: Night) -> None:
    """The active phone ends its turn (the end, and the next turn's start, refill and draw, pass by themselves)."""
    t.phones[active(t)].play({"type": "end_turn"})


def universalis_blockers(t: Night) -> str:
    """Turn 3: the first player's Koopa (played in turn 1) attacks; the other player declares blockers."""
    first = tap_next_until(t, "prep1")
    t.phones[first].play({"type": "play", "card": {"kind": "character", "name": "Koopa", "cost": 3, "pf": 3, "pc": 5}})
    end_turn(t)
    end_turn(t)
    tap_next_until(t, "attackers")
    koopa = next(card["id"] for card in t.game()["in_play"] if card["name"] == "Koopa")
    t.phones[first].play({"type": "attack", "attackers": [koopa]})
    return next(name for name in t.seats if name != first)


def universalis_sharing(t: Night) -> str:
    """Two blockers on Koopa: its player shares its PF among them (the active player's step)."""
    first = tap_next_until(t, "prep1")
    t.phones[first].play({"type": "play", "card": {"kind": "character", "name": "Koopa", "cost": 3, "pf": 3, "pc": 5}})
    end_turn(t)
    second = tap_next_until(t, "prep1")
    t.phones[second].play({"type": "play", "card": {"kind": "character", "name": "Boo", "cost": 2, "pf": 1, "pc": 3}})
    t.phones[second].play({"type": "play", "card": {"kind": "character", "name": "Bill", "cost": 0, "pf": 2, "pc": 2},
                           "free": True})  # a card puts a second Character into play
    end_turn(t)
    tap_next_until(t, "attackers")
    ids = {card["name"]: str(card["id"]) for card in t.game()["in_play"]}
    t.phones[first].play({"type": "attack", "attackers": [int(ids["Koopa"])]})
    t.phones[second].play({"type": "block", "blocks": {ids["Boo"]: int(ids["Koopa"]), ids["Bill"]: int(ids["Koopa"])}})
    assert t.game()["phase"] == "sharing"
    return first


def universalis_preparation(t: Night) -> str:
    return tap_next_until(t, "prep1")


UNIVERSALIS = [
    Step("universalis", "blockers", universalis_blockers, phase_left, ("timeout", "decide", "handoff", "withdraw"),
         {"starting_coins": 10}, names=("Ana", "Bo"), prefer=({"type": "no_block"}, {"type": "block", "blocks": {}})),
    Step("universalis", "sharing", universalis_sharing, phase_left, ("handoff", "withdraw"), {"starting_coins": 10},
         names=("Ana", "Bo"), prefer=({"type": "share"},)),
    Step("universalis", "phase", universalis_preparation, phase_left, ("handoff", "withdraw"),
         names=("Ana", "Bo"), prefer=({"type": "next"},)),
]


@pytest.mark.parametrize("step, way", cases(UNIVERSALIS))
def test_universalis_each_waiting_step_goes_on_without_its_phone_and_its_old_token_is_refused(night, step, way):
    go_on(night, step, way)


# --- Every game's timed waits, at once ------------------------------------------------------------

TIMED_STEPS = [step for step in ARKADE + RAYMAN + AMIIBOXE + CHAKART + UNIVERSALIS if "timeout" in step.ways]


def test_each_timed_wait_passes_its_deadline_and_the_table_goes_on_without_its_phone(night):
    """The ``timeout`` way of every step that has one: every table reaches its step and loses its phone
    first, so that their deadlines run out together (one wait of the shortest timeout, not one a step)."""
    assert {step.game for step in TIMED_STEPS} == {"arkade", "rayman", "amiiboxe", "universalis"}
    reached = []
    for step in TIMED_STEPS:
        with named(step):
            reached.append((step, arrive(night, step, "timeout")))
    for step, at_step in reached:
        with named(step):
            go_past(step, "timeout", *at_step)


@contextmanager
def named(step: Step) -> Iterator[None]:
    """An assertion that fails says which game's step it was."""
    try:
        yield
    except AssertionError as error:
        raise AssertionError(f"{step.game} {step.name}: {error}") from error
