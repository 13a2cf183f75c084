"""What the host may do with an away seat depends on the table's state: in the lobby the seat is
simply removed (a hand-off would keep nothing), and a closed table takes no action at all.

Bad inputs tried here: a hand-off asked in the lobby, a hand-off and a removal asked on a closed
table; each is refused with its reason in the screen's language and leaves the log unchanged."""

from __future__ import annotations

from tests.helpers import bearer, new_table

FRENCH = {"Accept-Language": "fr-FR,fr;q=0.9"}


def host_act(client, table, action, headers=None):
    return client.post(f"/api/tables/{table['code']}/actions", json=action,
                       headers={**bearer(table["host_token"]), **(headers or {})})


def entries(client, table):
    return client.get(f"/api/tables/{table['code']}/log").json["entries"]


def test_a_hand_off_in_the_lobby_is_refused_the_seat_is_removed_instead(client):
    table = new_table(client, "arkade", names=("Ana", "Bo"))
    ana = table["seats"]["Ana"]["seat"]
    before = entries(client, table)
    refused = host_act(client, table, {"type": "table.handoff", "seat": ana})
    assert refused.status_code == 409
    assert refused.json["error"] == ("The game has not started: remove the away seat instead, and let the new phone "
                                     "join with the QR code.")
    french = host_act(client, table, {"type": "table.handoff", "seat": ana}, FRENCH)
    assert french.json["error"].startswith("La partie n’a pas commencé\u00a0: retirez plutôt la place absente")
    assert entries(client, table) == before
    assert host_act(client, table, {"type": "table.remove", "seat": ana}).status_code == 200
    seats = client.get(f"/api/tables/{table['code']}", headers=bearer(table["host_token"])).json["table"]["seats"]
    assert [seat["name"] for seat in seats] == ["Bo"]


def test_a_started_game_still_hands_an_away_seat_to_another_phone(client):
    table = new_table(client, "arkade", names=("Ana", "Bo"))
    assert host_act(client, table, {"type": "table.start"}).status_code == 200
    offer = host_act(client, table, {"type": "table.handoff", "seat": table["seats"]["Ana"]["seat"]})
    assert offer.status_code == 200 and len(offer.json["handoff"]["code"]) == 6


def test_a_closed_table_offers_nothing_to_do_with_a_seat(client):
    table = new_table(client, "dice", names=("Ana",))
    assert host_act(client, table, {"type": "table.close"}).status_code == 200
    before = entries(client, table)
    ana = table["seats"]["Ana"]["seat"]
    for action in ({"type": "table.handoff", "seat": ana}, {"type": "table.remove", "seat": ana},
                   {"type": "table.withdraw", "seat": ana}):
        refused = host_act(client, table, action, FRENCH)
        assert refused.status_code == 410 and refused.json["error"] == "Cette table est fermée.", action
    assert entries(client, table) == before
