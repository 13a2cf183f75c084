"""Amiiboxe on the real server (python app.py) with the NFC reader emulated over udp: the
reader process reads the emulator (`hardware.emulate`, virtual NTAG215 amiibo) through
nfcpy's own udp driver and Type 2 tag code; the host screen and the phones are
python-socketio clients.

* A whole 3-player game on a kept board, figures registered and picked by taps, using Bourg Palette,
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
from tests.server import ServerProcess, server_fixture

# A phone that leaves is away at once (the host may then decide for it).
FAST = {"COMPANION_RATE_BURST": "1000", "COMPANION_RATE_PER_SECOND": "1000", "COMPANION_AWAY_SECONDS": "0"}
# (uid of the virtual tag, amiibo id, English name): the shipped catalogue names them.
ANA_FIGURES = [("04c10000000001", "0x0100000000040002", "Link"), ("04c10000000002", "0x0000000000000002", "Mario"),
               ("04c10000000003", "0x0002000000010002", "Peach")]
BO_FIGURES = [("04c20000000001", "0x1919000000090002", "Pikachu"), ("04c20000000002", "0x0005000000140002", "Bowser"),
              ("04c20000000003", "0x1f000000000a0002", "Kirby")]
CY_FIGURES = [("04c30000000001", "0x00010000000c0002", "Luigi"), ("04c30000000002", "0x0580000000050002", "Fox"),
              ("04c30000000003", "0x05c0000000060002", "Samus")]
TAPS = {name: (uid, amiibo_id) for uid, amiibo_id, name in ANA_FIGURES + BO_FIGURES + CY_FIGURES}


@pytest.fixture
def reader_server(tmp_path):
    with Emulator(port=0) as emulator:
        server = ServerProcess(tmp_path, extra_env={"COMPANION_READER": emulator.path, **FAST}).start()
        try:
            yield server, emulator
        finally:
            server.stop()


# A reader is configured but none is plugged in (the default, "usb", on a machine without one).
no_reader_server = server_fixture("no-reader", {**FAST, "COMPANION_READER": "usb:ffff:fffe"}, scope="function")


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


def test_a_three_player_kept_board_game_with_figures_tapped_on_the_udp_reader_ends_with_the_books_scoring(
        tables, reader_server):
    _, emulator = reader_server
    # PRO mode: the two fighters judge every fight, whatever criterion the die shows, so the story
    # below does not depend on the die (which the server still rolls and logs for each fight).
    # Seats sit clockwise from the south in the order they join: Ana south, Cy west, Bo north.
    table = tables("amiiboxe", {"board": "kept", "pro": "on"}, ("Ana", "Cy", "Bo"), start=False)
    host, ana, bo, cy = table.host, table.phones["Ana"], table.phones["Bo"], table.phones["Cy"]
    ANA, BO, CY = table.seat("Ana"), table.seat("Bo"), table.seat("Cy")
    reader_state(host, "connected")
    model = reader_state(bo, "connected")["model"]
    for phone in (ana, cy):
        assert reader_state(phone, "connected") == {"state": "connected", "model": model}

    register_by_taps(emulator, table, "Ana", ANA_FIGURES)
    register_by_taps(emulator, table, "Cy", CY_FIGURES)
    register_by_taps(emulator, table, "Bo", BO_FIGURES)
    listed = host.latest["table"]["figures"]["list"]
    assert [(f["name"]["en"], f["uid"]) for f in listed] == [
        (n, uid) for uid, _, n in ANA_FIGURES + CY_FIGURES + BO_FIGURES]
    host.play({"type": "table.start"})
    game = host.wait_for_game(lambda g: g["phase"] == "setup")["game"]
    ids = {f["name"]["en"]: f["id"] for f in game["figures"]}
    # 3 figures a player + 1, and 1 more a side with 3 players (the book's « Mise en place »).
    assert game["setup"]["size"] == 5 and game["board"] is not None
    homes = {f["name"]["en"]: f["location"] for f in game["figures"]}
    assert homes == {
        "Link": "Temple du temps", "Mario": "Royaume Champignon", "Peach": "Château de Peach",
        "Luigi": "Royaume Champignon", "Fox": "Great Fox", "Samus": "Zèbes",
        "Pikachu": "Bourg Palette", "Bowser": "Château de Bowser", "Kirby": "Dream Land"}

    # Setup: each figure tapped, then its owner's phone puts it on their starting line (Ana row 4,
    # Cy column 0, Bo row 0; the corners two lines share stay empty); the phones agree Ana plays
    # first; the host begins. The turn goes clockwise: Ana, Cy, Bo.
    for name, phone, cell in (("Link", ana, [4, 1]), ("Mario", ana, [4, 2]), ("Peach", ana, [4, 3]),
                              ("Luigi", cy, [1, 0]), ("Fox", cy, [2, 0]), ("Samus", cy, [3, 0]),
                              ("Pikachu", bo, [0, 1]), ("Bowser", bo, [0, 2]), ("Kirby", bo, [0, 3])):
        tap(emulator, table, phone, name, selected("figure", ids[name]))
        phone.play({"type": "place", "cell": cell})
    for phone in (ana, cy, bo):
        phone.play({"type": "first_player", "player": ANA})
    host.wait_for_game(lambda g: g["needs"] == [])
    host.play({"type": "begin"})

    def turn(phone, action) -> dict:
        """The game as the host screen shows it once the action is in (its version read after it)."""
        phone.play(action)
        version = current_version(table)
        return host.wait_for(lambda v: v["version"] >= version)["game"]

    def judged(first, second, winner: str) -> dict:
        """Both fighters give the same winner, sealed: they agree, so it decides. Until the second
        answers, the first answer is on its own phone alone (not the other fighter's, not the
        third player's, not the host screen)."""
        turn(first, {"type": "judge", "winner": ids[winner]})
        version = current_version(table)
        for screen in (ana, bo, cy, host):
            own = ids[winner] if screen is first else None
            assert screen.wait_for(lambda v: v["version"] >= version)["game"]["fight"]["your_answer"] == own
        return turn(second, {"type": "judge", "winner": ids[winner]})

    def held(phone, seat: int, figure: str, cell: list[int], card: str) -> dict:
        """A figure turns over a card whose effect the companion does not know: the turn holds
        until its player confirms the table applied it."""
        g = turn(phone, {"type": "move", "figure": ids[figure], "cell": cell, "card": card})
        assert g["active"] == seat and g["step"]["kind"] == "hold" and g["step"]["card"] == card
        assert [(w["seat"], w["text"]["en"]) for w in host.latest["table"]["waiting"]] == [
            (seat, f"Apply the effect of {card} on the board, then confirm")]
        return turn(phone, {"type": "confirm_effect"})

    def at(g: dict, name: str):
        return next(f for f in g["figures"] if f["id"] == ids[name])["at"]

    # Round 1. Ana taps Link and moves him onto his own Temple du temps (held, confirmed).
    tap(emulator, table, ana, "Link", selected("figure", ids["Link"]))
    assert held(ana, ANA, "Link", [3, 1], "Temple du temps")["active"] == CY
    #   Cy: Samus onto her own card (held, confirmed).  Bo: Pikachu onto Bourg Palette, next to Luigi.
    assert held(cy, CY, "Samus", [4, 0], "Zèbes")["active"] == BO
    g = turn(bo, {"type": "move", "figure": ids["Pikachu"], "cell": [1, 1], "card": "bourg palette"})
    assert g["active"] == ANA and g["board"][1][1] == {"revealed": True, "name": "Bourg Palette"}
    # Round 2. Ana: Link onto the card he turns over, Enfers (an attack effect: nothing now).
    g = turn(ana, {"type": "move", "figure": ids["Link"], "cell": [2, 1], "card": "Enfers"})
    assert g["active"] == CY and g["board"][2][1] == {"revealed": True, "name": "Enfers"}
    #   Cy retires Samus from her card.
    g = turn(cy, {"type": "retire", "figure": ids["Samus"]})
    assert g["active"] == BO and g["phase"] == "play"
    #   Bo: Pikachu, from Bourg Palette, attacks at range Fox, a support of the adjacent enemy Luigi.
    #   Both say Pikachu wins: Fox is set aside, carried by Pikachu, who stays (the FAQ).
    g = turn(bo, {"type": "attack", "attacker": ids["Pikachu"], "defender": ids["Fox"]})
    assert g["fight"]["ranged"] and g["fight"]["exchange"] == "judge"
    g = judged(bo, cy, "Pikachu")
    assert g["fights"][-1]["ranged"] and g["fights"][-1]["card"] == "Bourg Palette"
    assert at(g, "Pikachu") == [1, 1] and g["active"] == ANA
    # Round 3. Ana: Mario onto his own Royaume Champignon (held, confirmed).
    assert held(ana, ANA, "Mario", [3, 2], "Royaume Champignon")["active"] == CY
    #   Cy: Luigi, his last figure, attacks Pikachu and loses: the defender stays and carries him.
    #   Cy has no figure left on the board: the turn skips him from now on.
    turn(cy, {"type": "attack", "attacker": ids["Luigi"], "defender": ids["Pikachu"]})
    g = judged(cy, bo, "Pikachu")
    assert g["fights"][-1]["winner"] == "defender" and at(g, "Pikachu") == [1, 1] and at(g, "Luigi") is None
    assert g["active"] == BO
    #   Bo: Kirby onto his own Dream Land (held, confirmed).
    assert held(bo, BO, "Kirby", [1, 3], "Dream Land")["active"] == ANA
    # Round 4. Ana: Mario onto Île des Yoshis.  Bo: Bowser onto his Château de Bowser (held, confirmed).
    assert turn(ana, {"type": "move", "figure": ids["Mario"], "cell": [2, 2], "card": "Île des Yoshis"})[
        "active"] == BO
    assert held(bo, BO, "Bowser", [1, 2], "Château de Bowser")["active"] == ANA
    # Round 5. Ana: Mario leaves Île des Yoshis by swapping places with Bowser (who now stands next to
    #    Link), then moves on to a card he turns over, Amiiboxe ville: Ana swaps two locations, the
    #    revealed Château de Bowser with a face-down card (the FAQ), far from Bowser.
    g = turn(ana, {"type": "move", "figure": ids["Mario"], "swap_with": ids["Bowser"], "cell": [0, 2],
                   "card": "Amiiboxe ville"})
    assert g["step"]["kind"] == "swap_cards"
    g = turn(ana, {"type": "swap_cards", "first": [1, 2], "second": [3, 4]})
    assert at(g, "Mario") == [0, 2] and at(g, "Bowser") == [2, 2] and g["active"] == BO
    assert g["board"][3][4]["name"] == "Château de Bowser" and not g["board"][1][2]["revealed"]
    #   Bo retires Kirby from Dream Land; Pikachu and Bowser still hold the board for him.
    g = turn(bo, {"type": "retire", "figure": ids["Kirby"]})
    assert g["phase"] == "play" and g["active"] == ANA
    # Round 6. Ana taps Link, then Pikachu: Link on Enfers attacks. Both say Link wins: Pikachu is set
    #    aside and Fox and Luigi, whom he carried, go back to Cy, out of the game (the book's second
    #    example). Enfers: Link stays and fights once more, a normal fight: he beats Bowser and takes
    #    his place. Only Ana has figures on the board: the game ends at once and hers retire and
    #    score normally.
    tap(emulator, table, ana, "Link", selected("figure", ids["Link"]))
    tap(emulator, table, ana, "Pikachu", selected("target", ids["Pikachu"]))
    turn(ana, {"type": "attack"})
    g = judged(ana, bo, "Link")
    assert g["step"]["kind"] == "second_fight" and g["active"] == ANA and at(g, "Link") == [2, 1]
    assert {f["name"]["en"]: f["status"] for f in g["figures"] if f["seat"] == CY} == {
        "Luigi": "out", "Fox": "out", "Samus": "retired"}
    turn(ana, {"type": "attack", "attacker": ids["Link"], "defender": ids["Bowser"]})
    final = judged(ana, bo, "Link")
    assert at(final, "Link") is None  # he took Bowser's place, then retired with the game's end

    # The book's scoring, by hand:
    #   Cy:  Samus retired from her own card, carrying nobody              1
    #   Bo:  Kirby retired from his own card, carrying nobody              1
    #   Ana: Link retires carrying Pikachu and Bowser: 1 + 2                3
    #        Mario and Peach retire carrying nobody: 1 + 1                  2   -> 5
    #   Fox and Luigi, beaten by Pikachu who was then beaten: nobody scores for them.
    assert final["phase"] == "over" and {s["id"]: s["points"] for s in final["seats"]} == {ANA: 5, BO: 1, CY: 1}
    assert [(r["figure"], r["points"], sorted(r["carried"]), r["automatic"]) for r in final["retires"]] == [
        (ids["Samus"], 1, [], False), (ids["Kirby"], 1, [], False),
        (ids["Link"], 3, sorted([ids["Pikachu"], ids["Bowser"]]), True), (ids["Mario"], 1, [], True),
        (ids["Peach"], 1, [], True)]
    assert final["winners"] == [ANA] and final["outcome"]["winners"] == [ANA]
    assert [(f["card"], f["ranged"], f["winner"]) for f in final["fights"]] == [
        ("Bourg Palette", True, "attacker"), (None, False, "defender"), ("Enfers", False, "attacker"),
        ("Enfers", False, "attacker")]
    for phone in (ana, bo, cy):
        assert phone.wait_for_game(lambda g: g["phase"] == "over")["game"]["winners"] == [ANA]
    # Every effect card of the story is in the log, in the order it acted.
    effects = [entry["event"] for entry in table.log()["entries"]
               if entry.get("kind") == "event" and entry["event"].get("type") in ("effect", "effect_applied")]
    assert [(e["type"], e.get("card")) for e in effects] == [
        ("effect_applied", "Temple du temps"), ("effect_applied", "Zèbes"),
        ("effect_applied", "Royaume Champignon"), ("effect_applied", "Dream Land"),
        ("effect_applied", "Château de Bowser"), ("effect", "Île des Yoshis"), ("effect", "Amiiboxe ville")]


def test_phones_without_a_reader_are_told_so_and_never_asked_to_tap(no_reader_server):
    table = LiveTable(no_reader_server, "amiiboxe", {}, ("Ana", "Bo"), start=False)
    try:
        assert reader_state(table.phones["Ana"], "absent") == {"state": "absent", "model": None}
        assert reader_state(table.host, "absent")["text"]["en"]  # the host screen says why, in words
        # Picking by name is the way (the phone's screen offers no tapping: tests/test_layout_amiiboxe.py).
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
