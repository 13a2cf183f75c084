"""Issue 24's attacks by the server's operator on the table's draws, against the real server process.

The operator reads the database file directly (the seed, the pool, every value a phone sent), holds
the host screen and has phones of its own (the accomplices), which answer only when it likes. Each
test plays one attack with honest phones over the real HTTP API and shows what it now gets."""

from __future__ import annotations

import sqlite3

import pytest
import requests

from companion import fairness
from companion.verify import verify_log
from tests.helpers import bearer
from tests.phones import ChainPhone, answer_rounds
from tests.screen import Screen
from tests.server import server_fixture

TIMEOUT = 20
# Every game with a setup draw, with options that make it draw: what the table draws on its own at the start.
SETUP_DRAWS = {
    "universalis": {},  # who plays first
    "chakart": {"start": "random", "colours": "random"},  # who plays White, the random back rank
    "arkade": {},  # the face-down power tiles
    "amiiboxe": {"reference": ["random"]},  # the reference
}
# Rayman's setup draws nothing: its shuffles and the first roller are drawn by the seats' own actions.
FIGURES = (("mario", "link", "peach"), ("bowser", "kirby", "samus"), ("yoshi", "fox", "pikachu"))


def pick_a_figure(server, phone: ChainPhone, query: str) -> None:
    """What the phone's search does: a figure of the shipped catalogue, picked by its id."""
    found = requests.get(f"{server.url}/api/amiibo", params={"q": query, "limit": 12}, timeout=TIMEOUT).json()
    smash = next(f for f in found["results"] if f["amiibo_series"]["name"] == "Super Smash Bros.")
    picked = phone.post({"type": "figure.pick", "amiibo_id": smash["id"]})
    assert picked.status_code == 200, picked.text


server = server_fixture("operator")


def new_table(server, game: str, **options) -> dict:
    created = requests.post(f"{server.url}/api/tables", json={"game": game, "options": options}, timeout=TIMEOUT)
    assert created.status_code == 201, created.text
    return created.json()


def host(server, table: dict, action: dict) -> requests.Response:
    return requests.post(f"{server.url}/api/tables/{table['code']}/actions", headers=bearer(table["host_token"]),
                         json=action, timeout=TIMEOUT)


def log(server, code: str) -> dict:
    return requests.get(f"{server.url}/api/tables/{code}/log", timeout=TIMEOUT).json()


def verified_after_closing(server, table: dict, record):
    """The host closes the table (its seed is revealed): the CLI verifier's report on its log, with a phone's record."""
    host(server, table, {"type": "table.close"})
    return verify_log(log(server, table["code"]), record)


def what_the_operator_reads(server) -> str:
    """Everything in the server's database file, as the operator sees it."""
    with sqlite3.connect(f"file:{server.database}?mode=ro", uri=True) as db:
        return "\n".join(db.iterdump())


def operator_book(server, code: str) -> tuple[str, str]:
    """The seed and the pool, read from the database: what the operator computes table draws from."""
    with sqlite3.connect(f"file:{server.database}?mode=ro", uri=True) as db:
        return db.execute("SELECT seed, pool FROM tables WHERE code = ?", (code,)).fetchone()


def predicted_first_draw(server, code: str) -> int:
    """The issue's prediction: the setup's first draw (``table|0``) as a coin of two, from what the database holds."""
    seed, pool = operator_book(server, code)
    return fairness.recompute(seed, {"n": 0, "by": None, "pool": pool, "type": "int", "lo": 0, "hi": 1})


def setup_draws(server, code: str) -> list[dict]:
    return [e for e in log(server, code)["entries"] if e["kind"] == "draw" and e["by"] is None]


def status(phone: ChainPhone) -> str:
    return phone.view()["table"]["status"]


def connected(phone: ChainPhone) -> Screen:
    """The phone's page holds its seat over Socket.IO (its first view came): the server counts it as here,
    and a round a draw waits for asks it."""
    screen = Screen(phone.url, phone.code, phone.token)
    screen.wait_for(lambda view: True)
    return screen


@pytest.mark.parametrize("game", sorted(SETUP_DRAWS))
def test_the_setup_cannot_be_computed_before_the_start_so_it_cannot_be_re_rolled(server, game):
    """The re-roll attack: the operator predicts the setup from the seed and the pool it reads; while it
    dislikes it, its accomplice leaves and joins again (a new pool). Once the host may start, every input
    of the setup it could read must still be unknown: the start opens a round of values nobody has seen."""
    table = new_table(server, game, **SETUP_DRAWS[game])
    ana = ChainPhone(server.url, table["code"], "Ana")
    mallory = ChainPhone(server.url, table["code"], "Mallory")  # the operator's accomplice
    answer_rounds(ana, mallory)
    # One re-roll, as the issue did it: leave, join again, a new pool is sealed.
    assert mallory.post({"type": "seat.leave"}).status_code == 200
    mallory = ChainPhone(server.url, table["code"], "Mallory")
    answer_rounds(ana, mallory)
    if game == "amiiboxe":
        for phone, queries in zip((ana, mallory), FIGURES):
            for query in queries:
                pick_a_figure(server, phone, query)
    seed, pool_before_start = operator_book(server, table["code"])
    known_at_start = what_the_operator_reads(server)

    started = host(server, table, {"type": "table.start"})
    assert started.status_code == 200, started.text
    assert started.json()["events"] == [{"type": "starting"}]
    # Committed to start, and nothing drawn yet: the draws wait for values the phones reveal now.
    assert status(ana) == "lobby" and setup_draws(server, table["code"]) == []
    round_ = ana.view()["table"]["entropy"]["round"]
    assert round_["why"] == "start" and round_["asked"] == sorted([ana.seat, mallory.seat])
    answer_rounds(ana, mallory)
    assert status(ana) == "playing"

    draws = setup_draws(server, table["code"])
    assert draws, "this game's setup draws"
    # The setup came from a pool the operator could not read before the start, holding a value Ana's phone
    # revealed after it: the prediction it made from the database is worth nothing.
    pools = {draw["pool"] for draw in draws}
    assert pools == {ana.view()["table"]["entropy"]["pool"]} and pool_before_start not in pools
    anas_start_value = ana.chain[ana.k]
    assert anas_start_value not in known_at_start and next(iter(pools)) not in known_at_start
    assert fairness.seal(pool_before_start, {str(ana.seat): anas_start_value,
                                            str(mallory.seat): mallory.chain[mallory.k]}) in pools
    report = verified_after_closing(server, table, ana.record)
    assert report.ok, report.problems


def started_with_three_phones(server) -> tuple:
    """An Amiiboxe table whose three phones (Ana, Bo, Mallory) registered their figures; Start pressed."""
    table = new_table(server, "amiiboxe", reference=["random"])
    ana, bo = ChainPhone(server.url, table["code"], "Ana"), ChainPhone(server.url, table["code"], "Bo")
    mallory = ChainPhone(server.url, table["code"], "Mallory")
    for phone, queries in zip((ana, bo, mallory), FIGURES):
        for query in queries:
            pick_a_figure(server, phone, query)
    answer_rounds(ana, bo, mallory)
    assert host(server, table, {"type": "table.start"}).status_code == 200
    return table, ana, bo, mallory


def test_an_accomplice_withholding_in_the_start_round_can_only_veto_and_loses_its_seat(server):
    """The accomplice answers last: it knows every other value of the start round, so it computes the setup
    with its own value. Withholding gives the host no setup without it to pick: going on without it asks the
    others for fresh values, and the accomplice leaves the table, so a veto never helps the seat that used it."""
    table, ana, bo, mallory = started_with_three_phones(server)
    ana.answer_round()
    bo.answer_round()
    seed, pool = operator_book(server, table["code"])
    revealed = {str(ana.seat): ana.chain[ana.k], str(bo.seat): bo.chain[bo.k]}
    with_mallory = fairness.seal(pool, {**revealed, str(mallory.seat): mallory.chain[mallory.k + 1]})
    without_mallory = fairness.seal(pool, revealed)
    # Meanwhile the lobby is shut: nobody joins, no figure or game changes, the start is not pressed twice.
    joined = requests.post(f"{server.url}/api/tables/{table['code']}/seats",
                           json={"name": "Eve", "commitment": fairness.chain("ab" * 32, 2)[0]}, timeout=TIMEOUT)
    assert joined.status_code == 403
    assert host(server, table, {"type": "table.another", "game": "chakart"}).status_code == 409
    assert host(server, table, {"type": "table.start"}).status_code == 409
    figures = ana.view()["table"]["figures"]["list"]
    assert ana.post({"type": "figure.remove", "figure": figures[0]["id"]}).status_code == 409

    known = what_the_operator_reads(server)
    went_on = host(server, table, {"type": "table.entropy_restart"})
    assert went_on.status_code == 200
    assert went_on.json()["events"][:2] == [{"type": "entropy_restarted", "without": [mallory.seat]},
                                            {"type": "removed", "seat": mallory.seat}]
    assert status(ana) == "lobby"  # a fresh round: not sealed with the values already seen
    answer_rounds(ana, bo)
    view = ana.view()
    assert view["table"]["status"] == "playing"
    assert [seat["id"] for seat in view["table"]["seats"]] == [ana.seat, bo.seat]
    pool_used = setup_draws(server, table["code"])[0]["pool"]
    assert pool_used not in (with_mallory, without_mallory) and ana.chain[ana.k] not in known
    assert verified_after_closing(server, table, ana.record).ok


def test_removing_a_seat_that_revealed_in_the_start_round_starts_the_round_again(server):
    """Same values, one seat fewer, would be a second setup the operator could compute (who plays first
    among fewer players): any seat leaving a start round restarts it with fresh values."""
    table, ana, bo, mallory = started_with_three_phones(server)
    bo.answer_round()
    ana.answer_round()
    known = what_the_operator_reads(server)
    removed = host(server, table, {"type": "table.remove", "seat": bo.seat})  # Bo revealed already
    assert removed.status_code == 200
    round_ = ana.view()["table"]["entropy"]["round"]
    assert round_["why"] == "start" and round_["asked"] == [ana.seat, mallory.seat] and round_["revealed"] == []
    answer_rounds(ana, mallory)
    assert status(ana) == "playing"
    assert ana.chain[ana.k] not in known  # the setup holds a value Ana revealed after the removal
    assert verified_after_closing(server, table, ana.record).ok


def test_play_again_is_a_start_its_round_fixes_the_game(server):
    """After play again the new game starts by itself from the round that asks every phone after the new
    commitment; meanwhile the host cannot switch to another game it could compute the setup of."""
    table = new_table(server, "universalis")
    ana, mallory = ChainPhone(server.url, table["code"], "Ana"), ChainPhone(server.url, table["code"], "Mallory")
    answer_rounds(ana, mallory)
    assert host(server, table, {"type": "table.start"}).status_code == 200
    answer_rounds(ana, mallory)
    assert host(server, table, {"type": "table.withdraw", "seat": mallory.seat}).status_code == 200
    assert status(ana) == "over"
    again = host(server, table, {"type": "table.again"})
    assert again.status_code == 200 and {"type": "starting"} in again.json()["events"]
    assert ana.view()["table"]["entropy"]["round"]["why"] == "start"
    ana.answer_round()
    # Mallory, last, could compute the new game's setup: switching games is refused, only a veto is left.
    assert host(server, table, {"type": "table.another", "game": "universalis"}).status_code == 409
    mallory.answer_round()
    assert status(ana) == "playing" and log(server, table["code"])["number"] == 2


# --- section 2: a secret choice re-chosen after others were revealed ----------------------------------

def act(phone: ChainPhone, action: dict) -> requests.Response:
    """What the phone's script does: an action that draws is sent again with the phone's next value."""
    answer = phone.post(action)
    if answer.status_code == 428:
        answer = phone.post({**action, "reveal": phone.chain[phone.k + 1]})
    if answer.status_code == 200:
        phone._sync()
    return answer


SETUP_STEPS = ("character", "pick_legendary", "pick", "roll")  # Rayman's steps to its first secret choice


def play_until(server, table: dict, phones: list[ChainPhone], phase: str) -> None:
    """Each phone's first legal action (and the host's answer to a question) until the game is in ``phase``."""
    for turn in range(40):
        answer_rounds(*phones)
        if phones[0].view()["game"]["phase"] == phase:
            return
        hosting = requests.get(f"{server.url}/api/tables/{table['code']}", headers=bearer(table["host_token"]),
                               timeout=TIMEOUT).json()["game"]
        if hosting.get("question") and hosting["legal"]:
            assert host(server, table, hosting["legal"][0]).status_code == 200
            continue
        in_turn = phones[turn % len(phones):] + phones[:turn % len(phones)]  # each phone its own step, in turn
        phone, step = next((p, a) for p in in_turn for a in p.view()["game"]["legal"] if a["type"] in SETUP_STEPS)
        answer = act(phone, step)
        assert answer.status_code == 200, answer.text
    raise AssertionError(f"the game never reached {phase}")


def rayman_choice(game: dict, seat: int) -> dict:
    hand = next(p for p in game["players"] if p["seat"] == seat)["hand"]
    return {"bubble": False, "left": hand[0], "second": hand[1]}


def test_a_rayman_choice_lost_after_a_reveal_is_drawn_never_chosen_again(server):
    """The last player (or the operator playing a seat) reads the revealed choices in the store, sends
    ``repick`` and locks a new choice knowing them. Now its commitment stands: the seat's choice is drawn
    among its legal choices from a round of values the phones reveal after the loss, shown on every screen."""
    from companion.games.rayman import commitment

    table = new_table(server, "rayman")
    ana, mallory = ChainPhone(server.url, table["code"], "Ana"), ChainPhone(server.url, table["code"], "Mallory")
    answer_rounds(ana, mallory)
    assert host(server, table, {"type": "table.start"}).status_code == 200
    play_until(server, table, [ana, mallory], "choosing")
    game = ana.view()["game"]
    anas, salt = rayman_choice(game, ana.seat), "ab" * 16
    assert act(ana, {"type": "lock", "commitment": commitment(anas, salt)}).status_code == 200
    mallorys = rayman_choice(mallory.view()["game"], mallory.seat)
    assert act(mallory, {"type": "lock", "commitment": commitment(mallorys, "cd" * 16)}).status_code == 200
    assert act(ana, {"type": "reveal", "choice": anas, "salt": salt}).status_code == 200
    # The known limit, plainly: Ana's revealed choice now sits in the store, where the operator reads it.
    assert salt in what_the_operator_reads(server)

    known = what_the_operator_reads(server)
    lost = act(mallory, {"type": "repick"})
    assert lost.status_code == 200 and lost.json()["events"] == [{"type": "choice_lost", "seat": mallory.seat}]
    game = ana.view()["game"]
    assert game["phase"] == "revealing" and next(p for p in game["players"] if p["seat"] == mallory.seat)["lost"]
    refused = act(mallory, {"type": "lock", "commitment": commitment(rayman_choice(mallory.view()["game"],
                                                                                   mallory.seat), "ef" * 16)})
    assert refused.status_code == 400  # no new choice: its commitment stands
    assert act(mallory, {"type": "repick"}).status_code == 400
    assert act(mallory, {"type": "reveal", "choice": mallorys, "salt": "cd" * 16}).status_code == 400
    round_ = ana.view()["table"]["entropy"]["round"]
    assert round_["why"] == "fresh" and round_["asked"] == [ana.seat, mallory.seat]
    answer_rounds(ana, mallory)

    entries = log(server, table["code"])["entries"]
    drawn = next(e for e in entries if e["kind"] == "draw" and e["purpose"]["kind"] == "lost_choice")
    assert drawn["by"] is None and drawn["pool"] == ana.view()["table"]["entropy"]["pool"]
    assert drawn["pool"] not in known and ana.chain[ana.k] not in known  # revealed after the loss
    assert any(e["kind"] == "event" and e["event"] == {"type": "choice_drawn", "seat": mallory.seat} for e in entries)
    mine = next(entry for entry in ana.view()["game"]["round"]["revealed"] if entry["seat"] == mallory.seat)
    assert "drawn" in mine and mine["salt"] is None
    report = verified_after_closing(server, table, ana.record)
    assert report.ok and not report.replay, (report.problems, report.replay)


def test_a_choice_lost_before_any_reveal_is_simply_chosen_again(server):
    """Before any phone has revealed nothing of the round is out: a new phone for the seat chooses again."""
    from companion.games.rayman import commitment

    table = new_table(server, "rayman")
    ana, bo = ChainPhone(server.url, table["code"], "Ana"), ChainPhone(server.url, table["code"], "Bo")
    answer_rounds(ana, bo)
    assert host(server, table, {"type": "table.start"}).status_code == 200
    play_until(server, table, [ana, bo], "choosing")
    assert act(ana, {"type": "lock", "commitment": commitment(rayman_choice(ana.view()["game"], ana.seat),
                                                              "ab" * 16)}).status_code == 200
    again = act(ana, {"type": "repick"})
    assert again.status_code == 200 and again.json()["events"] == [{"type": "choice_reset", "seat": ana.seat}]
    assert ana.view()["table"]["entropy"]["round"] is None  # no draw to make


# --- every draw: the table's own calls (a host decision, a withdrawal, a timeout) ------------------------

def test_a_die_the_host_rolls_waits_for_values_revealed_after_the_roll(server):
    """The host screen rolls Rayman's projectile die for the table: a table draw from the pool the operator
    reads, so it could compute the die and roll only when it liked it (else let the player roll). The roll
    is now committed first and drawn from a round opened by it; nothing else moves the game meanwhile but a
    seat's own draw, which queues behind it."""
    table = new_table(server, "rayman", projectile="missile")
    ana, mallory = ChainPhone(server.url, table["code"], "Ana"), ChainPhone(server.url, table["code"], "Mallory")
    screens = [connected(ana), connected(mallory)]  # both pages open: the round asks both phones
    answer_rounds(ana, mallory)
    assert host(server, table, {"type": "table.start"}).status_code == 200
    play_until(server, table, [ana, mallory], "round_start")
    draws_before = len([e for e in log(server, table["code"])["entries"] if e["kind"] == "draw"])
    known = what_the_operator_reads(server)

    rolled = host(server, table, {"type": "roll"})
    assert rolled.status_code == 200 and rolled.json()["events"] == [{"type": "draw_waits", "seat": "host"}]
    assert len([e for e in log(server, table["code"])["entries"] if e["kind"] == "draw"]) == draws_before
    assert ana.view()["table"]["entropy"]["round"]["why"] == "fresh"
    # The seat whose die it is taps it too: committed and queued behind the host's roll (its round opens only
    # after that roll ran; by then the die is rolled and the rules refuse it: dropped before its round opens).
    roller = next(phone for phone in (ana, mallory) if {"type": "roll"} in phone.view()["game"]["legal"])
    queued = act(roller, {"type": "roll"})
    assert queued.status_code == 200, queued.text
    assert queued.json()["events"] == [{"type": "draw_waits", "seat": roller.seat, "queued": 1}]
    second = act(roller, {"type": "roll"})  # one waiting draw per seat: the queue cannot be flooded
    assert second.status_code == 409 and "Your draw waits" in second.json()["error"]
    assert host(server, table, {"type": "roll"}).status_code == 409  # the table's calls keep their rule
    answer_rounds(ana, mallory)

    entries = log(server, table["code"])["entries"]
    dropped = next(e for e in entries if e.get("type") == "draw_dropped")
    assert (dropped["seat"], dropped["why"]) == (roller.seat, "refused")
    # Dropped before any round was opened for it: the last round of the log is the host roll's.
    assert max(e["i"] for e in entries if e["kind"] == "round") < dropped["i"]
    die = next(e for e in entries if e["kind"] == "draw" and e["purpose"]["kind"] == "projectile_level")
    assert die["by"] is None and die["pool"] not in known and ana.chain[ana.k] not in known
    assert ana.view()["game"]["phase"] != "round_start"
    for screen in screens:
        screen.close()
    report = verified_after_closing(server, table, ana.record)
    assert report.ok and not report.replay, (report.problems, report.replay)


def test_with_quick_entry_a_choice_lost_after_a_reveal_is_refused_and_changes_nothing(server):
    """With quick entry the companion does not know the cards: there is nothing fair to draw among, so a
    repick after a reveal is refused (the host can take the seat out), never a free new choice."""
    from companion.games.rayman import commitment

    table = new_table(server, "rayman", hand_entry="quick")
    ana, mallory = ChainPhone(server.url, table["code"], "Ana"), ChainPhone(server.url, table["code"], "Mallory")
    answer_rounds(ana, mallory)
    assert host(server, table, {"type": "table.start"}).status_code == 200
    play_until(server, table, [ana, mallory], "choosing")
    anas = {"bubble": False, "left": 5, "second": 3}
    assert act(ana, {"type": "lock", "commitment": commitment(anas, "ab" * 16)}).status_code == 200
    assert act(mallory, {"type": "lock", "commitment": commitment(anas, "cd" * 16)}).status_code == 200
    assert act(ana, {"type": "reveal", "choice": anas, "salt": "ab" * 16}).status_code == 200
    entries = log(server, table["code"])["entries"]
    refused = act(mallory, {"type": "repick"})
    assert refused.status_code == 400 and "quick entry" in refused.json()["error"]
    assert log(server, table["code"])["entries"] == entries


# --- every draw: a seat's own action, with the operator on its side ------------------------------------

def dice_table(server) -> tuple:
    """A die table with Ana (honest) and Mallory (the operator's accomplice), both pages open, in the pool."""
    table = new_table(server, "dice")
    ana, mallory = ChainPhone(server.url, table["code"], "Ana"), ChainPhone(server.url, table["code"], "Mallory")
    screens = {"ana": connected(ana), "mallory": connected(mallory)}
    answer_rounds(ana, mallory)
    return table, ana, mallory, screens


def draws_of(server, code: str) -> list[dict]:
    return [e for e in log(server, code)["entries"] if e["kind"] == "draw"]


def test_an_accomplices_roll_cannot_be_computed_before_it_is_committed(server):
    """The operator reads the seed and the pool; its accomplice knows its own next chain values. Were the roll
    drawn from those alone, they would compute it before rolling and roll only when it suits them (or skip
    values). Now the roll is committed first and drawn from a round it opens: when it is committed, the store
    lacks Ana's next value, which the draw depends on."""
    table, ana, mallory, screens = dice_table(server)
    pool_before = operator_book(server, table["code"])[1]

    rolled = screens["mallory"].act({"type": "roll"})
    assert rolled["ok"] and rolled["events"] == [{"type": "draw_waits", "seat": mallory.seat}], rolled
    known = what_the_operator_reads(server)  # the moment the roll is irrevocable
    anas_next = ana.chain[ana.k + 1]
    assert anas_next not in known and draws_of(server, table["code"]) == []
    # Every screen shows the draw waiting; nothing else moves the game meanwhile.
    waiting = screens["ana"].wait_for(lambda view: view["table"]["draw"]["waits"])
    assert waiting["table"]["draw"]["seat"] == mallory.seat
    assert waiting["table"]["entropy"]["round"] == {**waiting["table"]["entropy"]["round"], "why": "fresh",
                                                    "asked": sorted([ana.seat, mallory.seat])}
    # Mallory's second roll while the first waits: refused before anything is written (one waiting draw a seat).
    again = screens["mallory"].act({"type": "roll"})
    assert again["status"] == 409 and "Your draw waits" in again["error"]
    answer_rounds(ana, mallory)

    done = screens["ana"].wait_for(lambda view: not view["table"]["draw"]["waits"])
    assert done["game"]["last"]["seat"] == mallory.seat
    (draw,) = draws_of(server, table["code"])
    assert draw["by"] == mallory.seat and draw["reveal"] is None and not draw.get("alone")
    # Drawn from the round the roll opened: Ana's value revealed after the roll is in its pool.
    assert draw["pool"] == fairness.seal(pool_before, {str(ana.seat): anas_next,
                                                       str(mallory.seat): mallory.chain[mallory.k]})
    assert draw["pool"] not in known
    for screen in screens.values():
        screen.close()
    host(server, table, {"type": "table.close"})
    for record in (ana.record, mallory.record):
        report = verify_log(log(server, table["code"]), record)
        assert report.ok and not report.replay, (report.problems, report.replay)


def test_an_accomplices_attack_die_cannot_be_computed_before_the_attack_is_committed(server):
    """Amiiboxe: the attacker picks which attack to make; its die decides the fight. With the operator it would
    compute the die for each attack first. Now the attack is committed first, and the die waits for a round."""
    table, ana, bo, mallory = started_with_three_phones(server)
    screens = [connected(phone) for phone in (ana, bo, mallory)]
    answer_rounds(ana, bo, mallory)
    for phone in (ana, bo, mallory):  # Mallory plays first
        assert phone.post({"type": "first_player", "player": mallory.seat}).status_code == 200
    assert host(server, table, {"type": "begin"}).status_code == 200
    attack = next(action for action in mallory.view()["game"]["legal"] if action["type"] == "attack")
    honest = [ana, bo]
    draws_before = len(draws_of(server, table["code"]))

    attacked = mallory.post(attack)
    assert attacked.status_code == 200 and attacked.json()["events"][0]["type"] == "draw_waits", attacked.text
    known = what_the_operator_reads(server)
    assert all(phone.chain[phone.k + 1] not in known for phone in honest)
    assert len(draws_of(server, table["code"])) == draws_before
    answer_rounds(ana, bo, mallory)
    die = draws_of(server, table["code"])[draws_before]
    assert die["by"] == mallory.seat and die["pool"] not in known
    for screen in screens:
        screen.close()
    report = verified_after_closing(server, table, ana.record)
    assert report.ok and not report.replay, (report.problems, report.replay)


def test_with_no_other_phone_here_the_roll_says_it_was_drawn_alone(server):
    """Only the actor's page is open: its roll depends on its own value, sent with the roll (the phone is
    asked for it: 428), and the log and every screen say it was drawn without another phone."""
    table = new_table(server, "dice")
    ana, bo = ChainPhone(server.url, table["code"], "Ana"), ChainPhone(server.url, table["code"], "Bo")
    answer_rounds(ana, bo)
    screen = connected(ana)  # Bo's page is closed
    assert screen.act({"type": "roll"})["status"] == 428
    assert ana.roll().status_code == 200
    (draw,) = draws_of(server, table["code"])
    assert draw["alone"] is True and draw["reveal"] == ana.chain[ana.k]
    assert screen.wait_for(lambda view: view["table"]["draw"]["alone"] == ana.seat)
    screen.close()
    report = verified_after_closing(server, table, ana.record)
    assert report.ok and any("drawn without another phone" in note for note in report.notes)


def test_bad_reveals_are_refused_and_change_nothing(server):
    """A reveal for another seat, a forged value, a skipped value, a reveal when no round asks the phone: each
    is refused with a clear message, and neither the log nor the table's book changes."""
    table, ana, mallory, screens = dice_table(server)

    def book() -> tuple:
        return log(server, table["code"])["entries"], ana.view()["table"]["entropy"]

    before = book()
    assert screens["ana"].act({"type": "entropy.reveal", "value": ana.chain[ana.k + 1]})["status"] == 409
    assert book() == before
    assert screens["mallory"].act({"type": "roll"})["ok"]
    before = book()
    other = screens["mallory"].act({"type": "entropy.reveal", "seat": ana.seat, "value": ana.chain[ana.k + 1]})
    assert other["status"] == 403 and "own seat" in other["error"]
    forged = screens["ana"].act({"type": "entropy.reveal", "value": "ab" * 32})
    assert forged["status"] == 400 and "commitment" in forged["error"]
    assert screens["ana"].act({"type": "entropy.reveal", "value": "not hex"})["status"] == 400
    # The accomplice, answering last, would pick among its next values: the round takes the very next one.
    skipped = screens["mallory"].act({"type": "entropy.reveal", "value": mallory.chain[mallory.k + 2]})
    assert skipped["status"] == 400 and "very next" in skipped["error"]
    assert book() == before
    answer_rounds(ana, mallory)
    assert len(draws_of(server, table["code"])) == 1
    for screen in screens.values():
        screen.close()


def test_a_silent_phone_does_not_hold_the_roll(quick_rounds):
    """Bo's page is open but never answers: past the round's time the server leaves Bo out and starts the round
    again, Ana revealing a fresh value (a visible veto, in the log), and the roll is drawn."""
    server = quick_rounds
    table = new_table(server, "dice")
    ana, bo = ChainPhone(server.url, table["code"], "Ana"), ChainPhone(server.url, table["code"], "Bo")
    answer_rounds(ana, bo)
    screen, silent = connected(ana), connected(bo)
    assert screen.act({"type": "roll"})["ok"]
    ana.answer_round()
    again = screen.wait_for(lambda view: (view["table"]["entropy"]["round"] or {}).get("asked") == [ana.seat])
    assert bo.seat not in again["table"]["entropy"]["round"]["asked"]
    ana.answer_round()
    done = screen.wait_for(lambda view: not view["table"]["draw"]["waits"])
    assert done["game"]["last"]["seat"] == ana.seat
    entries = log(server, table["code"])["entries"]
    timed_out = next(e for e in entries if e.get("type") == "round_timed_out")
    assert timed_out["without"] == [bo.seat]
    assert any(e["kind"] == "round" and e.get("without") == [bo.seat] for e in entries)
    assert bo.view()["table"]["entropy"]["seats"][str(bo.seat)]["k"] == bo.k  # Bo spent no value
    screen.close()
    silent.close()
    report = verified_after_closing(server, table, ana.record)
    assert report.ok and not report.replay, (report.problems, report.replay)
