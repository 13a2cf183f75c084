"""Amiiboxe on the real server (python app.py) with the NFC reader emulated over udp: the
reader process reads the emulator (`hardware.emulate`, virtual NTAG215 amiibo) through
nfcpy's own udp driver and Type 2 tag code; the host screen and the phones are
python-socketio clients.

* A whole game on a kept board, figures registered and picked by taps, using Bourg Palette,
  Enfers, Amiiboxe ville and Île des Yoshis, cards whose effect the companion does not know
  (the turn holds until confirmed), and the book's scoring, computed by hand below.
* The phones learn whether a reader is there: without one they are never asked to tap; a
  reader that goes away (its process ends, as a crashing driver would) is named on the
  phones and changes nothing at the table; it comes back by itself.
* The host decides for an away seat: it passes its turn or confirms a card's effect, and a
  phone cannot forge such a decision.
"""

from __future__ import annotations

import psutil
import pytest
import requests

from hardware.emulate import Emulator
from tests.live_table import LiveTable, closed_after
from tests.screen import WAIT
from tests.server import ServerProcess

# A phone that leaves is away at once (the host may then decide for it).
FAST = {"COMPANION_RATE_BURST": "1000", "COMPANION_RATE_PER_SECOND": "1000", "COMPANION_AWAY_SECONDS": "0"}
# (uid of the virtual tag, amiibo id, English name): the shipped catalogue names them.
ANA_FIGURES = [("04c10000000001", "0x0100000000040002", "Link"), ("04c10000000002", "0x0000000000000002", "Mario"),
               ("04c10000000003", "0x0002000000010002", "Peach")]
BO_FIGURES = [("04c20000000001", "0x1919000000090002", "Pikachu"), ("04c20000000002", "0x0005000000140002", "Bowser"),
              ("04c20000000003", "0x1f000000000a0002", "Kirby")]
TAPS = {name: (uid, amiibo_id) for uid, amiibo_id, name in ANA_FIGURES + BO_FIGURES}


@pytest.fixture
def reader_server(tmp_path):
    with Emulator(port=0) as emulator:
        server = ServerProcess(tmp_path, extra_env={"COMPANION_READER": emulator.path, **FAST}).start()
        try:
            yield server, emulator
        finally:
            server.stop()


@pytest.fixture
def no_reader_server(tmp_path):
    # A reader is configured but none is plugged in (the default, "usb", on a machine without one).
    server = ServerProcess(tmp_path, extra_env={**FAST, "COMPANION_READER": "usb:ffff:fffe"}).start()
    yield server
    server.stop()


@pytest.fixture
def tables(reader_server):
    with closed_after(lambda *args, **kwargs: LiveTable(reader_server[0], *args, **kwargs)) as open_table:
        yield open_table


def reader_state(screen, state: str) -> dict:
    """The next reader message the screen receives in that state."""
    while True:
        status = screen.readers.get(timeout=WAIT)
        if status["state"] == state:
            return status


def current_version(table: LiveTable) -> int:
    return requests.get(f"{table.url}/api/tables/{table.code}", timeout=WAIT).json()["version"]


def tap(emulator, table: LiveTable, screen, name: str, seen) -> dict:
    """A figure placed on the reader and taken away once ``screen`` shows what the tap did."""
    before = current_version(table)
    emulator.place(*TAPS[name])
    try:
        return screen.wait_for(lambda view: view["version"] > before and seen(view))
    finally:
        emulator.remove()


def selected(role: str, figure_id: int):
    """The tap picked this figure (``figure``: to act with; ``target``: an enemy)."""
    return lambda view: view["game"] is not None and view["game"]["selected"][role] == figure_id


def figure_count(seat: int, count: int):
    return lambda view: sum(f["seat"] == seat for f in view["table"]["figures"]["list"]) == count


def register_by_taps(emulator, table: LiveTable, name: str, figures) -> None:
    phone = table.phones[name]
    phone.play({"type": "figure.adding", "on": True})
    for number, (_, _, figure) in enumerate(figures, start=1):
        tap(emulator, table, table.host, figure, figure_count(table.seat(name), number))
    phone.play({"type": "figure.adding", "on": False})


def test_a_kept_board_game_with_figures_tapped_on_the_udp_reader_ends_with_the_books_scoring(tables, reader_server):
    _, emulator = reader_server
    # PRO mode: both players judge every fight, whatever criterion the die shows, so the story
    # below does not depend on the die (which the server still rolls and logs for each fight).
    table = tables("amiiboxe", {"board": "kept", "pro": "on"}, ("Ana", "Bo"), start=False)
    host, ana, bo = table.host, table.phones["Ana"], table.phones["Bo"]
    ANA, BO = table.seat("Ana"), table.seat("Bo")
    reader_state(host, "connected")
    assert reader_state(ana, "connected") == {"state": "connected", "model": reader_state(bo, "connected")["model"]}

    register_by_taps(emulator, table, "Ana", ANA_FIGURES)
    register_by_taps(emulator, table, "Bo", BO_FIGURES)
    listed = host.latest["table"]["figures"]["list"]
    assert [(f["name"]["en"], f["uid"]) for f in listed] == [(n, uid) for uid, _, n in ANA_FIGURES + BO_FIGURES]
    host.play({"type": "table.start"})
    game = host.wait_for_game(lambda g: g["phase"] == "setup")["game"]
    ids = {f["name"]["en"]: f["id"] for f in game["figures"]}
    assert game["setup"]["size"] == 4 and game["board"] is not None  # 3 figures a player + 1
    assert {f["name"]["en"]: f["location"] for f in game["figures"]} == {
        "Link": "Temple du temps", "Mario": "Royaume Champignon", "Peach": "Château de Peach",
        "Pikachu": "Bourg Palette", "Bowser": "Château de Bowser", "Kirby": "Dream Land"}

    # Setup: each figure tapped, then its owner's phone puts it on their starting line (Ana south,
    # row 3; Bo north, row 0); the phones agree Ana plays first; the host begins.
    for name, phone, cell in (("Link", ana, [3, 1]), ("Mario", ana, [3, 2]), ("Peach", ana, [3, 0]),
                              ("Pikachu", bo, [0, 1]), ("Bowser", bo, [0, 2]), ("Kirby", bo, [0, 3])):
        tap(emulator, table, phone, name, selected("figure", ids[name]))
        phone.play({"type": "place", "cell": cell})
    for phone in (ana, bo):
        phone.play({"type": "first_player", "player": ANA})
    host.wait_for_game(lambda g: g["needs"] == [])
    host.play({"type": "begin"})

    def turn(phone, action) -> dict:
        """The game as the host screen shows it once the action is in (its version read after it)."""
        phone.play(action)
        version = current_version(table)
        return host.wait_for(lambda v: v["version"] >= version)["game"]

    def judged(winner: str) -> dict:
        """Both players give the same winner, sealed: they agree, so it decides. Until Bo answers,
        Ana's answer is on her phone alone."""
        turn(ana, {"type": "judge", "winner": ids[winner]})
        version = current_version(table)
        for screen, own in ((ana, ids[winner]), (bo, None), (host, None)):
            assert screen.wait_for(lambda v: v["version"] >= version)["game"]["fight"]["your_answer"] == own
        return turn(bo, {"type": "judge", "winner": ids[winner]})

    # 1. Ana taps Link and moves it onto the card it turns over: Enfers (an attack effect: nothing now).
    tap(emulator, table, ana, "Link", selected("figure", ids["Link"]))
    g = turn(ana, {"type": "move", "cell": [2, 1], "card": "Enfers"})
    assert g["active"] == BO and g["board"][2][1] == {"revealed": True, "name": "Enfers"}
    # 2. Bo: Pikachu onto Bourg Palette, next to Link.
    g = turn(bo, {"type": "move", "figure": ids["Pikachu"], "cell": [1, 1], "card": "bourg palette"})
    assert g["active"] == ANA and g["board"][1][1]["name"] == "Bourg Palette"
    # 3. Ana: Peach turns over her own Château de Peach, a card whose effect the companion does not
    #    know: the turn holds until Ana confirms the table applied it.
    g = turn(ana, {"type": "move", "figure": ids["Peach"], "cell": [3, 1], "card": "Château de Peach"})
    assert g["active"] == ANA and g["step"]["kind"] == "hold" and g["step"]["card"] == "Château de Peach"
    assert [(w["seat"], w["text"]["en"]) for w in host.latest["table"]["waiting"]] == [
        (ANA, "Apply the effect of Château de Peach on the board, then confirm")]
    assert turn(ana, {"type": "confirm_effect"})["active"] == BO
    # 4. Bo: Pikachu, from Bourg Palette, attacks at range Peach, a support of the adjacent enemy Link.
    #    Both say Pikachu wins: Peach is set aside, carried by Pikachu, who stays (the FAQ).
    g = turn(bo, {"type": "attack", "attacker": ids["Pikachu"], "defender": ids["Peach"]})
    assert g["fight"]["ranged"] and g["fight"]["exchange"] == "judge"
    g = judged("Pikachu")
    assert g["fights"][-1]["ranged"] and g["fights"][-1]["card"] == "Bourg Palette"
    assert next(f for f in g["figures"] if f["id"] == ids["Pikachu"])["at"] == [1, 1] and g["active"] == ANA
    # 5. Ana: Mario onto Île des Yoshis.  6. Bo: Bowser onto his Château de Bowser (held, confirmed).
    turn(ana, {"type": "move", "figure": ids["Mario"], "cell": [2, 2], "card": "Île des Yoshis"})
    g = turn(bo, {"type": "move", "figure": ids["Bowser"], "cell": [1, 2], "card": "Château de Bowser"})
    assert g["step"]["kind"] == "hold"
    assert turn(bo, {"type": "confirm_effect"})["active"] == ANA
    # 7. Ana: Mario leaves Île des Yoshis by swapping places with Bowser (who now stands next to Link),
    #    then moves on to a card he turns over, Amiiboxe ville: Ana swaps two locations, the revealed
    #    Château de Bowser with a face-down card (the FAQ), far from Bowser.
    g = turn(ana, {"type": "move", "figure": ids["Mario"], "swap_with": ids["Bowser"], "cell": [0, 2],
                   "card": "Amiiboxe ville"})
    assert g["step"]["kind"] == "swap_cards"
    g = turn(ana, {"type": "swap_cards", "first": [1, 2], "second": [3, 3]})
    at = {f["name"]["en"]: f["at"] for f in g["figures"]}
    assert at["Mario"] == [0, 2] and at["Bowser"] == [2, 2] and g["active"] == BO
    assert g["board"][3][3]["name"] == "Château de Bowser" and not g["board"][1][2]["revealed"]
    # 8. Bo: Kirby onto Dream Land, his own card (held, confirmed).
    turn(bo, {"type": "move", "figure": ids["Kirby"], "cell": [1, 3], "card": "Dream Land"})
    assert turn(bo, {"type": "confirm_effect"})["active"] == ANA
    # 9. Ana taps Link, then Pikachu: Link on Enfers attacks. Both say Link wins: Pikachu is set aside and
    #    Peach, whom he carried, goes back to Ana, out of the game (the book's second example). Enfers:
    #    Link stays and fights once more, a normal fight: he beats Bowser and takes his place.
    tap(emulator, table, ana, "Link", selected("figure", ids["Link"]))
    tap(emulator, table, ana, "Pikachu", selected("target", ids["Pikachu"]))
    turn(ana, {"type": "attack"})
    g = judged("Link")
    assert g["step"]["kind"] == "second_fight" and g["active"] == ANA
    assert next(f for f in g["figures"] if f["id"] == ids["Link"])["at"] == [2, 1]
    assert next(f for f in g["figures"] if f["id"] == ids["Peach"])["status"] == "out"
    turn(ana, {"type": "attack", "attacker": ids["Link"], "defender": ids["Bowser"]})
    g = judged("Link")
    assert next(f for f in g["figures"] if f["id"] == ids["Link"])["at"] == [2, 2] and g["active"] == BO
    # 10. Bo retires Kirby from Dream Land. Only Ana has figures on the board: the game ends at once
    #     and hers retire and score normally.
    final = turn(bo, {"type": "retire", "figure": ids["Kirby"]})

    # The book's scoring, by hand:
    #   Bo:  Kirby retired from his own card, carrying nobody              1
    #   Ana: Link retires carrying Pikachu and Bowser: 1 + 2                3
    #        Mario retires carrying nobody                                  1   -> 4
    #   Peach, beaten by Pikachu who was then beaten: nobody scores for her.
    assert final["phase"] == "over" and {s["id"]: s["points"] for s in final["seats"]} == {ANA: 4, BO: 1}
    assert [(r["figure"], r["points"], sorted(r["carried"]), r["automatic"]) for r in final["retires"]] == [
        (ids["Kirby"], 1, [], False), (ids["Link"], 3, sorted([ids["Pikachu"], ids["Bowser"]]), True),
        (ids["Mario"], 1, [], True)]
    assert final["winners"] == [ANA] and final["outcome"]["winners"] == [ANA]
    assert [(f["card"], f["ranged"], f["winner"]) for f in final["fights"]] == [
        ("Bourg Palette", True, "attacker"), ("Enfers", False, "attacker"), ("Enfers", False, "attacker")]
    for phone in (ana, bo):
        assert phone.wait_for_game(lambda g: g["phase"] == "over")["game"]["winners"] == [ANA]
    # Every effect card of the story is in the log, in the order it acted.
    effects = [entry["event"] for entry in table.log()["entries"]
               if entry.get("kind") == "event" and entry["event"].get("type") in ("effect", "effect_applied")]
    assert [(e["type"], e.get("card")) for e in effects] == [
        ("effect_applied", "Château de Peach"), ("effect_applied", "Château de Bowser"),
        ("effect", "Île des Yoshis"), ("effect", "Amiiboxe ville"), ("effect_applied", "Dream Land")]


def test_phones_without_a_reader_are_told_so_and_never_asked_to_tap(no_reader_server):
    table = LiveTable(no_reader_server, "amiiboxe", {}, ("Ana", "Bo"), start=False)
    try:
        assert reader_state(table.phones["Ana"], "absent") == {"state": "absent", "model": None}
        assert reader_state(table.host, "absent")["text"]["en"]  # the host screen says why, in words
        # Picking by name is the way (the phone's screen offers no tapping: tests/test_layout.py).
        table.phones["Ana"].play({"type": "figure.pick", "amiibo_id": ANA_FIGURES[0][1]})
        assert table.phones["Bo"].wait_for(figure_count(table.seat("Ana"), 1))
    finally:
        table.close()


def reader_process(server: ServerProcess) -> psutil.Process:
    """The server's reader child (``python -m hardware.reader --events``), started by the server."""
    for child in psutil.Process(server.process.pid).children(recursive=True):
        if "hardware.reader" in child.cmdline():
            return child
    raise AssertionError("the server has no reader process")


def test_a_reader_that_goes_away_is_named_on_the_phones_changes_nothing_and_comes_back(tables, reader_server):
    server, emulator = reader_server
    table = tables("amiiboxe", {}, ("Ana", "Bo"), start=False)
    ana, bo = table.phones["Ana"], table.phones["Bo"]
    reader_state(ana, "connected")
    ana.play({"type": "figure.adding", "on": True})
    tap(emulator, table, bo, "Link", figure_count(table.seat("Ana"), 1))
    before = requests.get(f"{table.url}/api/tables/{table.code}", timeout=WAIT).json()

    # The reader's process ends (a driver that crashes): every phone is told at once, the figures
    # registered and Ana's adding stay as they were.
    process = reader_process(server)
    process.kill()
    process.wait(WAIT)
    gone = reader_state(bo, "error")
    assert gone == {"state": "error", "model": None}  # no technical detail on a phone
    assert reader_state(ana, "error") == gone
    after = requests.get(f"{table.url}/api/tables/{table.code}", timeout=WAIT).json()
    assert after["table"]["figures"] == before["table"]["figures"] and after["version"] == before["version"]
    assert after["table"]["figures"]["registering"] == table.seat("Ana")

    # The server starts the reader again by itself: the phones learn it, and taps register again.
    reader_state(ana, "connected")
    tap(emulator, table, bo, "Mario", figure_count(table.seat("Ana"), 2))


def test_the_host_passes_an_away_players_turn_and_confirms_a_cards_effect_a_phone_cannot_forge_it(tables):
    table = tables("amiiboxe", {"board": "kept"}, ("Ana", "Bo"), start=False)
    for name, figures in (("Ana", ANA_FIGURES), ("Bo", BO_FIGURES)):
        for _, amiibo_id, _ in figures:
            table.phones[name].play({"type": "figure.pick", "amiibo_id": amiibo_id})
    host = table.host
    host.play({"type": "table.start"})
    game = host.wait_for_game(lambda g: g["phase"] == "setup")["game"]
    ids = {f["name"]["en"]: f["id"] for f in game["figures"]}
    for name, cell in (("Link", [3, 0]), ("Mario", [3, 1]), ("Peach", [3, 2]), ("Pikachu", [0, 0]),
                       ("Bowser", [0, 1]), ("Kirby", [0, 2])):
        host.play({"type": "place", "figure": ids[name], "cell": cell})
    host.play({"type": "first_player", "player": table.seat("Bo")})
    host.play({"type": "begin"})
    ana, bo = table.phones["Ana"], table.phones["Bo"]
    BO = table.seat("Bo")

    # A phone cannot pass, even with the host's mark on its action (the table drops the mark).
    refused = bo.act({"type": "pass", "proxied": True})
    assert not refused["ok"] and "only the host passes" in refused["error"]
    assert "pass" not in {a["type"] for a in bo.wait_for_game(lambda g: g["active"] == BO)["game"]["legal"]}
    # Bo's phone leaves: the host passes his turn (the waits say what the game waits on).
    table.away("Bo")
    choices = host.wait_for(lambda v: str(BO) in (v["table"].get("proxy") or {}))["table"]["proxy"][str(BO)]
    assert {c["type"] for c in choices} == {"pass"}  # never a move, an attack or a sealed answer
    host.play({"type": "table.decide", "seat": BO, "action": {"type": "pass"}})
    g = ana.wait_for_game(lambda g: g["active"] == table.seat("Ana"))["game"]
    assert g["turn"] == 2
    # Ana moves onto a card the companion does not know and her phone leaves: the host confirms for her.
    ana.play({"type": "move", "figure": ids["Link"], "cell": [2, 0], "card": "Temple du temps"})
    ana.close()  # (Bo's leaving consumed the presence messages that showed Ana here)
    while str(table.seat("Ana")) not in host.wait_event("presence")["away_since"]:
        pass
    host.wait_for(lambda v: any(c["type"] == "confirm_effect"
                                for c in (v["table"].get("proxy") or {}).get(str(table.seat("Ana")), [])))
    host.play({"type": "table.decide", "seat": table.seat("Ana"), "action": {"type": "confirm_effect"}})
    done = host.wait_for_game(lambda g: g["active"] == BO)["game"]
    assert done["step"] is None and done["turn"] == 3
    entries = [e for e in table.log()["entries"] if e.get("proxy")]
    assert [e["event"]["type"] for e in entries] == ["turn_passed", "turn", "effect_applied", "turn"]
