"""Undo at a Rayman table, on the real server with real Socket.IO clients (each phone, the host screen,
a spectator): a player takes back a board entry and every other screen shows it taken back; an undo
after another seat acted, past a draw, or of an action that is not bookkeeping is refused with its
reason and changes nothing; the log keeps the undone action and its event, marked, and the closed
table's log still verifies and replays to the state the table ended in."""

from __future__ import annotations


from companion.games.rayman import SETUP_PHASES
from companion.verify import verify_log
from tests.test_rayman_server import FAST, LOCK, ROLL, Table, drive, own, setup_move
from tests.server import server_fixture

UNDO = {"type": "seat.undo"}


server = server_fixture("rayman-undo", FAST)


def positions_seen(table: Table, seat: int) -> list:
    """Where every screen (the other phones, the host screen, the spectator) shows the seat's figure."""
    return [own(screen.latest["game"], seat)["position"] for who, screen in table.screens.items() if who != seat]


def a_position(table: Table, seat: int, unlike=None) -> dict:
    """A board entry the rules list for the seat now, not the one it has."""
    return next(action for action in table.game(seat)["legal"]
                if action["type"] == "position" and action != unlike)


def test_a_rayman_player_undoes_a_board_entry_and_undo_is_refused_past_another_seat_or_a_draw(server):
    table = Table.create(server.url, {"mode": "coop", "boss_move": 5}, players=2)  # a Boss die to roll
    table.connect()
    try:
        table.start()
        drive(table, setup_move, lambda game: game["phase"] not in SETUP_PHASES)
        ana, ben = table.seats

        entry = a_position(table, ana)
        table.act(ana, entry)
        assert positions_seen(table, ana) == [{"column": entry["column"], "level": entry["level"]}] * 3
        table.act(ana, UNDO)  # one view on every screen (Table.act checks it)
        assert positions_seen(table, ana) == [None] * 3
        assert all(screen.latest["table"]["undo"] is None for screen in table.screens.values())

        # Another seat acts: Ana's entry stands.
        table.act(ana, entry)
        table.act(ben, a_position(table, ben))
        table.refused(ana, UNDO, 409, "Another seat has acted since: this seat's last action can no longer be undone.")
        table.refused(ben, {"type": "seat.undo", "seat": ana}, 403, "You can only act for your own seat.")

        # A draw: the roller's entry before it and the roll itself stand.
        roller = table.game()["round"]["roller"] or ana  # with only the Boss's die, anyone rolls
        where = own(table.game(), roller)["position"]
        table.act(roller, a_position(table, roller, unlike={"type": "position", **where}))
        table.act(roller, ROLL)
        table.refused(roller, UNDO, 409, "That action drew at random (a die, a shuffle): it cannot be undone, "
                                         "the draw stands.")
        assert table.game()["phase"] == "choosing"

        # A secret choice locked in is not bookkeeping.
        mine = own(table.game(ana), ana)
        table.act(ana, {"type": "choose", "left": mine["hand"][0], "second": mine["hand"][1]})
        table.act(ana, LOCK)
        table.refused(ana, UNDO, 409, "That action cannot be undone: only bookkeeping (positions, counters, "
                                      "tokens) can.")

        playing = table.log()
        actions = [e for e in playing["entries"] if e["kind"] == "action"]
        assert actions and all(e.get("sealed") and "action" not in e for e in actions)  # sealed while playing
        table.act("host", {"type": "table.close"}, strict=False)
        log = table.log()
    finally:
        table.disconnect()

    undone = [e for e in log["entries"] if e.get("undone")]
    assert [(e["kind"], (e.get("action") or e.get("event") or {}).get("type")) for e in undone] == [
        ("action", "position"), ("event", "moved")]
    assert [e["by"] for e in log["entries"] if e.get("type") == "undone"] == ["seat"]
    report = verify_log(log)
    assert report.ok and report.problems == report.replay == [], report.message
    assert any(note.startswith("the game was replayed from its") for note in report.notes)
