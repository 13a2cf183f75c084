"""The bridge between the server's NFC reader and the tables, without the reader:
its callbacks are called as the reader thread would (the reader itself is tested
in tests/test_hardware_*)."""

from __future__ import annotations

from types import SimpleNamespace

from tests.helpers import new_table

UID = "04a1b2c3d4e5f6"
LUIGI = "0x0001000000010002"


def events(connection, name):
    return [m["args"][0] for m in connection.get_received() if m["name"] == name]


def test_a_tap_goes_to_the_table_on_the_newest_host_screen(app, client, socket_client):
    older, newer = new_table(client), new_table(client)
    socket_client(older["code"], older["host_token"])
    host = socket_client(newer["code"], newer["host_token"])
    host.get_received()
    bridge = app.extensions["companion.reader"]
    bridge.on_scan(SimpleNamespace(uid=UID, amiibo_id=LUIGI))
    pending = [v for v in events(host, "view")][-1]["table"]["figures"]["pending"]
    assert pending["amiibo_id"] == LUIGI and pending["uid"] == UID and pending["claim"]
    older_view = client.get(f"/api/tables/{older['code']}").json
    assert older_view["table"]["figures"]["pending"] is None


def test_reader_state_reaches_every_host_screen_and_new_ones(app, client, socket_client):
    table = new_table(client)
    host = socket_client(table["code"], table["host_token"])
    assert events(host, "reader") == [{"state": "off", "model": None, "message": None}]
    bridge = app.extensions["companion.reader"]
    bridge.on_status({"state": "connected", "model": "Sony RC-S380", "message": None})
    assert events(host, "reader")[-1]["model"] == "Sony RC-S380"
    phone = socket_client(table["code"], table["seats"]["Ana"]["token"])
    assert events(phone, "reader") == []  # phones are not told about the hardware
    later = socket_client(table["code"], table["host_token"])
    assert events(later, "reader")[-1]["state"] == "connected"


def test_a_refused_tap_is_explained_on_the_host_screen_in_its_language(app, client, socket_client):
    table = new_table(client)
    client.post(f"/api/tables/{table['code']}/actions", json={"type": "table.joining", "open": False},
                headers={"Authorization": f"Bearer {table['host_token']}"})
    host = socket_client(table["code"], table["host_token"], **{"Accept-Language": "fr"})
    host.get_received()
    app.extensions["companion.reader"].on_scan(SimpleNamespace(uid=UID, amiibo_id=LUIGI))
    assert events(host, "reader")[-1]["tap_error"].startswith("Personne n'ajoute de figurines")


def test_a_tap_error_from_the_reader_and_a_tap_with_no_host_screen(app, client, socket_client):
    table = new_table(client)
    bridge = app.extensions["companion.reader"]
    bridge.on_scan(SimpleNamespace(uid=UID, amiibo_id=LUIGI))  # nobody to tell: nothing breaks
    host = socket_client(table["code"], table["host_token"])
    host.get_received()
    bridge.on_tap_error("the figure was taken away before it could be read: place it again")
    assert events(host, "reader")[-1]["tap_error"] == "The figure was taken away before it could be read: place it again"
    french = socket_client(table["code"], table["host_token"], **{"Accept-Language": "fr"})
    french.get_received()
    bridge.on_tap_error("blank tag: there is no amiibo id on it (pages 0x15-0x16 are all zeros)")
    assert events(french, "reader")[-1]["tap_error"] == "Cette étiquette est vierge\u00a0: aucun amiibo dessus."
